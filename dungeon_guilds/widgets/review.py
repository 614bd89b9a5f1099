"""The game review as a widget, and the hints that teach (issue 30).

:class:`ReviewPanel` shows :func:`~dungeon_guilds.analysis.review.review_game` for one seat: what
the model assumes (in the panel itself), the marks counted, the chart of every seat's expected
gold, and one row per decision (move made, expected gold, best, lost, mark). Clicking a row shows
the sentence why, the model's three best moves there and the board at that moment, drawn from
the engine's undo on a copy of the game (:func:`~dungeon_guilds.analysis.review.moment`), as the
reviewed seat saw it (other seats' secrets stay hidden). A game record (a JSON file uploaded:
bytes in memory, never a server path) can be reviewed in the same panel.

:func:`hints_html` is the Play table's hint: the judge's three best moves with their win chance
and what the search saw. The caller asks only for a human seat's turn.

The judge (issue 38, :mod:`~dungeon_guilds.analysis.judge_review`) reviews the seat as soon as
the panel shows a game: step by step, as a task on the kernel's event loop
(:func:`~dungeon_guilds.widgets.background.drive`), with a progress bar and a Stop button, so
the page stays usable; until it has finished (or if it is stopped) the panel shows the one-round
model, labelled "quick view". Once it has finished, the rows, the chart (every seat's win
chance) and the sentences are the judge's, the quick view's sentence below each.
"""

from __future__ import annotations

from html import escape

import ipywidgets as W

from .. import i18n
import time

from ..analysis.judge import Budget, judge
from ..analysis.judge_review import (JudgedReview, hint_sentence, judge_review, judged_sentence,
                                     percent)
from ..analysis.judge_worlds import Playout
from ..analysis.opponents import playout_for
from ..analysis.review import Review, moment, money, review_game, sentence
from ..analysis.review_lesson import hint_reason, lesson_of
from ..money_html import dollars_as_text
from ..record import from_record
from .labels import label_all
from .board import GameBoard
from .background import drive
from .common import App, message_html, safe, set_options
from .figures import show_figure
from .layout import side_by_side

MAX_RECORD_BYTES = 256 * 1024  # a record of a whole 6-player game is a few kilobytes
#: a mark's sign, the chart's marker shape (circle, diamond, cross): not by colour alone
MARK_SIGN = {"good": "●", "inaccuracy": "◆", "mistake": "✖"}
_CELL = "display:inline-block;min-width:88px;padding:0 6px;text-align:right"
REVIEW_BUDGET = Budget()  # the judge's budget a decision in the review (docs/review.md: timings)
HINT_BUDGET = Budget(worlds=32, min_worlds=16, check=0)  # a hint: within 2 s a move
# the hints' play-outs by the table's models, reused from one hint to the next (their cache is
# keyed by the game's rules, deck and seats, so a game with other rules gets its own answers)
_HINT_PLAYOUTS: dict[tuple | None, Playout] = {}
HINT_PLAYOUTS_KEPT = 8


def hint_playout(models) -> Playout:
    """The hints' play-out for these seat models (kept for the next hint; a few at most)."""
    key = tuple(models) if models is not None else None
    playout = _HINT_PLAYOUTS.get(key)
    if playout is None:
        if len(_HINT_PLAYOUTS) >= HINT_PLAYOUTS_KEPT:
            _HINT_PLAYOUTS.clear()
        playout = _HINT_PLAYOUTS[key] = playout_for(key)
    return playout


def hints_html(state, player: int, lang: str, budget: Budget | None = None, models=None) -> str:
    """The judge's three best moves for ``player`` (to move), each named with one reason in game
    words (:func:`~dungeon_guilds.analysis.review_lesson.hint_reason`: no ±, no statistical word;
    ``budget``: :data:`HINT_BUDGET` unless given; ``models``: who plays each seat,
    :mod:`~dungeon_guilds.analysis.opponents`; None: greedy for all)."""
    if not state.legal_actions():
        return message_html(i18n.t("ui.hint_none", lang), "info")
    j = judge(state, player, budget or HINT_BUDGET, playout=hint_playout(models))
    rows = "".join(
        f'<li class="dg-hint" data-action="{escape(str(v.action))}"><b>{escape(i18n.action_text(v.action, lang, state))}</b>'
        f'<br><span class="dg-hint-why">{escape(hint_reason(v, j.best, state, len(j.moves), lang))}</span></li>'
        for v in j.moves[:3])
    return dollars_as_text(f'<div class="dg-hints"><b>{escape(i18n.t("judge.hints_heading", lang))}</b>'
                           f'<ol class="dg-hint-list">{rows}</ol></div>')


class ReviewPanel(App):
    """``show(game, seat)`` reviews ``seat``'s decisions in ``game``. Sub-widgets:
    ``summary_html``, ``figure_output`` (``figure``), ``rows_box`` (one ``dg-review-row`` a
    decision, its button ``dg-review-pick``), ``detail_html``, ``board`` (the moment picked),
    ``seat_dropdown``, ``upload``, and the judge's ``progress``, ``stop_button`` and
    ``run_button``; ``review`` is the quick view (one-round model), ``judged`` the judge's
    review once finished (None before, or if stopped)."""

    # the controls' words, given again when the language changes
    LABELS = {"seat_dropdown": "review.seat_pick", "upload": "review.upload", "stop_button": "judge.stop",
              "run_button": "judge.run"}

    css_class = "dg-review"
    budget = REVIEW_BUDGET
    curve_worlds = 12

    def __init__(self, lang: str = "en", lang_state=None):
        super().__init__(lang=lang, lang_state=lang_state, show_language=False)
        self.game = None
        self.seat = 0
        self.models = None  # who plays each seat in the play-outs (None: greedy for all)
        self.review: Review | None = None
        self.judged: JudgedReview | None = None
        self.figure = None
        self.picked: int | None = None
        self.task = None
        self._run = 0  # the judge's run now going (a newer show() ends an older run)
        self._filling = False
        self.title_html = W.HTML().add_class("dg-review-title")
        self.assumptions_html = W.HTML().add_class("dg-review-assumptions")
        self.summary_html = W.HTML().add_class("dg-review-summary")
        self.progress = W.IntProgress(value=0, min=0, max=1, layout=W.Layout(width="220px")).add_class("dg-judge-progress")
        self.stop_button = W.Button(icon="stop", layout=W.Layout(min_height="44px")).add_class("dg-judge-stop")
        self.stop_button.on_click(self._on_stop)
        self.run_button = W.Button(icon="gavel", layout=W.Layout(min_height="44px")).add_class("dg-judge-run")
        self.run_button.on_click(self._on_run)
        self.figure_output = W.Output().add_class("dg-review-figure")
        self.rows_box = W.VBox(layout=W.Layout(max_height="250px", overflow="auto")).add_class("dg-review-rows")
        self.detail_html = W.HTML(layout=W.Layout(width="380px", min_width="280px")).add_class("dg-review-detail")
        self.board = GameBoard()
        self.board.layout.display = "none"
        self.seat_dropdown = W.Dropdown(options=[], style={"description_width": "initial"}).add_class("dg-review-seat")
        self.seat_dropdown.observe(self._on_seat, "value")
        self.upload = W.FileUpload(accept=".json", multiple=False).add_class("dg-review-upload")
        self.upload.observe(self._on_upload, "value")
        self.record_label = W.HTML()
        self.children = [self.title_html, self.assumptions_html, self.message, self.summary_html,
                         W.HBox([self.progress, self.stop_button, self.run_button]).add_class("dg-judge-bar"),
                         self.seat_dropdown, self.figure_output, self.rows_box,
                         side_by_side(self.board, self.detail_html),
                         W.HBox([self.record_label, self.upload])]
        self._show_running(False)
        self.relabel()

    # ------------------------------------------------------------------ showing
    def show(self, game, seat: int, models=None) -> None:
        """Review ``seat``'s decisions in ``game`` (played so far, or loaded): the quick view at
        once, then the judge step by step (``models``: who plays each seat, for the play-outs;
        :mod:`~dungeon_guilds.analysis.opponents`)."""
        self.game, self.seat = game, seat
        self.models = tuple(models) if models is not None else None
        self.review = review_game(game, [seat])
        self.judged = None
        self.picked = None
        self._filling = True  # new options may pass through another seat: not a pick
        try:
            set_options(self.seat_dropdown, [(f"{p + 1} · {name}", p) for p, name in enumerate(game.names)])
            self.seat_dropdown.value = seat
        finally:
            self._filling = False
        self.refresh()
        self.start_judge()

    def start_judge(self) -> None:
        """Review the shown seat with the judge (a task on the event loop; see the module)."""
        if self.game is None:
            return
        self._run += 1
        self.task = drive(self, self._judge_steps(self.game, self.seat, self._run), "ReviewPanel.judge")

    def _judge_steps(self, game, seat: int, run: int):
        started = time.perf_counter()
        self._show_running(True)
        for step in judge_review(game, seat, self.budget, curve_worlds=self.curve_worlds, models=self.models):
            if run != self._run:  # stopped, or another game or seat shown since
                return
            self.progress.max, self.progress.value = step.total, step.done
            self.say(lambda s=step: self.t("judge.running", done=s.done, total=s.total), "info")
            if step.review is not None:
                self.judged = step.review
            yield
        self._show_running(False)
        seconds = f"{time.perf_counter() - started:.1f}"
        self.say(lambda: self.t("judge.done", n=len(self.judged.decisions), seconds=seconds), "ok")
        self.refresh()

    def _show_running(self, running: bool) -> None:
        self.progress.layout.display = None if running else "none"
        self.stop_button.layout.display = None if running else "none"
        self.run_button.layout.display = "none" if running or self.game is None or self.judged else None

    def stop(self) -> None:
        """Stop the judge's review (between two decisions); the quick view stays."""
        self._run += 1
        self._show_running(False)
        self.say(lambda: self.t("judge.stopped"), "info")

    def pick(self, index: int) -> None:
        """Show decision ``index`` of the review: its sentence, the top three, the board then."""
        self.picked = index
        self._draw_detail()
        for k, row in enumerate(self.rows()):
            row.children[0].button_style = "info" if k == index else ""

    def rows(self) -> list[W.HBox]:
        """The decisions' rows (below the header row)."""
        return list(self.rows_box.children[1:])

    def refresh(self) -> None:
        review = self.review
        if review is None:
            return
        from ..viz.review import review_figure, win_chance_figure

        self.relabel()
        name = review.names[self.seat]
        judged = self.judged
        if judged is not None:
            counts = judged.counts(self.seat)
            summary = self.t("judge.summary", name=name, lost=f"{judged.lost(self.seat):.0f}", **counts)
            self.figure = win_chance_figure(judged, self.seat, self.lang)
        else:
            counts = review.counts(self.seat)
            summary = self.t("review.summary", name=name, lost=f"{review.lost(self.seat):.2f}", **counts)
            self.figure = review_figure(review, self.seat, self.lang)
        self.summary_html.value = f"<b>{escape(summary)}</b>" if review.decisions else escape(self.t("review.none"))
        show_figure(self.figure_output, self.figure)
        decisions = judged.decisions if judged is not None else review.decisions
        rows = [self._row(i, d) for i, d in enumerate(decisions)]
        self.rows_box.children = [self._head(), *rows] if rows else []
        self._draw_detail()

    def _row(self, index: int, d) -> W.HBox:
        t = self.t
        button = W.Button(description=f"{index + 1}. {i18n.action_text(d.action, self.lang, d.state)}",
                          tooltip=t("review.pick"), layout=W.Layout(width="320px", min_width="320px"),
                          button_style="info" if index == self.picked else "").add_class("dg-review-pick")
        button.on_click(lambda _b, i=index: self._on_pick(i))
        if self.judged is not None:
            cells = [str(d.round), f"{percent(d.made.win)} %", f"{percent(d.best.win)} %",
                     f"{100 * d.made.loss:.0f} ± {100 * d.made.loss_se:.0f}"]
        else:
            cells = [str(d.round), money(d.made), money(d.best), money(d.loss)]
        html = "".join(f'<span class="dg-review-cell" style="{_CELL}">{escape(c)}</span>' for c in cells)
        html += (f'<b class="dg-mark dg-mark-{d.mark}" data-mark="{d.mark}" style="{_CELL}">'
                 f"{MARK_SIGN[d.mark]} {escape(t('review.' + d.mark))}</b>")
        return W.HBox([button, W.HTML(html)]).add_class("dg-review-row")

    def _head(self) -> W.HBox:
        t = self.t
        keys = (("review.round", "judge.made", "judge.best", "judge.diff", "review.mark") if self.judged
                else ("review.round", "review.made", "review.best", "review.diff", "review.mark"))
        cells = "".join(f'<b style="{_CELL}">{escape(t(k))}</b>' for k in keys)
        return W.HBox([W.HTML(f"<b>{escape(t('review.decision_head'))}</b>", layout=W.Layout(width="320px")),
                       W.HTML(cells)]).add_class("dg-review-head")

    def _draw_detail(self) -> None:
        review, index = self.review, self.picked
        if review is None or index is None or not 0 <= index < len(review.decisions):
            self.detail_html.value = f"<i>{escape(self.t('review.pick'))}</i>" if review and review.decisions else ""
            self.board.layout.display = "none"
            return
        d = review.decisions[index]
        lang = self.lang
        quick = f"{escape(sentence(d, lang))}"
        if self.judged is not None:
            j = self.judged.decisions[index]
            top = "".join(f"<li>{escape(i18n.action_text(v.action, lang, d.state))} — {escape(percent(v.win))} %, "
                          f"{v.margin:+.1f}</li>" for v in j.top)
            why, mark, head = judged_sentence(j, lang), j.mark, self.t("judge.top_three")
            quick = f'<p class="dg-review-quick" style="font-size:90%"><i>{escape(self.t("judge.quick_label"))}</i> {quick}</p>'
        else:
            top = "".join(f"<li>{escape(i18n.action_text(a, lang, d.state))} — {escape(money(v))}</li>" for a, v in d.top)
            why, mark, head, quick = quick, d.mark, self.t("review.top_three"), ""
        label = self.t("review.mark_label", mark=self.t("review." + mark))
        self.detail_html.value = (
            f"<p><b>{index + 1}. {escape(i18n.action_text(d.action, lang, d.state))}</b><br>"
            f"<i>{escape(self.t('review.board_at', n=index + 1, round=d.round))}</i></p>"
            f'<p class="dg-review-why" data-mark="{mark}"><b>{MARK_SIGN[mark]} {escape(label)}</b> '
            f"{escape(why) if self.judged is not None else why}</p><div>{escape(head)}<ol>{top}</ol></div>{quick}")
        state, log = moment(self.game, d.ply)
        self.board.show(state, lang, None, d.seat, log)
        self.board.layout.display = None

    def relabel(self) -> None:
        t = self.t
        judged = self.judged is not None
        self.title_html.value = f"<h4>{escape(t('judge.title' if judged else 'review.title'))}</h4>"
        how = (t("judge.assumptions") if judged else t("judge.quick_label") + " " + t("review.assumptions"))
        self.assumptions_html.value = f'<p class="dg-review-how" style="font-size:90%">{escape(how)}</p>'
        self.record_label.value = escape(t("review.record_label"))
        label_all(self, self.LABELS, t)

    # ------------------------------------------------------------------ callbacks
    @safe
    def _on_stop(self, _button=None) -> None:
        self.stop()

    @safe
    def _on_run(self, _button=None) -> None:
        self.start_judge()

    @safe
    def _on_pick(self, index: int) -> None:
        self.pick(index)

    @safe
    def _on_seat(self, change) -> None:
        if self._filling:
            return
        if self.game is not None and change["new"] is not None and change["new"] != self.seat:
            self.show(self.game, int(change["new"]), self.models)

    @safe
    def _on_upload(self, change) -> None:
        files = change["new"]
        if not files:
            return
        content = bytes(files[0]["content"])
        if len(content) > MAX_RECORD_BYTES:
            raise i18n.Refusal("review.record_too_big", kb=MAX_RECORD_BYTES // 1024)
        try:
            text = content.decode("utf-8")
        except UnicodeDecodeError:
            raise i18n.Refusal("review.record_not_text") from None
        self.load_record(text)

    def load_record(self, text: str) -> None:
        """Review a game record (JSON text): the first seat, the others one pick away."""
        game = from_record(text)
        self.show(game, 0)
        self.say(lambda: self.t("review.record_loaded", players=game.n_players, plies=game.ply), "ok")


__all__ = ["ReviewPanel", "hints_html"]
