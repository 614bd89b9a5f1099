"""Dungeon Guilds (地城聯盟): an exact rules engine, records and tools for teaching the game.

The nouns: :class:`Game` (a game with names, undo and a record), :class:`State` (the engine),
:class:`Action` (a move, with text notation), :class:`Rules` (the options), the lords, and the
deck (:func:`reference_deck`, :func:`load_deck`).
"""

from .actions import Action, parse
from .cards import Deck, DeckError, LevelInfo, RoomCard, load_deck, reference_deck
from .errors import IllegalAction, RecordError
from .game import Game
from .lords import ALL_LORDS, BASE_LORDS, PROMO_LORDS, Lord, get_lord
from .record import dumps, from_record, load_record, to_record
from .rules import Rules, RulesError, differences
from .scoring import Result
from .state import State

__version__ = "0.1.0"

__all__ = [
    "ALL_LORDS", "Action", "BASE_LORDS", "Deck", "DeckError", "Game", "IllegalAction",
    "LevelInfo", "Lord", "PROMO_LORDS", "RecordError", "Result", "RoomCard", "Rules",
    "RulesError", "State", "differences", "dumps", "from_record", "get_lord", "load_deck",
    "load_record", "parse", "reference_deck", "to_record",
]
