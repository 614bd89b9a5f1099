"""Tests that kill the mutants mutation testing found alive in the rule modules (issue 54,
item 3; `make mutation`, docs/architecture.md "Mutation testing"). Each cites its rule."""

from __future__ import annotations

import random
import re
from dataclasses import replace
from itertools import islice
from pathlib import Path

import pytest

from dungeon_guilds import Game, Rules
from dungeon_guilds.actions import BUMP, SWAP, Action, ActionSyntaxError, bump, parse_move, place, swap
from dungeon_guilds.cards import RoomCard
from dungeon_guilds.effects import (EQUAL_STRENGTHS, EffectError, HealModifier, LowestTotalBonus,
                                    PlacementBan, RoomModifier, RoundNumbers, StartFlip,
                                    effect_from_dict, effect_to_dict, effects_rules)
from dungeon_guilds.lords import ALL_LORDS, Lord, LordError, get_lord, lord_from_dict
from dungeon_guilds.cards import strengths_of
from dungeon_guilds.payout import EMPTY, NPC, split
from dungeon_guilds.scoring import result
from dungeon_guilds.rules import (EDITION_SILENCES, OPTIONS, RULINGS, RulesError, describe_value,
                                  differences, room_counts, unstated_in_fr)
from dungeon_guilds.turn_order import seat_at, snake, snake_order
from dungeon_guilds.view import KnownHands, RoomView


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


def test_R4_1_the_snake_starts_at_seat_0_unless_told_and_one_player_plays_alone():
    """R4.1 from its text, 1-2-3-4-4-3-2-1, with the start seat defaulting to seat 0 in every
    reader of turn_order; a one-player snake is that player twice; no player is an error."""
    four = [0, 1, 2, 3, 3, 2, 1, 0]
    assert snake_order(4) == four
    assert [seat_at(k, 4) for k in range(8)] == four
    assert list(islice(snake(4), 10)) == four + [0, 1]
    assert snake_order(4, 2) == [2, 3, 0, 1, 1, 0, 3, 2]
    assert snake_order(1) == [0, 0]
    with pytest.raises(ValueError, match="^the snake needs at least one player$"):
        snake_order(0)


@pytest.mark.parametrize("teams", [None, "2v2"])
def test_R8_1_nobody_has_won_before_the_last_round_ends(teams):
    """The winners are decided at the end of the game (R6.4, R8.1): mid-game, with or without
    teams (R10.1), the result names none, though gold and tie-break are already counted."""
    game = Game(4, seed=3, rules=Rules(teams=teams))
    while game.state.round < 2:
        game.push(game.legal_actions()[0])
    res = result(game.state)
    assert not res.finished and res.winners == ()
    assert res.gold == tuple(game.state.gold)
    assert teams is None or res.winning_teams == ()


RULES_MD = Path(__file__).resolve().parents[1] / "docs" / "rules.md"


def rules_md_lords() -> dict[str, tuple[str, bool]]:
    """docs/rules.md §7's table: {'English name 中文名': (effect, promo)}."""
    text = RULES_MD.read_text("utf-8")
    section = text.split("## 7.", 1)[1].split("\n## ", 1)[0]
    rows = {}
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 2 and cells[0] not in ("lord", "---"):
            name, promo = cells[0].removesuffix(" (promo)"), cells[0].endswith("(promo)")
            rows[name] = (cells[1], promo)
    return rows


@pytest.mark.parametrize("lord", ALL_LORDS, ids=lambda lord: lord.id)
def test_S7_each_lord_card_says_what_the_rules_table_says(lord):
    """§7: a lord's English and Chinese names, its English effect text and whether it is a
    promo card (R7.4) are those of docs/rules.md's table; its Chinese texts are Chinese."""
    effect, promo = rules_md_lords()[f"{lord.name_en} {lord.name_zh}"]
    assert lord.text_en.endswith(".") and lord.text_en[0].isupper()
    assert lord.text_en[0].lower() + lord.text_en[1:-1] == effect
    assert lord.promo == promo
    assert lord.name("en") == lord.name_en and lord.name("zh") == lord.name_zh
    assert lord.text("en") == lord.text_en and lord.text("zh") == lord.text_zh
    for zh in (lord.name_zh, lord.text_zh):
        assert not re.search(r"[A-Za-z]", zh), zh
    assert get_lord(lord.id) is lord
    assert lord_from_dict(lord.to_dict()) == replace(lord, rule="")


def test_R7_a_lord_names_its_rulings_and_speaks_english_by_default():
    """A lord's rules include its own ruling (R7.2 the Caveman, R5.3 the Vampire Lord's floor)
    and R7.4 for a promo card; name() and text() default to English."""
    caveman, vampire = get_lord("caveman"), get_lord("vampire_lord")
    assert caveman.rules() == ["R7.2", "R7.4"]
    assert vampire.rules() == ["R5.3"]
    ruled = Lord("ruled", "Ruled", "裁定", "", "", (PlacementBan((2,)),), rule="R4.3")
    assert ruled.rules() == ["R7.5", "R4.3"]  # a ruling its effects do not imply is listed too
    assert (caveman.name(), caveman.text()) == ("The Caveman", caveman.text_en)
    with pytest.raises(LordError, match=r"^unknown lord id 'zz' \(known: succubus, vampire_lord, "
                                        r"beholder, lich_king, .*, boardgame_lord\)$"):
        get_lord("zz")


def test_R7_4_a_custom_lord_from_a_table_gets_its_id_as_names_and_no_promo():
    """A workshop lord (a table, as Lord.to_dict writes it) needs only an id and effects: its
    names default to the id, its texts to empty, and it is not a promo card (R7.4)."""
    lord = lord_from_dict({"id": "mine", "effects": [{"kind": "room", "rooms": [1], "treasure": 2}]})
    assert (lord.name_en, lord.name_zh, lord.text_en, lord.text_zh) == ("mine", "mine", "", "")
    assert lord.promo is False and lord.rule == ""
    assert len(lord.effects) == 1
    assert lord_from_dict({"id": 7, "effects": []}).name_en == "7"


@pytest.mark.parametrize("data, message", [
    ([], "lord: expected a table with id, names and effects"),
    ({"effects": []}, "lord.id: missing"),
    ({"id": "x"}, "lord.effects: missing"),
    ({"id": "x", "effects": {}}, "lord.effects: expected a list of effects"),
    ({"id": "x", "effects": [{"kind": "nope"}]},
     "lord.effects[0].kind: unknown effect kind 'nope' (known: room, heal, ban, flip, bonus)"),
])
def test_a_custom_lord_that_cannot_be_used_is_refused_naming_the_field(data, message):
    """A malformed lord table is refused with a sentence naming the field (the lord builder
    shows it); nothing is half made."""
    with pytest.raises(ValueError) as err:
        lord_from_dict(data)
    assert str(err.value) == message


def test_unreadable_move_text_carries_the_code_a_language_words():
    """Move text outside the notation (R4.3-R4.5, R2.4 moves) is refused with the code
    ``move_unreadable`` unless a more precise one applies, so each language can word it."""
    assert ActionSyntaxError("cannot read it").code == "move_unreadable"
    with pytest.raises(ActionSyntaxError) as err:
        parse_move("jump 3")
    assert err.value.code == "move_unreadable" and err.value.params == {"text": "'jump 3'"}


def unrevealed_levels(state) -> tuple[int, ...]:
    """Levels of the rooms dealt in finished rounds whose fronts nobody saw (R2.3 backs are
    public, R5.1 resolution stopped above them), worked out from the deck and the seen fronts."""
    done = state.deck_pos if state.is_over else state.deck_pos - len(state.rooms)
    left = [card.level for card in state.deck[:done]]
    for card in state.seen:
        left.remove(card.level)
    return tuple(sorted(left))


def check_view(state, seat: int) -> None:
    view = state.view(seat)
    public = state.round > 0 and state.phase != "setup"  # R2.4 secret until round 2, then R6.2
    for p in range(state.n):
        known = p == seat or public
        assert view.active[p] == (state.active[p] if known else -1)
        assert view.exhausted[p] == (state.exhausted[p] if known else -1)
        assert view.knows_hand(p) == known
    assert state.known_hands(seat) == KnownHands(seat, view.active, view.exhausted)
    assert view.hand() == strengths_of(state.active[seat])
    shown_round = min(state.round, state.rounds - 1)  # the last round stays shown once over
    assert (view.player, view.names, view.round, view.rounds) == (seat, state.names, shown_round + 1, state.n)
    assert (view.phase, view.current, view.start) == (state.phase, state.current, state.start)
    assert (view.lord_id, view.lord_effects_on) == (state.lord.id, state.rules.lords != "none")
    assert view.lords_shown == tuple(lord.id for lord in state.lords[:shown_round + 1])  # R3.1
    assert view.gold == tuple(state.gold) and view.heal_costs == tuple(state.heal)
    assert view.printed_heal == tuple(state.base_heal) and view.setup_gain == tuple(state.setup_gain)
    assert view.shown == tuple(state.shown)
    assert view.seen == tuple(state.seen) and view.unseen == tuple(state.unseen_cards())
    assert view.deck_left == len(state.deck) - state.deck_pos
    assert view.hidden_levels == unrevealed_levels(state)
    assert len(view.rooms) == len(state.rooms)
    for i, room in enumerate(view.rooms):
        card = state.rooms[i]
        slots = tuple(None if state.slot(i, x)[0] == EMPTY else state.slot(i, x) for x in (0, 1))
        assert room == RoomView(i + 1, card.level, state.levels[card.level], state.lock_threshold(i),
                                state.lord_defence_change(i), state.locked[i], slots)


@pytest.mark.parametrize("n, rules", [(3, Rules(npc=True)), (4, Rules(lords="all", teams="2v2")),
                                      (6, Rules(lords="all", edition="fr"))])
def test_R2_4_R6_2_what_a_player_sees_at_every_step_of_a_game(n, rules):
    """A player's view (view.py) at every step of whole games, for every seat: their own hand
    always; the others' hands hidden in round 1 (the secret exhaust choice, R2.4) and public
    from round 2 (R6.2: the exhausted are those seen placed); room backs, locks, thresholds and
    slots as the table shows them (R2.3, R4.3, R7.1), the lords revealed so far (R3.1), the
    levels of earlier rooms never revealed (R5.1), and gold, fronts seen, the deck left."""
    state = Game(n, seed=11, rules=rules).state
    chooser = random.Random(5)
    steps = 0
    while True:
        for seat in range(n):
            check_view(state, seat)
        if state.is_over:
            break
        state.apply_action(chooser.choice(state.legal_actions()))
        steps += 1
    assert steps > 2 * n * n  # the setup choices and at least two placements a player a round


@pytest.mark.parametrize("options, message", [
    ({"lords": "x"}, "rules.lords: expected one of none, base, all, got 'x'"),
    ({"teams": "1v1"}, "rules.teams: expected one of 2v2, 3v3, 2v2v2 or none, got '1v1'"),
    ({"npc": 1}, "rules.npc: expected true or false, got 1"),
    ({"edition": "de"}, "rules.edition: expected one of zh, fr, got 'de'"),
])
def test_R7_4_R9_R10_an_option_that_does_not_exist_is_refused_naming_it(options, message):
    """A rule option outside §7 (lords), §10 (teams, NPCs) or §9 (edition) is refused with a
    sentence naming the option and the values it takes."""
    with pytest.raises(RulesError) as err:
        Rules(**options)
    assert str(err.value) == message


@pytest.mark.parametrize("n, rules, message, code, params", [
    (2, Rules(), "Dungeon Guilds is for 3-6 players, not 2", "player_count", {"players": 2}),
    (7, Rules(), "Dungeon Guilds is for 3-6 players, not 7", "player_count", {"players": 7}),
    (5, Rules(teams="2v2"), "teams 2v2 needs 4 players, not 5 (R10.1)", "team_player_count",
     {"teams": "2v2", "need": 4, "players": 5}),
    (4, Rules(teams="3v3"), "teams 3v3 needs 6 players, not 4 (R10.1)", "team_player_count",
     {"teams": "3v3", "need": 6, "players": 4}),
    (5, Rules(teams="2v2v2"), "teams 2v2v2 needs 6 players, not 5 (R10.1)", "team_player_count",
     {"teams": "2v2v2", "need": 6, "players": 5}),
    (6, Rules(npc=True), "NPC adventurers are for games of fewer than 6 players (R10.2)",
     "npc_player_count", {"players": 6}),
])
def test_R10_player_counts_each_option_cannot_play_are_refused(n, rules, message, code, params):
    """3-6 players; 2v2 needs 4, 3v3 and 2v2v2 need 6 (R10.1); NPCs only below 6 (R10.2). The
    refusal carries a code and params so each language can word it."""
    with pytest.raises(RulesError) as err:
        rules.check_players(n)
    assert (str(err.value), err.value.code, err.value.params) == (message, code, params)


def test_R10_the_player_counts_each_option_can_play_are_accepted():
    for n in (3, 4, 5, 6):
        Rules().check_players(n)
        if n < 6:
            Rules(npc=True).check_players(n)  # R10.2 below 6
    Rules(teams="2v2").check_players(4)
    Rules(teams="3v3").check_players(6)
    Rules(teams="2v2v2").check_players(6)
    assert RulesError("x").code is None and RulesError("x").params == {}


def test_R2_3_R10_2_rooms_a_round_and_a_game():
    """R2.3 as many rooms a round as players, one more with NPCs (R10.2); a game deals one
    round per player (R3); rounds can have 3 to 6 rooms."""
    assert [Rules().rooms_per_round(n) for n in (3, 4, 5, 6)] == [3, 4, 5, 6]
    assert [Rules(npc=True).rooms_per_round(n) for n in (3, 4, 5)] == [4, 5, 6]
    assert Rules().rooms_dealt(4) == 16 and Rules(npc=True).rooms_dealt(5) == 30
    assert room_counts() == [3, 4, 5, 6]


def test_records_carry_every_option_and_refuse_an_unknown_one():
    assert Rules().with_options(npc=True, edition="fr") == Rules(npc=True, edition="fr")
    assert Rules(lords="all").with_options() == Rules(lords="all")
    assert Rules.from_dict(None) == Rules()
    every = {"lords": "all", "teams": "2v2", "npc": True, "edition": "fr"}
    assert Rules.from_dict(every).to_dict() == every
    with pytest.raises(RulesError) as err:
        Rules.from_dict([])
    assert str(err.value) == "rules: expected a table of options"
    with pytest.raises(RulesError) as err:
        Rules.from_dict({"lords": "all", "x": 1})
    assert str(err.value) == "rules.x: unknown option (known: edition, lords, npc, teams)"


def test_R9_R10_differences_word_every_option_that_changes():
    """The rules explorer's list (§9, §10): each changed option from its words to its words,
    and for an edition change R9.1 then every point the French summary leaves open."""
    silences = [f"{rule}: {text}" for rule, text in EDITION_SILENCES]
    assert differences(Rules(), Rules(lords="all", teams="3v3", npc=True, edition="fr")) == [
        "lords: the six base lords' effects → base and promo lords' effects",
        "teams: no teams → teams 3v3 (R10.1)",
        "npc: no NPC adventurers → NPC adventurers (R10.2)",
        "edition: the Chinese rulebook → the French summary (R9.1: swap only in a full room)",
        "replacing your own adventurer: unlocked room → unlocked and full room (R9.1)",
    ] + silences
    assert differences(Rules(lords="none", edition="fr"), Rules(lords="base")) == [
        "lords: lords only count rounds (no effects) → the six base lords' effects",
        "edition: the French summary (R9.1: swap only in a full room) → the Chinese rulebook",
        "replacing your own adventurer: unlocked and full room → unlocked room (R9.1)",
    ] + silences
    assert describe_value("teams", None) == "no teams" and describe_value("x", 3) == "3"
    assert [rule for rule, _ in unstated_in_fr()] == ["R9.2", "R9.3", "R9.5", "R9.5", "R9.5", "R9.5", "R9.5"]


def test_the_options_table_lists_each_option_its_values_and_default():
    """``rules --json`` and the explorer read OPTIONS: one row per Rules field, its values, its
    default (the Chinese rulebook, base lords), and whether it is a project ruling (R10.2)."""
    rows = {o.name: (o.values, o.default, o.ruling) for o in OPTIONS}
    assert rows == {"lords": (("none", "base", "all"), "base", False),
                    "teams": ((None, "2v2", "3v3", "2v2v2"), None, False),
                    "npc": ((False, True), False, True), "edition": (("zh", "fr"), "zh", False)}
    assert Rules().to_dict() == {name: default for name, (_, default, _) in rows.items()}
    cite = r"\bR\d+\.\d+\b|§\d+"  # a rule or a section of docs/rules.md
    rule_numbers = set(re.findall(cite, RULES_MD.read_text("utf-8")))
    for option in OPTIONS:
        cited = re.findall(cite, option.source)
        assert cited and set(cited) <= rule_numbers, option.name
    assert {rule for rule, _ in RULINGS} <= rule_numbers


@pytest.mark.parametrize("data, message", [
    ([], "effect: expected a table with a 'kind'"),
    ({"kind": "x"}, "effect.kind: unknown effect kind 'x' (known: room, heal, ban, flip, bonus)"),
    ({"kind": "heal", "strengths": [4]}, "effect.delta: missing"),
    ({"kind": "ban", "strengths": "1"}, "effect.strengths: expected a list of whole numbers"),
    ({"kind": "ban", "strengths": [True]}, "effect.strengths: expected a list of whole numbers"),
    ({"kind": "ban", "strengths": [0]}, "effect.strengths: strengths are 1-5"),
    ({"kind": "flip", "exhaust": [6], "activate": []}, "effect.exhaust: strengths are 1-5"),
    ({"kind": "room", "rooms": [0], "treasure": 1},
     "effect.rooms: positions count from 1 (top) or -1 (bottom), and a dungeon has at most 6 rooms"),
    ({"kind": "room", "rooms": [-7], "treasure": 1},
     "effect.rooms: positions count from 1 (top) or -1 (bottom), and a dungeon has at most 6 rooms"),
    ({"kind": "room", "when": "never", "treasure": 1}, "effect.when: expected one of always, equal_strengths"),
    ({"kind": "heal", "strengths": [4], "delta": True}, "effect.delta: expected a whole number"),
    ({"kind": "heal", "strengths": [4], "delta": "2"}, "effect.delta: expected a whole number"),
    ({"kind": "bonus", "amount": -1}, "effect.amount: a bonus is paid by the bank, so it cannot be "
     "negative (gold never goes below $0, docs/rules.md §11)"),
    ({"kind": "bonus", "amount": 1, "more": 2, "extra": 1}, "effect: unknown field(s) extra, more for kind 'bonus'"),
])
def test_S7_an_effect_table_that_cannot_be_used_is_refused_naming_the_field(data, message):
    """A workshop lord's effect (§7's vocabulary) is refused field by field, in words."""
    with pytest.raises(EffectError) as err:
        effect_from_dict(data)
    assert str(err.value) == message


EFFECTS = [  # effect, the rules it touches, its words, its problem
    (RoomModifier((1,), 2, 3), ("R7.1",), ("room", {"rooms": (1,), "defence": 2, "treasure": 3, "when": "always"}), None),
    (RoomModifier((-1,), -3, -5), ("R7.1", "R5.3"),
     ("room", {"rooms": (-1,), "defence": -3, "treasure": -5, "when": "always"}), None),
    (RoomModifier((2,), 0, -1), ("R5.3",), ("room", {"rooms": (2,), "defence": 0, "treasure": -1, "when": "always"}), None),
    (RoomModifier(treasure=3, when=EQUAL_STRENGTHS), ("R5.2",),
     ("room", {"rooms": (), "defence": 0, "treasure": 3, "when": "equal_strengths"}), None),
    (RoomModifier(), (), ("room", {"rooms": (), "defence": 0, "treasure": 0, "when": "always"}), ("room_effect_no_change", {})),
    (RoomModifier(defence=1), ("R7.1",), ("room", {"rooms": (), "defence": 1, "treasure": 0, "when": "always"}), None),
    (HealModifier((4, 5), 2), ("R2.4", "R6.1"), ("heal", {"strengths": (4, 5), "delta": 2}), None),
    (HealModifier((), 2), ("R2.4", "R6.1"), ("heal", {"strengths": (), "delta": 2}), ("heal_no_strengths", {})),
    (HealModifier((4,), 0), ("R2.4", "R6.1"), ("heal", {"strengths": (4,), "delta": 0}), ("heal_zero", {})),
    (PlacementBan((1,)), ("R7.5",), ("ban", {"strengths": (1,)}), None),
    (PlacementBan(()), ("R7.5",), ("ban", {"strengths": ()}), ("ban_no_strengths", {})),
    (PlacementBan((1, 2, 3, 4, 5)), ("R7.5",), ("ban", {"strengths": (1, 2, 3, 4, 5)}), ("ban_every_strength", {})),
    (StartFlip((1, 2), (3, 4, 5)), ("R7.2",), ("flip", {"exhaust": (1, 2), "activate": (3, 4, 5)}), None),
    (StartFlip((1,), ()), ("R7.2",), ("flip_exhaust", {"exhaust": (1,)}), None),
    (StartFlip((), (2,)), ("R7.2",), ("flip_activate", {"activate": (2,)}), None),
    (StartFlip((), ()), ("R7.2",), ("flip_exhaust", {"exhaust": ()}), ("flip_no_strengths", {})),
    (StartFlip((2, 3, 4), (4, 3)), ("R7.2",), ("flip", {"exhaust": (2, 3, 4), "activate": (4, 3)}), ("flip_both", {"strength": 3})),
    (LowestTotalBonus(3), ("R7.3",), ("bonus", {"amount": 3}), None),
    (LowestTotalBonus(0), ("R7.3",), ("bonus", {"amount": 0}), ("bonus_zero", {})),
]


@pytest.mark.parametrize("effect, rules, words, problem", EFFECTS, ids=lambda e: getattr(e, "kind", None))
def test_S7_each_effect_names_its_rules_words_and_problem(effect, rules, words, problem):
    """Each effect says the rules it touches (R7.1 a defence change moves the lock threshold,
    R5.3 a cut stops at 0, R5.2 equal strengths, R2.4/R6.1 heal, R7.5 ban, R7.2 flip, R7.3
    bonus), its words for the Rules tab and what makes it do nothing; a table round-trips."""
    assert (effect.rules(), effect.words(), effect.problem()) == (rules, words, problem)
    assert effect_from_dict(effect_to_dict(effect)) == effect
    assert effect_to_dict(effect)["kind"] == effect.kind


def test_S7_room_positions_count_from_the_top_and_from_the_bottom():
    """§7: "first room" is the top, "last room" the bottom; 2 the second, -2 the one above
    the last; no position: every room."""
    picks = lambda rooms, k: [i for i in range(k) if RoomModifier(rooms, treasure=1).selects(i, k)]  # noqa: E731
    assert picks((1,), 4) == [0] and picks((2,), 4) == [1] and picks((-1,), 4) == [3]
    assert picks((-2, -1), 5) == [3, 4] and picks((1, 2), 3) == [0, 1] and picks((), 3) == [0, 1, 2]
    assert picks((5,), 4) == [] and picks((-5,), 4) == []
    six = effect_from_dict({"kind": "room", "rooms": [6, -6], "treasure": 1})  # a 6-room dungeon
    assert six.rooms == (6, -6) and picks(six.rooms, 6) == [0, 5]
    assert effect_to_dict(six) == {"kind": "room", "rooms": [6, -6], "defence": 0, "treasure": 1,
                                   "when": "always"}  # lists, as a lord file (TOML/JSON) holds them


def test_S7_R7_3_what_the_effects_add_to_a_rounds_numbers():
    """The round's numbers (state.lord_numbers reads them): room changes per room, equal-
    strength changes held as conditions, banned strengths as bits, heal changes per strength,
    the bonus; a flip adds nothing (it acts in the start phase, R7.2)."""
    numbers = RoundNumbers(4)
    assert (numbers.defence, numbers.treasure, numbers.cond, numbers.ban, numbers.heal, numbers.bonus) == \
        ([0] * 4, [0] * 4, [], 0, [0] * 6, 0)
    for effect in (RoomModifier((2,), 2, 3), RoomModifier((-1, 2), -1, 4), RoomModifier((1,), 1, 3, EQUAL_STRENGTHS),
                   HealModifier((4, 5), 2), HealModifier((5,), 1), PlacementBan((1, 3)), PlacementBan((3,)),
                   StartFlip((1, 2), (3, 4, 5)), LowestTotalBonus(3), LowestTotalBonus(2)):
        effect.add_numbers(numbers)
    assert numbers.defence == [0, 1, 0, -1] and numbers.treasure == [0, 7, 0, 4]
    assert numbers.cond == [(0, 1, 3)]
    assert numbers.ban == 0b1010 and numbers.heal == [0, 0, 0, 0, 2, 3] and numbers.bonus == 5
    assert effects_rules([RoomModifier((1,), 1), PlacementBan((1,)), RoomModifier((2,), 2)], True, "R7.1") == \
        ["R7.1", "R7.5", "R7.4"]
    assert effects_rules([LowestTotalBonus(1)]) == ["R7.3"]
    with pytest.raises(EffectError, match="^a lowest-total bonus is paid by the bank and cannot be negative$"):
        LowestTotalBonus(-1)


def test_R4_4_R4_5_R10_2_what_an_action_costs_before_it_is_taken():
    """State.action_fees (the hints and the table's confirm step read it): a bump pays by the
    room's level, $1 to the bank and $0/$1/$2 to the replaced player (R4.4); an NPC $1 to the
    bank (R10.2); a swap $1 (R4.5); a place, an empty slot, a room or slot that does not exist:
    nothing, and no owner."""
    state = Game(4, seed=2, rules=Rules(npc=True)).state
    for room, level in enumerate((1, 2, 1, 3, 3)):
        state.rooms[room] = RoomCard(level, 3, 3)
    for room in (0, 1, 3):
        state.set_slot(room, 0, 2, 1)  # seat 2's strength 1 in slot a
    state.set_slot(2, 0, NPC, 1)
    state.set_slot(4, 1, 1, 2)  # seat 1's own adventurer
    assert state.action_fees(bump(5, 1, "a")) == (1, 0, 2)
    assert state.action_fees(bump(5, 2, "a")) == (1, 1, 2)
    assert state.action_fees(bump(5, 4, "a")) == (1, 2, 2)
    assert state.action_fees(bump(5, 3, "a")) == (1, 0, NPC)
    assert state.action_fees(swap(5, 5, "b")) == (1, 0, 1)
    assert state.action_fees(place(5, 5)) == (0, 0, EMPTY)
    assert state.action_fees(bump(5, 5, "a")) == (0, 0, EMPTY)  # an empty slot
    for action in (bump(5, 0, "a"), bump(5, 6, "a"), Action(BUMP, 5, 1, 2), Action(SWAP, 5, 1, -1)):
        assert state.action_fees(action) == (0, 0, EMPTY), action
