"""The dungeon as the dispatch left it (issue 24: the resolution drawn on the board): the engine
resolves and cleans up in the same step as the move that ends a round's dispatch (R4.8, R5, R6);
``Game.dispatch_end`` rebuilds the moment in between from the history, and ``events.gold_after``
adds the resolution's logged amounts up to the gold after cleanup."""

from __future__ import annotations

import pytest

from dungeon_guilds import Game, Rules
from dungeon_guilds.analysis.bots import make_bot
from dungeon_guilds.events import RoomOutcome, gold_after, resolution_events, resolved_rounds
from dungeon_guilds.record import from_record


def played(seed: int, n: int = 4, **rules) -> Game:
    game = Game(n, seed=seed, rules=Rules(**rules))
    game.exhaust_randomly()
    bots = [make_bot("greedy", seed=seed * 10 + i) for i in range(n)]
    while not game.is_over:
        game.push(bots[game.current].choose(game.state.copy(), game.current))
    return game


@pytest.mark.parametrize("seed,n,rules", [(1, 3, {}), (2, 4, {"lords": "all"}), (3, 5, {"npc": True}),
                                          (4, 6, {"lords": "all", "teams": "3v3"})])
def test_every_round_s_dispatch_end_holds_its_occupants_and_its_gold_adds_up(seed, n, rules):
    game = played(seed, n, **rules)
    assert resolved_rounds(game.log) == list(range(1, game.state.rounds + 1))
    for r in resolved_rounds(game.log):
        end = game.dispatch_end(r)
        assert end.round == r - 1 and end.phase == "dispatch" and end.log is None
        events = resolution_events(game.log, r)
        for ev in (e for e in events if isinstance(e, RoomOutcome)):  # the rooms resolved hold who the log says
            assert sorted(end.occupants(ev.room - 1)) == sorted(ev.occupants)
        assert gold_after(end.gold, events) == game.state.round_results[r - 1]["gold"]  # R5.2, R6.1, R7.3
        # nothing of it is resolved yet: resolving this state logs the same outcomes
        assert resolution_events(end.preview_resolution()) == [e for e in events if not hasattr(e, "cost")]


def test_a_round_not_resolved_has_no_dispatch_end_and_a_replayed_game_has_the_same():
    game = Game(3, seed=5)
    game.exhaust_randomly()
    assert game.dispatch_end(1) is None
    full = played(5, 3)
    again = from_record(full.to_record())  # a class table is saved and loaded as a record
    for r in (1, 2, 3):
        a, b = full.dispatch_end(r), again.dispatch_end(r)
        assert a.slots() == b.slots() and a.gold == b.gold and a.rooms == b.rooms
    full.undo_to(0)
    assert full.dispatch_end(1) is None  # undone: that round is no longer on the line
