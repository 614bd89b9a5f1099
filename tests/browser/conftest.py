"""Fixtures for the real-browser tests: the dashboard served by Voila, and Debian's Chromium
driven by Playwright.

* ``voila_server`` (session): Voila serving ``notebooks/dashboard.ipynb`` exactly as ``make
  dashboard`` does (from the repository root, so ``voila.json`` applies: preheated kernel,
  culling, cell timeout, no tracebacks), on a free loopback port, with shorter culling times
  (``CULL_IDLE``/``CULL_INTERVAL``) so the culling tests stay short. It is started in its own
  process group and stopped by that group's id (then any process left under it by its own id),
  whatever happens in the tests: Voila starts a kernel per page view and keeps it.
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
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOK = "notebooks/dashboard.ipynb"
CULL_IDLE = 5  # seconds: kernels of closed pages go quickly in the tests (voila.json: 600)
CULL_INTERVAL = 1
START_TIMEOUT = 90  # seconds for Voila to start and fill its kernel pool
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


def chromium_path() -> str | None:
    for candidate in (os.environ.get("DG_CHROMIUM"), "/usr/bin/chromium", shutil.which("chromium")):
        if candidate and Path(candidate).exists():
            return candidate
    return None


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# ---------------------------------------------------------------------- processes
def _children_map() -> dict[int, list[int]]:
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").glob("[0-9]*"):
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        # pid (comm) state ppid ...: comm may hold spaces and parentheses
        ppid = int(stat.rsplit(")", 1)[1].split()[1])
        children.setdefault(ppid, []).append(int(entry.name))
    return children


def descendants(pid: int) -> list[int]:
    """Every process under ``pid`` (kernels run in their own sessions, so a process group
    does not hold them)."""
    if not Path("/proc").is_dir():
        return []
    tree = _children_map()
    out, todo = [], [pid]
    while todo:
        for child in tree.get(todo.pop(), []):
            out.append(child)
            todo.append(child)
    return out


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    try:  # a zombie is dead for our purposes
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def stop_process_group(proc: subprocess.Popen, grace: float = 10.0) -> None:
    """Stop a server started with ``start_new_session=True``: SIGTERM to its group (Voila shuts
    its kernels down), SIGKILL after ``grace`` seconds, then kill by id anything left under it."""
    if proc.poll() is not None and not descendants(proc.pid):
        return
    below = descendants(proc.pid)
    try:
        os.killpg(proc.pid, signal.SIGTERM)
    except ProcessLookupError:
        pass
    try:
        proc.wait(timeout=grace)
    except subprocess.TimeoutExpired:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        proc.wait(timeout=10)
    deadline = time.monotonic() + 5
    left = [p for p in below if _alive(p)]
    while left and time.monotonic() < deadline:
        time.sleep(0.1)
        left = [p for p in left if _alive(p)]
    for pid in left:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


# ---------------------------------------------------------------------- Voila
@dataclass
class VoilaServer:
    proc: subprocess.Popen
    port: int
    log_path: Path
    cull_idle: int = CULL_IDLE
    cull_interval: int = CULL_INTERVAL

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/"

    def log(self) -> str:
        return self.log_path.read_text("utf-8", errors="replace")

    def count(self, pattern: str) -> int:
        return len(re.findall(pattern, self.log()))

    def wait_for_log(self, pattern: str, timeout: float, count: int = 1) -> None:
        deadline = time.monotonic() + timeout
        while self.count(pattern) < count:
            if self.proc.poll() is not None:
                raise RuntimeError(f"Voila exited ({self.proc.returncode}):\n{self.log()[-3000:]}")
            if time.monotonic() > deadline:
                raise TimeoutError(f"no {pattern!r} in Voila's log after {timeout} s:\n{self.log()[-3000:]}")
            time.sleep(0.1)

    def wait_pool_filled(self, timeout: float = START_TIMEOUT) -> None:
        """Wait until the preheated pool holds a kernel again (one fill more than pages that
        took a preheated kernel)."""
        used = self.count(r"Using pre-heated kernel")
        self.wait_for_log(r"Kernel pool of \S+ is filled", timeout, count=used + 1)

    def kernels(self) -> list[int]:
        """The ids of the kernel processes running under Voila."""
        out = []
        for pid in descendants(self.proc.pid):
            try:
                cmd = Path(f"/proc/{pid}/cmdline").read_bytes()
            except OSError:
                continue
            if b"ipykernel" in cmd and _alive(pid):
                out.append(pid)
        return out


def _die_with_parent() -> None:  # pragma: no cover - runs in the child before exec
    """Linux: SIGTERM the server if pytest itself dies (even by SIGKILL), so no Voila is left."""
    try:
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except Exception:  # noqa: BLE001 - best effort, not on every platform
        pass


def voila_command(port: int) -> list[str]:
    """``make dashboard``'s command, with test culling times."""
    voila = Path(sys.executable).with_name("voila")
    return [str(voila), "--no-browser", "--Voila.ip=127.0.0.1", f"--port={port}",
            "--Voila.port_retries=0",
            f"--MappingKernelManager.cull_idle_timeout={CULL_IDLE}",
            f"--MappingKernelManager.cull_interval={CULL_INTERVAL}", NOTEBOOK]


@pytest.fixture(scope="session")
def voila_server(tmp_path_factory) -> VoilaServer:
    if not Path(sys.executable).with_name("voila").exists():
        unavailable("voila is not installed in this environment")
    log_path = tmp_path_factory.mktemp("voila") / "voila.log"
    port = free_port()
    with open(log_path, "wb") as log:
        proc = subprocess.Popen(voila_command(port), cwd=ROOT, stdout=log, stderr=subprocess.STDOUT,
                                stdin=subprocess.DEVNULL, start_new_session=True,
                                preexec_fn=_die_with_parent if sys.platform == "linux" else None)
    server = VoilaServer(proc, port, log_path)
    kernels: list[int] = []
    try:
        server.wait_for_log(r"Voil. is running at", START_TIMEOUT)
        server.wait_pool_filled()
        yield server
    finally:
        kernels = server.kernels()
        stop_process_group(proc)
    left = [pid for pid in kernels if _alive(pid)]
    assert not left, f"kernel processes left running after Voila stopped: {left}"


# ---------------------------------------------------------------------- Chromium
@pytest.fixture(scope="session")
def browser():
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
