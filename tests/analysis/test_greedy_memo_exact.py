"""Issue 18, second pass: the greedy bot's memoised valuation (rows shared by content, blocks by
rows, the chaining by blocks) gives the same action values as a model built cold for the one
state, over hundreds of random states of every rule option (the memo never changes an answer),
and a fixed-seed greedy game plays the same moves as before the change."""

from __future__ import annotations

import hashlib
import random

import pytest

from dungeon_guilds import Game, Rules
from dungeon_guilds.analysis import probability
from dungeon_guilds.analysis.bots import make_bot
from dungeon_guilds.analysis.knowledge import pending_after
from dungeon_guilds.analysis.probability import RoundModel, action_values

OPTIONS = [
    Rules(), Rules(lords="all"), Rules(lords="none"), Rules(npc=True), Rules(lords="all", npc=True),
    Rules(edition="fr", lords="all"), Rules(teams="2v2", lords="all"),
]
CONDITIONAL = ["naughty_kid", "boardgame_lord", "bigfun_king", "caveman"]


SHARED_CACHES = ("_SIGS", "_ROWS", "_INTERNED", "_BLOCKS", "_CHAINS", "_SPLITS")


def cold_values(state, monkeypatch) -> dict:
    """Every legal move valued by a round model built for this state alone, with empty caches
    (the process-wide ones of rows, blocks and chains set aside for the call, then put back)."""
    with monkeypatch.context() as m:
        for name in SHARED_CACHES:
            m.setattr(probability, name, {})
        model = RoundModel(state)
        p = state.current
        return {a: model.expected_gold(pending_after(state, a), p) - state.gold[p]
                for a in state.legal_actions()}


@pytest.mark.parametrize("k,rules", list(enumerate(OPTIONS)))
def test_memoised_values_equal_cold_values_on_random_states(k, rules, monkeypatch):
    rng = random.Random(700 + k)
    compared = 0
    for game_no in range(5):
        n = 4 if rules.teams else rng.choice([3, 4, 5])
        lords = None
        if rules.lords == "all" and game_no % 2:
            lords = rng.sample(CONDITIONAL, min(n, 4)) + ["beholder"] * max(0, n - 4)
        game = Game(n, seed=f"memo/{k}/{game_no}", rules=rules, lords=lords)
        game.exhaust_randomly()
        while not game.is_over:
            st = game.state
            warm = action_values(st)  # the shared, warm models of every earlier state
            cold = cold_values(st, monkeypatch)
            assert warm.keys() == cold.keys()
            for action, value in cold.items():
                assert warm[action] == pytest.approx(value, abs=1e-12), (str(action), game_no)
            compared += len(cold)
            game.push(rng.choice(game.legal_actions()))
    assert compared > 200


def test_rooms_without_the_player_share_one_row_per_total():
    game = Game(4, seed=3, rules=Rules(lords="none"))
    game.exhaust_randomly()
    st = game.state
    model = RoundModel(st)
    values = model._fixed
    assert values is not None
    rows = {model._row(st, i, p, values) is model._row(st, i, p, values)
            for i in range(len(st.rooms)) for p in range(4)}
    assert rows == {True}
    empty = [i for i in range(len(st.rooms)) if not st.occupants(i)]
    assert empty, "a fresh dungeon has empty rooms"
    i = empty[0]
    assert len({id(model._row(st, i, p, values)) for p in range(4)}) == 1


def _greedy_record(k: int, rules: Rules) -> tuple:
    game = Game(4, seed=f"greedy-record/{k}", rules=rules)
    bots = [make_bot("greedy", seed=f"g{k}/{i}") for i in range(4)]
    moves = []
    while not game.is_over:
        st = game.state
        action = bots[st.current].choose(st, st.current)
        moves.append(str(action))
        game.push(action)
    return len(moves), list(game.state.gold), hashlib.sha256("|".join(moves).encode()).hexdigest()[:16]


@pytest.mark.parametrize("k,rules,expected", [
    (0, Rules(), (39, [10, 14, 16, 8], "650ef7971f615faf")),
    (1, Rules(lords="all", npc=True), (38, [16, 19, 12, 17], "db87eaeb4067f6be")),
    (2, Rules(teams="2v2", lords="all"), (38, [14, 16, 9, 20], "668be18d3b945527")),
])
def test_fixed_seed_greedy_games_are_unchanged(k, rules, expected):
    """The moves recorded with the code before this pass (issue 18's first pass, main at
    68f3d1f): the memo changes the speed, not one move."""
    probability.clear_caches()
    assert _greedy_record(k, rules) == expected
    assert _greedy_record(k, rules) == expected  # again, with every cache warm


def test_the_chain_cache_keys_gold_only_up_to_the_heal_costs(monkeypatch):
    """R6.1: heal costs never take gold below $0, so the expected gain depends on the gold
    only while it is below the player's heal costs in the dungeon; the shared chain cache
    keys the gold that far and must give the uncached value for every gold."""
    monkeypatch.setattr(probability, "_CHAINS", {})
    game = Game(4, seed="chain-floor", rules=Rules(lords="none"))
    game.exhaust_randomly()
    rng = random.Random(5)
    checked, most = 0, 0
    while not game.is_over and checked < 40:
        st = game.state
        if st.phase == "dispatch":
            model = RoundModel.of(st)
            p = st.current
            parts = [model._part(st, p, model._fixed, b) for b in range(len(model._block_bounds))]
            costs = sum(part[4] for part in parts)
            most = max(most, costs)
            for gold in range(0, costs + 3):
                assert probability._chained(model, parts, gold) == model._chain(parts, gold)
            checked += 1
        game.push(rng.choice(game.legal_actions()))
    assert checked >= 10 and most > 0


def test_the_shared_caches_are_capped_and_forgetting_changes_no_value(monkeypatch):
    """The process-wide caches stay under their caps (a long run forgets and rebuilds); values
    found after a cache was emptied equal values from a cold model."""
    for name in SHARED_CACHES:
        monkeypatch.setattr(probability, name, {})
    monkeypatch.setattr(probability, "_ROWS_KEPT", 8)
    monkeypatch.setattr(probability, "_BLOCKS_KEPT", 8)
    monkeypatch.setattr(probability, "_CHAINS_KEPT", 8)
    rng = random.Random(11)
    compared = 0
    for game_no in range(3):
        game = Game(4, seed=f"caps/{game_no}", rules=Rules(lords="none"))
        game.exhaust_randomly()
        while not game.is_over:
            st = game.state
            warm = action_values(st)
            assert len(probability._ROWS) <= 8 and len(probability._BLOCKS) <= 8
            assert len(probability._CHAINS) <= 8
            cold = cold_values(st, monkeypatch)
            for action, value in cold.items():
                assert warm[action] == pytest.approx(value, abs=1e-12)
            compared += len(cold)
            game.push(rng.choice(game.legal_actions()))
    assert compared > 100
