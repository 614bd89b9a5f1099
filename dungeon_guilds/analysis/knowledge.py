"""What a player may know, made usable for search: determinizations and pending outcomes.

A bot may look at :meth:`State.view` (room backs, public positions, its own hand, the cards not
yet seen) and may ask the engine what its own moves do. It must never read a room's front or the
order of the undealt deck. Two helpers make that easy to respect:

* :func:`determinize` draws one possible world consistent with a player's knowledge: fronts for
  the current rooms and an order for the undealt deck, drawn from the cards nobody has seen
  (keeping every room's level, which its back shows), and, while other players' exhaust choices
  are still secret (round 1, R2.4), a possible exhaust pair for each of them. The engine's
  :meth:`State.with_fronts` builds the copy; every rule then runs on it unchanged.
* :func:`pending_after` applies one action on a copy with the end of dispatch held back, so a
  bot can look at the dungeon its move would leave without the engine resolving the round with
  the true (hidden) fronts.

Simplification, documented for learners: a determinization treats every unseen card alike,
although a player at the table also remembers the levels of earlier rooms that were discarded
face down; it draws secret exhaust pairs uniformly among the pairs the public placements allow.
"""

from __future__ import annotations

import random
from itertools import combinations
from ..actions import Action
from ..cards import STRENGTHS, RoomCard
from ..state import ALL_FIVE, State


def pending_after(state: State, action: Action) -> State:
    """A copy of ``state`` after ``action`` (legal, from :meth:`State.legal_actions`) with the
    round's resolution held back (:meth:`State.after`): the dungeon as the move leaves it, fees
    paid, rooms locked (all by the engine), but no room revealed."""
    return state.after(action)


def _placed_mask(state: State, seat: int) -> int:
    mask = 0
    for o, s in state.slots():
        if o == seat:
            mask |= 1 << s
    return mask


def setup_chosen(view) -> list[int]:
    """The seats that have already made their secret exhaust choice (the engine's setup order,
    R2.4/R2.5, as the view reports it)."""
    return list(view.exhaust_chosen)


def sample_fronts(view, rng: random.Random) -> tuple[list[RoomCard], list[RoomCard]]:
    """Fronts for the current rooms (by level) and an undealt deck, drawn from the unseen cards."""
    by_level: dict[int, list[RoomCard]] = {}
    for card in view.unseen:
        by_level.setdefault(card.level, []).append(card)
    fronts = []
    for room in view.rooms:
        pool = by_level[room.level]
        k = rng.randrange(len(pool))
        pool[k], pool[-1] = pool[-1], pool[k]
        fronts.append(pool.pop())
    rest = [c for pool in by_level.values() for c in pool]
    rng.shuffle(rest)
    return fronts, rest[: view.deck_left]


def determinize(state: State, player: int, rng: random.Random, view=None) -> State:
    """One world consistent with what ``player`` knows (see the module docstring)."""
    if view is None:
        view = state.view(player)
    fronts, undealt = sample_fronts(view, rng)
    det = state.with_fronts(fronts, undealt)
    chosen = set(setup_chosen(view))
    for q in range(state.n):
        if q == player or view.knows_hand(q):
            continue
        if q not in chosen:  # still to choose in setup: everyone knows the hand is whole
            det.active[q] = ALL_FIVE
            det.exhausted[q] = 0
            continue
        placed = _placed_mask(state, q)
        free = [s for s in STRENGTHS if not placed >> s & 1]
        a, b = rng.choice(list(combinations(free, 2)))
        mask = (1 << a) | (1 << b)
        det.exhausted[q] = mask
        det.active[q] = ALL_FIVE & ~mask & ~placed
    return det


def public_occupants(view, room_index: int) -> list[tuple[int, int]]:
    """[(owner, strength)] in a room as a view shows it (owner ``NPC`` for an NPC)."""
    return [slot for slot in view.rooms[room_index].slots if slot is not None]


__all__ = ["determinize", "pending_after", "public_occupants", "sample_fronts", "setup_chosen"]
