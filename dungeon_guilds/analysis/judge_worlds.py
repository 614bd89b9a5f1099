"""The judge's worlds and play-outs: what one seat cannot rule out, played to the game's end.

* :func:`sample_world` draws one world consistent with what the seat knows: the knowledge
  module's determinization (fronts of the current rooms and an undealt deck from the cards nobody
  has seen, other players' secret exhaust pairs in round 1, R2.4) and, in addition, the lords of
  the rounds still to come, drawn from the lords not yet revealed (R2.2: lords are drawn face
  down, one revealed a round, R3.1). It never reads a room's front, the deck's order or a future
  lord: the engine's ``with_fronts`` builds the copy from the view's public lists.
* :class:`Playout` plays a world to the end with the greedy bot's rule for every seat (the move
  of the highest expected gold this round, from that seat's own view, ties to the first move in
  the engine's order: no random stream, so the same world always plays out the same way). It can
  also let the *other* seats slip (any legal move with chance ``slip``, from a random stream
  seeded by the world): a population that is not all greedy. That was tried for issue 38 and is
  not the default (:data:`SLIP` is 0; docs/review.md, "Measured", says why).
  Greedy's choice reads only the mover's view, which many worlds share (within a round the
  hidden fronts do not change it), so choices are kept in a cache keyed by everything that view
  holds; the cache is shared by every decision a judge values (work reused between decisions).
  While it plays, it notes what happened to the seat this round: whether an adventurer of the
  seat was replaced by another player (R4.4), and whether the rooms failed (R5.1).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from ..actions import BUMP, Action
from ..lords import lord_pool
from ..scoring import result
from ..state import OVER, SETUP, State
from .knowledge import determinize
from .probability import action_values

__all__ = ["Outcome", "Playout", "SLIP", "sample_world"]

SLIP = 0.0  # the default chance that another seat's play-out move is any legal move (docs/review.md)
CACHE_KEPT = 100_000  # greedy choices kept (tens of MB at most); a longer run forgets and rebuilds


def sample_world(state: State, seat: int, rng: random.Random, view=None) -> State:
    """One world ``seat`` cannot rule out (see the module docstring)."""
    det = determinize(state, seat, rng, view)
    shown = state.round + 1  # lords revealed so far (the current round's included)
    if shown < state.rounds:
        revealed = {lord.id for lord in state.lords[:shown]}
        pool = [lord for lord in lord_pool(state.rules.lords) if lord.id not in revealed]
        rng.shuffle(pool)
        det.lords = tuple(state.lords[:shown]) + tuple(pool[:state.rounds - shown])
    return det


@dataclass(frozen=True)
class Outcome:
    """One play-out's end for ``seat``: its share of victory (R8.1; 1/k of a k-way shared win),
    its final gold minus the best other seat's (team gold with teams, R10.1), whether one of its
    adventurers was replaced by another player later this round, and the room of 1-based number
    where the round's resolution stopped (``cleared`` rooms; all cleared = number of rooms)."""

    win: float
    margin: int
    bumped: bool
    cleared: int
    rooms: int


def _outcome(det: State, seat: int, bumped: bool, round_no: int) -> Outcome:
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
    return Outcome(share, mine - max(others), bumped, cleared, rooms)


class Playout:
    """Plays worlds to the end with greedy's rule; counts simulated moves and greedy look-ups.

    ``slip`` (others) and ``own_slip`` (the seat valued): the chance that a move of a seat is any
    legal move instead of greedy's, drawn from the play-out's own random stream (``rng`` of
    :meth:`play`: the same stream for every move valued in one world, so moves are still compared
    on common random numbers). 0 and 0 is greedy for everyone (the judge before this change)."""

    def __init__(self, slip: float = SLIP, own_slip: float = 0.0) -> None:
        self.slip = slip
        self.own_slip = own_slip
        self.cache: dict[tuple, Action] = {}
        self.moves = 0  # moves simulated
        self.looked_up = 0  # greedy choices worked out (the rest came from the cache)

    def choice(self, det: State) -> Action:
        legal = det.legal_actions()
        if len(legal) == 1:
            return legal[0]
        p = det.current
        key = (det.phase, det.round, p, det.gold[p], det.active[p], det.ban, det.lord.id,
               tuple(det.slots()), tuple(det.locked),
               tuple(det.seen), tuple(c.level for c in det.rooms), len(det.deck) - det.deck_pos)
        hit = self.cache.get(key)
        if hit is not None:
            return hit
        self.looked_up += 1
        values = action_values(det, p, legal=legal)
        best = legal[0]
        top = values[best]
        for a in legal:
            if values[a] > top + 1e-9:
                best, top = a, values[a]
        if len(self.cache) >= CACHE_KEPT:
            self.cache.clear()
        self.cache[key] = best
        return best

    def wins(self, det: State, seat: int = -1, rng: random.Random | None = None) -> list[float]:
        """Play ``det`` to the end (``seat`` playing as the seat valued); every seat's share of
        victory (R8.1, R10.1)."""
        while det.phase != OVER:
            det.apply_unchecked(self._pick(det, seat, rng))
            self.moves += 1
        res = result(det)
        return [1.0 / len(res.winners) if q in res.winners else 0.0 for q in range(det.n)]

    def _pick(self, det: State, seat: int, rng: random.Random | None) -> Action:
        slip = self.own_slip if det.current == seat else self.slip
        if rng is not None and slip and rng.random() < slip:
            return rng.choice(det.legal_actions())
        return self.choice(det)

    def play(self, det: State, seat: int, rng: random.Random | None = None) -> Outcome:
        """Play ``det`` (a world after the move valued) to the end; the outcome for ``seat``."""
        round_no = det.round if det.phase != SETUP else 0
        bumped = False
        moves = 0
        while det.phase != OVER:
            a = self._pick(det, seat, rng)
            if (a.kind == BUMP and det.round == round_no and det.current != seat
                    and det.slot(a.room - 1, a.slot)[0] == seat):
                bumped = True
            det.apply_unchecked(a)
            moves += 1
        self.moves += moves
        return _outcome(det, seat, bumped, round_no)
