"""The game review as a widget, and the hints that teach (issue 30).

:class:`ReviewPanel` shows :func:`~dungeon_guilds.analysis.review.review_game` for one seat: what
the model assumes (in the panel itself), the marks counted, the chart of every seat's expected
gold, and one row per decision (move made, expected gold, best, lost, mark). Clicking a row shows
the sentence why, the model's three best moves there and the board at that moment, drawn from
the engine's undo on a copy of the game (:func:`~dungeon_guilds.analysis.review.moment`), as the
reviewed seat saw it (other seats' secrets stay hidden). A game record (a JSON file uploaded:
bytes in memory, never a server path) can be reviewed in the same panel.

:func:`hints_html` is the Play table's hint. The caller asks only for a human seat's turn.

The judge (issue 38, :mod:`~dungeon_guilds.analysis.judge_review`) reviews the seat as soon as
the panel shows a game: step by step, as a task on the kernel's event loop
(:func:`~dungeon_guilds.widgets.background.drive`), with a progress bar and a Stop button, so
the page stays usable; until it has finished (or if it is stopped) the panel shows the one-round
model, labelled "quick view". Once it has finished, the chart is every seat's win chance, and
the panel opens on the lesson (issue 49, :func:`~dungeon_guilds.analysis.review_lesson.lesson_of`):
whom the judge assumed at each seat (once), the 1–3 decisions that cost the most and the seat's
best decision, each with its headline in game words, its numbers folded "for the teacher"
(``details_text``) and a button that shows the board then; every decision (its headline and
mark) is one tap away (``every_toggle``).

:func:`hints_html` names each of the judge's three best moves with one reason in game words
(:func:`~dungeon_guilds.analysis.review_lesson.hint_reason`).
"""

from __future__ import annotations

from html import escape

import ipywidgets as W

from .. import i18n
import time

from ..analysis.judge import Budget, judge
from ..analysis.judge_headline import headline_text
from ..analysis.judge_review import JudgedReview, assumed_text, details_text, judge_review, percent
from ..analysis.judge_worlds import Playout
from ..analysis.opponents import playout_for
from ..analysis.review import Review, moment, money, review_game, sentence
from ..analysis.review_lesson import bracketed, hint_reason, lesson_of
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
    ``seat_dropdown``, ``upload``, the judge's ``progress``, ``stop_button`` and ``run_button``,
    and the judge's lesson: ``lesson_box`` (one ``dg-lesson`` a decision, its board button
    ``dg-lesson-board``) and ``every_toggle`` (shows ``rows_box``); ``review`` is the quick view (one-round model), ``judged`` the judge's
    review once finished (None before, or if stopped)."""

    # the controls' words, given again when the language changes
    LABELS = {"every_toggle": "judge.every_decision", "seat_dropdown": "review.seat_pick",
              "upload": "review.upload", "stop_button": "judge.stop",
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
        # issue 49, item 2: the judge's review opens on the decisions worth a lesson, the list one tap away
        self.lesson_box = W.VBox().add_class("dg-review-lesson")
        self.every_toggle = W.ToggleButton(value=False, layout=W.Layout(min_height="44px")).add_class("dg-review-every")
        self.every_toggle.observe(self._on_every, "value")
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
                         self.seat_dropdown, self.figure_output, self.lesson_box, self.every_toggle, self.rows_box,
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
        self.every_toggle.value = False  # the judge's review opens on its lesson (issue 49, item 2)
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
        self._draw_lesson()
        self._draw_detail()

    def _draw_lesson(self) -> None:
        """The judge's review opens on its lesson (:func:`~dungeon_guilds.analysis.review_lesson.lesson_of`):
        the costliest decisions and the best one, each with its headline, its numbers folded for
        the teacher and the board one tap away; every decision behind :attr:`every_toggle`. The
        quick view (the judge still running, or stopped) shows its table as before."""
        judged = self.judged
        lesson = lesson_of(judged, self.lang) if judged is not None and judged.decisions else None
        self.lesson_box.layout.display = None if lesson else "none"
        self.every_toggle.layout.display = None if lesson else "none"
        self.rows_box.layout.display = None if lesson is None or self.every_toggle.value else "none"
        if lesson is None:
            self.lesson_box.children = []
            return
        t = self.t
        parts = [W.HTML(f"<h4>{escape(t('judge.head_costly'))}</h4>")]
        parts += [self._lesson_item(it) for it in lesson["costly"]] or [W.HTML(f"<p>{escape(t('judge.head_none_costly'))}</p>")]
        if lesson["best"] is not None:
            parts += [W.HTML(f"<h4>{escape(t('judge.head_well_played'))}</h4>"), self._lesson_item(lesson["best"])]
        self.lesson_box.children = parts

    def _lesson_item(self, item: dict) -> W.VBox:
        """One decision of the lesson: number, move, round; the headline; the details toggle; a
        button that shows the board at that moment."""
        html = (f'<div class="dg-lesson-item" data-mark="{item["mark"]}" data-index="{item["index"]}">'
                f'<b>{item["n"]}. {escape(item["move"])}</b> {escape(bracketed(self.t("judge.round_n", round=item["round"]), self.lang))}'
                f'<br><span class="dg-lesson-head">{MARK_SIGN[item["mark"]]} {escape(item["head"])}</span>'
                f'<details class="dg-lesson-details"><summary style="min-height:44px;line-height:44px;cursor:pointer">'
                f'{escape(self.t("judge.details"))}</summary><p>{escape(item["details"])}</p></details></div>')
        button = W.Button(description=self.t("judge.see_board_button"), icon="eye",
                          layout=W.Layout(min_height="44px", width="auto")).add_class("dg-lesson-board")
        button.on_click(lambda _b, i=item["index"]: self._on_pick(i))
        return W.VBox([W.HTML(dollars_as_text(html)), button]).add_class("dg-lesson")

    def _row(self, index: int, d) -> W.HBox:
        t = self.t
        button = W.Button(description=f"{index + 1}. {i18n.action_text(d.action, self.lang, d.state)}",
                          tooltip=t("review.pick"), layout=W.Layout(width="320px", min_width="0", max_width="100%"),
                          button_style="info" if index == self.picked else "").add_class("dg-review-pick")
        button.on_click(lambda _b, i=index: self._on_pick(i))
        mark = (f'<b class="dg-mark dg-mark-{d.mark}" data-mark="{d.mark}" style="{_CELL}">'
                f"{MARK_SIGN[d.mark]} {escape(t('review.' + d.mark))}</b>")
        if self.judged is not None:  # issue 49: the headline, not the numbers (those are in the details)
            html = f'{mark}<span class="dg-review-head-line" style="padding:0 6px">{escape(headline_text(d, self.lang))}</span>'
            text = W.HTML(dollars_as_text(html), layout=W.Layout(flex="1 1 280px", min_width="0"))
            return W.HBox([button, text], layout=W.Layout(flex_flow="row wrap", flex="0 0 auto",  # a phone: two lines
                                                          min_height="min-content")).add_class("dg-review-row")
        cells = [str(d.round), money(d.made), money(d.best), money(d.loss)]
        html = "".join(f'<span class="dg-review-cell" style="{_CELL}">{escape(c)}</span>' for c in cells)
        return W.HBox([button, W.HTML(dollars_as_text(html + mark))]).add_class("dg-review-row")

    def _head(self) -> W.HBox:
        t = self.t
        keys = (("review.mark",) if self.judged
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
        if self.judged is not None:
            self._draw_judged_detail(index)
            return
        d, lang = review.decisions[index], self.lang
        top = "".join(f"<li>{escape(i18n.action_text(a, lang, d.state))} — {escape(money(v))}</li>" for a, v in d.top)
        label = self.t("review.mark_label", mark=self.t("review." + d.mark))
        self.detail_html.value = dollars_as_text(
            f"<p><b>{index + 1}. {escape(i18n.action_text(d.action, lang, d.state))}</b><br>"
            f"<i>{escape(self.t('review.board_at', n=index + 1, round=d.round))}</i></p>"
            f'<p class="dg-review-why" data-mark="{d.mark}"><b>{MARK_SIGN[d.mark]} {escape(label)}</b> '
            f"{escape(sentence(d, lang))}</p><div>{escape(self.t('review.top_three'))}<ol>{top}</ol></div>")
        self._show_board(d.ply, d.seat)

    def _show_board(self, ply: int, seat: int) -> None:
        state, log = moment(self.game, ply)
        self.board.show(state, self.lang, None, seat, log)
        self.board.layout.display = None

    def _draw_judged_detail(self, index: int) -> None:
        """A decision of the judge's review: the headline; the numbers, the judge's three best and
        the quick view's sentence folded "for the teacher"; the board then."""
        j, d, lang, t = self.judged.decisions[index], self.review.decisions[index], self.lang, self.t
        top = "".join(f"<li>{escape(i18n.action_text(v.action, lang, j.state))} — {escape(percent(v.win))} %, "
                      f"{v.margin:+.1f}</li>" for v in j.top)
        details = (f"<p>{escape(details_text(j, self.judged, lang))}</p><div>{escape(t('judge.top_three'))}<ol>{top}</ol></div>"
                   f'<p class="dg-review-quick" style="font-size:90%"><i>{escape(t("judge.quick_label"))}</i> '
                   f"{escape(sentence(d, lang))}</p>")
        label = t("review.mark_label", mark=t("review." + j.mark))
        self.detail_html.value = dollars_as_text(
            f"<p><b>{index + 1}. {escape(i18n.action_text(j.action, lang, j.state))}</b><br>"
            f"<i>{escape(t('review.board_at', n=index + 1, round=j.round))}</i></p>"
            f'<p class="dg-review-why" data-mark="{j.mark}"><b>{MARK_SIGN[j.mark]} {escape(label)}</b> '
            f"{escape(headline_text(j, lang))}</p>"
            f'<details class="dg-review-details"><summary style="min-height:44px;line-height:44px;cursor:pointer">'
            f"{escape(t('judge.details'))}</summary>{details}</details>")
        self._show_board(j.ply, j.seat)

    def relabel(self) -> None:
        t = self.t
        judged = self.judged is not None
        self.title_html.value = f"<h4>{escape(t('judge.title' if judged else 'review.title'))}</h4>"
        if judged:  # whom the judge assumed, said once; how its figures are made folded (issue 49, item 3)
            self.assumptions_html.value = (
                f'<p class="dg-review-assumed">{escape(assumed_text(self.judged, self.lang))}</p>'
                f'<details class="dg-review-how" style="font-size:90%"><summary style="min-height:44px;'
                f'line-height:44px;cursor:pointer">{escape(t("judge.how_numbers"))}</summary>'
                f'<p>{escape(t("judge.assumptions"))}</p></details>')
        else:
            how = t("judge.quick_label") + " " + t("review.assumptions")
            self.assumptions_html.value = f'<p class="dg-review-how" style="font-size:90%">{escape(how)}</p>'
        self.record_label.value = escape(t("review.record_label"))
        label_all(self, self.LABELS, t)

    # ------------------------------------------------------------------ callbacks
    @safe
    def _on_every(self, change) -> None:
        if self.judged is not None:
            self.rows_box.layout.display = None if change["new"] else "none"

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
