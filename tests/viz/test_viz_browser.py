"""A browser smoke test of the RoundStepper served by Voila (opt-in: ``DG_BROWSER=1``).

It serves a one-cell notebook with Voila, opens it in headless Chromium through Playwright and
checks that the board, the plotly timeline (rendered from the Output widget's plotly mimetype)
and the buttons work, using the stable ``dg-*`` CSS classes. Skipped by default: it needs a
browser (``DG_CHROMIUM``, else ``/usr/bin/chromium``, else Playwright's own) and takes ~15 s.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(os.environ.get("DG_BROWSER") != "1",
                                reason="browser test: set DG_BROWSER=1 to run it")

CELL = """from dungeon_guilds.widgets.stepper import RoundStepper
RoundStepper(players=3, seats=["human", "first", "first"], seed=1)"""


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_stepper_in_voila(tmp_path: Path):
    nbformat = pytest.importorskip("nbformat")
    sync_api = pytest.importorskip("playwright.sync_api")
    voila = Path(sys.executable).with_name("voila")
    if not voila.exists():
        pytest.skip("voila is not installed")
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(CELL)]
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nbformat.write(nb, tmp_path / "stepper.ipynb")
    port = _free_port()
    server = subprocess.Popen([str(voila), "--no-browser", "--Voila.ip=127.0.0.1", f"--port={port}",
                               "stepper.ipynb"], cwd=tmp_path, stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)
    try:
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                time.sleep(0.2)
        chromium = os.environ.get("DG_CHROMIUM") or shutil.which("chromium") or None
        with sync_api.sync_playwright() as p:
            browser = p.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
            page = browser.new_page()
            page.goto(f"http://127.0.0.1:{port}/", timeout=90_000)
            page.wait_for_selector(".dg-stepper .dg-board", timeout=90_000)
            page.wait_for_selector(".dg-timeline .js-plotly-plot", timeout=30_000)
            assert page.locator(".dg-room").count() == 3
            before = page.locator(".dg-message").first.inner_text()
            page.locator("button.dg-step").first.click()
            page.wait_for_function("(b) => document.querySelector('.dg-message').innerText != b",
                                   arg=before, timeout=20_000)
            assert page.locator(".dg-message").first.inner_text().startswith("Ann: exhaust")
            page.locator(".dg-lang-toggle button").nth(1).click()
            page.wait_for_function("document.querySelector('button.dg-step').innerText.includes('下一步')",
                                   timeout=20_000)
            browser.close()
    finally:
        server.terminate()
        server.wait(timeout=20)
