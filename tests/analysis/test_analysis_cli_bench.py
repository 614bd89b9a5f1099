"""The ``simulate`` subcommand (through its own parser) and a smoke run of the benchmark."""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

import pytest

pd = pytest.importorskip("pandas")

from dungeon_guilds.analysis.cli_simulate import add_simulate_parser, main  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]


def run(argv, capsys):
    parser = argparse.ArgumentParser(prog="dungeon-guilds")
    sub = parser.add_subparsers(dest="command", required=True)
    add_simulate_parser(sub)
    args = parser.parse_args(argv)
    code = args.func(args)
    out = capsys.readouterr()
    return code, out.out, out.err


def test_simulate_json(capsys):
    code, out, err = run(["simulate", "--players", "4", "--games", "12", "--bots",
                          "greedy,random,bully,cooperator", "--seed", "1", "--json"], capsys)
    assert code == 0
    s = json.loads(out)
    assert s["games"] == 12 and s["games_per_second"] > 0
    assert [r["seat"] for r in s["win_rate_by_seat"]] == [0, 1, 2, 3]
    assert {r["bot"] for r in s["win_rate_by_bot"]} == {"greedy", "random", "bully", "cooperator"}
    for r in s["win_rate_by_seat"] + s["win_rate_by_bot"]:
        assert r["ci_low"] <= r["win_rate"] <= r["ci_high"]
    assert sum(r["win_rate"] for r in s["win_rate_by_seat"]) == pytest.approx(1, abs=1e-3)
    assert err == ""  # no progress bar when stderr is not a terminal


def test_simulate_text_csv_and_errors(capsys, tmp_path):
    code, out, _ = run(["simulate", "--games", "5", "--players", "3", "--lords", "all"], capsys)
    assert code == 0 and "Win rate per seat" in out and "random" in out
    path = tmp_path / "games.csv"
    code, _, err = run(["simulate", "--games", "4", "--bots", "greedy:0.1", "--csv", str(path),
                        "--jobs", "2", "--progress"], capsys)
    assert code == 0 and "4/4" in err  # the progress bar went to stderr
    table = pd.read_csv(path)
    assert len(table) == 16 and set(table.bot) == {"greedy:0.1"}
    code, _, err = run(["simulate", "--bots", "nobody"], capsys)
    assert code == 2 and "unknown bot" in err
    code, _, err = run(["simulate", "--players", "8"], capsys)
    assert code == 2 and "3-6 players" in err
    code, _, err = run(["simulate", "--bots", "random,greedy", "--players", "4"], capsys)
    assert code == 2
    assert main(["--games", "2", "--players", "3", "--json", "--mcts-iterations", "5",
                 "--bots", "mcts,random,random"]) == 0


def test_bench_smoke():
    out = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "bench_engine.py"), "--games", "30", "--json",
         "--openspiel-seconds", "0.05", "--parallel-games", "40", "--jobs", "2", "--mcts-moves", "1"],
        capture_output=True, text=True, check=True, cwd=ROOT, timeout=120)
    data = json.loads(out.stdout)
    for key in ("benchmark", "players", "games", "seconds", "games_per_second",
                "actions_per_second", "actions_per_game", "python", "machine"):
        assert key in data
    assert data["parallel"]["games"] == 40 and data["mcts"]["moves"] == 1
    if data.get("openspiel"):
        assert data["ratio_vs_python_tic_tac_toe"] > 0 and data["ratio_vs_tic_tac_toe"] > 0


def test_summary_without_pandas_equals_the_metrics_on_the_tables():
    """The CLI's summary reads plain columns (no pandas loaded); it must agree with the
    pandas metrics on the same run."""
    from dungeon_guilds.analysis import metrics
    from dungeon_guilds.analysis.cli_simulate import summary
    from dungeon_guilds.analysis.simulate import simulate, simulate_columns
    from dungeon_guilds.rules import Rules

    args = (40, ["greedy", "random", "bully", "cooperator"], 4)
    columns = summary(simulate_columns(*args, seed=3, rules=Rules(lords="all"), need_pandas=False))
    res = simulate(*args, seed=3, rules=Rules(lords="all"))
    tables = summary(res)
    for s in (columns, tables):
        s.pop("seconds"), s.pop("games_per_second")
    assert columns == tables
    by_seat = metrics.win_rate_by_seat(res.games)
    assert [r["win_rate"] for r in columns["win_rate_by_seat"]] == [round(x, 4) for x in by_seat["rate"]]
    assert [r["ci_low"] for r in columns["win_rate_by_seat"]] == [round(x, 4) for x in by_seat["ci_low"]]
    assert columns["balance"] == round(metrics.balance(res.games), 4)
    by_bot = metrics.win_rate_by_bot(res.games)
    assert [r["bot"] for r in columns["win_rate_by_bot"]] == list(by_bot["bot"])
    assert [r["ci_high"] for r in columns["win_rate_by_bot"]] == [round(x, 4) for x in by_bot["ci_high"]]


def test_simulate_cli_json_does_not_load_pandas():
    code = ("import sys; from dungeon_guilds.analysis.cli_simulate import main; "
            "main(['--games', '30', '--jobs', '2', '--json']); "
            "sys.stderr.write('pandas' if 'pandas' in sys.modules else 'none')")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stderr.strip().endswith("none")
    assert json.loads(out.stdout)["games"] == 30


def test_bench_all_quick_reports_every_figure_in_one_json():
    out = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "bench_all.py"), "--json", "--quick"],
                         capture_output=True, text=True, check=True, cwd=ROOT, timeout=300)
    data = json.loads(out.stdout)
    assert data["cpu"] and data["quick"] is True
    for part in ("engine", "greedy", "ab", "simulate_10k", "mcts"):
        assert data[part], part
    assert data["greedy"]["games_per_second"] > 0 and data["ab"]["comparison_rows"] > 0
    assert data["simulate_10k"]["command"].startswith("dungeon-guilds simulate")
    assert data["mcts"]["iterations"] == 50 and data["mcts"]["moves_per_second"] > 0
    if data["engine"].get("openspiel_version"):
        assert data["engine"]["ratio_vs_python_tic_tac_toe"] > 0
