"""The game review as a widget, and the hints that teach (issue 30).

:class:`ReviewPanel` shows :func:`~dungeon_guilds.analysis.review.review_game` for one seat: what
the model assumes (in the panel itself), the marks counted, the chart of every seat's expected
gold, and one row per decision (move made, expected gold, best, lost, mark). Clicking a row shows
the sentence why, the model's three best moves there and the board at that moment, drawn from
the engine's undo on a copy of the game (:func:`~dungeon_guilds.analysis.review.moment`), as the
reviewed seat saw it (other seats' secrets stay hidden). A game record (a JSON file uploaded:
bytes in memory, never a server path) can be reviewed in the same panel.

:func:`hints_html` is the Play table's hint: the three best moves with their expected gold and
the same one-sentence reason. The caller asks only for a human seat's turn.
"""

from __future__ import annotations

from html import escape

import ipywidgets as W

from .. import i18n
from ..analysis.review import (Review, move_sentence, moment, money, review_game, sentence,
                               top_moves)
from ..record import from_record
from .board import GameBoard
from .common import App, message_html, safe, set_options
from .figures import show_figure
from .layout import side_by_side

MAX_RECORD_BYTES = 256 * 1024  # a record of a whole 6-player game is a few kilobytes
#: a mark's sign, the chart's marker shape (circle, diamond, cross): not by colour alone
MARK_SIGN = {"good": "●", "inaccuracy": "◆", "mistake": "✖"}
_CELL = "display:inline-block;min-width:88px;padding:0 6px;text-align:right"


def hints_html(state, player: int, lang: str) -> str:
    """The three best moves for ``player`` (to move), each with its expected gold this round
    and its reason in one sentence."""
    top = top_moves(state, player, 3)
    if not top:
        return message_html(i18n.t("ui.hint_none", lang), "info")
    rows = "".join(
        f'<li class="dg-hint" data-action="{escape(str(a))}"><b>{escape(i18n.action_text(a, lang, state))}</b>'
        f" — {escape(money(v))}<br><span class=\"dg-hint-why\">{escape(move_sentence(state, a, v, lang))}</span></li>"
        for a, v in top)
    return (f'<div class="dg-hints"><b>{escape(i18n.t("review.hints_title", lang))}</b>'
            f'<ol class="dg-hint-list">{rows}</ol></div>')


class ReviewPanel(App):
    """``show(game, seat)`` reviews ``seat``'s decisions in ``game``. Sub-widgets:
    ``summary_html``, ``figure_output`` (``figure``), ``rows_box`` (one ``dg-review-row`` a
    decision, its button ``dg-review-pick``), ``detail_html``, ``board`` (the moment picked),
    ``seat_dropdown``, ``upload``; ``review`` is the review shown."""

    css_class = "dg-review"

    def __init__(self, lang: str = "en", lang_state=None):
        super().__init__(lang=lang, lang_state=lang_state, show_language=False)
        self.game = None
        self.seat = 0
        self.review: Review | None = None
        self.figure = None
        self.picked: int | None = None
        self.title_html = W.HTML().add_class("dg-review-title")
        self.assumptions_html = W.HTML().add_class("dg-review-assumptions")
        self.summary_html = W.HTML().add_class("dg-review-summary")
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
                         self.seat_dropdown, self.figure_output, self.rows_box,
                         side_by_side(self.board, self.detail_html),
                         W.HBox([self.record_label, self.upload])]
        self.relabel()

    # ------------------------------------------------------------------ showing
    def show(self, game, seat: int) -> None:
        """Review ``seat``'s decisions in ``game`` (played so far, or loaded)."""
        self.game, self.seat = game, seat
        self.review = review_game(game, [seat])
        self.picked = None
        set_options(self.seat_dropdown, [(f"{p + 1} · {name}", p) for p, name in enumerate(game.names)])
        self.seat_dropdown.value = seat
        self.refresh()

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
        from ..viz.review import review_figure

        name = review.names[self.seat]
        counts = review.counts(self.seat)
        self.summary_html.value = (f"<b>{escape(self.t('review.summary', name=name, lost=f'{review.lost(self.seat):.2f}', **counts))}</b>"
                                   if review.decisions else escape(self.t("review.none")))
        self.figure = review_figure(review, self.seat, self.lang)
        show_figure(self.figure_output, self.figure)
        rows = [self._row(i, d) for i, d in enumerate(review.decisions)]
        self.rows_box.children = [self._head(), *rows] if rows else []
        self._draw_detail()

    def _row(self, index: int, d) -> W.HBox:
        t = self.t
        button = W.Button(description=f"{index + 1}. {i18n.action_text(d.action, self.lang, d.state)}",
                          tooltip=t("review.pick"), layout=W.Layout(width="320px", min_width="320px"),
                          button_style="info" if index == self.picked else "").add_class("dg-review-pick")
        button.on_click(lambda _b, i=index: self._on_pick(i))
        cells = [str(d.round), money(d.made), money(d.best), money(d.loss)]
        html = "".join(f'<span class="dg-review-cell" style="{_CELL}">{escape(c)}</span>' for c in cells)
        html += (f'<b class="dg-mark dg-mark-{d.mark}" data-mark="{d.mark}" style="{_CELL}">'
                 f"{MARK_SIGN[d.mark]} {escape(t('review.' + d.mark))}</b>")
        return W.HBox([button, W.HTML(html)]).add_class("dg-review-row")

    def _head(self) -> W.HBox:
        t = self.t
        cells = "".join(f'<b style="{_CELL}">{escape(t(k))}</b>'
                        for k in ("review.round", "review.made", "review.best", "review.diff", "review.mark"))
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
        top = "".join(f"<li>{escape(i18n.action_text(a, lang, d.state))} — {escape(money(v))}</li>" for a, v in d.top)
        mark = self.t("review.mark_label", mark=self.t("review." + d.mark))
        self.detail_html.value = (
            f"<p><b>{index + 1}. {escape(i18n.action_text(d.action, lang, d.state))}</b><br>"
            f"<i>{escape(self.t('review.board_at', n=index + 1, round=d.round))}</i></p>"
            f'<p class="dg-review-why" data-mark="{d.mark}"><b>{MARK_SIGN[d.mark]} {escape(mark)}</b> '
            f"{escape(sentence(d, lang))}</p><div>{escape(self.t('review.top_three'))}<ol>{top}</ol></div>")
        state, log = moment(self.game, d.ply)
        self.board.show(state, lang, None, d.seat, log)
        self.board.layout.display = None

    def relabel(self) -> None:
        t = self.t
        self.title_html.value = f"<h4>{escape(t('review.title'))}</h4>"
        self.assumptions_html.value = f'<p class="dg-review-how" style="font-size:90%">{escape(t("review.assumptions"))}</p>'
        self.seat_dropdown.description = t("review.seat_pick")
        self.record_label.value = escape(t("review.record_label"))
        self.upload.description = t("review.upload")

    # ------------------------------------------------------------------ callbacks
    @safe
    def _on_pick(self, index: int) -> None:
        self.pick(index)

    @safe
    def _on_seat(self, change) -> None:
        if self.game is not None and change["new"] is not None and change["new"] != self.seat:
            self.show(self.game, int(change["new"]))

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
