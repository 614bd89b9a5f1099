"""A game's review: each decision of a seat against the round model's best move.

For every decision a seat took (the exhaust choice, each placement and each replacement; a pass
is the engine's, never a choice), :func:`review_game` asks the round model
(:func:`~dungeon_guilds.analysis.probability.action_values`) for the expected gold of every
legal move, from what that seat could know then, and keeps the move made, the best move, their
difference (the *loss*) and a mark:

=============  ===============================================================================
mark           loss (expected gold of the best move minus that of the move made)
=============  ===============================================================================
``good``       less than $0.25 (:data:`INACCURACY_AT`): the best move or as good as it
``inaccuracy`` from $0.25 to less than $1.00 (:data:`MISTAKE_AT`)
``mistake``    $1.00 or more: a whole bump fee (R4.4), the smallest price in the game
=============  ===============================================================================

What the model assumes (said in the review itself, ``review.assumptions``): it looks one round
ahead and no further; it resolves the dungeon as the move leaves it, as if nobody moved after it
this round (the other players' later moves, which the seat cannot know, are left out, not
guessed); each hidden room front is equally likely to be any card of its level nobody has seen,
counted exactly. ``tests/analysis/test_review_model.py`` checks it against play-outs of the same
assumptions on 200 random positions.

The curve (:func:`expected_gold_curve`) is each seat's gold after the current round's cleanup by
the same model, at every moment of the game, and the final gold once the game is over.
:func:`moment` gives the board at a decision by the engine's undo (``Game.undo_to`` on a copy).
Pure Python; the words are in ``strings/<lang>/review.toml``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Sequence

from .. import i18n
from ..actions import EXHAUST, Action
from ..state import DISPATCH, SETUP, State
from .probability import RoundModel, action_values, clear_probabilities

__all__ = ["Decision", "Review", "GOOD", "INACCURACY", "MISTAKE", "INACCURACY_AT", "MISTAKE_AT",
           "expected_gold_curve", "mark_of", "moment", "money", "move_chance", "review_game",
           "sentence", "top_moves", "move_sentence"]

GOOD, INACCURACY, MISTAKE = "good", "inaccuracy", "mistake"
INACCURACY_AT = 0.25  # dollars of expected gold lost: from here an inaccuracy
MISTAKE_AT = 1.0  # from here a mistake
EPS = 1e-9
LIKELY = Fraction(1, 2)  # a room "likely to fail" fails more often than not


def mark_of(loss: float) -> str:
    """The mark of a loss of expected gold (thresholds in the module docstring)."""
    if loss < INACCURACY_AT - EPS:
        return GOOD
    return INACCURACY if loss < MISTAKE_AT - EPS else MISTAKE


@dataclass(frozen=True)
class Decision:
    """One decision of ``seat``: ``ply`` decisions had been taken before it (``Game.go_to(ply)``
    shows the board it was taken on). Values are the expected change of the seat's gold by the
    end of this round (the model's)."""

    ply: int
    seat: int
    round: int  # counted from 1
    action: Action
    made: float
    best: float
    best_action: Action
    top: tuple[tuple[Action, float], ...]  # the three best moves, best first
    n_moves: int  # how many legal moves there were
    chance: Fraction | None  # the chance the room the move went into is cleared (None: exhaust)
    state: State = field(repr=False, compare=False)

    @property
    def loss(self) -> float:
        return max(0.0, self.best - self.made)

    @property
    def mark(self) -> str:
        return mark_of(self.loss)

    @property
    def is_best(self) -> bool:
        return self.loss <= EPS


@dataclass(frozen=True)
class Review:
    """The decisions reviewed (in the order taken) and the curve of every seat's expected gold
    (``curve[ply][seat]``, ply 0 to the game's ply)."""

    names: tuple[str, ...]
    seats: tuple[int, ...]
    decisions: tuple[Decision, ...]
    curve: tuple[tuple[float, ...], ...]

    def counts(self, seat: int | None = None) -> dict[str, int]:
        out = {GOOD: 0, INACCURACY: 0, MISTAKE: 0}
        for d in self.decisions:
            if seat is None or d.seat == seat:
                out[d.mark] += 1
        return out

    def lost(self, seat: int | None = None) -> float:
        """The expected gold lost over the decisions (of ``seat``)."""
        return sum(d.loss for d in self.decisions if seat is None or d.seat == seat)


def move_chance(state: State, action: Action) -> Fraction | None:
    """The chance that the room ``action`` puts an adventurer into is cleared (the rooms above
    it cleared too, R5.1), the dungeon as the move leaves it; None for an exhaust choice."""
    if action.kind == EXHAUST:
        return None
    return clear_probabilities(state.after(action))[action.room - 1][1]


def top_moves(state: State, player: int, k: int = 3,
              values: dict[Action, float] | None = None) -> list[tuple[Action, float]]:
    """The ``k`` moves of the highest expected gold, best first (ties in the engine's order)."""
    if values is None:
        values = action_values(state, player)
    return sorted(values.items(), key=lambda kv: -kv[1])[:k]


def _decision(state: State, ply: int, action: Action) -> Decision:
    seat = state.current
    values = action_values(state, seat)
    top = top_moves(state, seat, 3, values)
    best_action, best = top[0]
    made = values[action]
    if made >= best - EPS:
        best_action, best = action, made  # the move made was (one of) the best
    return Decision(ply, seat, state.round + 1, action, made, best, best_action, tuple(top),
                    len(values), move_chance(state, action), state)


def review_game(game, seats: Sequence[int] | None = None) -> Review:
    """Review the decisions taken so far in ``game`` (a :class:`~dungeon_guilds.game.Game`,
    played or loaded from a record) by ``seats`` (all seats if None)."""
    wanted = set(range(game.n_players) if seats is None else seats)
    line = game.line
    decisions = []
    for ply in range(game.ply):
        state = game.state_at(ply)
        if state.phase in (SETUP, DISPATCH) and state.current in wanted:
            decisions.append(_decision(state, ply, line[ply]))
    return Review(tuple(game.names), tuple(sorted(wanted)), tuple(decisions), expected_gold_curve(game))


def expected_gold_curve(game) -> tuple[tuple[float, ...], ...]:
    """Per moment (ply 0 to now), each seat's gold after this round's cleanup by the model (the
    dungeon as it stands, resolved); the gold itself in set-up and once the game is over."""
    rows = []
    for ply in range(game.ply + 1):
        state = game.state_at(ply)
        if state.phase != DISPATCH:
            rows.append(tuple(float(g) for g in state.gold))
            continue
        model = RoundModel.of(state)
        rows.append(tuple(model.expected_gold(state, p) for p in range(state.n)))
    return tuple(rows)


def moment(game, ply: int):
    """``(state, log)`` after ``ply`` decisions: the engine's undo on a copy of the game (the
    game itself is unchanged)."""
    copy = game.copy()
    copy.undo_to(ply)
    return copy.state.copy(), list(copy.log)


# ---------------------------------------------------------------------- words
def money(value: float) -> str:
    """$2.40, −$0.50 (cents shown: these are expectations)."""
    return f"${value:.2f}" if value >= -0.005 else f"−${-value:.2f}"


def _percent(p: Fraction) -> str:
    """A chance in whole percent; 0 and 100 only when exact (a 99.6 % chance is ">99")."""
    if 0 < p < Fraction(1, 200):
        return "<1"
    if Fraction(199, 200) <= p < 1:
        return ">99"
    return f"{float(p) * 100:.0f}"


def sentence(decision: Decision, lang: str | None = None) -> str:
    """Why the decision got its mark, in one sentence of ``lang``."""
    d = decision
    t = i18n.t
    if d.n_moves == 1:
        return t("review.only_move", lang)
    best_move = i18n.action_text(d.best_action, lang, d.state)
    values = dict(made=money(d.made), best=money(d.best), best_move=best_move)
    a = d.action
    if a.kind == EXHAUST:
        key = "review.exhaust_best" if d.is_best else "review.exhaust"
        return t(key, lang, a=a.strength, b=a.other, **values)
    fail = 1 - d.chance
    room = dict(room=a.room, strength=a.strength, clear=_percent(d.chance), fail=_percent(fail))
    if d.is_best:
        key = "review.best_of_losses" if d.made < -EPS else "review.was_best"
        return t(key, lang, **room, **values)
    key = "review.sure_fail" if fail == 1 else "review.likely_fail" if fail > LIKELY else "review.likely_clear"
    return t(key, lang, **room, **values)


def move_sentence(state: State, action: Action, value: float, lang: str | None = None) -> str:
    """A candidate move's reason, as a hint gives it: the chance its room is cleared and what it
    is expected to earn."""
    if action.kind == EXHAUST:
        return i18n.t("review.hint_exhaust", lang, a=action.strength, b=action.other, value=money(value))
    chance = move_chance(state, action)
    return i18n.t("review.hint_room", lang, room=action.room, strength=action.strength,
              clear=_percent(chance), value=money(value))
