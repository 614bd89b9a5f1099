"""Worlds consistent with everything public (issue 48, item 2).

Every world the knowledge module draws is replayed against the seat's public history by
:func:`~dungeon_guilds.analysis.knowledge_check.contradiction` (the moves everyone saw, taken
again in the world by the engine) and must end on the seat's own view. ``bench_review.py
--only worlds`` counts ≥ 10,000 worlds; this test a smaller sample over every phase, the three
lords options (R7.4), NPCs (R10.2), teams (R10.1) and 3-6 players.
"""

from __future__ import annotations

import random
from itertools import combinations

from dungeon_guilds.analysis.bots import make_bot
from dungeon_guilds.analysis.knowledge import determinize, pair_choices
from dungeon_guilds.analysis.knowledge_check import contradiction
from dungeon_guilds.game import Game
from dungeon_guilds.rules import Rules
from dungeon_guilds.state import ALL_FIVE

VARIANTS = (Rules(), Rules(lords="all"), Rules(lords="none"), Rules(npc=True), Rules(teams="2v2"))


def _game(seed: int, rules: Rules) -> Game:
    players = 4 if rules.teams else 3 + seed % (3 if rules.npc else 4)
    g = Game(players=players, seed=seed, rules=rules)
    bots = [make_bot("beginner", seed=seed * 10 + q) for q in range(players)]
    while not g.state.is_over:
        g.push(bots[g.state.current].choose(g.state, g.state.current))
    return g


def test_no_drawn_world_contradicts_the_public_history():
    worlds = bad = 0
    for seed in range(20):
        g = _game(480 + seed, VARIANTS[seed % len(VARIANTS)])
        for ply in range(0, g.ply, 4):
            st = g.state_at(ply)
            for seat in range(st.n):
                why = contradiction(g, ply, seat, determinize(st, seat, random.Random(worlds)))
                worlds += 1
                bad += why is not None
                assert why is None, (seed, ply, seat, why)
    assert worlds >= 600 and bad == 0


def test_the_public_gold_names_the_pair_r2_4():
    """R2.4: a seat that gained $5 at the set-up (printed heal costs 4: $2, 5: $3) exhausted its
    4 and 5; $2 gained is 1+4 or 2+3, not 1+5."""
    g = Game(players=3, seed=5)
    g.push("exhaust 4 5")
    g.push("exhaust 2 3")
    view = g.state.view(2)
    assert view.setup_gain[:2] == (5, 2)
    assert pair_choices(view, 0) == [(4, 5)]
    assert pair_choices(view, 1) == [(1, 4), (2, 3)]


def test_a_bumped_adventurer_was_not_exhausted_r4_4():
    """An adventurer seen placed this round is not in its owner's exhausted pair, even after a
    bump sent it back to the hand (R4.4: it returns active)."""
    back = 0
    for seed in range(40):
        g = _game(440 + seed, Rules())
        for ply in range(g.n_players, g.ply):
            st = g.state_at(ply)
            if st.round > 0:
                break
            for q in range(st.n):
                on_board = sum(1 << s for o, s in st.slots() if o == q)
                returned = st.shown[q] & ~on_board  # placed, then bumped back to the hand
                if returned and q != st.current:
                    back += 1
                    for a, b in pair_choices(st.view(st.current), q):
                        assert not returned & (1 << a | 1 << b)
    assert back >= 3


def test_the_checker_finds_a_pair_that_contradicts_the_gold():
    """The checker can fail: pairs drawn uniformly (the knowledge module before issue 48)
    contradict the public gold in most round-1 positions."""
    found = checked = 0
    for seed in range(6):
        g = _game(470 + seed, Rules())
        for ply in range(g.n_players, g.n_players + 6):
            st = g.state_at(ply)
            seat = st.current
            w = determinize(st, seat, random.Random(ply))
            rng = random.Random(seed * 100 + ply)
            for q in range(st.n):
                if q != seat:
                    on_board = sum(1 << s for o, s in st.slots() if o == q)
                    pairs = [p for p in combinations(range(1, 6), 2) if not on_board & (1 << p[0] | 1 << p[1])]
                    a, b = rng.choice(pairs)
                    w.exhausted[q] = 1 << a | 1 << b
                    w.active[q] = ALL_FIVE & ~w.exhausted[q] & ~on_board
            checked += 1
            found += contradiction(g, ply, seat, w) is not None
    assert found >= checked // 2
