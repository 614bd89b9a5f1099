"""A game's review by the judge (issue 38): each decision of a seat valued by a search from that
seat's information set, the win chance of every seat through the game, and sentences from what
the search saw.

:func:`judge_review` is a generator: it yields a :class:`Progress` after each decision valued
(so a page can show a progress bar and stop between two steps) and, last, one whose ``review``
is the :class:`JudgedReview`. Each decision is :func:`~dungeon_guilds.analysis.judge.judge` with
the move made checked on fresh worlds; the marks (good, inaccuracy, mistake) need a loss of win
chance both large enough and beyond the estimate's noise (``judge.judge_mark``). The one-round
model's review (:func:`~dungeon_guilds.analysis.review.review_game`) comes with it as the
*quick view*, labelled as such.

The curve: at every moment of the game, each seat's chance of winning as the reviewed seat could
see it (worlds drawn from its view, played to the end by greedy's rule), the result at the end.
The words are in ``strings/<lang>/review.toml`` (``[judge]``).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Iterator

from .. import i18n
from ..actions import EXHAUST, Action
from ..scoring import result
from ..state import DISPATCH, SETUP, State
from .judge import GOOD, INACCURACY, MISTAKE, Budget, Judgement, MoveValue, judge
from .judge_worlds import Playout, sample_world
from .opponents import model_of, playout_for
from .review import Review, review_game

__all__ = ["JudgedDecision", "JudgedReview", "Progress", "judge_review", "judged_sentence",
           "hint_sentence", "win_curve", "percent", "CURVE_WORLDS", "lesson_decisions", "details_text",
           "model_words", "assumed_text"]

CURVE_WORLDS = 12  # worlds a moment for the win-chance curve


@dataclass(frozen=True)
class JudgedDecision:
    """One decision of ``seat`` (``ply`` decisions were taken before it), as the judge saw it."""

    ply: int
    seat: int
    round: int  # counted from 1
    action: Action
    judgement: Judgement
    state: State = field(repr=False, compare=False)

    @property
    def made(self) -> MoveValue:
        return self.judgement.of(self.action)

    @property
    def best(self) -> MoveValue:
        return self.judgement.best

    @property
    def n_moves(self) -> int:
        return len(self.judgement.moves)

    @property
    def mark(self) -> str:
        return GOOD if self.n_moves == 1 else self.made.mark

    @property
    def top(self) -> tuple[MoveValue, ...]:
        return self.judgement.moves[:3]


@dataclass(frozen=True)
class JudgedReview:
    """The decisions judged (in the order taken), every seat's win chance at each moment
    (``curve[ply][seat]``, ply 0 to the game's ply) and the one-round model's quick view."""

    names: tuple[str, ...]
    seats: tuple[int, ...]
    decisions: tuple[JudgedDecision, ...]
    curve: tuple[tuple[float, ...], ...]
    quick: Review
    models: tuple[str, ...] | None = None  # who continued each seat in the play-outs (opponents.py)

    def counts(self, seat: int | None = None) -> dict[str, int]:
        out = {GOOD: 0, INACCURACY: 0, MISTAKE: 0}
        for d in self.decisions:
            if seat is None or d.seat == seat:
                out[d.mark] += 1
        return out

    def lost(self, seat: int | None = None) -> float:
        """Win chance lost over the marked decisions (of ``seat``), in points."""
        return 100 * sum(d.made.loss for d in self.decisions
                         if d.mark != GOOD and (seat is None or d.seat == seat))


@dataclass(frozen=True)
class Progress:
    done: int
    total: int
    review: JudgedReview | None = None


def _moments(game, seats: set[int]) -> list[tuple[int, State]]:
    out = []
    for ply in range(game.ply):
        state = game.state_at(ply)
        if state.phase in (SETUP, DISPATCH) and state.current in seats:
            out.append((ply, state))
    return out


def win_curve(game, seat: int, worlds: int = CURVE_WORLDS, playout: Playout | None = None,
              seed: int | str = 0) -> Iterator[tuple[float, ...] | None]:
    """Each seat's win chance at every moment, as ``seat`` could see it; yields None after each
    moment and, last, the whole curve as a tuple of rows (see the module docstring)."""
    playout = playout or Playout()
    rows = []
    for ply in range(game.ply + 1):
        state = game.state_at(ply)
        if state.is_over:
            res = result(state)
            rows.append(tuple(1.0 / len(res.winners) if q in res.winners else 0.0 for q in range(state.n)))
            continue
        view = state.view(seat)
        total = [0.0] * state.n
        for w in range(worlds):
            rng = random.Random(f"curve/{seed}/{ply}/{w}")
            det = sample_world(state, seat, rng, view)
            for q, x in enumerate(playout.wins(det, seat, rng)):
                total[q] += x
        rows.append(tuple(x / worlds for x in total))
        yield None
    yield tuple(rows)


def judge_review(game, seat: int, budget: Budget = Budget(), seed: int | str = 0,
                 curve_worlds: int = CURVE_WORLDS, models=None) -> Iterator[Progress]:
    """Judge ``seat``'s decisions in ``game`` step by step (see the module docstring).
    ``models``: one model name a seat (:mod:`~dungeon_guilds.analysis.opponents`: the table's
    bots by name, ``"person"`` for a person); None: greedy for every seat."""
    models = tuple(models) if models is not None else None
    playout = playout_for(models)
    moments = _moments(game, {seat})
    total = len(moments) + 1
    decisions = []
    for k, (ply, state) in enumerate(moments):
        made = game.line[ply]
        j = judge(state, seat, budget, seed=seed, playout=playout, check=made)
        decisions.append(JudgedDecision(ply, seat, state.round + 1, made, j, state))
        yield Progress(k + 1, total)
    curve = None
    for rows in win_curve(game, seat, curve_worlds, playout, seed):
        curve = rows
    review = JudgedReview(tuple(game.names), (seat,), tuple(decisions), curve, review_game(game, [seat]),
                          models)
    yield Progress(total, total, review)


# ---------------------------------------------------------------------- words
def percent(p: float) -> str:
    """A chance in whole percent (""<1"" and "">99"" unless exact)."""
    if 0 < p < 0.005:
        return "<1"
    if 0.995 < p < 1:
        return ">99"
    return f"{100 * p:.0f}"


def _margin(m: float) -> str:
    return f"+{m:.1f}" if m >= 0.05 else f"{m:.1f}" if m <= -0.05 else "0.0"


def _numbers(v: MoveValue) -> dict[str, str]:
    return dict(win=percent(v.win), se=f"{100 * v.win_se:.0f}", margin=_margin(v.margin))


def _saw(v: MoveValue, lang: str | None, key: str, **extra) -> str:
    a = v.action
    if a.kind == EXHAUST:
        return i18n.t(f"judge.{key}_exhaust", lang, a=a.strength, b=a.other, bumped=percent(v.bumped), **extra)
    return i18n.t(f"judge.{key}_room", lang, room=a.room, bumped=percent(v.bumped),
                  failed=percent(v.failed or 0.0), **extra)


def judged_sentence(d: JudgedDecision, lang: str | None = None) -> str:
    """Why the decision got its mark, from what the search saw, in ``lang``."""
    t = i18n.t
    if d.n_moves == 1:
        return t("review.only_move", lang)
    made, best = d.made, d.best
    if made.action == best.action:
        parts = [t("judge.was_best", lang, **_numbers(made)), _saw(made, lang, "saw")]
        return " ".join(parts)
    best_move = i18n.action_text(best.action, lang, d.state)
    parts = [t("judge.values", lang, best_move=best_move, best_win=percent(best.win),
               best_se=f"{100 * best.win_se:.0f}", best_margin=_margin(best.margin), **_numbers(made))]
    noise = dict(loss=f"{100 * made.loss:.0f}", loss_se=f"{100 * made.loss_se:.0f}")
    parts.append(t("judge.within_noise" if d.mark == GOOD else "judge.beyond_noise", lang, **noise))
    parts.append(_saw(made, lang, "saw"))
    parts.append(_saw(best, lang, "saw_best", best_move=best_move))
    return " ".join(parts)


def hint_sentence(v: MoveValue, lang: str | None = None) -> str:
    """A candidate move's reason, as a hint gives it: its win chance and what the search saw."""
    return i18n.t("judge.hint", lang, **_numbers(v)) + " " + _saw(v, lang, "saw")


# ---------------------------------------------------------------------- the lesson's view (issue 49)
def lesson_decisions(review: JudgedReview, k: int = 3) -> tuple[list[JudgedDecision], JudgedDecision | None]:
    """What the review opens on: the ``k`` marked decisions that cost the most win chance (the
    largest loss first), and the seat's best decision — of those where the move made was the
    judge's best, the one where the next move was furthest behind (None if there is none)."""
    marked = sorted((d for d in review.decisions if d.mark != GOOD), key=lambda d: -d.made.loss)
    clear = [d for d in review.decisions if d.n_moves > 1 and d.action == d.best.action]

    def lead(d: JudgedDecision) -> float:
        others = [v.loss for v in d.judgement.moves if v.action != d.action]
        return min(others) if others else 0.0
    best = max(clear, key=lead) if clear else None
    return marked[:k], (best if best is not None and lead(best) > 0 else None)


def details_text(d: JudgedDecision, review: JudgedReview, lang: str | None = None) -> str:
    """The numbers behind a decision, for those who ask (worded for a teacher; docs/review.md):
    the win chance before it (with its best move) and after the move made; the loss with its
    95 % interval and how many games were played on from here for each move."""
    t = i18n.t
    made, best = d.made, d.best
    # "before" is the chance the position held with its best move, "after" the chance after the
    # move made: both measured on the same fresh worlds (the curve's coarse 12 worlds, played by
    # the seat's own model, could read "before 0 %, after 12 %": not a figure to set beside them)
    parts = [t("judge.detail_chance", lang, made=percent(made.win), best=percent(best.win))]
    if made.action != best.action:
        half = 1.96 * made.loss_se
        parts.append(t("judge.detail_loss", lang, loss=f"{100 * made.loss:.0f}",
                       lo=f"{100 * (made.loss - half):.0f}", hi=f"{100 * (made.loss + half):.0f}",
                       games=made.n, mark=t(f"review.{d.mark}", lang)))
    return " ".join(parts)


def model_words(name: str, lang: str | None = None) -> str:
    """A seat's model in words: a bot's level as Play names it, a stand-in said as such."""
    if name == "person":
        return i18n.t("judge.model_person", lang)
    m = model_of(name)
    base = name.split(":")[0]
    label = i18n.t(f"bot.{base}", lang) if i18n.has(f"bot.{base}", lang) else base
    return i18n.t("judge.model_stand_in", lang, level=label) if m.stand_in else label


def assumed_text(review: JudgedReview, lang: str | None = None) -> str:
    """Whom the judge assumed at the table (issue 48, item 3): one phrase a seat."""
    names = review.models or ("greedy",) * len(review.names)
    who = []
    for q, name in enumerate(names):
        level = model_words(name, lang)
        key = "judge.model_you" if q in review.seats else "judge.model_seat"
        who.append(i18n.t(key, lang, seat=q + 1, level=level))
    return i18n.t("judge.assumed", lang, who=i18n.join_list(who, lang))
