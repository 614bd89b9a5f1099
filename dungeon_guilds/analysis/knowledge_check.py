"""Does a drawn world contradict anything a seat saw? A replay against the public history.

:func:`contradiction` takes a game, a moment (``ply``), a seat and a world drawn for that seat at
that moment (:func:`~dungeon_guilds.analysis.knowledge.determinize`), and replays the game from
its set-up *in that world*: the world's deck (the rooms dealt, revealed and to come), its lords,
and — in round 1 — its secret set-up pairs for the other seats, with every move everyone saw
taken again by the engine. The world is consistent when every move is legal there (R4.3-R4.6:
an adventurer exhausted in the world cannot have been placed), the passes fall where they fell
(R4.7), and the replay ends on the very view the seat has (gold, rooms, locks, lords, the
strengths seen) with the world's hidden parts. Anything else is named: the first difference.

``benchmarks/bench_review.py --only worlds`` counts contradictions over many worlds (issue 48:
0 over ≥ 10,000 across phases, lords, variants and 3-6 players); ``tests/analysis/
test_knowledge_worlds.py`` runs a smaller count.
"""

from __future__ import annotations

from ..actions import EXHAUST, Action, exhaust
from ..state import State

__all__ = ["contradiction"]


def _start_in(world: State, first: State) -> State:
    """The game's set-up with the world's deck and lords (the true set-up otherwise)."""
    return State.new(first.names, world.deck, world.lords, first.levels, first.base_heal,
                     first.rules, first.start, log=False, cards=first.cards)


def _move_in(world: State, s: State, action: Action, seat: int, secret: bool) -> Action:
    """The move as it is taken in the world: another seat's secret set-up pair is the world's."""
    q = s.current
    if secret and action.kind == EXHAUST and q != seat:
        a, b = [x for x in range(1, 6) if world.exhausted[q] >> x & 1]
        return exhaust(a, b)
    return action


def _hidden_differs(replayed: State, world: State) -> str | None:
    if replayed.rooms != world.rooms:
        return "the current rooms' fronts"
    if replayed.deck[replayed.deck_pos:] != world.deck[world.deck_pos:]:
        return "the undealt deck"
    if replayed.lords != world.lords:
        return "the lords"
    if replayed.active != world.active or replayed.exhausted != world.exhausted:
        return "the hands"
    return None


def contradiction(game, ply: int, seat: int, world: State) -> str | None:
    """None if ``world`` is consistent with everything ``seat`` saw up to ``ply``; else what
    contradicts it (see the module docstring)."""
    truth = game.state_at(ply)
    secret = truth.round == 0  # the set-up pairs stay secret through round 1 (R2.4)
    s = _start_in(world, game.state_at(0))
    for k, action in enumerate(game.line[:ply]):
        move = _move_in(world, s, action, seat, secret)
        why = s.refusal(move)
        if why is not None:
            return f"move {k + 1} ({action}) is illegal in the world: {why.code}"
        s.apply_unchecked(move)
    if s.view(seat) != truth.view(seat):
        return "the replay does not end on the seat's view"
    hidden = _hidden_differs(s, world)
    return None if hidden is None else f"the world's {hidden} differ from its replay"
