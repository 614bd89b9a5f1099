"""The judge's worlds and play-outs: what one seat cannot rule out, played to the game's end.

* :func:`sample_world` draws one world consistent with what the seat knows: the knowledge
  module's :func:`~dungeon_guilds.analysis.knowledge.determinize` (room fronts, the undealt
  deck, other seats' secret set-up pairs that fit the public gold, the lords not yet revealed:
  never the true ones).
* :class:`Playout` plays a world to the end as the table would (issue 48): each seat by its
  **model** (:mod:`~dungeon_guilds.analysis.opponents`): a greedy-family bot exactly by its own
  policy (greedy's move of the highest expected gold this round, ties broken at random as
  ``GreedyBot`` does; beginner and intermediate slip to any legal move one move in two / ten),
  other cheap bots by their own code, an expensive level (``strong``, ``mcts``, ``judge``) by
  greedy's rule as a stand-in (its agreement measured in docs/review.md), a person by the level
  the review states. Every random choice comes from the play-out's stream (``rng`` of
  :meth:`Playout.play`), seeded by the world, so the moves valued in one world meet the same
  draws (common random numbers).
  Greedy's best moves read only the mover's view, which many worlds share (within a round the
  hidden fronts do not change it), so they are kept in a cache keyed by everything that changes
  them: that view, and the game's rules, deck, heal costs and seat count (:func:`game_key`).
  While it plays, it notes what happened to the seat this round: whether an adventurer of the
  seat was replaced by another player (R4.4), and whether the rooms failed (R5.1).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from ..actions import BUMP, Action
from ..scoring import result
from ..state import OVER, SETUP, State
from .knowledge import determinize
from .probability import action_values

__all__ = ["Outcome", "Playout", "SLIP", "game_key", "sample_world"]

SLIP = 0.0  # the default chance that another seat's play-out move is any legal move (docs/review.md)
CACHE_KEPT = 100_000  # greedy choices kept (tens of MB at most); a longer run forgets and rebuilds


def sample_world(state: State, seat: int, rng: random.Random, view=None) -> State:
    """One world ``seat`` cannot rule out: the knowledge module's
    :func:`~dungeon_guilds.analysis.knowledge.determinize` (fronts, deck, future lords, secret
    pairs, every public fact respected)."""
    return determinize(state, seat, rng, view)


@dataclass(frozen=True)
class Outcome:
    """One play-out's end for ``seat``: its share of victory (R8.1; 1/k of a k-way shared win),
    its final gold minus the best other seat's (team gold with teams, R10.1), whether one of its
    adventurers was replaced by another player later this round, the room of 1-based number
    where the round's resolution stopped (``cleared`` rooms; all cleared = number of rooms), and
    the gold it had at the end of this round minus the gold it had before the move."""

    win: float
    margin: int
    bumped: bool
    cleared: int
    rooms: int
    earned: int = 0  # the seat's gold at the end of this round minus its gold before the move


def _outcome(det: State, seat: int, bumped: bool, round_no: int, before: int | None) -> Outcome:
    res = result(det)
    share = 1.0 / len(res.winners) if seat in res.winners else 0.0
    if det.team is None:
        mine, others = res.gold[seat], [g for q, g in enumerate(res.gold) if q != seat]
    else:
        t = det.team[seat]
        mine, others = res.team_gold[t], [g for q, g in enumerate(res.team_gold) if q != t]
    summary = det.round_results[round_no] if round_no < len(det.round_results) else None
    cleared = summary["cleared"] if summary else 0
    rooms = summary["rooms"] if summary else 0
    earned = summary["gold"][seat] - before if summary and before is not None else 0
    return Outcome(share, mine - max(others), bumped, cleared, rooms, earned)


def game_key(det: State) -> tuple:
    """Everything fixed for a game that changes greedy's answer: rules, deck, heal costs, seats."""
    return (det.n, det.rules, det.cards, det.base_heal, tuple(sorted(det.levels.items())))


class Playout:
    """Plays worlds to the end, each seat by its model; counts simulated moves and look-ups.

    ``models``: one :class:`~dungeon_guilds.analysis.opponents.Model` a seat (built by
    :func:`~dungeon_guilds.analysis.opponents.model_of` from names such as ``"greedy"``,
    ``"intermediate"``, ``"strong"``); None: greedy for every seat. ``slip`` (other seats) and
    ``own_slip`` (the seat valued) add a chance of any legal move, for measuring."""

    def __init__(self, slip: float = SLIP, own_slip: float = 0.0, models=None) -> None:
        self.slip = slip
        self.own_slip = own_slip
        self.models = tuple(models) if models is not None else None
        self.cache: dict[tuple, tuple[Action, ...]] = {}
        self.moves = 0  # moves simulated
        self.looked_up = 0  # greedy choices worked out (the rest came from the cache)

    def best_moves(self, det: State, legal, gk: tuple) -> tuple[Action, ...]:
        """Greedy's best moves for the player to move (all tied for the most gold this round)."""
        p = det.current
        key = (gk, det.phase, det.round, p, det.gold[p], det.active[p], det.ban, det.lord,
               tuple(det.slots()), tuple(det.locked),
               tuple(det.seen), tuple(c.level for c in det.rooms), len(det.deck) - det.deck_pos)
        hit = self.cache.get(key)
        if hit is not None:
            return hit
        self.looked_up += 1
        values = action_values(det, p, legal=legal)
        top = max(values.values())
        best = tuple(a for a in legal if values[a] >= top - 1e-9)
        if len(self.cache) >= CACHE_KEPT:
            self.cache.clear()
        self.cache[key] = best
        return best

    def choice(self, det: State, rng: random.Random | None = None, gk: tuple | None = None) -> Action:
        """Greedy's move: one of its best moves, ties broken by ``rng`` (the first without)."""
        legal = det.legal_actions()
        if len(legal) == 1:
            return legal[0]
        best = self.best_moves(det, legal, gk if gk is not None else game_key(det))
        return best[0] if len(best) == 1 or rng is None else rng.choice(best)

    def _pick(self, det: State, seat: int, rng: random.Random, gk: tuple) -> Action:
        mover = det.current
        slip = self.own_slip if mover == seat else self.slip
        if slip and rng.random() < slip:
            return rng.choice(det.legal_actions())
        if self.models is not None:
            return self.models[mover].move(self, det, rng, gk)
        return self.choice(det, rng, gk)

    def wins(self, det: State, seat: int = -1, rng: random.Random | None = None) -> list[float]:
        """Play ``det`` to the end (``seat`` playing as the seat valued); every seat's share of
        victory (R8.1, R10.1)."""
        rng = rng or random.Random(0)
        gk = game_key(det)
        while det.phase != OVER:
            det.apply_unchecked(self._pick(det, seat, rng, gk))
            self.moves += 1
        res = result(det)
        return [1.0 / len(res.winners) if q in res.winners else 0.0 for q in range(det.n)]

    def play(self, det: State, seat: int, rng: random.Random | None = None,
             before: int | None = None) -> Outcome:
        """Play ``det`` (a world after the move valued) to the end; the outcome for ``seat``
        (``before``: the seat's gold before the move, for what it earned this round)."""
        rng = rng or random.Random(0)
        gk = game_key(det)
        round_no = det.round if det.phase != SETUP else 0
        bumped = False
        moves = 0
        while det.phase != OVER:
            a = self._pick(det, seat, rng, gk)
            if (a.kind == BUMP and det.round == round_no and det.current != seat
                    and det.slot(a.room - 1, a.slot)[0] == seat):
                bumped = True
            det.apply_unchecked(a)
            moves += 1
        self.moves += moves
        return _outcome(det, seat, bumped, round_no, before)
