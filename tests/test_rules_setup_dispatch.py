"""Hand-computed scenarios for setup (R2) and the dispatch phase (R4), plus illegal actions.

Every expected number is worked out by hand from docs/rules.md (arithmetic in the comments), with
the reference deck's values restated in tests/scenario.py:
heal cost 1:$0 2:$1 3:$1 4:$2 5:$3; lock threshold Lv1 5, Lv2 7, Lv3 9.
Seats sit clockwise Ann, Bo, Cy, Di, Ed, Flo.
"""

from __future__ import annotations

import pytest

from dungeon_guilds import IllegalAction, Rules
from dungeon_guilds.actions import parse
from dungeon_guilds.turn_order import cycle, snake_order

try:
    from scenario import (L1, L2, L3, NAMES, events, exhausted, gold, hand, is_locked,
                          make_game, play, room, snapshot)
except ImportError:  # pragma: no cover - if tests/ ever becomes a package
    from tests.scenario import (L1, L2, L3, NAMES, events, exhausted, gold, hand, is_locked,
                                make_game, play, room, snapshot)


def refuse(game, move, *needles):
    """Push ``move``, expect a refusal whose text contains every needle, and prove the state
    is unchanged (deep snapshot: gold, slots, hands, log, current player, ...)."""
    before = snapshot(game)
    reason = game.why_illegal(move)
    assert reason, f"{move!r} should be illegal"
    with pytest.raises(IllegalAction) as info:
        game.push(move)
    text = str(info.value)
    assert text and text == reason
    for needle in needles:
        assert needle in text, f"{needle!r} not in {text!r}"
    assert snapshot(game) == before
    who, _, bare = move.rpartition(":")
    if not who or who.strip() == game.current_name:  # legal_moves are the mover's moves
        assert bare.strip() not in game.legal_moves()
    return text


# Three-room layout used by several tests: one room of each level, already in level order.
LV_ROOMS = [L1(3, 2), L2(5, 4), L3(7, 8)]


# ============================================================================ R2 setup

def test_R2_1_each_player_starts_with_2_gold_and_five_adventurers():
    g = make_game(3, exhaust=None)
    assert g.phase == "setup"
    assert gold(g) == {"Ann": 2, "Bo": 2, "Cy": 2}
    for name in ("Ann", "Bo", "Cy"):
        assert hand(g, name) == [1, 2, 3, 4, 5]
        assert exhausted(g, name) == []


def test_R2_4_setup_gold_is_2_plus_heal_costs_of_the_two_exhausted():
    g = make_game(3, exhaust={"Ann": (4, 5), "Bo": (1, 2), "Cy": (2, 3)})
    # Ann: 2 + heal(4) + heal(5) = 2 + 2 + 3 = 7
    # Bo:  2 + heal(1) + heal(2) = 2 + 0 + 1 = 3
    # Cy:  2 + heal(2) + heal(3) = 2 + 1 + 1 = 4
    assert gold(g) == {"Ann": 7, "Bo": 3, "Cy": 4}
    assert hand(g, "Ann") == [1, 2, 3] and exhausted(g, "Ann") == [4, 5]
    assert hand(g, "Bo") == [3, 4, 5] and exhausted(g, "Bo") == [1, 2]
    assert hand(g, "Cy") == [1, 4, 5] and exhausted(g, "Cy") == [2, 3]
    assert g.phase == "dispatch" and g.current_name == "Ann"
    g.state.check_invariants()


def test_R2_4_R2_5_exhaust_choices_are_taken_from_the_start_player_on():
    g = make_game(3, exhaust=None, start=1)
    # R2.5 Bo holds the marker, so Bo chooses first, then Cy, then Ann.
    assert g.current_name == "Bo"
    g.push("exhaust 3 5")  # Bo: 2 + 1 + 3 = 6
    assert g.current_name == "Cy"
    g.push("exhaust 1 4")  # Cy: 2 + 0 + 2 = 4
    assert g.current_name == "Ann"
    g.push("exhaust 2 4")  # Ann: 2 + 1 + 2 = 5
    assert gold(g) == {"Ann": 5, "Bo": 6, "Cy": 4}
    assert g.phase == "dispatch" and g.current_name == "Bo"  # Bo starts the snake (R4.1)


def test_R2_4_ruling_guardian_does_not_change_setup_gold():
    # The Guardian (+$2 heal for strengths 4 and 5) is round 1's lord, effects on.
    g = make_game(3, exhaust=(4, 5), rules=Rules(lords="base"),
                  lords=["guardian", "beholder", "red_dragon"])
    # printed costs only: 2 + 2 + 3 = 7 (not 2 + 4 + 5 = 11)
    assert gold(g) == {"Ann": 7, "Bo": 7, "Cy": 7}


def test_R2_4_refusals_during_setup():
    g = make_game(3, exhaust=None)
    refuse(g, "place 1 1", "exhaust")
    refuse(g, "exhaust 3 3", "different")


def test_R2_3_rooms_sorted_by_level_ties_keep_deal_order_each_round():
    r1 = [L2(6, 5), L1(4, 3), L3(8, 9), L1(3, 2)]
    r2 = [L3(9, 12), L3(7, 8), L1(5, 4), L2(5, 4)]
    g = make_game(4, rooms=r1 + r2, exhaust=(4, 5))
    # Lv1 at the top; the two Lv1 rooms keep deal order (defence 4 first, although 3 < 4).
    assert list(g.state.rooms) == [L1(4, 3), L1(3, 2), L2(6, 5), L3(8, 9)]
    # Play round 1 with plain placements, snake Ann Bo Cy Di Di Cy Bo Ann,
    # k-th placement into room k//2 + 1, first placement strength 1, second strength 2.
    play(g, ["Ann: place 1 1", "Bo: place 1 1", "Cy: place 1 2", "Di: place 1 2",
             "Di: place 2 3", "Cy: place 2 3", "Bo: place 2 4", "Ann: place 2 4"])
    assert g.state.round == 1  # round 2 (0-based index 1) has started
    # Round 2 deals cards 5-8: the two Lv3 rooms keep deal order (defence 9 before 7).
    assert list(g.state.rooms) == [L1(5, 4), L2(5, 4), L3(9, 12), L3(7, 8)]
    assert [e["levels"] for e in events(g, "dealt")] == [[1, 1, 2, 3], [1, 2, 3, 3]]


# ============================================================================ R4.1 snake order

SNAKES = [
    # (players, start seat, the names to move for the 2n placements of round 1)
    (3, 0, "Ann Bo Cy Cy Bo Ann"),
    (3, 1, "Bo Cy Ann Ann Cy Bo"),
    (3, 2, "Cy Ann Bo Bo Ann Cy"),
    (4, 0, "Ann Bo Cy Di Di Cy Bo Ann"),
    (4, 2, "Cy Di Ann Bo Bo Ann Di Cy"),
    (5, 0, "Ann Bo Cy Di Ed Ed Di Cy Bo Ann"),
    (5, 3, "Di Ed Ann Bo Cy Cy Bo Ann Ed Di"),
    (6, 0, "Ann Bo Cy Di Ed Flo Flo Ed Di Cy Bo Ann"),
    (6, 5, "Flo Ann Bo Cy Di Ed Ed Di Cy Bo Ann Flo"),
]


@pytest.mark.parametrize("n,start,order", SNAKES)
def test_R4_1_snake_order(n, start, order):
    order = order.split()
    g = make_game(n, exhaust=(4, 5), start=start)
    seen = set()
    for k, name in enumerate(order):
        assert g.current_name == name, f"placement {k}"
        s = 2 if name in seen else 1
        seen.add(name)
        g.push(f"{name}: place {s} {k // 2 + 1}")  # fill the rooms top-down
        g.state.check_invariants()
    # R4.8 every player has two placed: the round is over; R6.3 the marker moved left.
    assert g.state.round == 1
    assert g.current_name == NAMES[(start + 1) % n]


@pytest.mark.parametrize("n,start,order", SNAKES)
def test_R4_1_the_engine_walks_turn_orders_snake(n, start, order):
    """One source for the snake: the engine's table is turn_order's, which matches the table."""
    names = order.split()
    assert [NAMES[s] for s in cycle(n, start)] == names == [NAMES[s] for s in snake_order(n, start)]
    assert make_game(n, start=start).state.order == cycle(n, start)


def test_R4_1_snake_continues_past_one_cycle_1_2_3_3_2_1_1_2_3():
    # Three players, start Ann: positions 0..8 are Ann Bo Cy Cy Bo Ann Ann Bo Cy.
    # Each swap keeps the swapper's count, so nobody reaches two placed quickly.
    g = make_game(3, rooms=[L1(), L1(), L1()], exhaust=(1, 2))  # hands {3,4,5}, $3 each
    play(g, ["Ann: place 3 1", "Bo: place 3 2", "Cy: place 3 3",
             "Cy: swap 4 3a",     # Cy $2, r3 [C4]: 4 < 5 not locked
             "Bo: swap 4 2a",     # Bo $2
             "Ann: swap 4 1a",    # Ann $2
             "Ann: place 3 1"])   # pos 6: Ann again (the 1-1 turn); r1 [A4, A3] = 7 locks
    assert g.current_name == "Bo"  # pos 7
    play(g, ["Bo: place 3 2"])
    assert g.current_name == "Cy"  # pos 8
    assert gold(g) == {"Ann": 2, "Bo": 2, "Cy": 2}


# ============================================================================ R4.2 skips and doubles

def test_R4_2_bumped_player_acts_twice_in_a_row_and_players_with_two_are_skipped():
    # All rooms Lv1 (defence 3, treasure 2). Everyone exhausts 4,5: $7 each, hands {1,2,3}.
    g = make_game(3, rooms=[L1(3, 2), L1(3, 2), L1(3, 2)], exhaust=(4, 5))
    play(g, ["Ann: place 1 1"])          # pos0  r1 [A1]
    play(g, ["Bo: place 1 1"])           # pos1  r1 [A1, B1] full, 2 < 5
    play(g, ["Cy: bump 2 1b"])           # pos2  Lv1: Cy pays $1 -> $6; Bo's 1 back, Bo 0 placed
    assert g.current_name == "Cy"        # pos3  (Cy's natural double)
    play(g, ["Cy: place 1 2"])           # pos3  r2 [C1]; Cy has 2 placed
    assert g.current_name == "Bo"
    play(g, ["Bo: place 1 2"])           # pos4  r2 [C1, B1]; Bo 1 placed
    assert g.current_name == "Ann"
    n_log = len(g.log)
    play(g, ["Ann: bump 2 2b"])          # pos5  Lv1: Ann $7 -> $6; Bo 0 placed again
    # pos6 Ann has two placed -> skipped; pos7 Bo.
    assert g.current_name == "Bo"
    passes = [e for e in g.log[n_log:] if e["kind"] == "passed"]
    assert [e["player"] for e in passes] == [0]
    play(g, ["Bo: place 1 3"])           # pos7  r3 [B1]; Bo 1 placed
    # pos8, pos9 Cy has two -> skipped; pos10 Bo again: Bo acts twice in a row.
    assert g.phase == "dispatch" and g.state.round == 0
    assert g.current_name == "Bo"
    play(g, ["Bo: place 2 3"])           # pos10 r3 [B1, B2]: all have two (R4.8)
    assert g.state.round == 1
    # Resolution: r1 [A1, C2] 3 >= 3: $2 -> 1 + 1; r2 [C1, A2] 3 >= 3: 1 + 1;
    # r3 [B1, B2] 3 >= 3: Bo takes 2.  Ann 7-1+1+1 = 8, Bo 7+2 = 9, Cy 7-1+1+1 = 8.
    assert gold(g) == {"Ann": 8, "Bo": 9, "Cy": 8}


def test_R4_7_R4_8_phase_does_not_end_while_one_player_has_fewer_than_two():
    g = make_game(3, rooms=[L1(3, 2), L1(3, 2), L1(3, 2)], exhaust=(4, 5))
    play(g, ["Ann: place 1 1", "Bo: place 1 1", "Cy: bump 2 1b", "Cy: place 1 2",
             "Bo: place 1 2", "Ann: bump 2 2b", "Bo: place 1 3"])
    # Ann 2, Cy 2, Bo 1: still dispatch, Bo to move, no resolution yet.
    assert list(g.state.placed) == [2, 1, 2]
    assert g.phase == "dispatch" and g.state.round_results == []
    assert events(g, "revealed") == []
    play(g, ["Bo: place 2 3"])
    assert len(g.state.round_results) == 1 and g.state.round == 1
    assert list(g.state.placed) == [0, 0, 0]


# ============================================================================ R4.3 place and lock

@pytest.mark.parametrize("level,ann_ex,ann_s,bo_ex,bo_s,locks", [
    (1, (4, 5), 2, (4, 5), 2, False),  # 2 + 2 = 4 < 5
    (1, (4, 5), 3, (4, 5), 2, True),   # 3 + 2 = 5 >= 5
    (2, (1, 2), 4, (4, 5), 2, False),  # 4 + 2 = 6 < 7
    (2, (1, 2), 4, (4, 5), 3, True),   # 4 + 3 = 7 >= 7
    (3, (1, 2), 5, (1, 5), 3, False),  # 5 + 3 = 8 < 9
    (3, (1, 2), 5, (1, 5), 4, True),   # 5 + 4 = 9 >= 9
])
def test_R4_3_room_locks_when_sum_reaches_threshold_not_before(level, ann_ex, ann_s, bo_ex, bo_s, locks):
    # Cy exhausts 1,2: hand {3,4,5}, $2 + 0 + 1 = $3, enough for any bump ($1, $2, $3).
    g = make_game(3, rooms=LV_ROOMS, exhaust={"Ann": ann_ex, "Bo": bo_ex, "Cy": (1, 2)})
    play(g, [f"Ann: place {ann_s} {level}"])
    assert not is_locked(g, level)  # one adventurer alone is below every threshold here
    play(g, [f"Bo: place {bo_s} {level}"])
    assert room(g, level) == [("Ann", ann_s), ("Bo", bo_s)]
    assert is_locked(g, level) is locks
    locked_events = [e for e in events(g, "locked") if e["room"] == level]
    if locks:
        assert locked_events and locked_events[0]["total"] == ann_s + bo_s
        # R4.3 no adventurer in a locked room can be replaced: Cy's 5 beats Bo's <= 4.
        refuse(g, f"Cy: bump 5 {level}b", "locked")
    else:
        assert not locked_events
        assert f"bump 5 {level}b" in g.legal_moves()


def test_R4_3_single_adventurer_locks_and_free_slot_of_locked_room_can_be_filled():
    # Ann exhausts 1,2 ($3, hand {3,4,5}); Bo and Cy exhaust 4,5 ($7, hand {1,2,3}).
    g = make_game(3, rooms=[L1(3, 2), L1(3, 2), L1(3, 2)],
                  exhaust={"Ann": (1, 2), "Bo": (4, 5), "Cy": (4, 5)})
    play(g, ["Ann: place 5 1"])  # r1 [A5]: 5 >= Lv1 threshold 5 -> locked at once
    assert is_locked(g, 1)
    # Ruling R4.3: the free slot of a locked room can still be filled by placing.
    assert "place 1 1" in g.legal_moves()
    play(g, ["Bo: place 1 1"])
    assert room(g, 1) == [("Ann", 5), ("Bo", 1)] and is_locked(g, 1)
    # Cy (2 > 1, $7) may not bump Bo's adventurer in the locked room.
    assert not any(m.startswith("bump") for m in g.legal_moves())
    refuse(g, "Cy: bump 2 1b", "locked")
    refuse(g, "Cy: bump 3 1b", "locked")
    play(g, ["Cy: place 1 2", "Cy: place 2 2"])
    # Bo may not swap his own adventurer out of the locked room either.
    assert g.current_name == "Bo"
    refuse(g, "Bo: swap 2 1b", "locked")
    refuse(g, "Bo: swap 3 1b", "locked")


def test_R4_3_place_refused_in_full_room():
    g = make_game(3, rooms=LV_ROOMS, exhaust=(4, 5))
    play(g, ["Ann: place 1 1", "Bo: place 2 1"])
    refuse(g, "Cy: place 3 1", "full")


# ============================================================================ R4.4 bump

@pytest.mark.parametrize("level,to_bank,to_victim", [(1, 1, 0), (2, 1, 1), (3, 1, 2)])
def test_R4_4_bump_costs_by_level(level, to_bank, to_victim):
    # Everyone exhausts 4,5: $7 each, hands {1,2,3}.
    g = make_game(3, rooms=LV_ROOMS, exhaust=(4, 5))
    play(g, [f"Ann: place 1 {level}", f"Bo: place 2 {level}"])  # full [A1, B2], 3 < threshold
    play(g, [f"Cy: bump 2 {level}a"])
    # Lv1: Cy 7-1 = 6, Ann 7;  Lv2: Cy 7-1-1 = 5, Ann 7+1 = 8;  Lv3: Cy 7-1-2 = 4, Ann 7+2 = 9.
    expected = {1: {"Ann": 7, "Bo": 7, "Cy": 6},
                2: {"Ann": 8, "Bo": 7, "Cy": 5},
                3: {"Ann": 9, "Bo": 7, "Cy": 4}}[level]
    assert gold(g) == expected
    assert sum(g.state.gold) == 21 - to_bank  # only the bank's $1 leaves the players
    ev = events(g, "bumped")[-1]
    assert (ev["fee_bank"], ev["fee_victim"], ev["victim"], ev["victim_strength"]) == (to_bank, to_victim, 0, 1)
    # The replaced adventurer returns to its owner, active; Ann has nothing placed now.
    assert hand(g, "Ann") == [1, 2, 3]
    assert g.state.placed[0] == 0
    assert room(g, level) == [("Cy", 2), ("Bo", 2)]
    assert not is_locked(g, level)  # 2 + 2 = 4 < 5
    assert g.current_name == "Cy"  # pos3, Cy's second turn


def test_R4_4_bump_may_lock_the_room_afterwards():
    g = make_game(3, rooms=LV_ROOMS, exhaust=(4, 5))
    play(g, ["Ann: place 1 1", "Bo: place 2 1"])  # r1 [A1, B2] = 3
    play(g, ["Cy: bump 3 1a"])                     # r1 [C3, B2] = 5 >= 5 -> locked
    assert is_locked(g, 1)
    assert gold(g)["Cy"] == 6


def test_R4_4_bump_needs_a_full_room_and_a_strictly_stronger_adventurer():
    g = make_game(3, rooms=LV_ROOMS, exhaust=(4, 5))  # $7 each, hands {1,2,3}
    play(g, ["Ann: place 2 3", "Bo: place 1 2"])  # r3 [A2], r2 [B1]: neither full
    refuse(g, "Cy: bump 3 3a", "not full")
    refuse(g, "Cy: bump 3 2a", "not full")
    play(g, ["Cy: place 3 3"])  # r3 [A2, C3] full, 5 < 9
    # Cy's 2 is equal to Ann's 2, Cy's 1 is weaker: both refused.
    refuse(g, "Cy: bump 2 3a", "stronger than 2")
    refuse(g, "Cy: bump 1 3a", "stronger than 2")
    # Cy's own adventurer cannot be bumped (that is a swap).
    refuse(g, "Cy: bump 2 3b", "swap")


def test_R4_6_bump_refused_when_player_cannot_pay_and_state_unchanged():
    # Ann, Bo exhaust 4,5: $7, hands {1,2,3}. Cy exhausts 1,2: 2 + 0 + 1 = $3, hand {3,4,5}.
    g = make_game(3, rooms=LV_ROOMS, exhaust={"Ann": (4, 5), "Bo": (4, 5), "Cy": (1, 2)})
    play(g, ["Ann: place 1 3",   # pos0 r3 [A1]
             "Bo: place 1 3",    # pos1 r3 [A1, B1] full, 2 < 9
             "Cy: place 3 1",    # pos2 r1 [C3]
             "Cy: swap 4 1a",    # pos3 $1 to the bank: Cy $2; r1 [C4] 4 < 5
             "Bo: place 2 2",    # pos4 r2 [B2]
             "Ann: place 2 2"])  # pos5 r2 [B2, A2] full, 4 < 7
    # pos6 Ann and pos7 Bo have two placed (R4.2): Cy moves at pos8 with $2.
    assert g.current_name == "Cy" and gold(g) == {"Ann": 7, "Bo": 7, "Cy": 2}
    # Lv3 bump costs $1 + $2 = $3 > $2 (R4.6).
    refuse(g, "Cy: bump 5 3a", "$3", "$2")
    assert "bump 5 3b" not in g.legal_moves()
    # Lv2 bump costs $1 + $1 = $2 = all Cy has: legal.
    assert "bump 5 2a" in g.legal_moves()
    play(g, ["Cy: bump 5 2a"])  # Cy 2-2 = 0, Bo 7+1 = 8
    assert gold(g) == {"Ann": 7, "Bo": 8, "Cy": 0}
    # pos9 Cy has two; pos10 Bo (lost his 2) acts.
    assert g.current_name == "Bo" and hand(g, "Bo") == [2, 3]


# ============================================================================ R4.5 swap

def test_R4_5_swap_own_adventurer_in_a_non_full_room_costs_1():
    g = make_game(3, rooms=LV_ROOMS, exhaust={"Ann": (4, 5), "Bo": (4, 5), "Cy": (1, 2)})
    play(g, ["Ann: place 1 2", "Bo: place 1 2",  # r2 [A1, B1]
             "Cy: place 3 1"])                   # r1 [C3], not full, 3 < 5
    assert g.current_name == "Cy"
    refuse(g, "Cy: swap 3 1a", "in the dungeon")  # Cy's 3 is the one placed
    refuse(g, "Cy: swap 4 2a", "Ann", "bump")     # not Cy's adventurer
    # Chinese edition: swapping needs an unlocked room only, not a full one.
    assert "swap 4 1a" in g.legal_moves()
    play(g, ["Cy: swap 4 1a"])
    # Cy $3 - $1 = $2; the 3 comes back active; the 4 takes slot a; still one placed.
    assert gold(g)["Cy"] == 2
    assert sum(g.state.gold) == 7 + 7 + 3 - 1
    assert room(g, 1) == [("Cy", 4), None]
    assert hand(g, "Cy") == [3, 5]
    assert g.state.placed[2] == 1
    assert not is_locked(g, 1)  # 4 < 5
    ev = events(g, "swapped")[-1]
    assert (ev["returned"], ev["fee_bank"]) == (3, 1)
    assert g.current_name == "Bo"  # pos4


def test_R4_5_swap_needs_strictly_stronger_and_may_lock():
    g = make_game(3, rooms=LV_ROOMS, exhaust={"Ann": (4, 5), "Bo": (4, 5), "Cy": (1, 2)})
    play(g, ["Ann: place 1 2", "Bo: place 1 2", "Cy: place 4 1"])  # r1 [C4]
    refuse(g, "Cy: swap 3 1a", "stronger than 4")
    play(g, ["Cy: swap 5 1a"])  # r1 [C5]: 5 >= 5 locks
    assert is_locked(g, 1) and gold(g)["Cy"] == 2


def test_R4_6_swap_refused_without_gold():
    # Ann, Bo exhaust 4,5: $7, hands {1,2,3}. Cy exhausts 1,2: $3, hand {3,4,5}.
    g = make_game(3, rooms=LV_ROOMS, exhaust={"Ann": (4, 5), "Bo": (4, 5), "Cy": (1, 2)})
    play(g, ["Ann: place 1 3", "Bo: place 1 3",  # r3 (Lv3) [A1, B1] full, 2 < 9
             "Cy: bump 3 3a"])                   # $1 bank + $2 Ann: Cy 3-3 = 0, Ann 7+2 = 9
    assert gold(g) == {"Ann": 9, "Bo": 7, "Cy": 0}
    assert room(g, 3) == [("Cy", 3), ("Bo", 1)] and not is_locked(g, 3)  # 4 < 9
    # pos3 Cy again: a swap costs $1 and Cy has $0 (R4.6).
    assert g.current_name == "Cy"
    refuse(g, "Cy: swap 4 3a", "$1", "$0")
    refuse(g, "Cy: bump 4 3b", "$3", "$0")
    assert not any(m.startswith(("swap", "bump")) for m in g.legal_moves())
    assert "place 4 1" in g.legal_moves()


def test_R9_1_french_edition_swap_needs_a_full_room():
    g = make_game(3, rooms=LV_ROOMS, exhaust={"Ann": (4, 5), "Bo": (4, 5), "Cy": (1, 2)},
                  rules=Rules(lords="none", edition="fr"))
    play(g, ["Ann: place 1 2", "Bo: place 1 2", "Cy: place 3 1"])
    refuse(g, "Cy: swap 4 1a", "full")


# ============================================================================ illegal actions

def test_R4_1_illegal_wrong_player():
    g = make_game(3, rooms=LV_ROOMS, exhaust=(4, 5))
    refuse(g, "Bo: place 1 1", "it is Ann's turn")
    play(g, ["Ann: place 1 1"])
    refuse(g, "Ann: place 2 1", "it is Bo's turn")
    # The engine's own entry point refuses too, with the same reason.
    before = snapshot(g)
    with pytest.raises(IllegalAction, match="it is Bo's turn"):
        g.state.apply_action(parse("place 2 2"), player=2)
    assert snapshot(g) == before


def test_R2_4_R6_2_illegal_exhausted_adventurer():
    g = make_game(3, rooms=LV_ROOMS, exhaust=(4, 5))
    refuse(g, "Ann: place 4 1", "exhausted")
    refuse(g, "Ann: place 5 3", "exhausted")


def test_R4_3_illegal_nonexistent_room():
    g = make_game(3, rooms=LV_ROOMS, exhaust=(4, 5))
    refuse(g, "Ann: place 1 4", "no room 4")
    refuse(g, "Ann: place 1 0", "no room 0")
    play(g, ["Ann: place 1 1", "Bo: place 2 1"])
    refuse(g, "Cy: bump 3 9a", "no room 9")


def test_R4_3_R4_4_R4_5_illegal_misc_refusals_leave_state_unchanged():
    g = make_game(3, rooms=LV_ROOMS, exhaust=(4, 5))
    refuse(g, "Ann: place 6 1", "1 to 5")
    refuse(g, "Ann: exhaust 1 2", "setup")
    play(g, ["Ann: place 1 1", "Bo: place 1 2", "Cy: place 1 3", "Cy: place 2 3",
             "Bo: place 2 2"])
    refuse(g, "Ann: place 1 2", "already in the dungeon")
    # r1 [A1, -], r2 [B1, B2], r3 [C1, C2]; Ann to move (pos5).
    refuse(g, "Ann: bump 3 1a", "yours", "swap")
    refuse(g, "Ann: bump 3 1b", "empty")
    refuse(g, "Ann: swap 3 3a", "Cy", "bump")
    refuse(g, "Ann: swap 3 1b", "empty")
