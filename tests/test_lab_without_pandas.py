"""The Lab and the A/B experiment give the same numbers without pandas and numpy (as in the
static site, where Pyodide has neither) as with them, for a fixed seed (issue 31): the same
code path (the simulator's column parts, ``analysis.per_game``, ``analysis.intervals``) — and
those numbers are the pandas metrics' (``analysis.metrics`` on the DataFrames). Stop ends a run
after the chunk being played, and the games kept are an exact run of that many games."""

from __future__ import annotations

import json
import math
import subprocess
import sys

import pytest

pytest.importorskip("pandas")
pytest.importorskip("ipywidgets")

from dungeon_guilds.analysis import metrics  # noqa: E402
from dungeon_guilds.analysis.simulate import simulate  # noqa: E402
from dungeon_guilds.rules import Rules  # noqa: E402
from dungeon_guilds.widgets.ab_experiment import ABExperiment  # noqa: E402
from dungeon_guilds.widgets.lab import LabPanel  # noqa: E402
from dungeon_guilds.workshop.ab import Arm, compare, run_ab  # noqa: E402

LAB = {"players": 3, "bots": ["greedy", "random", "cooperator"], "games": 60, "seed": 5}
AB = {"games": 40, "players": 3, "bots": ["greedy", "random", "bully"], "seed": 3}

SCRIPT = """
import json, sys
sys.modules['pandas'] = None; sys.modules['numpy'] = None
from dungeon_guilds.widgets.lab import LabPanel
from dungeon_guilds.widgets.ab_experiment import ABExperiment
lab = LabPanel(**{lab})
lab.run_button.click()
ab = ABExperiment(draw_figures=False, **{ab})
ab.arm_b.lords_dropdown.value = 'none'
ab.run_button.click()
texts = ab.export()
print(json.dumps({{"errors": [lab.last_error is None, ab.last_error is None],
                   "pandas": 'pandas' in sys.modules and sys.modules['pandas'] is not None,
                   "lab": [lab.stats, lab.seat_rows, lab.bot_rows, lab.table_html.value, lab.summary_html.value],
                   "ab": [ab.result.comparison_rows, ab.verdict_html.value, ab.table_html.value, texts['csv'],
                          texts['games_csv']]}}))
"""


def same(x):
    """NaN made comparable (NaN != NaN) and floats rounded past JSON's round trip."""
    if isinstance(x, float):
        return "nan" if math.isnan(x) else round(x, 12)
    if isinstance(x, dict):
        return {str(k): same(v) for k, v in x.items() if k != "games_per_second"}
    if isinstance(x, (list, tuple)):
        return [same(v) for v in x]
    return x


@pytest.fixture(scope="module")
def without_pandas() -> dict:
    code = SCRIPT.format(lab=repr(LAB), ab=repr(AB))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    data = json.loads(out.stdout.splitlines()[-1])
    assert data["errors"] == [True, True] and data["pandas"] is False, out.stderr
    return data


@pytest.fixture(scope="module")
def with_pandas():
    lab = LabPanel(**LAB)
    lab.run_button.click()
    ab = ABExperiment(draw_figures=False, **AB)
    ab.arm_b.lords_dropdown.value = "none"
    ab.run_button.click()
    return lab, ab, ab.export()


def test_the_lab_gives_the_same_numbers_and_page_without_pandas(without_pandas, with_pandas):
    lab = with_pandas[0]
    stats, seats, bots, table, summary = without_pandas["lab"]
    assert same(stats) == same(lab.stats) and same(seats) == same(lab.seat_rows) and same(bots) == same(lab.bot_rows)
    assert table == lab.table_html.value
    rate = 'data-games-per-second="'  # the only thing that differs: how fast each run went
    assert summary.split(rate)[0] == lab.summary_html.value.split(rate)[0]
    assert summary.split(rate)[1].split('"', 1)[1] == lab.summary_html.value.split(rate)[1].split('"', 1)[1]


def test_those_numbers_are_the_pandas_metrics_of_the_same_games(with_pandas):
    lab = with_pandas[0]
    games = simulate(LAB["games"], LAB["bots"], LAB["players"], seed=LAB["seed"], rules=Rules()).games
    win = metrics.win_rate_by_seat(games)
    assert [r["win_rate"] for r in lab.seat_rows] == pytest.approx(win["rate"].tolist())
    assert [r["win_low"] for r in lab.seat_rows] == pytest.approx(win["ci_low"].tolist())
    gold = metrics.gold_stats(games, by="seat")
    assert [r["gold_mean"] for r in lab.seat_rows] == pytest.approx(gold["mean"].tolist())
    assert lab.stats["balance"] == pytest.approx(metrics.balance(games))
    assert lab.stats["length"] == pytest.approx(metrics.game_length(games)["mean"])


def test_the_ab_gives_the_same_comparison_verdict_and_files_without_pandas(without_pandas, with_pandas):
    ab, texts = with_pandas[1], with_pandas[2]
    rows, verdict, table, comparison_csv, games_csv = without_pandas["ab"]
    assert same(rows) == same(ab.result.comparison_rows)
    assert verdict == ab.verdict_html.value and table == ab.table_html.value
    assert comparison_csv == texts["csv"] and games_csv == texts["games_csv"]
    # the DataFrame is built from the same rows; the CSV is what pandas writes
    assert same(ab.result.comparison.to_dict(orient="records")) == same(ab.result.comparison_rows)
    assert comparison_csv == ab.result.comparison.to_csv(index=False)
    from dungeon_guilds.workshop.report import games_table

    assert games_csv == games_table(ab.result).to_csv(index=False)


def test_the_ab_numbers_are_those_of_the_pandas_runs(with_pandas):
    ab = with_pandas[1]
    a, b = Arm("A"), Arm("B", Rules(lords="none"))
    by_run = run_ab(a, b, AB["games"], AB["bots"], AB["players"], seed=AB["seed"])
    assert same(compare(by_run.sim_a, by_run.sim_b).to_dict(orient="records")) == same(ab.result.comparison_rows)
    games_b = by_run.sim_b.games  # the pandas tables of arm B's games
    rates = metrics.win_rate_by_seat(games_b)["rate"].tolist()
    assert [r["b"] for r in ab.result.comparison_rows if r["metric"] == "win_rate_seat"] == pytest.approx(rates)


def test_stop_ends_a_lab_run_after_the_chunk_and_keeps_an_exact_run():
    lab = LabPanel(players=3, bots="greedy", games=200, seed=2)
    lab.progress.observe(lambda c: lab.stop_button.click() if c["new"] >= 30 else None, "value")
    lab.run_button.click()
    done = lab.result.n_games
    assert 30 <= done < 200 and lab.progress.bar_style == "warning"
    assert lab.message_text.startswith(f"Stopped after {done} of 200 games")
    full = LabPanel(players=3, bots="greedy", games=done, seed=2)
    full.run_button.click()
    assert same(full.seat_rows) == same(lab.seat_rows)  # the games kept = a run of that many
    assert lab.stop_button.disabled and not lab.run_button.disabled


def test_stop_ends_an_ab_run_with_paired_games():
    ab = ABExperiment(draw_figures=False, games=100, players=3, bots=["random"], seed=1)
    ab.progress.observe(lambda c: ab.stop_button.click() if c["new"] >= 20 else None, "value")
    ab.run_button.click()
    res = ab.result
    assert 10 <= res.settings["games"] < 100 and res.sim_a.n_games == res.sim_b.n_games == res.settings["games"]
    assert "Stopped after" in ab.message_text and "exactly the same games" in ab.verdict_html.value


def test_in_an_event_loop_the_run_is_a_task_the_stop_click_reaches():
    """As in a kernel: the button's callback returns at once; the run plays between the loop's
    other work (here a Stop click arriving while the games are played)."""
    import asyncio

    async def scenario():
        lab = LabPanel(players=3, bots="greedy", games=20000, seed=0)
        lab.run_button.click()
        assert lab.task is not None and lab.result is None and lab.run_button.disabled
        while lab.progress.value < 20:
            await asyncio.sleep(0.01)
        lab.stop_button.click()
        await lab.task
        return lab

    lab = asyncio.run(scenario())
    assert 20 <= lab.result.n_games < 20000 and lab.message_text.startswith("Stopped after")
