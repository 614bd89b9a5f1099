"""The class's mistakes (issue 38, item 6): the judge's reviews of many games, summed by kind.

:func:`class_mistakes` takes judged reviews (:class:`~dungeon_guilds.analysis.judge_review.JudgedReview`,
one per seat reviewed, from any number of games) and returns, for each kind of decision, how
often it was marked "mistake" (and "inaccuracy") against how often it was taken, the win chance
lost there, and one example: the decision of that kind that lost the most. The kinds
(:func:`kind_of`): the set-up exhaust pair (R2.4), a placement into the top room, into another
room (R4.3), a bump (R4.4) and a swap (R4.5). Pure Python: a teacher page (or a notebook) calls
it with the reviews it has and draws the result; nothing here reads a file or a table.

:func:`tally` is the same sum over plain ``(kind, mark, loss, example)`` items: the class tables'
teacher page (:mod:`dungeon_guilds.app.tables.class_review`) stores each game's judged decisions
as such items (the judge's marks and losses, never recomputed) and sums them with it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable

from ..actions import BUMP, EXHAUST, PLACE, SWAP
from .judge import GOOD, INACCURACY, MISTAKE
from .judge_review import JudgedDecision, JudgedReview

__all__ = ["KINDS", "MistakeGroup", "class_mistakes", "kind_of", "tally"]

SETUP_PAIR, TOP_ROOM, ROOM_CHOICE, BUMPING, SWAPPING = "setup_pair", "top_room", "room_choice", "bump", "swap"
KINDS = (SETUP_PAIR, TOP_ROOM, ROOM_CHOICE, BUMPING, SWAPPING)


def kind_of(d: JudgedDecision) -> str:
    """The kind of a decision, by the move made."""
    a = d.action
    if a.kind == EXHAUST:
        return SETUP_PAIR
    if a.kind == BUMP:
        return BUMPING
    if a.kind == SWAP:
        return SWAPPING
    assert a.kind == PLACE, a
    return TOP_ROOM if a.room == 1 else ROOM_CHOICE


@dataclass(frozen=True)
class MistakeGroup:
    """One kind: ``taken`` decisions of it (with more than one legal move), ``mistakes`` and
    ``inaccuracies`` among them, the win chance lost in those (points), and ``example``: for
    :func:`class_mistakes`, ``(index of the review in the input, the decision)`` that lost the
    most (for :func:`tally`, that item's example); None if none was marked."""

    kind: str
    taken: int
    mistakes: int
    inaccuracies: int
    lost: float
    example: Any

    @property
    def share(self) -> float:
        """The share of the decisions of this kind marked "mistake"."""
        return self.mistakes / self.taken if self.taken else 0.0


def class_mistakes(reviews: Iterable[JudgedReview]) -> list[MistakeGroup]:
    """Every kind's counts and worst example, the kinds with the most mistakes first (then by
    win chance lost; kinds never taken are left out)."""
    return tally((kind_of(d), d.mark, d.made.loss, (i, d))
                 for i, review in enumerate(reviews) for d in review.decisions if d.n_moves > 1)


def tally(items: Iterable[tuple[str, str, float, Any]]) -> list[MistakeGroup]:
    """:func:`class_mistakes` over ``(kind, mark, loss, example)`` items, one a decision with
    more than one legal move (the mark and the loss of win chance are the judge's). A kind's
    example is the one of its first item that lost the most among those marked."""
    taken = {k: 0 for k in KINDS}
    marks = {k: {GOOD: 0, INACCURACY: 0, MISTAKE: 0} for k in KINDS}
    lost = {k: 0.0 for k in KINDS}
    worst: dict[str, tuple[float, Any]] = {}
    for k, mark, loss, example in items:
        taken[k] += 1
        marks[k][mark] += 1
        if mark == GOOD:
            continue
        lost[k] += 100 * loss
        if k not in worst or loss > worst[k][0]:
            worst[k] = (loss, example)
    groups = [MistakeGroup(k, taken[k], marks[k][MISTAKE], marks[k][INACCURACY], lost[k],
                           worst[k][1] if k in worst else None)
              for k in KINDS if taken[k]]
    return sorted(groups, key=lambda g: (-g.mistakes, -g.lost, KINDS.index(g.kind)))
