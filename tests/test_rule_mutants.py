"""Tests that kill the mutants mutation testing found alive in the rule modules (issue 54,
item 3; `make mutation`, docs/architecture.md "Mutation testing"). Each cites its rule."""

from __future__ import annotations

from dungeon_guilds.payout import NPC, split


def test_R5_2_a_lone_adventurer_takes_the_whole_treasure():
    """A cleared room with one adventurer (possible after R4.7 ends dispatch early): its owner
    takes it all (R5.2, one owner); a lone NPC's gold stays in the bank (R10.2)."""
    assert split(5, [(0, 3)]) == ({0: 5}, 0)
    assert split(4, [(2, 1)]) == ({2: 4}, 0)
    assert split(3, [(NPC, 2)]) == ({}, 3)
    assert split(7, []) == ({}, 7)


def test_R5_2_R10_2_npc_half_and_the_tied_remainder_both_go_to_the_bank():
    """An NPC beside a player of equal strength, odd treasure: the NPC's half returns to the
    bank (R10.2) and so does the remainder of the tie (R5.2) — both, added together."""
    assert split(5, [(NPC, 2), (0, 2)]) == ({0: 2}, 3)
    assert split(5, [(1, 3), (NPC, 3)]) == ({1: 2}, 3)
    assert split(7, [(NPC, 3), (0, 2)]) == ({0: 3}, 4)  # the NPC is stronger: it wins the rest
    assert split(7, [(0, 4), (NPC, 2)]) == ({0: 4}, 3)
