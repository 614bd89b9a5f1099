"""Exact probabilities: hand-computed clear chances, and expected gold checked against the
engine resolving every possible assignment of hidden fronts."""

from __future__ import annotations

import random
from collections import Counter
from fractions import Fraction

import pytest

from dungeon_guilds import Game, RoomCard, Rules
from dungeon_guilds.analysis.knowledge import determinize, pending_after
from dungeon_guilds.analysis.probability import action_values, clear_probability, clear_table
from dungeon_guilds.state import State

# The reference deck (docs/reference-deck.md), by hand:
#   Lv1: (def 3, tr 2) x4, (4, 3) x6, (5, 4) x4                    = 14 cards
#   Lv2: (5, 4) x3, (6, 5) x4, (6, 6) x3, (7, 7) x4                 = 14 cards
#   Lv3: (7, 8) x3, (8, 9) x3, (8, 10) x3, (9, 12) x3               = 12 cards
NO_LORDS = Rules(lords="none")


def game_with(rooms, lords=("succubus", "vampire_lord", "beholder"), rules=NO_LORDS, n=3, exhaust=(4, 5)):
    from dungeon_guilds.cards import reference_deck

    deck = list(reference_deck().rooms)
    order = list(rooms)
    for card in rooms:
        deck.remove(card)
    order += deck  # the rest of the deck after the chosen first rooms
    names = ["Ann", "Bo", "Cy", "Di", "Ed", "Flo"][:n]
    return Game(names, rooms=order, lords=list(lords)[:n], rules=rules,
                exhaust={name: exhaust for name in names} if exhaust else None)


def test_clear_probability_by_hand():
    g = game_with([RoomCard(1, 4, 3), RoomCard(2, 6, 5), RoomCard(3, 8, 9)])
    v = g.view("Ann")
    assert [r.level for r in v.rooms] == [1, 2, 3]
    # Lv1 with total 4 clears on defence 3 or 4: (4 + 6) / 14
    assert clear_probability(v, 0, 4) == Fraction(10, 14)
    assert clear_probability(v, 0, 2) == 0
    assert clear_probability(v, 0, 5) == 1
    # Lv2 with total 6: defence 5 or 6 -> (3 + 4 + 3) / 14
    assert clear_probability(v, 1, 6) == Fraction(10, 14)
    # Lv3 with total 8: (3 + 3 + 3) / 12
    assert clear_probability(g.state, 2, 8) == Fraction(9, 12)
    # empty room, default total 0
    assert clear_probability(v, 0) == 0
    g.push("place 3 1")
    assert clear_probability(g.view("Bo"), 0) == Fraction(4, 14)  # total 3: only defence 3
    assert clear_table(v, 0, range(2, 6)) == {2: 0, 3: Fraction(4, 14), 4: Fraction(10, 14), 5: 1}


def test_clear_probability_counts_only_unseen_cards():
    g = game_with([RoomCard(1, 3, 2), RoomCard(1, 3, 2), RoomCard(1, 3, 2)], n=3,
                  lords=("succubus", "vampire_lord", "beholder"))
    # every player places one 1 and one 2: each room total 3, all clear (defence 3), revealed
    for move in ["place 1 1", "place 1 2", "place 1 3", "place 2 3", "place 2 2", "place 2 1"]:
        g.push(move)
    assert g.state.round == 1
    v = g.view("Ann")
    assert Counter(c.level for c in v.seen)[1] == 3
    lv1 = [i for i, r in enumerate(v.rooms) if r.level == 1]
    assert lv1  # the deck's next cards are Lv1
    # 14 Lv1 cards, 3 (defence 3) seen: 1 of the 11 left has defence 3
    assert clear_probability(v, lv1[0], 3) == Fraction(1, 11)


def test_clear_probability_follows_the_lord():
    # Lich King: the second room's defence +2 (its lock threshold too, R7.1)
    g = game_with([RoomCard(1, 4, 3), RoomCard(2, 6, 5), RoomCard(3, 8, 9)],
                  lords=("lich_king", "succubus", "beholder"), rules=Rules())
    v = g.view("Ann")
    assert v.rooms[1].lock_threshold == 9
    assert clear_probability(v, 1, 7) == Fraction(3, 14)  # defence + 2 <= 7: only defence 5
    assert clear_probability(v, 0, 4) == Fraction(10, 14)  # the first room is unchanged


def test_setup_values_are_the_exhaust_gold():
    g = game_with([RoomCard(1, 4, 3)] * 3, exhaust=None)
    vals = action_values(g.state)
    heal = {1: 0, 2: 1, 3: 1, 4: 2, 5: 3}
    assert {(a.strength, a.other): v for a, v in vals.items()} == {
        (a.strength, a.other): heal[a.strength] + heal[a.other] for a in vals}


def exact_expected_gold(state: State, action, player: int) -> Fraction:
    """By brute force: every assignment of unseen cards to the current rooms, weighted by its
    probability, resolved by the engine itself."""
    after = pending_after(state, action)
    view = state.view(player)
    unseen = Counter(view.unseen)
    levels = [r.level for r in view.rooms]
    total = Fraction(0)

    def walk(i, prob, chosen):
        nonlocal total
        if i == len(levels):
            filler = list(view.unseen)
            for c in chosen:
                filler.remove(c)
            det = after.with_fronts(chosen, filler[: view.deck_left])
            det.hold_resolution = False
            det._end_dispatch()  # the engine's resolution and cleanup
            total += prob * det.round_results[-1]["gold"][player]
            return
        pool = {c: k for c, k in unseen.items() if c.level == levels[i] and k > 0}
        size = sum(pool.values())
        for card, k in pool.items():
            unseen[card] -= 1
            walk(i + 1, prob * Fraction(k, size), chosen + [card])
            unseen[card] += 1

    walk(0, Fraction(1), [])
    return total - state.gold[player]


CONDITIONAL = ("naughty_kid", "boardgame_lord", "bigfun_king")  # effects that need care


@pytest.mark.parametrize("seed,rules,n,lords", [
    (1, Rules(), 3, None), (2, Rules(lords="all"), 3, None), (3, Rules(lords="all"), 3, CONDITIONAL),
    (4, Rules(npc=True), 3, None), (5, Rules(lords="all", edition="fr"), 3, CONDITIONAL[::-1]),
    (6, Rules(), 4, None), (7, Rules(lords="all", npc=True), 3, CONDITIONAL[1:] + CONDITIONAL[:1]),
])
def test_action_values_match_the_engine_on_every_hidden_world(seed, rules, n, lords):
    game = Game(n, seed=seed, rules=rules, lords=list(lords) if lords else None)
    rng = random.Random(seed)
    checked = 0
    while not game.is_over and checked < 8:
        st = game.state
        if st.phase == "dispatch" and rng.random() < 0.5:
            vals = action_values(st)
            assert set(vals) == set(st.legal_actions())
            for action in rng.sample(sorted(vals, key=str), min(3, len(vals))):
                exact = exact_expected_gold(st, action, st.current)
                assert vals[action] == pytest.approx(float(exact), abs=1e-9), str(action)
            checked += 1
        game.push(rng.choice(game.legal_actions()))
    assert checked >= 3


def test_action_values_by_hand():
    # Ann (hand 1, 2, 3; $7 after exhausting 4 and 5) alone in an empty three-room dungeon.
    g = game_with([RoomCard(1, 4, 3), RoomCard(2, 6, 5), RoomCard(3, 8, 9)])
    vals = {str(a): v for a, v in action_values(g.state).items()}
    # place 3 in room 1: clears with P 4/14 (defence 3) and pays Ann the whole treasure 2
    # (room 2, empty, then fails, but Ann has nobody there); with P 10/14 room 1 fails and
    # Ann pays strength 3's heal cost, $1.
    assert vals["place 3 1"] == pytest.approx(4 / 14 * 2 - 10 / 14 * 1)
    # place 3 in room 2: room 1 (empty) fails first, so room 2 fails: heal cost $1
    assert vals["place 3 2"] == pytest.approx(-1)
    # place 1 in room 1: never clears (defence >= 3), heal cost of strength 1 is $0
    assert vals["place 1 1"] == pytest.approx(0)


def test_determinize_keeps_the_view_and_the_levels():
    rng = random.Random(3)
    g = Game(4, seed=3, rules=Rules(lords="all"))
    g.push("exhaust 4 5")
    g.push("exhaust 1 2")
    st = g.state
    v = st.view(st.current)
    for _ in range(20):
        det = determinize(st, st.current, rng, v)
        assert [c.level for c in det.rooms] == [c.level for c in st.rooms]
        dv = det.view(st.current)
        assert dv.rooms == v.rooms and dv.gold == v.gold and dv.active[st.current] == v.active[st.current]
        det.check_invariants()


def test_clear_chance_after_a_move_sees_a_conditional_lord():
    """§7 vocabulary: a workshop lord 'equal strengths: defence +4'. Putting a 3 beside a 3 in
    a Lv1 room (reference defences 3-5) makes it 6 against 7-9: it cannot clear; the chance
    read before the move (defence change 0) would have said it surely clears."""
    from dungeon_guilds import Game, Rules
    from dungeon_guilds.analysis.probability import clear_probability, clear_probability_after
    from dungeon_guilds.effects import RoomModifier
    from dungeon_guilds.lords import Lord
    from dungeon_guilds.actions import place

    twins = Lord("twins", "Twins", "雙胞胎", "Equal strengths: defence +4.", "", (
        RoomModifier(defence=4, when="equal_strengths"),))
    g = Game(3, seed=2, lords=[twins] * 3, rules=Rules(lords="all"),
             exhaust={"Ann": (1, 2), "Bo": (1, 2), "Cy": (1, 2)})
    g.push("place 3 1")  # Ann
    st = g.state  # Bo to move, Lv1 room 1 holds Ann's 3
    assert st.rooms[0].level == 1
    assert clear_probability(st.view(1), 0, 6) == 1  # the room as it stands: no change yet
    assert clear_probability_after(st, 1, place(3, 1)) == 0
    assert clear_probability_after(st, 1, place(4, 1)) == 1  # 7, no twins: beats 3-5
