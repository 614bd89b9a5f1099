"""``dungeon-guilds lab DIR`` (what ``make lab`` runs) as a learner meets it (issue 33), in
Chromium: the address it prints opens the index of the learner's own copy (not the Launcher);
the index's link to the rules reference opens ``docs/rules.md`` (the server's root is the copy,
not ``notebooks/``); the page raises no JavaScript error with every extra of the test
environment installed together (test, notebooks, bench, dashboard, lab: the ones a user can
combine; the static site's tools live in their own environment); the repository's notebooks
are not touched. As root (CI, containers) it runs only because the command passes --allow-root.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from dungeon_guilds.app import bundle
from dungeon_guilds.app.serving import free_port, start_process_group, stop_process_group

from conftest import unavailable

ROOT = Path(__file__).resolve().parents[2]
START_TIMEOUT = 120  # seconds for JupyterLab to print its address on a busy machine


@pytest.fixture(scope="module")
def lab_command_server(tmp_path_factory):
    cli = Path(sys.executable).with_name("dungeon-guilds")
    if not Path(sys.executable).with_name("jupyter-lab").exists():
        unavailable("JupyterLab is not installed (the `lab` extra)")
    tmp = tmp_path_factory.mktemp("labcmd")
    port = free_port()
    env = dict(os.environ, JUPYTER_CONFIG_DIR=str(tmp / "config"), JUPYTER_RUNTIME_DIR=str(tmp / "runtime"),
               JUPYTERLAB_SETTINGS_DIR=str(tmp / "settings"), JUPYTERLAB_WORKSPACES_DIR=str(tmp / "workspaces"))
    log = tmp / "lab.log"
    with open(log, "wb") as out:
        proc = start_process_group([str(cli), "lab", "my notebooks", "--port", str(port), "--no-browser"],
                                   cwd=tmp, env=env, stdout=out, stderr=subprocess.STDOUT)
    pattern = re.compile(rf"http://127\.0\.0\.1:{port}/\S*\?token=\w+")
    try:
        deadline = time.monotonic() + START_TIMEOUT
        while not pattern.search(log.read_text("utf-8", "replace")):
            if proc.poll() is not None or time.monotonic() > deadline:
                unavailable(f"dungeon-guilds lab did not start: {log.read_text('utf-8', 'replace')[-2000:]}")
            time.sleep(0.3)
        yield pattern.search(log.read_text("utf-8", "replace")).group(0), tmp / "my notebooks"
    finally:
        stop_process_group(proc)


def test_the_printed_address_opens_the_index_and_its_rules_link_opens(lab_command_server, lab_browser):
    url, copy = lab_command_server
    assert "/lab/tree/notebooks/00_index.ipynb?token=" in url  # the index, not the Launcher
    tracked = (ROOT / bundle.INDEX).read_bytes()
    token = url.rsplit("token=", 1)[1]
    base = url.split("/lab/", 1)[0]
    req = urllib.request.Request(f"{base}/api/contents/docs/rules.md?content=0",
                                 headers={"Authorization": f"token {token}"})
    with urllib.request.urlopen(req, timeout=30) as resp:
        assert resp.status == 200
    context = lab_browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        page.goto(url, timeout=120_000)
        heading = page.locator(".jp-NotebookPanel .jp-RenderedMarkdown h1", has_text="the notebooks")
        heading.first.wait_for(timeout=120_000)
        page.locator(".jp-NotebookPanel .jp-RenderedMarkdown a", has_text="docs/rules.md").first.click()
        page.locator(".lm-TabBar-tab", has_text="rules.md").first.wait_for(timeout=60_000)
        # opened (in the editor or the Markdown preview): the reference's title is on the page
        page.locator(".jp-FileEditor, .jp-MarkdownViewer").filter(
            has_text="the rules the engine implements").first.wait_for(timeout=60_000)
        assert not page.locator(".jp-Dialog", has_text="Cannot open").count()
        assert not errors, errors
    finally:
        context.close()
    assert (copy / bundle.INDEX).is_file() and (ROOT / bundle.INDEX).read_bytes() == tracked
