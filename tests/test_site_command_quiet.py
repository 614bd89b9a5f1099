"""``dungeon-guilds site`` is quiet by default (issue 53: a build printed 315 lines): its tools'
output goes to ``site-build.log`` in the build's folder and the terminal shows a line a step and
the result; a failed step shows the end of the log and where the rest is; ``--verbose`` shows
everything, as before. The build's tools are stood in for by a command printing 300 lines."""

from __future__ import annotations

from pathlib import Path

import pytest

from dungeon_guilds import cli
from dungeon_guilds.app import site_command


@pytest.fixture
def fake_build(tmp_path, monkeypatch):
    """Every build command prints 300 lines to where it is told to; ``fail`` makes the site build fail."""
    calls = []
    state = {"fail": False}

    def call(cmd, stdout=None, stderr=None):
        lines = "".join(f"tool output line {i}\n" for i in range(300))
        if stdout is None:
            print(lines, end="")
        else:
            stdout.write(lines)
        calls.append((cmd, stdout is not None))
        return 1 if state["fail"] and "build" in cmd else 0

    monkeypatch.setattr(site_command.subprocess, "call", call)
    monkeypatch.setattr(site_command.shutil, "which", lambda name: f"/usr/bin/{name}")
    monkeypatch.setattr(site_command, "in_a_clone", lambda root=None: True)
    monkeypatch.setattr(site_command, "work_dir", lambda root=None: tmp_path / "work")
    monkeypatch.setattr(site_command, "build_python",
                        lambda: site_command._run(["py", "-m", "venv", "v"]) or Path("python"))
    return calls, state


def test_the_build_says_a_line_a_step_and_logs_the_rest(tmp_path, fake_build, capsys):
    calls, _state = fake_build
    assert cli.main(["site", str(tmp_path / "s")]) == 0
    out = capsys.readouterr().out.strip().splitlines()
    assert len(out) <= 5 and "site-build.log" in out[0] and "The static site is in" in out[-1]
    assert not any("tool output" in line for line in out)
    log = (tmp_path / "work" / site_command.LOG_NAME).read_text("utf-8")
    assert log.count("tool output line") == 600 and all(quiet for _cmd, quiet in calls)
    assert site_command.BUILD_LOG["path"] is None  # a later caller of _run prints again
    assert cli.main(["site", str(tmp_path / "s")]) == 0  # the next build's log starts afresh
    assert (tmp_path / "work" / site_command.LOG_NAME).read_text("utf-8").count("tool output line") == 600


def test_a_failed_step_shows_the_end_of_its_output_and_the_log(tmp_path, fake_build, capsys):
    _calls, state = fake_build
    state["fail"] = True
    assert cli.main(["site", str(tmp_path / "s")]) == 2
    err = capsys.readouterr().err
    assert "tool output line 299" in err and "tool output line 200" not in err
    assert str(tmp_path / "work" / site_command.LOG_NAME) in err


def test_verbose_shows_the_whole_output(tmp_path, fake_build, capsys):
    calls, _state = fake_build
    assert cli.main(["site", str(tmp_path / "s"), "--verbose"]) == 0
    assert capsys.readouterr().out.count("tool output line") == 600
    assert not any(quiet for _cmd, quiet in calls)
