"""The teacher's kit (issue 28): worksheets worked out by the engine, and the lesson plans'
exit quizzes.

==============================  ===========================================================
``teaching.positions``          seeded engine positions a worksheet asks about (a set-up and
                                the moves played; rebuilt by the engine on demand)
``teaching.worksheets``         one worksheet per lesson: questions and their answer key, every
                                number read from the engine
``teaching.worksheet_html``     the printable page (worksheet or answer key), English or 繁體中文
==============================  ===========================================================

Standard library only: the static site (no pandas) prints worksheets too. The lesson plans are
in ``docs/teaching/``; the design challenges in :mod:`dungeon_guilds.workshop.challenges`.
"""

LESSONS = ("learn", "design", "compare")

__all__ = ["LESSONS"]
