"""R4.7 (ruling): a player with fewer than two adventurers placed but no legal action passes;
the phase ends when nobody who still needs to act can act. With the printed lords this cannot
happen, so the scenarios use workshop lords composed from the effect vocabulary."""

from __future__ import annotations

from dungeon_guilds import Game, Rules
from dungeon_guilds.effects import PlacementBan
from dungeon_guilds.lords import Lord
from scenario import L1, L2

BAN_ALL = Lord("wall", "The Wall", "牆", "Nobody may enter.", "無人能進入", (PlacementBan((1, 2, 3, 4, 5)),))
BAN_LOW = Lord("snob", "The Snob", "勢利鬼", "No strength 1-3.", "", (PlacementBan((1, 2, 3)),))
PLAIN = Lord("plain", "Plain", "平凡", "", "", ())


def game(lords, exhaust):
    rooms = [L1(4, 3), L2(6, 5), L1(3, 2)] + [L1(3, 2)] * 6
    return Game(["Ann", "Bo", "Cy"], rooms=rooms, lords=lords, rules=Rules(lords="all"),
                exhaust=exhaust)


def test_R4_7_nobody_can_act_so_the_round_resolves_at_once():
    g = game([BAN_ALL, PLAIN, PLAIN], {"Ann": (4, 5), "Bo": (4, 5), "Cy": (4, 5)})
    # Round 1: every adventurer is banned, every player passes, the empty rooms resolve.
    # Room 1 (Lv1, defence 3): total 0 < 3 → it and every room below fail (R5.1);
    # nobody placed anything, so nobody heals (R6.1). Gold stays at setup: $2 + $2 + $3 = $7.
    assert g.state.round == 1
    assert g.state.round_results[0]["cleared"] == 0
    assert g.state.gold == [7, 7, 7]
    passes = [e for e in g.log if e["kind"] == "passed" and e["round"] == 1]
    assert passes and all("R4.7" in e["reason"] for e in passes)


def test_R4_7_a_player_with_only_banned_adventurers_passes_and_the_others_go_on():
    # The Snob bans 1-3. Ann exhausted 4, 5: her hand 1, 2, 3 is all banned → she passes.
    # Bo and Cy exhausted 1, 2: hands 3, 4, 5 → they can place their 4 and 5.
    g = game([BAN_LOW, PLAIN, PLAIN], {"Ann": (4, 5), "Bo": (1, 2), "Cy": (1, 2)})
    assert g.current_name == "Bo"  # Ann (start) was skipped
    g.push("place 4 1")  # Bo
    assert g.current_name == "Cy"
    g.push("place 5 1")  # Cy: room 1 total 9 ≥ 5 → locked
    assert g.current_name == "Cy"  # snake: Cy acts again (Ann - Bo - Cy - Cy)
    g.push("place 4 2")
    assert g.current_name == "Bo"
    g.push("place 5 2")  # room 2 (the second Lv1 after sorting, R2.3): 4 + 5 = 9 ≥ 5 locks
    # Bo and Cy have two placed, Ann cannot act: the phase ends (R4.7) and round 2 begins.
    assert g.state.round == 1
    # Rooms sorted by level (R2.3): L1(4,$3), L1(3,$2), L2(6,$5).
    # Room 1 (def 4) total 9 clears $3: 1 each, remainder 1 to Cy's 5 (R5.2) → Bo +1, Cy +2.
    # Room 2 (def 3) total 9 clears $2: 1 each, no remainder → Bo +1, Cy +1.
    # Room 3 (def 6) is empty: 0 < 6 fails; nobody is in it, so nobody heals (R6.1).
    # Setup gold: Ann $2+$2+$3 = $7; Bo and Cy $2+$0+$1 = $3.
    assert g.state.gold == [7, 3 + 1 + 1, 3 + 2 + 1]
