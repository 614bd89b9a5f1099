"""Dungeon Lords (the Dungeon Lords building notes): orders, NPCs, tax, adventurers, and the contention simulation."""

from __future__ import annotations

import random
from collections import Counter
from fractions import Fraction
from itertools import combinations, product

import pytest

from dungeon_guilds.siblings import dungeon_lords as dl

ORDERS = dl.ORDER_TYPES


class Scripted:
    """A stand-in for random.Random that returns scripted samples and choices."""

    def __init__(self, samples, choices):
        self.samples, self.choices = list(samples), list(choices)

    def sample(self, population, k):
        out = self.samples.pop(0)
        assert len(out) == k and set(out) <= set(population)
        return list(out)

    def choice(self, population):
        out = self.choices.pop(0)
        assert out in population
        return out


# --- structure -------------------------------------------------------------------------------

def test_eight_orders_three_slots():
    assert len(ORDERS) == 8 and len(set(ORDERS)) == 8
    assert dl.SLOTS == 3 and dl.ORDERS_PER_ROUND == 3 and dl.UNAVAILABLE == 2


def test_round_phases():
    assert dl.round_phases(1) == ["new_round", "orders", "production", "end_of_round"]
    assert dl.round_phases(2) == dl.round_phases(3) == [
        "new_round", "orders", "production", "event", "adventurers", "end_of_round"]
    assert dl.round_phases(4)[-1] == "combat" and "event" in dl.round_phases(4)
    with pytest.raises(ValueError):
        dl.round_phases(5)


def test_start_players_two_years():
    assert dl.start_players(4) == [0, 1, 2, 3, 2, 3, 0, 1]  # year 2: passed right
    assert dl.start_players(3) == [0, 1, 2, 0, 1, 2, 0, 1]  # passed left
    assert dl.start_players(2) == [0, 1, 0, 1, 1, 0, 1, 0]  # not passed
    assert Counter(dl.start_players(4)) == {0: 2, 1: 2, 2: 2, 3: 2}


def test_year_two():
    assert dl.productions_per_room(1) == 1 and dl.productions_per_room(2) == 2
    assert dl.trap_cards_drawn(1, 2) == 2 and dl.trap_cards_drawn(2, 2) == 3  # 2 of 1, 3 of 2
    assert dl.trap_cards_drawn(2, 1) == 2
    assert len(dl.YEAR_TWO_CHANGES) >= 6


# --- tax ---------------------------------------------------------------------------------------

def test_tax_rounds_up():
    assert [dl.tax_due(t) for t in range(7)] == [0, 1, 1, 2, 2, 3, 3]
    assert dl.tax_due(3) == 2  # the document's example (line 22)


def test_unpaid_tax_costs_three_points_each():
    r = dl.pay_tax(tiles=7, gold=1)
    assert (r.due, r.paid, r.damage, r.points) == (4, 1, 3, -9)
    assert dl.pay_tax(4, 10).damage == 0


# --- order board -------------------------------------------------------------------------------

def test_top_down_placement_and_no_room():
    board = dl.OrderBoard()
    board.put("gold", 1, dl.NPC)
    assert board.place("gold", "p1") == 0
    assert board.place("gold", "p2") == 2  # slot 2 is taken: the next free slot below
    assert board.place("gold", "p3") is None  # no room: the minion goes on the order card
    assert board.slots["gold"] == ["p1", dl.NPC, "p2"]


def test_resolution_order_top_row_first():
    board = dl.OrderBoard()
    board.place("room", "a")
    board.place("food", "b")
    board.place("food", "c")
    assert board.resolution_order() == [("food", 0, "b"), ("food", 1, "c"), ("room", 0, "a")]


def test_npc_three_players_second_slot():
    rng = random.Random(4)
    for _ in range(50):
        deck = dl.NpcDeck.random(rng)
        before = deck.available()
        board = dl.OrderBoard()
        drawn = dl.place_npcs_3p(board, deck, rng)
        assert len(set(drawn)) == 3 and set(drawn) <= set(before) and len(before) == 5
        for o in ORDERS:
            assert board.slots[o] == ([None, dl.NPC, None] if o in drawn else [None] * 3)
        assert deck.unavailable == frozenset(drawn)  # used cards become unavailable


def test_npc_two_players_as_written_same_orders():
    a = dl.NpcDeck(frozenset({"food", "reputation", "tunnels"}))
    b = dl.NpcDeck(frozenset({"food", "reputation", "tunnels"}))
    # both draw gold+imps in step 1 (slots 2 and 3), both draw room in step 2 (slots 1 and 2)
    rng = Scripted([["gold", "imps"], ["gold", "imps"]], ["room", "room"])
    board = dl.OrderBoard()
    dl.place_npcs_2p(board, (a, b), rng)
    assert board.slots["gold"] == [None, "NPC A", "NPC B"]
    assert board.slots["imps"] == [None, "NPC A", "NPC B"]
    assert board.slots["room"] == ["NPC A", "NPC B", None]
    assert a.unavailable == frozenset({"gold", "imps", "room"})


def test_npc_two_players_as_written_different_orders():
    a = dl.NpcDeck(frozenset({"food", "reputation", "tunnels"}))
    b = dl.NpcDeck(frozenset({"gold", "imps", "traps"}))
    rng = Scripted([["gold", "monster"], ["food", "room"]], ["room", "monster"])
    board = dl.OrderBoard()
    dl.place_npcs_2p(board, (a, b), rng)
    assert board.slots["gold"] == [None, "NPC A", None]
    assert board.slots["food"] == [None, "NPC B", None]
    assert board.slots["room"] == ["NPC A", "NPC B", None]  # A's step 2 above B's step 1
    assert board.slots["monster"] == ["NPC B", "NPC A", None]


def test_npc_two_players_random_invariants():
    rng = random.Random(9)
    for _ in range(200):
        decks = (dl.NpcDeck.random(rng), dl.NpcDeck.random(rng))
        board = dl.OrderBoard()
        a, b = dl.place_npcs_2p(board, decks, rng)
        assert len(set(a)) == len(set(b)) == 3
        minions = [w for o in ORDERS for w in board.slots[o] if w]
        assert len(minions) == 6
        assert all(board.free(o) >= 1 for o in ORDERS)  # NPCs never fill an order


def test_retrieve_orders_cycle():
    played = ["food", "gold", "room"]
    assert dl.retrieve_orders(played) == frozenset({"gold", "room"})
    assert dl.retrieve_orders(played, failed={2}, keep=2) == frozenset({"food", "gold"})
    assert dl.retrieve_orders(played, failed={1, 2}, keep=1) == frozenset({"food", "room"})
    with pytest.raises(ValueError):
        dl.retrieve_orders(played, failed={2}, keep=1)  # card 2 did not fail
    with pytest.raises(ValueError):
        dl.retrieve_orders(played, keep=5)  # no such card


# --- adventurers -------------------------------------------------------------------------------

def test_adventurers_per_round():
    assert [dl.adventurers_per_round(n) for n in (2, 3, 4)] == [3, 3, 4]


def test_reveal_redraws_when_all_equal():
    assert dl.reveal_adventurers([2, 2, 2, 2, 2, 5, 1], 4) == [2, 2, 2, 5]
    assert dl.reveal_adventurers([3, 1, 2], 3) == [1, 2, 3]


def test_deal_least_evil_first_ties_by_order_npc_nicer():
    lords = [dl.DungeonLordsPlayer("A", evil=3, order_position=0), dl.DungeonLordsPlayer("B", evil=1, order_position=1),
             dl.DungeonLordsPlayer("C", evil=3, order_position=2), dl.DungeonLordsPlayer("D", evil=2, order_position=3)]
    assert dl.deal_adventurers(["w1", "w2", "w3", "w4"], lords) == {
        "B": "w1", "D": "w2", "A": "w3", "C": "w4"}
    npc = dl.DungeonLordsPlayer("NPC", evil=dl.npc_evil_before_dealing(1), order_position=9, npc=True)
    two = [dl.DungeonLordsPlayer("P1", evil=2, order_position=0), dl.DungeonLordsPlayer("P2", evil=4, order_position=1), npc]
    assert dl.deal_adventurers(["weak", "mid", "strong"], two) == {
        "NPC": "weak", "P1": "mid", "P2": "strong"}


def test_warrior_pushes_to_the_front():
    party = dl.join_party([], "thief")
    party = dl.join_party(party, "warrior1", warrior=True)
    assert party == ["warrior1", "thief"]
    party = dl.join_party(party, "warrior2", warrior=True)
    assert party == ["warrior2", "warrior1", "thief"]
    assert dl.join_party(["a", "b"], "c") == ["a", "b", "c"]


# --- order contention --------------------------------------------------------------------------

def test_simulation_is_deterministic():
    a = dl.simulate_order_contention(3, years=20, seed=42)
    b = dl.simulate_order_contention(3, years=20, seed=42)
    assert a.chosen == b.chosen and a.no_slot == b.no_slot
    assert sum(a.chosen.values()) == 20 * 4 * 3 * 3


@pytest.mark.parametrize("n", [2, 3, 4])
def test_first_card_cannot_fail_early(n):
    res = dl.simulate_order_contention(n, years=200, seed=1)
    first_possible = {2: 1, 3: 2, 4: 3}[n]  # slots taken before you on card 1 need 3 lords
    for pos in range(first_possible):
        assert res.no_slot.get((pos, 0), 0) == 0


def test_exact_first_card_against_brute_force_3_and_4_players():
    q = Fraction(1, 8)
    # 4 players: every combination of first cards, placed on an empty board
    fails = Counter()
    for cards in product(ORDERS, repeat=4):
        board = dl.OrderBoard()
        for pos, o in enumerate(cards):
            if board.place(o, pos) is None:
                fails[pos] += 1
    assert {p: Fraction(fails[p], 8**4) for p in range(4)} == dl.first_card_no_slot_exact(4)
    # 3 players: every NPC triple (second slots), every first cards
    fails = Counter()
    triples = list(combinations(ORDERS, 3))
    for npc in triples:
        for cards in product(ORDERS, repeat=3):
            board = dl.OrderBoard()
            for o in npc:
                board.put(o, 1, dl.NPC)
            for pos, o in enumerate(cards):
                if board.place(o, pos) is None:
                    fails[pos] += 1
    total = len(triples) * 8**3
    assert {p: Fraction(fails[p], total) for p in range(3)} == dl.first_card_no_slot_exact(3)
    assert dl.first_card_no_slot_exact(4)[3] == q**3


def test_npc_workers_two_players_brute_force():
    """Enumerate every final NPC hand (3 cards, one of them drawn in step 2) for both NPCs,
    build the board with place_npcs_2p and count NPC minions on one fixed order."""
    counts = Counter()
    hands = [(set(t), s1) for t in combinations(ORDERS, 3) for s1 in t]
    for (ha, a1), (hb, b1) in product(hands, hands):
        def deck(hand):
            return dl.NpcDeck(frozenset([o for o in ORDERS if o not in hand][:3]))
        rng = Scripted([sorted(ha - {a1}), sorted(hb - {b1})], [a1, b1])
        board = dl.OrderBoard()
        dl.place_npcs_2p(board, (deck(ha), deck(hb)), rng)
        counts[3 - board.free("food")] += 1
    total = len(hands) ** 2
    assert {c: Fraction(v, total) for c, v in counts.items()} == dl.npc_workers_distribution(2)
    assert dl.first_card_no_slot_exact(2) == {0: 0, 1: Fraction(9, 512)}


def test_simulation_close_to_exact_for_first_card():
    res = dl.simulate_order_contention(2, years=1500, seed=2)
    exact = float(dl.first_card_no_slot_exact(2)[1])
    assert abs(res.rate(position=1, card=0) - exact) < 0.008


def test_policies_run():
    for name in dl.POLICIES:
        res = dl.simulate_order_contention(4, years=5, seed=0, policy=name)
        assert 0 <= res.rate() <= 1
    assert dl.simulate_order_contention(3, years=5, retry_failed=True).rate() >= 0
