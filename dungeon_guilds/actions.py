"""What a move looks like, and its compact text notation (R4.3-R4.5, R2.4).

========================  ============================================================
``place S R``             put your strength-S adventurer in the first free slot of room R
``bump S Rx``             replace another player's (or an NPC's) adventurer in room R slot x
``swap S Rx``             replace your own adventurer in room R slot x
``exhaust A B``           setup (R2.4): exhaust strengths A and B for round 1
========================  ============================================================

Rooms are numbered from 1 at the top of the dungeon; slots are ``a`` and ``b``. A move may be
prefixed with the player's name, ``Ann: place 1 1``. ``parse(str(a)) == a`` for every action.
"""

from __future__ import annotations

import re
from typing import NamedTuple

PLACE, BUMP, SWAP, EXHAUST = "place", "bump", "swap", "exhaust"
KINDS = (PLACE, BUMP, SWAP, EXHAUST)
SLOT_LETTERS = "ab"


class ActionSyntaxError(ValueError):
    """Move text that is not in the notation. ``code`` and ``params`` (see ``errors.CODES``)
    let a language word it; the message is the English sentence."""

    def __init__(self, message: str, code: str = "move_unreadable", **params):
        super().__init__(message)
        self.code, self.params = code, params


class Action(NamedTuple):
    """One move. ``room`` is 1-based; ``slot`` is 0 (a) or 1 (b) for bump/swap, -1 for place.
    For ``exhaust``, ``strength`` and ``other`` are the two strengths."""

    kind: str
    strength: int
    room: int = 0
    slot: int = -1
    other: int = 0

    def __str__(self) -> str:
        if self.kind == PLACE:
            return f"place {self.strength} {self.room}"
        if self.kind == EXHAUST:
            return f"exhaust {self.strength} {self.other}"
        return f"{self.kind} {self.strength} {self.room}{SLOT_LETTERS[self.slot]}"


def place(strength: int, room: int) -> Action:
    return Action(PLACE, strength, room)


def bump(strength: int, room: int, slot: int | str) -> Action:
    return Action(BUMP, strength, room, _slot(slot))


def swap(strength: int, room: int, slot: int | str) -> Action:
    return Action(SWAP, strength, room, _slot(slot))


def exhaust(a: int, b: int) -> Action:
    a, b = sorted((a, b))
    return Action(EXHAUST, a, other=b)


def _slot(slot: int | str) -> int:
    if isinstance(slot, str):
        return SLOT_LETTERS.index(slot)
    return slot


_MOVE = re.compile(
    r"^\s*(?:(?P<name>[^:]+?)\s*:\s*)?(?P<kind>[a-z]+)\s+(?P<s>\d+)\s+(?P<r>\d+)(?P<x>[ab])?\s*$"
)


def parse_move(text: str) -> tuple[str | None, Action]:
    """Parse ``"[Name:] kind S R[x]"``; returns (name or None, action)."""
    if not isinstance(text, str):
        raise ActionSyntaxError(f"a move is text such as 'place 3 2', not {text!r}", "move_not_text",
                                text=repr(text))
    m = _MOVE.match(text)
    if not m:
        raise ActionSyntaxError(
            f"cannot read {text!r}: write 'place S R', 'bump S Rx', 'swap S Rx' or 'exhaust A B'",
            "move_unreadable", text=repr(text))
    kind, s, r, x = m["kind"], int(m["s"]), int(m["r"]), m["x"]
    if kind not in KINDS:
        raise ActionSyntaxError(f"cannot read {text!r}: unknown move {kind!r} (place, bump, swap, exhaust)",
                                "move_unknown_kind", text=repr(text), kind=repr(kind))
    if kind in (PLACE, EXHAUST) and x:
        raise ActionSyntaxError(f"cannot read {text!r}: '{kind}' takes no slot letter",
                                "move_no_slot_letter", text=repr(text), kind=kind)
    if kind in (BUMP, SWAP) and not x:
        raise ActionSyntaxError(f"cannot read {text!r}: '{kind}' needs a slot, e.g. '{kind} {s} {r}a'",
                                "move_needs_slot", text=repr(text), kind=kind, example=f"{kind} {s} {r}a")
    if kind == PLACE:
        action = place(s, r)
    elif kind == EXHAUST:
        action = Action(EXHAUST, s, other=r)
    else:
        action = Action(kind, s, r, SLOT_LETTERS.index(x))
    return (m["name"], action)


def parse(text: str) -> Action:
    """Parse move text without a name prefix check."""
    return parse_move(text)[1]
