"""Who plays a seat and how a move is made in the game apps: the seat controllers (a person or
a bot from :mod:`dungeon_guilds.analysis.bots`, imported lazily), the hints (each legal move's
expected gold), the legal moves in words, and the move builder that lets a user try any move
and read the engine's refusal. The bots themselves and a bot's move checked by the engine are
the table model's (:mod:`dungeon_guilds.table_model.bots`, shared with the class tables).

No widget decides a rule: legal moves and refusals come from the engine.
"""

from __future__ import annotations


import ipywidgets as W

from .. import i18n
from ..actions import BUMP, EXHAUST, PLACE, SWAP, Action
from ..table_model.bots import FALLBACK_BOT, bot_move, bot_names, make_bot
from ..table_model.seats import HUMAN  # a seat a person plays (the table model's kind)
from .common import set_options
from .labels import label_all

__all__ = ["FALLBACK_BOT", "HUMAN", "MoveBuilder", "action_options",
           "bot_label", "bot_move", "bot_names", "controller_options", "make_bot"]


def bot_label(name: str, lang: str) -> str:
    return i18n.t(f"bot.{name}", lang) if i18n.has(f"bot.{name}", lang) else name


def controller_options(lang: str) -> list[tuple[str, str]]:
    return [(i18n.t("bot.human", lang), HUMAN)] + [(bot_label(b, lang), b) for b in bot_names()]


def action_options(state, lang: str) -> list[tuple[str, Action]]:
    """The legal actions of the player to move, labelled in words."""
    return [(i18n.action_text(a, lang, state), a) for a in state.legal_actions()]


# ---------------------------------------------------------------------- move builder
class MoveBuilder(W.HBox):
    """Build any move (kind, strength, room, slot) to try it: the engine says why an illegal
    one is refused. ``action`` is the move built."""

    # every control's words (labels.py); the room picker's follow the move's kind
    LABELS = {"kind_dropdown": "ui.kind", "strength_dropdown": "ui.strength", "slot_dropdown": "ui.slot",
              "try_button": "ui.try_move"}

    def __init__(self, lang: str = "en", **kwargs):
        self._lang = lang
        self.kind_dropdown = W.Dropdown(options=[PLACE, BUMP, SWAP, EXHAUST], value=PLACE,
                                        layout=W.Layout(width="150px")).add_class("dg-kind")
        self.strength_dropdown = W.Dropdown(options=[1, 2, 3, 4, 5], value=1,
                                            layout=W.Layout(width="130px")).add_class("dg-strength")
        self.room_dropdown = W.Dropdown(options=list(range(1, 8)), value=1,
                                        layout=W.Layout(width="130px")).add_class("dg-room-pick")
        self.slot_dropdown = W.Dropdown(options=[("a", 0), ("b", 1)], value=0,
                                        layout=W.Layout(width="110px")).add_class("dg-slot-pick")
        self.try_button = W.Button(icon="check").add_class("dg-try")
        super().__init__([self.kind_dropdown, self.strength_dropdown, self.room_dropdown,
                          self.slot_dropdown, self.try_button], **kwargs)
        self.add_class("dg-move-builder")
        self.kind_dropdown.observe(lambda change: self._update_visibility(), "value")
        self._update_visibility()

    def _update_visibility(self) -> None:
        kind = self.kind_dropdown.value
        self.slot_dropdown.layout.display = None if kind in (BUMP, SWAP) else "none"
        # for 'exhaust A B' the second picker is the second strength
        self.room_dropdown.description = i18n.t("ui.strength" if kind == EXHAUST else "ui.room", self._lang)

    def relabel(self, lang: str, n_rooms: int) -> None:
        self._lang = lang
        set_options(self.kind_dropdown, [(i18n.t(f"turn.{k}", lang), k) for k in (PLACE, BUMP, SWAP, EXHAUST)])
        label_all(self, self.LABELS, lambda key: i18n.t(key, lang))
        self._update_visibility()  # the room picker's words: a room, or exhaust's second strength
        set_options(self.room_dropdown, [(str(r), r) for r in range(1, max(n_rooms, 5) + 1)])
        for d in (self.kind_dropdown, self.strength_dropdown, self.room_dropdown, self.slot_dropdown):
            d.style = {"description_width": "initial"}

    @property
    def action(self) -> Action:
        kind = self.kind_dropdown.value
        s, r = int(self.strength_dropdown.value), int(self.room_dropdown.value)
        if kind == PLACE:
            return Action(PLACE, s, r)
        if kind == EXHAUST:
            return Action(EXHAUST, min(s, r), other=max(s, r))
        return Action(kind, s, r, int(self.slot_dropdown.value))

    def set(self, action: Action) -> None:
        """Fill the builder with ``action`` (for tests and for 'edit this move')."""
        self.kind_dropdown.value = action.kind
        self.strength_dropdown.value = action.strength
        if action.kind == EXHAUST:
            self.room_dropdown.value = action.other
        else:
            self.room_dropdown.value = action.room
        if action.kind in (BUMP, SWAP):
            self.slot_dropdown.value = action.slot
