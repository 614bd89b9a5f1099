"""Whether a teacher code chosen by the teacher (``DUNGEON_GUILDS_TEACHER_CODE``) guards the
class's records (issue 51, item 5): the server (:func:`~dungeon_guilds.app.table_server.teacher_code`)
asks :func:`weakness` at start and stops with the reason, in English and 繁體中文, for a code that is

* **short** — under :data:`MIN_LENGTH` characters, or under :data:`MIN_KINDS` different ones;
* **common** — one of a small built-in list of codes people choose (:data:`COMMON`: ``password12``,
  ``qwertyuiop``, ``teacher123`` …), with its digits and signs or without them;
* **sequential** — half of it or more one run along the digits, the alphabet or a keyboard row,
  forwards or backwards (``1234567890``, ``abcdefghij``, ``zyxw…``, ``asdfgh…``).

The rule needs no list to catch most guessable codes; the list catches the words a rule cannot.
Pure Python (standard library).
"""

from __future__ import annotations

MIN_LENGTH = 10
MIN_KINDS = 6  # different characters
RUNS = ("01234567890", "abcdefghijklmnopqrstuvwxyz", "qwertyuiop", "asdfghjkl", "zxcvbnm", "1qaz2wsx3edc4rfv")
COMMON = frozenset("""
password passw0rd password1 password12 password123 p@ssword p@ssw0rd iloveyou letmein welcome welcome1
admin administrator teacher teacher1 teacher12 teacher123 classroom schoolcode student students sunshine
princess football baseball dragon monkey shadow master superman batman trustno1 whatever qwerty qwertyuiop
asdfghjkl zxcvbnm abc123 abcdef changeme secret secretcode dungeon dungeonguilds dungeon-guilds guilds
boardgame tables classtables hello helloworld computer internet
""".split())


def _run_length(text: str) -> int:
    """The longest stretch of ``text`` that is one run of :data:`RUNS`, forwards or backwards."""
    best = 0
    for run in RUNS + tuple(r[::-1] for r in RUNS):
        for start in range(len(text)):
            end = start + 1
            while end <= len(text) and text[start:end] in run:
                end += 1
            best = max(best, end - 1 - start)
    return best


def _bare(text: str) -> str:
    """``text`` without its digits and signs (``password12`` -> ``password``)."""
    return "".join(ch for ch in text if ch.isalpha())


def weakness(code: str) -> str | None:
    """Why ``code`` is too weak (``short``, ``common`` or ``sequential``), or None."""
    text = code.strip().casefold()
    if len(text) < MIN_LENGTH or len(set(text)) < MIN_KINDS:
        return "short"
    if text in COMMON or _bare(text) in COMMON or text.replace(" ", "") in COMMON:
        return "common"
    if 2 * _run_length(text) >= len(text):
        return "sequential"
    return None


__all__ = ["COMMON", "MIN_KINDS", "MIN_LENGTH", "weakness"]
