"""The judge: each legal move valued by a search from the seat's information set.

For a decision of ``seat`` the judge draws worlds the seat cannot rule out
(:func:`~dungeon_guilds.analysis.judge_worlds.sample_world`, the knowledge module's worlds:
hidden fronts, the undealt deck, secret set-up pairs that fit the public gold, future lords;
never the true ones), plays every legal move in each world and then the game to its end with
each seat continued by its model (:class:`~dungeon_guilds.analysis.judge_worlds.Playout`,
:mod:`~dungeon_guilds.analysis.opponents`: the table's bots by their own policy, a person by a
stated level). Every move is played in the *same* worlds with the same random draws (common
random numbers), so the difference between two moves is measured world by world and its noise
is small. A move's value is its chance of winning (R8.1, a shared win split) and its expected
final gold margin (its gold minus the best other seat's), each with a standard error.

The search races the moves: worlds come in batches; after :attr:`Budget.min_worlds` worlds a
move whose score (win chance, plus :data:`MARGIN_WEIGHT` a dollar of margin) is below the
leader's by more than :attr:`Budget.z` standard errors of the paired difference is dropped
(it keeps the values measured so far); the search stops when one move is left or the budget of
worlds is spent. The best move is the one of the moves still in the race with the highest win
chance (ties: the higher margin), so a best never wins less often than another move it shows.

In a review (``check``: the move made) the best and the move made are played again on
:attr:`Budget.check` **fresh** worlds, and the figures shown for both are the fresh ones (the
race picked its best on its own worlds, so its lead there is biased upwards). If the move made
does at least as well as the race's best on the fresh worlds, it is the best. A move's *loss* is
the best move's win chance minus its own on the same worlds (for the move made: exactly the
difference of the two shares shown), with that difference's standard error. Marks
(:func:`judge_mark`) need both a loss large enough to matter and one larger than the noise:
``inaccuracy`` from :data:`INACCURACY_AT` (4 points of win chance), ``mistake`` from
:data:`MISTAKE_AT` (10 points) plus one standard error, each only when the loss is more than
:data:`SIGNIFICANT` standard errors; while the loss is within two standard errors of a line, the
fresh check plays more worlds (:func:`settled`). Pure Python; seeded by the position's
public facts, so the same position gets the same values.
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass, field
from typing import Callable, Sequence

from ..actions import Action
from ..state import State
from .judge_calibration import calibrated
from .judge_worlds import Outcome, Playout, sample_world

__all__ = ["Budget", "Judgement", "MoveValue", "GOOD", "INACCURACY", "MISTAKE", "INACCURACY_AT",
           "MISTAKE_AT", "SIGNIFICANT", "MARGIN_WEIGHT", "judge", "judge_mark", "settled", "CHECK_ROUNDS"]

GOOD, INACCURACY, MISTAKE = "good", "inaccuracy", "mistake"
INACCURACY_AT = 0.04  # win chance lost (4 points): from here an inaccuracy, if beyond the noise
MISTAKE_AT = 0.10  # 10 points: a mistake, if beyond the noise
SIGNIFICANT = 2.0  # a loss is beyond the noise when it is more than this many standard errors
MARGIN_WEIGHT = 0.02  # in the race's score, $1 of final margin counts as 2 points of win chance
CHECK_ROUNDS = 6  # the fresh check plays up to this many times Budget.check worlds (not settled)


@dataclass(frozen=True)
class Budget:
    """How hard the judge looks: at most ``worlds`` worlds a move, in batches of ``batch``;
    moves are dropped from ``min_worlds`` on when behind by more than ``z`` standard errors."""

    worlds: int = 48
    min_worlds: int = 16
    batch: int = 8
    z: float = 2.5
    check: int = 48  # fresh worlds on which a move checked is compared with the best (no bias)

    def times(self, k: float) -> "Budget":
        """The same search with ``k`` times the worlds (and the race starting ``k`` times later)."""
        return Budget(int(self.worlds * k), int(self.min_worlds * k), self.batch, self.z,
                      int(self.check * k))


@dataclass(frozen=True)
class MoveValue:
    """One move's value: ``n`` worlds; win chance and final margin with standard errors; the
    loss against the best move (paired) with its standard error; what the search saw this
    round: the share of worlds where an adventurer of the seat was replaced by another player
    (``bumped``) and where the room the move went into failed (``failed``; None for exhaust)."""

    action: Action
    n: int
    win: float
    win_se: float
    margin: float
    margin_se: float
    loss: float
    loss_se: float
    bumped: float
    failed: float | None
    earned: float = 0.0  # the seat's mean gold gained by the end of this round (fees included)

    @property
    def mark(self) -> str:
        return judge_mark(self.loss, self.loss_se)

    @property
    def chance(self) -> float:
        """The win chance the play-outs' share :attr:`win` stands for in games between mixed
        players (:func:`~dungeon_guilds.analysis.judge_calibration.calibrated`)."""
        return calibrated(self.win, self.n)


@dataclass(frozen=True)
class Judgement:
    """Every legal move's value, best first; how much was searched."""

    seat: int
    moves: tuple[MoveValue, ...]
    worlds: int  # worlds drawn
    playouts: int
    cpu: float = field(compare=False)  # seconds of this process's CPU

    @property
    def best(self) -> MoveValue:
        return self.moves[0]

    def of(self, action: Action) -> MoveValue:
        for m in self.moves:
            if m.action == action:
                return m
        raise KeyError(f"{action} was not a legal move here")


def judge_mark(loss: float, se: float) -> str:
    """The mark of a loss of win chance with standard error ``se`` (module docstring): a mistake
    needs the loss a standard error above :data:`MISTAKE_AT` (so a mark near the line is not a
    coin toss: issue 48 measured marks against the real continuation)."""
    if loss <= SIGNIFICANT * se:
        return GOOD
    return MISTAKE if loss >= MISTAKE_AT + se else INACCURACY if loss >= INACCURACY_AT else GOOD


def settled(loss: float, se: float) -> bool:
    """True when the loss is far enough from every line that more worlds would not change the
    mark: clearly below an inaccuracy, clearly an inaccuracy, or clearly a mistake."""
    lo, hi = loss - SIGNIFICANT * se, loss + SIGNIFICANT * se
    return hi < INACCURACY_AT or lo >= MISTAKE_AT or (lo >= INACCURACY_AT and hi < MISTAKE_AT)


def _mean_se(xs: Sequence[float]) -> tuple[float, float]:
    n = len(xs)
    if n == 0:
        return 0.0, 0.0
    m = sum(xs) / n
    if n < 2:
        return m, 0.0
    var = sum((x - m) ** 2 for x in xs) / (n - 1)
    return m, math.sqrt(var / n)


def _score(o: Outcome) -> float:
    return o.win + MARGIN_WEIGHT * o.margin


def _paired(a: list[Outcome], b: list[Outcome], key: Callable[[Outcome], float]) -> tuple[float, float]:
    """Mean and standard error of key(a) - key(b) over the worlds both were played in."""
    k = min(len(a), len(b))
    return _mean_se([key(a[i]) - key(b[i]) for i in range(k)])


def _leader(alive: list[Action], seen: dict[Action, list[Outcome]]) -> Action:
    """The best of the moves still in the race: the highest win chance, then final margin."""
    def rank(a: Action) -> tuple[float, float]:
        xs = seen[a]
        return (sum(o.win for o in xs) / len(xs), sum(o.margin for o in xs) / len(xs))
    return max(alive, key=rank)


def _race(alive: list[Action], seen: dict, z: float) -> list[Action]:
    """The moves still in the race: those not behind the leader's score beyond ``z`` errors."""
    lead = max(alive, key=lambda a: sum(_score(o) for o in seen[a]) / len(seen[a]))
    keep = []
    for a in alive:
        d, se = _paired(seen[lead], seen[a], _score)
        if a is lead or d <= z * se or d <= 1e-12:
            keep.append(a)
    return keep


def _value(a: Action, seen: dict, best: Action) -> MoveValue:
    xs = seen[a]
    win, win_se = _mean_se([o.win for o in xs])
    margin, margin_se = _mean_se([float(o.margin) for o in xs])
    loss, loss_se = (0.0, 0.0) if a == best else _paired(seen[best], xs, lambda o: o.win)
    bumped = sum(o.bumped for o in xs) / len(xs)
    failed = None if not a.room else sum(o.rooms > 0 and o.cleared < a.room for o in xs) / len(xs)
    earned = sum(o.earned for o in xs) / len(xs)
    return MoveValue(a, len(xs), win, win_se, margin, margin_se, max(0.0, loss), loss_se, bumped, failed,
                     earned)


def _seed_of(state: State, seat: int, seed: int | str) -> str:
    """Public facts only: the game's moment (round, moves taken) and the seat."""
    return f"judge/{seed}/{state.round}/{state.actions_taken}/{seat}"


def _play(state: State, seat: int, moves: Sequence[Action], worlds: range, key: str,
          playout: Playout, seen: dict, view) -> int:
    """Play each of ``moves`` in each world numbered in ``worlds``; the outcomes go to ``seen``."""
    runs = 0
    for w in worlds:
        world = sample_world(state, seat, random.Random(f"{key}/{w}"), view)
        before = world.gold[seat]
        for a in moves:
            det = world.copy()
            det.apply_unchecked(a)
            rng = random.Random(f"{key}/{w}/play")  # the same draws for every move (tie-breaks, slips)
            seen[a].append(playout.play(det, seat, rng, before))
        runs += len(moves)
    return runs


def _measured_fresh(state, seat, values, best, check, budget, key, playout, view):
    """The best move and the move made (``check``) played on :attr:`Budget.check` fresh worlds,
    and again as many (up to :data:`CHECK_ROUNDS` times) while the move made's mark is not
    :func:`settled`; if the move made does at least as well there, it is the best. Returns
    (values, best, runs)."""
    moves = [best] if check == best else [best, check]
    fresh: dict[Action, list[Outcome]] = {a: [] for a in moves}
    runs, start = 0, 10**6
    for _ in range(CHECK_ROUNDS):  # more fresh worlds while the mark is not settled
        runs += _play(state, seat, moves, range(start, start + budget.check), key, playout, fresh, view)
        start += budget.check
        if check == best or settled(*_paired(fresh[best], fresh[check], lambda o: o.win)):
            break
    if check != best and _mean_se([o.win for o in fresh[check]])[0] >= _mean_se([o.win for o in fresh[best]])[0]:
        best = check  # the fresh worlds do not put the race's best ahead of the move made
    # the race chose its best on its own worlds (its lead there is biased upwards): the figures
    # shown for the best and the move made are the fresh worlds' (the loss: exactly the
    # difference of the two shares, on the same worlds)
    values = [_value(v.action, fresh, best) if v.action in fresh else v for v in values]
    return values, best, runs


def judge(state: State, seat: int | None = None, budget: Budget = Budget(), seed: int | str = 0,
          playout: Playout | None = None, legal: Sequence[Action] | None = None,
          check: Action | None = None) -> Judgement:
    """Value every legal move of ``seat`` (the player to move) from its information set. The
    loss of ``check`` (the move made, in a review) is measured on :attr:`Budget.check` fresh
    worlds against the best move."""
    seat = state.current if seat is None else seat
    if seat != state.current:
        raise ValueError(f"seat {seat} is not to move (seat {state.current} is)")
    legal = list(state.legal_actions() if legal is None else legal)
    if not legal:
        raise ValueError("there is no legal move: the game is over")
    playout = playout or Playout()
    cpu0 = time.process_time()
    view = state.view(seat)
    key = _seed_of(state, seat, seed)
    seen: dict[Action, list[Outcome]] = {a: [] for a in legal}
    alive, w, runs = list(legal), 0, 0
    while w < budget.worlds and (len(alive) > 1 or w < budget.min_worlds):
        runs += _play(state, seat, alive, range(w, w + budget.batch), key, playout, seen, view)
        w += budget.batch
        if w >= budget.min_worlds and len(alive) > 1:
            alive = _race(alive, seen, budget.z)
    best = _leader(alive, seen)
    values = [_value(a, seen, best) for a in legal]
    if check is not None and budget.check:
        values, best, more = _measured_fresh(state, seat, values, best, check, budget, key, playout, view)
        runs += more
    values.sort(key=lambda v: (v.action != best, v.action not in alive, -v.win, -v.margin))
    return Judgement(seat, tuple(values), w, runs, time.process_time() - cpu0)
