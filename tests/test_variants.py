"""Hand-computed scenarios for the variants of the Chinese book (docs/rules.md §10): teams (R10.1) and
NPC adventurers (R10.2).

Teams: full games are played so that the result is known. Rounds other than the interesting
one are "solo" rounds: every player puts both adventurers alone into the room numbered
seat+1, all rooms being Lv1 (defence 3, treasure 2), so every player clears and gains $2
(any two adventurers total at least 1+2 = 3 >= 3; no failed room, no heal cost).
Lord effects are off (lords="none") in the team games so that only the variant matters.
"""

from __future__ import annotations

import pytest

from dungeon_guilds import Game, RecordError, RoomCard, Rules, RulesError, from_record
from dungeon_guilds.lords import LordError, get_lord
from dungeon_guilds.payout import NPC

from lord_scenarios import (
    NAMES, active, events, gold, make_game, play, room, round_gold, solo_round,
)

SOLO = RoomCard(1, 3, 2)


# =============================================================================== teams (R10.1)
def test_team_seats():
    """R10.1: 2v2 partners opposite (0+2, 1+3); 3v3 alternate (0,2,4 / 1,3,5); 2v2v2 partners
    opposite (0+3, 1+4, 2+5)."""
    assert Rules(teams="2v2").team_of(4) == (0, 1, 0, 1)
    assert Rules(teams="3v3").team_of(6) == (0, 1, 0, 1, 0, 1)
    assert Rules(teams="2v2v2").team_of(6) == (0, 1, 2, 0, 1, 2)
    assert Rules().team_of(4) is None


# ------------------------------------------------------------------ 2v2
# Setup: Ann 4,5 -> $7 (active 1,2,3); Bo 1,2 -> $3 (3,4,5); Cy 2,3 -> $4 (1,4,5);
# Di 1,3 -> $3 (2,4,5). Teams: Ann+Cy (team 0), Bo+Di (team 1).
ROUND1_2V2 = [RoomCard(1, 4, 3), RoomCard(2, 6, 5), RoomCard(2, 6, 6), RoomCard(3, 8, 10)]
ROUND1_2V2_MOVES = [  # snake from Ann: Ann Bo Cy Di Di Cy Bo Ann (Ann Ann ...)
    "Ann: place 3 2",   # R2 = 3
    "Bo: place 3 2",    # R2 = 6 < 7: full, unlocked
    "Cy: bump 4 2a",    # Cy bumps her PARTNER Ann's 3: Lv2 costs $1 bank + $1 Ann (R10.1)
    "Di: place 4 4",    # R4 = 4
    "Di: place 5 4",    # R4 = 9 locks
    "Cy: place 5 3",    # R3 = 5
    "Bo: place 4 3",    # R3 = 9 locks
    "Ann: place 3 1",   # Ann has 0 placed (her 3 came back): R1 = 3
    "Ann: place 2 1",   # and acts again: R1 = 5
]
# Round 1 resolution: R1 5 >= 4: Ann alone 3. R2 Cy4 + Bo3 = 7 >= 6: tr 5: Cy 2+1, Bo 2.
# R3 Cy5 + Bo4 = 9 >= 6: tr 6: 3/3. R4 Di 9 >= 8: Di 10.
# Gold: Ann 7+1+3 = 11; Bo 3+2+3 = 8; Cy 4-2+3+3 = 8; Di 3+10 = 13.
# Cleanup hands (R6.2): Ann played 2,3 -> active {1}|{4,5}; Bo played 3,4 -> {5}|{1,2};
# Cy played 4,5 -> {1}|{2,3}; Di played 4,5 -> {2}|{1,3}.
# Round 2 (start Bo), solo: Ann 4,5; Bo 1,2; Cy 1,2; Di 1,2 -> +2 each: 13, 10, 10, 15.
#   hands after: Ann {1}|{2,3}; Bo {5}|{3,4}; Cy {3}|{4,5}; Di {3}|{4,5}.
# Round 3 (start Cy), solo: Ann 1,2; Bo 3,4; Cy 3,4; Di 4,5 -> +2 each: 15, 12, 12, 17.
#   hands after: Ann {3}|{4,5}; Bo {5}|{1,2}; Cy {5}|{1,2}; Di {3}|{1,2}.
# Round 4 (start Di), solo: Ann plays 3,4 (unplayed 5); Bo 1,2 (5); Cy 1,2 (5); Di 1,2 (3).
ROUND2 = {0: (4, 5), 1: (1, 2), 2: (1, 2), 3: (1, 2)}
ROUND3 = {0: (1, 2), 1: (3, 4), 2: (3, 4), 3: (4, 5)}
ROUND4 = {0: (3, 4), 1: (1, 2), 2: (1, 2), 3: (1, 2)}


def _game_2v2(last_round_treasures):
    rooms = ROUND1_2V2 + [SOLO] * 8 + [RoomCard(1, 3, t) for t in last_round_treasures]
    return make_game(n=4, rooms=rooms, lords=["succubus", "vampire_lord", "beholder", "lich_king"],
                     rules=Rules(lords="none", teams="2v2"))


def test_2v2_bumping_a_partner_still_costs():
    """R10.1: all rules unchanged; replacing a partner costs as R4.4 (Lv2: $1 bank + $1)."""
    g = _game_2v2([3, 2, 3, 2])
    play(g, ROUND1_2V2_MOVES[:3])
    assert gold(g) == [8, 3, 2, 3]  # Ann 7+1, Cy 4-1-1
    bump = events(g, "bumped")[-1]
    assert (bump["player"], bump["victim"], bump["fee_bank"], bump["fee_victim"]) == (2, 0, 1, 1)
    assert 3 in active(g, "Ann")
    play(g, ROUND1_2V2_MOVES[3:])
    assert round_gold(g, 1) == [11, 8, 8, 13]


@pytest.mark.parametrize("treasures, team_gold, team_tb, winning, winners", [
    # Last round rooms R1..R4 (Ann, Bo, Cy, Di) treasures 3, 2, 3, 2:
    # Ann 15+3 = 18, Bo 12+2 = 14, Cy 12+3 = 15, Di 17+2 = 19. Teams 18+15 = 33 vs 14+19 = 33:
    # tie -> unplayed strength: Ann 5 + Cy 5 = 10 vs Bo 5 + Di 3 = 8: team 0 (Ann, Cy) wins
    # although Di has the most gold.
    ([3, 2, 3, 2], (33, 33), (10, 8), (0,), (0, 2)),
    # treasures 3, 2, 3, 4: Di 17+4 = 21: teams 33 vs 35: team 1 (Bo, Di) wins on gold.
    ([3, 2, 3, 4], (33, 35), (10, 8), (1,), (1, 3)),
])
def test_2v2_full_game_team_gold_and_tiebreak(treasures, team_gold, team_tb, winning, winners):
    """R10.1: team gold is summed; tie -> teams' summed unplayed strength of the last round."""
    g = _game_2v2(treasures)
    play(g, ROUND1_2V2_MOVES)
    play(g, solo_round(g.names, 1, ROUND2))
    assert round_gold(g, 2) == [13, 10, 10, 15]
    mid = g.result()
    assert mid.team_gold == (23, 25) and mid.winners == () and not mid.finished
    play(g, solo_round(g.names, 2, ROUND3))
    assert round_gold(g, 3) == [15, 12, 12, 17]
    play(g, solo_round(g.names, 3, ROUND4))
    assert g.is_over
    res = g.result()
    assert res.tiebreak == (5, 5, 5, 3)
    assert res.team_gold == team_gold
    assert res.team_tiebreak == team_tb
    assert res.winning_teams == winning
    assert res.winners == winners
    g.state.check_invariants()


# ------------------------------------------------------------------ 3v3
# Seats 0, 2, 4 exhaust 4,5 ($7, active 1,2,3); seats 1, 3, 5 exhaust 1,2 ($3, active 3,4,5).
# Solo rounds only: odd rounds the first group plays 1,2 and the second 4,5; even rounds the
# reverse (R6.2: A1 = {1,2,3}, play 1,2 -> A2 = {3}|{4,5}, play 4,5 -> A3 = {3}|{1,2} ...);
# the unplayed adventurer is always the 3.
def _alternating(n_players, rnd):
    odd = rnd % 2 == 1
    return {s: ((1, 2) if odd else (4, 5)) if s % 2 == 0 else ((4, 5) if odd else (1, 2))
            for s in range(n_players)}


def _exhaust_alternating(names):
    return {name: ((4, 5) if i % 2 == 0 else (1, 2)) for i, name in enumerate(names)}


def test_3v3_alternating_seats_team_gold():
    """R10.1 3v3: seats 0,2,4 vs 1,3,5. Gold: seats 0,2,4 $7 + 6 x $2 = $19; seats 1,3,5
    $3 + 12 = $15. Teams 57 vs 45 -> team 0 wins; winners seats 0, 2, 4."""
    names = NAMES[:6]
    g = make_game(n=6, rooms=[SOLO] * 36, lords=["succubus", "vampire_lord", "beholder",
                  "lich_king", "red_dragon", "guardian"],
                  rules=Rules(lords="none", teams="3v3"), exhaust=_exhaust_alternating(names))
    assert gold(g) == [7, 3, 7, 3, 7, 3]
    for rnd in range(1, 7):
        play(g, solo_round(g.names, (rnd - 1) % 6, _alternating(6, rnd)))
    assert g.is_over
    res = g.result()
    assert res.gold == (19, 15, 19, 15, 19, 15)
    assert res.team_gold == (57, 45)
    assert res.team_tiebreak == (9, 9)  # 3 + 3 + 3 each
    assert res.winning_teams == (0,)
    assert res.winners == (0, 2, 4)


# ------------------------------------------------------------------ 2v2v2
@pytest.mark.parametrize("seat0_last, tbs, winning, winners", [
    # Seat 0 plays 3,4 in round 6 (unplayed 5): team 0 tb 5+3 = 8 > team 1's 3+3 = 6.
    ((3, 4), (8, 6, 10), (0,), (0, 3)),
    # Seat 0 plays 4,5 as usual (unplayed 3): 6 = 6: teams 0 and 1 share (R8.1).
    ((4, 5), (6, 6, 10), (0, 1), (0, 1, 3, 4)),
])
def test_2v2v2_partners_opposite_tiebreak(seat0_last, tbs, winning, winners):
    """R10.1 2v2v2: teams 0+3, 1+4, 2+5. Everyone exhausts 4,5 ($7) and follows the
    alternating pattern (plays 1,2 in odd rounds, 4,5 in even rounds, unplayed 3), gaining $2
    in rounds 1-5: $17 each. Round 6 rooms: treasure 3 for seats 0,1,3,4 and 2 for seats 2,5:
    seats 0,1,3,4 $20, seats 2,5 $19. Teams: 40, 40, 38. In round 6 (hands 3,4,5) seats 2 and
    5 play 3,4 and keep their 5 (team 2 tie-break 10), but gold comes first (R8.1)."""
    names = NAMES[:6]
    rooms = [SOLO] * 30 + [RoomCard(1, 3, t) for t in (3, 3, 2, 3, 3, 2)]
    g = make_game(n=6, rooms=rooms, lords=["succubus", "vampire_lord", "beholder",
                  "lich_king", "red_dragon", "guardian"],
                  rules=Rules(lords="none", teams="2v2v2"),
                  exhaust={name: (4, 5) for name in names})
    for rnd in range(1, 6):
        play(g, solo_round(g.names, (rnd - 1) % 6, {s: (1, 2) if rnd % 2 else (4, 5)
                                                    for s in range(6)}))
    assert round_gold(g, 5) == [17] * 6
    # round 6 hands: {3}|{4,5} for everyone
    last = {0: seat0_last, 1: (4, 5), 2: (3, 4), 3: (4, 5), 4: (4, 5), 5: (3, 4)}
    play(g, solo_round(g.names, 5, last))
    res = g.result()
    assert res.gold == (20, 20, 19, 20, 20, 19)
    assert res.team_gold == (40, 40, 38)
    assert res.team_tiebreak == tbs
    assert res.winning_teams == winning
    assert res.winners == winners


# ------------------------------------------------------------------ invalid combinations
@pytest.mark.parametrize("n, rules", [
    (4, Rules(teams="3v3")),
    (6, Rules(teams="2v2")),
    (4, Rules(teams="2v2v2")),
    (3, Rules(teams="2v2")),
    (5, Rules(teams="3v3")),
    (6, Rules(npc=True)),
])
def test_invalid_combinations_refused(n, rules):
    """R10.1 team sizes; R10.2 NPCs only with fewer than 6 players."""
    with pytest.raises(RulesError):
        rules.check_players(n)
    with pytest.raises(RulesError):
        Game(list(NAMES[:n]), rules=rules, seed=1)


def test_refusal_messages_cite_the_rule():
    with pytest.raises(RulesError, match=r"R10\.1"):
        Rules(teams="3v3").check_players(4)
    with pytest.raises(RulesError, match=r"R10\.2"):
        Rules(npc=True).check_players(6)


@pytest.mark.parametrize("kwargs", [{"teams": "4v4"}, {"lords": "promo"}, {"edition": "en"},
                                    {"npc": "yes"}])
def test_unknown_option_values_refused(kwargs):
    with pytest.raises(RulesError):
        Rules(**kwargs)


def test_team_and_npc_together_is_allowed():
    """2v2 is 4 players, fewer than 6: NPCs are allowed with it."""
    Rules(teams="2v2", npc=True).check_players(4)


def test_unknown_lord_id_refused():
    with pytest.raises(LordError, match="nope"):
        get_lord("nope")
    with pytest.raises(LordError, match="nope"):
        Game(["Ann", "Bo", "Cy"], rooms=[SOLO] * 9, lords=["beholder", "nope", "guardian"])
    g = make_game(rooms=[], lords=["beholder", "guardian", "succubus"])
    rec = g.to_record()
    rec["lords"][1] = "nope"
    with pytest.raises(RecordError, match="nope"):
        from_record(rec)


# =============================================================================== NPC (R10.2)
NPC_RULES = Rules(lords="none", npc=True)


def test_npc_extra_room_and_starting_npcs():
    """R10.2: one extra room each round (3 players -> 4 rooms, 12 cards in all); NPCs in rooms 1
    and 2, as strong as their room's level. Round 1 rooms dealt L2, L1, L3, L2 -> sorted
    L1, L2, L2, L3: NPCs of strength 1 and 2. Round 2 dealt L2, L1, L3, L1 -> L1, L1, L2, L3:
    NPCs of strength 1 and 1."""
    r1 = [RoomCard(2, 6, 5), RoomCard(1, 3, 3), RoomCard(3, 8, 10), RoomCard(2, 5, 4)]
    r2 = [RoomCard(2, 5, 4), RoomCard(1, 3, 2), RoomCard(3, 7, 8), RoomCard(1, 4, 3)]
    g = make_game(rooms=r1 + r2, lords=["beholder"] * 3, rules=NPC_RULES)
    st = g.state
    assert st.rooms_per_round == 4 and st.n_rooms == 4
    assert [c.level for c in st.rooms] == [1, 2, 2, 3]
    assert room(g, 1) == [(NPC, 1)] and room(g, 2) == [(NPC, 2)]
    assert room(g, 3) == [] and room(g, 4) == []
    assert gold(g) == [7, 3, 4]  # NPCs change no setup gold
    # round 1 (rooms R1 L1(3,3), R2 L2(6,5), R3 L2(5,4), R4 L3(8,10)): Ann place 3 3, Bo
    # place 4 3 (R3 = 7 locks), Cy place 4 4, Cy place 5 4 (R4 = 9 locks), Bo place 5 2
    # (R2 = NPC2 + Bo5 = 7 locks), Ann place 2 1 (R1 = NPC1 + Ann2 = 3).
    play(g, ["Ann: place 3 3", "Bo: place 4 3", "Cy: place 4 4", "Cy: place 5 4",
             "Bo: place 5 2", "Ann: place 2 1"])
    assert st.round == 1 and st.n_rooms == 4
    assert st.rooms == [RoomCard(1, 3, 2), RoomCard(1, 4, 3), RoomCard(2, 5, 4), RoomCard(3, 7, 8)]
    assert room(g, 1) == [(NPC, 1)] and room(g, 2) == [(NPC, 1)]
    # R1 3 >= 3: tr 3: NPC 1 (bank), Ann 1+1 (2 > 1). R2 7 >= 6: tr 5: NPC 2 (bank), Bo 2+1
    # (5 > 2). R3 7 >= 5: tr 4: Ann 2, Bo 2. R4 9 >= 8: Cy alone takes 10.
    # Ann 7+2+2 = 11, Bo 3+3+2 = 8, Cy 4+10 = 14.
    assert round_gold(g, 1) == [11, 8, 14]
    assert {e["room"]: e["to_bank"] for e in events(g, "cleared") if e["round"] == 1} == {
        1: 1, 2: 2, 3: 0, 4: 0}
    st.check_invariants()


NPC_B_ROOMS = [RoomCard(1, 3, 3), RoomCard(2, 6, 5), RoomCard(2, 5, 4), RoomCard(3, 8, 10)]


def test_npc_bump_costs_1_to_bank_moves_below_and_locks_the_room_it_enters():
    """R10.2: replacing an NPC (here in a Lv2 room) costs $1 to the bank only; the NPC goes to
    the next room below with a free slot (room 3, even though room 1 also has a free slot),
    takes that room's level as strength, and that room may lock (R4.3)."""
    g = make_game(rooms=NPC_B_ROOMS, lords=["beholder"] * 3, rules=NPC_RULES)
    play(g, [
        "Ann: place 3 2",   # R2 = NPC2 + Ann3 = 5
        "Bo: place 5 3",    # R3 = 5
    ])
    bank_in = g.state.bank_in
    play(g, ["Cy: bump 4 2a"])  # Cy 4 > NPC 2: Cy $4 -> $3, Ann and Bo unchanged
    assert gold(g) == [7, 3, 3]
    assert g.state.bank_in == bank_in + 1
    assert room(g, 2) == [(2, 4), (0, 3)]          # R2 = Cy4 + Ann3 = 7 locks
    assert room(g, 3) == [(1, 5), (NPC, 2)]        # NPC now strength 2 (Lv2): 5+2 = 7 locks
    assert room(g, 1) == [(NPC, 1)]                # not taken from the top
    assert g.state.locked[1] and g.state.locked[2]
    moved = events(g, "npc_moved")[-1]
    assert (moved["from_room"], moved["to_room"], moved["strength"]) == (2, 3, 2)
    play(g, [
        "Cy: place 5 4",    # R4 = 5
        "Bo: place 4 4",    # R4 = 9 locks
        "Ann: place 2 1",   # R1 = NPC1 + Ann2 = 3
    ])
    # R1 3 >= 3: tr 3: NPC 1 -> bank, Ann 1 + remainder 1 (2 > 1) = 2.
    # R2 7 >= 6: tr 5: Cy(4) 2+1, Ann(3) 2. R3 7 >= 5: tr 4: Bo 2, NPC 2 -> bank.
    # R4 9 >= 8: tr 10: Cy 5, Bo 5.  Ann 7+2+2 = 11, Bo 3+2+5 = 10, Cy 3+3+5 = 11.
    assert round_gold(g, 1) == [11, 10, 11]
    to_bank = {e["room"]: e["to_bank"] for e in events(g, "cleared") if e["round"] == 1}
    assert to_bank == {1: 1, 2: 0, 3: 2, 4: 0}
    g.state.check_invariants()


def test_npc_bump_needs_strictly_stronger_and_full_room():
    """R10.2 ruling: an NPC is replaced like any adventurer (strictly stronger, full room)."""
    g = make_game(rooms=NPC_B_ROOMS, lords=["beholder"] * 3, rules=NPC_RULES)
    assert "not full" in g.why_illegal("Ann: bump 3 2a")      # R2 holds only the NPC
    play(g, ["Ann: place 1 2"])                               # R2 = NPC2 + Ann1
    assert g.why_illegal("Bo: bump 3 2a") is None             # 3 > 2, full, unlocked
    g2 = make_game(rooms=NPC_B_ROOMS, lords=["beholder"] * 3, rules=NPC_RULES,
                   exhaust={"Ann": (4, 5), "Bo": (3, 4), "Cy": (2, 3)})  # Bo active 1,2,5
    play(g2, ["Ann: place 3 2"])
    assert "stronger than 2" in g2.why_illegal("Bo: bump 2 2a")


# Wrap-around and heal costs: exhausts Ann 1,2 ($3, active 3,4,5), Bo 4,5 ($7, active 1,2,3),
# Cy 2,3 ($4, active 1,4,5). Rooms R1 L1(3,3), R2 L2(5,5), R3 L2(5,4), R4 L3(7,10).
WRAP_ROOMS = [RoomCard(1, 3, 3), RoomCard(2, 5, 5), RoomCard(2, 5, 4), RoomCard(3, 7, 10)]
WRAP_EXHAUST = {"Ann": (1, 2), "Bo": (4, 5), "Cy": (2, 3)}


def test_npc_bumped_from_last_room_wraps_to_the_top_and_npcs_pay_no_heal():
    """R10.2: an NPC replaced in the last room with free slots only above searches again from
    the first room; NPCs pay no heal costs (R6.1 applies to players only)."""
    g = make_game(rooms=WRAP_ROOMS, lords=["beholder"] * 3, rules=NPC_RULES,
                  exhaust=WRAP_EXHAUST)
    assert gold(g) == [3, 7, 4]
    play(g, [
        "Ann: place 3 3",   # R3 = 3
        "Bo: place 3 3",    # R3 = 6: full
        "Cy: place 1 2",    # R2 = NPC2 + Cy1 = 3: full
        "Cy: bump 4 2a",    # Cy $4 -> $3; NPC: R3 full, R4 free -> R4 slot a, strength 3
    ])
    assert room(g, 4) == [(NPC, 3)]
    assert room(g, 2) == [(2, 4), (2, 1)]
    play(g, [
        "Bo: place 2 4",    # R4 = NPC3 + Bo2 = 5: full
        "Ann: bump 4 4a",   # Ann 4 > 3: Ann $3 -> $2; nothing below R4 -> from the top: R1
    ])
    # The round is over (everyone has two placed): the NPC went from room 4 to room 1 (the
    # first room with a free slot, searching again from the top), at strength 1 (Lv1).
    moved = events(g, "npc_moved")[-1]
    assert (moved["from_room"], moved["to_room"], moved["strength"]) == (4, 1, 1)
    # R1 = NPC1 + NPC1 = 2 < 3: every room fails (R5.1). Heal (players only):
    # Ann 3,4 -> 1+2 = 3 but she has $2: pays 2 (R6.1). Bo 3,2 -> 1+1 = 2: 7-2 = 5.
    # Cy 4,1 -> 2+0 = 2: 3-2 = 1.
    assert round_gold(g, 1) == [0, 5, 1]
    healed = {e["player"]: (e["cost"], e["paid"]) for e in events(g, "healed") if e["round"] == 1}
    assert healed == {0: (3, 2), 1: (2, 2), 2: (2, 2)}
    g.state.check_invariants()
    # Round 2 (start Bo; rooms all L1(3,2): NPCs of strength 1 in R1 and R2). Hands (R6.2):
    # Ann {5}|{1,2}, Bo {1}|{4,5}, Cy {5}|{2,3}. Ann has $0: she cannot pay the $1 of an NPC
    # bump, nor the $1 of a Lv1 bump (R4.6).
    assert room(g, 1) == [(NPC, 1)] and room(g, 2) == [(NPC, 1)]
    play(g, ["Bo: place 1 1", "Cy: place 2 3"])   # R1 = NPC1 + Bo1: full, unlocked
    assert "$1 and you have $0" in g.why_illegal("Ann: bump 5 1a")
    assert "$0" in g.why_illegal("Ann: bump 5 1b")
    assert not [m for m in g.legal_moves() if m.startswith("bump")]


@pytest.mark.parametrize("rules, expected, to_bank", [
    # Bigfun King on the last room (L3 7,10): defence 4, threshold 6, treasure 5.
    # R1 NPC1 + Cy4 = 5 >= 3: tr 3: NPC 1 -> bank, Cy 1+1. R2 Bo5 + Cy1 = 6 >= 5: tr 5:
    # Bo 2+1, Cy 2. R3 Ann3 + Bo4 = 7 >= 5: tr 4: 2/2. R4 NPC3 + Ann2 = 5 >= 4: tr 5: 2/2,
    # remainder to the stronger NPC (3 > 2) -> bank: bank gets 3, Ann 2.
    # Ann 7+2+2 = 11, Bo 3-1+3+2 = 7, Cy 4+2+2 = 8.
    (Rules(lords="all", npc=True), [11, 7, 8], {1: 1, 2: 0, 3: 0, 4: 3}),
    # none: R4 5 < 7 fails: Ann's 2 heals $1; the NPC pays nothing. Ann 7+2-1 = 8, Bo 7, Cy 8.
    (Rules(lords="none", npc=True), [8, 7, 8], {1: 1, 2: 0, 3: 0}),
])
def test_npc_share_and_won_remainder_go_to_the_bank(rules, expected, to_bank):
    """R10.2: NPCs share treasure like players; their share and a remainder they win (as the
    stronger adventurer, R5.2) return to the bank."""
    g = make_game(rooms=WRAP_ROOMS, lords=["bigfun_king"] * 3, rules=rules)
    play(g, [
        "Ann: place 3 3",   # R3 = 3
        "Bo: place 4 3",    # R3 = 7 locks
        "Cy: place 4 1",    # R1 = NPC1 + Cy4 = 5 locks
        "Cy: place 1 2",    # R2 = NPC2 + Cy1 = 3
        "Bo: bump 5 2a",    # Bo $3 -> $2; NPC -> R3 full -> R4, strength 3
        "Ann: place 2 4",   # R4 = NPC3 + Ann2 = 5
    ])
    assert round_gold(g, 1) == expected
    assert {e["room"]: e["to_bank"] for e in events(g, "cleared") if e["round"] == 1} == to_bank
    g.state.check_invariants()


def test_npc_leaves_when_no_free_slot_anywhere():
    """R10.2 ruling: with no free slot in any room the NPC leaves the dungeon.

    In legal play this cannot happen (n+1 rooms hold 2n+2 slots = 2 NPCs + 2n player
    adventurers, so a player who still may act leaves a free slot); the ruling is checked on a
    state whose rooms were filled by hand."""
    g = make_game(rooms=NPC_B_ROOMS, lords=["beholder"] * 3, rules=NPC_RULES)
    st = g.state.copy()
    st.log = []
    for j in range(len(st.slot_owner)):
        if st.slot_owner[j] == -1:
            st.slot_owner[j], st.slot_str[j] = 1, 1
    before = (st.slot_owner[:], st.slot_str[:])
    st.slot_owner[2], st.slot_str[2] = 0, 5  # someone took the NPC's slot in room 2
    st._npc_move(1)
    assert (st.slot_owner[:2], st.slot_owner[3:]) == (before[0][:2], before[0][3:])
    assert NPC not in st.slot_owner[2:3]
    assert [e["kind"] for e in st.log] == ["npc_left"]


def test_npc_gold_is_conserved_over_a_whole_game():
    """§11: with NPCs, after every move, players' gold = bank out - bank in."""
    g = make_game(rooms=NPC_B_ROOMS, lords=["beholder"] * 3, rules=NPC_RULES)
    while not g.is_over:
        moves = g.legal_moves()
        bumps = [m for m in moves if m.startswith("bump")]
        g.push((bumps or moves)[0])
        g.state.check_invariants()
