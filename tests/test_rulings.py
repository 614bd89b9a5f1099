"""The rulings docs/rules.md writes down, each checked against the engine with a hand-computed
scenario: R4.5, R4.6, R7.5, R8.1, R10.2 (the engine already followed them), and R9.5 (the points
the French summary leaves unstated, listed by ``differences()`` and ``rules --json``).

Numbers come from the reference deck restated in tests/scenario.py (heal 1:$0 2:$1 3:$1 4:$2
5:$3; lock Lv1 5, Lv2 7, Lv3 9); arithmetic in the comments.
"""

from __future__ import annotations

import json

from dungeon_guilds import RoomCard, Rules
from dungeon_guilds.cli import main
from dungeon_guilds.effects import PlacementBan
from dungeon_guilds.payout import NPC
from dungeon_guilds.rules import EDITION_SILENCES, RULINGS, differences, unstated_in_fr
from dungeon_guilds.workshop.lord_edit import make_lord
from scenario import L1, L2, L3, events, exhausted, gold, hand, make_game, play, room, snapshot


def test_R4_5_the_adventurer_taken_back_by_a_swap_is_active_again():
    """R4.5: replacing your own adventurer costs $1 and the one taken back is active again, so
    it can be placed again in the same round. Every player exhausted 4,5: $7, hands {1,2,3}."""
    g = make_game(3, rooms=[L1(), L1(), L1()])
    play(g, ["Ann: place 1 1", "Bo: place 1 2", "Cy: place 1 3", "Cy: place 2 3",
             "Bo: place 2 2", "Ann: swap 3 1a"])      # Ann pays $1: $7 -> $6
    assert room(g, 1) == [("Ann", 3), None]
    assert hand(g, "Ann") == [1, 2] and exhausted(g, "Ann") == [4, 5]  # her 1 is back, active
    assert gold(g)["Ann"] == 6
    assert g.why_illegal("Ann: place 1 1") is None
    play(g, ["Ann: place 1 1"])                      # the 1 taken back goes in again
    assert g.state.round == 1                        # everyone had two placed: round 1 resolved
    # R1 = 3 + 1 = 4 >= 3: Ann takes all $2 (both hers). R2 Bo 1+2 = 3, R3 Cy 1+2 = 3: $2 each.
    assert gold(g) == {"Ann": 8, "Bo": 9, "Cy": 9}


def test_R4_6_no_action_costs_more_gold_than_the_player_has_and_a_refusal_changes_nothing():
    """R4.6: Ann exhausted 1,2 ($2 + $0 + $1 = $3), swaps for $1 ($2 left): a Lv3 bump ($1 to
    the bank + $2 to the replaced player = $3) is refused; a Lv2 bump ($1 + $1 = $2) is not."""
    g = make_game(3, rooms=[L1(), L2(), L3()],
                  exhaust={"Ann": (1, 2), "Bo": (4, 5), "Cy": (4, 5)})
    assert gold(g) == {"Ann": 3, "Bo": 7, "Cy": 7}
    play(g, ["Ann: place 3 1", "Bo: place 1 3", "Cy: place 2 3", "Cy: place 1 2",
             "Bo: place 2 2", "Ann: swap 4 1a"])      # R1 = 4 < 5: unlocked; Ann $3 -> $2
    assert gold(g)["Ann"] == 2
    before = snapshot(g)
    assert g.why_illegal("Ann: bump 5 3a") == "a Lv3 bump costs $3 and you have $2 (R4.6)"
    assert not [m for m in g.legal_moves() if m.startswith("bump 5 3")]
    assert snapshot(g) == before
    play(g, ["Ann: bump 5 2a"])                      # Lv2: $1 to the bank, $1 to Cy
    assert gold(g)["Ann"] == 0 and min(g.state.gold) >= 0


def test_R7_5_a_placement_ban_covers_placing_replacing_another_and_replacing_your_own():
    """R7.5: the Succubus's ban (here a workshop lord banning strength 5, so that a banned
    adventurer could otherwise replace someone) closes every way into a room."""
    no_fives = make_lord("no_fives", "No fives", [PlacementBan((5,))])
    g = make_game(3, rooms=[L1(), L1(), L1()], lords=[no_fives, "beholder", "red_dragon"],
                  rules=Rules(lords="base"), exhaust={"Ann": (1, 2), "Bo": (4, 5), "Cy": (4, 5)})
    play(g, ["Ann: place 3 1", "Bo: place 1 1", "Cy: place 1 2", "Cy: place 2 2",
             "Bo: place 2 3"])                        # R1 Ann3 + Bo1 = 4: full, unlocked
    assert hand(g, "Ann") == [4, 5]
    before = snapshot(g)
    for move in ("Ann: place 5 3", "Ann: bump 5 1b", "Ann: swap 5 1a"):
        assert "forbids strength-5 adventurers this round (R7.5)" in g.why_illegal(move), move
    assert snapshot(g) == before
    assert not [m for m in g.legal_moves() if " 5 " in f" {m} "]
    assert g.why_illegal("Ann: bump 4 1b") is None and g.why_illegal("Ann: swap 4 1a") is None
    # the printed Succubus bans strength 1 the same way
    g = make_game(3, rooms=[L1(), L1(), L1()], lords=["succubus", "beholder", "red_dragon"],
                  rules=Rules(lords="base"))
    assert "forbids strength-1" in g.why_illegal("Ann: place 1 1")


def test_R8_1_an_adventurer_placed_then_replaced_in_the_last_round_counts_as_not_played():
    """R8.1 ruling: Bo's 1, bumped by Ann in the last round and never placed again, counts in
    Bo's tie-break. Rounds 1-2: each player fills their own room. All rooms L1 (3, $2)."""
    g = make_game(3, rooms=[L1()] * 9)
    play(g, ["Ann: place 1 1", "Bo: place 1 2", "Cy: place 1 3",
             "Cy: place 2 3", "Bo: place 2 2", "Ann: place 2 1"])
    play(g, ["Bo: place 3 2", "Cy: place 4 3", "Ann: place 3 1",
             "Ann: place 4 1", "Cy: place 5 3", "Bo: place 5 2"])
    # round 3, Cy starts; hands Ann {1,2,5}, Bo {1,2,4}, Cy {1,2,3}
    assert (hand(g, "Ann"), hand(g, "Bo"), hand(g, "Cy")) == ([1, 2, 5], [1, 2, 4], [1, 2, 3])
    play(g, ["Cy: place 1 3", "Ann: place 1 1", "Bo: place 1 2", "Bo: place 2 2",
             "Ann: bump 2 2a",                        # Bo's 1 goes back to his hand, active
             "Cy: place 2 3", "Bo: place 4 1"])       # R1 = Ann1 + Bo4 = 5
    assert g.is_over
    assert [e["victim"] for e in events(g, "bumped")] == [1]
    # not played in the last round: Ann {5}, Bo {1} (the replaced one), Cy {3}
    assert g.result().tiebreak == (5, 1, 3)


def test_R10_2_npcs_pay_no_heal_costs():
    """R10.2 ruling: NPCs pay no heal costs. NPCs of strength 2 (Lv2 rooms, heal $1 each) in
    rooms 1 and 2; room 1 (defence 7) fails, so every room fails (R5.1). Only the players heal:
    Ann 1,2 -> $1, Bo 1,2 -> $1, Cy 1,2 -> $1; the bank takes $3, not $5."""
    rooms = [L2(7, 5), L2(), L2(), L2()] + [L1()] * 8  # 4 rooms a round with NPCs, 3 rounds
    g = make_game(3, rooms=rooms, lords=["beholder"] * 3, rules=Rules(lords="none", npc=True))
    st = g.state
    assert [(st.slot_owner[j], st.slot_str[j]) for j in (0, 2)] == [(NPC, 2), (NPC, 2)]
    bank_in = g.state.bank_in
    play(g, ["Ann: place 1 1", "Bo: place 1 2", "Cy: place 1 3",
             "Cy: place 2 3", "Bo: place 2 4", "Ann: place 2 4"])
    healed = [e for e in events(g, "healed") if e["round"] == 1]
    assert sorted(e["player"] for e in healed) == [0, 1, 2]
    assert [(e["cost"], e["paid"]) for e in healed] == [(1, 1)] * 3
    assert g.state.bank_in - bank_in == 3
    assert gold(g) == {"Ann": 6, "Bo": 6, "Cy": 6}
    g.state.check_invariants()


def test_R9_5_the_points_the_french_summary_leaves_unstated_are_listed():
    """R9.5: strictly stronger for éjecter, locking, the $0 heal floor, the start-player marker
    and setup are unstated in FR; differences() and `rules --json` list each."""
    r95 = [text for rule, text in EDITION_SILENCES if rule == "R9.5"]
    assert len(r95) == 5 and all("unstated in FR" in text for text in r95)
    said = differences(Rules(), Rules(edition="fr"))
    for text in r95:
        assert f"R9.5: {text}" in said
    assert "R9.5" in dict(RULINGS)
    assert [rule for rule, _ in unstated_in_fr()] == ["R9.2", "R9.3"] + ["R9.5"] * 5


def test_R9_5_and_the_rulings_are_in_rules_json(capsys):
    assert main(["rules", "--json"]) == 0
    listing = json.loads(capsys.readouterr().out)
    unstated = listing["unstated_in_fr"]
    assert [u["rule"] for u in unstated] == ["R9.2", "R9.3"] + ["R9.5"] * 5
    assert all(u["status"] == "unstated in FR" for u in unstated)
    rules = {r["rule"] for r in listing["rulings"]}
    assert {"R4.5", "R4.6", "R7.2", "R7.5", "R8.1", "R9.5", "R10.2"} <= rules
