"""The Compare tab, headless: set widget values and read what the widget shows."""

from __future__ import annotations

import pytest

pytest.importorskip("ipywidgets")  # the `test` extra does not install it; `notebooks` does

import plotly.graph_objects as go  # noqa: E402

from dungeon_guilds import i18n  # noqa: E402
from dungeon_guilds.widgets import compare  # noqa: E402
from dungeon_guilds.widgets.compare import CompareExplorer  # noqa: E402


@pytest.fixture(scope="module")
def explorer():
    return CompareExplorer(lords_years=10)


def test_side_by_side_with_sources(explorer):
    explorer.game_a.value = "dungeon_guilds"
    explorer.game_b.value = "dungeon_lords"
    html = explorer.table.value
    assert "Dungeon Guilds" in html and "Dungeon Lords" in html
    # citations a student can read: game, document, section, line and the quoted words (issue 15)
    assert "Dungeon Guilds — rulebook (Chinese), § 派遣階段, line 52: “U 字型”" in html
    assert "rules reference (docs), rule R4.1: “Snake order”" in html
    assert "Dungeon Lords — building-phase article, § 命令階段(Order Phase), line 46" in html
    assert "seed 0" not in html
    assert "worker placement" in html and "Jaccard" in html
    explorer.game_b.value = "dungeon_fighter"
    assert "Dungeon Fighter — rules article (童教桌遊研究院), § 遊戲人數, line 51" in explorer.table.value and "Dungeon Lords" not in explorer.table.value
    explorer.game_b.value = "dungeon_guilds"  # the same game twice is fine
    assert explorer.compare_status.value == ""


def test_dungeon_odds(explorer):
    explorer.sword.value = 0
    explorer.hand.value = 1
    assert "7/12" in explorer.odds.value and "11/36" in explorer.odds.value
    assert "<b>13/18</b>" in explorer.odds.value
    explorer.sword.value = 2  # 2d6 + 2 >= 7 <=> 2d6 >= 5
    assert "P(2d6 + 2" in explorer.odds.value and "5/6" in explorer.odds.value


def test_fighter_score(explorer):
    for w, v in ((explorer.difficulty, "normal"), (explorer.boss, True), (explorer.survivors, 4),
                 (explorer.dead, 0), (explorer.white, 2), (explorer.gold, 7), (explorer.tokens, 0)):
        w.value = v
    assert "<th>26</th>" in explorer.score.value and "果然是高階英雄" in explorer.score.value
    assert "§ ４.遊戲結束, line 165" in explorer.score.value and "seed 0" not in explorer.score.value
    explorer.eye_die.value = "white"
    assert "1/6" in explorer.eyes.value and "white dice" in explorer.eyes.value


def test_fighter_bad_input_is_friendly(explorer):
    explorer.tokens.value = 0
    explorer.dead.value = 1  # a dead hero must have taken 3 damage tokens
    status = explorer.score_status.value
    assert "Sorry" in status and "damage tokens" in status and "Traceback" not in status
    explorer.dead.value = 0
    assert explorer.score_status.value == ""


def test_lords_simulation(explorer):
    explorer.players.value = (3,)
    explorer.policy.value = "clustered"
    explorer.years.value = 10
    explorer.run.click()
    assert explorer.lords_status.value == ""
    assert "policy <i>clustered</i>" in explorer.lords_table.value
    assert "3/512" in explorer.lords_table.value
    assert isinstance(explorer.lords_figure, go.Figure)
    assert [t.name for t in explorer.lords_figure.data] == ["3 players"]
    # the title in lines a 390-px phone shows whole (plotly never wraps a title), words unchanged
    title = explorer.lords_figure.layout.title.text
    assert all(len(line) <= compare.TITLE_COLUMNS for line in title.split("<br>")) and "<br>" in title
    assert title.replace("<br>", " ") == i18n.t("compare.chart_title", "en")
    # issue 54: the figure is the Output's own state, held by the kernel (a page restoring the
    # widget gets it), not a display that only a client running the cell could capture
    (shown,) = explorer.lords_plot.outputs
    figure = shown["data"]["application/vnd.plotly.v1+json"]
    assert [t["name"] for t in figure["data"]] == ["3 players"]
    explorer.players.value = ()
    explorer.run.click()
    assert "at least one player count" in explorer.lords_status.value


def test_any_exception_is_caught(monkeypatch, widget_errors):
    w = CompareExplorer(lords_years=5)

    def boom(*args, **kwargs):
        raise RuntimeError("the simulator exploded")

    monkeypatch.setattr(compare.comparison, "side_by_side_rows", boom)
    monkeypatch.setattr(compare.comparison, "contention_rows", boom)
    monkeypatch.setattr(compare.dungeon, "expected_cards_lost", boom)
    w.game_a.value = "dungeon"
    w.run.click()
    w.hand.value = 5
    for status in (w.compare_status, w.lords_status, w.odds_status):
        assert "the simulator exploded" in status.value
        assert "Traceback" not in status.value
    assert widget_errors and all(r.exc_info[0] is RuntimeError for r in widget_errors)  # logged


def test_the_language_toggle_relabels_everything_including_the_sourced_facts():

    w = CompareExplorer(lords_years=5)
    assert "dg-cmp" in w._dom_classes
    assert w.lang == "en" and w.language_toggle.layout.display is None
    w.dead.value = 1  # an error message before the switch: it is written again in Chinese
    assert "Sorry" in w.score_status.value
    values = (w.game_a.value, w.game_b.value, w.difficulty.value, w.policy.value, w.eye_die.value)

    w.language_toggle.value = "zh"  # as a click on 繁體中文 does
    assert w.lang == "zh"
    assert w.tabs.titles == ("並列比較", "勇闖地下城機率", "地城鬥士計分", "地城領主指令")
    assert (w.game_a.description, w.sword.description, w.tokens.description) == ("遊戲 A", "魔劍加值", "傷害指示物 (0–30)")
    assert w.run.description == "模擬" and w.eye_die.description == "眼睛機率表"
    assert dict(w.difficulty.options)["容易"] == "easy" and dict(w.eye_die.options)["白色"] == "white"
    # the values chosen are kept; the facts, their citations and the words around them are in Chinese
    assert (w.game_a.value, w.game_b.value, w.difficulty.value, w.policy.value, w.eye_die.value) == values
    status = w.score_status.value
    assert "抱歉" in status and "傷害指示物" in status and "Sorry" not in status and "Traceback" not in status
    assert "<th>項目</th>" in w.table.value and "<th>地城聯盟</th>" in w.table.value
    assert "玩家人數" in w.table.value and "地城聯盟 — 中文規則書，§「基本資訊」，第 9 行：「3至6人」" in w.table.value
    assert "3–6 人" in w.table.value and "Jaccard 相似度" in w.table.value
    assert "英雄獲勝" in w.odds.value and "所需點數" in w.odds.value and "勇闖地下城！ — 規則介紹" in w.odds.value
    assert "棄掉 1 張寶藏卡" in w.odds.value and "discard" not in w.odds.value
    assert "策略 <i>隨機</i>" in w.lords_table.value and "找不到空位的比例" in w.lords_table.value
    assert w.lords_figure.layout.title.text == i18n.t("compare.chart_title", "zh")
    assert [t.name for t in w.lords_figure.data] == ["2 人", "3 人", "4 人"]
    w.dead.value = 0
    assert w.score_status.value == "" and "總分" in w.score.value and "果然是高階英雄" in w.score.value
    w.players.value = ()
    w.run.click()  # a refusal of the widget itself, in Chinese
    assert "請至少選擇一種玩家人數" in w.lords_status.value
    assert "策略 <i>隨機</i>" in w.lords_table.value  # the last simulation stays shown

    w.lang = "en"
    assert w.tabs.titles == ("Side by side", "Dungeon! odds", "Fighter score", "Lords orders")
    assert w.game_a.description == "Game A" and w.run.description == "Simulate"
    assert "choose at least one player count" in w.lords_status.value  # the message follows
    assert "<th>attribute</th>" in w.table.value and "<th>Dungeon Guilds</th>" in w.table.value
    assert "policy <i>random</i>" in w.lords_table.value and "Hero wins" in w.odds.value
    assert [t.name for t in w.lords_figure.data] == ["2 players", "3 players", "4 players"]
    assert "<th>26</th>" in w.score.value and w.score_status.value == ""


def test_a_shared_language_state_drives_several_apps_and_the_dashboard_note():
    from dungeon_guilds.widgets.common import LanguageState
    from dungeon_guilds.app.dashboard import Dashboard

    state = LanguageState(lang="zh")
    w = CompareExplorer(lords_years=5, lang_state=state, show_language=False)
    assert w.lang_state is state and w.language_toggle.layout.display == "none"
    assert w.tabs.titles[0] == "並列比較" and "<th>地城聯盟</th>" in w.table.value  # built in Chinese
    state.lang = "en"
    assert w.tabs.titles[0] == "Side by side"

    d = Dashboard(tab="compare")
    cmp = d.apps["compare"].children[1]
    assert isinstance(cmp, CompareExplorer) and cmp.lang_state is d.lang_state
    assert cmp.language_toggle.layout.display == "none"  # the header's toggle drives it
    note = d.apps["compare"].children[0].value
    assert "cites where it comes from" in note
    d.language_toggle.value = "zh"
    assert cmp.tabs.titles[0] == "並列比較" and cmp.game_a.description == "遊戲 A"
    assert "出處" in d.apps["compare"].children[0].value and d.last_error is None
