"""PlayTable: a human plays a whole game against chosen bots.

The human sees what their seat may know (``State.view``: room fronts stay hidden until
revealed, other players' secret exhaust choices stay secret), picks a legal action (or builds
any move and reads the engine's refusal), and the bots answer until it is the human's turn
again. When a move (the human's or a bot's) ends a round, the bots stop and the board shows
how the round resolved, room by room; the bots play on into the next round when the human
presses "Next round ▶" (issue 24). Undo takes back the human's last decision and the bots'
answers to it. At the end the result (R8.1) and the game's gold and money flows are shown.
"""

from __future__ import annotations

import time
from html import escape
from typing import Sequence

import ipywidgets as W

from .. import events, i18n
from ..actions import Action
from ..drawing.display import board_tables_html
from ..game import DEFAULT_NAMES, Game
from ..rules import Rules
from ..state import OVER, SETUP
from .common import EXPECTED_ERRORS, safe, set_options
from .figures import show_figures
from .labels import label_all
from .moves import HUMAN, action_options, bot_label, bot_move, bot_names, controller_options, make_bot
from .narration import round_log_html
from .table import TableApp
from .workshop_choice import WorkshopChoice
from ..analysis.opponents import models_for
from .review import ReviewPanel, hints_html as teaching_hints

MAX_BOT_MOVES = 5000


# the others' moves listed beside the board (the last ones; the whole log is below it)
SINCE_KINDS = ("exhausted", "placed", "bumped", "swapped", "passed", "locked")
SINCE_SHOWN = 6


class PlayTable(TableApp):
    """Main sub-widgets: ``players_dropdown``, ``seat_dropdown`` (the human's seat),
    ``opponent_dropdowns``, ``lords_dropdown``, ``npc_checkbox``, ``edition_dropdown``,
    ``seed_input``, ``start_button``; ``status_html``, ``board_html``, ``action_dropdown``,
    ``play_button``, ``builder`` (``builder.try_button``), ``undo_button``, ``hints_checkbox``,
    ``hints_html``, ``bot_log_html``, ``result_html``, ``summary_output`` (``gold_figure`` and
    ``sankey_figure`` at the end), ``message``, ``language_toggle``. ``game`` is the game."""

    css_class = "dg-play-table"
    # every control's words (labels.py; the rule options' and the table view's: RULE_LABELS, TABLE_LABELS)
    LABELS = {"players_dropdown": "ui.players", "seat_dropdown": "ui.your_seat", "start_button": "ui.start_game",
              "play_button": "ui.play", "review_button": "review.button", "review_button.tooltip": "review.button_tip"}

    def __init__(self, players: int = 4, seat: int = 0, opponents: Sequence[str] | None = None,
                 seed: int = 0, rules: Rules | None = None, hints: bool = False, lang: str = "en",
                 lang_state=None, show_language: bool = True, start: bool = True, bot_delay: float = 0.0,
                 session=None):
        super().__init__(lang=lang, lang_state=lang_state, show_language=show_language)
        # the workshop's decks and lords (a WorkshopSession shared with the Lab), when given
        self.workshop_choice = WorkshopChoice(session, self.lang) if session is not None else None
        rules = rules or Rules()
        self.game: Game | None = None
        self.bot_delay = bot_delay  # seconds between two bot moves (the dashboard shows them one by one)
        self.bot_moving = False
        self.human = seat
        self._bots: dict[int, object] = {}
        self._bot_names: dict[int, str] = {}
        self._human_plies: list[tuple[int, int]] = []  # (ply, log length) of each human move
        self.gold_figure = None
        self.sankey_figure = None
        self.players_dropdown = W.Dropdown(options=[3, 4, 5, 6], value=players).add_class("dg-players")
        self.seat_dropdown = W.Dropdown(options=self._seat_options(players), value=seat).add_class("dg-your-seat")
        self.opponents_box = W.HBox().add_class("dg-opponents")
        self.opponent_dropdowns: list[W.Dropdown] = []
        self._rule_options(rules, seed)
        self.start_button = W.Button(button_style="primary", icon="play").add_class("dg-start-game")
        self._table_view(hints)
        self.play_button = W.Button(button_style="success").add_class("dg-play")
        self.bot_log_html = W.HTML().add_class("dg-bot-log")
        self.since_html = W.HTML().add_class("dg-since-last")  # the others' moves since your last, beside the board
        self.result_html = W.HTML().add_class("dg-result")
        self.summary_output = W.Output().add_class("dg-summary")
        self.review_button = W.Button(icon="search", layout=W.Layout(width="max-content")).add_class("dg-review-button")
        self.review_button.on_click(self._on_review)
        self.review_panel = ReviewPanel(lang_state=self.lang_state)  # the game review (issue 30)
        self.review_panel.layout.display = "none"
        self.players_dropdown.observe(self._on_players, "value")
        self.seat_dropdown.observe(self._on_seat, "value")
        self.start_button.on_click(self._on_start)
        self.play_button.on_click(self._on_play)
        self._make_opponents(players, seat, opponents)
        self._compose(
            setup=[W.HBox([self.players_dropdown, self.seat_dropdown, self.lords_dropdown]), self.opponents_box,
                   *([self.workshop_choice] if self.workshop_choice is not None else []),
                   W.HBox([self.npc_checkbox, self.edition_dropdown, self.seed_input, self.start_button])],
            side=[self.since_html, W.HBox([self.undo_button, self.review_button]), self.result_html],
            advanced=[W.HBox([self.action_dropdown, self.play_button])],
            tail=[self.review_panel, self.bot_log_html, self.summary_output])
        self.relabel()
        if start:
            self.start()

    # ------------------------------------------------------------------ set-up
    @staticmethod
    def _seat_options(n: int) -> list[tuple[str, int]]:
        return [(name, i) for i, name in enumerate(DEFAULT_NAMES[:n])]

    def _make_opponents(self, n: int, seat: int, opponents: Sequence[str] | None = None) -> None:
        options = [o for o in controller_options(self.lang) if o[1] != "human"]
        values = [v for _, v in options]
        old = {i: d.value for i, d in zip(self._opponent_seats(len(self.opponent_dropdowns) + 1, self.human),
                                          self.opponent_dropdowns)}
        default = bot_names()[0]
        dropdowns = []
        for k, s in enumerate(self._opponent_seats(n, seat)):
            if opponents is not None and k < len(opponents):
                value = opponents[k]
            else:
                value = old.get(s, default)
            if value not in values:
                value = default
            d = W.Dropdown(options=options, value=value, layout=W.Layout(width="230px"),
                           style={"description_width": "initial"})
            d.description = f"{DEFAULT_NAMES[s]}:"
            dropdowns.append(d.add_class("dg-opponent").add_class(f"dg-seat-{s}"))
        self.opponent_dropdowns = dropdowns
        self.opponents_box.children = dropdowns

    @staticmethod
    def _opponent_seats(n: int, seat: int) -> list[int]:
        return [s for s in range(n) if s != seat]

    def opponents(self) -> dict[int, str]:
        """{seat: bot name} of the opponents chosen."""
        n = int(self.players_dropdown.value)
        return dict(zip(self._opponent_seats(n, int(self.seat_dropdown.value)),
                        (d.value for d in self.opponent_dropdowns)))

    @safe
    def _on_players(self, change) -> None:
        n = int(change["new"])
        set_options(self.seat_dropdown, self._seat_options(n))
        self._make_opponents(n, int(self.seat_dropdown.value))

    @safe
    def _on_seat(self, change) -> None:
        self._make_opponents(int(self.players_dropdown.value), int(change["new"]))

    @safe
    def _on_start(self, _button=None) -> None:
        self.start()

    def start(self) -> None:
        """Start a game from the set-up widgets; the bots play until the human's first turn."""
        n = int(self.players_dropdown.value)
        rules = Rules(lords=self.lords_dropdown.value, npc=bool(self.npc_checkbox.value),
                      edition=self.edition_dropdown.value)
        seed = int(self.seed_input.value)
        extra = self.workshop_choice.game_kwargs(rules, n, seed) if self.workshop_choice is not None else {}
        game = Game(list(DEFAULT_NAMES[:n]), seed=seed, rules=rules, **extra)
        self.setup_box.selected_index = None  # the set-up folds away once a game starts
        self.human = int(self.seat_dropdown.value)
        self._bot_names = self.opponents()
        # the table model's session: the person's seat, the bots' at their levels; R2.4 in secret
        self.start_session(game, [HUMAN if s == self.human else self._bot_names[s] for s in range(n)],
                           secret_setup=True)
        self._bots = {s: make_bot(name, seed=seed * 10 + s) for s, name in self._bot_names.items()}
        self._human_plies = []
        self.review_panel.layout.display = "none"
        self.gold_figure = self.sankey_figure = None
        self.summary_output.outputs = ()
        self.end_resolution()
        self._advance()
        self.refresh()
        self._greet()

    def _greet(self) -> None:
        if self.game.is_over:
            self._say_over()
        else:
            name = self.game.names[self.human]
            self.say(lambda: self.t("play.your_move", seat=self.human + 1, name=name), "info")

    # ------------------------------------------------------------------ play
    def _advance(self) -> int:
        """Let the bots move until it is the human's turn or the game is over, or a bot's move
        ends a round: then the board shows the resolution and the bots wait for the human to
        step on (:meth:`continue_round`)."""
        game = self.game
        moves = 0
        if game.phase == SETUP:  # R2.4: the bots choose with the person, in secret (_setup_choice)
            return moves
        self.bot_moving = True
        try:
            while moves < MAX_BOT_MOVES and (turn := self.session.bot_turn()) is not None:
                if self.bot_delay:
                    self.refresh()  # the board locked, saying whose turn it is
                    time.sleep(self.bot_delay)
                started = self.session.take(turn, bot_move(self._bots[turn.seat], turn.state, turn.seat))
                moves += 1
                if self.shown_from(started):
                    break
        finally:
            self.bot_moving = False
        return moves

    @safe
    def _on_play(self, _button=None) -> None:
        action = self.action_dropdown.value
        if action is None:
            self.say(lambda: self.t("msg.no_action"), "warn")
            return
        self.play(action)

    def play(self, action: Action) -> None:
        """The human's move (the engine refuses an illegal one), then the bots' answers."""
        game = self.game
        if self.resolving_first():
            return
        if game.is_over:
            self._say_over()
            return
        if game.phase != SETUP and game.state.current != self.human:  # pragma: no cover - never waits on a bot
            seat = game.state.current
            self.say(lambda: self.t("msg.not_your_turn", player=game.names[seat]), "warn")
            return
        before = self.shown_state()
        ply, log_len = game.ply, len(game.log)
        if game.phase == SETUP:
            self._setup_choice(action)
            started = False
        else:
            started = self.session.move(self.human, action)
        self._human_plies.append((ply, log_len))
        if not self.shown_from(started):  # a move that ends a round: its resolution first
            self._advance()
        self.refresh()
        if game.is_over:
            self._say_over()
            self.show_review()  # after the game: every decision reviewed
        else:
            name = game.names[self.human]
            text = lambda: self.t("msg.played", player=name, action=i18n.action_text(action, self.lang, before))  # noqa: E731
            self.say(text, "ok")

    def shown_state(self):
        """The state the person's screen shows and asks: while every seat chooses its exhausted
        pair (R2.4), the engine's with the person the one choosing and nobody's choice in it (no
        bot's gold has moved yet); else the engine's own."""
        return self.session.seen_by(self.human)

    def _setup_choice(self, action: Action) -> None:
        """R2.4: the person's exhausted pair held in secret by the session (the engine refuses a
        bad choice, nothing changed), then every bot's, each asked on the state before anyone's
        choice (none sees another's); the last one reveals them all to the engine in its order."""
        self.session.move(self.human, action)
        while (turn := self.session.bot_turn()) is not None and turn.setup:
            self.session.take(turn, bot_move(self._bots[turn.seat], turn.state, turn.seat))

    def _after_resolution(self) -> None:
        self._advance()  # the bots play on into the next round, up to the human's turn

    def _viewer(self) -> int:
        return self.human

    def _mover(self) -> int:
        return self.human  # the table enters the human's moves (the bots' go through bot_move)

    def _play_accepted(self, action: Action) -> None:
        self.play(action)

    @safe
    def _on_undo(self, _button=None) -> None:
        self.undo()

    def undo(self) -> None:
        """Take back the human's last decision and the bots' answers to it."""
        if not self._human_plies:
            self.say(lambda: self.t("msg.nothing_to_undo"), "info")
            return
        ply, _ = self._human_plies.pop()
        self.game.undo_to(ply)
        self.end_resolution()
        self.review_panel.layout.display = "none"
        self.gold_figure = self.sankey_figure = None
        self.summary_output.outputs = ()
        self.refresh()
        self.say(lambda: self.t("msg.undone_to_you"), "info")

    @safe
    def _on_review(self, _button=None) -> None:
        self.show_review()

    def seat_models(self) -> tuple[str, ...]:
        """Who plays each seat, for the judge's play-outs: the bots chosen, the person
        (:mod:`~dungeon_guilds.analysis.opponents`)."""
        return models_for(self._bot_names, self.game.n_players)

    def show_review(self) -> None:
        """The review of the human's decisions so far (``review_panel``)."""
        self.review_panel.show(self.game, self.human, self.seat_models())
        self.review_panel.layout.display = None

    # ------------------------------------------------------------------ drawing
    def relabel(self) -> None:
        t = self.t
        label_all(self, self.LABELS, t)
        self.relabel_rule_options()
        self.relabel_table()
        options = [o for o in controller_options(self.lang) if o[1] != "human"]
        for d in self.opponent_dropdowns:
            set_options(d, options)
        for w in (self.players_dropdown, self.seat_dropdown, self.lords_dropdown, self.edition_dropdown,
                  self.seed_input, self.action_dropdown):
            w.style = {"description_width": "initial"}
        self.builder.relabel(self.lang, len(self.game.state.rooms) if self.game else 7)
        if self.workshop_choice is not None:
            self.workshop_choice.relabel(self.lang)

    def refresh(self) -> None:
        game = self.game
        if game is None:
            return
        state, lang = self.shown_state(), self.lang
        self.board_html.value = board_tables_html(state, game.log, lang, viewer=self.human,
                                           reference_deck=game.deck.is_reference)
        over = state.phase == OVER
        mine = not over and state.current == self.human and not self.bot_moving and self.resolving is None
        self.status_html.value = self._status(state)
        self.show_board(state, self.human if mine else None, self.human)  # after the status: it may say more
        set_options(self.action_dropdown, action_options(state, lang) if mine else [])
        self.play_button.disabled = not mine
        self.builder.try_button.disabled = not mine
        self.undo_button.disabled = not self._human_plies
        self.review_button.disabled = not self._human_plies or self.bot_moving
        self.bot_log_html.value = round_log_html(game.log, game.names, lang, secret_for=self.human)
        self.since_html.value = self._since_last_html()
        self.story.show(game.log, game.names, lang)
        self._draw_hints()
        if over:
            self._draw_result()
        else:
            self.result_html.value = ""

    def _since_last_html(self) -> str:
        """What the other seats did since your last move (bumps of yours in bold), beside the
        board: before, it was only in the log below the fold."""
        game, me = self.game, self.human
        start = self._human_plies[-1][1] if self._human_plies else 0
        lines = []
        for entry in events.entries(game.log, start):
            if entry.kind not in SINCE_KINDS or entry.player == me:
                continue
            secret = entry.kind == "exhausted"
            text = escape(i18n.event_text(entry.event, game.names, self.lang, secret_exhaust=secret))
            lines.append(f"<li><b>{text}</b></li>" if entry.event.get("victim") == me else f"<li>{text}</li>")
        if not lines:
            return ""
        title = escape(self.t("play.since_last" if self._human_plies else "play.since_start"))
        more = len(lines) - SINCE_SHOWN
        items = "".join(lines[-SINCE_SHOWN:])
        note = f'<li class="dg-note">{escape(self.t("play.since_more", n=more))}</li>' if more > 0 else ""
        return (f'<div class="dg-since" style="font-size:12.5px;line-height:1.35;border-left:4px solid #999;'
                f'padding:2px 6px;margin:4px 0"><b>{title}</b><ul style="margin:2px 0 2px 16px;padding:0">'
                f"{note}{items}</ul></div>")

    def _status(self, state) -> str:
        """Whose turn it is (one line; the message area says what happened)."""
        lang = self.lang
        if state.phase == OVER:
            return f"<b>{escape(i18n.phase_name(OVER, lang))}</b>"
        seat = state.current
        name = self.game.names[seat]
        if seat == self.human:
            text = self.t("play.status_human", seat=seat + 1, name=name)
        else:
            bot = bot_label(self._bot_names.get(seat, ""), lang)
            text = self.t("play.bot_moving" if self.bot_moving else "play.status_bot", seat=seat + 1, name=name,
                          bot=bot)
        return (f'<b class="dg-to-move" data-seat="{seat}" data-human="{int(seat == self.human)}">{escape(text)}</b>'
                f" · {escape(i18n.phase_name(state.phase, lang))}")

    def _draw_result(self) -> None:
        from ..viz.money import gold_figure, sankey_figure

        game, lang = self.game, self.lang
        res = game.result()
        order = sorted(range(len(game.names)), key=lambda p: (p not in res.winners, -res.gold[p], -res.tiebreak[p]))
        rows = "".join(
            f'<tr class="dg-final{" dg-win" if p in res.winners else ""}" data-seat="{p}">'
            f'<td class="dg-num">{p + 1}</td><td>{escape(game.names[p])}{" ★" if p in res.winners else ""}</td>'
            f'<td class="dg-num">${res.gold[p]}</td><td class="dg-num">{res.tiebreak[p]}</td></tr>'
            for p in order)
        head = "".join(f"<th>{escape(self.t(k))}</th>" for k in (
            "play.result_seat", "board.player", "board.gold", "board.tiebreak"))
        self.result_html.value = (f"<h4>{escape(self.t('ui.result'))}</h4><table class=\"dg-results\">"
                                  f"<tr>{head}</tr>{rows}</table>")
        self.gold_figure = gold_figure(game, lang)
        self.sankey_figure = sankey_figure(game, None, lang)
        show_figures(self.summary_output, [self.gold_figure, self.sankey_figure])

    def _draw_hints(self) -> None:
        game = self.game
        if (not self.hints_checkbox.value or game is None or game.is_over or self.shown_state().current != self.human
                or self.bot_moving or self.resolving is not None):  # hints for the human only
            self.hints_html.value = ""
            return
        try:
            self.hints_html.value = teaching_hints(self.shown_state(), self.human, self.lang,
                                                   models=self.seat_models())
        except EXPECTED_ERRORS as exc:  # hints are optional; say why, keep playing
            self.hints_html.value = ""
            self.show_error(exc)


__all__ = ["PlayTable"]
