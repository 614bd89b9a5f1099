"""The OpenSpiel adapter (issue 18): OpenSpiel's own consistency check over every option
combination, honest hidden information (R2.2-R2.4, R3.1, R5.1, R6.3), explicit chance, and
OpenSpiel's MCTS bot playing whole games through it."""

from __future__ import annotations

import random

import pytest

pyspiel = pytest.importorskip("pyspiel")

from dungeon_guilds.actions import Action  # noqa: E402
from dungeon_guilds.openspiel import (  # noqa: E402
    GAME_NAME, KINDS, NUM_ACTIONS, PAIRS, action_id, action_of, option_combinations)
from dungeon_guilds.rules import RulesError  # noqa: E402


def deal(game, rng, lords=None, rooms=None):
    """A state after the chance nodes; ``lords`` / ``rooms`` fix outcomes (else random)."""
    state = game.new_initial_state()
    fixed = list(lords or []) + list(rooms or [])
    while state.is_chance_node():
        outcomes = state.chance_outcomes()
        if fixed:
            pick = fixed.pop(0)
            assert pick in [o for o, _ in outcomes]
        else:
            pick = rng.choices([o for o, _ in outcomes], [p for _, p in outcomes])[0]
        state.apply_action(pick)
    return state


def test_option_combinations_cover_every_legal_set_of_rules():
    combos = option_combinations()
    assert len(combos) == 66  # players 3-6 x lords x the teams/NPC/edition each count allows
    assert {c["players"] for c in combos} == {3, 4, 5, 6}
    assert {"players": 4, "lords": "all", "teams": "2v2", "npc": True, "edition": "fr"} in combos
    with pytest.raises(RulesError, match="R10.2"):
        pyspiel.load_game(GAME_NAME, {"players": 6, "npc": True})


@pytest.mark.parametrize("params", option_combinations(), ids=lambda p: "-".join(map(str, p.values())))
def test_openspiel_random_sim_test_with_serialization(params):
    game = pyspiel.load_game(GAME_NAME, params)
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


def test_action_numbers_round_trip():
    seen = set()
    for number in range(NUM_ACTIONS):
        action = action_of(number)
        assert action_id(action) == number
        seen.add(action)
    assert len(seen) == NUM_ACTIONS
    assert action_of(0) == Action("exhaust", 1, other=2) and len(PAIRS) == 10
    with pytest.raises(ValueError, match="not a Dungeon Guilds action"):
        action_of(NUM_ACTIONS)


def test_chance_nodes_draw_lords_then_the_deck_card_by_card():
    game = pyspiel.load_game(GAME_NAME, {"players": 3, "lords": "base"})
    state = game.new_initial_state()
    first = state.chance_outcomes()
    assert len(first) == 6 and sum(p for _, p in first) == pytest.approx(1)  # R2.2 six base lords
    for _ in range(3):
        state.apply_action(state.chance_outcomes()[0][0])
    deck = state.chance_outcomes()  # R2.3 card kinds weighted by how many are in the deck
    assert sum(p for _, p in deck) == pytest.approx(1) and len(deck) == len(KINDS)
    for _ in range(9):  # 3 rounds x 3 rooms
        assert state.is_chance_node()
        state.apply_action(state.chance_outcomes()[0][0])
    assert not state.is_chance_node() and state.current_player() == 0  # seat 0 starts (R2.5)
    assert state.engine.phase == "setup"


def test_a_secret_exhaust_choice_is_seen_by_its_owner_only():
    """R2.4: exhausting (1,4) or (2,3) gains the same $ (heal costs 0+2 = 1+1); nobody else
    can tell them apart, the owner can."""
    game = pyspiel.load_game(GAME_NAME, {"players": 3})
    rng = random.Random(1)
    base = deal(game, rng)
    a = base.clone()
    b = base.clone()
    a.apply_action(PAIRS.index((1, 4)))
    b.apply_action(PAIRS.index((2, 3)))
    assert a.engine.gold == b.engine.gold
    for p in (1, 2):
        assert a.information_state_string(p) == b.information_state_string(p)
        assert a.observation_string(p) == b.observation_string(p)
    assert a.information_state_string(0) != b.information_state_string(0)
    assert "1 4" not in a.information_state_string(1)


def test_room_fronts_stay_hidden_until_resolution_reveals_them():
    """R5.1: two deals that differ only in a room's front (same level) look the same to every
    player until the room is revealed; the lords of later rounds are face down (R3.1)."""
    game = pyspiel.load_game(GAME_NAME, {"players": 3, "lords": "none"})
    lv1 = [k for k, c in enumerate(KINDS) if c.level == 1]
    lv2 = [k for k, c in enumerate(KINDS) if c.level == 2]
    later = [lv2[0]] * 3 + [lv2[1]] * 3
    rooms_a = [lv1[0], lv1[1], lv1[1]] + later
    rooms_b = [lv1[1], lv1[1], lv1[1]] + later
    a = deal(game, None, lords=[0, 1, 2], rooms=rooms_a)
    b = deal(game, None, lords=[0, 1, 3], rooms=rooms_b)  # another lord for round 3
    assert str(a) != str(b)
    rng = random.Random(2)
    while a.engine.round == 0:
        for p in range(3):
            assert a.information_state_string(p) == b.information_state_string(p)
            assert a.observation_string(p) == b.observation_string(p)
        move = rng.choice(a.legal_actions())
        assert a.legal_actions() == b.legal_actions()
        a.apply_action(move)
        b.apply_action(move)
    assert a.information_state_string(0) != b.information_state_string(0)  # fronts revealed


def test_resampled_worlds_share_the_information_state_and_differ_in_what_is_hidden():
    game = pyspiel.load_game(GAME_NAME, {"players": 4, "lords": "all", "npc": True})
    rng = random.Random(5)
    state = deal(game, rng)
    for _ in range(9):
        state.apply_action(rng.choice(state.legal_actions()))
    player = state.current_player()
    info = state.information_state_string(player)
    worlds = [state.resample_from_infostate(player, random.Random(k).random) for k in range(6)]
    assert all(w.information_state_string(player) == info for w in worlds)
    assert all(w.legal_actions() == state.legal_actions() for w in worlds)
    assert len({str(w) for w in worlds} | {str(state)}) > 1  # hidden fronts and lords drawn afresh


def test_returns_are_victory_shares():
    game = pyspiel.load_game(GAME_NAME, {"players": 4, "teams": "2v2"})
    rng = random.Random(3)
    state = deal(game, rng)
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    returns = state.returns()
    assert sum(returns) == pytest.approx(1.0)
    winners = [p for p, r in enumerate(returns) if r > 0]
    assert len(winners) in (2, 4) and all(returns[p] == returns[winners[0]] for p in winners)  # R10.1


def test_openspiel_mcts_bot_plays_whole_games():
    from open_spiel.python.algorithms import mcts

    for params in ({"players": 3, "lords": "all"}, {"players": 4, "npc": True, "edition": "fr"}):
        game = pyspiel.load_game(GAME_NAME, params)
        rng = random.Random(7)
        bot = mcts.MCTSBot(game, uct_c=1.4, max_simulations=6,
                           evaluator=mcts.RandomRolloutEvaluator(1, __import__("numpy").random.RandomState(7)),
                           random_state=__import__("numpy").random.RandomState(7))
        state = deal(game, rng)
        moves = 0
        while not state.is_terminal():
            p = state.current_player()
            world = state.resample_from_infostate(p, rng.random)  # search only what p knows
            action = bot.step(world)
            assert action in state.legal_actions()
            state.apply_action(action)
            moves += 1
        assert moves >= 2 * params["players"] and sum(state.returns()) == pytest.approx(1.0)
