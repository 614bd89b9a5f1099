"""Errors a user may see. Each is a ``ValueError`` whose message a player understands."""

from __future__ import annotations

from .actions import ActionSyntaxError
from .cards import DeckError
from .effects import EffectError
from .lords import LordError
from .rules import RulesError


class IllegalAction(ValueError):
    """An action the rules do not allow now; the state is left unchanged.

    ``reason`` is the sentence shown to the player (``"room 2 is locked"``).
    """

    def __init__(self, reason: str, action=None):
        super().__init__(reason)
        self.reason = reason
        self.action = action


class RecordError(ValueError):
    """A game record that cannot be played; the message names the field or the move number."""


__all__ = [
    "ActionSyntaxError", "DeckError", "EffectError", "IllegalAction", "LordError",
    "RecordError", "RulesError",
]
