"""The scaffold the game apps share (the Learn tab's :class:`~.stepper.RoundStepper`, the Play
tab's :class:`~.play_table.PlayTable`; class tables and pass-and-play build on the same pieces):
the rule options of the set-up, the table view (the drawn board beside the status, the message,
the hints and the round told room by room; the legal moves, the move builder and the board in
words folded under "Advanced") and one way to enter a move, :meth:`TableApp.try_move`, which
returns the engine's refusal as a value (nothing changes) or plays the move.

A round's resolution is shown on the board (issue 24): after the move that ends a round's
dispatch (a person's, a bot's, or the last of a run of bot moves), the board keeps that round's
rooms with their occupants (:meth:`Game.dispatch_end`) and reveals them room by room as the
round's story steps (:func:`dungeon_guilds.drawing.resolving.resolution_frame`: fronts,
outcomes, the split, heal costs, the seats' gold); the next round is shown — and its moves
played — only when the student presses ``next_round_button`` (:meth:`TableApp.continue_round`).
Which round is shown and its dispatch_end are the table model's
(:class:`dungeon_guilds.table_model.Resolution`, ``shown``), as at a class table.

No widget decides a rule: legal moves, refusals and costs are the engine's answers.
"""

from __future__ import annotations

from html import escape
from typing import Sequence

import ipywidgets as W

from .. import i18n
from ..actions import Action
from ..drawing.resolving import resolution_frame
from ..errors import IllegalAction
from ..rules import EDITIONS, LORDS_OPTIONS, Rules
from ..table_model import Resolution, Seat, Session
from ..table_model.seats import BOT, HUMAN as PERSON
from .board import GameBoard
from .common import GameApp, safe
from .labels import Words, label_all
from .layout import CSS, fold, side_by_side
from .moves import MoveBuilder
from .narration import RoundStory

__all__ = ["TableApp"]


class TableApp(GameApp):
    """A game app's shared set-up pieces and table view. A subclass builds its own widgets
    around them, calls :meth:`_compose`, and says what an accepted move does
    (:meth:`_play_accepted`) and whose refusal to ask (:meth:`_mover`)."""

    # ------------------------------------------------------------------ the table model
    # The game, its seats and the round shown resolving are the table model's Session (issue 39),
    # as at a class table and in pass-and-play: this app translates clicks into its calls.
    @property
    def session(self) -> Session:
        if "_session" not in self.__dict__:
            self.__dict__["_session"] = Session([])
        return self.__dict__["_session"]

    @session.setter
    def session(self, value: Session) -> None:
        self.__dict__["_session"] = value

    @property
    def game(self):
        return self.session.game

    @game.setter
    def game(self, value) -> None:
        """A game put at the table as it is (people at every seat unless the seats fit it)."""
        self.session.game = value
        if value is not None and len(self.session.seats) != len(value.names):
            self.session.seats = self.seats_for(value.names, [PERSON] * len(value.names))

    @property
    def shown(self) -> Resolution:
        """The round shown resolving (the session's)."""
        return self.session.shown

    @staticmethod
    def seats_for(names: Sequence[str], controllers: Sequence[str]) -> list[Seat]:
        """The model's seats: a person's (``controllers[i]`` is ``"human"``) or a bot's at that level."""
        return [Seat(PERSON, name) if ctrl == PERSON else Seat(BOT, name, bot=ctrl)
                for name, ctrl in zip(names, controllers)]

    def start_session(self, game, controllers: Sequence[str], secret_setup: bool) -> None:
        """A new game in a new session (``controllers``: each seat's, see :meth:`seats_for`)."""
        self.session = Session(self.seats_for(game.names, controllers), game, secret_setup=secret_setup)

    # the table view's words (labels.py)
    TABLE_LABELS = {"undo_button": "ui.undo", "action_dropdown": "ui.legal_actions", "hints_checkbox": "ui.hints",
                    "build_label": Words("ui.build_move", html="<i>{}</i>"),
                    "next_round_button.tooltip": "play.next_round_tip"}

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
        # a resolved round shown on the board until the student steps on (issue 24)
        self.next_round_button = W.Button(button_style="success", layout=W.Layout(width="auto")).add_class(
            "dg-next-round")
        self.next_round_button.layout.display = "none"
        self.next_round_button.on_click(self._on_next_round)
        self.story.on_step = self._on_story_step

    def _compose(self, setup: Sequence[W.Widget], side: Sequence[W.Widget], advanced: Sequence[W.Widget],
                 tail: Sequence[W.Widget] = ()) -> None:
        """Lay the app out: the set-up folded (``setup_box``), the board beside the side column
        (status, message, ``side``, hints, the round's story), "Advanced" folded
        (``advanced``, then the move builder and the board in words), then ``tail``."""
        self.setup_box = fold(W.VBox(list(setup)).add_class("dg-setup"), "dg-setup-fold")
        self.advanced_box = fold(W.VBox([*advanced, self.build_label, self.builder, self.board_html]),
                                 "dg-advanced")
        column = W.VBox([self.status_html, self.next_round_button, self.message, *side,  # Next round ▶ in view
                         W.HBox([self.hints_checkbox]), self.hints_html, self.story], layout=W.Layout(width="370px", min_width="300px")).add_class("dg-side")
        self.children = [CSS, self.language_toggle, self.setup_box, side_by_side(self.board, column),
                         self.advanced_box, *tail]

    def relabel_table(self) -> None:
        """The table view's words in the current language (the rule options':
        :meth:`relabel_rule_options`)."""
        t = self.t
        label_all(self, self.TABLE_LABELS, t)
        self.setup_box.set_title(0, t("play.setup"))
        self.advanced_box.set_title(0, t("play.advanced"))

    # ------------------------------------------------------------------ a round resolved, on the board
    def watch_resolution(self, log_len: int) -> bool:
        """After moves that logged from ``log_len`` on: if they resolved a round, show it on the
        board (the latest such round) until the student steps on. True if one did."""
        return self.shown_from(self.shown.watch(self.game, log_len))

    def shown_from(self, started: bool) -> bool:
        """After the session's move that ``started`` showing a round resolving: show it from its
        first step (True), or nothing (False: no round, or none the engine can replay)."""
        if not started:
            return False
        if self.shown.dispatch_end(self.game) is None:
            self.shown.stop()
            return False
        self.story.index = 0  # the story and the board start at the round's first step
        return True

    @property
    def resolving(self) -> int | None:
        """The round shown resolving; None: the game as it is now."""
        return self.shown.round

    def end_resolution(self) -> None:
        """Back to the game as it is now (no redraw)."""
        self.shown.stop()

    def show_board(self, state, player: int | None, viewer: int | None) -> None:
        """Draw the board: the resolution step the story is at while a round is shown resolving,
        else ``state`` (``player``: the seat that may click)."""
        game = self.game
        if self.resolving is not None:
            self.story.show(game.log, game.names, self.lang)
            end = self.shown.dispatch_end(game)
            frame = resolution_frame(end, game.log, self.resolving, self.story.index)
            if frame is not None:
                self.board.show_resolution(end, self.lang, viewer, game.log, frame)
                self._label_next_round()
                return
            self.end_resolution()
        self.next_round_button.layout.display = "none"
        self.board.show(state, self.lang, player, viewer, game.log)

    def _label_next_round(self) -> None:
        key = "play.final_result" if self.game.is_over else "play.next_round"
        self.next_round_button.description = self.t(key)
        self.next_round_button.layout.display = None
        text = self.t("play.resolving_status", round=self.resolving, button=self.t(key))
        self.status_html.value = f'<b class="dg-resolving" data-round="{self.resolving}">{escape(text)}</b>'

    def resolving_first(self) -> bool:
        """True (and a sentence says so) while a round is shown resolving: a move waits for
        the student to step on."""
        if self.resolving is None:
            return False
        key = "play.final_result" if self.game.is_over else "play.next_round"
        self.say(lambda: self.t("play.resolving_first", button=self.t(key)), "warn")
        return True

    def _viewer(self) -> int | None:
        """The seat whose eyes the board uses (None: everything)."""
        return None

    @safe
    def _on_story_step(self, _index: int) -> None:
        if self.resolving is not None:
            self.show_board(self.game.state, None, self._viewer())

    @safe
    def _on_next_round(self, _button=None) -> None:
        self.continue_round()

    def continue_round(self) -> None:
        """The student steps on: the next round is shown (Play: the bots' moves up to the
        student's turn are played now)."""
        self.end_resolution()
        self._after_resolution()
        self.refresh()

    def _after_resolution(self) -> None:
        """What stepping on after a resolution does besides showing the game as it is."""

    # ------------------------------------------------------------------ entering a move
    def _mover(self) -> int | None:
        """The seat whose move the table enters (None: the seat to move)."""
        return None

    def try_move(self, action: Action) -> IllegalAction | None:
        """Play ``action`` if the engine allows it now (:meth:`_play_accepted`); else show the
        engine's reason and return its refusal, the game unchanged. While a round is shown
        resolving, nothing is played: a sentence says to step on first."""
        if self.resolving_first():
            return None
        err = self.session.refusal(self._mover(), action)
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
