"""The scaffold the game apps share (the Learn tab's :class:`~.stepper.RoundStepper`, the Play
tab's :class:`~.play_table.PlayTable`; class tables and pass-and-play build on the same pieces):
the rule options of the set-up, the table view (the drawn board beside the status, the message,
the hints and the round told room by room; the legal moves, the move builder and the board in
words folded under "Advanced") and one way to enter a move, :meth:`TableApp.try_move`, which
returns the engine's refusal as a value (nothing changes) or plays the move.

No widget decides a rule: legal moves, refusals and costs are the engine's answers.
"""

from __future__ import annotations

from html import escape
from typing import Sequence

import ipywidgets as W

from .. import i18n
from ..actions import Action
from ..errors import IllegalAction
from ..rules import EDITIONS, LORDS_OPTIONS, Rules
from .board import GameBoard
from .common import GameApp, safe
from .layout import CSS, fold, side_by_side
from .moves import MoveBuilder
from .narration import RoundStory

__all__ = ["TableApp"]


class TableApp(GameApp):
    """A game app's shared set-up pieces and table view. A subclass builds its own widgets
    around them, calls :meth:`_compose`, and says what an accepted move does
    (:meth:`_play_accepted`) and whose refusal to ask (:meth:`_mover`)."""

    def _rule_options(self, rules: Rules, seed: int) -> None:
        """The set-up's rule options (§9, §10) and the seed every random choice flows from:
        ``lords_dropdown``, ``npc_checkbox``, ``edition_dropdown``, ``seed_input``."""
        self.lords_dropdown = W.Dropdown(options=list(LORDS_OPTIONS), value=rules.lords).add_class("dg-lords")
        self.npc_checkbox = W.Checkbox(value=rules.npc, indent=False).add_class("dg-npc-option")
        self.edition_dropdown = W.Dropdown(options=list(EDITIONS), value=rules.edition).add_class("dg-edition")
        self.seed_input = W.IntText(value=seed, layout=W.Layout(width="180px")).add_class("dg-seed")

    def _table_view(self, hints: bool) -> None:
        """The table: ``status_html``, ``board`` (clicks enter moves through :meth:`try_move`),
        ``board_html`` (the same table in words), ``story``, ``action_dropdown``,
        ``undo_button``, ``builder`` and ``build_label``, ``hints_checkbox``, ``hints_html``."""
        self.status_html = W.HTML().add_class("dg-status")
        self.board = GameBoard()
        self.board.on_move = self._on_board_move
        self.board.on_refused = lambda text: self.say(text, "warn")
        self.board.on_note = lambda text: self.say(text, "info")
        self.board_html = W.HTML().add_class("dg-board-html")  # the same table in words
        self.story = RoundStory()
        self.action_dropdown = W.Dropdown(options=[], layout=W.Layout(width="420px")).add_class("dg-actions")
        self.undo_button = W.Button(button_style="warning").add_class("dg-undo")
        self.builder = MoveBuilder()
        self.build_label = W.HTML()
        self.hints_checkbox = W.Checkbox(value=hints, indent=False).add_class("dg-hints-toggle")
        self.hints_html = W.HTML().add_class("dg-hints-html")
        self.undo_button.on_click(self._on_undo)
        self.builder.try_button.on_click(self._on_try)
        self.hints_checkbox.observe(self._on_hints, "value")

    def _compose(self, setup: Sequence[W.Widget], side: Sequence[W.Widget], advanced: Sequence[W.Widget],
                 tail: Sequence[W.Widget] = ()) -> None:
        """Lay the app out: the set-up folded (``setup_box``), the board beside the side column
        (status, message, ``side``, hints, the round's story), "Advanced" folded
        (``advanced``, then the move builder and the board in words), then ``tail``."""
        self.setup_box = fold(W.VBox(list(setup)).add_class("dg-setup"), "dg-setup-fold")
        self.advanced_box = fold(W.VBox([*advanced, self.build_label, self.builder, self.board_html]),
                                 "dg-advanced")
        column = W.VBox([self.status_html, self.message, *side, W.HBox([self.hints_checkbox]), self.hints_html,
                         self.story], layout=W.Layout(width="370px", min_width="300px")).add_class("dg-side")
        self.children = [CSS, self.language_toggle, self.setup_box, side_by_side(self.board, column),
                         self.advanced_box, *tail]

    def relabel_table(self) -> None:
        """The table view's words in the current language (the rule options':
        :meth:`relabel_rule_options`)."""
        t = self.t
        self.undo_button.description = t("ui.undo")
        self.action_dropdown.description = t("ui.legal_actions")
        self.hints_checkbox.description = t("ui.hints")
        self.build_label.value = f"<i>{escape(t('ui.build_move'))}</i>"
        self.setup_box.set_title(0, t("play.setup"))
        self.advanced_box.set_title(0, t("play.advanced"))

    # ------------------------------------------------------------------ entering a move
    def _mover(self) -> int | None:
        """The seat whose move the table enters (None: the seat to move)."""
        return None

    def try_move(self, action: Action) -> IllegalAction | None:
        """Play ``action`` if the engine allows it now (:meth:`_play_accepted`); else show the
        engine's reason and return its refusal, the game unchanged."""
        err = self.game.state.refusal(action, self._mover())
        if err is not None:
            self.say(lambda: i18n.illegal_text(err, self.lang), "warn")
            return err
        self._play_accepted(action)
        return None

    def _play_accepted(self, action: Action) -> None:
        """Play a move the engine accepts and redraw. Learn (the stepper) adds the move's
        sentence; Play adds the bots' answers and the review."""
        self.game.push(action)
        self.refresh()

    @safe
    def _on_board_move(self, action: Action) -> None:
        """A move chosen on the board (only the human to move can click)."""
        self.try_move(action)

    @safe
    def _on_try(self, _button=None) -> None:
        self.try_move(self.builder.action)
