"""The review as a student reads it, and the hints' reasons (issue 49, items 2, 3 and 5).

:func:`lesson_of` turns a judged review into plain data in one language (JSON-able: the class
tables' review worker sends it to a page): whom the judge assumed at the table
(:func:`~.judge_review.assumed_text`), the 1–3 decisions that cost the most and the seat's best
decision (:func:`~.judge_review.lesson_decisions`), and every decision — each with its headline
(:func:`~.judge_headline.headline_text`, one idea in game words) and the numbers for a teacher
(:func:`~.judge_review.details_text`). The Play table's review panel
(:mod:`dungeon_guilds.widgets.review`) and the class table page's "Review my moves"
(:mod:`dungeon_guilds.app.tables.seat_review`) both show it; :func:`lesson_html` is the page's HTML.

:func:`hint_reason` is a hint's one reason, in game words, from a candidate move's figures
against the judge's best (the claims of :mod:`~.judge_headline`, said of a move not yet made):
``tests/analysis/test_hint_reasons.py`` checks each claim against the figures it came from.
"""

from __future__ import annotations

from dataclasses import dataclass
from html import escape
from typing import Any

from .. import i18n
from ..actions import EXHAUST
from ..state import State
from .judge import MoveValue
from .judge_headline import headline, headline_text
from .judge_review import JudgedDecision, JudgedReview, assumed_text, details_text, lesson_decisions

__all__ = ["lesson_item", "lesson_of", "lesson_html", "hint_reason", "Candidate", "bracketed"]


def lesson_item(d: JudgedDecision, index: int, review: JudgedReview, lang: str) -> dict[str, Any]:
    """One decision as the student reads it: its number (from 1), round, move, mark, headline
    and the teacher's numbers."""
    return {"index": index, "n": index + 1, "round": d.round, "mark": d.mark,
            "move": i18n.action_text(d.action, lang, d.state), "head": headline_text(d, lang),
            "details": details_text(d, review, lang)}


def lesson_of(review: JudgedReview, lang: str) -> dict[str, Any]:
    """The review in ``lang`` as plain data (see the module docstring)."""
    index = {id(d): k for k, d in enumerate(review.decisions)}
    costly, best = lesson_decisions(review)
    return {"assumed": assumed_text(review, lang),
            "costly": [lesson_item(d, index[id(d)], review, lang) for d in costly],
            "best": None if best is None else lesson_item(best, index[id(best)], review, lang),
            "every": [lesson_item(d, k, review, lang) for k, d in enumerate(review.decisions)]}


def _t(key: str, lang: str, **values) -> str:
    return escape(i18n.t(key, lang, **values))


def bracketed(text: str, lang: str | None) -> str:
    """``text`` in brackets: full-width in 繁體中文, as its other sentences write them."""
    return f"（{text}）" if lang == "zh" else f"({text})"


def _item_html(item: dict, lang: str, extra: str = "") -> str:
    """A decision: its number, round and move, the headline, the teacher's numbers folded."""
    return (f"<li class='dg-lesson-item' data-mark='{escape(item['mark'])}' data-index='{item['index']}'>"
            f"<b>{item['n']}. {escape(item['move'])}</b> "
            f"<span class='dg-lesson-round'>{bracketed(_t('judge.round_n', lang, round=item['round']), lang)}</span><br>"
            f"<span class='dg-lesson-head'>{escape(item['head'])}</span>"
            f"<details class='dg-lesson-details'><summary>{_t('judge.details', lang)}</summary>"
            f"<p>{escape(item['details'])}</p></details>{extra}</li>")


def lesson_html(lesson: dict, lang: str, positions: dict[int, list[str]] | None = None) -> str:
    """The lesson as HTML (no script): the assumption once, the costly decisions, the best one,
    every decision folded under "Show every decision" (lists without bullets: each item carries
    its decision's number). ``positions``: a decision's board in
    words (its index: lines), folded under each item. The caller makes money text
    (:func:`~dungeon_guilds.money_html.dollars_as_text`)."""
    positions = positions or {}

    def item(it: dict) -> str:
        lines = positions.get(it["index"])
        extra = ("" if not lines else f"<details class='dg-lesson-board'><summary>{_t('judge.see_board', lang)}"
                 "</summary><ul>" + "".join(f"<li>{escape(x)}</li>" for x in lines) + "</ul></details>")
        return _item_html(it, lang, extra)
    costly = ("<ul class='dg-lesson-costly'>" + "".join(item(it) for it in lesson["costly"]) + "</ul>"
              if lesson["costly"] else f"<p>{_t('judge.head_none_costly', lang)}</p>")
    best = ("" if lesson["best"] is None else
            f"<h4>{_t('judge.head_well_played', lang)}</h4><ul class='dg-lesson-best'>{item(lesson['best'])}</ul>")
    every = "".join(item(it) for it in lesson["every"])
    return (f"<div class='dg-lesson'><p class='dg-lesson-assumed'>{escape(lesson['assumed'])}</p>"
            f"<h4>{_t('judge.head_costly', lang)}</h4>{costly}{best}"
            f"<details class='dg-lesson-every'><summary>{_t('judge.show_all', lang)}</summary>"
            f"<ul class='dg-lesson-all'>{every}</ul></details></div>")


# ---------------------------------------------------------------------- hints
@dataclass(frozen=True)
class Candidate:
    """A candidate move seen as a decision (what :func:`~.judge_headline.headline` reads): the
    move ``made`` would be the candidate, ``best`` the judge's best there."""

    made: MoveValue
    best: MoveValue
    state: State
    n_moves: int

    @property
    def action(self):
        return self.made.action

    @property
    def mark(self) -> str:
        return self.made.mark


def hint_reason(v: MoveValue, best: MoveValue, state: State, n_moves: int, lang: str | None = None) -> str:
    """A candidate's one reason in game words (no ±, no statistical word): "Best here" for the
    judge's best; for another move, the first true claim of :mod:`~.judge_headline` about it
    against the best (a lock, a bump, a failed room, gold this round, games won)."""
    c = Candidate(v, best, state, n_moves)
    h = headline(c)
    words = dict(h.figures, best=i18n.action_text(best.action, lang, state))
    if best.action.kind != EXHAUST:
        words.update(best_room=best.action.room)
    if v.action.kind != EXHAUST:
        words.update(room=v.action.room)
    return i18n.t(f"judge.hint_{h.kind}", lang, **words)
