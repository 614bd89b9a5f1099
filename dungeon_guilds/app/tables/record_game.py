"""A table's record as a game the judge can review: its set-up pairs played as decisions.

Both reviews of a finished table read a record this way: the class's (``class_review.py``, the
teacher's page) and a seat's own (``seat_review.py``, "Review my moves").
"""

from __future__ import annotations

from ...actions import EXHAUST, Action
from ...game import Game
from ...record import from_record
from ...state import SETUP

__all__ = ["game_with_setup"]


def game_with_setup(record: dict) -> Game:
    """The record's game with its set-up choices as moves: a record keeps the exhaust pairs in
    its header (the game then starts after the set-up, and the judge would see no set-up
    decision), so the header's pairs are played as each seat's first decision (R2.4: from the
    start player on), then the moves."""
    game = from_record({**record, "exhaust": {}, "moves": []})  # every seat still to choose
    pairs = record.get("exhaust") or {}
    while game.phase == SETUP and game.current_name in pairs:
        a, b = pairs[game.current_name]
        game.push(Action(EXHAUST, int(a), other=int(b)))
    for move in record.get("moves", []):
        game.push(move)
    return game
