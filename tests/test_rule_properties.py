"""One property a rule family (issue 54, item 4), each over random legal games with every rule
option (3-6 players; lords none / base / all; teams; NPCs; the Chinese and French editions).

tests/test_properties.py checks docs/rules.md §11's invariants and the record; here each family's
rule is worked out a second way, from the rules text, and compared with what the engine did:

- money (R4.4, R4.5, R10.2, R5.2): each action's fees to the bank and to the replaced player,
  each cleared room's treasure split whole;
- the snake (R4.1, R4.2, R4.7, R6.3): who acts, who is passed over, the marker moving left;
- locking (R4.3, R7.1): a room locks at once when its total reaches its threshold and stays
  locked; nobody is replaced in it;
- the resolution cascade (R5.1, R5.3, R7.3): cleared rooms are the rooms above the first that
  fails, and the gold after a round follows;
- the heal floor (R6.1): heal costs of failed rooms only, never below $0;
- the tie-break (R8.1, R10.1): most gold, then unplayed active strength, else shared; teams summed.

Hypothesis runs derandomized (the same examples on every run, so CI is deterministic), with
``max_examples`` chosen so that the whole file takes a few seconds.
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from dungeon_guilds import Game, Rules, payout
from dungeon_guilds.actions import BUMP, PLACE, SWAP
from dungeon_guilds.effects import StartFlip
from dungeon_guilds.scoring import result as score

EMPTY, NPC = -1, -2  # slot owners (payout.py): an empty slot, an NPC (R10.2)
# R4.4: a bump's fee by room level, (to the bank, to the replaced player), as the rules state it
BUMP_FEE = {1: (1, 0), 2: (1, 1), 3: (1, 2)}
TEAMS = {"2v2": (0, 1, 0, 1), "3v3": (0, 1, 0, 1, 0, 1), "2v2v2": (0, 1, 2, 0, 1, 2)}  # R10.1


def option_sets(n: int) -> list[Rules]:
    teams = {3: [None], 4: [None, "2v2"], 5: [None], 6: [None, "3v3", "2v2v2"]}[n]
    return [Rules(lords=lords, teams=t, npc=npc, edition=ed)
            for lords in ("none", "base", "all") for t in teams
            for npc in ((False, True) if n < 6 else (False,)) for ed in ("zh", "fr")]


COMBOS = [(n, r) for n in (3, 4, 5, 6) for r in option_sets(n)]
games = st.tuples(st.sampled_from(COMBOS), st.integers(0, 10**6), st.integers(0, 10**6))
SETTINGS = settings(max_examples=300, deadline=None, derandomize=True, database=None)


def steps(combo, seed, play_seed):
    """Play a random legal game; yield ``(before, action, held, after)`` for every dispatch
    action: the state before, the action, a copy after it with resolution held back (the
    dungeon as the action leaves it) and the state after (resolved if the round ended)."""
    n, rules = combo
    state = Game(n, seed=seed, rules=rules).state
    chooser = random.Random(play_seed)
    while not state.is_over:
        action = chooser.choice(state.legal_actions())
        if action.kind not in (PLACE, BUMP, SWAP):
            state.apply_action(action)  # R2.4 the setup choice
            continue
        before = state.copy()
        held = state.after(action)
        state.apply_action(action)
        yield before, action, held, state.copy()


def round_ended(before, after) -> bool:
    return after.round != before.round


def snake(n: int, start: int) -> list[int]:
    """R4.1 from its text: clockwise from the start player to the last, then back: 1-2-3-3-2-1."""
    there = [(start + k) % n for k in range(n)]
    return there + there[::-1]


def strength_sum(mask: int) -> int:
    return sum(s for s in range(1, 6) if mask >> s & 1)


def split(treasure: int, occupants: list[tuple[int, int]]) -> dict[int, int]:
    """R5.2 / R10.2 from their text: gold per player (NPCs' gold returns to the bank)."""
    out: dict[int, int] = {}
    if len({o for o, _ in occupants}) == 1:
        out[occupants[0][0]] = treasure
    elif occupants:
        (o1, s1), (o2, s2) = occupants
        out[o1] = out.get(o1, 0) + treasure // 2
        out[o2] = out.get(o2, 0) + treasure // 2
        if treasure % 2 and s1 != s2:
            winner = o1 if s1 > s2 else o2
            out[winner] += 1
    out.pop(NPC, None)
    return out


def occupants(state, i: int) -> list[tuple[int, int]]:
    return [state.slot(i, x) for x in (0, 1) if state.slot(i, x)[0] != EMPTY]


def first_failed(held) -> int:
    """R5.1: the first room whose total misses its defence (after the lord, R5.3 floor at 0)."""
    for i in range(held.n_rooms):
        if held.room_total(i) < held.room_defence(i):
            return i
    return held.n_rooms


@SETTINGS
@given(games)
def test_R4_4_R4_5_R10_2_each_action_costs_its_fee_and_R5_2_splits_the_treasure_whole(args):
    """Money: a place is free; a bump pays the level's fee (R4.4; an NPC $1, R10.2), part to
    the replaced player; a swap $1 (R4.5); nobody else's gold moves. Each cleared room's
    treasure goes whole to its owners or back to the bank (R5.2)."""
    for before, action, held, after in steps(*args):
        p = before.current
        i = action.room - 1
        owner = before.slot(i, action.slot)[0] if action.kind != PLACE else EMPTY
        to_bank, to_owner = 0, 0
        if action.kind == SWAP:
            to_bank = 1
        elif action.kind == BUMP:
            to_bank, to_owner = (1, 0) if owner == NPC else BUMP_FEE[before.rooms[i].level]
        expected = before.gold[:]
        expected[p] -= to_bank + to_owner
        if owner >= 0:
            expected[owner] += to_owner
        assert held.gold == expected, (action, before.gold, held.gold)
        assert held.bank_in - before.bank_in == to_bank
        assert held.bank_out == before.bank_out
        if round_ended(before, after):
            for i in range(first_failed(held)):
                treasure, occ = held.room_treasure(i), occupants(held, i)
                shares, to_bank = payout.split(treasure, occ)
                assert sum(shares.values()) + to_bank == treasure  # R5.2 nothing made or lost
                assert shares == {p: g for p, g in split(treasure, occ).items() if g or p in shares}


@SETTINGS
@given(games)
def test_R4_1_R4_2_R4_7_the_snake_skips_who_has_two_in_and_never_changes_order(args):
    """The player to move is the next seat of the snake (R4.1) that has fewer than two
    adventurers in the dungeon (R4.2) and a legal action (R4.7); every seat passed over has two
    in or nothing legal. The marker passes one seat left a round (R6.3)."""
    for before, action, held, after in steps(*args):
        n = before.n
        order = snake(n, before.start)
        assert before.current == order[before.pos % (2 * n)]
        assert before.placed[before.current] < 2  # R4.2 who has two in never acts
        if round_ended(before, after):
            assert after.is_over or after.start == (before.start + 1) % n  # R6.3
            continue
        assert held.pos > before.pos
        for k in range(before.pos + 1, held.pos):  # the seats passed over
            seat = order[k % (2 * n)]
            assert held.placed[seat] == 2 or not held._has_legal(seat), (k, seat)
        assert held.current == order[held.pos % (2 * n)]
        assert held.placed[held.current] < 2


@SETTINGS
@given(games)
def test_R4_3_R7_1_a_room_locks_at_once_at_its_threshold_and_stays_locked(args):
    """A room locks the moment its total reaches the top of its defence range moved by the
    lord's defence change (R4.3, R7.1; never below 0, R5.3); a locked room stays locked for the
    round, and no action replaces an adventurer in it."""
    for before, action, held, after in steps(*args):
        for i in range(held.n_rooms):
            level = held.rooms[i].level
            top = held.levels[level].defence[1] + held.lord_defence_change(i)
            assert held.locked[i] == (before.locked[i] or held.room_total(i) >= max(top, 0)), i
            assert held.lock_threshold(i) == max(top, 0)
        if before.locked[action.room - 1]:
            assert action.kind == PLACE  # ruling R4.3: a locked room's free slot may be filled
        for a in held.legal_actions():
            if a.kind in (BUMP, SWAP):
                assert not held.locked[a.room - 1], a


@SETTINGS
@given(games)
def test_R5_1_R5_2_R7_3_cleared_rooms_are_those_above_the_first_failure(args):
    """At the end of a round the rooms from the top down to the first whose total misses its
    defence are cleared and pay out (R5.1, R5.2, R5.3); that room and every room below fail;
    the Boardgame Lord pays every player of lowest placed total first (R7.3); heal costs of the
    failed rooms follow (R6.1). The gold after the round is worked out here from the rules."""
    for before, action, held, after in steps(*args):
        if not round_ended(before, after):
            continue
        cut = first_failed(held)
        assert after.round_results[-1]["cleared"] == cut
        gold = held.gold[:]
        if held.bonus:
            totals = [0] * held.n
            for owner, s in held.slots():
                if owner >= 0:
                    totals[owner] += s
            gold = [g + (held.bonus if t == min(totals) else 0) for g, t in zip(gold, totals)]
        for i in range(cut):
            for p, share in split(held.room_treasure(i), occupants(held, i)).items():
                gold[p] += share
        for p, cost in enumerate(heal_costs(held, cut)):
            gold[p] -= min(cost, gold[p])
        assert after.gold == gold


def heal_costs(held, cut: int) -> list[int]:
    """R6.1: each player's heal costs for their adventurers in the failed rooms (from ``cut``
    down); NPCs pay none (ruling R10.2)."""
    cost = [0] * held.n
    for i in range(cut, held.n_rooms):
        for owner, s in occupants(held, i):
            if owner >= 0:
                cost[owner] += held.heal_cost(s)
    return cost


@SETTINGS
@given(games)
def test_R6_1_heal_costs_only_for_failed_rooms_and_never_below_zero(args):
    """Cleanup: a player pays the heal costs of their adventurers in failed rooms and nothing
    for cleared rooms; one who cannot pay it all pays what they have and ends at $0 (R6.1).
    The adventurers placed come back exhausted, the exhausted active (R6.2)."""
    for before, action, held, after in steps(*args):
        if not round_ended(before, after):
            continue
        cut = first_failed(held)
        probe = held.copy()
        probe.hold_resolution = False
        probe._resolve()  # the gold after resolution, before cleanup
        for p, cost in enumerate(heal_costs(held, cut)):
            assert after.gold[p] == max(probe.gold[p] - cost, 0)
            assert after.gold[p] >= 0
            if cost > probe.gold[p]:
                assert after.gold[p] == 0
        if after.is_over or any(isinstance(e, StartFlip) for e in after.lord.effects):
            continue  # the Caveman flips hands in the next start phase (R7.2)
        for p in range(held.n):
            placed = sum(1 << s for owner, s in held.slots() if owner == p)
            assert after.exhausted[p] == placed  # R6.2
            assert after.active[p] == 0b111110 & ~placed


@SETTINGS
@given(games)
def test_R8_1_R10_1_most_gold_wins_then_unplayed_active_strength_then_shared(args):
    """The winners: most gold (teams: summed, R10.1); a tie goes to the higher strength of the
    active adventurers not played in the last round (summed for teams); still tied, all share
    (R8.1). Worked out from the last round's dungeon as the final action left it."""
    combo, seed, play_seed = args
    n, rules = combo
    last_held = None
    for before, action, held, after in steps(*args):
        if after.is_over:
            last_held, final = held, after
    assert last_held is not None
    team = TEAMS[rules.teams] if rules.teams else tuple(range(n))
    assert (final.team or tuple(range(n))) == team
    gold = [0] * (max(team) + 1)
    unplayed = [0] * (max(team) + 1)
    for seat in range(n):
        gold[team[seat]] += final.gold[seat]
        unplayed[team[seat]] += strength_sum(last_held.active[seat])  # R8.1 active, not played
    best = max(zip(gold, unplayed))
    winning = {t for t in range(len(gold)) if (gold[t], unplayed[t]) == best}
    res = score(final)
    assert res.winners == tuple(s for s in range(n) if team[s] in winning)
    assert res.tiebreak == tuple(strength_sum(last_held.active[s]) for s in range(n))
