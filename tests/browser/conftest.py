"""Fixtures for the real-browser tests: the dashboard served by Voila, and Debian's Chromium
driven by Playwright.

* ``voila_server`` (session): Voila serving ``notebooks/dashboard.ipynb`` exactly as ``make
  dashboard`` does (from the repository root, so ``voila.json`` applies: preheated kernel,
  culling, cell timeout, no tracebacks), on a free loopback port, with shorter culling times
  (``CULL_IDLE``/``CULL_INTERVAL``) so the culling tests stay short. It is started and stopped
  by ``dungeon_guilds.app.serving`` (``start_voila``): in its own process group, stopped by that
  group's id (then any process left under it by its own id), whatever happens in the tests:
  Voila starts a kernel per page view and keeps it.
* ``browser`` (session): headless Chromium (``DG_CHROMIUM``, else ``/usr/bin/chromium``, else
  ``chromium`` on the PATH) with background networking off.
* ``page``: a fresh browser context and page per test, closed afterwards (which closes the
  page's kernel connection).

When the browser cannot start: with ``CI`` set (CI sets ``CI=true``) or ``DG_BROWSER=1`` the
tests **fail**; otherwise they are skipped. Tests that do not use these fixtures (the headless
ones in this folder) always run.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from dungeon_guilds.app import serving
from dungeon_guilds.app.processes import alive
from dungeon_guilds.app.serving import VoilaServer

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOK = "notebooks/dashboard.ipynb"
CULL_IDLE = 5  # seconds: kernels of closed pages go quickly in the tests (voila.json: 600)
CULL_INTERVAL = 1
START_TIMEOUT = serving.START_TIMEOUT  # seconds for Voila to start and fill its kernel pool
# The test servers refill their pool whatever the machine's load (the suite keeps the CPUs busy;
# the load rule itself is tested on the kernel manager, test_dashboard_app.py)
# Nor does their pool grow for the pages the tests open one after another (issue 40's growth would
# keep preparing kernels the suite never uses; tests/browser/test_voila_classroom.py's paced
# server tests it with growth on)
TEST_SERVER_ARGS = ("--PoolKeepingKernelManager.refill_busy=0", "--PoolKeepingKernelManager.pool_grows=False")


@pytest.fixture(scope="session")
def test_server_args() -> tuple[str, ...]:
    """The options every test Voila server adds (:data:`TEST_SERVER_ARGS`)."""
    return TEST_SERVER_ARGS
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--disable-dev-shm-usage",
]


def pytest_configure(config):
    config.addinivalue_line("markers", "browser: needs Voila and Chromium (deselect with -m 'not browser')")


def browser_required() -> bool:
    """True in CI (``CI`` set to anything but empty/0/false) or with ``DG_BROWSER=1``."""
    ci = os.environ.get("CI", "").strip().lower()
    return ci not in ("", "0", "false", "no") or os.environ.get("DG_BROWSER") == "1"


def unavailable(reason: str):
    """Fail when the browser tests are required, else skip."""
    if browser_required():
        pytest.fail(f"browser tests required (CI or DG_BROWSER=1) but {reason}", pytrace=False)
    pytest.skip(f"{reason} (set DG_BROWSER=1 or CI=true to make this a failure)")


def only_loopback(context, site: str) -> tuple[list[str], list[str]]:
    """Abort every request of ``context`` to a host other than ``site``'s (``data:``/``blob:``
    pass): a hidden CDN use fails the test. Returns (every URL asked, the URLs aborted)."""
    from urllib.parse import urlparse

    here, asked, outside = urlparse(site).netloc, [], []

    def route(r):
        url = r.request.url
        asked.append(url)
        if urlparse(url).netloc != here and not url.startswith(("data:", "blob:")):
            outside.append(url)
            r.abort()
        else:
            r.continue_()

    context.route("**/*", route)
    return asked, outside


def chromium_path() -> str | None:
    for candidate in (os.environ.get("DG_CHROMIUM"), "/usr/bin/chromium", shutil.which("chromium")):
        if candidate and Path(candidate).exists():
            return candidate
    return None


# ---------------------------------------------------------------------- Voila
def voila_command(port: int) -> list[str]:
    """``make dashboard``'s command, with test culling times (what ``voila_server`` runs)."""
    return serving.voila_command(port, NOTEBOOK, cull_idle=CULL_IDLE, cull_interval=CULL_INTERVAL)


@pytest.fixture(scope="session")
def voila_server(tmp_path_factory) -> VoilaServer:
    if not serving.voila_executable().exists():
        unavailable("voila is not installed in this environment")
    log_path = tmp_path_factory.mktemp("voila") / "voila.log"
    # stopped by start_voila itself if it does not become ready
    server = serving.start_voila(ROOT, log_path, notebook=NOTEBOOK, cull_idle=CULL_IDLE,
                                 cull_interval=CULL_INTERVAL, wait_pool=True, timeout=START_TIMEOUT,
                                 extra_args=TEST_SERVER_ARGS)
    kernels: list[int] = []
    try:
        yield server
    finally:
        kernels = server.kernels()
        server.stop()
    left = [pid for pid in kernels if alive(pid)]
    assert not left, f"kernel processes left running after Voila stopped: {left}"


# ---------------------------------------------------------------------- Chromium
@pytest.fixture(scope="module")
def browser():
    """One Chromium a test module, stopped when the module ends: a sync Playwright left running
    would keep its event loop current for the rest of the session (later ``asyncio.run`` calls and
    the JupyterLab tests' own Playwright would then fail)."""
    try:
        from playwright.sync_api import Error as PlaywrightError
        from playwright.sync_api import sync_playwright
    except ImportError:
        unavailable("Python playwright is not installed")
    executable = chromium_path()
    if executable is None:
        unavailable("Chromium was not found (apt-get install chromium, or set DG_CHROMIUM)")
    manager = sync_playwright()
    problem = None
    try:
        pw = manager.start()
    except Exception as exc:  # noqa: BLE001 - the driver itself may fail to start
        problem = f"Playwright could not start: {exc}"
    if problem:
        unavailable(problem)
    try:
        browser = None
        try:
            browser = pw.chromium.launch(executable_path=executable, headless=True, args=CHROMIUM_ARGS,
                                         timeout=60_000)
        except PlaywrightError as exc:
            problem = f"Chromium at {executable} could not start: {str(exc).splitlines()[0]}"
        if browser is None:
            unavailable(problem)
        try:
            yield browser
        finally:
            browser.close()
    finally:
        manager.__exit__(None, None, None)


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1280, "height": 1000}, locale="en-US")
    context.set_default_timeout(30_000)
    page = context.new_page()
    page.console_errors = []  # type: ignore[attr-defined]
    page.on("pageerror", lambda exc: page.console_errors.append(str(exc)))  # type: ignore[attr-defined]
    try:
        yield page
    finally:
        context.close()
