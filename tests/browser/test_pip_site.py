"""The static site built by a teacher who has only the wheel (issue 40), end to end: the wheel
built from this checkout, installed with its ``dashboard`` extra into a fresh virtual environment
outside the repository, ``dungeon-guilds site DIR`` run there from another folder (its build
environment and downloads in a fresh cache folder: the site tools from PyPI, ``pyodide`` from
npm), then the site served on loopback under a sub-path and opened in Chromium (every other host
aborted) until Learn's board is drawn by the Python running in the page.

Several minutes (a venv with the dashboard's dependencies, the site tools, npm, the build), so
it runs only with ``DG_PIP_SITE=1`` (not in CI's 25 minutes); what the build reads is checked in
the wheel by ``tests/test_static_site_parts.py`` in every run. The time and size are printed.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import only_loopback

from dungeon_guilds.app.site_server import start

pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(os.environ.get("DG_PIP_SITE") != "1",
                                 reason="minutes long: set DG_PIP_SITE=1 (and DG_BROWSER=1)")]

ROOT = Path(__file__).resolve().parents[2]
BOARD = ".dg-dashboard .dg-stepper .dg-board svg"
TIMEOUT = 1800  # s: a venv, the site tools and the build on a busy 2-core machine


def _run(cmd: list[str], cwd: Path, env: dict | None = None) -> str:
    done = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=TIMEOUT,
                          env={k: v for k, v in {**os.environ, **(env or {})}.items() if k != "PYTHONPATH"})
    assert done.returncode == 0, f"{' '.join(cmd)} failed:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    return done.stdout


def test_a_teacher_with_only_the_wheel_builds_the_site_and_it_plays(browser, tmp_path):
    if shutil.which("npm") is None:
        pytest.skip("npm is not installed")
    _run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--wheel-dir", str(tmp_path / "dist"),
          str(ROOT)], cwd=tmp_path)
    (wheel,) = (tmp_path / "dist").glob("*.whl")
    venv = tmp_path / "venv"
    _run([getattr(sys, "_base_executable", sys.executable), "-m", "venv", str(venv)], cwd=tmp_path)
    _run([str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet", f"{wheel}[dashboard]"], cwd=tmp_path)
    elsewhere = tmp_path / "class"
    elsewhere.mkdir()
    t0 = time.perf_counter()
    out = _run([str(venv / "bin" / "dungeon-guilds"), "site", "site"], cwd=elsewhere,
               env={"DUNGEON_GUILDS_CACHE": str(tmp_path / "cache")})
    built = time.perf_counter() - t0
    site = elsewhere / "site"
    assert "The static site is in" in out and (site / "index.html").is_file()
    assert (tmp_path / "cache" / "site" / "venv").is_dir(), "the build environment is in the cache folder"
    cache_mb = sum(f.stat().st_size for f in (tmp_path / "cache").rglob("*") if f.is_file()) / 1e6
    print(f"built in {built:.0f} s; {out.strip().splitlines()[-1]}; cache {cache_mb:.0f} MB")
    server, url = start(site, 0, "/dungeon-guilds/")
    context = browser.new_context(viewport={"width": 1024, "height": 768}, locale="en-US")
    try:
        page = context.new_page()
        errors = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        _, outside = only_loopback(context, url)
        t1 = time.perf_counter()
        page.goto(url, timeout=120_000)
        page.wait_for_selector(BOARD, state="visible", timeout=400_000)
        print(f"board on screen {time.perf_counter() - t1:.1f} s after opening the site")
        assert page.get_by_role("tab").all_inner_texts()[:2] == ["Learn", "Play"]
        assert not outside and not errors, (outside, errors)
    finally:
        context.close()
        server.shutdown()
        server.server_close()
