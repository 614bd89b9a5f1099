"""Dungeon! (the Dungeon! rules post): the kernel against the document's numbers, exact odds against brute force."""

from __future__ import annotations

import random
from fractions import Fraction
from itertools import combinations, product

import pytest

from dungeon_guilds.siblings import dungeon as d

ROLLS = [a + b for a, b in product(range(1, 7), repeat=2)]  # the 36 equally likely 2d6 rolls


def test_classes_match_seed_lines_7_to_16():
    assert {k: c.target_gp for k, c in d.CLASSES.items()} == {
        "rogue": 10_000, "cleric": 10_000, "fighter": 20_000, "wizard": 30_000}
    assert {k: c.levels for k, c in d.CLASSES.items()} == {
        "rogue": (1, 3), "cleric": (2, 4), "fighter": (3, 5), "wizard": (4, 6)}
    assert d.CLASSES["wizard"].casts_spells and not d.CLASSES["wizard"].magic_sword
    assert [c for c in d.CLASSES.values() if c.casts_spells] == [d.CLASSES["wizard"]]


def test_levels_and_colours():
    assert [d.LEVEL_COLOURS[i][0] for i in range(1, 7)] == [
        "yellow", "orange", "red", "purple", "blue", "green"]


def test_counter_attack_bands_as_written():
    expected = {12: "killed", 11: "badly_wounded", 10: "wounded", 9: "wounded", 8: "wounded",
                7: "scared", 6: "scared", 5: "missed", 4: "missed", 3: "missed", 2: "missed"}
    assert {r: d.counter_attack(r).key for r in range(2, 13)} == expected
    assert [b.label for b in d.COUNTER_ATTACK] == ["12", "11", "8-10", "6-7", "≤5"]
    with pytest.raises(ValueError):
        d.counter_attack(13)


def test_counter_attack_distribution_brute_force():
    brute = {b.key: Fraction(sum(b.covers(r) for r in ROLLS), 36) for b in d.COUNTER_ATTACK}
    assert d.counter_attack_distribution() == brute
    assert list(d.counter_attack_distribution().values()) == [
        Fraction(1, 36), Fraction(2, 36), Fraction(12, 36), Fraction(11, 36), Fraction(10, 36)]
    assert sum(brute.values()) == 1


@pytest.mark.parametrize("bonus", [0, 1, 2, 3])
def test_hero_win_chance_brute_force(bonus):
    for needed in range(0, 16):
        brute = Fraction(sum(r + bonus >= needed for r in ROLLS), 36)
        assert d.hero_win_chance(needed, bonus) == brute


def test_win_chance_table_key_values():
    table = dict(d.win_chance_table())
    assert table[2] == 1 and table[7] == Fraction(7, 12) and table[12] == Fraction(1, 36)
    assert table[13] == 0


def test_dash_needs_a_magic_sword():
    assert not d.can_attack(None, has_magic_sword=False)
    assert d.can_attack(None, has_magic_sword=True)
    assert d.can_attack(8, has_magic_sword=False)


def test_half_rounded_half_up():
    assert [d.half_rounded(n) for n in range(7)] == [0, 1, 1, 2, 2, 3, 3]


@pytest.mark.parametrize("hand", range(0, 11))
def test_expected_cards_lost_brute_force(hand):
    brute = Fraction(sum(d.cards_lost(d.counter_attack(r).key, hand) for r in ROLLS), 36)
    assert d.expected_cards_lost(hand) == brute


def test_expected_cards_lost_values():
    assert d.expected_cards_lost(0) == 0
    assert d.expected_cards_lost(1) == Fraction(13, 18)  # (1 + 2 + 23) / 36
    assert d.expected_cards_lost(4) == Fraction(4 + 2 * 2 + 23, 36)


@pytest.mark.parametrize("scared", ["choice", "random"])
def test_expected_gold_lost_brute_force(scared):
    hand = [50, 100, 200, 500, 1000]
    h = len(hand)

    def mean_random_discard(k):  # every k-subset equally likely
        subsets = list(combinations(hand, k))
        return Fraction(sum(sum(s) for s in subsets), len(subsets))

    total = Fraction(0)
    for r in ROLLS:
        key = d.counter_attack(r).key
        if key == "killed":
            total += sum(hand)
        elif key == "badly_wounded":
            total += mean_random_discard(d.half_rounded(h))
        elif key == "wounded":
            total += mean_random_discard(1)
        elif key == "scared":
            total += min(hand) if scared == "choice" else mean_random_discard(1)
    assert d.expected_gold_lost(hand, scared) == total / 36
    assert d.expected_gold_lost([], scared) == 0


def test_spells_doors_traps_brute_force():
    assert d.spell_count_distribution() == {
        k: Fraction(sum(die + 6 == k for die in range(1, 7)), 6) for k in range(7, 13)}
    mean = sum(k * p for k, p in d.spell_count_distribution().items())
    assert mean == Fraction(19, 2)
    assert d.secret_door_chance("rogue") == Fraction(sum(x >= 3 for x in range(1, 7)), 6) == Fraction(2, 3)
    for hero in ("cleric", "fighter", "wizard"):
        assert d.secret_door_chance(hero) == Fraction(1, 3)
    assert d.cage_trap_distribution() == {1: Fraction(3, 6), 2: Fraction(3, 6)}


def test_rooms_and_chambers():
    room, chamber = d.Space("room", 1), d.Space("chamber", 4)
    room.defeat_monster()
    assert room.cleared
    for expected in (False, False, True):
        chamber.defeat_monster()
        assert chamber.cleared is expected
    assert room.traps_give_treasure and not chamber.traps_give_treasure
    assert "draw 1 treasure" in room.loot() and "only" in chamber.loot()
    with pytest.raises(ValueError):
        d.Space("corridor", 1)


def test_legal_destinations():
    # a corridor c1..c7 with a room R off c2 and a chamber C off c3
    adj = {f"c{i}": {f"c{i - 1}", f"c{i + 1}"} for i in range(1, 8)}
    adj["c2"].add("R")
    adj["R"] = {"c2", "c9"}
    adj["c9"] = {"R"}
    adj["c3"].add("C")
    adj["C"] = {"c3"}
    ends = d.legal_destinations(adj, "c1", uncleared={"R"}, occupied={"c4", "C"}, chambers={"C"})
    assert "c6" in ends and "c7" not in ends  # five steps at most
    assert "R" in ends and "c9" not in ends  # entering an uncleared room stops the move
    assert "c4" not in ends and "c5" in ends  # pass through an occupied space, don't stop
    assert "C" in ends  # chambers may be shared
    # once cleared, the room can be walked through
    assert "c9" in d.legal_destinations(adj, "c1", uncleared=set())


def test_duel_is_deterministic_and_matches_exact():
    a = d.simulate_duels(trials=300, seed=11)
    b = d.simulate_duels(trials=300, seed=11)
    assert a == b
    rows = {r.hero: r for r in d.simulate_duels({"fighter": 7, "rogue": 9}, trials=3000, seed=5)}
    for hero, needed in (("fighter", 7), ("rogue", 9)):
        fall, attacks = d.exact_duel(needed)
        assert abs(rows[hero].monster_fell - float(fall)) < 0.02
        assert abs(rows[hero].mean_attacks - float(attacks)) < 0.15


def test_exact_duel_against_a_markov_chain():
    needed = 9
    p = Fraction(sum(r >= needed for r in ROLLS), 36)
    q = (1 - p) * Fraction(sum(r == 12 for r in ROLLS), 36)
    fall, alive, attacks = 0.0, 1.0, 0.0
    for k in range(1, 2000):  # attack k happens with probability `alive`
        attacks += alive
        fall += alive * float(p)
        alive *= float(1 - p - q)
    exact_fall, exact_attacks = d.exact_duel(needed)
    assert abs(fall - float(exact_fall)) < 1e-9 and abs(attacks - float(exact_attacks)) < 1e-9
    # spells: a missed spell is never answered, so the wizard dies less often
    wiz_fall, _ = d.exact_duel(needed, d.spell_count_distribution())
    assert wiz_fall > exact_fall


def test_wizard_spells_protect_in_the_duel():
    rng = random.Random(3)
    results = [d.duel(8, rng, spells=12, hand=2) for _ in range(500)]
    assert all(r.spells_cast <= 12 for r in results)
    assert all(r.outcomes.total() == 0 for r in results if r.attacks <= 12)
