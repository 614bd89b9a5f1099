"""Game records (docs/record-format.md) and the command line."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest

from dungeon_guilds import RecordError, dumps, from_record, load_record, to_record
from dungeon_guilds.cli import main

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = sorted((ROOT / "examples" / "records").glob("*.json"))
SCHEMA = json.loads((ROOT / "docs" / "record.schema.json").read_text())

ISSUE_EXAMPLE = {
    "format": "dungeon-guilds-record", "version": 1,
    "players": ["Ann", "Bo", "Cy"], "start_player": "Ann",
    "rules": {"lords": "none"},
    "heal_costs": {"1": 0, "2": 1, "3": 1, "4": 2, "5": 3},
    "levels": {"1": {"defence": [3, 5], "treasure": [2, 4]},
               "2": {"defence": [5, 7], "treasure": [4, 7]},
               "3": {"defence": [7, 9], "treasure": [8, 12]}},
    "rooms": [{"level": 2, "defence": 6, "treasure": 5},
              {"level": 1, "defence": 4, "treasure": 3},
              {"level": 3, "defence": 8, "treasure": 9}]
    + [{"level": 1, "defence": 4, "treasure": 3}] * 6,
    "lords": ["beholder", "red_dragon", "guardian"],
    "seed": 7,
    "exhaust": {"Ann": [4, 5], "Bo": [1, 2], "Cy": [2, 3]},
    "moves": ["Ann: place 1 1", "Bo: place 3 1", "Cy: bump 4 1a", "Cy: place 5 3",
              "Bo: place 4 2", "Ann: place 2 2", "Ann: swap 3 2b"],
}


def test_issue_example_replays_mid_game():
    """R2.3 rooms sorted by level; R4.2 Cy acts twice after the snake turns; Ann, bumped, is
    back in and acts again (R4.2)."""
    g = from_record(ISSUE_EXAMPLE)
    st = g.state
    assert [c.level for c in st.rooms] == [1, 2, 3]
    # setup: $2 + heal(4)+heal(5)=2+3 → Ann $7; Bo $2+0+1 = $3; Cy $2+1+1 = $4.
    # Cy's Lv1 bump: $1 to the bank → Cy $3.  Ann's swap: $1 → Ann $6.
    assert st.gold == [6, 3, 3]
    assert g.current_name == "Ann"  # Ann has one adventurer placed (her 1 was bumped)
    assert not g.is_over


def test_record_schema_accepts_engine_records_and_examples():
    for path in EXAMPLES:
        jsonschema.validate(json.loads(path.read_text()), SCHEMA)
    jsonschema.validate(ISSUE_EXAMPLE, SCHEMA)


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_example_records_round_trip(path):
    text = path.read_text()
    game = load_record(path)
    assert dumps(to_record(game)) == text


def test_examples_cover_every_player_count_and_option():
    finished = {}
    options = set()
    for path in EXAMPLES:
        g = load_record(path)
        if g.is_over:
            finished[g.n_players] = path.name
        r = g.rules
        options |= {f"lords={r.lords}", f"teams={r.teams}", f"npc={r.npc}", f"edition={r.edition}"}
    assert set(finished) == {3, 4, 5, 6}
    assert {"lords=all", "teams=2v2", "teams=3v3", "teams=2v2v2", "npc=True", "edition=fr"} <= options


BAD = [
    ({"format": "chess"}, "format"),
    ({"version": 2}, "version"),
    ({"players": ["Ann", "Bo"]}, "players"),
    ({"players": ["Ann", "Ann", "Cy"]}, "players"),
    ({"rules": {"lords": "some"}}, "rules.lords"),
    ({"rules": {"colour": 1}}, "rules.colour"),
    ({"rules": {"teams": "3v3"}}, "teams 3v3 needs 6 players"),
    ({"heal_costs": {"1": 0, "2": 1, "3": 1, "4": 2}}, "heal_costs.5"),
    ({"heal_costs": {"1": 0, "2": 1, "3": 1, "4": 2, "5": -3}}, "heal_costs.5"),
    ({"levels": {"1": {"defence": [5, 3], "treasure": [2, 4]}}}, "levels.1.defence"),
    ({"rooms": [{"level": 4, "defence": 6, "treasure": 5}] * 9}, "rooms[0].level"),
    ({"rooms": [{"level": 1, "defence": 9, "treasure": 3}] * 9}, "rooms[0].defence"),
    ({"rooms": [{"level": 1, "defence": 4, "treasure": 3}] * 3}, "rooms: a 3-player game deals 9"),
    ({"lords": ["beholder", "red_dragon", "balrog"]}, "lords[2]: unknown lord id 'balrog'"),
    ({"lords": ["beholder"]}, "lords: a 3-player game draws 3"),
    ({"exhaust": {"Ann": [4, 4], "Bo": [1, 2], "Cy": [2, 3]}}, "exhaust.Ann"),
    ({"exhaust": {"Zed": [4, 5]}}, "exhaust.Zed"),
    ({"moves": ["Ann: place 1 1", "Ann: place 2 1"]}, "move 2 ('Ann: place 2 1'): it is Bo's turn"),
    ({"moves": ["Ann: place 4 1"]}, "move 1 ('Ann: place 4 1'): your strength-4 adventurer is exhausted"),
    ({"moves": ["Ann: dance 1 1"]}, "move 1"),
    ({"moves": ["Ann: place 1 1", "Bo: bump 3 1a"]}, "move 2 ('Bo: bump 3 1a'): room 1 is not full"),
    ({"moves": ["Ann: place 1 9"]}, "there is no room 9"),
    ({"unknown": 1}, "unknown field"),
]


@pytest.mark.parametrize("change,message", BAD, ids=[m for _, m in BAD])
def test_bad_record_names_the_field_or_move(change, message):
    record = dict(ISSUE_EXAMPLE) | change
    with pytest.raises(RecordError) as err:
        from_record(record)
    assert message in str(err.value)


def test_cli_replay_json(capsys):
    assert main(["replay", str(ROOT / "examples/records/random-4p.json"), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    game = load_record(ROOT / "examples/records/random-4p.json")
    assert out["finished"] is True
    assert out["gold"] == dict(zip(game.names, game.state.gold))
    assert out["winners"] == game.winners()
    assert len(out["rounds"]) == 4
    assert all(0 <= r["cleared"] <= r["rooms"] for r in out["rounds"])
    assert out["rounds"][-1]["gold"] == out["gold"]


def test_cli_replay_teams_lists_every_winning_member(capsys):
    assert main(["replay", str(ROOT / "examples/records/teams-2v2-promo.json"), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    winners = set(out["winners"])
    teams = [set(t["members"]) for i, t in enumerate(out["teams"]) if i in out["winning_teams"]]
    assert winners == set().union(*teams)


def test_cli_bad_record_exits_2_with_one_line(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(dict(ISSUE_EXAMPLE) | {"moves": ["Ann: place 1 1", "Cy: place 2 1"]}))
    proc = subprocess.run([sys.executable, "-m", "dungeon_guilds", "replay", str(bad)],
                          capture_output=True, text=True)
    assert proc.returncode == 2
    assert proc.stdout == ""
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "move 2" in lines[0] and "Bo's turn" in lines[0]
    assert "Traceback" not in proc.stderr


def test_cli_not_json_and_missing_file_exit_2(tmp_path, capsys):
    bad = tmp_path / "x.json"
    bad.write_text("{not json")
    assert main(["replay", str(bad)]) == 2
    assert main(["replay", str(tmp_path / "missing.json")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 2 and "not JSON" in err[0] and "cannot read" in err[1]


def test_cli_rules_json_lists_options_with_sources(capsys):
    assert main(["rules", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    names = {o["name"]: o for o in out["options"]}
    assert set(names) == {"lords", "teams", "npc", "edition"}
    assert names["lords"]["values"] == ["none", "base", "all"]
    assert names["edition"]["default"] == "zh"
    for o in out["options"]:
        assert o["description"] and o["source"] and isinstance(o["ruling"], bool)
    assert any(r["rule"] == "R4.7" for r in out["rulings"])


def test_cli_random_game_writes_a_replayable_record(tmp_path):
    out = tmp_path / "g.json"
    assert main(["random-game", "--players", "5", "--seed", "3", "--npc", "--out", str(out)]) == 0
    g = load_record(out)
    assert g.is_over and g.rules.npc


def test_console_script_entry_point():
    proc = subprocess.run([sys.executable, "-m", "dungeon_guilds", "rules"], capture_output=True, text=True)
    assert proc.returncode == 0 and "lords" in proc.stdout


def test_cli_random_game_with_bots_names_them_and_replays(tmp_path, capsys):
    out = tmp_path / "bots.json"
    assert main(["random-game", "--players", "4", "--seed", "5", "--bots", "greedy,cooperator",
                 "--out", str(out)]) == 0
    record = json.loads(out.read_text())
    assert record["comment"] == "bots: Ann greedy, Bo cooperator, Cy greedy, Di cooperator"
    game = load_record(out)
    assert game.is_over and dumps(to_record(game)) == out.read_text()
    assert main(["random-game", "--bots", "nobody"]) == 2
    assert "unknown bot 'nobody'" in capsys.readouterr().err


def test_cli_replay_text_names_the_winning_team(capsys):
    assert main(["replay", str(ROOT / "examples/records/bots-2v2-npc-fr.json")]) == 0
    text = capsys.readouterr().out
    assert "Winning team: " in text or "Shared victory, teams: " in text
    assert "team Ann + Cy" in text and "team Bo + Di" in text
