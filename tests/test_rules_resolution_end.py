"""Hand-computed scenarios for resolution (R5), cleanup (R6) and the end of the game (R8).

Every expected number is worked out by hand from docs/rules.md (arithmetic in the comments), with
the reference deck's values restated in tests/scenario.py:
heal cost 1:$0 2:$1 3:$1 4:$2 5:$3; lock threshold Lv1 5, Lv2 7, Lv3 9.
Seats sit clockwise Ann, Bo, Cy. The engine resolves and cleans up by itself as soon as the
last adventurer of a round is placed, so the tests look at the state and log after that move.
"""

from __future__ import annotations

import pytest

from dungeon_guilds import IllegalAction, Rules
from dungeon_guilds.payout import split

try:
    from scenario import (L1, L2, L3, NAMES, events, exhausted, gold, hand, make_game, play,
                          room)
except ImportError:  # pragma: no cover - if tests/ ever becomes a package
    from tests.scenario import (L1, L2, L3, NAMES, events, exhausted, gold, hand, make_game,
                                play, room)


def cleared_rooms(game, round_no=1):
    return {e["room"]: e for e in events(game, "cleared") if e["round"] == round_no}


def healed(game, round_no=1):
    return {game.names[e["player"]]: (e["cost"], e["paid"])
            for e in events(game, "healed") if e["round"] == round_no}


# ============================================================================ R5.1 cascade

def test_R5_1_failed_room_makes_every_room_below_fail_and_R6_1_only_failed_rooms_heal():
    # r1 Lv1 def 3 tr 2, r2 Lv2 def 6 tr 5, r3 Lv3 def 7 tr 8.
    # Ann, Bo exhaust 1,2: 2 + 0 + 1 = $3, hands {3,4,5}; Cy exhausts 4,5: 2 + 2 + 3 = $7.
    g = make_game(3, rooms=[L1(3, 2), L2(6, 5), L3(7, 8)],
                  exhaust={"Ann": (1, 2), "Bo": (1, 2), "Cy": (4, 5)})
    play(g, ["Ann: place 4 3", "Bo: place 4 3",   # r3 [A4, B4] = 8 (< 9, no lock)
             "Cy: place 1 2", "Cy: place 2 2",    # r2 [C1, C2] = 3
             "Bo: place 3 1", "Ann: place 3 1"])  # r1 [B3, A3] = 6
    # r1: 6 >= 3 cleared, $2 split 1 + 1.
    # r2: 3 < 6 failed -> r2 and r3 fail, although r3's 8 >= 7 would have cleared it.
    assert sorted(cleared_rooms(g)) == [1]
    assert cleared_rooms(g)[1]["shares"] == {"0": 1, "1": 1}
    failed = events(g, "failed")
    assert len(failed) == 1 and failed[0]["room"] == 2 and failed[0]["rooms"] == [2, 3]
    assert g.state.round_results[0]["cleared"] == 1
    # R6.1 heal costs of adventurers in failed rooms only (r1's two 3s cost nothing):
    # Ann 4 in r3: $2; Bo 4 in r3: $2; Cy 1 + 2 in r2: $0 + $1 = $1.
    assert healed(g) == {"Ann": (2, 2), "Bo": (2, 2), "Cy": (1, 1)}
    # Ann 3 + 1 - 2 = 2; Bo 3 + 1 - 2 = 2; Cy 7 - 1 = 6.
    assert gold(g) == {"Ann": 2, "Bo": 2, "Cy": 6}
    g.state.check_invariants()


def test_R5_1_top_room_fails_so_every_room_fails():
    g = make_game(3, rooms=[L1(4, 3), L1(3, 2), L1(3, 2)], exhaust=(4, 5))  # $7, hands {1,2,3}
    play(g, ["Ann: place 1 1", "Bo: place 2 1",   # r1 [A1, B2] = 3 < 4: fails
             "Cy: place 3 2", "Cy: place 2 2",    # r2 [C3, C2] = 5 (would clear)
             "Bo: place 3 3", "Ann: place 3 3"])  # r3 [B3, A3] = 6 (would clear)
    assert cleared_rooms(g) == {}
    assert events(g, "failed")[0]["rooms"] == [1, 2, 3]
    assert g.state.round_results[0]["cleared"] == 0
    # Heal: Ann 1 + 3 = 0 + 1 = $1; Bo 2 + 3 = 1 + 1 = $2; Cy 3 + 2 = 1 + 1 = $2.
    assert gold(g) == {"Ann": 6, "Bo": 5, "Cy": 5}


# ============================================================================ R5.2 split

def test_R5_2_even_split_odd_remainder_to_stronger_equal_strength_remainder_to_bank():
    # r1 Lv1 def 3 tr 4, r2 Lv2 def 5 tr 5, r3 Lv3 def 7 tr 9.
    # Ann exhausts 4,5: $7, hand {1,2,3}; Bo, Cy exhaust 1,2: $3, hands {3,4,5}.
    g = make_game(3, rooms=[L1(3, 4), L2(5, 5), L3(7, 9)],
                  exhaust={"Ann": (4, 5), "Bo": (1, 2), "Cy": (1, 2)})
    play(g, ["Ann: place 3 2",   # r2 [A3]
             "Bo: place 3 1",    # r1 [B3]
             "Cy: place 5 3",    # r3 [C5]
             "Cy: place 4 2",    # r2 [A3, C4]: the stronger sits in slot b
             "Bo: place 5 3",    # r3 [C5, B5]
             "Ann: place 2 1"])  # r1 [B3, A2]
    c = cleared_rooms(g)
    # r1: 5 >= 3; $4 even: 2 + 2, nothing left (unequal strengths do not matter).
    assert (c[1]["treasure"], c[1]["shares"], c[1]["to_bank"]) == (4, {"1": 2, "0": 2}, 0)
    # r2: 7 >= 5; $5 = 2 + 2 + remainder 1 to Cy (4 > 3).
    assert (c[2]["treasure"], c[2]["shares"], c[2]["to_bank"]) == (5, {"0": 2, "2": 3}, 0)
    # r3: 10 >= 7; $9 = 4 + 4, equal strengths 5 = 5: remainder 1 back to the bank.
    assert (c[3]["treasure"], c[3]["shares"], c[3]["to_bank"]) == (9, {"2": 4, "1": 4}, 1)
    # Ann 7 + 2 + 2 = 11; Bo 3 + 2 + 4 = 9; Cy 3 + 3 + 4 = 10.
    assert gold(g) == {"Ann": 11, "Bo": 9, "Cy": 10}
    # Setup gold 13, treasure paid out 4 + 5 + 8 = 17: 30 in the players' hands.
    assert sum(g.state.gold) == 30
    g.state.check_invariants()


def test_R5_2_both_adventurers_of_one_owner_take_it_all():
    g = make_game(3, rooms=[L1(3, 3), L1(3, 3), L1(3, 3)], exhaust=(4, 5))  # $7 each
    play(g, ["Ann: place 1 1", "Bo: place 1 2", "Cy: place 1 3",
             "Cy: place 2 3", "Bo: place 2 2", "Ann: place 2 1"])
    # Every room holds one owner's 1 + 2 = 3 >= 3: the owner takes all $3, nothing to the bank.
    c = cleared_rooms(g)
    assert [(c[r]["shares"], c[r]["to_bank"]) for r in (1, 2, 3)] == [
        ({"0": 3}, 0), ({"1": 3}, 0), ({"2": 3}, 0)]
    assert gold(g) == {"Ann": 10, "Bo": 10, "Cy": 10}


@pytest.mark.parametrize("treasure,occupants,shares,to_bank", [
    (4, [(0, 2), (1, 3)], {0: 2, 1: 2}, 0),   # 4 = 2 + 2
    (5, [(0, 2), (1, 3)], {0: 2, 1: 3}, 0),   # 5 = 2 + 2 + 1 to the 3 (slot b)
    (5, [(1, 3), (0, 2)], {0: 2, 1: 3}, 0),   # the same with the stronger in slot a
    (7, [(0, 4), (1, 4)], {0: 3, 1: 3}, 1),   # 7 = 3 + 3, equal: 1 to the bank
    (7, [(2, 1), (2, 5)], {2: 7}, 0),         # one owner: all 7
    (0, [(0, 1), (1, 2)], {0: 0, 1: 0}, 0),   # nothing to share
    (1, [(0, 1), (1, 2)], {0: 0, 1: 1}, 0),   # 1 = 0 + 0 + 1 to the 2
])
def test_R5_2_split_table(treasure, occupants, shares, to_bank):
    got_shares, got_bank = split(treasure, occupants)
    assert {p: v for p, v in got_shares.items() if v or p in shares} == shares
    assert got_bank == to_bank


# ============================================================================ R5.3 never below 0

def test_R5_3_vampire_lord_treasure_never_below_zero():
    # The Vampire Lord: the first two rooms' treasure -$2.
    # r1 Lv1 def 3 tr 1 -> max(0, 1 - 2) = 0; r2 Lv1 def 3 tr 3 -> 1; r3 Lv2 def 5 tr 4 -> 4.
    g = make_game(3, rooms=[L1(3, 1), L1(3, 3), L2(5, 4)], exhaust=(4, 5),
                  rules=Rules(lords="all"), lords=["vampire_lord", "beholder", "red_dragon"])
    play(g, ["Ann: place 1 1", "Bo: place 2 1",   # r1 [A1, B2] = 3 >= 3
             "Cy: place 1 2", "Cy: place 2 2",    # r2 [C1, C2] = 3 >= 3
             "Bo: place 3 3", "Ann: place 3 3"])  # r3 [B3, A3] = 6 >= 5
    c = cleared_rooms(g)
    assert [c[r]["treasure"] for r in (1, 2, 3)] == [0, 1, 4]
    # r1 pays nothing (and takes nothing); r2 $1 to Cy; r3 $4 = 2 + 2.
    # Ann 7 + 0 + 2 = 9; Bo 7 + 0 + 2 = 9; Cy 7 + 1 = 8.
    assert gold(g) == {"Ann": 9, "Bo": 9, "Cy": 8}
    g.state.check_invariants()


def test_R5_3_bigfun_king_defence_and_treasure_never_below_zero():
    # Bigfun King: the last room's defence -3 and treasure -$5 (lock threshold 5 - 3 = 2, R7.1).
    # r3 Lv1 def 2 tr 4 -> defence max(0, -1) = 0, treasure max(0, -1) = 0.
    g = make_game(3, rooms=[L1(3, 2), L1(3, 2), L1(2, 4)], exhaust=(4, 5),
                  rules=Rules(lords="all"), lords=["bigfun_king", "beholder", "red_dragon"])
    play(g, ["Ann: place 1 1", "Bo: place 2 1",   # r1 [A1, B2] = 3 >= 3: $2 = 1 + 1
             "Cy: place 1 2", "Cy: place 2 2",    # r2 [C1, C2] = 3 >= 3: Cy $2
             "Bo: place 1 3", "Ann: place 2 3"])  # r3 [B1, A2] = 3 >= 0: $0
    c = cleared_rooms(g)
    assert (c[3]["defence"], c[3]["treasure"]) == (0, 0)
    # Ann 7 + 1 = 8; Bo 7 + 1 = 8; Cy 7 + 2 = 9.
    assert gold(g) == {"Ann": 8, "Bo": 8, "Cy": 9}


# ============================================================================ R6 cleanup

def test_R6_1_heal_cost_floored_at_zero_and_R6_2_R6_3_next_round():
    # r1 Lv1 def 3 tr 2, r2 Lv1 def 4 tr 3, r3 Lv3 def 9 tr 12.
    # Ann, Bo exhaust 4,5: $7, hands {1,2,3}. Cy exhausts 2,3: 2 + 1 + 1 = $4, hand {1,4,5}.
    g = make_game(3, rooms=[L1(3, 2), L1(4, 3), L3(9, 12)],
                  exhaust={"Ann": (4, 5), "Bo": (4, 5), "Cy": (2, 3)})
    play(g, ["Ann: place 1 3", "Bo: place 1 3",  # r3 [A1, B1] full
             "Cy: bump 5 3a",                    # Lv3: Cy 4 - 1 - 2 = $1, Ann 7 + 2 = $9
             "Cy: place 1 2",                    # r2 [C1]
             "Bo: place 2 1",                    # r1 [B2]
             "Ann: place 1 1"])                  # r1 [B2, A1]; Ann's bumped 1 again
    assert gold(g) == {"Ann": 9, "Bo": 7, "Cy": 1}
    play(g, ["Ann: place 2 2"])                  # r2 [C1, A2]
    # r1: 3 >= 3 cleared, $2 = 1 + 1 (Bo, Ann). r2: 3 < 4 failed, so r3 [C5, B1] fails too.
    # Heal: Ann's 2 in r2: $1. Bo's 1 in r3: $0 (nothing to pay). Cy's 1 + 5: $0 + $3 = $3,
    # but Cy has only $1 (no share from r1): pays $1 and ends at $0.
    assert healed(g) == {"Ann": (1, 1), "Cy": (3, 1)}
    # Ann 9 + 1 - 1 = 9; Bo 7 + 1 - 0 = 8; Cy 1 - 1 = 0.
    assert gold(g) == {"Ann": 9, "Bo": 8, "Cy": 0}
    assert g.state.round_results[0]["gold"] == [9, 8, 0]
    g.state.check_invariants()
    # R6.2 exhausted -> active, placed -> exhausted: 3 active each.
    # Ann: exhausted {4,5} + unplayed {3} -> active {3,4,5}; placed {1,2} -> exhausted.
    # Bo: placed 2 (r1) and 1 (r3) -> exhausted {1,2}; active {3,4,5}.
    # Cy: exhausted {2,3} + unplayed {4} -> active {2,3,4}; placed {1,5} -> exhausted.
    assert (hand(g, "Ann"), exhausted(g, "Ann")) == ([3, 4, 5], [1, 2])
    assert (hand(g, "Bo"), exhausted(g, "Bo")) == ([3, 4, 5], [1, 2])
    assert (hand(g, "Cy"), exhausted(g, "Cy")) == ([2, 3, 4], [1, 5])
    # R6.3 the marker passes left: Bo starts round 2.
    assert g.state.round == 1 and g.state.start == 1 and g.current_name == "Bo"


def test_R6_1_guardian_raises_heal_costs_in_cleanup():
    # The Guardian: strengths 4 and 5 heal +$2 (cleanup only; setup gold is printed, R2.4).
    # Everyone exhausts 1,2: $3 each, hands {3,4,5}. All rooms Lv3 def 9: 3 + 4 = 7 fails r1.
    g = make_game(3, rooms=[L3(9, 12), L3(9, 12), L3(9, 12)], exhaust=(1, 2),
                  rules=Rules(lords="base"), lords=["guardian", "beholder", "red_dragon"])
    assert gold(g) == {"Ann": 3, "Bo": 3, "Cy": 3}
    play(g, ["Ann: place 3 1", "Bo: place 4 1", "Cy: place 3 2",
             "Cy: place 5 2", "Bo: place 3 3", "Ann: place 4 3"])
    # Ann 3 + 4: 1 + (2 + 2) = $5 owed, has $3 -> $0.
    # Bo 4 + 3: (2 + 2) + 1 = $5 owed, has $3 -> $0.
    # Cy 3 + 5: 1 + (3 + 2) = $6 owed, has $3 -> $0.
    assert healed(g) == {"Ann": (5, 3), "Bo": (5, 3), "Cy": (6, 3)}
    assert gold(g) == {"Ann": 0, "Bo": 0, "Cy": 0}


def test_R4_1_R6_2_R6_3_R6_4_R8_1_full_game_from_start_seat_2():
    # All rooms Lv1 def 3 tr 2; everyone exhausts 4,5 ($7, hands {1,2,3}); Cy starts.
    g = make_game(3, exhaust=(4, 5), start=2)
    # Round 1, snake Cy Ann Bo Bo Ann Cy; each places 1 then 2, rooms filled top-down.
    play(g, ["Cy: place 1 1", "Ann: place 1 1", "Bo: place 1 2",
             "Bo: place 2 2", "Ann: place 2 3", "Cy: place 2 3"])
    # r1 [C1, A1] = 2 < 3: everything fails. Heal 1 + 2 = 0 + 1 = $1 each: 7 - 1 = 6.
    assert g.state.round_results[0]["gold"] == [6, 6, 6]
    # R6.3 the marker goes left (clockwise) from Cy to Ann; R6.2 hands {4,5} + {3}.
    assert g.current_name == "Ann" and g.state.start == 0
    for name in ("Ann", "Bo", "Cy"):
        assert hand(g, name) == [3, 4, 5] and exhausted(g, name) == [1, 2]
    # Round 2, snake Ann Bo Cy Cy Bo Ann; place 3 then 4.
    play(g, ["Ann: place 3 1", "Bo: place 3 1", "Cy: place 3 2",
             "Cy: place 4 2", "Bo: place 4 3", "Ann: place 4 3"])
    # r1 [A3, B3] 6: $2 = 1 + 1; r2 [C3, C4] 7: Cy $2; r3 [B4, A4] 8: 1 + 1. 6 + 2 = 8 each.
    assert g.state.round_results[1]["gold"] == [8, 8, 8]
    assert g.state.round_results[1]["cleared"] == 3
    assert g.current_name == "Bo" and g.state.start == 1
    for name in ("Ann", "Bo", "Cy"):  # exhausted {1,2} + unplayed {5}; placed {3,4}
        assert hand(g, name) == [1, 2, 5] and exhausted(g, name) == [3, 4]
    # Round 3, snake Bo Cy Ann Ann Cy Bo; place 1 then 2.
    play(g, ["Bo: place 1 1", "Cy: place 1 1", "Ann: place 1 2",
             "Ann: place 2 2", "Cy: place 2 3"])
    assert not g.is_over
    play(g, ["Bo: place 2 3"])
    # r1 [B1, C1] = 2 < 3 fails everything; heal $1 each: 8 - 1 = 7.
    # R6.4 three lords, three rounds: the game is over.
    assert g.is_over and g.phase == "over"
    assert len(g.state.round_results) == 3
    assert len(events(g, "game_over")) == 1
    assert g.legal_moves() == []
    with pytest.raises(IllegalAction, match="over"):
        g.push("place 5 1")
    # R8.1 all on $7, each kept a 5 unplayed in round 3: a three-way shared victory.
    res = g.result()
    assert res.gold == (7, 7, 7) and res.tiebreak == (5, 5, 5)
    assert g.winners() == ["Ann", "Bo", "Cy"]


@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_R6_4_game_lasts_exactly_n_rounds(n):
    # Drive the game with plain placements (weakest adventurer in hand, first free slot).
    g = make_game(n, exhaust=(4, 5))
    placements = 0
    while not g.is_over:
        assert g.state.round == placements // (2 * n)  # 2n placements per round
        s = hand(g, g.current_name)[0]
        r = next(k for k in range(1, n + 1) if None in room(g, k))
        g.push(f"place {s} {r}")
        placements += 1
        assert placements <= 2 * n * n
    assert placements == 2 * n * n  # n rounds of 2n placements
    assert len(g.state.round_results) == n


# ============================================================================ R8.1 winners

def _three_round_game(r3_treasures, bo_round2):
    """Ann, Bo, Cy each always fill their own room (1, 2, 3) with both adventurers."""
    rooms = ([L1(3, 2), L1(3, 2), L1(3, 2)]        # round 1: $2 each
             + [L1(3, 3), L1(3, 3), L1(3, 2)]      # round 2: Ann $3, Bo $3, Cy $2
             + [L1(3, t) for t in r3_treasures])   # round 3
    g = make_game(3, rooms=rooms, exhaust=(4, 5))  # $7 each, hands {1,2,3}
    play(g, ["Ann: place 1 1", "Bo: place 1 2", "Cy: place 1 3",
             "Cy: place 2 3", "Bo: place 2 2", "Ann: place 2 1"])
    # hands {3,4,5}; Bo starts
    play(g, ["Bo: place 3 2", "Cy: place 4 3", "Ann: place 3 1",
             "Ann: place 4 1", "Cy: place 5 3", f"Bo: place {bo_round2} 2"])
    # hands: {1,2} + the round-2 unplayed one; Cy starts
    play(g, ["Cy: place 1 3", "Ann: place 1 1", "Bo: place 1 2",
             "Bo: place 2 2", "Ann: place 2 1", "Cy: place 2 3"])
    assert g.is_over
    return g


def test_R8_1_most_gold_wins():
    g = _three_round_game((2, 2, 4), bo_round2=5)
    # Ann 7 + 2 + 3 + 2 = 14; Bo 7 + 2 + 3 + 2 = 14; Cy 7 + 2 + 2 + 4 = 15.
    res = g.result()
    assert res.gold == (14, 14, 15)
    # Unplayed in round 3: Ann 5 (placed 3,4 in round 2), Bo 4 (placed 3,5), Cy 3 (placed 4,5).
    assert res.tiebreak == (5, 4, 3)
    assert g.winners() == ["Cy"]  # more gold beats a better tie-break


def test_R8_1_gold_tie_broken_by_unplayed_strength():
    g = _three_round_game((4, 4, 4), bo_round2=5)
    # Ann 7 + 2 + 3 + 4 = 16; Bo 16; Cy 7 + 2 + 2 + 4 = 15.
    res = g.result()
    assert res.gold == (16, 16, 15)
    assert res.tiebreak == (5, 4, 3)  # Ann kept her 5, Bo his 4
    assert g.winners() == ["Ann"]


def test_R8_1_still_tied_shared_victory():
    g = _three_round_game((4, 4, 4), bo_round2=4)
    # Gold as above (16, 16, 15); Bo placed 3,4 in round 2, so he too kept his 5.
    res = g.result()
    assert res.gold == (16, 16, 15)
    assert res.tiebreak == (5, 5, 3)
    assert g.winners() == ["Ann", "Bo"]
    assert res.winners == (0, 1)
