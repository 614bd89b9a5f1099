"""Structured refusals: every refusal is a value (code, rule, params) worded from a template in
each language; each code is triggered from a real game and checked in English and Chinese.

Scenarios use the reference heal costs and lock thresholds (tests/scenario.py): players who
exhaust 4 and 5 start with $2 + $2 + $3 = $7 and hold 1, 2, 3; a Lv1 room locks at 5.
"""

from __future__ import annotations

import random
import string

import pytest

from dungeon_guilds import Game, Rules, i18n
from dungeon_guilds.actions import BUMP, EXHAUST, PLACE, SWAP, Action, ActionSyntaxError, parse
from dungeon_guilds.codes import CODES, OTHER_ERRORS, REFUSALS
from dungeon_guilds.errors import GameError, IllegalAction
from dungeon_guilds.rules import RulesError

from scenario import L1, L2, L3, NO_LORDS, make_game, play

LANGS = ("en", "zh")


def fields(text: str) -> set[str]:
    return {f for _, f, _, _ in string.Formatter().parse(text) if f}


def test_every_code_has_a_rule_entry_and_a_template_in_each_language():
    assert set(CODES) == set(REFUSALS) | set(OTHER_ERRORS)
    for lang in LANGS:
        table = i18n._flatten(i18n._table(lang))  # the language's own keys, no English fallback
        missing = sorted(c for c in CODES if f"refusal.{c}" not in table)
        assert not missing, (lang, missing)
        extra = sorted(k for k in table if k.startswith("refusal.") and k[8:] not in CODES)
        assert not extra, (lang, extra)
    for code in CODES:
        en, zh = (i18n.strings(lang)[f"refusal.{code}"] for lang in LANGS)
        assert fields(en) == fields(zh), code
        assert all(rule.startswith("R") for rule in [CODES[code]] if rule), code


def test_an_unknown_code_is_refused_loudly():
    with pytest.raises(ValueError, match="unknown refusal code"):
        IllegalAction("room_is_sad", {})


# ---------------------------------------------------------------------- scenarios
def dispatch(moves=(), **kw) -> Game:
    g = make_game(3, **kw)
    play(g, moves)
    return g


def broke(g: Game, seat: int):
    """A copy of the game's state where ``seat`` has no gold left (the fee refusals, R4.6)."""
    st = g.state.copy()
    st.bank_in += st.gold[seat]
    st.gold[seat] = 0
    return st


NPC_RULES = Rules(lords="none", npc=True)
NPC_ROOMS = [L1()] * 12
FR = Rules(lords="none", edition="fr")
STEP5 = ["Ann: place 1 1", "Bo: place 1 2", "Cy: place 1 3", "Cy: place 2 3", "Bo: place 2 2"]


def over() -> Game:
    g = Game(3, seed=4, rules=NO_LORDS)
    while not g.is_over:
        g.push(g.legal_actions()[0])
    return g


# code -> (a state, the move, the player or None, the expected params, English text)
CASES = {
    "game_over": (lambda: over().state, "place 1 1", None, {}, "the game is over (R6.4)"),
    "not_your_turn": (lambda: dispatch().state, "place 1 1", 1, {"player": 0, "name": "Ann"},
                      "it is Ann's turn (R4.1)"),
    "exhaust_first": (lambda: make_game(3, exhaust=None).state, "place 1 1", None,
                      {"player": 0, "name": "Ann"},
                      "Ann must first choose two adventurers to exhaust for round 1 (setup, R2.4), "
                      "e.g. 'exhaust 1 2'"),
    "exhaust_same_twice": (lambda: make_game(3, exhaust=None).state, "exhaust 2 2", None,
                           {"strength": 2}, "choose two different adventurers to exhaust (R2.4)"),
    "exhaust_after_setup": (lambda: dispatch().state, "exhaust 1 2", None, {},
                            "adventurers are exhausted at setup only (R2.4); the game is past setup"),
    "no_such_strength": (lambda: dispatch().state, "place 6 1", None, {"strength": 6},
                         "adventurers have strengths 1 to 5, not 6 (R1.1)"),
    "no_such_room": (lambda: dispatch().state, "place 1 4", None, {"room": 4, "rooms": 3},
                     "there is no room 4: this dungeon has rooms 1 to 3 (R2.3)"),
    "not_an_action": (lambda: dispatch().state, "jump", None, {"action": "'jump'"}, "unknown action 'jump'"),
    "adventurer_exhausted": (lambda: dispatch().state, "place 4 1", None, {"strength": 4},
                             "your strength-4 adventurer is exhausted this round (R6.2)"),
    "adventurer_in_dungeon": (lambda: dispatch(STEP5).state, "place 1 1", None, {"strength": 1},
                              "your strength-1 adventurer is already in the dungeon (R4.3)"),
    "lord_forbids": (lambda: make_game(3, rules=Rules(), lords=["succubus", "beholder", "guardian"]).state,
                     "place 1 1", None, {"lord": "succubus", "strength": 1},
                     "The Succubus forbids strength-1 adventurers this round (R7.5)"),
    "room_full": (lambda: dispatch(["Ann: place 1 1", "Bo: place 1 1"]).state, "place 2 1", None,
                  {"room": 1}, "room 1 is full: bump or swap an adventurer instead (R4.3)"),
    "slot_empty": (lambda: dispatch(["Ann: place 1 1"]).state, "bump 2 1b", None, {"room": 1, "slot": "b"},
                   "room 1 slot b is empty: place an adventurer there instead (R4.3)"),
    "room_locked": (lambda: dispatch(["Ann: place 3 1", "Bo: place 2 1"]).state, "bump 3 1a", None,
                    {"room": 1}, "room 1 is locked: its adventurers cannot be replaced (R4.3)"),
    "bump_own": (lambda: dispatch(["Ann: place 1 1", "Bo: place 1 1", "Cy: place 1 2", "Cy: place 2 2"]).state,
                 "bump 2 1b", None, {"room": 1, "slot": "b"},
                 "the adventurer in room 1 slot b is yours: use swap to replace your own (R4.5)"),
    "room_not_full": (lambda: dispatch(["Ann: place 1 1"]).state, "bump 2 1a", None, {"room": 1},
                      "room 1 is not full: only adventurers in a full room can be bumped (R4.4)"),
    "bump_too_weak": (lambda: dispatch(["Ann: place 2 1", "Bo: place 1 1"]).state, "bump 1 1a", None,
                      {"strength": 1, "defender": 2},
                      "you need an adventurer stronger than 2 to bump it (R4.4)"),
    "bump_fee": (lambda: broke(dispatch(["Ann: place 1 1", "Bo: place 1 1"]), 2), "bump 2 1a", None,
                 {"level": 1, "fee": 1, "gold": 0},
                 "a Lv1 bump costs $1 and you have $0 (R4.6)"),
    "bump_npc_fee": (lambda: broke(dispatch(["Ann: place 1 1"], rooms=NPC_ROOMS, rules=NPC_RULES), 1),
                     "bump 2 1a", None, {"fee": 1, "gold": 0}, "bumping an NPC costs $1 and you have $0 (R4.6)"),
    "swap_other": (lambda: dispatch(["Ann: place 1 1"]).state, "swap 2 1a", None,
                   {"room": 1, "slot": "a", "owner": 0, "name": "Ann"},
                   "room 1 slot a holds Ann's adventurer: swap replaces only your own; use bump (R4.5)"),
    "swap_npc": (lambda: dispatch(rooms=NPC_ROOMS, rules=NPC_RULES).state, "swap 2 1a", None,
                 {"room": 1, "slot": "a"},
                 "room 1 slot a holds an NPC: swap replaces only your own; use bump (R4.5)"),
    "swap_room_not_full": (lambda: dispatch(STEP5, rules=FR).state, "swap 2 1a", None, {"room": 1},
                           "room 1 is not full: the French edition swaps only in a full room (R9.1)"),
    "swap_too_weak": (lambda: dispatch(["Ann: place 2 1"] + STEP5[1:]).state, "swap 1 1a", None,
                      {"strength": 1, "defender": 2}, "you need an adventurer stronger than 2 to swap (R4.5)"),
    "swap_fee": (lambda: broke(dispatch(STEP5), 0), "swap 2 1a", None, {"fee": 1, "gold": 0},
                 "a swap costs $1 and you have $0 (R4.6)"),
}


def test_every_refusal_code_has_a_scenario():
    assert set(CASES) == set(REFUSALS)


@pytest.mark.parametrize("code", sorted(CASES))
def test_each_refusal_from_a_real_game(code):
    make, move, player, params, english = CASES[code]
    st = make()
    action = parse(move) if move != "jump" else "jump"
    before = (st.gold[:], st.slot_owner[:], st.current, st.phase)
    err = st.refusal(action, player)
    assert isinstance(err, IllegalAction)
    assert (err.code, err.rule, err.params) == (code, CODES[code], params)
    assert str(err) == english == i18n.refusal_text(err, "en") == st.why_illegal(action, player)
    zh = i18n.refusal_text(err, "zh")
    assert zh != english and "{" not in zh
    if err.rule:
        assert err.rule in english and err.rule in zh  # the board shows the rule with the words
    with pytest.raises(IllegalAction) as raised:
        st.apply_action(action, player)
    assert raised.value.code == code
    assert (st.gold, st.slot_owner, st.current, st.phase) == before  # a refusal changes nothing


def test_game_refusal_names_the_value_and_push_raises_it():
    g = dispatch(["Ann: place 1 1"])
    err = g.refusal("Bo: bump 2 1a")
    assert (err.code, err.rule, err.params) == ("room_not_full", "R4.4", {"room": 1})
    assert g.refusal("place 2 2") is None
    with pytest.raises(IllegalAction) as raised:
        g.push("bump 2 1a")
    assert raised.value.params == {"room": 1} and raised.value.action == Action(BUMP, 2, 1, 0)


def test_chinese_fills_in_the_lords_name_and_a_seat_from_1():
    err = CASES["lord_forbids"][0]().refusal(parse("place 1 1"))
    assert i18n.refusal_text(err, "zh") == "魅魔：本回合不能派遣力量 1 的冒險者（R7.5）"
    err = IllegalAction("not_your_turn", {"player": 2, "name": "Cy"})
    assert i18n.refusal_text(err, "zh") == "現在輪到 Cy（R4.1）"


def test_a_list_in_a_refusal_is_joined_in_the_language():
    """The players a move may name: 「Ann、Bo、Cy」 in 繁體中文, "Ann, Bo, Cy" in English."""
    err = _raised(OTHER_CASES["not_a_player"][0])
    assert i18n.refusal_text(err, "zh").endswith("（Ann、Bo、Cy）")
    assert i18n.refusal_text(err, "en").endswith("(Ann, Bo, Cy)")


def test_refusals_survive_pickling_for_process_pools():
    import pickle

    err = IllegalAction("bump_fee", {"level": 2, "fee": 2, "gold": 1})
    back = pickle.loads(pickle.dumps(err))
    assert (back.code, back.params, str(back)) == (err.code, err.params, str(err))


# ---------------------------------------------------------------------- other coded errors
def _raised(fn):
    try:
        fn()
    except (ActionSyntaxError, GameError, RulesError, IllegalAction) as err:
        return err
    raise AssertionError("nothing was raised")


def _chosen_twice():
    """R2.4: a seat's secret setup choice held (the table model's SecretSetup), then a second one."""
    from dungeon_guilds.table_model import SecretSetup

    game, secret = Game(3, seed=1), SecretSetup()
    secret.choose(game, 0, parse("exhaust 1 2"))
    secret.choose(game, 0, parse("exhaust 2 3"))


OTHER_CASES = {
    "exhaust_two": (lambda: Game(3, seed=1, exhaust={"Ann": (1, 2, 3)}), {"player": 0, "name": "Ann"}),
    "exhaust_chosen": (_chosen_twice, {"player": 0, "name": "Ann"}),
    "undo_too_far": (lambda: Game(3, seed=1).undo(2), {"steps": 0}),
    "move_not_text": (lambda: parse(12), {"text": "12"}),
    "move_unreadable": (lambda: parse("put 1 there"), {"text": "'put 1 there'"}),
    "move_unknown_kind": (lambda: parse("jump 1 1"), {"text": "'jump 1 1'", "kind": "'jump'"}),
    "move_no_slot_letter": (lambda: parse("place 1 1a"), {"text": "'place 1 1a'", "kind": "place"}),
    "move_needs_slot": (lambda: parse("bump 2 1"), {"text": "'bump 2 1'", "kind": "bump", "example": "bump 2 1a"}),
    "not_a_player": (lambda: Game(3, seed=1).push("Zed: exhaust 1 2"), {"name": "'Zed'", "players": ("Ann", "Bo", "Cy")}),
    "player_count": (lambda: Rules().check_players(7), {"players": 7}),
    "team_player_count": (lambda: Rules(teams="2v2").check_players(5), {"teams": "2v2", "need": 4, "players": 5}),
    "npc_player_count": (lambda: Rules(npc=True).check_players(6), {"players": 6}),
    "names_differ": (lambda: Game(["Ann", "Ann", "Bo"], seed=1), {}),
}


def test_every_other_code_has_a_case():
    assert set(OTHER_CASES) | set(REFUSALS) == set(CODES)


@pytest.mark.parametrize("code", sorted(OTHER_CASES))
def test_other_coded_errors_word_the_same_in_english_and_translate(code):
    make, params = OTHER_CASES[code]
    err = _raised(make)
    assert (err.code, err.params) == (code, params)
    assert i18n.refusal_text(err, "en") == str(err)  # the message given where it is raised
    zh = i18n.refusal_text(err, "zh")
    assert zh != str(err) and "{" not in zh
    assert i18n.error_text(err, "zh").endswith(zh)


# ---------------------------------------------------------------------- one source of legality
def test_the_reasons_agree_with_legal_actions_everywhere():
    """Legality is membership in legal_actions; _explain only words a refusal. On many real
    positions every candidate is either listed legal (and no rule refuses it) or refused with a
    code, never both, never neither."""
    candidates = ([Action(PLACE, s, r) for s in range(0, 7) for r in range(1, 8)]
                  + [Action(k, s, r, x) for k in (BUMP, SWAP) for s in range(1, 6) for r in range(1, 8)
                     for x in (0, 1)]
                  + [Action(EXHAUST, a, other=b) for a in range(0, 7) for b in range(0, 7)])
    combos = [(3, Rules()), (4, Rules(lords="all", npc=True)), (5, Rules(edition="fr", npc=True))]
    checked = 0
    for seed in range(3):
        for n, rules in combos:
            g = Game(n, seed=seed, rules=rules)
            rng = random.Random(seed)
            while not g.is_over:
                st = g.state
                legal = set(st.legal_actions())
                for a in candidates:
                    probe = a if a.kind != EXHAUST or a.strength <= a.other else Action(EXHAUST, a.other, other=a.strength)
                    assert (probe in legal) == (st._explain(a) is None), (str(a), st._explain(a))
                    checked += 1
                g.push(rng.choice(sorted(legal)))
    assert checked > 10_000


def test_a_state_knows_the_seat_that_started_the_game():
    g = make_game(3, start=2)
    assert g.start_seat == 2 and g.state.first_start == 2
    while not g.is_over:
        g.push(g.legal_actions()[0])
        assert g.state.first_start == 2  # the marker moved on (R6.3); round 1's holder did not
    assert g.to_record()["start_player"] == "Cy"
