"""The lord builder and deck editor word the workshop's coded errors in the language shown
(issue 17 item 1: templates per code, no English sentence parsed back)."""

from __future__ import annotations

import pytest

pytest.importorskip("ipywidgets")

from dungeon_guilds.widgets.deck_editor import DeckEditor  # noqa: E402
from dungeon_guilds.widgets.lord_builder import LordBuilder  # noqa: E402


def test_the_lord_builder_words_a_bad_id_in_chinese_and_again_in_english():
    lb = LordBuilder(lang="zh", auto_preview=False)
    lb.id_text.value = "Bad Id"
    assert lb.message_level == "warn"
    assert "代號 'Bad Id'：只能使用小寫英文字母、數字與 _" in lb.message_text
    lb.lang = "en"  # the message follows the language
    assert "id: 'Bad Id': use lower-case letters, digits and _ only" in lb.message_text


def test_the_lord_builder_names_an_effect_that_does_nothing_in_chinese():
    lb = LordBuilder(lang="zh", auto_preview=False)
    lb.id_text.value = "gentle_dragon"
    lb.effect_rows[0].defence_input.value = 0
    lb.effect_rows[0].treasure_input.value = 0
    assert "第 1 個效果：房間效果需要改變難度或獎勵" in lb.message_text


def test_the_deck_editor_marks_a_cell_in_chinese():
    ed = DeckEditor(lang="zh")
    cell = ed.cells[("rooms", 2, "count")]
    cell.value = "0"
    assert cell.tooltip == "至少要是 1，收到的是 0（要把這張卡移出牌組，請刪除這一列）"
    assert "至少要是 1，收到的是 0" in ed.problems_html.value
    ed.lang = "en"
    assert cell.tooltip == "must be at least 1, got 0 (delete the row to take this card out of the deck)"


def test_using_a_bad_table_names_every_bad_cell_in_chinese():
    ed = DeckEditor(lang="zh")
    ed.name_text.value = "mine"
    ed.cells[("rooms", 2, "count")].value = "0"
    ed.cells[("heal", 0, "heal_cost")].value = "x"
    ed.use_button.click()
    assert ed.message_level == "warn" and list(ed.session.decks) == ["reference"]
    assert "需要整數，收到的是 'x'" in ed.message_text
    assert "至少要是 1，收到的是 0" in ed.message_text and "must be" not in ed.message_text
    ed.lang = "en"
    assert "Rooms, row 3, count: must be at least 1, got 0" in ed.message_text
