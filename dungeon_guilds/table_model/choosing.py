"""Choosing adventurers of a hand before a move (issue 39): what a click on a card of the hand
does to the choice, written once for every view — the widget board (Learn, Play, pass-and-play)
asks :func:`next_choice`, and a class table's page follows the ``next`` of the ``picks`` the
server sends (:func:`~dungeon_guilds.app.tables.render.picks`), made here.

At the setup two adventurers are exhausted together (R2.4): a click adds a card, a third click
drops the oldest; in the dispatch one adventurer goes in at a time (R4.1), so a click replaces
the choice. A click on a chosen card unchooses it. Whether a card may be chosen at all is the
engine's answer (:func:`~dungeon_guilds.board_targets.board_targets`), not this module's.
"""

from __future__ import annotations

from typing import Sequence


def next_choice(chosen: Sequence[int], strength: int, setup: bool) -> tuple[int, ...]:
    """The choice after a click on the card of ``strength``, ``chosen`` before it."""
    now = list(chosen)
    if strength in now:
        now.remove(strength)
    elif setup:
        now = (now + [strength])[-2:]
    else:
        now = [strength]
    return tuple(now)


def choice_key(chosen: Sequence[int]) -> str:
    """A choice as the page names it: its strengths in order, ``"2,4"`` (``""``: none)."""
    return ",".join(map(str, sorted(chosen)))


__all__ = ["choice_key", "next_choice"]
