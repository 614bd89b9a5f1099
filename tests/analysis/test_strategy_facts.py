"""The strategy lesson's figures (issue 38, item 5): shipped, reproducible, and the only numbers
the lesson states.

* the shipped rows of the first games are what a fresh run plays at the same seed (the games are
  deterministic: game ``g`` of seed ``s`` is the same game wherever it is played), and the shipped
  figures are exactly what :func:`facts` computes from the shipped rows: together, the shipped
  figures are what the regeneration command would print;
* every interval contains its estimate;
* every figure lesson 4 (English and 繁體中文) prints sits behind a ``<!-- fact: KEY -->`` marker
  and reads as :func:`say` words the shipped figure; no other share, decimal or dollar amount
  stands in the lesson's prose; both languages cite the same figures;
* notebook 10 reads only figures the data holds, and is in the index.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from dungeon_guilds.analysis import strategy_facts as sf

ROOT = Path(__file__).resolve().parents[2]
LESSON = ROOT / "dungeon_guilds" / "teaching" / "lessons" / "lesson-4-strategy"
NOTEBOOK = ROOT / "notebooks" / "10_strategy.ipynb"
MARKER = re.compile(r"<!-- fact: ([\w.]+) -->\s*\*\*(.+?)\*\*")
GAMES_MARKER = re.compile(r"<!-- games -->\s*\*\*([\d,]+)\*\*")
NOT_FIGURES = re.compile(r"R\d+(?:\.\d+)*|0\.0\.0\.0|95 %")  # rule numbers, the host, the intervals' level
POSITION = re.compile(r"<!-- position: \w+ -->.*?<!-- /position -->", re.S)  # its block, checked whole
STRAY = re.compile(r"\d+(?:\.\d+)? ?%|\d+\.\d+|\$\d|\d[\d,]* (?:games|局)|\d+ ?points|\d+ ?個百分點")


@pytest.fixture(scope="module")
def data():
    return sf.shipped()


def test_the_shipped_rows_are_what_the_seed_plays(data):
    assert data["format"] == sf.FORMAT and data["players"] == sf.PLAYERS
    assert str(data["games"]) in data["command"] and str(data["seed"]) in data["command"]
    for bot, first in (("strong", 2), ("greedy", 6)):
        rows = data["rows"][bot]
        assert len(rows) == data["games"]
        assert sf.play_rows(first, data["seed"], bot) == rows[:first], bot


def test_the_data_file_is_in_the_wheel():
    import tomllib

    config = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))
    assert "analysis/data/*.json" in config["tool"]["setuptools"]["package-data"]["dungeon_guilds"]


def test_the_shipped_figures_are_the_rows_figures(data):
    assert sf.facts(data["rows"]) == data["facts"]


def test_a_small_run_gives_the_same_figures_as_its_rows():
    rows = {"strong": sf.play_rows(6, 7, "greedy"), "greedy": sf.play_rows(6, 7, "greedy")}
    f = sf.facts(rows)
    for key in ("pair.45", "seat_win.1", "first_room.1", "start_room.1", "bumps_per_game"):
        assert f[f"diff.{key}"]["value"] == 0.0, key  # the same games on both sides: no difference
    assert f["greedy.pair.45"]["value"] == 1.0  # greedy exhausts 4 and 5, the most gold now (R2.4)


def test_every_interval_contains_its_estimate(data):
    for key, f in data["facts"].items():
        assert f["low"] <= f["value"] <= f["high"], key
        assert f["n"] >= 2, key


def test_a_row_reads_back():
    row = "02|45123445|0p3111p3112p2223p322/1p1122p113|13+2,23-1"
    g = sf.parse_row(row)
    assert g["winners"] == [0, 2] and g["pairs"] == ["45", "12", "34", "45"]
    assert g["rounds"][0][0] == (0, "p", 3, 1, 1) and g["bumps"] == [(1, 3, 2), (2, 3, -1)]
    c = sf.counts(row)
    assert c["pair.45"] == (2, 4) and c["pair_win.45"] == (0.5, 2) and c["seat_win.3"] == (0.5, 1)
    assert c["bump_paid.3"] == (1, 2) and c["bump_level.3"] == (2, 2)
    assert c["start_room.1"] == (2, 2)  # round 1: seat 1 opened in room 1; round 2: seat 2 in room 1
    assert c["first_room.1"] == (4, 6) and c["start_strength.3"] == (1, 2)


def lesson_files():
    return [LESSON.with_suffix(".md"), LESSON.with_suffix(".zh.md")]


@pytest.mark.parametrize("path", lesson_files(), ids=lambda p: p.name)
def test_every_figure_in_the_lesson_is_the_datas(path, data):
    text = path.read_text("utf-8")
    cited = MARKER.findall(text)
    assert len(cited) >= 8, f"{path.name}: the claims cite their figures"
    lang = "zh" if path.name.endswith(".zh.md") else "en"
    for key, printed in cited:
        assert key in data["facts"], f"{path.name}: {key} is not in the data"
        assert printed == sf.say(key, data["facts"], lang), f"{path.name}: {key} printed {printed!r}"
    games = GAMES_MARKER.findall(text)
    assert games and all(int(g.replace(",", "")) == data["games"] for g in games)


@pytest.mark.parametrize("path", lesson_files(), ids=lambda p: p.name)
def test_no_number_in_the_lesson_that_the_data_does_not_hold(path):
    text = path.read_text("utf-8")
    prose = text.split("## Exit quiz")[0].split("## 課後小測驗")[0]  # the quiz: the engine's answers
    prose = POSITION.sub("", prose)  # a worked position: the judge's figures (tests/teaching/test_worked_positions.py)
    prose = NOT_FIGURES.sub("", GAMES_MARKER.sub("", MARKER.sub("", prose)))
    stray = [m.group() for m in STRAY.finditer(prose)]
    assert not stray, f"{path.name}: figures without a marker: {stray}"


def test_both_languages_cite_the_same_figures():
    en, zh = ([k for k, _ in MARKER.findall(p.read_text("utf-8"))] for p in lesson_files())
    assert en == zh


def test_the_notebook_reads_only_figures_the_data_holds(data):
    nb = json.loads(NOTEBOOK.read_text("utf-8"))
    code = "".join("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "code")
    keys = set(re.findall(r"""["']((?:strong|greedy|diff)\.[\w.]+)["']""", code))
    assert keys, "the notebook cites no figure"
    assert keys <= set(data["facts"]), keys - set(data["facts"])
    prose = NOT_FIGURES.sub("", "".join("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "markdown"))
    assert not [m.group() for m in STRAY.finditer(prose)], "figures belong in the cells that read the data"


def test_the_notebook_and_the_lesson_are_linked():
    index = (ROOT / "notebooks" / "00_index.ipynb").read_text("utf-8")
    assert "10_strategy.ipynb" in index and "lesson-4-strategy.md" in index
    readme = (ROOT / "dungeon_guilds" / "teaching" / "lessons" / "README.md").read_text("utf-8")
    assert "lesson-4-strategy.md" in readme and "lesson-4-strategy.zh.md" in readme
    assert "lesson-4-strategy" in (ROOT / "docs" / "teaching" / "README.md").read_text("utf-8")


def test_say_keeps_the_estimate_inside():
    facts = {"strong.pair.45": {"value": 0.4149, "low": 0.3851, "high": 0.4449},
             "diff.pair.45": {"value": -0.585, "low": -0.615, "high": -0.555},
             "strong.bump_net.3": {"value": 1.26, "low": -0.04, "high": 2.5},
             "strong.bumps_per_game": {"value": 1.84, "low": 1.6, "high": 2.06}}
    assert sf.say("strong.pair.45", facts) == "41 % (39–44 %)"
    assert sf.say("diff.pair.45", facts) == "−58 points (−62 to −56)"
    assert sf.say("strong.bump_net.3", facts) == "+$1.3 ($0.0 to +$2.5)"
    assert sf.say("strong.bumps_per_game", facts) == "1.8 (1.6–2.1)"
    assert sf.say("strong.bumps_per_game", {"strong.bumps_per_game": {"value": 0.8, "low": -0.01, "high": 1.5}}) \
        == "0.8 (0.0–1.5)"
    assert sf.say("strong.pair.45", facts, "zh") == "41 %（39–44 %）"
    assert sf.say("diff.pair.45", facts, "zh") == "−58 個百分點（−62 到 −56）"


# what lesson 4's prose (en and zh, the evidence beside each idea) says about its figures: each
# claim must stay true of the shipped data (an interval that includes 0 is "not told apart")
def _top_room(f, bot):
    return max(range(1, 5), key=lambda r: f[f"{bot}.first_room.{r}"]["value"])


LESSON_CLAIMS = {
    "lock: a bump into level 3 earns more than its fee, on average": lambda f: f["strong.bump_net.3"]["low"] > 0,
    "greedy: greedy's bumps earn back their fee less often than strong's":
        lambda f: f["greedy.bump_paid.all"]["high"] < f["strong.bump_paid.all"]["low"],
    "unseen: both bots start a round most often in room 1":
        lambda f: _top_room(f, "strong") == 1 and _top_room(f, "greedy") == 1,
    "greedy: and in level 1 rooms":
        lambda f: f["greedy.bump_paid.1"]["high"] < f["strong.bump_paid.1"]["low"],
    "unseen: strong play moves the difference to rooms 2 (an interval starting just above 0) and 3":
        lambda f: (f["diff.first_room.1"]["high"] < 0 < f["diff.first_room.2"]["low"] < 0.01
                   and f["diff.first_room.3"]["low"] > 0),
    "standings: the seats' intervals overlap (seat 4 and seat 1 not told apart)":
        lambda f: f["strong.seat_win.4"]["high"] >= f["strong.seat_win.1"]["low"],
    "rest: strong play exhausts 4 and 5 less often than greedy, which always does":
        lambda f: f["diff.pair.45"]["high"] < 0 and f["greedy.pair.45"]["value"] == 1.0,
    "rest: otherwise strong play most often keeps its 4 (2 and 5, 3 and 5)":
        lambda f: f["strong.pair.25"]["value"] + f["strong.pair.35"]["value"] > (1 - f["strong.pair.45"]["value"]) / 2,
    "rest: the seats that exhausted 2 and 5 and 4 and 5 are not told apart":
        lambda f: (f["strong.pair_win.25"]["high"] >= f["strong.pair_win.45"]["low"]
                   and f["strong.pair_win.45"]["high"] >= f["strong.pair_win.25"]["low"]),
}


@pytest.mark.parametrize("claim", LESSON_CLAIMS)
def test_the_lessons_words_about_its_figures_hold(claim, data):
    assert LESSON_CLAIMS[claim](data["facts"]), claim
