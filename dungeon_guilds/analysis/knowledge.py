"""What a player may know, made usable for search: the worlds a seat cannot rule out.

This is the one door through which every bot, search, hint and the review's judge imagines the
hidden parts of a game (issue 48, "nobody peeks"). A bot may look at :meth:`State.view` and ask
the engine what its own moves do; it never reads a room's front, the order of the undealt deck,
another seat's secret set-up pair or a lord not yet revealed.

* :func:`determinize` draws one world consistent with everything ``player`` has seen (the
  view and the public facts it carries):

  - **room fronts**: the current rooms' fronts by level (their backs are public, R2.3), the
    earlier rooms never revealed by level too (their backs were seen; the discard pile is face
    down, R6.3), and an order for the undealt deck from the rest of the cards nobody has seen;
  - **future lords**: drawn from the lords the game draws from (R2.2, the ``lords`` option) that
    have not been revealed (one is revealed a round, R3.1);
  - **secret set-up pairs** (round 1, R2.4): for each other seat that has chosen, a pair whose
    printed heal costs add up to the gold that seat gained (everyone saw it: $7 at the start of
    round 1 means $5 gained, 2 + 3), holding none of the strengths the seat was seen to place
    this round (a bumped adventurer goes back to its owner's hand, R4.4: it was not exhausted).
    Pairs are drawn with equal chance among those the public facts allow.

  The engine's :meth:`State.with_fronts` builds the copy; every rule then runs on it unchanged.
* :func:`twin` builds another *true* game the seat cannot tell from this one (everything hidden
  re-drawn another way, the view equal): the twin test (``tests/analysis/test_no_peeking.py``)
  asks every bot and search the same question in both and fails on any difference.
* :func:`pending_after` applies one action on a copy with the end of dispatch held back, so a
  bot can look at the dungeon its move would leave without the engine resolving the round with
  the true (hidden) fronts.

:mod:`~dungeon_guilds.analysis.knowledge_check` replays a drawn world against the seat's public
history (the moves everyone saw) and counts contradictions (``benchmarks/bench_review.py``).
"""

from __future__ import annotations

import random
from itertools import combinations

from ..actions import Action
from ..cards import STRENGTHS, RoomCard
from ..lords import lord_pool
from ..state import ALL_FIVE, State

__all__ = ["determinize", "pair_choices", "pending_after", "public_occupants", "sample_fronts",
           "setup_chosen", "twin"]


def pending_after(state: State, action: Action) -> State:
    """A copy of ``state`` after ``action`` (legal, from :meth:`State.legal_actions`) with the
    round's resolution held back (:meth:`State.after`): the dungeon as the move leaves it, fees
    paid, rooms locked (all by the engine), but no room revealed."""
    return state.after(action)


def setup_chosen(view) -> list[int]:
    """The seats that have already made their secret exhaust choice (the engine's setup order,
    R2.4/R2.5, as the view reports it)."""
    return list(view.exhaust_chosen)


def _on_board(view, seat: int) -> int:
    """The strengths of ``seat`` in the dungeon now, as a bit mask (public)."""
    mask = 0
    for room in view.rooms:
        for slot in room.slots:
            if slot is not None and slot[0] == seat:
                mask |= 1 << slot[1]
    return mask


def pair_choices(view, seat: int) -> list[tuple[int, int]]:
    """The set-up pairs (R2.4) ``seat`` may have exhausted, as the public facts allow: their
    printed heal costs add up to the gold it gained, and neither was seen placed this round."""
    seen = view.shown[seat] | _on_board(view, seat)
    gain = view.setup_gain[seat]
    heal = view.printed_heal
    return [(a, b) for a, b in combinations(STRENGTHS, 2)
            if not seen >> a & 1 and not seen >> b & 1 and heal[a] + heal[b] == gain]


def sample_fronts(view, rng: random.Random) -> tuple[list[RoomCard], list[RoomCard]]:
    """Fronts for the current rooms (by level) and an undealt deck, drawn from the unseen cards;
    as many cards as the earlier unrevealed rooms hold, of their levels, are set aside first."""
    by_level: dict[int, list[RoomCard]] = {}
    for card in view.unseen:
        by_level.setdefault(card.level, []).append(card)

    def draw(level: int) -> RoomCard:
        pool = by_level[level]
        k = rng.randrange(len(pool))
        pool[k], pool[-1] = pool[-1], pool[k]
        return pool.pop()

    for level in view.hidden_levels:  # discarded face down: not in the deck still to come
        draw(level)
    fronts = [draw(room.level) for room in view.rooms]
    rest = [c for pool in by_level.values() for c in pool]
    rng.shuffle(rest)
    return fronts, rest[: view.deck_left]


def _future_lords(state: State, view, rng: random.Random) -> tuple:
    """This game's lords with those not yet revealed drawn again from the unrevealed pool."""
    shown = len(view.lords_shown)
    if shown >= state.rounds:
        return state.lords
    revealed = set(view.lords_shown)
    pool = [lord for lord in lord_pool(state.rules.lords) if lord.id not in revealed]
    rng.shuffle(pool)
    return tuple(state.lords[:shown]) + tuple(pool[:state.rounds - shown])


def _secret_pairs(det: State, state: State, player: int, view, rng: random.Random) -> None:
    """Other seats' secret set-up pairs (round 1) drawn from those the public facts allow."""
    chosen = set(view.exhaust_chosen)
    for q in range(state.n):
        if q == player or view.knows_hand(q):
            continue
        if q not in chosen:  # still to choose in setup: everyone knows the hand is whole
            det.active[q] = ALL_FIVE
            det.exhausted[q] = 0
            continue
        pairs = pair_choices(view, q)
        if not pairs:
            raise ValueError(f"no set-up pair of seat {q + 1} fits the public facts")
        a, b = pairs[0] if len(pairs) == 1 else rng.choice(pairs)
        mask = (1 << a) | (1 << b)
        det.exhausted[q] = mask
        det.active[q] = ALL_FIVE & ~mask & ~_on_board(view, q)


def determinize(state: State, player: int, rng: random.Random, view=None) -> State:
    """One world consistent with what ``player`` knows (see the module docstring)."""
    if view is None:
        view = state.view(player)
    fronts, undealt = sample_fronts(view, rng)
    det = state.with_fronts(fronts, undealt)
    det.lords = _future_lords(state, view, rng)
    _secret_pairs(det, state, player, view, rng)
    return det


def twin(state: State, player: int, rng: random.Random) -> State:
    """Another true game ``player`` cannot tell from ``state``: every hidden part re-drawn (the
    fronts and undealt deck swapped among the unseen cards of each level, the lords not yet
    revealed replaced where the pool allows, other seats' secret pairs changed for another pair
    the public facts allow). Built without :func:`determinize`, so a fault there shows. The
    earlier rooms never revealed keep their true cards (the engine's ``with_fronts`` keeps the
    deck already dealt; no rule reads it again)."""
    view = state.view(player)
    fronts = []
    spare = {}
    for card in view.unseen:
        spare.setdefault(card.level, []).append(card)
    for room in state.rooms:  # a front of the same level nobody has seen, not the true one
        others = [c for c in spare[room.level] if c != room] or [room]
        fronts.append(rng.choice(others))
        spare[room.level].remove(fronts[-1])
    rest = [c for pool in spare.values() for c in pool]
    rng.shuffle(rest)
    new = state.with_fronts(fronts, rest[:view.deck_left])
    shown = len(view.lords_shown)
    unused = [lord for lord in lord_pool(state.rules.lords) if lord not in state.lords]
    rng.shuffle(unused)
    new.lords = tuple(state.lords[:shown]) + tuple(
        unused[i] if i < len(unused) else lord for i, lord in enumerate(state.lords[shown:]))
    for q in range(state.n):
        if q != player and not view.knows_hand(q) and q in view.exhaust_chosen:
            true = state.exhausted[q]
            pairs = [p for p in pair_choices(view, q) if (1 << p[0]) | (1 << p[1]) != true]
            if pairs:
                a, b = rng.choice(pairs)
                mask = (1 << a) | (1 << b)
                new.exhausted[q] = mask
                new.active[q] = ALL_FIVE & ~mask & ~_on_board(view, q)
    return new


def public_occupants(view, room_index: int) -> list[tuple[int, int]]:
    """[(owner, strength)] in a room as a view shows it (owner ``NPC`` for an NPC)."""
    return [slot for slot in view.rooms[room_index].slots if slot is not None]
