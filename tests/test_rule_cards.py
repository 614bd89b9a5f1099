"""The rule cards (issue 19): every R-number of docs/rules.md is a card with words in English and
繁體中文, rulings are marked as the reference marks them, lords are cards with their numbers and
rulings; and the engine-worked examples give the numbers the rules reference states (checked
here against numbers worked out by hand from docs/rules.md and the reference deck, R1.4:
heal costs 1:$0 2:$1 3:$1 4:$2 5:$3; lock thresholds Lv1 5, Lv2 7, Lv3 9)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from dungeon_guilds import i18n
from dungeon_guilds import rule_examples as E
from dungeon_guilds.lords import ALL_LORDS, BASE_LORDS, PROMO_LORDS, LordError
from dungeon_guilds.rule_cards import (CARDS, CARDS_BY_ID, GROUPS, card, cards_in, cited_rules, lord_card,
                                       lord_cards, lord_rules, rule_line, rule_lines_for)

ROOT = Path(__file__).resolve().parents[1]
RULES_MD = ROOT / "docs" / "rules.md"


def rules_text() -> str:
    if not RULES_MD.exists():  # it lands with the branch that brings the rules reference in
        pytest.skip("docs/rules.md is missing: the rules reference is not in this checkout yet")
    return RULES_MD.read_text("utf-8")


def reference_rules() -> dict[str, str]:
    """{R-number: its text} of every numbered rule of docs/rules.md."""
    text = rules_text()
    out: dict[str, str] = {}
    for m in re.finditer(r"^- (R\d+\.\d+) (.*?)(?=^- R\d|^#|^\|\s|\Z)", text, re.M | re.S):
        out[m.group(1)] = m.group(2)
    return out


def test_every_rule_of_the_reference_is_a_card_and_every_card_a_rule():
    rules = reference_rules()
    assert len(rules) >= 30  # the reader found the numbered rules
    assert set(rules) == set(CARDS_BY_ID), (set(rules) ^ set(CARDS_BY_ID))
    cited = set(re.findall(r"\bR\d+\.\d+", rules_text()))
    assert cited <= set(CARDS_BY_ID), cited - set(CARDS_BY_ID)  # every R-number mentioned
    assert len(CARDS) == len(CARDS_BY_ID)  # no card twice


def test_cards_are_grouped_as_the_game_flows():
    assert GROUPS == ("setup", "placement", "resolution", "cleanup", "end", "lords", "variants", "editions")
    assert [c.id for c in cards_in("placement")] == [f"R4.{i}" for i in range(1, 9)]
    assert {c.group for c in CARDS} == set(GROUPS)
    assert all(c.group == "lords" for c in CARDS if c.id.startswith("R7."))
    with pytest.raises(ValueError, match="no group"):
        cards_in("nowhere")


def test_rulings_are_marked_where_the_reference_says_ruling():
    rules = reference_rules()
    for rid, text in rules.items():
        assert CARDS_BY_ID[rid].ruling == ("ruling" in text.lower()), rid


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_card_has_its_words_in_both_languages(lang):
    table = i18n.strings(lang)
    own = i18n._table(lang)["rulecard"]  # the language's own file, not the English fallback
    for c in CARDS:
        section = own[c.id.replace(".", "_")]
        fields = {"title", "line", "body"} | ({"ruling"} if c.ruling else set())
        assert set(section) == fields, c.id
        for f in fields:
            assert table[f"{c.key}.{f}"].strip(), (c.id, f)
    if lang == "zh":  # really translated: no card line is the English one
        assert not [c.id for c in CARDS if c.line("zh") == c.line("en")]


def test_rule_line_is_the_cards_one_line_text_with_its_number():
    assert rule_line("R4.4", "en").startswith("R4.4 In an unlocked, full room")
    assert "strictly stronger" in rule_line("R4.4", "en")
    assert rule_line("4.5", "zh") == "R4.5 " + card("R4.5").line("zh")
    assert "\n" not in "".join(rule_line(c.id, lang) for c in CARDS for lang in ("en", "zh"))
    with pytest.raises(ValueError, match="no rule card 'R99.1'"):
        rule_line("R99.1")


def test_cited_rules_finds_the_cards_an_engine_refusal_names():
    assert cited_rules("you need an adventurer stronger than 2 to swap (R4.5)") == ["R4.5"]
    assert cited_rules("room 1 is locked (R4.3); see R4.3 and R9.1, not R99.9") == ["R4.3", "R9.1"]
    assert cited_rules("") == []
    assert rule_lines_for("a Lv3 bump costs $3 and you have $2 (R4.6)", "zh") == ["R4.6 " + card("R4.6").line("zh")]
    refused = E.swap_check("not_full", "fr")  # the engine's refusal value carries its rule
    assert refused.rule == "R9.1" and rule_lines_for(refused, "en") == [rule_line("R9.1", "en")]


def test_the_eleven_lords_are_cards_with_effect_numbers_and_rulings():
    assert len(ALL_LORDS) == 11 and len(BASE_LORDS) == 6 and len(PROMO_LORDS) == 5
    for lang in ("en", "zh"):
        cards = lord_cards(lang)
        assert [c.id for c in cards] == [x.id for x in ALL_LORDS]
        for c, lord in zip(cards, ALL_LORDS):
            assert c.effect == i18n.lord_text(lord, lang) and c.name == i18n.lord_name(lord, lang)
            assert c.numbers and c.promo == lord.promo
    guardian = lord_card("guardian", "en")
    assert guardian.numbers == ("heal cost of strength 4, 5: +$2",)
    assert [r for r, _ in guardian.rulings] == ["R2.4", "R6.1"]
    assert "does not change this gain" in guardian.rulings[0][1]  # R2.4's ruling, not its line
    caveman = lord_card("caveman", "en")
    assert "adventurers of strength 1, 2 become exhausted, those of strength 3, 4, 5 active" in caveman.numbers[0]
    assert [r for r, _ in caveman.rulings] == ["R7.2", "R7.4"]
    assert [r for r, _ in lord_card("boardgame_lord", "zh").rulings] == ["R7.3", "R7.4"]
    assert [r for r, _ in lord_card("bigfun_king").rulings] == ["R7.1", "R5.3", "R7.4"]
    assert lord_card("lich_king", "zh").numbers == ("第 2 個房間：難度 +2，獎勵 +$3",)
    assert lord_rules(lord_card.__globals__["LORDS_BY_ID"]["succubus"]) == ["R7.5"]
    with pytest.raises(LordError, match="unknown lord id 'nobody'"):
        lord_card("nobody")


# ---------------------------------------------------------------------- the examples, by hand
def test_replacement_costs_at_each_level_r4_4_r4_5_r10_2():
    costs = E.replace_costs()
    # R4.4: Lv1 $1 bank; Lv2 $1 bank + $1 victim; Lv3 $1 bank + $2 victim
    assert [(c["payer"], c["bank"], c["victim"]) for c in costs["other"]] == [(1, 1, 0), (2, 1, 1), (3, 1, 2)]
    assert all(c["returned_active"] for c in costs["other"])  # back to its owner, active
    # R4.5: $1 to the bank at every level; the one taken back is active (ruling)
    assert [(c["payer"], c["bank"]) for c in costs["own"]] == [(1, 1)] * 3
    assert all(c["returned_active"] for c in costs["own"])
    # R10.2: an NPC costs $1 to the bank at every level
    assert [(c["payer"], c["bank"], c["victim"]) for c in costs["npc"]] == [(1, 1, 0)] * 3


def test_replacing_your_own_requires_stronger_unlocked_and_in_fr_full_r4_5_r9_1():
    assert E.swap_check("stronger", "zh") is None and E.swap_check("stronger", "fr") is None
    for ed in ("zh", "fr"):
        assert "stronger than 2" in str(E.swap_check("not_stronger", ed))
        assert "(R4.5)" in str(E.swap_check("not_stronger", ed))
        assert "locked" in str(E.swap_check("locked", ed))
    assert E.swap_check("not_full", "zh") is None
    assert "(R9.1)" in str(E.swap_check("not_full", "fr"))


def test_lock_thresholds_and_the_free_slot_ruling_r4_3_r7_1():
    d = E.lock(1, 5, 1)
    assert d["thresholds"] == [5, 7, 9]
    assert d["locked_alone"] and d["free_slot_ok"] and d["total"] == 6  # a 5 alone locks Lv1
    assert not E.lock(2, 3, 3)["locked"] and E.lock(2, 3, 4)["locked"]  # 6 < 7 <= 7
    assert E.lock(2, 3, 3, "lich_king")["thresholds"] == [5, 9, 9]  # R7.1 +2 on room 2
    bigfun = E.lock(3, 3, 3, "bigfun_king")
    assert bigfun["thresholds"] == [5, 7, 6] and bigfun["locked"]  # R7.1 −3 on the last room


@pytest.mark.parametrize("treasure, a, b, owner, shares, bank", [
    (7, 3, 2, "other", {"Ann": 4, "Bo": 3}, 0),  # R5.2 odd $1 to the stronger
    (7, 2, 3, "other", {"Ann": 3, "Bo": 4}, 0),
    (7, 2, 2, "other", {"Ann": 3, "Bo": 3}, 1),  # equal strength: to the bank
    (8, 1, 5, "other", {"Ann": 4, "Bo": 4}, 0),
    (7, 3, 2, "same", {"Ann": 7}, 0),  # one owner takes it all
    (7, 3, 2, "npc", {"Ann": 4}, 3),  # R10.2 the NPC's share to the bank
    (7, 2, 3, "npc", {"Ann": 3}, 4),
])
def test_split_r5_2(treasure, a, b, owner, shares, bank):
    d = E.split_example(treasure, a, b, owner)
    assert d["shares"] == shares and d["bank"] == bank


def test_a_replaced_npc_moves_down_takes_its_rooms_level_or_searches_from_the_top_r10_2():
    d = E.npc_move("next_room")
    assert (d["from_room"], d["to_room"], d["strength"], d["fee"]) == (1, 2, 2, 1)
    d = E.npc_move("other_level")
    assert (d["from_room"], d["to_room"], d["strength"]) == (2, 3, 3)
    assert d["after"][2] == [(-2, 3)]
    d = E.npc_move("from_top")
    assert (d["from_room"], d["to_room"], d["strength"]) == (2, 1, 1)
    assert d["after"][0] == [(-2, 1), (-2, 1)]  # room 1 now holds both NPCs
    with pytest.raises(ValueError, match="no NPC scenario"):
        E.npc_move("elsewhere")


def test_setup_gold_uses_printed_heal_costs_even_under_the_guardian_r2_4():
    assert E.setup_gold((4, 5)) == {"gain": 5, "gold": 7, "printed": [2, 3], "round_heal": [2, 3]}
    assert E.setup_gold((4, 5), guardian=True) == {"gain": 5, "gold": 7, "printed": [2, 3], "round_heal": [4, 5]}


def test_heal_costs_stop_at_zero_and_the_rest_is_dropped_r6_1():
    d = E.heal((1, 2), (4, 5))  # $2 + $1 = $3; heal $2 + $3 = $5
    assert (d["gold_before"], d["cost"], d["paid"], d["dropped"], d["gold_after"]) == (3, 5, 3, 2, 0)
    d = E.heal((1, 2), (4, 5), guardian=True)  # Guardian: $4 + $5
    assert (d["cost"], d["paid"], d["dropped"]) == (9, 3, 6)
    d = E.heal((4, 5), (2, 3))  # $2 + $5 = $7; heal $1 + $1
    assert (d["gold_before"], d["cost"], d["paid"], d["dropped"], d["gold_after"]) == (7, 2, 2, 0, 5)


def test_the_tie_break_sums_the_unplayed_strengths_r8_1():
    d = E.tiebreak((3, 5, 4))
    assert d["gold"] == [0, 0, 0] and d["tiebreak"] == [3, 5, 4] and d["winners"] == ["Bo"]
    assert E.tiebreak((5, 5, 4))["winners"] == ["Ann", "Bo"]  # still tied: shared


def test_the_boardgame_lord_pays_every_lowest_as_resolution_starts_r7_3():
    d = E.boardgame({0: (1, 2), 1: (1, 2), 2: (4, 5)})
    assert d["totals"] == [3, 3, 9] and d["bonus"] == {"Ann": 3, "Bo": 3}
    kinds = [e.kind for e in d["events"]]
    assert kinds[:3] == ["bonus", "bonus", "revealed"]  # before any room is revealed


def test_the_caveman_flips_hands_in_a_later_start_phase_r7_2():
    d = E.caveman({0: (4, 5), 1: (3, 4), 2: (3, 5)})
    assert d["with"] == ([[3, 4, 5]] * 3, [[1, 2]] * 3)
    assert d["without"][0] == [[1, 2, 3], [1, 2, 5], [1, 2, 4]]


def test_the_succubus_refuses_strength_1_r7_5():
    d = E.succubus()
    assert "forbids strength-1" in str(d["place_1"]) and d["place_2"] is None


def test_a_lords_minus_stops_at_zero_r5_3():
    # Bigfun King on the last room: defence −3, treasure −$5 (reference Lv1 fronts 3..5, $2..$4)
    assert E.floor(1, "low") == {"printed": (3, 2), "after": (0, 0), "change": (-3, -5)}
    assert E.floor(1, "high")["after"] == (2, 0)
    assert E.floor(3, "low")["after"] == (4, 3)  # Lv3 7, $8


def test_snake_order_r4_1():
    assert E.snake(3) == [0, 1, 2, 2, 1, 0]
    assert E.snake(4, 2) == [2, 3, 0, 1, 1, 0, 3, 2]


def test_every_refusal_codes_rule_is_a_card_or_a_whole_section():
    """The board shows ``rule_lines_for(err)`` under a refused move: each refusal code's rule
    (errors.CODES) is a card, or a whole section such as R3 (no line then), or none."""
    from dungeon_guilds.codes import CODES

    for code, rule in CODES.items():
        assert rule == "" or rule in CARDS_BY_ID or re.fullmatch(r"R\d+", rule), (code, rule)


def test_to_the_left_is_tied_to_seat_numbers_r6_3():
    """Issue 40: "to the left" was never tied to seat numbers. Every Dungeon Guilds text that
    passes the marker left says where in seat numbers (the engine: seat s -> s + 1, the last
    seat -> seat 1)."""
    for lang, left, seat in (("en", "to the left", "seat 1"), ("zh", "往左", "座位 1")):
        texts = {k: v for k, v in i18n.strings(lang).items() if isinstance(v, str) and left in v
                 and not k.startswith(("compare_fact.dungeon_lords", "compare_fact.dungeon_fighter"))}
        assert len(texts) >= 3, texts
        assert all(seat in v for v in texts.values()), texts
    guilds = i18n.t("compare_fact.dungeon_guilds.turn_order", "zh")
    assert "往左傳給下一號座位" in guilds


def test_the_tie_break_says_what_is_compared_r8_1():
    """Issue 40: Compare's tie-break was "誰較強" (who is stronger): it is the total strength of
    the active adventurers not played in the last round."""
    assert "力量總和" in i18n.t("compare_fact.dungeon_guilds.scoring", "zh")
    assert "誰較強" not in i18n.t("compare_fact.dungeon_guilds.scoring", "zh")
