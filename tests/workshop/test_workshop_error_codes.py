"""The design workshop's errors are values (issue 17 item 1): a stable code and params, worded
from a template per language (``strings/<lang>/workshop_errors.toml``); no regular expression
translates an English sentence back."""

from __future__ import annotations

import re
import string
from pathlib import Path

import pytest

from dungeon_guilds import i18n
from dungeon_guilds.effects import EffectError
from dungeon_guilds.lords import LordError
from dungeon_guilds.workshop import deck_edit
from dungeon_guilds.workshop.deck_edit import table_from_deck, validate
from dungeon_guilds.workshop.errors import CODES, DERIVED, Message, WorkshopError
from dungeon_guilds.workshop.lord_edit import make_lord
from dungeon_guilds.workshop.strings import error_text

PACKAGE = Path(i18n.__file__).parent


def fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_code_has_a_template_using_exactly_its_params(lang):
    table = i18n._table(lang)["workshop_error"]
    assert set(table) == set(CODES)
    for code, params in CODES.items():
        used = {"index" if f in DERIVED else f for f in fields(table[code])}
        assert used == set(params), (lang, code)


def test_unknown_codes_are_refused():
    with pytest.raises(ValueError, match="unknown workshop error code"):
        Message.of("no_such_code")


ROOM = {"kind": "room", "rooms": [1], "defence": 1, "treasure": 0}
LORD_CASES = [  # (make_lord arguments, code, English, Chinese)
    (("", "X", [ROOM]), "lord_id_empty", "id: empty: give the lord an id (e.g. gentle_dragon)",
     "代號：空白，請給城主一個代號（例如 gentle_dragon）"),
    (("Bad Id", "X", [ROOM]), "lord_id_characters", "id: 'Bad Id': use lower-case letters, digits and _ only",
     "代號 'Bad Id'：只能使用小寫英文字母、數字與 _"),
    (("red_dragon", "X", [ROOM]), "lord_id_printed",
     "id: 'red_dragon' is a printed lord's id; give your lord its own id", "代號 'red_dragon' 是印刷城主的代號，請給你的城主自己的代號"),
    (("mine", " ", [ROOM]), "lord_name_empty", "name: empty: give the lord a name", "名稱：空白，請給城主一個名稱"),
    (("mine", "Mine", []), "lord_no_effects", "effects: a lord needs at least one effect", "效果：城主至少需要一個效果"),
]


@pytest.mark.parametrize("args, code, en, zh", LORD_CASES)
def test_lord_errors_carry_a_code_and_word_it_in_each_language(args, code, en, zh):
    with pytest.raises(LordError) as info:
        make_lord(*args)
    err = info.value
    assert isinstance(err, WorkshopError) and err.code == code
    assert str(err) == en and err.text("en") == en and err.text("zh") == zh
    assert error_text(err, "zh") == i18n.t("error.invalid", "zh", message=zh)


EFFECT_CASES = [  # (effect, inner code, English reason, Chinese reason)
    (dict(ROOM, defence=0), "room_effect_no_change", "a room effect needs a defence or treasure change",
     "房間效果需要改變難度或獎勵"),
    ({"kind": "heal", "strengths": [], "delta": 1}, "heal_no_strengths",
     "choose the strengths whose heal cost changes", "請選擇治療費用要改變的力量"),
    ({"kind": "heal", "strengths": [2], "delta": 0}, "heal_zero", "a heal-cost change of 0 does nothing",
     "治療費用改變 0 沒有作用"),
    ({"kind": "ban", "strengths": []}, "ban_no_strengths", "choose the strengths that may not be placed",
     "請選擇不能派遣的力量"),
    ({"kind": "ban", "strengths": [1, 2, 3, 4, 5]}, "ban_every_strength",
     "banning every strength leaves nobody able to enter the dungeon", "禁止所有力量會讓沒有人能進入地城"),
    ({"kind": "flip", "exhaust": [], "activate": []}, "flip_no_strengths",
     "choose strengths to exhaust and/or to make active", "請選擇要消耗和／或要啟動的力量"),
    ({"kind": "flip", "exhaust": [3], "activate": [3]}, "flip_both",
     "strength 3 cannot be both exhausted and made active", "力量 3 不能同時被消耗又被啟動"),
    ({"kind": "bonus", "amount": 0}, "bonus_zero", "a bonus of $0 does nothing", "$0 的加成沒有作用"),
]


@pytest.mark.parametrize("effect, code, en, zh", EFFECT_CASES)
def test_an_effect_that_does_nothing_is_named_with_its_place_in_the_lord(effect, code, en, zh):
    with pytest.raises(EffectError) as info:
        make_lord("mine", "Mine", [ROOM, effect])
    err = info.value
    assert err.code == "effect_invalid" and err.params["index"] == 1
    assert err.params["reason"].code == code
    assert str(err) == f"effect 2: {en}"  # people count effects from 1
    assert err.text("zh") == f"第 2 個效果：{zh}"
    assert error_text(err, "zh") == i18n.t("error.invalid", "zh", message=f"第 2 個效果：{zh}")


def _fresh():
    table = table_from_deck()
    table.name = "mine"  # not 'reference': an edited deck needs another name
    return table


def _table_with(edits):
    table = _fresh()
    for (part, row, column), value in edits.items():
        getattr(table, part)[row][column] = value
    return table


DECK_CASES = [  # (edits {(table, row from 0, column): value}, code, English, Chinese)
    ({("rooms", 0, "defence"): "x"}, "cell_not_whole", "expected a whole number, got 'x'", "需要整數，收到的是 'x'"),
    ({("rooms", 0, "defence"): " "}, "cell_empty", "empty: expected a whole number", "空白：需要整數"),
    ({("heal", 0, "heal_cost"): "-1"}, "cell_negative", "negative values are not allowed, got -1", "不可以是負數，收到的是 -1"),
    ({("rooms", 2, "count"): "0"}, "count_below_one",
     "must be at least 1, got 0 (delete the row to take this card out of the deck)",
     "至少要是 1，收到的是 0（要把這張卡移出牌組，請刪除這一列）"),
    ({("rooms", 0, "defence"): "99"}, "outside_level_range",
     "99 is outside the Lv1 range 3-5 printed on the back (R1.2)", "99 超出卡背印的 Lv1 範圍 3–5（R1.2）"),
]


@pytest.mark.parametrize("edits, code, en, zh", DECK_CASES)
def test_deck_cell_errors_carry_a_code_and_word_it_in_each_language(edits, code, en, zh):
    problems = [p for p in validate(_table_with(edits)) if p.severity == "error"]
    assert len(problems) == 1, problems
    p = problems[0]
    assert p.coded.code == code and p.message == en and p.text("en") == en and p.text("zh") == zh


def test_deck_level_errors_in_each_language():
    table = table_from_deck()
    table.name = ""
    [p] = validate(table)
    assert (p.coded.code, p.message, p.text("zh")) == (
        "deck_name_empty", "empty: give the deck a name (it goes into records)", "空白：請給牌組一個名稱（它會寫進遊戲紀錄）")
    table = _fresh()
    table.rooms = []
    assert [(p.coded.code, p.message, p.text("zh")) for p in validate(table) if p.severity == "error"] == [
        ("deck_no_rooms", "the deck has no room cards", "牌組裡沒有房間卡")]
    table = _fresh()
    table.rooms = [dict(table.rooms[0], count=2)]
    [p] = [p for p in validate(table) if p.severity == "error"]
    assert (p.coded.code, p.message, p.text("zh")) == (
        "deck_too_small", "2 cards: even a 3-player game deals 9 rooms (3 rounds × 3)",
        "2 張卡：即使 3 人遊戲也要發 9 個房間（3 回合 × 3）")


def test_cell_below_minimum_is_worded_in_each_language():
    out: list = []
    deck_edit._number(out, "rooms", 1, "count", "0", minimum=2)
    assert (out[0].coded.code, out[0].message, out[0].text("zh")) == (
        "cell_below_minimum", "must be at least 2, got 0", "至少要是 2，收到的是 0")


def test_no_regular_expression_translates_text():
    """i18n and the workshop's words hold no pattern that parses English back (issue 17)."""
    for path in (PACKAGE / "i18n.py", PACKAGE / "workshop" / "strings.py"):
        source = path.read_text("utf-8")
        assert not re.search(r"^\s*(import re\b|from re import)", source, re.M), path
        assert not re.search(r"\bre\.(compile|match|fullmatch|search|sub)\(", source), path
    for lang in ("en", "zh"):
        assert "workshop_message" not in i18n._table(lang)
        for toml in (PACKAGE / "strings").rglob("*.toml"):
            assert "pattern =" not in toml.read_text("utf-8"), toml
