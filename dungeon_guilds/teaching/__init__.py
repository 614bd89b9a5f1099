"""The teacher's kit (issue 28): worksheets worked out by the engine, and the lesson plans'
exit quizzes.

==============================  ===========================================================
``teaching.positions``          seeded engine positions a worksheet asks about (a set-up and
                                the moves played; rebuilt by the engine on demand)
``teaching.worksheets``         one worksheet per lesson: questions and their answer key, every
                                number read from the engine
``teaching.worksheet_html``     the printable page (worksheet or answer key), English or 繁體中文;
                                Worksheet 2 opens with the group's design handout
``teaching.lesson_pages``       the lesson plans (``teaching/lessons/*.md``, package data) as
                                pages to print (rendered with mistune)
==============================  ===========================================================

Standard library only: the static site (no pandas) prints worksheets too. The lesson plans are
in ``teaching/lessons/`` (rendering them needs mistune, which the dashboard's extras bring); the design challenges in :mod:`dungeon_guilds.workshop.challenges`.
"""

LESSONS = ("learn", "design", "compare")

__all__ = ["LESSONS"]
