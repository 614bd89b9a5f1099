"""The package as a teacher gets it (issue 33): ``python -m build`` makes a wheel and an sdist,
``twine check`` passes, and the wheel installed with its ``dashboard`` and ``notebooks`` extras
into a fresh virtual environment **outside the repository** serves the dashboard
(``dungeon-guilds dashboard``, rendered in Chromium) and copies the lessons
(``dungeon-guilds notebooks DIR``), one of which then runs under nbval there.

The wheel is built once a session; the environment's dependencies are installed once and kept
(see ``fresh_venv``; only PyPI is reached), the wheel reinstalled into it each session. Every
process started is stopped by its process group.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import time
import tomllib
import zipfile
from pathlib import Path

import pytest

from dungeon_guilds.app.serving import free_port, start_process_group, stop_process_group
from tests.browser.restore_race import LAST_LOOK_JS

from conftest import unavailable

ROOT = Path(__file__).resolve().parents[2]
INSTALL_TIMEOUT = 900  # seconds: build + pip install on a busy 2-core machine (cached: ~1-2 min)
READY_TIMEOUT = 180


def _run(cmd: list[str], cwd: Path, timeout: float = INSTALL_TIMEOUT, env: dict | None = None) -> str:
    done = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=timeout,
                          env=None if env is None else {**os.environ, **env})
    assert done.returncode == 0, f"{' '.join(cmd)} failed ({done.returncode}):\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    return done.stdout


def _setuptools_major() -> int:
    from importlib.metadata import PackageNotFoundError, version
    try:
        return int(version("setuptools").split(".")[0])
    except (PackageNotFoundError, ValueError):
        return 0


@pytest.fixture(scope="module")
def dist(tmp_path_factory) -> Path:
    """The wheel and the sdist, built from the repository once."""
    try:
        import build  # noqa: F401
    except ImportError:
        unavailable("the `build` package is not installed (pip install -e '.[test]')")
    out = tmp_path_factory.mktemp("dist")
    # with this environment's setuptools when it is new enough (the test extra asks for it): no
    # isolated build environment to create; else build's own (setuptools from PyPI's cache)
    isolation = ["--no-isolation"] if _setuptools_major() >= 77 else []
    _run([sys.executable, "-m", "build", *isolation, "--outdir", str(out), str(ROOT)], cwd=out)
    return out


def _deps_key() -> str:
    """What the fresh environment's dependencies depend on: the two extras and the Python."""
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"]["optional-dependencies"]
    wanted = sorted(set(extras["dashboard"]) | set(extras["notebooks"]))
    return hashlib.sha256(json.dumps([wanted, sys.version]).encode()).hexdigest()[:16]


@pytest.fixture(scope="module")
def fresh_venv(dist, tmp_path_factory) -> Path:
    """A virtual environment outside the repository with the wheel and its dashboard and
    notebooks extras (nothing from the repository's own environment). The dependencies take
    minutes to install on a busy machine, so the environment is kept in ``$DG_TEST_CACHE``
    (default ``~/.cache/dungeon-guilds-tests``) under a key of the extras' lists and the Python
    version, and made again when they change; the wheel itself is reinstalled every session
    (pip removes the previous one's files first)."""
    cache = Path(os.environ.get("DG_TEST_CACHE") or Path.home() / ".cache" / "dungeon-guilds-tests")
    venv = cache / f"venv-{_deps_key()}"
    assert ROOT not in venv.parents
    wheel = next(dist.glob("*.whl"))
    pip = [str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet", "--no-compile",
           "--disable-pip-version-check"]
    if (venv / "ready").exists():
        _run([*pip, "--no-deps", "--force-reinstall", str(wheel)], cwd=cache)
        return venv
    shutil.rmtree(venv, ignore_errors=True)
    cache.mkdir(parents=True, exist_ok=True)
    base_python = getattr(sys, "_base_executable", sys.executable)
    _run([base_python, "-m", "venv", str(venv)], cwd=cache)
    _run([*pip, f"{wheel}[dashboard,notebooks]"], cwd=cache)
    (venv / "ready").write_text(wheel.name, "utf-8")
    return venv


def test_build_makes_a_wheel_and_an_sdist_that_twine_accepts_with_the_lessons_inside(dist):
    wheels, sdists = list(dist.glob("*.whl")), list(dist.glob("*.tar.gz"))
    assert len(wheels) == 1 and len(sdists) == 1
    import dungeon_guilds
    assert f"-{dungeon_guilds.__version__}-" in wheels[0].name  # the version from one place
    names = zipfile.ZipFile(wheels[0]).namelist()
    for shipped in ("dungeon_guilds/bundle/notebooks/00_index.ipynb", "dungeon_guilds/bundle/notebooks/dashboard.ipynb",
                    "dungeon_guilds/bundle/voila.json", "dungeon_guilds/bundle/docs/rules.md",
                    "dungeon_guilds/bundle/examples/records/random-4p.json",
                    "dungeon_guilds/teaching/lessons/lesson-2-design.zh.md",  # issue 40: the plans
                    # issue 54, race (b): the page extension (page_extensions.py)
                    "dungeon_guilds/app/labextensions/dungeon-guilds-widgets/package.json",
                    "dungeon_guilds/app/labextensions/dungeon-guilds-widgets/static/remoteEntry.js"):
        assert shipped in names
    checked = _run([sys.executable, "-m", "twine", "check", "--strict", *map(str, wheels + sdists)], cwd=dist)
    assert checked.count("PASSED") == 2, checked


def test_the_installed_dashboard_command_serves_the_dashboard_outside_the_repository(fresh_venv, page, tmp_path):
    port = free_port()
    log_path = tmp_path / "dashboard.log"
    with open(log_path, "wb") as log:
        proc = start_process_group([str(fresh_venv / "bin" / "dungeon-guilds"), "dashboard", "--port", str(port),
                                    "--class", "1"], cwd=tmp_path, stdout=log, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + READY_TIMEOUT
        while "READY" not in log_path.read_text("utf-8", "replace"):
            assert proc.poll() is None, log_path.read_text("utf-8", "replace")
            assert time.monotonic() < deadline, log_path.read_text("utf-8", "replace")
            time.sleep(0.2)
        page.goto(f"http://127.0.0.1:{port}/")
        page.wait_for_selector(".dg-dashboard .dg-stepper .dg-board", timeout=90_000)
        assert not page.console_errors
        # issue 54, race (b): the installed package's page extension is loaded (page_extensions.py)
        assert page.evaluate(LAST_LOOK_JS)
    finally:
        stop_process_group(proc)
    text = log_path.read_text("utf-8", "replace")
    assert f"http://127.0.0.1:{port}/" in text
    # the routine warnings a teacher would take for errors stay out of the terminal
    assert "not trusted" not in text and "without encryption" not in text, text
    assert "Traceback" not in text, text


def test_the_installed_notebooks_command_copies_lessons_that_run_under_nbval(fresh_venv, tmp_path):
    dest = tmp_path / "my lessons"
    out = _run([str(fresh_venv / "bin" / "dungeon-guilds"), "notebooks", str(dest)], cwd=tmp_path, timeout=60)
    assert "dungeon-guilds lab" in out and (dest / "notebooks" / "00_index.ipynb").is_file()
    assert (dest / "docs" / "rules.md").is_file() and (dest / "examples" / "records").is_dir()
    # issue 40: the lesson plans, and their pages to print (mistune came with the dashboard extra)
    assert (dest / "lessons" / "lesson-2-design.md").is_file() and (dest / "lessons" / "lesson-2-design.zh.html").is_file()
    assert "lessons/index.html" in out
    result = _run([str(fresh_venv / "bin" / "python"), "-m", "pytest", "-q", "-p", "no:cacheprovider", "--nbval-lax",
                   "notebooks/01_first_round.ipynb"], cwd=dest, timeout=600)
    assert re.search(r"\d+ passed", result) and "failed" not in result, result
