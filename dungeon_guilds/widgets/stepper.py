"""RoundStepper: step through a game one action at a time.

Choose the players, a bot or a human for each seat, the lords and variants and the seed; then
step one action, let the bots play to the end of the phase, the round or the game, undo, or jump
to any step of the game's history (and forward again along the same line). The legal actions
come from the engine (a dropdown); any other move can be built and tried, and the engine says
why it is refused. Optional hints show each legal action's expected gold this round
(``dungeon_guilds.analysis.probability.action_values``).

Everything shown is read from the engine: the board (:func:`dungeon_guilds.drawing.display.board_tables_html`),
the turn timeline (:func:`dungeon_guilds.viz.timeline_figure`) and the log.

Headless use (tests, scripts)::

    s = RoundStepper(players=3, seats=["human", "first", "first"], seed=1)
    s.action_dropdown.value = s.action_dropdown.options[0][1]
    s.step_button.click()
"""

from __future__ import annotations

from html import escape
from typing import Sequence

import ipywidgets as W

from .. import i18n
from ..actions import EXHAUST, Action
from ..drawing.display import board_tables_html
from ..state import SETUP
from ..game import DEFAULT_NAMES, Game
from ..rules import TEAM_OPTIONS, Rules
from ..table_model import bot_turn
from ..state import OVER
from .common import EXPECTED_ERRORS, NONE, safe, set_options
from .labels import label_all
from .figures import show_figure
from .layout import guide_text
from .moves import (HUMAN, action_options, bot_label, bot_move, bot_names, controller_options,
                    make_bot)
from .narration import log_html, round_log_html
from .table import TableApp
from .workshop_choice import WorkshopChoice
from .review import hints_html as teaching_hints

MAX_AUTO_STEPS = 5000  # a whole 6-player game is a few hundred decisions


class RoundStepper(TableApp):
    """Step through a game. Main sub-widgets (for notebooks and headless/browser tests):

    ``players_dropdown``, ``seat_dropdowns`` (one per seat: human or a bot), ``lords_dropdown``,
    ``npc_checkbox``, ``edition_dropdown``, ``teams_dropdown``, ``seed_input``,
    ``new_game_button``; ``status_html``, ``board_html``, ``action_dropdown``, ``step_button``,
    ``phase_button``, ``round_button``, ``game_button``, ``undo_button``, ``jump_slider``,
    ``builder`` (a :class:`MoveBuilder`, with ``builder.try_button``), ``hints_checkbox``,
    ``hints_html``, ``timeline_output`` (``timeline_figure`` is the figure last drawn),
    ``log_html``, ``message``, ``language_toggle``. ``game`` is the engine facade.
    """

    css_class = "dg-stepper"
    # every control's words (labels.py)
    LABELS = {"players_dropdown": "ui.players", "teams_dropdown": "ui.teams", "new_game_button": "ui.new_game",
              "step_button": "ui.step", "step_button.tooltip": "ui.step_tip",
              "phase_button": "ui.to_phase", "round_button": "ui.to_round", "game_button": "ui.to_game",
              "jump_slider": "ui.jump"}

    def __init__(self, players: int = 3, seats: Sequence[str] | None = None, seed: int = 0,
                 rules: Rules | None = None, names: Sequence[str] | None = None,
                 hints: bool = False, lang: str = "en", lang_state=None, show_language: bool = True,
                 timeline: bool = True, session=None):
        super().__init__(lang=lang, lang_state=lang_state, show_language=show_language)
        # the workshop's decks and lords (a WorkshopSession shared with the Lab), when given
        self.workshop_choice = WorkshopChoice(session, self.lang) if session is not None else None
        rules = rules or Rules()
        self._names = list(names) if names else None
        self._bots: dict[tuple[int, str], object] = {}
        self._seed = seed
        self._guide_on = True  # the guided first round (skippable)
        self._updating = False
        self._draw_timeline = timeline
        self.game: Game | None = None
        self.timeline_figure = None
        # ---- set-up widgets
        self.players_dropdown = W.Dropdown(options=[3, 4, 5, 6], value=players).add_class("dg-players")
        self.seats_box = W.HBox().add_class("dg-seats")
        self.seat_dropdowns: list[W.Dropdown] = []
        self._rule_options(rules, seed)
        self.teams_dropdown = W.Dropdown(options=[("—", NONE)] + [(x, x) for x in TEAM_OPTIONS if x],
                                         value=rules.teams or NONE).add_class("dg-teams")
        self.new_game_button = W.Button(button_style="primary", icon="refresh").add_class("dg-new-game")
        # ---- play widgets
        self._table_view(hints)
        self.guide_html = W.HTML().add_class("dg-guide")
        self.skip_guide_button = W.Button(icon="forward", layout=W.Layout(width="auto")).add_class("dg-skip-guide")
        self.skip_guide_button.on_click(self._on_skip_guide)
        self.step_button = W.Button(button_style="success").add_class("dg-step")
        self.phase_button = W.Button().add_class("dg-to-phase")
        self.round_button = W.Button().add_class("dg-to-round")
        self.game_button = W.Button().add_class("dg-to-game")
        self.jump_slider = W.IntSlider(min=0, max=0, value=0, continuous_update=False,
                                       layout=W.Layout(width="520px")).add_class("dg-jump")
        self.timeline_output = W.Output().add_class("dg-timeline")
        self.log_html = W.HTML().add_class("dg-log-html")
        # ---- wiring
        self.players_dropdown.observe(self._on_players, "value")
        self.new_game_button.on_click(self._on_new_game)
        self.step_button.on_click(self._on_step)
        self.phase_button.on_click(self._on_to_phase)
        self.round_button.on_click(self._on_to_round)
        self.game_button.on_click(self._on_to_game)
        self.jump_slider.observe(self._on_jump, "value")
        self._make_seats(players, seats)
        controls = W.HBox([self.step_button, self.phase_button, self.round_button, self.game_button,
                           self.undo_button], layout=W.Layout(flex_flow="row wrap")).add_class("dg-controls")
        self._compose(
            setup=[W.HBox([self.players_dropdown, self.lords_dropdown, self.edition_dropdown]), self.seats_box,
                   *([self.workshop_choice] if self.workshop_choice is not None else []),
                   W.HBox([self.npc_checkbox, self.teams_dropdown, self.seed_input, self.new_game_button])],
            side=[self.guide_html, self.skip_guide_button, controls],
            advanced=[W.HBox([self.action_dropdown]), self.jump_slider],
            tail=[self.timeline_output, self.log_html])
        self.relabel()
        self.new_game()

    # ------------------------------------------------------------------ set-up
    def _make_seats(self, n: int, seats: Sequence[str] | None = None) -> None:
        old = [d.value for d in self.seat_dropdowns]
        options = controller_options(self.lang)
        values = [v for _, v in options]
        default_bot = next((b for b in bot_names()), HUMAN)
        dropdowns = []
        for i in range(n):
            if seats is not None and i < len(seats):
                value = seats[i]
            elif i < len(old):
                value = old[i]
            else:
                value = default_bot
            if value not in values:
                value = default_bot if value != HUMAN else HUMAN
            d = W.Dropdown(options=options, value=value, layout=W.Layout(width="230px"),
                           style={"description_width": "initial"})
            d.add_class("dg-seat").add_class(f"dg-seat-{i}")
            d.observe(self._on_controller, "value")
            dropdowns.append(d)
        self.seat_dropdowns = dropdowns
        self.seats_box.children = dropdowns
        self._label_seats()

    def _label_seats(self) -> None:
        names = self._seat_names(len(self.seat_dropdowns))
        options = controller_options(self.lang)
        for i, d in enumerate(self.seat_dropdowns):
            d.description = f"{names[i]}:"
            set_options(d, options)

    def _seat_names(self, n: int) -> list[str]:
        if self._names and len(self._names) >= n:
            return list(self._names[:n])
        return list(DEFAULT_NAMES[:n])

    @property
    def seats(self) -> list[str]:
        """The controller of each seat: ``"human"`` or a bot name."""
        return [d.value for d in self.seat_dropdowns]

    def rules(self) -> Rules:
        teams = self.teams_dropdown.value
        return Rules(lords=self.lords_dropdown.value, teams=None if teams == NONE else teams,
                     npc=bool(self.npc_checkbox.value), edition=self.edition_dropdown.value)

    @safe
    def _on_players(self, change) -> None:
        self._make_seats(int(change["new"]))

    @safe
    def _on_new_game(self, _button=None) -> None:
        self.new_game()

    def new_game(self) -> None:
        """Start a new game from the set-up widgets (refusals shown, the old game kept)."""
        n = int(self.players_dropdown.value)
        rules = self.rules()
        seed = int(self.seed_input.value)
        extra = self.workshop_choice.game_kwargs(rules, n, seed) if self.workshop_choice is not None else {}
        game = Game(self._seat_names(n), seed=seed, rules=rules, **extra)
        # the table model's session: each seat a person or a bot as its dropdown says; Learn takes
        # the setup choices one after another in the engine's order (one student sets them all)
        self.start_session(game, [self.controller(i) for i in range(n)], secret_setup=False)
        self._bots = {}
        self.setup_box.selected_index = None  # the set-up folds away once a game starts
        self._seed = seed
        self.end_resolution()
        self.refresh()
        self.say(lambda: self.t("msg.new_game", players=i18n.join_list(game.names, self.lang), seed=seed), "info")

    # ------------------------------------------------------------------ moves
    def viewer(self) -> int | None:
        """The seat whose eyes the board uses: the only human seat, if exactly one (no hidden
        choice of a bot leaks to the person playing); else everything is shown."""
        humans = [i for i, d in enumerate(self.seat_dropdowns) if d.value == HUMAN]
        return humans[0] if len(humans) == 1 else None

    @safe
    def _on_controller(self, _change=None) -> None:
        """A seat's dropdown changed: the session's seats follow (a person or a bot from now on)."""
        if self.game is not None and len(self.seat_dropdowns) == len(self.game.names):
            self.session.seats = self.seats_for(self.game.names, [d.value for d in self.seat_dropdowns])

    def controller(self, seat: int) -> str:
        return self.seat_dropdowns[seat].value if seat < len(self.seat_dropdowns) else HUMAN

    def _bot(self, seat: int):
        """The bot of a seat (made once per seat and bot name, seeded by the game's seed)."""
        ctrl = self.controller(seat)
        bot = self._bots.get((seat, ctrl))
        if bot is None:
            bot = make_bot(ctrl, seed=self._seed * 10 + seat)
            self._bots[(seat, ctrl)] = bot
        return bot

    def play(self, action: Action) -> bool:
        """Play ``action`` for the seat to move (the engine refuses an illegal one, nothing
        changed); True if it ended a round's dispatch (the session shows that round)."""
        return self.session.move(None, action)

    def _bot_step(self) -> tuple[int, Action]:
        """The bot to move plays (the table model's bot turn; called when a bot's seat is to move).
        A run of bot moves goes on through a round shown resolving (Learn shows the last one)."""
        turn = bot_turn(self.game, lambda seat: self.session.bot_seat(seat))
        action = bot_move(self._bot(turn.seat), turn.state, turn.seat)
        self.play(action)
        return turn.seat, action

    def _played_text(self, seat: int, action: Action, state_before) -> str:
        text = i18n.action_text(action, self.lang, state_before)
        ctrl = self.controller(seat)
        name = self.game.names[seat]
        if ctrl == HUMAN:
            return self.t("msg.played", player=name, action=text)
        if action.kind == EXHAUST:  # R2.4: a bot's exhausted pair is its secret, as a player's
            return self.t("msg.bot_exhausted", player=name, bot=bot_label(ctrl, self.lang))
        return self.t("msg.bot_played", player=name, bot=bot_label(ctrl, self.lang), action=text)

    @safe
    def _on_step(self, _button=None) -> None:
        self.step()

    def step(self) -> None:
        """One action: the bot's for a bot seat, the selected legal action for a human seat.
        While a round is shown resolving: the next step of its resolution on the board, and
        after the last one the next round (issue 24)."""
        game = self.game
        if self.resolving is not None:
            if self.story.index < len(self.story.steps) - 1:
                self.story.go(self.story.index + 1)
            else:
                self.continue_round()
            return
        if game.is_over:
            self._say_over()
            return
        seat = game.state.current
        before = game.state.copy()
        log_len = len(game.log)
        if self.controller(seat) == HUMAN:
            action = self._human_choice()
            if action is None:
                return
            self.play(action)
        else:
            seat, action = self._bot_step()
        self.watch_resolution(log_len)
        self.refresh()
        self._say_played(seat, action, before)

    def _human_choice(self) -> Action | None:
        """What Step ▶ plays for the human to move: the choice made on the board (the two cards
        to exhaust); with nothing chosen there, the move picked in the "Legal actions" list only
        while that list is shown (Advanced open). Otherwise a sentence says what to do and
        nothing is played: a hidden selection is never played in the student's name."""
        state = self.game.state
        chosen = self.board.selected
        if state.phase == SETUP and len(chosen) == 2:
            target = self.board.targets.get("exhaust")
            if target is not None and target.enabled:
                return target.action
            self.say(lambda: i18n.t("error.illegal", self.lang, reason=target.reason if target else ""), "warn")
            return None
        if chosen:  # one card chosen: the slot is still to choose, on the board
            key = "msg.step_pick_second" if state.phase == SETUP else "msg.step_pick_slot"
            self.say(lambda: self.t(key, strength=chosen[0]), "warn")
            return None
        if self.advanced_box.selected_index == 0 and self.action_dropdown.value is not None:
            return self.action_dropdown.value
        key = "msg.step_choose_exhaust" if state.phase == SETUP else "msg.step_choose_move"
        self.say(lambda: self.t(key), "warn")
        return None

    @safe
    def _on_skip_guide(self, _button=None) -> None:
        self._guide_on = False
        self._draw_guide()

    def _play_accepted(self, action: Action) -> None:
        """A move the engine accepts (built, or clicked on the board), for the seat to move."""
        state = self.game.state
        before = state.copy()
        seat = state.current
        log_len = len(self.game.log)
        self.play(action)
        self.watch_resolution(log_len)
        self.refresh()
        self._say_played(seat, action, before)

    def _say_played(self, seat: int, action: Action, before) -> None:
        """The move in a sentence; when it ended the game, the result instead (the page's
        live region then says who won, issue 32)."""
        if self.game.is_over:
            self._say_over()
        else:
            self.say(lambda: self._played_text(seat, action, before), "ok")

    def run(self, until: str = "phase") -> int:
        """Let bots play to the end of the ``phase``, ``round`` or ``game``; stop early when a
        human must move. Returns the number of actions played. A round resolved on the way is
        shown on the board afterwards (the last one, for ``game``): the next round's board only
        when the student steps on (issue 24); pressed while a resolution is shown, it steps on
        first."""
        game = self.game
        self.end_resolution()
        log_len = len(game.log)
        st = game.state
        mark = (st.round, st.phase)
        played = 0
        last = None
        while not game.is_over and played < MAX_AUTO_STEPS:
            st = game.state
            if until == "phase" and (st.round, st.phase) != mark:
                break
            if until == "round" and st.round != mark[0]:
                break
            if self.controller(st.current) == HUMAN:
                self.watch_resolution(log_len)
                self.refresh()
                seat = st.current
                self.say(lambda: self.t("msg.waiting_human", player=game.names[seat]), "info")
                return played
            before = st.copy()
            try:
                seat, action = self._bot_step()
            except Exception:
                self.refresh()  # show the moves already played before the error is shown
                raise
            last = (seat, action, before)
            played += 1
        self.watch_resolution(log_len)
        self.refresh()
        if game.is_over:
            self._say_over()
        elif last is not None:
            self.say(lambda: self._played_text(*last), "ok")
        return played

    @safe
    def _on_to_phase(self, _button=None) -> None:
        self.run("phase")

    @safe
    def _on_to_round(self, _button=None) -> None:
        self.run("round")

    @safe
    def _on_to_game(self, _button=None) -> None:
        self.run("game")

    @safe
    def _on_undo(self, _button=None) -> None:
        self.undo()

    def undo(self) -> None:
        if self.game.ply == 0:
            self.say(lambda: self.t("msg.nothing_to_undo"), "info")
            return
        self.game.undo(1)
        self.end_resolution()
        self.refresh()
        self.say(lambda: self.t("msg.undone"), "info")

    @safe
    def _on_jump(self, change) -> None:
        if self._updating:
            return
        self.jump(int(change["new"]))

    def jump(self, ply: int) -> None:
        """Go to step ``ply`` of the current line: back by undo, forward by replaying."""
        game = self.game
        game.go_to(ply)
        self.end_resolution()
        self.refresh()
        ply, total = game.ply, game.line_length
        self.say(lambda: self.t("msg.jumped", ply=ply, total=total), "info")

    # ------------------------------------------------------------------ drawing
    def relabel(self) -> None:
        t = self.t
        self.relabel_rule_options()
        set_options(self.teams_dropdown, [(t("option.teams_none"), NONE)] + [(x, x) for x in TEAM_OPTIONS if x])
        label_all(self, self.LABELS, t)
        self.relabel_table()
        for w in (self.players_dropdown, self.lords_dropdown, self.edition_dropdown, self.teams_dropdown,
                  self.seed_input, self.jump_slider, self.action_dropdown):
            w.style = {"description_width": "initial"}
        self._label_seats()
        if self.workshop_choice is not None:
            self.workshop_choice.relabel(self.lang)
        if self.game is not None:
            self.builder.relabel(self.lang, len(self.game.state.rooms))
        else:
            self.builder.relabel(self.lang, 7)

    def refresh(self) -> None:
        """Redraw from the engine: board, status, legal actions, timeline, history, hints."""
        game = self.game
        if game is None:
            return
        state = game.state
        lang = self.lang
        self.board_html.value = board_tables_html(state, game.log, lang, reference_deck=game.deck.is_reference)
        human_turn = state.phase != OVER and self.controller(state.current) == HUMAN
        if state.phase == OVER:
            self.status_html.value = f"<b>{i18n.phase_name(OVER, lang)}</b>"
        else:
            who = game.names[state.current]
            ctrl = self.controller(state.current)
            key = "play.status_human" if ctrl == HUMAN else "play.status_bot"
            self.status_html.value = (f'<b class="dg-to-move" data-seat="{state.current}" data-human="{int(human_turn)}">'
                                      f"{escape(self.t(key, seat=state.current + 1, name=who, bot=bot_label(ctrl, lang)))}"
                                      f"</b> · {escape(i18n.phase_name(state.phase, lang))}")
        self.show_board(state, state.current if human_turn else None, self.viewer())  # after the status
        set_options(self.action_dropdown, action_options(state, lang))
        over = state.phase == OVER
        self.step_button.disabled = over and self.resolving is None
        for b in (self.phase_button, self.round_button, self.game_button):
            # the bots play on only after the human's move: disabled meanwhile, the tooltip says why
            b.disabled = over or human_turn
            b.tooltip = self.t("ui.run_wait_human", player=game.names[state.current]) if human_turn else ""
        self.undo_button.disabled = game.ply == 0
        self.builder.try_button.disabled = over
        self._updating = True
        try:
            self.jump_slider.max = max(game.line_length, game.ply)
            self.jump_slider.value = game.ply
        finally:
            self._updating = False
        if self._draw_timeline:
            self._draw_turns(game, lang)
        self.log_html.value = round_log_html(game.log, game.names, lang, secret_for=self.viewer())  # R2.4: secret
        self.story.show(game.log, game.names, lang)
        self._draw_guide()
        self._draw_hints()

    def _viewer(self) -> int | None:
        return self.viewer()

    def _draw_turns(self, game, lang: str) -> None:
        """The timeline of this round's turns; before the round's first move, a line saying it
        comes with the first move (an empty chart teaches nothing, and a page that shows no
        chart yet does not load the charting library: see widgets/figure_view.py)."""
        from ..events import current_round, turns
        from ..viz.turns import timeline_figure

        self.timeline_figure = timeline_figure(game, lang=lang)
        if turns(game.log, current_round(game.log)):
            show_figure(self.timeline_output, self.timeline_figure)
            return
        title = escape(self.timeline_figure.layout.title.text or "")
        note = escape(i18n.t("fig.timeline_later", lang))
        self.timeline_output.outputs = ({"output_type": "display_data", "metadata": {}, "data": {
            "text/html": f'<div class="dg-timeline-later"><h4>{title}</h4><p class="dg-note">{note}</p></div>',
            "text/plain": f"{title}: {note}"}},)

    def _draw_guide(self) -> None:
        """The guided first round: a prompt for what to do now (skippable)."""
        game = self.game
        on = self._guide_on and game is not None and game.state.round <= 1 and not game.is_over
        text = guide_text(game.state, self.controller(game.state.current) == HUMAN, self.lang) if on else ""
        self.guide_html.value = f'<div class="dg-guide-text">{escape(text)}</div>' if text else ""
        self.skip_guide_button.layout.display = None if text else "none"
        self.skip_guide_button.description = self.t("play.skip_guide")

    def _draw_hints(self) -> None:
        if (not self.hints_checkbox.value or self.game is None or self.game.is_over or self.resolving is not None
                or self.controller(self.game.state.current) != HUMAN):  # hints for people only, not while resolving
            self.hints_html.value = ""
            return
        state = self.game.state
        try:
            self.hints_html.value = teaching_hints(state, state.current, self.lang)  # the top three, why
        except EXPECTED_ERRORS as exc:  # hints are optional; say why, keep playing
            self.hints_html.value = ""
            self.show_error(exc)


__all__ = ["RoundStepper"]
