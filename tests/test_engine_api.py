"""The engine's helpers for search and pictures: determinization and resolution preview."""

from __future__ import annotations

import random

from dungeon_guilds import Game, RoomCard, Rules
from dungeon_guilds.turn_order import seat_at, snake_order


def _midround(seed: int = 3) -> Game:
    g = Game(4, seed=seed, rules=Rules(lords="all"))
    g.exhaust_randomly()
    chooser = random.Random(seed)
    for _ in range(5):
        g.push(chooser.choice(g.legal_actions()))
    return g


def test_with_fronts_replaces_the_hidden_fronts_consistently():
    g = _midround()
    st = g.state
    fronts = [RoomCard(c.level, st.levels[c.level].defence[1], st.levels[c.level].treasure[0])
              for c in st.rooms]
    undealt = list(st.deck[st.deck_pos:])
    twin = st.with_fronts(fronts, undealt)
    assert twin.rooms == fronts
    # the public part (board, unseen card list) is unchanged; the hidden part follows the fronts
    assert twin.view(0).rooms == st.view(0).rooms
    assert twin.unseen_cards() == st.unseen_cards()
    for i, card in enumerate(fronts):  # same lord change, new base defence and treasure
        assert twin.lord_defence_change(i) == st.lord_defence_change(i)
        assert twin.room_defence(i) == max(0, card.defence + st.lord_defence_change(i))
        assert twin.treasure[i] - card.treasure == st.treasure[i] - st.rooms[i].treasure
    twin.check_invariants()


def test_preview_resolution_leaves_the_state_unchanged():
    g = _midround(5)
    before = (list(g.state.gold), list(g.state.slot_owner), g.state.phase, len(g.log))
    events = g.state.preview_resolution()
    assert events and events[0]["kind"] in {"bonus", "revealed"}
    assert any(e["kind"] in {"cleared", "failed"} for e in events)
    assert (list(g.state.gold), list(g.state.slot_owner), g.state.phase, len(g.log)) == before


def test_R4_1_engine_snake_matches_turn_order_module():
    """The engine walks the snake as R4.1 writes it: 1-2-3-4-5-5-4-3-2-1 (and turn_order says so)."""
    assert snake_order(5, 0) == [0, 1, 2, 3, 4, 4, 3, 2, 1, 0]
    assert [seat_at(p, 4, 1) for p in range(10)] == [1, 2, 3, 0, 0, 3, 2, 1, 1, 2]
    g = Game(5, seed=2, rules=Rules(lords="none"))
    g.exhaust_randomly()
    seen = []
    while g.state.round == 0:
        seen.append(g.current)
        g.push(next(a for a in g.legal_actions() if a.kind == "place"))  # nobody is bumped
    assert seen == [0, 1, 2, 3, 4, 4, 3, 2, 1, 0]  # 5 players x 2 placements, one snake cycle


def test_after_holds_the_resolution_back_and_hides_the_fronts():
    """State.after: the move is applied by the engine, but a last placement does not resolve
    the round (nothing hidden is revealed)."""
    g = Game(3, seed=4, rules=Rules(lords="none"))
    g.exhaust_randomly()
    while True:
        st = g.state
        places = [a for a in st.legal_actions() if a.kind == "place"]
        if sum(st.placed) == 2 * st.n - 1:  # the last placement of round 1
            after = st.after(places[0])
            assert after.round == 0 and after.seen == [] and after.hold_resolution
            assert sum(after.placed) == 2 * st.n and st.round == 0
            assert g.state.hold_resolution is False
            break
        g.push(places[0])


def test_view_reports_who_has_chosen_in_setup():
    g = Game(4, seed=1, start_player=2)
    assert g.view(0).exhaust_chosen == ()
    g.push("exhaust 1 2")  # seat 2 (the start player) chooses first (R2.4, R2.5)
    g.push("exhaust 1 2")  # then seat 3
    assert g.view(0).exhaust_chosen == (2, 3)
