"""The design explorer panel (issue 41) driven headless: the shipped map as a bar chart and a
grid, a deck's own map in chunks with a progress bar and Stop, the goal search with each
proposal checked on fresh seeds, English and 繁體中文, refusals in words."""

from __future__ import annotations

import pytest

pytest.importorskip("ipywidgets")
pytest.importorskip("plotly")

from dungeon_guilds.widgets.ab_experiment import WorkshopApp  # noqa: E402
from dungeon_guilds.widgets.explorer_panel import ExplorerPanel  # noqa: E402


@pytest.fixture()
def panel():
    return ExplorerPanel()


def test_the_workshop_gains_the_explorer_tab_built_when_opened():
    app = WorkshopApp(games=30)
    assert app.titles[-1] == "Design explorer" and app.explorer is None
    app.selected_index = len(app.children) - 1
    assert isinstance(app.explorer, ExplorerPanel) and app.children[-1] is app.explorer
    app.lang_state.lang = "zh"
    assert app.titles[-1] == "設計探索器" and "設計探索器" in app.explorer.intro.value


def test_it_opens_on_the_shipped_map_sorted_by_size(panel):
    assert panel.shipped and panel.measure_dropdown.value == "start_advantage"
    assert "2000 games each, seed 1" in panel.source_html.value
    panel.measure_dropdown.value = "clear_rate_3"
    bars = panel.bar.data[0]
    sizes = [abs(x) for x in bars.x]
    assert sizes == sorted(sizes)  # the largest at the top of a horizontal bar chart
    assert "Lv3" in bars.y[-1] and "level-3" in panel.bar.layout.title.text.replace("<br>", " ")
    assert len(panel.grid.data[0].y) == panel.map.meta["versions"] - 1
    assert panel.chart_output.outputs and panel.grid_output.outputs
    panel.lang = "zh"
    assert "攻略成功率" in panel.bar.layout.title.text and "參考牌組" in panel.source_html.value


def test_a_deck_map_runs_in_chunks_and_replaces_the_shipped_one(panel):
    from dungeon_guilds.cards import reference_deck
    from dungeon_guilds.workshop.knobs import deck_knobs

    panel.knobs = [k for k in deck_knobs(reference_deck()) if k.id in ("lock:1", "heal:5")]  # a small map
    seen = []
    panel.progress.observe(lambda c: seen.append(c["new"]), "value")
    panel.games_input.value = 50
    panel.run_button.click()  # no event loop here: drive() runs it to the end
    assert panel.message_level == "ok", panel.message_text
    assert not panel.shipped and panel.map.games == 50 and len(seen) > 5 and panel.map.meta["versions"] == 4
    assert panel.progress.value == panel.progress.max and not panel.run_button.disabled
    # the line under the bar says the run is over (it stayed "200 of 200 games played")
    assert panel.progress_html.value == "Finished: 200 games played.", panel.progress_html.value
    panel.lang = "zh"  # the deck by its shown name, the progress line in Chinese (both stayed raw/English)
    assert "reference" not in panel.source_html.value and "參考牌組" in panel.source_html.value
    assert panel.progress_html.value == "完成：已玩 200 局。", panel.progress_html.value


def test_stop_keeps_the_map_shown(panel):
    panel.games_input.value = 50
    steps = panel._map_steps(None, 50)
    next(steps)
    panel._on_stop()
    assert list(steps) == [] and panel.shipped and panel.message_level == "warn"
    assert not panel.run_button.disabled


def test_bad_inputs_are_refused_in_words(panel):
    panel.games_input.value = 5
    panel.run_button.click()
    assert panel.message_level == "warn" and "50" in panel.message_text and panel.shipped
    panel.goal_dropdown.value = "own"
    panel.target_input.value = "lots"
    panel.find_button.click()
    assert "number" in panel.message_text
    panel.lang = "zh"
    panel.find_button.click()
    assert "數字" in panel.message_text


def test_an_own_goal_is_searched_and_its_proposals_checked_on_fresh_seeds(panel):
    panel.check_games = (300, 1000)  # a quicker check (the page's default: 200 to 2000 games)
    panel.goal_dropdown.value = "own"
    panel.own_measure.value = "bumps"
    panel.direction.value = "at_least"
    panel.target_input.value = "0"
    panel.allowed.value = ("lock",)  # three knobs, each only up (R1.2: the cards reach the top)
    panel.find_button.click()
    r = panel.search_result
    assert r is not None and r.proposals and r.proposals[0].check is not None
    html = panel.proposals_html.value
    assert "fresh games" in html and "R4.3" in html and "lock threshold" in html
    panel.lang = "zh"
    assert "新遊戲" in panel.proposals_html.value
    # the progress line left by the search says it is over, in the language shown
    assert panel.progress_html.value.startswith("完成：搜尋"), panel.progress_html.value


def test_no_control_says_null_when_pointed_at(panel):
    # ipywidgets 8 writes a tooltip of None into the page as title="null"
    stack, seen = [panel], 0
    while stack:
        w = stack.pop()
        assert w.tooltip is not None, type(w).__name__
        seen += 1
        stack.extend(getattr(w, "children", ()) or ())
    assert seen > 20
    assert panel.run_button.tooltip.startswith("Play every knob") and panel.find_button.tooltip
    panel.lang = "zh"
    assert panel.stop_button.tooltip.startswith("停止")


def test_a_negative_knob_value_is_shown_with_the_minus_sign():
    from dungeon_guilds.viz.explorer import step_label
    from dungeon_guilds.workshop.explorer import reference_map

    m = reference_map()
    cells = [c for c in m.cells if c["knob"] == "lord:vampire_lord:0:treasure"]
    assert cells
    labels = {step_label(m, c, lang) for c in cells for lang in ("en", "zh")}
    assert all("−" in x and "-" not in x for x in labels), labels


def test_a_chinese_chart_hides_plotly_toolbar_words(panel):
    # plotly.js speaks English in its toolbar and no zh-TW locale ships offline: hidden in zh
    assert "toImage" not in panel.bar.layout.modebar.remove
    assert "sendChartToCloud" in panel.bar.layout.modebar.remove  # to another host: never
    panel.lang = "zh"
    assert "toImage" in panel.bar.layout.modebar.remove and "zoom2d" in panel.grid.layout.modebar.remove
