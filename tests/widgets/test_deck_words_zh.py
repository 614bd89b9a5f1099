"""Issue 24, item 10: no English left on the 繁體中文 deck editor and workshop — the reference
deck's name and description, and a deck's changes ("heal cost of strength 1: $0 → $9"), are
shown in the page's language; the deck file keeps its stored name ("reference" / "custom")."""

from __future__ import annotations

import pytest

from dungeon_guilds.cards import reference_deck
from dungeon_guilds.widgets.deck_editor import DeckEditor
from dungeon_guilds.workshop.ab import Arm
from dungeon_guilds.workshop.deck_edit import deck_changes, deck_from_table
from tests.ui_text import english_words, untranslated

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def test_the_reference_deck_in_chinese_has_a_chinese_name_and_description():
    ed = DeckEditor(reference_deck(), lang="zh")
    assert ed.name_text.value == "參考牌組" and "參考牌組" in ed.description_text.value
    assert not untranslated(ed), untranslated(ed)
    ed.lang = "en"
    assert ed.name_text.value == "reference"
    assert ed.description_text.value == reference_deck().description
    assert deck_from_table(ed.table) == reference_deck() and ed.table.name == "reference"


def test_an_edited_deck_in_chinese_says_its_changes_in_chinese():
    ed = DeckEditor(reference_deck(), lang="zh")
    ed.cells[("heal", 0, "heal_cost")].value = "9"  # strength 1: $0 -> $9
    assert ed.last_error is None, ed.message_text
    assert "力量 1 的治療費用：$0 → $9" in ed.summary_html.value
    assert ed.name_text.value == "自訂牌組" and ed.table.name == "custom"  # the file keeps "custom"
    left = untranslated(ed)
    assert not left, left
    ed.lang = "en"
    assert "heal cost of strength 1: $0 → $9" in ed.summary_html.value and ed.name_text.value == "custom"


def test_the_workshop_arm_describes_a_deck_in_chinese():
    deck = reference_deck().with_values(heal_costs=[0, 9, *reference_deck().heal_costs[2:]])
    assert deck_changes(deck) == ["heal cost of strength 1: $0 → $9"]
    for arm in (Arm("A"), Arm("B", deck=deck)):
        lines = arm.describe("zh")
        deck_line = next(line for line in lines if line.startswith("牌組"))
        assert not english_words(deck_line), deck_line
