"""Hand-computed scenarios for the eleven Dungeon Lords (docs/rules.md §7, rulings R7.1-R7.4, R2.4, R5.3).

Each scenario plays round 1 with the lord under test and fixed rooms, exhaust choices and moves,
and compares the gold with arithmetic done by hand (comments). Each is also played with
``lords="none"`` (R7.4 first-game mode), where the same lord must have no effect.

Default setup (see lord_scenarios.py): Ann exhausts 4,5 ($7, active 1,2,3), Bo 1,2 ($3, active
3,4,5), Cy 2,3 ($4, active 1,4,5). Start player Ann: snake Ann, Bo, Cy, Cy, Bo, Ann (R4.1).
Reference deck: heal 1:0 2:1 3:1 4:2 5:3; lock thresholds Lv1 5, Lv2 7, Lv3 9.
"""

from __future__ import annotations

import pytest

from dungeon_guilds.lords import LordError

from dungeon_guilds import IllegalAction, RoomCard, Rules
from dungeon_guilds.lords import ALL_LORDS, BASE_LORDS, PROMO_LORDS, LORDS_BY_ID

from lord_scenarios import (
    STANDARD, active, events, exhausted, gold, low_treasure_deck, make_game, play, round_gold,
)

BASE = Rules(lords="base")
ALL = Rules(lords="all")
NONE = Rules(lords="none")


def test_the_eleven_lords_are_there():
    """R1.3 / §7: six base lords and five promo lords."""
    assert [lord.id for lord in BASE_LORDS] == [
        "succubus", "vampire_lord", "beholder", "lich_king", "red_dragon", "guardian"]
    assert [lord.id for lord in PROMO_LORDS] == [
        "naughty_kid", "caveman", "bigfun_king", "hello_duck", "boardgame_lord"]
    assert all(lord.promo for lord in PROMO_LORDS) and not any(lord.promo for lord in BASE_LORDS)
    assert len(ALL_LORDS) == 11 and len(LORDS_BY_ID) == 11


# ----------------------------------------------------------------------------- Succubus
def test_succubus_refuses_strength_1_and_names_the_lord():
    """§7 The Succubus: players cannot place strength-1 adventurers."""
    g = make_game(rooms=STANDARD, lords=["succubus"], rules=BASE)
    assert g.current_name == "Ann"
    reason = g.why_illegal("place 1 1")
    assert reason is not None and "Succubus" in reason
    with pytest.raises(IllegalAction, match="Succubus"):
        g.push("Ann: place 1 1")
    # no action with strength 1 is offered to anyone (Ann active 1,2,3)
    assert all(a.strength != 1 for a in g.legal_actions())
    assert "place 2 1" in g.legal_moves() and "place 3 1" in g.legal_moves()
    play(g, ["Ann: place 3 1", "Bo: place 3 2"])
    # Cy (active 1,4,5) cannot place her 1 either
    with pytest.raises(IllegalAction, match="Succubus"):
        g.push("Cy: place 1 1")
    assert {a.strength for a in g.legal_actions()} == {4, 5}


def test_succubus_without_lord_effects_allows_strength_1():
    """R7.4 lords="none": the Succubus only counts the round."""
    g = make_game(rooms=STANDARD, lords=["succubus"], rules=NONE)
    assert g.why_illegal("place 1 1") is None
    play(g, ["Ann: place 1 1"])


# ----------------------------------------------------------------------------- Vampire Lord
VAMPIRE_ROOMS = [RoomCard(1, 3, 1), RoomCard(2, 5, 5), RoomCard(3, 7, 8)]
VAMPIRE_MOVES = [
    "Ann: place 3 1",   # R1 = 3
    "Bo: place 3 2",    # R2 = 3
    "Cy: place 4 2",    # R2 = 7 >= 7 locks
    "Cy: place 5 3",    # R3 = 5
    "Bo: place 4 3",    # R3 = 9 >= 9 locks
    "Ann: place 2 1",   # R1 = 5 >= 5 locks
]


@pytest.mark.parametrize("rules, expected", [
    # Vampire: R1 tr 1-2 = -1 -> 0 (R5.3); R2 tr 5-2 = 3: Bo(3) 1, Cy(4) 1+1 rem; R3 tr 8 (last
    # room, untouched): Cy(5) 4, Bo(4) 4.  Ann 7, Bo 3+1+4 = 8, Cy 4+2+4 = 10.
    (BASE, [7, 8, 10]),
    # none: R1 tr 1 -> Ann alone +1; R2 tr 5: Bo 2, Cy 2+1; R3 4/4. Ann 8, Bo 9, Cy 11.
    (NONE, [8, 9, 11]),
])
def test_vampire_lord_first_two_rooms_minus_2_floored_at_0(rules, expected):
    """§7 The Vampire Lord: the first two rooms' treasure -$2; R5.3 never below 0.
    (Room 1 is a Lv1 card with treasure $1, valid in a deck whose Lv1 treasure range is 1-4.)"""
    g = make_game(rooms=VAMPIRE_ROOMS, lords=["vampire_lord"], rules=rules,
                  deck=low_treasure_deck())
    play(g, VAMPIRE_MOVES)
    assert round_gold(g, 1) == expected
    cleared = {e["room"]: e["treasure"] for e in events(g, "cleared") if e["round"] == 1}
    assert cleared == ({1: 0, 2: 3, 3: 8} if rules is BASE else {1: 1, 2: 5, 3: 8})


# ----------------------------------------------------------------------------- Beholder
BEHOLDER_MOVES = [
    "Ann: place 3 1",   # R1 = 3
    "Bo: place 4 1",    # R1 = 7 locks
    "Cy: place 4 2",    # R2 = 4
    "Cy: place 5 2",    # R2 = 9 locks
    "Bo: place 5 3",    # R3 = 5
    "Ann: place 2 3",   # R3 = 7 (< 9)
]


@pytest.mark.parametrize("rules, expected", [
    # Beholder: R1 7 >= 4, tr 3+3 = 6: Ann 3, Bo 3. R2 9 >= 6: Cy alone 5. R3 7 < 8 fails:
    # heal Bo 5 -> $3, Ann 2 -> $1.  Ann 7+3-1 = 9, Bo 3+3-3 = 3, Cy 4+5 = 9.
    (BASE, [9, 3, 9]),
    # none: R1 tr 3: 1/1, remainder to Bo (4 > 3). Ann 7+1-1 = 7, Bo 3+2-3 = 2, Cy 9.
    (NONE, [7, 2, 9]),
])
def test_beholder_first_room_plus_3(rules, expected):
    """§7 The Beholder: the first room's treasure +$3."""
    g = make_game(rooms=STANDARD, lords=["beholder"], rules=rules)
    play(g, BEHOLDER_MOVES)
    assert round_gold(g, 1) == expected


# ----------------------------------------------------------------------------- Lich King
def test_lich_king_moves_second_room_lock_threshold_by_2():
    """§7 The Lich King + R7.1: room 2 (Lv2) locks at 7+2 = 9, not 7; rooms 1 and 3 unchanged."""
    g = make_game(rooms=STANDARD, lords=["lich_king"], rules=BASE)
    st = g.state
    assert [st.lock_threshold(i) for i in range(3)] == [5, 9, 9]
    play(g, ["Ann: place 3 2", "Bo: place 4 2"])  # R2 = 7: would lock at 7, not at 9
    assert st.locked[1] is False
    assert g.why_illegal("Cy: bump 5 2a") is None


def test_lich_king_without_effects_room_2_locks_at_7():
    """R7.4 lords="none": the Lich King's +2 is off, so R2 locks at 7 and cannot be bumped."""
    g = make_game(rooms=STANDARD, lords=["lich_king"], rules=NONE)
    assert [g.state.lock_threshold(i) for i in range(3)] == [5, 7, 9]
    play(g, ["Ann: place 3 2", "Bo: place 4 2"])
    assert g.state.locked[1] is True
    assert "locked" in g.why_illegal("Cy: bump 5 2a")


def test_lich_king_second_room_treasure_plus_3_and_bump_in_the_unlocked_room():
    """§7 The Lich King (defence +2, treasure +3), R7.1 (threshold 9), R4.4 (Lv2 bump)."""
    g = make_game(rooms=STANDARD, lords=["lich_king"], rules=BASE)
    play(g, [
        "Ann: place 3 2",   # R2 = 3
        "Bo: place 4 2",    # R2 = 7 < 9: stays unlocked
        "Cy: bump 5 2a",    # Lv2 bump: Cy pays $1 bank + $1 Ann: Cy 4-2 = 2, Ann 7+1 = 8
    ])
    assert gold(g) == [8, 3, 2]
    assert g.state.locked[1] is True  # Bo 4 + Cy 5 = 9 >= 9
    assert 3 in active(g, "Ann")      # the bumped 3 is back, active (R4.4)
    play(g, [
        "Cy: place 4 3",    # R3 = 4
        "Bo: place 5 3",    # R3 = 9 locks
        "Ann: place 3 1",   # Ann has 0 placed: acts, then acts again (R4.2)
        "Ann: place 2 1",   # R1 = 5
    ])
    # R1 5 >= 4: Ann alone 3. R2 9 >= 6+2 = 8: tr 5+3 = 8: Bo 4, Cy 4. R3 9 >= 8: tr 10: 5/5.
    # Ann 8+3 = 11, Bo 3+4+5 = 12, Cy 2+4+5 = 11.
    assert round_gold(g, 1) == [11, 12, 11]


LICH_FAIL_MOVES = [
    "Ann: place 3 2",   # R2 = 3
    "Bo: place 4 2",    # R2 = 7
    "Cy: place 4 1",    # R1 = 4
    "Cy: place 5 1",    # R1 = 9 locks
    "Bo: place 5 3",    # R3 = 5
    "Ann: place 2 3",   # R3 = 7
]


@pytest.mark.parametrize("rules, expected", [
    # Lich King: R1 9 >= 4: Cy 3. R2 7 < 6+2 = 8: R2 and R3 fail. Heal: Ann 3,2 -> 1+1 = 2;
    # Bo 4,5 -> 2+3 = 5 but has $3: pays 3 (R6.1). Ann 7-2 = 5, Bo 0, Cy 4+3 = 7.
    (BASE, [5, 0, 7]),
    # none: R2 7 >= 6: tr 5: Ann 2, Bo 2+1 (4 > 3). R3 7 < 8 fails: Bo 5 -> 3, Ann 2 -> 1.
    # Ann 7+2-1 = 8, Bo 3+3-3 = 3, Cy 7.
    (NONE, [8, 3, 7]),
])
def test_lich_king_second_room_defence_plus_2(rules, expected):
    """§7 The Lich King: room 2's defence +2 makes a total of 7 fail against 6+2 = 8."""
    g = make_game(rooms=STANDARD, lords=["lich_king"], rules=rules)
    play(g, LICH_FAIL_MOVES)
    assert round_gold(g, 1) == expected


# ----------------------------------------------------------------------------- Red Dragon
DRAGON_ROOMS = [RoomCard(1, 4, 3), RoomCard(2, 6, 5), RoomCard(3, 7, 9)]


@pytest.mark.parametrize("rules, expected", [
    # Red Dragon: R1 7 >= 4 tr 3: Ann 1, Bo 1+1. R2 Cy alone 5. R3 Bo5+Ann2 = 7 >= 7:
    # tr 9+10 = 19: 9/9, remainder to Bo (5 > 2). Ann 7+1+9 = 17, Bo 3+2+10 = 15, Cy 4+5 = 9.
    (BASE, [17, 15, 9]),
    # none: R3 tr 9: Ann 4, Bo 4+1. Ann 7+1+4 = 12, Bo 3+2+5 = 10, Cy 9.
    (NONE, [12, 10, 9]),
])
def test_red_dragon_last_room_plus_10(rules, expected):
    """§7 The Red Dragon: the last room's treasure +$10."""
    g = make_game(rooms=DRAGON_ROOMS, lords=["red_dragon"], rules=rules)
    play(g, BEHOLDER_MOVES)  # same moves: R1 Ann3+Bo4, R2 Cy4+Cy5, R3 Bo5+Ann2
    assert round_gold(g, 1) == expected


# ----------------------------------------------------------------------------- Guardian
def test_guardian_setup_gold_unchanged_r2_4():
    """R2.4 ruling: with the Guardian as round-1 lord, exhausting 4 and 5 at setup still pays
    the printed costs: $2 + 2 + 3 = $7 (not $2 + 4 + 5 = $11)."""
    g = make_game(rooms=STANDARD, lords=["guardian"], rules=BASE)
    assert gold(g) == [7, 3, 4]
    assert [g.state.heal_cost(s) for s in range(1, 6)] == [0, 1, 1, 4, 5]


@pytest.mark.parametrize("rules, expected", [
    # Guardian: R1 Ann 1, Bo 2; R2 Cy 5; R3 7 < 8 fails: Bo's 5 heals 3+2 = $5, Ann's 2 $1.
    # Ann 7+1-1 = 7, Bo 3+2-5 = 0, Cy 4+5 = 9.
    (BASE, [7, 0, 9]),
    # none: Bo's 5 heals $3: Bo 3+2-3 = 2.
    (NONE, [7, 2, 9]),
])
def test_guardian_heal_cost_plus_2_in_cleanup(rules, expected):
    """§7 The Guardian: strength 4 and 5 heal cost +$2 (R6.1 cleanup)."""
    g = make_game(rooms=STANDARD, lords=["guardian"], rules=rules)
    assert gold(g) == [7, 3, 4]
    play(g, BEHOLDER_MOVES)
    assert round_gold(g, 1) == expected
    healed = {e["player"]: e["cost"] for e in events(g, "healed") if e["round"] == 1}
    assert healed == ({0: 1, 1: 5} if rules is BASE else {0: 1, 1: 3})


def test_guardian_heal_cost_4_also_plus_2():
    """§7 The Guardian, strength 4: a failed room with Cy's 4 costs her 2+2 = $4."""
    g = make_game(rooms=STANDARD, lords=["guardian"], rules=BASE)
    play(g, [
        "Ann: place 3 1", "Bo: place 4 1",   # R1 7 >= 4: Ann 1, Bo 2
        "Cy: place 5 2", "Cy: place 4 3",    # R2 Cy5 alone so far, R3 Cy4
        "Bo: place 3 2",                     # R2 = 8 locks
        "Ann: place 2 3",                    # R3 = 6 < 8 fails
    ])
    # R1 7 >= 4: tr 3 -> Ann 1, Bo 2. R2 8 >= 6: tr 5 -> Cy 2+1 (5 > 3), Bo 2.
    # R3 6 < 8 fails: Cy's 4 costs 2+2 = 4, Ann's 2 costs 1.
    # Ann 7+1-1 = 7, Bo 3+2+2 = 7, Cy 4+3-4 = 3.
    assert round_gold(g, 1) == [7, 7, 3]


# ----------------------------------------------------------------------------- Naughty Kid
NAUGHTY_MOVES = [
    "Ann: place 3 1",   # R1 = 3
    "Bo: place 3 1",    # R1 = 3+3 = 6 locks, equal strengths
    "Cy: place 4 2",    # R2 = 4
    "Cy: place 5 3",    # R3 = 5
    "Bo: place 5 3",    # R3 = 10 locks, equal strengths
    "Ann: place 2 2",   # R2 = 6, not equal
]


@pytest.mark.parametrize("rules, expected", [
    # Naughty Kid: R1 6 >= 4 equal: tr 3+3 = 6: 3/3. R2 6 >= 6 not equal: tr 5: Ann 2, Cy 2+1.
    # R3 10 >= 8 equal: tr 10+3 = 13: 6/6, remainder 1 to the bank (R5.2 tie).
    # Ann 7+3+2 = 12, Bo 3+3+6 = 12, Cy 4+3+6 = 13.
    (ALL, [12, 12, 13]),
    # none: R1 tr 3: 1/1 + 1 to bank; R2 Ann 2, Cy 3; R3 5/5. Ann 10, Bo 9, Cy 12.
    (NONE, [10, 9, 12]),
])
def test_naughty_kid_equal_strengths_plus_3(rules, expected):
    """§7 The Naughty Kid: a room whose two adventurers are equally strong: treasure +$3."""
    g = make_game(rooms=STANDARD, lords=["naughty_kid"], rules=rules)
    play(g, NAUGHTY_MOVES)
    assert round_gold(g, 1) == expected
    g.state.check_invariants()


# ----------------------------------------------------------------------------- Caveman
def test_R7_2_caveman_first_changes_nothing_in_round_1():
    """R7.2 (revised): the Caveman acts in the start phase, and round 1 has none (R3.1): as
    round 1's lord he changes nothing and the setup exhaust choice (R2.4) stands.
    Ann exhausted 4,5 ($7), Bo 1,2 ($3), Cy 2,3 ($4): hands stay {1,2,3}, {3,4,5}, {1,4,5}, gold
    7, 3, 4, and no flip is logged."""
    g = make_game(rooms=STANDARD, lords=["caveman", "beholder", "red_dragon"], rules=ALL)
    assert g.state.round == 0 and g.state.lord.id == "caveman"
    assert gold(g) == [7, 3, 4]
    for name, hand in (("Ann", {1, 2, 3}), ("Bo", {3, 4, 5}), ("Cy", {1, 4, 5})):
        assert active(g, name) == hand, name
        assert exhausted(g, name) == {1, 2, 3, 4, 5} - hand, name
    assert not [e for e in g.log if e.get("kind") == "flipped"]
    assert g.why_illegal("Ann: place 1 1") is None  # her 1 is active: no flip exhausted it
    assert "exhausted" in g.why_illegal("Ann: place 4 1")  # her 4 stays exhausted from setup
    g.state.check_invariants()


def test_caveman_without_effects_keeps_setup_hands():
    """R7.4 lords="none": no flip."""
    g = make_game(rooms=STANDARD, lords=["caveman"], rules=NONE)
    assert active(g, "Ann") == {1, 2, 3} and active(g, "Bo") == {3, 4, 5}
    assert active(g, "Cy") == {1, 4, 5}


@pytest.mark.parametrize("rules, hands", [
    # round 1: Ann plays 3,1 (unplayed 2), Bo 3,4 (unplayed 5), Cy 4,5 (unplayed 1).
    # R6.2 cleanup: Ann active {2}|{4,5}, Bo {5}|{1,2}, Cy {1}|{2,3}.
    # Caveman round 2 start phase: everyone 3,4,5 active.
    (ALL, {"Ann": {3, 4, 5}, "Bo": {3, 4, 5}, "Cy": {3, 4, 5}}),
    (NONE, {"Ann": {2, 4, 5}, "Bo": {1, 2, 5}, "Cy": {1, 2, 3}}),
])
def test_R7_2_caveman_second_flips_in_round_2s_start_phase(rules, hands):
    """R7.2: the Caveman as round 2's lord: that round's start phase makes every 1-2 exhausted
    and every 3-5 active (with lords="none", R7.4, nothing flips)."""
    g = make_game(rooms=STANDARD, lords=["beholder", "caveman", "red_dragon"], rules=rules)
    play(g, ["Ann: place 3 1", "Bo: place 3 2", "Cy: place 4 3", "Cy: place 5 3",
             "Bo: place 4 2", "Ann: place 1 1"])
    assert g.state.round == 1  # round 2 (0-based 1) has started
    for name, hand in hands.items():
        assert active(g, name) == hand, name
        assert exhausted(g, name) == {1, 2, 3, 4, 5} - hand, name
    assert gold(g) == round_gold(g, 1)  # the flip moves no gold


# ----------------------------------------------------------------------------- Bigfun King
BIGFUN_MOVES = [
    "Ann: place 3 3",   # R3 = 3
    "Bo: place 3 3",    # R3 = 6: >= 9-3 = 6 locks under Bigfun King (R7.1)
]


def test_bigfun_king_lowers_last_room_lock_threshold_by_3():
    """§7 Bigfun King + R7.1: the last room (Lv3) locks at 9-3 = 6."""
    g = make_game(rooms=STANDARD, lords=["bigfun_king"], rules=ALL)
    assert [g.state.lock_threshold(i) for i in range(3)] == [5, 7, 6]
    play(g, BIGFUN_MOVES)
    assert g.state.locked[2] is True
    assert "locked" in g.why_illegal("Cy: bump 4 3a")


def test_bigfun_king_without_effects_last_room_unlocked():
    g = make_game(rooms=STANDARD, lords=["bigfun_king"], rules=NONE)
    play(g, BIGFUN_MOVES)
    assert g.state.locked[2] is False
    assert g.why_illegal("Cy: bump 4 3a") is None


@pytest.mark.parametrize("rules, expected", [
    # Bigfun: R1 Bo4+Ann2 = 6 >= 4: tr 3: Ann 1, Bo 1+1. R2 Cy alone 5. R3 6 >= 8-3 = 5:
    # tr 10-5 = 5: Ann 3 & Bo 3 equal: 2/2, remainder to bank. Ann 7+1+2 = 10, Bo 3+2+2 = 7,
    # Cy 4+5 = 9.
    (ALL, [10, 7, 9]),
    # none: R3 6 < 8 fails: Ann 3 -> $1, Bo 3 -> $1. Ann 7+1-1 = 7, Bo 3+2-1 = 4, Cy 9.
    (NONE, [7, 4, 9]),
])
def test_bigfun_king_last_room_defence_minus_3_treasure_minus_5(rules, expected):
    """§7 Bigfun King: the last room's defence -3 and treasure -$5."""
    g = make_game(rooms=STANDARD, lords=["bigfun_king"], rules=rules)
    play(g, BIGFUN_MOVES + ["Cy: place 4 2", "Cy: place 5 2", "Bo: place 4 1", "Ann: place 2 1"])
    assert round_gold(g, 1) == expected


def test_bigfun_king_treasure_floored_at_0_r5_3():
    """§7 Bigfun King + R5.3: a last room Lv1 (defence 5, treasure 4): defence 2, lock
    threshold 5-3 = 2, treasure 4-5 = -1 -> 0."""
    rooms = [RoomCard(1, 4, 3), RoomCard(1, 3, 2), RoomCard(1, 5, 4)]  # all Lv1: deal order
    g = make_game(rooms=rooms, lords=["bigfun_king"], rules=ALL)
    assert g.state.lock_threshold(2) == 2
    play(g, [
        "Ann: place 3 1",   # R1 = 3
        "Bo: place 3 2",    # R2 = 3
        "Cy: place 4 3",    # R3 = 4 >= 2 locks with one adventurer
    ])
    assert g.state.locked[2] is True
    play(g, [
        "Cy: place 5 1",    # R1 = 8 locks
        "Bo: place 4 2",    # R2 = 7 locks
        "Ann: place 2 3",   # free slot of the locked R3 (R4.3 ruling): R3 = 6
    ])
    # R1 8 >= 4: tr 3: Ann 1, Cy 1+1. R2 7 >= 3: Bo alone 2. R3 6 >= 2: tr 0.
    # Ann 7+1 = 8, Bo 3+2 = 5, Cy 4+2 = 6.
    assert round_gold(g, 1) == [8, 5, 6]
    r3 = [e for e in events(g, "cleared") if e["round"] == 1 and e["room"] == 3]
    assert r3 and r3[0]["treasure"] == 0


# ----------------------------------------------------------------------------- Hello Duck
HELLO_ROOMS = [RoomCard(1, 3, 2), RoomCard(2, 5, 4), RoomCard(2, 6, 5), RoomCard(3, 8, 10)]
HELLO_MOVES = [  # 4 players, snake Ann Bo Cy Di Di Cy Bo Ann
    "Ann: place 3 1",   # R1 = 3
    "Bo: place 3 2",    # R2 = 3
    "Cy: place 4 3",    # R3 = 4
    "Di: place 4 4",    # R4 = 4
    "Di: place 5 3",    # R3 = 9 locks
    "Cy: place 5 4",    # R4 = 9 locks
    "Bo: place 4 2",    # R2 = 7 locks
    "Ann: place 2 1",   # R1 = 5 locks
]


@pytest.mark.parametrize("rules, expected", [
    # Di exhausts 1,3: $2+0+1 = $3, active 2,4,5.  Hello Duck, 4 rooms: only R3 and R4 change.
    # R1 5 >= 3: Ann 2. R2 7 >= 5: Bo 4. R3 9 >= 6: tr 5+4 = 9: Cy(4) 4, Di(5) 4+1.
    # R4 9 >= 8: tr 10+4 = 14: 7/7.  Ann 7+2 = 9, Bo 3+4 = 7, Cy 4+4+7 = 15, Di 3+5+7 = 15.
    (ALL, [9, 7, 15, 15]),
    # none: R3 tr 5: Cy 2, Di 3; R4 tr 10: 5/5. Ann 9, Bo 7, Cy 4+2+5 = 11, Di 3+3+5 = 11.
    (NONE, [9, 7, 11, 11]),
])
def test_hello_duck_last_two_rooms_plus_4(rules, expected):
    """§7 Hello Duck: the last two rooms' treasure +$4 (rooms 3 and 4 of 4)."""
    g = make_game(n=4, rooms=HELLO_ROOMS, lords=["hello_duck"], rules=rules)
    assert gold(g) == [7, 3, 4, 3]
    play(g, HELLO_MOVES)
    assert round_gold(g, 1) == expected


# ----------------------------------------------------------------------------- Boardgame Lord
BOARDGAME_EXHAUST = {"Ann": (4, 5), "Bo": (1, 2), "Cy": (4, 5)}  # $7, $3, $7
BOARDGAME_MOVES = [
    "Ann: place 1 1",   # R1 = 1
    "Bo: place 3 1",    # R1 = 4
    "Cy: place 1 2",    # R2 = 1
    "Cy: place 3 2",    # R2 = 4
    "Bo: place 4 3",    # R3 = 4
    "Ann: place 3 3",   # R3 = 7
]


@pytest.mark.parametrize("rules, expected", [
    # placed totals: Ann 1+3 = 4, Bo 3+4 = 7, Cy 1+3 = 4 -> Ann and Cy tie lowest: +$3 each
    # (R7.3). R1 4 >= 4: tr 3: Ann(1) 1, Bo(3) 1+1. R2 4 < 6: R2, R3 fail. Heal: Cy 1,3 ->
    # 0+1 = 1; Bo 4 -> 2; Ann 3 -> 1.  Ann 7+3+1-1 = 10, Bo 3+2-2 = 3, Cy 7+3-1 = 9.
    (ALL, [10, 3, 9]),
    # none: Ann 7+1-1 = 7, Bo 3, Cy 7-1 = 6.
    (NONE, [7, 3, 6]),
])
def test_boardgame_lord_pays_every_tied_lowest_player(rules, expected):
    """§7 Boardgame Lord + R7.3: lowest placed total gains $3 as resolution starts; every
    tied player is paid."""
    g = make_game(rooms=STANDARD, lords=["boardgame_lord"], rules=rules,
                  exhaust=BOARDGAME_EXHAUST)
    assert gold(g) == [7, 3, 7]
    play(g, BOARDGAME_MOVES)
    assert round_gold(g, 1) == expected
    bonus = [(e["player"], e["gold"]) for e in events(g, "bonus") if e["round"] == 1]
    assert bonus == ([(0, 3), (2, 3)] if rules is ALL else [])


def test_boardgame_lord_single_lowest_player():
    """§7 Boardgame Lord: one lowest player (Bo 3+4 = 7 is not lowest; Ann 1+2 = 3 is)."""
    g = make_game(rooms=STANDARD, lords=["boardgame_lord"], rules=ALL,
                  exhaust=BOARDGAME_EXHAUST)
    play(g, [
        "Ann: place 1 1",   # R1 = 1
        "Bo: place 3 1",    # R1 = 4
        "Cy: place 2 2",    # R2 = 2
        "Cy: place 3 2",    # R2 = 5
        "Bo: place 4 3",    # R3 = 4
        "Ann: place 2 3",   # R3 = 6
    ])
    # totals Ann 3, Bo 7, Cy 5 -> Ann +3. R1 4 >= 4: Ann 1, Bo 2. R2 5 < 6: all below fail.
    # Heal: Cy 2,3 -> 1+1 = 2; Bo 4 -> 2; Ann 2 -> 1.
    # Ann 7+3+1-1 = 10, Bo 3+2-2 = 3, Cy 7-2 = 5.
    assert round_gold(g, 1) == [10, 3, 5]


# ----------------------------------------------------------------------------- option R7.4
def test_lord_pool_options_r7_4():
    """R7.4: 'base' draws from the six base lords, 'all' from eleven; 'none' still draws base
    lords to count rounds."""
    from dungeon_guilds.lords import lord_pool

    assert lord_pool("base") == BASE_LORDS
    assert lord_pool("all") == ALL_LORDS
    assert lord_pool("none") == BASE_LORDS
    assert Rules(lords="none").lord_effects is False


def test_promo_lord_under_base_option_is_refused():
    """R7.4: lords='base' means base lords only. A promo lord handed to such a game is refused
    (the record would otherwise say 'base' for a game in which the Caveman changed the hands);
    under 'all' the same lord plays."""
    with pytest.raises(LordError, match=r"lords\[0\]: caveman is a promo lord, but rules.lords is 'base'"):
        make_game(rooms=STANDARD, lords=["caveman"], rules=BASE)
    make_game(rooms=STANDARD, lords=["caveman"], rules=Rules(lords="all"))
