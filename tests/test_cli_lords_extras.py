"""`dungeon-guilds lords`, the lords in `rules --json`, and what every command and subpackage
says when an optional extra is missing (simulated in a subprocess that blocks the modules:
``sys.modules[name] = None`` makes ``import name`` fail as if it were not installed)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from dungeon_guilds.cli import main
from dungeon_guilds.lords import ALL_LORDS

ROOT = Path(__file__).resolve().parents[1]
OPTIONAL = ("pandas", "numpy", "plotly", "networkx", "tqdm", "ipywidgets", "IPython", "dask")


def lords_json(capsys, *extra: str) -> dict:
    assert main(["lords", "--json", *extra]) == 0
    return json.loads(capsys.readouterr().out)


def test_lords_json_lists_the_11_lords_with_names_kind_effect_and_rulings(capsys):
    out = lords_json(capsys)
    lords = {lord["id"]: lord for lord in out["lords"]}
    assert out["lang"] == "en" and list(lords) == [lord.id for lord in ALL_LORDS] and len(lords) == 11
    assert [lord["kind"] for lord in out["lords"]].count("promo") == 5
    caveman = lords["caveman"]
    assert (caveman["name_en"], caveman["name_zh"], caveman["kind"]) == ("The Caveman", "山頂洞人", "promo")
    assert "start phase" in caveman["effect"]
    assert [r["rule"] for r in caveman["rulings"]] == ["R7.2"]
    assert "round 1 has none" in caveman["rulings"][0]["text"]
    assert [r["rule"] for r in lords["succubus"]["rulings"]] == ["R7.5"]
    assert [r["rule"] for r in lords["boardgame_lord"]["rulings"]] == ["R7.3"]
    assert {r["rule"] for r in lords["lich_king"]["rulings"]} == {"R7.1"}
    assert {r["rule"] for r in lords["bigfun_king"]["rulings"]} == {"R5.3", "R7.1"}
    assert lords["beholder"]["rulings"] == [] and lords["red_dragon"]["rulings"] == []


def test_lords_in_chinese(capsys):
    out = lords_json(capsys, "--lang", "zh")
    caveman = next(lord for lord in out["lords"] if lord["id"] == "caveman")
    assert caveman["effect"].startswith("在開始階段時") and "第 1 回合沒有開始階段" in caveman["rulings"][0]["text"]
    assert main(["lords", "--lang", "zh"]) == 0
    text = capsys.readouterr().out
    assert text.startswith("地城城主（§7）：共 11 位，基本 6 位、特典 5 位") and "[特典]" in text and "裁定 R7.2" in text
    assert main(["lords"]) == 0
    text = capsys.readouterr().out
    assert "11 lords, 6 base and 5 promo" in text and "caveman: The Caveman 山頂洞人 [promo]" in text


def test_lords_refuses_an_unknown_language(capsys):
    assert main(["lords", "--lang", "xx"]) == 2
    assert "invalid choice: 'xx'" in capsys.readouterr().err


def test_rules_json_includes_the_same_lords(capsys):
    assert main(["rules", "--json"]) == 0
    listing = json.loads(capsys.readouterr().out)
    assert listing["lords"] == lords_json(capsys)["lords"]
    assert listing["reference"] == "docs/rules.md"


def test_rules_text_names_the_reference_in_the_repository(capsys):
    assert main(["rules"]) == 0
    out = capsys.readouterr().out
    assert "docs/rules.md" in out and "RULES" not in out
    assert (ROOT / "docs" / "rules.md").is_file()


# ---------------------------------------------------------------------- missing extras
def run_without(code: str, blocked=OPTIONAL) -> subprocess.CompletedProcess:
    prelude = "import sys\n" + "".join(f"sys.modules[{m!r}] = None\n" for m in blocked)
    return subprocess.run([sys.executable, "-c", prelude + code], capture_output=True, text=True,
                          cwd=ROOT, timeout=120)


def cli_without(*argv: str) -> subprocess.CompletedProcess:
    return run_without(f"from dungeon_guilds.cli import main\nsys.exit(main({list(argv)!r}))")


@pytest.mark.parametrize("argv", [
    ["simulate", "--players", "4", "--games", "10"],
    ["simulate"],
])
def test_a_command_that_needs_the_analysis_extra_says_so_in_one_line(argv):
    proc = cli_without(*argv)
    assert proc.returncode == 2, proc.stderr
    assert "Traceback" not in proc.stderr and proc.stdout == ""
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    assert lines[0].startswith(f"dungeon-guilds: dungeon-guilds {argv[0]}")
    assert "needs the optional 'analysis' extra (pandas is not installed)" in lines[0]
    assert "pip install 'dungeon-guilds[analysis]'" in lines[0]


@pytest.mark.parametrize("argv", [
    ["rules"], ["rules", "--json"], ["lords", "--json", "--lang", "zh"],
    ["replay", "examples/records/random-3p.json"], ["random-game", "--players", "3", "--seed", "2"],
    ["random-game", "--bots", "greedy,random"],  # the bots need the standard library only
])
def test_the_engine_commands_need_no_extra(argv):
    proc = cli_without(*argv)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout and not proc.stderr


@pytest.mark.parametrize("module, extra", [
    ("dungeon_guilds.analysis.metrics", "analysis"),
    ("dungeon_guilds.analysis.tournament", "analysis"),
    ("dungeon_guilds.viz", "analysis"),
    ("dungeon_guilds.viz.board", "analysis"),
    ("dungeon_guilds.siblings.graphs", "analysis"),
    ("dungeon_guilds.widgets", "notebooks"),
    ("dungeon_guilds.app.dashboard", "notebooks"),
])
def test_importing_a_subpackage_without_its_extra_names_the_extra(module, extra):
    proc = run_without(
        "try:\n"
        f"    import {module}\n"
        "except ImportError as err:\n"
        "    print(type(err).__name__, '|', err)\n"
        "else:\n"
        "    print('imported')\n")
    assert proc.returncode == 0, proc.stderr
    kind, _, message = proc.stdout.strip().partition(" | ")
    assert kind == "MissingExtra", proc.stdout
    assert f"the optional '{extra}' extra" in message and f"pip install 'dungeon-guilds[{extra}]'" in message


def test_simulation_runs_without_extras_and_only_its_pandas_tables_name_the_extra():
    """Issue 31: the Lab's games are played by the standard library (the static site has no
    pandas); asking a result for its pandas tables names the extra."""
    proc = run_without(
        "from dungeon_guilds.analysis.simulate import simulate\n"
        "r = simulate(4, ['greedy', 'random', 'random'], 3, seed=1, need_pandas=False)\n"
        "print(r.n_games, sum(r.column('games', 'gold')) > 0)\n"
        "try:\n"
        "    r.games\n"
        "except ImportError as err:\n"
        "    print(type(err).__name__, '|', err)\n")
    assert proc.returncode == 0, proc.stderr
    first, kind_message = proc.stdout.strip().splitlines()
    assert first == "4 True", proc.stdout  # 4 games played, gold paid out (R7)
    kind, _, message = kind_message.partition(" | ")
    assert kind == "MissingExtra" and "pip install 'dungeon-guilds[analysis]'" in message, proc.stdout


def test_the_workshop_names_its_extra_and_its_challenges_need_none():
    """The workshop's experiments (pandas) name the extra; the design challenges (issue 28) are
    checked with the standard library, as the static site checks them."""
    proc = run_without(
        "try:\n"
        "    from dungeon_guilds.workshop import run_ab\n"
        "except ImportError as err:\n"
        "    print(type(err).__name__, '|', err)\n"
        "from dungeon_guilds.workshop import challenges\n"
        "c = challenges.load()[0]\n"
        "r = challenges.check(c, None, None, games=(4, 4))\n"
        "print(r.games)\n")
    assert proc.returncode == 0, proc.stderr
    first, second = proc.stdout.strip().splitlines()
    assert first.startswith("MissingExtra |") and "pip install 'dungeon-guilds[analysis]'" in first
    assert second == "4"


def test_the_figures_of_viz_say_which_extra_and_the_events_data_needs_none():
    proc = run_without(
        "from dungeon_guilds import events\n"  # plain data behind the figures: no extra
        "try:\n"
        "    import dungeon_guilds.viz\n"
        "except ImportError as err:\n"
        "    print(err)\n")
    assert proc.returncode == 0, proc.stderr
    assert "pip install 'dungeon-guilds[analysis]'" in proc.stdout


def test_the_engine_and_the_sibling_kernels_need_no_extra():
    proc = run_without(
        "import dungeon_guilds, dungeon_guilds.drawing.display, dungeon_guilds.reference\n"
        "from dungeon_guilds.siblings import dungeon, dungeon_fighter, dungeon_lords, verify_source\n"
        "print(dungeon_guilds.Game(['A', 'B', 'C'], seed=1).current_name)\n"
        "print(verify_source(dungeon_lords.CITATIONS['reveal together, start player first']))\n")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split() == ["A", "None"]


def test_the_comparison_data_needs_no_extra_but_its_pandas_tables_name_theirs():
    """The sibling comparison's rows are plain data (the static site's Compare tab runs without
    pandas); asking for a pandas table without pandas names the extra."""
    proc = run_without(
        "from dungeon_guilds.siblings import comparison\n"
        "print(len(comparison.fact_rows()) > 0)\n"
        "try:\n"
        "    comparison.facts()\n"
        "except ImportError as err:\n"
        "    print(type(err).__name__, '|', err)\n")
    assert proc.returncode == 0, proc.stderr
    first, second = proc.stdout.strip().splitlines()
    assert first == "True"
    assert second.startswith("MissingExtra |") and "pip install 'dungeon-guilds[analysis]'" in second
