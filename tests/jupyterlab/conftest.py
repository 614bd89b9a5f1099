"""Fixtures for the real-client tests of the notebook series in JupyterLab (issue 20).

* ``lab_server`` (module): JupyterLab 4 on a free loopback port, in its own process group
  (stopped by that group's id, then any process left under it by its own id), serving a COPY of
  ``notebooks/`` from a temporary directory (Run All never touches the repository's files) with a
  temporary user-settings directory (windowing off, so every cell is in the page; autosave off),
  a temporary workspaces directory, and as app settings the project's own
  ``binder/overrides.json`` (the one ``make lab`` installs: no news pop-up).
* ``lab_browser`` (module): headless Chromium (``DG_CHROMIUM``, else ``/usr/bin/chromium``) with
  background networking off.

When JupyterLab or the browser cannot start: with ``CI`` set or ``DG_BROWSER=1`` the tests
fail; otherwise they are skipped (as in ``tests/browser``).
"""

from __future__ import annotations

import json
import os
import secrets
import shutil
import subprocess
import sys
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path

import pytest

from dungeon_guilds.app import page_extensions
from dungeon_guilds.app.processes import alive, descendants, free_port, start_process_group, stop_process_group

ROOT = Path(__file__).resolve().parents[2]
START_TIMEOUT = 120  # seconds for JupyterLab to answer /api/status on a busy machine
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--disable-dev-shm-usage",
]
USER_SETTINGS = {
    # every cell stays in the DOM, so the test sees every output (JupyterLab 4 virtualises).
    # (Until issue 54 also autoStartDefaultKernel, against the "Select Kernel" dialog that followed
    # a Run All pressed before the notebook's kernel; the tests now wait for the kernel instead,
    # with JupyterLab's defaults, as a learner's.)
    "@jupyterlab/notebook-extension/tracker.jupyterlab-settings": {"windowingMode": "none"},
    "@jupyterlab/docmanager-extension/plugin.jupyterlab-settings": {"autosave": False},
}


def pytest_configure(config):
    config.addinivalue_line("markers", "jupyterlab: needs JupyterLab and Chromium")


def required() -> bool:
    ci = os.environ.get("CI", "").strip().lower()
    return ci not in ("", "0", "false", "no") or os.environ.get("DG_BROWSER") == "1"


def unavailable(reason: str):
    if required():
        pytest.fail(f"JupyterLab tests required (CI or DG_BROWSER=1) but {reason}", pytrace=False)
    pytest.skip(f"{reason} (set DG_BROWSER=1 or CI=true to make this a failure)")


def chromium_path() -> str | None:
    for candidate in (os.environ.get("DG_CHROMIUM"), "/usr/bin/chromium", shutil.which("chromium")):
        if candidate and Path(candidate).exists():
            return candidate
    return None


@dataclass
class LabServer:
    base: str
    token: str
    root: Path
    log: Path

    def api(self, path: str, method: str = "GET"):
        req = urllib.request.Request(f"{self.base}{path}", method=method,
                                     headers={"Authorization": f"token {self.token}"})
        with urllib.request.urlopen(req, timeout=20) as resp:
            body = resp.read()
        return json.loads(body) if body else None

    def shutdown_kernels(self) -> None:
        for kernel in self.api("/api/kernels") or []:
            self.api(f"/api/kernels/{kernel['id']}", method="DELETE")


def _write_settings(folder: Path) -> None:
    for rel, values in USER_SETTINGS.items():
        path = folder / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(values), encoding="utf-8")


@pytest.fixture(scope="module")
def lab_server(tmp_path_factory):
    lab = Path(sys.executable).with_name("jupyter-lab")
    if not lab.exists():
        unavailable("JupyterLab is not installed (the `lab` extra)")
    tmp = tmp_path_factory.mktemp("jupyterlab")
    root = tmp / "work"
    shutil.copytree(ROOT / "notebooks", root / "notebooks",
                    ignore=shutil.ignore_patterns(".ipynb_checkpoints"))
    _write_settings(tmp / "user-settings")
    (tmp / "app-settings").mkdir()
    shutil.copy(ROOT / "binder" / "overrides.json", tmp / "app-settings" / "overrides.json")
    port, token = free_port(), secrets.token_hex(16)
    env = dict(os.environ, JUPYTER_CONFIG_DIR=str(tmp / "config"), JUPYTER_RUNTIME_DIR=str(tmp / "runtime"))
    cmd = [str(lab), "--no-browser", "--ServerApp.ip=127.0.0.1", f"--ServerApp.port={port}",
           "--ServerApp.port_retries=0", f"--IdentityProvider.token={token}",
           f"--ServerApp.root_dir={root}", f"--LabApp.user_settings_dir={tmp / 'user-settings'}",
           f"--LabApp.workspaces_dir={tmp / 'workspaces'}", f"--LabApp.app_settings_dir={tmp / 'app-settings'}",
           # window.jupyterapp: the tests read the notebook's session context (its kernel ready)
           "--LabApp.expose_app_in_browser=True",
           # as `dungeon-guilds lab`: the widget manager's last look for a model (issue 54, race (b))
           page_extensions.lab_option()]
    if hasattr(os, "geteuid") and os.geteuid() == 0:  # containers and CI often run as root
        cmd.append("--ServerApp.allow_root=True")
    log = tmp / "jupyterlab.log"
    with open(log, "wb") as out:
        proc = start_process_group(cmd, cwd=root, env=env, stdout=out, stderr=subprocess.STDOUT)
    server = LabServer(f"http://127.0.0.1:{port}", token, root, log)
    left: list[int] = []
    try:
        _wait_ready(server, proc)
        yield server
    finally:
        left = descendants(proc.pid)
        stop_process_group(proc)
    still = [pid for pid in left if alive(pid)]
    assert not still, f"processes left running after JupyterLab stopped: {still}"


def _wait_ready(server: LabServer, proc) -> None:
    deadline = time.monotonic() + START_TIMEOUT
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            unavailable(f"JupyterLab exited ({proc.returncode}): {server.log.read_text(errors='replace')[-2000:]}")
        try:
            server.api("/api/status")
            return
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            time.sleep(0.5)
    unavailable(f"JupyterLab did not answer within {START_TIMEOUT} s")


@pytest.fixture(scope="module")
def lab_browser():
    try:
        from playwright.sync_api import Error as PlaywrightError
        from playwright.sync_api import sync_playwright
    except ImportError:
        unavailable("Python playwright is not installed")
    executable = chromium_path()
    if executable is None:
        unavailable("Chromium was not found (apt-get install chromium, or set DG_CHROMIUM)")
    with sync_playwright() as pw:
        try:
            browser = pw.chromium.launch(executable_path=executable, headless=True, args=CHROMIUM_ARGS,
                                         timeout=60_000)
        except PlaywrightError as exc:
            unavailable(f"Chromium at {executable} could not start: {str(exc).splitlines()[0]}")
        try:
            yield browser
        finally:
            browser.close()
