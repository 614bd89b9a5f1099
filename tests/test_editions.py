"""The French summary's differences (docs/rules.md §9, R9.1-R9.4), ``differences()``, and records that
carry every rule option (lords, teams, NPC, edition).

Default setup (lord_scenarios.py): Ann exhausts 4,5 ($7, active 1,2,3), Bo 1,2 ($3, active
3,4,5), Cy 2,3 ($4, active 1,4,5); snake Ann, Bo, Cy, Cy, Bo, Ann. Rooms R1 L1(4,3),
R2 L2(6,5), R3 L3(8,10). Lock thresholds Lv1 5, Lv2 7, Lv3 9; heal 1:0 2:1 3:1 4:2 5:3.
"""

from __future__ import annotations

import json

import pytest

from dungeon_guilds.cards import DeckError

from dungeon_guilds import RoomCard, Rules, differences, dumps, from_record
from dungeon_guilds.errors import IllegalAction
from dungeon_guilds.payout import NPC

from lord_scenarios import STANDARD, events, gold, make_game, play, room, round_gold

ZH = Rules(lords="none", edition="zh")
FR = Rules(lords="none", edition="fr")

NON_FULL_SETUP = [
    "Ann: place 1 1",   # R1 = Ann1 only: not full
    "Bo: place 3 2",    # R2 = 3
    "Cy: place 4 3",    # R3 = 4
    "Cy: place 5 3",    # R3 = 9 locks
    "Bo: place 4 2",    # R2 = 7 locks
]


def test_zh_swap_in_a_non_full_room_allowed():
    """R4.5 (zh): replace your own adventurer in an unlocked room; $1 to the bank."""
    g = make_game(rooms=STANDARD, lords=["beholder"] * 3, rules=ZH)
    play(g, NON_FULL_SETUP)
    assert "swap 2 1a" in g.legal_moves() and "swap 3 1a" in g.legal_moves()
    play(g, ["Ann: swap 2 1a"])
    assert gold(g) == [6, 3, 4]          # Ann 7 - 1
    assert room(g, 1) == [(0, 2)]
    assert 1 in {s for s in (1, 2, 3) if g.state.active[0] >> s & 1}  # the 1 is back, active


def test_fr_swap_in_a_non_full_room_refused_r9_1():
    """R9.1 (fr): replacing your own adventurer also needs the room to be full."""
    g = make_game(rooms=STANDARD, lords=["beholder"] * 3, rules=FR)
    play(g, NON_FULL_SETUP)
    reason = g.why_illegal("Ann: swap 2 1a")
    assert reason is not None and "R9.1" in reason and "full" in reason
    with pytest.raises(IllegalAction):
        g.push("Ann: swap 3 1a")
    assert not [m for m in g.legal_moves() if m.startswith("swap")]
    assert gold(g) == [7, 3, 4]


FULL_ROOM_MOVES = [
    "Ann: place 1 1",   # R1 = 1
    "Bo: place 3 2",    # R2 = 3
    "Cy: place 1 1",    # R1 = Ann1 + Cy1 = 2: full, unlocked
    "Cy: place 5 3",    # R3 = 5
    "Bo: place 4 3",    # R3 = 9 locks
    "Ann: swap 3 1a",   # allowed in both editions (R1 full and unlocked): Ann 7-1 = 6
    "Ann: place 2 2",   # Ann has one placed still: acts again. R2 = Bo3 + Ann2 = 5
]


@pytest.mark.parametrize("rules", [ZH, FR], ids=["zh", "fr"])
def test_swap_in_a_full_unlocked_room_allowed_in_both_editions(rules):
    """R4.5 / R9.1: a full, unlocked room allows a swap in both editions.
    R1 4 >= 4: tr 3: Ann(3) 1+1, Cy(1) 1. R2 5 < 6: R2 and R3 fail. Heal: Bo 3,4 -> 1+2 = 3
    (has 3): 0; Ann 2 -> 1; Cy 5 -> 3. Ann 6+2-1 = 7, Bo 0, Cy 4+1-3 = 2."""
    g = make_game(rooms=STANDARD, lords=["beholder"] * 3, rules=rules)
    play(g, FULL_ROOM_MOVES[:5])
    assert g.why_illegal("Ann: swap 3 1a") is None
    play(g, FULL_ROOM_MOVES[5:])
    assert round_gold(g, 1) == [7, 0, 2]


def test_fr_swap_still_refused_in_a_locked_full_room():
    """R4.5 + R9.1: full is not enough; the room must be unlocked too."""
    g = make_game(rooms=STANDARD, lords=["beholder"] * 3, rules=FR)
    play(g, ["Ann: place 2 1", "Bo: place 3 1"])  # R1 = 5 >= 5 locks
    play(g, ["Cy: place 4 2", "Cy: place 5 2", "Bo: place 4 3"])
    assert "locked" in g.why_illegal("Ann: swap 3 1a")


SAME_MOVES = [
    "Ann: place 3 3",   # R3 = 3
    "Bo: place 3 3",    # R3 = 6 < 9: full, unlocked
    "Cy: bump 4 3a",    # Lv3 bump: Cy pays $1 bank + $2 Ann: Cy 4-3 = 1, Ann 7+2 = 9
    "Cy: place 5 2",    # R2 = 5
    "Bo: place 5 2",    # R2 = 10 locks (equal strengths 5, 5)
    "Ann: place 3 1",   # Ann's 3 is back: R1 = 3
    "Ann: place 2 1",   # R1 = 5
]


@pytest.mark.parametrize("rules", [ZH, FR], ids=["zh", "fr"])
def test_fr_bump_costs_and_tie_remainder_as_zh_r9_2_r9_3(rules):
    """R9.3: 'éjecter' costs what R4.4 says (Lv3: $1 bank + $2 to the replaced player);
    R9.2: an equal-strength remainder goes to the bank, as in the Chinese book.
    R1 5 >= 4: Ann alone 3. R2 10 >= 6: tr 5: Cy 2, Bo 2, remainder 1 -> bank (5 = 5).
    R3 Cy4 + Bo3 = 7 < 8: fails: Cy 4 -> $2, Bo 3 -> $1.
    Ann 9+3 = 12, Bo 3+2-1 = 4, Cy 1+2-2 = 1."""
    g = make_game(rooms=STANDARD, lords=["beholder"] * 3, rules=rules)
    play(g, SAME_MOVES[:3])
    assert gold(g) == [9, 3, 1]
    play(g, SAME_MOVES[3:])
    assert round_gold(g, 1) == [12, 4, 1]
    r2 = [e for e in events(g, "cleared") if e["round"] == 1 and e["room"] == 2][0]
    assert r2["to_bank"] == 1


def test_fr_tiebreak_agrees_with_r8_1_r9_4():
    """R9.4: each player keeps exactly one active adventurer unplayed in the last round, so
    "the strongest one not placed" equals the sum of R8.1."""
    g = make_game(rooms=STANDARD, lords=["beholder"] * 3, rules=FR)
    while not g.is_over:
        g.push(g.legal_moves()[0])
    assert g.is_over
    res = g.result()
    assert all(bin(m).count("1") == 1 for m in g.state.unplayed)
    assert res.tiebreak == tuple(max(s for s in range(1, 6) if m >> s & 1)
                                 for m in g.state.unplayed)


# ----------------------------------------------------------------------------- differences()
def test_differences_zh_fr_mentions_r9_1():
    diff = differences(Rules(), Rules(edition="fr"))
    assert diff and any("R9.1" in line for line in diff)
    assert any(line.startswith("edition:") for line in diff)
    back = differences(Rules(edition="fr"), Rules())
    assert any("R9.1" in line for line in back)


def test_differences_of_equal_rules_is_empty():
    assert differences(Rules(), Rules()) == []
    assert differences(Rules(edition="fr", npc=True), Rules(edition="fr", npc=True)) == []


def test_differences_lists_each_changed_option():
    diff = differences(Rules(), Rules(lords="all", teams="2v2", npc=True))
    assert [line.split(":")[0] for line in diff] == ["lords", "teams", "npc"]
    assert not any("R9.1" in line for line in diff)


# ----------------------------------------------------------------------------- records
ALL_OPTIONS = Rules(lords="all", teams="2v2", npc=True, edition="fr")


def _record_game():
    """4 players, 2v2, NPCs (5 rooms a round, 20 cards), promo lords, French edition.
    Round 1 rooms R1 L1(3,3), R2 L2(6,5), R3 L2(5,4), R4 L3(8,10), R5 L3(9,12); NPCs
    R1 (1), R2 (2). Di exhausts 1,3 ($3, active 2,4,5)."""
    rooms = [RoomCard(1, 3, 3), RoomCard(2, 6, 5), RoomCard(2, 5, 4), RoomCard(3, 8, 10),
             RoomCard(3, 9, 12)] + [RoomCard(1, 3, 2)] * 15
    g = make_game(n=4, rooms=rooms, lords=["hello_duck", "caveman", "guardian", "boardgame_lord"],
                  rules=ALL_OPTIONS)
    play(g, [
        "Ann: place 3 2",   # R2 = NPC2 + Ann3 = 5: full
        "Bo: bump 4 2a",    # Bo pays $1 (NPC); NPC -> R3, strength 2. R2 = Bo4+Ann3 = 7 locks
        "Cy: place 4 4",    # R4 = 4
        "Di: place 5 4",    # R4 = 9 locks
        "Di: place 4 5",    # R5 = 4
    ])
    return g


def test_record_with_every_option_round_trips():
    """Records carry lords, teams, NPC and edition; to_record -> dumps -> from_record ->
    to_record is identical."""
    g = _record_game()
    assert gold(g) == [7, 2, 4, 3]
    assert room(g, 3) == [(NPC, 2)]
    rec = g.to_record()
    assert rec["rules"] == {"lords": "all", "teams": "2v2", "npc": True, "edition": "fr"}
    assert rec["lords"] == ["hello_duck", "caveman", "guardian", "boardgame_lord"]
    assert len(rec["rooms"]) == 20
    text = dumps(rec)
    again = from_record(text)
    assert again.rules == ALL_OPTIONS
    assert again.to_record() == rec
    assert dumps(again.to_record()) == text
    assert again.state.gold == g.state.gold
    assert again.state.slot_owner == g.state.slot_owner
    assert json.loads(text) == rec


def test_record_of_a_finished_game_with_every_option_round_trips():
    g = _record_game()
    while not g.is_over:
        g.push(g.legal_moves()[-1])
        g.state.check_invariants()
    rec = g.to_record()
    again = from_record(dumps(rec))
    assert again.is_over and again.to_record() == rec
    assert again.result() == g.result()
    assert g.result().team_gold == (g.result().gold[0] + g.result().gold[2],
                                   g.result().gold[1] + g.result().gold[3])


def test_vampire_floor_record_with_a_custom_deck_round_trips():
    """A record carries the level ranges, so a game on a deck with a Lv1 treasure-$1 card
    replays."""
    from lord_scenarios import low_treasure_deck

    g = make_game(rooms=[RoomCard(1, 3, 1), RoomCard(2, 5, 5), RoomCard(3, 7, 8)],
                  lords=["vampire_lord"], rules=Rules(lords="base"), deck=low_treasure_deck())
    play(g, ["Ann: place 3 1"])
    rec = g.to_record()
    assert from_record(dumps(rec)).to_record() == rec


def test_a_game_refuses_a_card_outside_its_backs_ranges():
    """R1.2: the back of a card shows its level's ranges; a front outside them (a Lv1 treasure
    of 1 when the back says $2-4) is refused up front, naming the card — so every game's
    record replays."""
    with pytest.raises(DeckError, match=r"rooms\[0\]: Lv1 defence 3 / treasure 1 is outside"):
        make_game(rooms=[RoomCard(1, 3, 1)] + STANDARD[1:], lords=["vampire_lord"],
                  rules=Rules(lords="base"))
