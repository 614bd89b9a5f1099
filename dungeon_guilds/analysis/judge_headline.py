"""One idea per decision, in game words: the review's headline (issue 49, item 1).

A learner reads one sentence a decision: what the better move was and why, *as the judge's
play-outs saw it*. :func:`headline` picks the first claim below that is true of the decision's
figures (the best move and the move made, both measured on the same fresh worlds) and of the
engine (a lock is the engine's own answer on a copy, :meth:`State.after`):

=============  =================================================================================
``locked``     the best move locks the room it goes into (R4.3) and the move made was bumped more
               often (R4.4): "… would have locked it: nobody could bump you there"
``bumped``     after the move made one of the seat's adventurers was bumped in most games, more
               often than after the best
``failed``     the room the move made went into failed (R5.1) in most games, more often than
               the best's
``earned``     the best earned at least $1 more this round on average (fees and heal costs in)
``later``      the move made paid as much this round, but the best won more games in the end
``wins``       otherwise: the best won more games (the one number: how many more in 100)
=============  =================================================================================

A good decision says so (``best`` when it was the judge's best, ``fine`` when the difference
was too small to tell). Every headline holds at most one figure (a percentage or dollars) and
no statistical word; the details toggle has the numbers (``judge_review.details``).
``tests/analysis/test_headlines.py`` replays the fresh worlds each headline came from and checks
its claim, in English and 繁體中文.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .. import i18n
from ..actions import EXHAUST
from .judge import GOOD

__all__ = ["Headline", "headline", "headline_text", "CLAIMS"]

CLAIMS = ("best", "fine", "only", "locked", "bumped", "failed", "earned", "later", "wins")
MOST = 0.5  # "in most games": more than half


@dataclass(frozen=True)
class Headline:
    """A decision's one idea: ``kind`` (one of :data:`CLAIMS`) and the figures it states."""

    kind: str
    figures: dict[str, Any] = field(default_factory=dict)


def _locks(state, action) -> bool:
    """True when ``action`` leaves its room locked and the room was not locked before (R4.3)."""
    if action.kind == EXHAUST or state.locked[action.room - 1]:
        return False
    return state.after(action).locked[action.room - 1]


def _claim(d) -> Headline:
    made, best = d.made, d.best
    if (best.action.kind != EXHAUST and _locks(d.state, best.action)
            and made.bumped > best.bumped and made.action.kind != EXHAUST):
        return Headline("locked")
    if made.bumped > MOST and made.bumped > best.bumped:
        return Headline("bumped", {"pct": round(100 * made.bumped)})
    if made.failed is not None and made.failed > MOST and made.failed > (best.failed or 0.0):
        return Headline("failed", {"pct": round(100 * made.failed)})
    gain = best.earned - made.earned
    if gain >= 1.0:
        return Headline("earned", {"dollars": int(gain)})
    if made.earned >= best.earned:
        return Headline("later")
    return Headline("wins", {"games": max(1, round(100 * (best.win - made.win)))})


def headline(d) -> Headline:
    """The headline of a judged decision (a :class:`~.judge_review.JudgedDecision`)."""
    if d.n_moves == 1:
        return Headline("only")
    if d.made.action == d.best.action:
        return Headline("best")
    if d.mark == GOOD:
        return Headline("fine")
    return _claim(d)


def headline_text(d, lang: str | None = None, h: Headline | None = None) -> str:
    """The headline in ``lang``: the move names from the engine's words, the figure if any."""
    h = h or headline(d)
    made = d.action
    # the moves in the engine's short words (no victim's name: the board beside says whose)
    words = dict(h.figures, best=i18n.action_text(d.best.action, lang), made=i18n.action_text(made, lang))
    if made.kind != EXHAUST:
        words.update(room=made.room, strength=made.strength)
    best = d.best.action
    if best.kind != EXHAUST:
        words.update(best_room=best.room, best_strength=best.strength)
    return i18n.t(f"judge.head_{h.kind}", lang, **words)
