"""Issue 15: every numeric input of the Lab and the A/B experiment states its range, refuses a
value outside it with a message naming the field (never silently moved into range), and a
refused run clears the old results so they cannot pass for new ones."""

from __future__ import annotations

import re

import pytest

from dungeon_guilds.widgets.ab_experiment import ABExperiment
from dungeon_guilds.widgets.lab import MAX_GAMES, MIN_GAMES, LabPanel


def plain(html: str) -> str:
    return re.sub(r"<[^>]+>", " ", html)


@pytest.mark.parametrize("games", [0, -5, MIN_GAMES - 1, MAX_GAMES + 1])
def test_lab_refuses_a_game_count_out_of_range_and_clears_old_results(games):
    lab = LabPanel(players=3, games=10)
    assert f"({MIN_GAMES}–{MAX_GAMES})" in lab.games_input.description
    lab.run_button.click()
    assert lab.result is not None and lab.table_html.value
    lab.games_input.value = games
    lab.run_button.click()
    assert lab.games_input.value == games  # not silently changed
    assert lab.message_level == "warn" and str(games) in lab.message_text
    assert f"{MIN_GAMES}–{MAX_GAMES}" in lab.message_text
    assert lab.result is None and lab.table_html.value == "" and lab.chart_output.outputs == ()
    assert "refused" in plain(lab.summary_html.value)
    lab.lang = "zh"
    assert "拒絕" in plain(lab.summary_html.value) and "超出範圍" in lab.message_text


def test_lab_refuses_a_negative_seed():
    lab = LabPanel(players=3, games=10)
    lab.seed_input.value = -1
    lab.run_button.click()
    assert lab.result is None and lab.message_level == "warn" and "-1" in lab.message_text


def test_ab_games_out_of_range_is_refused_and_old_results_cleared():
    ab = ABExperiment(games=4, players=3, draw_figures=False)
    assert "(2–" in ab.games_input.description and "(0–" in ab.seed_input.description
    ab.run_button.click()
    assert ab.result is not None and ab.table_html.value
    ab.games_input.value = 0
    ab.run_button.click()
    assert ab.games_input.value == 0 and ab.message_level == "warn"
    assert ab.result is None and ab.table_html.value == "" and ab.verdict_html.value == ""


def test_ab_table_numbers_seats_from_one_and_explains_every_measure():
    ab = ABExperiment(games=4, players=3, draw_figures=True)
    ab.run_button.click()
    text = plain(ab.table_html.value)
    assert "seat 1" in text and "seat 3" in text and "seat 0" not in text
    assert "paid_in" not in text and "r_clear" not in text
    metrics = set(ab.result.comparison["metric"])
    assert text.count(" — ") >= len(metrics)  # one sentence per measure
    assert ab.figures["win_rates"].data[0].x == ("1", "2", "3")
    ab.lang = "zh"
    assert "座位 1" in plain(ab.table_html.value)


def test_an_edited_reference_deck_exports_with_its_own_description():
    from dungeon_guilds.cards import reference_deck
    from dungeon_guilds.widgets.deck_editor import DeckEditor

    ed = DeckEditor()
    ed.cells[("rooms", 0, "count")].value = "5"
    text = ed.export("toml")
    assert 'name = "custom"' in text and reference_deck().description not in text
    assert "Edited from the reference deck" in text


def test_deck_problems_and_lord_refusals_are_in_chinese_in_zh():
    from dungeon_guilds.widgets.deck_editor import DeckEditor
    from dungeon_guilds.widgets.lord_builder import LordBuilder

    ed = DeckEditor(lang="zh")
    ed.cells[("rooms", 0, "count")].value = "0"
    assert "房間，第 1 列，張數：至少要是 1" in plain(ed.problems_html.value)
    b = LordBuilder(lang="zh")
    assert "攻略成功" in plain(b.preview_html.value) and "treasure" not in plain(b.preview_html.value)
    b.effect_rows[0].treasure_input.value = 0
    assert b.message_text == "錯誤：第 1 個效果：房間效果需要改變難度或獎勵"


def test_lord_builder_shows_the_last_room_updates_names_as_typed_and_cuts_no_button():
    from dungeon_guilds.widgets.lord_builder import LordBuilder
    from dungeon_guilds.workshop.lord_edit import ROOM_POSITIONS

    b = LordBuilder(example="red_dragon")  # the Red Dragon's effect is on the last room
    rows = b.effect_rows[0]
    assert rows.rooms_select.value == (-1,) and rows.rooms_select.rows == len(ROOM_POSITIONS)
    assert "The last room" in plain(b.card_html.value)
    assert b.name_zh_text.continuous_update and b.name_en_text.continuous_update
    b.lang = "zh"
    b.name_zh_text.value = "溫和的龍"
    assert "溫和的龍" in plain(b.preview_html.value)
    for button in (b.save_button, b.play_button, b.add_effect_button, b.preview_button):
        assert button.layout.width == "max-content"


def test_compare_and_explore_numbers_out_of_range_are_refused_not_clamped():
    from dungeon_guilds.widgets.compare import CompareExplorer
    from dungeon_guilds.widgets.explorers import TurnOrderExplorer

    w = CompareExplorer(lords_years=5)
    assert w.gold.description.endswith("(0–60)")
    w.gold.value = 99
    assert w.gold.value == 99 and "99" in w.score_status.value and "0–60" in w.score_status.value
    w.lang = "zh"
    assert "超出範圍" in w.score_status.value
    t = TurnOrderExplorer()
    before = len(t.bumps) if hasattr(t, "bumps") else None
    t.bump_turn.value = 0
    t.add_bump_button.click()
    assert t.message_level == "warn" and "1–60" in t.message_text
    if before is not None:
        assert len(t.bumps) == before


def test_lord_builder_numbers_state_their_range_and_refuse_values_outside():
    from dungeon_guilds.widgets.lord_builder import EFFECT_RANGE, LordBuilder

    b = LordBuilder()
    row = b.effect_rows[0]
    assert row.treasure_input.description.endswith(f"(−{-EFFECT_RANGE[0]}–{EFFECT_RANGE[1]})")
    row.treasure_input.value = 99
    assert row.treasure_input.value == 99 and b.message_level == "warn" and "99" in b.message_text
    assert b.card_html.value == "" and b.preview_html.value == ""  # nothing stale left
    row.treasure_input.value = 5
    assert b.message_text == "" and b.card_html.value
    b.sample_seed_input.value = -3
    b.preview_button.click()
    assert "-3" in b.message_text


def test_the_labs_fair_share_is_named_in_the_title_not_on_the_bars():
    """Issue 40: the label "公平比例 25%" on the fair-share line sat on the bars."""
    lab = LabPanel(players=4, games=10, lang="zh")
    lab.run_button.click()
    fig = lab.figure
    assert not [a for a in fig.layout.annotations if "公平比例" in (a.text or "") and "<br>" not in a.text]
    assert any("虛線：公平比例 25%" in (a.text or "") for a in fig.layout.annotations)  # under the title
