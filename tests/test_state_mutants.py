"""Tests that kill the mutants of ``state.py`` (the engine) that mutation testing found alive
(issue 54, item 3; `make mutation`, docs/architecture.md "Mutation testing"): refusals carry the
action they refuse and the parameter that broke the rule, the §11 invariants say which one broke,
equal-strength lords' changes (§7), a replaced NPC's way out (R10.2), the hidden fronts a search
may redraw (R2.3, R3.1). Scenarios: tests/scenario.py (reference heal costs, Lv1 locks at 5)."""

from __future__ import annotations

import pytest

from dungeon_guilds import Game, Rules
from dungeon_guilds.actions import BUMP, EXHAUST, SWAP, Action, bump, place, swap
from dungeon_guilds.cards import RoomCard
from dungeon_guilds.effects import EQUAL_STRENGTHS, RoomModifier
from dungeon_guilds.lords import Lord
from dungeon_guilds import state as engine
from dungeon_guilds.payout import EMPTY, NPC

from scenario import L1, L2, L3, make_game, play


def refused(state, action, player=None):
    err = state.refusal(action, player)
    assert err is not None, action
    assert err.action is action  # the refusal names the move it refuses (the boards show it)
    return err.code, err.params


def test_R2_4_a_setup_pair_in_either_order_is_the_same_legal_choice():
    """R2.4: 'exhaust 5 4' is 'exhaust 4 5'; a strength outside 1-5 is named, whichever of the
    two it is; the same strength twice is refused."""
    st = make_game(3, exhaust=None).state
    assert st.refusal(Action(EXHAUST, 5, other=4)) is None and st.is_legal(Action(EXHAUST, 5, other=4))
    assert st.refusal(Action(EXHAUST, 2, other=1)) is None
    assert refused(st, Action(EXHAUST, 0, other=3)) == ("no_such_strength", {"strength": 0})
    assert refused(st, Action(EXHAUST, 3, other=7)) == ("no_such_strength", {"strength": 7})
    assert refused(st, Action(EXHAUST, 6, other=0)) == ("no_such_strength", {"strength": 6})
    assert refused(st, Action(EXHAUST, 3, other=3)) == ("exhaust_same_twice", {"strength": 3})
    assert not st.is_legal(Action(EXHAUST, 3, other=3))


def test_R4_every_refusal_names_the_action_it_refuses():
    """A refusal is a value with its action (the table page and the review word it), in each
    phase: the game over, another seat's turn, something that is not an action, a bump with a
    slot that is not a or b, a kind that is no move."""
    g = make_game(3, rooms=[L1(), L1(), L1()])
    st = g.state
    assert refused(st, place(1, 1), player=1) == ("not_your_turn", {"player": 0, "name": "Ann"})
    assert refused(st, "place 1 1") == ("not_an_action", {"action": "'place 1 1'"})
    odd = Action(BUMP, 3, 1, 2)
    assert refused(st, odd) == ("not_an_action", {"action": repr(odd)})
    dance = Action("dance", 3, 1, 0)
    assert refused(st, dance) == ("not_an_action", {"action": repr(dance)})
    play(g, ["Ann: place 1 1", "Bo: place 2 1"])
    assert refused(g.state, Action(SWAP, 3, 1, 5)) == ("not_an_action", {"action": repr(Action(SWAP, 3, 1, 5))})
    while not g.is_over:
        g.push(g.legal_moves()[0])
    last = g.state
    assert refused(last, place(1, 1)) == ("game_over", {}) and last.is_terminal()


def test_R4_4_a_bump_needs_a_strictly_stronger_adventurer():
    """R4.4: an adventurer as strong as the one in the slot cannot bump it (equal is not
    stronger); one stronger can, given the fee."""
    g = make_game(3, rooms=[L1(), L1(), L1()])
    play(g, ["Ann: place 2 1", "Bo: place 2 1", "Cy: place 1 2"])  # room 1: Ann's 2 and Bo's 2: full
    st = g.state
    assert st.current == 2  # Cy again (the snake's end)
    assert refused(st, bump(2, 1, "a")) == ("bump_too_weak", {"strength": 2, "defender": 2})
    assert not st.is_legal(bump(2, 1, "a"))
    assert st.refusal(bump(3, 1, "a")) is None and st.is_legal(bump(3, 1, "b"))


def test_R4_the_legal_moves_are_worked_out_once_per_position(monkeypatch):
    """The refusal of a move reads the position's legal moves once (the hot path's cache);
    a slot set by hand (hints, the workshop's positions) forgets them."""
    st = make_game(3, rooms=[L1(), L1(), L1()]).state
    st.legal_actions()
    calls = []
    real = type(st).legal_actions
    monkeypatch.setattr(type(st), "legal_actions", lambda self: calls.append(1) or real(self))
    assert st.refusal(place(1, 9)) is not None and st.refusal(place(1, 1)) is None
    assert calls == []
    st.set_slot(0, 0, 1, 2)  # Bo's 2 in room 1, slot a
    assert st.refusal(place(1, 1)) is None and calls == [1]  # asked again after the change


def test_R4_7_a_player_with_nothing_to_do_is_told_apart_from_one_who_can_move():
    """State._has_legal (R4.7's pass and the away bots read it): a hand with a free slot
    anywhere can move; a hand banned whole, or every room full and no replace affordable, cannot."""
    g = make_game(3, rooms=[L1(), L1(), L1()])
    st = g.state
    assert st._has_legal(0) and st._has_legal(1)
    full = st.copy()
    for j in range(len(full.slot_owner)):
        full.slot_owner[j], full.slot_str[j] = 2, 5
    full._legal = None
    for p in (0, 1):
        full.gold[p] = 0
    assert not full._has_legal(0)
    full.gold[0] = 9  # a stronger one to bump Cy's 5? none is: still nothing
    assert not full._has_legal(0)
    for j in range(len(full.slot_owner)):
        full.slot_str[j] = 1
    assert full._has_legal(0)  # a bump of a 1 is affordable now
    banned = st.copy()
    banned.ban = engine.ALL_FIVE
    assert not banned._has_legal(0)


def test_S11_each_invariant_says_which_one_broke():
    """docs/rules.md §11: check_invariants names the broken invariant."""
    g = make_game(3, rooms=[L1(), L1(), L1()])
    play(g, ["Ann: place 1 1", "Bo: place 2 1"])
    base = g.state
    cases = []
    st = base.copy(); st.gold[0] += 1; cases.append((st, "gold is not conserved"))  # noqa: E702
    st = base.copy(); st.gold[0] = -1; st.bank_out -= base.gold[0] + 1  # noqa: E702
    cases.append((st, "a player's gold is negative"))
    st = base.copy(); st.slot_owner[2], st.slot_str[2] = 0, 1  # noqa: E702  Ann's 1 twice
    cases.append((st, "an adventurer is in two slots"))
    st = base.copy(); st.active[0] |= 1 << 1  # noqa: E702  Ann's 1 in hand and in room 1
    cases.append((st, "an adventurer of seat 0 is in two places"))
    st = base.copy(); st.exhausted[1] |= 1 << 2  # noqa: E702  Bo's 2 exhausted and in room 1
    cases.append((st, "an adventurer of seat 1 is in two places"))
    st = base.copy(); st.active[2] &= st.exhausted[2]; st.active[2] |= st.exhausted[2]  # noqa: E702
    st.exhausted[2] = st.exhausted[2] | (1 << 1)
    cases.append((st, "an adventurer of seat 2 is in two places"))
    st = base.copy(); st.active[2] &= ~(1 << 1)  # noqa: E702  Cy's 1 gone
    cases.append((st, "an adventurer of seat 2 is missing"))
    st = base.copy(); st.placed[0] = 2  # noqa: E702
    cases.append((st, "more than two adventurers placed"))
    st = base.copy(); st.slot_owner.append(EMPTY)  # noqa: E702
    cases.append((st, "a room holds more than 2 adventurers"))
    for st, message in cases:
        with pytest.raises(AssertionError) as err:
            st.check_invariants()
        assert str(err.value) == message
    base.check_invariants()


def test_S11_three_adventurers_of_one_player_in_the_dungeon_break_an_invariant():
    g = make_game(3, rooms=[L1(), L1(), L1()])
    play(g, ["Ann: place 1 1", "Bo: place 2 1", "Cy: place 3 2", "Cy: place 1 3"])
    st = g.state.copy()
    st.active[0] &= ~(1 << 2 | 1 << 3)
    st.slot_owner[3], st.slot_str[3] = 0, 2  # Ann's 2 in room 2, slot b
    st.slot_owner[5], st.slot_str[5] = 0, 3  # Ann's 3 in room 3, slot b: three placed
    st.placed[0] = 3
    with pytest.raises(AssertionError, match="^more than two adventurers placed$"):
        st.check_invariants()


NAUGHTY = Lord("equal_rooms", "Equal rooms", "同力房間", "A room whose two adventurers are equally strong: "
               "defence -2 and treasure +$3 in the first room.", "第一個房間兩名冒險者力量相同：難度 -2、獎勵 +$3",
               (RoomModifier((1,), defence=-2, treasure=3, when=EQUAL_STRENGTHS),))


def test_S7_R7_3_an_equal_strength_change_counts_only_while_the_two_are_equal():
    """§7 (the Naughty Kid's kind of effect, here on defence too): the first room's defence
    falls by 2 and its treasure rises by $3 only while its two adventurers are equally strong;
    a defence never below 0 (R5.3); the lock threshold moves with the defence (R7.1)."""
    g = make_game(3, rooms=[L1(2, 2), L1(), L1()], rules=Rules(), lords=[NAUGHTY] * 3)
    st = g.state
    assert (st.room_defence(0), st.room_treasure(0), st.lord_defence_change(0), st.lord_treasure_change(0)) == \
        (2, 2, 0, 0)
    assert st.lock_threshold(0) == 5
    play(g, ["Ann: place 3 1", "Bo: place 3 1"])
    st = g.state
    assert (st.room_defence(0), st.room_treasure(0), st.lord_defence_change(0), st.lord_treasure_change(0)) == \
        (0, 5, -2, 3)  # 2 - 2 = 0; 2 + 3
    assert st.lock_threshold(0) == 3
    assert (st.room_defence(1), st.lord_defence_change(1), st.lord_treasure_change(1)) == (3, 0, 0)


def test_R5_3_a_defence_of_exactly_one_stays_one():
    g = make_game(3, rooms=[L1(3, 2), L1(), L1()], rules=Rules(), lords=[NAUGHTY] * 3)
    play(g, ["Ann: place 2 1", "Bo: place 2 1"])
    assert g.state.room_defence(0) == 1 and g.state.lord_defence_change(0) == -2


def test_R10_2_a_replaced_npc_with_nowhere_to_go_leaves_and_the_log_says_from_where():
    """Ruling R10.2: a replaced NPC moves to the next room below with a free slot, else from
    the top again; with no free slot anywhere it leaves the dungeon (the event names its room)."""
    g = Game(3, seed=4, rules=Rules(lords="none", npc=True), exhaust={"P1": (4, 5), "P2": (4, 5), "P3": (4, 5)})
    st = g.state.copy()
    st.log = []
    k = len(st.rooms)
    for j in range(2 * k):
        if st.slot_owner[j] == EMPTY:
            st.slot_owner[j], st.slot_str[j] = 1, 5
    st._npc_move(k - 1)
    assert st.log[-1]["kind"] == "npc_left" and st.log[-1]["from_room"] == k
    st2 = g.state.copy()
    st2.log = []
    for j in range(2 * k):
        if st2.slot_owner[j] == EMPTY:
            st2.slot_owner[j], st2.slot_str[j] = 1, 5
    st2.slot_owner[0], st2.slot_str[0] = EMPTY, 0  # the top room's slot a is free
    st2._npc_move(1)
    moved = st2.log[-1]
    assert (moved["kind"], moved["from_room"], moved["to_room"]) == ("npc_moved", 2, 1)
    assert st2.slot_owner[0] == NPC and st2.slot_str[0] == st2.rooms[0].level


def test_R2_3_the_unseen_cards_drop_one_copy_per_front_seen():
    """The cards nobody has seen (the searches redraw fronts from them): each front seen drops
    one copy of its card from the deck's list, not every copy; a card seen that the list does
    not hold drops nothing."""
    st = make_game(3, rooms=[L1(), L2(), L3()]).state.copy()
    cards = sorted(st.cards, key=lambda c: (c.level, c.defence, c.treasure))
    twice = next(c for c in cards if cards.count(c) >= 3)  # a card the deck holds three times or more
    once = next(c for c in cards if c != twice)
    st.seen = [twice, twice, once, RoomCard(3, 99, 99)]  # the last: a card the list does not hold
    unseen = st.unseen_cards()
    expected = list(cards)
    for card in (twice, twice, once):
        expected.remove(card)
    assert unseen == expected and unseen.count(twice) == cards.count(twice) - 2


def test_R3_1_new_fronts_keep_each_rooms_level_and_enough_cards_for_the_rounds():
    """with_fronts (a determinization, R3.1 fronts are secret): the fronts must keep the levels
    of the backs in view, and the deck must still deal every round."""
    g = make_game(3, rooms=[L1(), L2(), L3()])
    st = g.state
    undealt = list(st.deck[st.deck_pos:])
    new = st.with_fronts([L1(4, 1), L2(7, 3), L3(9, 12)], undealt)
    assert new.rooms == [L1(4, 1), L2(7, 3), L3(9, 12)]
    assert new.deck[:st.deck_pos] == (L1(4, 1), L2(7, 3), L3(9, 12)) and new.deck[st.deck_pos:] == tuple(undealt)
    assert len(new.deck) == len(st.deck) and new.room_defence(2) == 9
    with pytest.raises(ValueError, match=r"^the new fronts must keep each room's level \(its back is public\)$"):
        st.with_fronts([L2(), L1(), L3()], undealt)
    with pytest.raises(ValueError, match=r"^the new fronts must keep each room's level \(its back is public\)$"):
        st.with_fronts([L1(), L2()], undealt)
    with pytest.raises(ValueError, match="^the undealt deck is too short for the rounds left$"):
        st.with_fronts([L1(), L2(), L3()], undealt[:-1])
    assert len(st.with_fronts([L1(), L2(), L3()], undealt + [L1()]).deck) == len(st.deck) + 1
    later = make_game(3, rooms=[L1(), L2(), L3()])
    while later.state.round == 0:
        later.push(later.legal_moves()[0])
    st3 = later.state
    fronts = [RoomCard(c.level, c.defence, c.treasure) for c in st3.rooms]
    again = st3.with_fronts(fronts, list(st3.deck[st3.deck_pos:]))
    assert again.deck == st3.deck  # round 2: the dealt rounds stay, the new fronts follow them


def test_the_move_tables_hold_every_stronger_adventurer_of_a_hand():
    """R4.4/R4.5 need a strictly stronger adventurer: the tables built at import list, per hand,
    defender strength, room and slot, the moves of the hand's stronger adventurers only."""
    for h in (0b111110, 0b101010, 0b000100, 0):
        table = engine._stronger(engine._BUMP, h)
        assert len(table) == 6 and all(len(rows) == 8 and all(len(r) == 2 for r in rows) for rows in table)
        for t in range(6):
            for r in range(8):
                for x in (0, 1):
                    want = tuple(engine._BUMP[s][r][x] for s in (1, 2, 3, 4, 5) if h >> s & 1 and s > t)
                    assert table[t][r][x] == want
        assert table == engine._BUMPS[h]
    assert engine._stronger(engine._SWAP, 0b100100)[2][3][1] == (engine._SWAP[5][3][1],)


def test_the_sorted_card_lists_are_each_their_own():
    a = [L3(), L1(), L2()]
    b = [L2(7, 1), L1(1, 1)]
    assert engine._sorted_cards(a) == (L1(), L2(), L3())
    assert engine._sorted_cards(b) == (L1(1, 1), L2(7, 1))
    assert engine._sorted_cards(a) == (L1(), L2(), L3())


TWICE = Lord("twice_equal", "Twice equal", "雙倍同力", "Two equal-strength changes on the first room.",
             "第一個房間兩個同力效果", (RoomModifier((1,), defence=-4, treasure=3, when=EQUAL_STRENGTHS),
                                 RoomModifier((1,), defence=-2, treasure=1, when=EQUAL_STRENGTHS)))


def test_S7_two_equal_strength_changes_on_one_room_add_up_and_floor_at_zero():
    """§7: two conditional changes of one room add up (treasure +3 and +1, defence -4 and -2);
    R5.3 a defence never below 0, and the lock threshold (R7.1) not either."""
    g = make_game(3, rooms=[L1(3, 2), L1(), L1()], rules=Rules(), lords=[TWICE] * 3)
    play(g, ["Ann: place 2 1", "Bo: place 2 1"])
    st = g.state
    assert (st.room_defence(0), st.room_treasure(0), st.lock_threshold(0)) == (0, 6, 0)  # 3-6; 2+4; 5-6
    assert (st.lord_defence_change(0), st.lord_treasure_change(0)) == (-6, 4)


LOCK_ONE = Lord("lock_one", "Lock at one", "一就鎖", "Equal strengths in the first room: defence -4.",
                "第一個房間力量相同：難度 -4", (RoomModifier((1,), defence=-4, when=EQUAL_STRENGTHS),))


def test_R7_1_a_lock_threshold_moved_down_to_one_stays_one():
    g = make_game(3, rooms=[L1(3, 2), L1(), L1()], rules=Rules(), lords=[LOCK_ONE] * 3)
    play(g, ["Ann: place 1 1", "Bo: place 1 1"])
    assert g.state.lock_threshold(0) == 1 and g.state.room_defence(0) == 0  # 5 - 4; 3 - 4 floored


def test_R5_1_an_equal_strength_defence_change_counts_when_the_room_is_resolved():
    """R5.1 with §7: room 1's defence 5 falls by 2 while its two adventurers are equal (2 and 2,
    total 4), so it is cleared and the cascade goes on to every room; round 1's record says so."""
    g = make_game(3, rooms=[L1(5, 2), L1(3, 2), L1(2, 2)], rules=Rules(), lords=[NAUGHTY] * 3)
    play(g, ["Ann: place 2 1", "Bo: place 2 1", "Cy: place 1 2", "Cy: place 2 2", "Bo: place 1 3",
             "Ann: place 1 3"])
    first = g.state.round_results[0]
    assert (first["round"], first["lord"], first["cleared"], first["rooms"]) == (1, "equal_rooms", 3, 3)


def test_R6_3_R6_4_the_log_says_where_the_marker_went_and_the_final_gold():
    """R6.3 the start marker passes left after each round; R6.4 the game ends after the last
    round: the log's events say so, with each round's number from 1."""
    g = make_game(3, rooms=[L1(), L1(), L1()])
    while not g.is_over:
        g.push(g.legal_moves()[0])
    st = g.state
    passed = [e for e in st.log if e["kind"] == "marker_passed"]
    assert [(e["round"], e["start"]) for e in passed] == [(1, 1), (2, 2), (3, 0)]
    assert [r["round"] for r in st.round_results] == [1, 2, 3]
    over = [e for e in st.log if e["kind"] == "game_over"]
    assert len(over) == 1 and over[0]["gold"] == st.gold and over[0]["round"] == 3


def test_a_copy_keeps_the_log_only_when_asked_and_shares_nothing_mutable():
    g = make_game(3, rooms=[L1(), L1(), L1()])
    play(g, ["Ann: place 1 1"])
    st = g.state
    assert st.copy().log is None and st.copy(keep_log=True).log is st.log
    twin = st.copy()
    assert twin.swap_full == st.swap_full
    assert [twin.legal_actions()] == [st.legal_actions()]


def _events(state, *kinds):
    return [{k: v for k, v in e.items() if k != "kind"} | {"kind": e["kind"]} for e in state.log if e["kind"] in kinds]


def test_R4_3_R5_1_R5_2_the_log_of_an_equal_strength_room_locked_cleared_and_a_room_failed():
    """One round told event by event (the narration and the review read these): room 1, defence
    5 and treasure $2, gets 2 + 2 (equal: -2 defence, +$3 treasure, §7): it locks at 4 >= 3 (R4.3,
    R7.1), is cleared with 4 >= 3 and pays $5, $2 each and the tie's $1 to the bank (R5.2); room
    2, defence 4, gets 1 + 2 = 3 and fails, so room 3 is not revealed (R5.1)."""
    g = make_game(3, rooms=[L1(5, 2), L1(4, 2), L1(2, 2)], rules=Rules(), lords=[NAUGHTY] * 3)
    play(g, ["Ann: place 2 1", "Bo: place 2 1", "Cy: place 1 2", "Cy: place 2 2", "Bo: place 1 3",
             "Ann: place 1 3"])
    st = g.state
    locked = [e for e in _events(st, "locked") if e["round"] == 1 and e["room"] == 1]
    assert locked == [{"room": 1, "total": 4, "threshold": 3, "round": 1, "kind": "locked"}]
    told = [e for e in _events(st, "revealed", "cleared", "failed") if e["round"] == 1]
    assert told == [
        {"room": 1, "defence": 5, "treasure": 2, "defence_now": 3, "treasure_now": 5, "round": 1, "kind": "revealed"},
        {"room": 1, "total": 4, "defence": 3, "treasure": 5, "shares": {"0": 2, "1": 2}, "to_bank": 1,
         "occupants": [[0, 2], [1, 2]], "round": 1, "kind": "cleared"},
        {"room": 2, "defence": 4, "treasure": 2, "defence_now": 4, "treasure_now": 2, "round": 1, "kind": "revealed"},
        {"room": 2, "total": 3, "defence": 4, "rooms": [2, 3], "occupants": [[2, 1], [2, 2]], "round": 1,
         "kind": "failed"}]


MINUS = Lord("minus", "Minus", "減", "Every room: defence -9 and treasure -9.", "每個房間：難度 -9、獎勵 -9",
             (RoomModifier((), defence=-9, treasure=-9),))


def test_R5_3_the_log_says_zero_for_a_defence_and_a_treasure_below_zero():
    """R5.3: a lord's change takes a defence and a treasure to 0, never below, in what is told."""
    g = make_game(3, rooms=[L1(2, 2), L1(2, 2), L1(2, 2)], rules=Rules(), lords=[MINUS] * 3)
    play(g, ["Ann: place 1 1", "Bo: place 1 2", "Cy: place 1 3", "Cy: place 2 1", "Bo: place 2 3",
             "Ann: place 2 2"])
    told = [e for e in _events(g.state, "revealed", "cleared") if e["round"] == 1 and e["room"] == 1]
    assert [(e["kind"], e.get("defence_now"), e.get("treasure_now"), e.get("treasure"), e["defence"]) for e in told] \
        == [("revealed", 0, 0, 2, 2), ("cleared", None, None, 0, 0)]


def test_R5_1_R5_3_a_room_is_beaten_by_a_total_reaching_its_defence_never_below_zero():
    assert engine.beats(3, 3) and not engine.beats(2, 3)
    assert engine.beats(0, 0) and engine.beats(0, -2) and not engine.beats(0, 1) and engine.beats(1, 1)


def test_R7_2_the_caveman_flips_every_hand_in_the_start_phase_and_the_log_says_so():
    """R7.2 (the Caveman): in round 2's start phase every strength 1-2 adventurer becomes
    exhausted and every 3-5 active, whatever it was; round 1 has no start phase (R3.1)."""
    g = make_game(3, rooms=[L1(), L1(), L1()], rules=Rules(lords="all"), lords=[NAUGHTY, "caveman", NAUGHTY])
    while g.state.round == 0:
        g.push(g.legal_moves()[0])
    st = g.state
    for p in range(3):
        assert engine.strengths_of(st.active[p]) == [3, 4, 5] and engine.strengths_of(st.exhausted[p]) == [1, 2]
    flips = _events(st, "flipped")
    assert flips == [{"lord": "caveman", "exhausted": [1, 2], "activated": [3, 4, 5], "round": 2, "kind": "flipped"}]


def test_R4_5_R9_1_a_lone_adventurer_of_ones_own_may_be_swapped_in_either_slot():
    """R4.5: a player may swap their own adventurer for $1, in a room not full too (the Chinese
    rulebook; R9.1 the French summary needs a full room), whichever slot it stands in; a position
    set by hand (the hints' and the workshop's) may hold it in slot b alone."""
    g = make_game(3, rooms=[L1(), L1(), L1()])
    st = g.state.copy()
    st.set_slot(1, 1, 0, 2)  # Ann's 2 alone in room 2, slot b
    st.active[0] &= ~(1 << 2)
    moves = set(st.legal_actions())
    assert swap(3, 2, "b") in moves and swap(3, 2, "a") not in moves
    assert swap(1, 2, "b") not in moves  # a swap brings a stronger one (R4.5)
    assert not any(m.kind == SWAP and m.room == 3 for m in moves)  # room 3 is empty: nothing to swap
    st.gold[0] = 0
    st.set_slot(1, 1, 0, 2)
    assert not any(m.kind == SWAP for m in st.legal_actions())  # R4.5 costs $1


def test_R4_5_a_swap_with_exactly_one_dollar_left_is_legal():
    g = make_game(3, rooms=[L1(), L1(), L1()])
    play(g, ["Ann: place 1 1", "Bo: place 1 1", "Cy: place 1 2", "Cy: place 2 3", "Bo: place 2 2"])
    st = g.state.copy()
    assert st.current == 0  # Ann, with her 1 in the full room 1
    st.bank_in += st.gold[0] - 1
    st.gold[0] = 1
    st.set_slot(0, 0, 0, 1)  # unchanged: forgets the legal moves worked out before the gold changed
    assert swap(2, 1, "a") in st.legal_actions()
    st.gold[0] = 0
    st.set_slot(0, 0, 0, 1)
    assert swap(2, 1, "a") not in st.legal_actions()


def _full_dungeon(gold: int, weakest: int):
    """Round 1 with every slot held by Bo and Cy (two each placed, strength 5 but one of
    ``weakest``), Ann to move with 1, 2, 3 in hand, none placed, and $``gold``; the round is held
    unresolved when the phase ends (as a search's copy is)."""
    st = make_game(3, rooms=[L1(), L1(), L1()]).state.copy()
    st.log, st.hold_resolution = [], True
    for j in range(6):
        st.set_slot(j // 2, j % 2, 1 + j % 2, weakest if j == 0 else 5)
    st.placed = [0, 2, 2]
    st.gold[0] = gold
    st.pos = 0
    return st


def test_R4_2_R4_7_a_full_dungeon_skips_who_cannot_act_and_says_why():
    """R4.7: Ann, with adventurers in hand but every slot taken, nothing she can bump (all
    stronger, or no gold) and none of her own to swap, passes; Bo and Cy, two placed, are skipped
    (R4.2); nobody left can act, so the phase ends. The log says who passed and why."""
    st = _full_dungeon(gold=0, weakest=1)
    st._next_turn()
    ann = {"player": 0, "code": "no_legal_action", "reason": "no legal action (R4.7)", "round": 1, "kind": "passed"}
    two = [{"player": p, "code": "two_placed", "reason": "two adventurers placed (R4.2)", "round": 1, "kind": "passed"}
           for p in (1, 2, 2, 1)]
    assert _events(st, "passed") == [ann, *two, ann]
    rich = _full_dungeon(gold=5, weakest=1)  # now she can bump Bo's 1 in room 1 with her 2 (R4.4)
    rich._next_turn()
    assert rich.current == 0 and _events(rich, "passed") == [] and bump(2, 1, "a") in rich.legal_actions()
    strong = _full_dungeon(gold=5, weakest=5)  # every adventurer a 5: none of hers is stronger
    strong._next_turn()
    assert [e["player"] for e in _events(strong, "passed")] == [0, 1, 2, 2, 1, 0]


def test_every_action_taken_is_counted_once():
    g = make_game(3, rooms=[L1(), L1(), L1()])
    before = g.state.actions_taken
    play(g, ["Ann: place 1 1", "Bo: place 1 2"])
    assert g.state.actions_taken == before + 2


def test_R2_4_R3_1_R10_2_a_round_opens_with_its_deal_the_setup_choices_and_the_npcs_told():
    """R3.1 the rooms are dealt and sorted by level, the lord named (its effects off without
    lords); R2.4 each set-up choice pays its printed heal costs (Ann 4+5: $2+$3, Bo 1+2: $0+$1,
    Cy 3+5: $1+$3), kept per seat; R10.2 an NPC in each of the first two rooms, as strong as its
    room's level. Nothing is shown yet; each room has its two slots."""
    g = make_game(3, rooms=[L1(), L2(), L3(), L3()] * 3, exhaust={"Ann": (4, 5), "Bo": (1, 2), "Cy": (3, 5)},
                  rules=Rules(lords="none", npc=True))
    st = g.state
    assert st.setup_gain == (5, 1, 4) and st.shown == [0, 0, 0]
    assert len(st.slot_str) == len(st.slot_owner) == 2 * len(st.rooms)
    assert _events(st, "dealt")[0] == {"levels": [1, 2, 3, 3], "lord": st.lord.id, "start": 0, "effects": False,
                                       "round": 1, "kind": "dealt"}
    assert _events(st, "exhausted") == [
        {"player": 0, "strengths": [4, 5], "gold": 5, "round": 1, "kind": "exhausted"},
        {"player": 1, "strengths": [1, 2], "gold": 1, "round": 1, "kind": "exhausted"},
        {"player": 2, "strengths": [3, 5], "gold": 4, "round": 1, "kind": "exhausted"}]
    assert _events(st, "npc_placed") == [{"room": 1, "strength": 1, "round": 1, "kind": "npc_placed"},
                                         {"room": 2, "strength": 2, "round": 1, "kind": "npc_placed"}]
    # R4.4 with R10.2: Bo's 3 bumps the Lv2 room's NPC (strength 2) for $1 to the bank, nothing
    # to anyone; the NPC goes to the next room below with a free slot, as strong as that room
    play(g, ["Ann: place 1 2", "Bo: bump 3 2a"])
    st = g.state
    assert _events(st, "bumped") == [{"player": 1, "strength": 3, "room": 2, "slot": "a", "victim": NPC,
                                      "victim_strength": 2, "fee_bank": 1, "fee_victim": 0, "round": 1,
                                      "kind": "bumped"}]
    assert _events(st, "npc_moved")[-1] == {"from_room": 2, "to_room": 3, "strength": 3, "round": 1,
                                            "kind": "npc_moved"}
    assert st.shown == [1 << 1, 1 << 3, 0]  # the strengths each seat has shown this round
    play(g, ["Cy: place 2 4", "Cy: place 4 4"])
    assert g.state.shown == [1 << 1, 1 << 3, 1 << 2 | 1 << 4]
    while g.state.round == 0:
        g.push(g.legal_moves()[0])
    assert g.state.shown == [0, 0, 0] and _events(g.state, "dealt")[-1]["start"] == 1  # R6.3


def test_R2_1_a_game_set_out_before_any_choice():
    """R2.1: each player starts with $2 and five adventurers in hand, nothing placed, shown,
    chosen or played yet; the log opens with the set-up (who plays, who starts, the gold)."""
    g = make_game(3, rooms=[L1(), L1(), L1()], exhaust=None, start=1)
    st = g.state
    assert st.phase == "setup" and st.gold == [2, 2, 2] and st.pos == 0
    assert st.placed == [0, 0, 0] and st.shown == [0, 0, 0] and st.unplayed == [0, 0, 0]
    assert st.setup_gain == (-1, -1, -1) and st.actions_taken == 0
    assert _events(st, "setup") == [{"players": ["Ann", "Bo", "Cy"], "start": 1, "gold": 2, "round": 1,
                                     "kind": "setup"}]
    assert st.copy().log is None and Game(3, seed=1).state.log is not None


def test_S7_a_lords_numbers_are_worked_out_once_and_the_same_each_time(monkeypatch):
    """lord_numbers (the hot path's §7 numbers) from a cold cache equal what the effects add,
    and a second ask returns the same numbers; no lord: nothing changes."""
    monkeypatch.setattr(engine, "_LORD_NUMBERS", {})
    first = engine.lord_numbers(TWICE, 3)
    assert first == ((0, 0, 0), (0, 0, 0), ((0, -4, 3), (0, -2, 1)), 0, (0, 0, 0, 0, 0, 0), 0)
    assert engine.lord_numbers(TWICE, 3) is first and engine._LORD_NUMBERS[(TWICE, 3)] is first
    assert engine.lord_numbers(None, 2) == ((0, 0), (0, 0), (), 0, (0, 0, 0, 0, 0, 0), 0)
    assert engine.lord_numbers(MINUS, 2)[:2] == ((-9, -9), (-9, -9))
