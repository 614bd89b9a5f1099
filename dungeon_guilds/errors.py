"""Errors a user may see. Each is a ``ValueError`` whose message a player understands.

A refusal is a value: :class:`IllegalAction` carries a stable ``code`` (``room_not_full``), the
rule it applies (``R4.4``) and plain ``params`` (``{"room": 1}``). The words are not in the code:
:func:`dungeon_guilds.i18n.refusal_text` formats ``code + params`` with a template from
``strings/<lang>/refusals.toml``, and ``str(err)`` is the English one. :data:`CODES` lists every
code with its rule (kept in :mod:`dungeon_guilds.codes`, which i18n reads too); a test checks
each has a template in every language.

A few other user errors carry a code the same way (``code`` / ``params`` attributes, English
message given where they are raised): bad move text (:class:`ActionSyntaxError`), a player count
the rules do not allow (:class:`RulesError` from ``Rules.check_players``) and an undo past the
start (:class:`UndoError`). Malformed records, decks and lords are not refusals: their messages
name the field and stay as they are.
"""

from __future__ import annotations

from typing import Any

from .actions import ActionSyntaxError
from .cards import DeckError
from .codes import CODES, REFUSALS
from .effects import EffectError
from .i18n import refusal_text
from .lords import LordError
from .rules import RulesError

class IllegalAction(ValueError):
    """An action the rules do not allow now; the state is left unchanged.

    ``code`` (stable, snake_case), ``rule`` (``"R4.4"``, or ``""``) and ``params`` (plain values:
    rooms and strengths as players count them, seats 0-based, names) describe the refusal;
    ``str(err)`` is the English sentence, ``i18n.refusal_text(err, lang)`` any language's.
    """

    def __init__(self, code: str, params: dict[str, Any] | None = None, action=None):
        if code not in CODES:
            raise ValueError(f"unknown refusal code {code!r} (see errors.CODES)")
        super().__init__(code)
        self.code = code
        self.rule = CODES[code]
        self.params = dict(params or {})
        self.action = action

    def __str__(self) -> str:
        return refusal_text(self, "en")

    def __repr__(self) -> str:
        return f"IllegalAction({self.code!r}, {self.params!r})"

    def __reduce__(self):  # pickle (process pools) keeps code and params
        return (IllegalAction, (self.code, self.params, self.action))

    @property
    def reason(self) -> str:
        """The English sentence (kept for older callers; same as ``str(err)``)."""
        return str(self)


class GameError(ValueError):
    """A user error that is not a refusal of a move (an undo past the start, two players with
    one name), with a ``code`` and ``params`` like :class:`IllegalAction`; its English message
    is given where it is raised (a test checks it matches the English template)."""

    def __init__(self, code: str, message: str, **params: Any):
        if code not in CODES:
            raise ValueError(f"unknown error code {code!r} (see errors.CODES)")
        super().__init__(message)
        self.code, self.rule, self.params = code, CODES[code], params


class RecordError(ValueError):
    """A game record that cannot be played; the message names the field or the move number."""


__all__ = [
    "ActionSyntaxError", "CODES", "DeckError", "EffectError", "IllegalAction", "LordError",
    "GameError", "REFUSALS", "RecordError", "RulesError",
]
