"""The Compare tab, headless: set widget values and read what the widget shows."""

from __future__ import annotations

import pytest

pytest.importorskip("ipywidgets")  # the `test` extra does not install it; `notebooks` does

import plotly.graph_objects as go  # noqa: E402

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
    assert "seed 000 line 52" in html and "RULES.md R4.1" in html and "seed 003 line 46" in html
    assert "worker placement" in html and "Jaccard" in html
    explorer.game_b.value = "dungeon_fighter"
    assert "seed 001 line 51" in explorer.table.value and "Dungeon Lords" not in explorer.table.value
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
    assert "seed 001 line 165" in explorer.score.value
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
    explorer.players.value = ()
    explorer.run.click()
    assert "at least one player count" in explorer.lords_status.value


def test_any_exception_is_caught(monkeypatch):
    w = CompareExplorer(lords_years=5)

    def boom(*args, **kwargs):
        raise RuntimeError("the simulator exploded")

    monkeypatch.setattr(compare.comparison, "side_by_side", boom)
    monkeypatch.setattr(compare.comparison, "contention_frame", boom)
    monkeypatch.setattr(compare.dungeon, "expected_cards_lost", boom)
    w.game_a.value = "dungeon"
    w.run.click()
    w.hand.value = 5
    for status in (w.compare_status, w.lords_status, w.odds_status):
        assert "the simulator exploded" in status.value
        assert "Traceback" not in status.value
