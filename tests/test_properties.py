"""Property tests (hypothesis) over every player count and rule-option combination:
random legal play keeps docs/rules.md §11's invariants, illegal actions are refused with a reason and
change nothing, records round-trip, and a seed fixes the whole game."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from dungeon_guilds import Game, Rules, from_record, to_record, dumps
from dungeon_guilds.actions import BUMP, PLACE, SWAP, Action
from dungeon_guilds.errors import IllegalAction


def option_sets(n: int) -> list[Rules]:
    teams = {3: [None], 4: [None, "2v2"], 5: [None], 6: [None, "3v3", "2v2v2"]}[n]
    return [
        Rules(lords=lords, teams=t, npc=npc, edition=ed)
        for lords in ("none", "base", "all")
        for t in teams
        for npc in ((False, True) if n < 6 else (False,))
        for ed in ("zh", "fr")
    ]


ALL_COMBOS = [(n, r) for n in (3, 4, 5, 6) for r in option_sets(n)]

games = st.tuples(st.sampled_from(ALL_COMBOS), st.integers(0, 10**6), st.integers(0, 10**6))


def snapshot(state) -> tuple:
    return (state.phase, state.round, state.current, state.pos, tuple(state.gold),
            tuple(state.active), tuple(state.exhausted), tuple(state.placed),
            tuple(state.slot_owner), tuple(state.slot_str), tuple(state.locked),
            state.bank_in, state.bank_out, len(state.log or ()))


def random_game(combo, seed, play_seed, stop=None) -> Game:
    n, rules = combo
    g = Game(n, seed=seed, rules=rules)
    chooser = random.Random(play_seed)
    while not g.is_over and (stop is None or g.ply < stop):
        g.push(chooser.choice(g.legal_actions()))
    return g


@settings(max_examples=120, deadline=None)
@given(games)
def test_S11_random_legal_play_keeps_every_invariant(args):
    """§11: gold conserved through the bank ledger, no negative gold, every adventurer in one
    place, at most 2 a room and 2 placed per player — after every action, for every option."""
    combo, seed, play_seed = args
    n, rules = combo
    g = Game(n, seed=seed, rules=rules)
    chooser = random.Random(play_seed)
    g.state.check_invariants()
    while not g.is_over:
        legal = g.legal_actions()
        assert legal, "a player to move always has a legal action"
        for a in legal:
            assert g.state.why_illegal(a) is None, f"{a} is listed legal but refused"
        g.push(chooser.choice(legal))
        g.state.check_invariants()
    res = g.result()
    assert res.finished and res.winners
    assert len(g.state.round_results) == n  # R3 as many rounds as players


ALL_ACTIONS = (
    [Action(PLACE, s, r) for s in range(0, 7) for r in range(0, 9)]
    + [Action(k, s, r, x) for k in (BUMP, SWAP) for s in range(1, 6) for r in range(1, 8) for x in (0, 1)]
)


@settings(max_examples=80, deadline=None)
@given(games, st.integers(0, 60), st.lists(st.sampled_from(ALL_ACTIONS), min_size=5, max_size=25))
def test_illegal_actions_are_refused_with_a_reason_and_change_nothing(args, stop, tries):
    combo, seed, play_seed = args
    g = random_game(combo, seed, play_seed, stop=stop)
    legal = set(g.legal_actions())
    for action in tries:
        if action in legal:
            continue
        before = snapshot(g.state)
        reason = g.why_illegal(action)
        assert reason, f"{action} is not legal but no reason is given"
        try:
            g.push(action)
        except IllegalAction as err:
            assert str(err) == reason
        else:
            raise AssertionError(f"{action} was accepted although not in legal_actions()")
        assert snapshot(g.state) == before


@settings(max_examples=60, deadline=None)
@given(games, st.integers(0, 80))
def test_record_replay_record_is_identical(args, stop):
    combo, seed, play_seed = args
    g = random_game(combo, seed, play_seed, stop=stop)
    text = dumps(to_record(g))
    again = from_record(text)
    assert dumps(to_record(again)) == text
    assert again.result() == g.result()
    assert snapshot(again.state)[:-1] == snapshot(g.state)[:-1]


@settings(max_examples=40, deadline=None)
@given(games)
def test_same_seed_same_game_byte_for_byte(args):
    combo, seed, play_seed = args
    a = random_game(combo, seed, play_seed)
    b = random_game(combo, seed, play_seed)
    assert dumps(to_record(a)) == dumps(to_record(b))
    assert a.log == b.log


@settings(max_examples=40, deadline=None)
@given(games, st.integers(1, 40))
def test_undo_returns_to_the_same_state_and_log(args, back):
    combo, seed, play_seed = args
    g = random_game(combo, seed, play_seed, stop=60)
    back = min(back, g.ply)
    target = g.ply - back
    expected = g.state_at(target)
    log_then = None
    h = random_game(combo, seed, play_seed, stop=target)
    log_then = list(h.log)
    g.undo(back)
    assert snapshot(g.state)[:-1] == snapshot(expected)[:-1]
    assert g.log == log_then
