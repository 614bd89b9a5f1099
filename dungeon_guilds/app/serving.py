"""Serving the dashboard: the kernel manager ``voila.json`` names, and the process helpers the
browser tests and the dashboard benchmark use to run Voila.

**The kernel manager** (``VoilaConfiguration.multi_kernel_manager_class``). Voila's idle-kernel
culler does not know about its pool of preheated kernels. A pool kernel sits idle by design, so
once it has waited longer than ``cull_idle_timeout`` the next cull check after a page took it
shuts it down before the page's websocket connects: the page never renders (measured with a 5 s
timeout), and the pool is gone. :class:`PoolKeepingKernelManager` remembers the preheated kernels
(started with ``VOILA_PREHEAT=True``): while one waits in the pool it is never culled, and the
first cull check after a page took it counts as activity, so it is culled only after
``cull_idle_timeout`` without a page (``cull_connected`` false: an open page keeps its kernel).
It also counts kernels for the dashboard's cap (``max_kernels``, default
``$DUNGEON_GUILDS_MAX_KERNELS`` or 40): :meth:`admit_page` tells the page handler of
:mod:`dungeon_guilds.app.voila_app` whether one more page fits, counting live kernels, kernels
starting and pages admitted whose kernel has not started yet (a page that finds a pool kernel
ready always takes it). It paces the work of executing the notebook: a page takes only a pool
kernel that has executed the notebook (:meth:`ready_pool_size` replaces Voila's
``get_pool_size``); pool kernels start ``refills_at_once`` at a time, not while a page beyond the
pool executes the notebook, within ``refill_quiet`` seconds of the last page (or within
``refill_busy`` seconds of it while the CPUs are busy), or at the cap; at
most ``pages_at_once`` pages beyond the pool execute the notebook at once (the page handler asks
:meth:`page_slot_free` and counts ``pages_executing``; the others are told they are in line).
The pool's size: ``$DUNGEON_GUILDS_POOL`` (:func:`pool_size_from_env`; ``make dashboard
POOL=N``, default :data:`CLASS_POOL`), else ``voila.json``'s ``default_pool_size``.
It subclasses jupyter_server's ``AsyncMappingKernelManager``, so it is built on first access
(``dungeon_guilds.app.serving.PoolKeepingKernelManager``, as traitlets' ``import_item`` does): importing
this module imports neither jupyter_server nor Voila.

**The process helpers** (:func:`start_voila`, :class:`VoilaServer`, :func:`stop_process_group`,
:func:`free_port`, :func:`descendants`). Voila is started as ``make dashboard`` starts it
(``dungeon-guilds-voila``), on a
free loopback port, in its own process group (``start_new_session``) and, on Linux, with the
parent-death signal set so it goes if the process that started it dies (even by SIGKILL). It is
stopped by its group's id: SIGTERM (Voila shuts its kernels down), SIGKILL after a grace period,
then any process that was under it (kernels run in their own sessions, so the group does not
hold them) is killed by its own id. :func:`start_voila` stops what it started when the readiness
wait fails or is interrupted. Process trees are read from ``/proc`` (Linux).

Kernels never import this module.
"""

from __future__ import annotations

import asyncio
import os
import re
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Sequence

__all__ = [
    "NOTEBOOK", "READY_PATTERN", "START_TIMEOUT", "STOP_GRACE",
    "PoolKeepingKernelManager", "VoilaServer", "alive", "descendants", "die_with_parent",
    "free_port", "start_process_group", "start_voila", "stop_process_group", "voila_command",
    "voila_executable", "MAX_KERNELS", "MAX_KERNELS_ENV", "max_kernels_default",
    "POOL_ENV", "CLASS_POOL", "pool_size_from_env",
]

NOTEBOOK = "notebooks/dashboard.ipynb"  # relative to the repository root, where voila.json is
READY_PATTERN = r"Voil. is running at"
START_TIMEOUT = 90.0  # seconds for Voila to start and fill its kernel pool
STOP_GRACE = 10.0  # seconds between SIGTERM and SIGKILL
MAX_KERNELS = 40  # default kernel cap: ~100-170 MB a kernel, sized for a 2-core / 24 GiB machine
MAX_KERNELS_ENV = "DUNGEON_GUILDS_MAX_KERNELS"
RESERVATION_TIMEOUT = 120.0  # seconds an admitted page may take to start its kernel
POOL_ENV = "DUNGEON_GUILDS_POOL"  # the preheated pool's size (make dashboard POOL=N)
CLASS_POOL = 30  # make dashboard's pool: a class of 30 takes a ready kernel each
PAGES_AT_ONCE = 2  # pages beyond the pool that execute the notebook at the same time
REFILLS_AT_ONCE = 2  # pool kernels started (and executing the notebook) at the same time
REFILL_QUIET_S = 15.0  # a refill starts only once no page has been served for this long
REFILL_BUSY_S = 120.0  # ... and, this long after the last page, only when the CPUs are not busy


def machine_busy() -> bool:
    """Whether the CPUs are busy: the 1-minute load average is at least their number."""
    try:
        return os.getloadavg()[0] >= (os.cpu_count() or 1)
    except OSError:  # no load average on this system: never busy
        return False


# ---------------------------------------------------------------------- kernel manager
def __getattr__(name: str) -> Any:
    """Build :class:`PoolKeepingKernelManager` on first access (it needs jupyter_server)."""
    if name == "PoolKeepingKernelManager":
        cls = _pool_keeping_kernel_manager()
        globals()[name] = cls
        return cls
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | {"PoolKeepingKernelManager"})


def max_kernels_default() -> int:
    """The kernel cap when none is configured: ``$DUNGEON_GUILDS_MAX_KERNELS``, else
    :data:`MAX_KERNELS` (ValueError naming the variable if it is not a whole number ≥ 1)."""
    raw = os.environ.get(MAX_KERNELS_ENV, "").strip()
    if not raw:
        return MAX_KERNELS
    try:
        value = int(raw)
    except ValueError:
        raise ValueError(f"{MAX_KERNELS_ENV}={raw!r}: not a whole number") from None
    if value < 1:
        raise ValueError(f"{MAX_KERNELS_ENV}={raw!r}: must be at least 1")
    return value


def pool_size_from_env() -> int | None:
    """``$DUNGEON_GUILDS_POOL`` (the preheated pool's size, 0 turns it off), or None when unset
    (``voila.json``'s ``default_pool_size`` applies); ValueError naming the variable if it is
    not a whole number ≥ 0."""
    raw = os.environ.get(POOL_ENV, "").strip()
    if not raw:
        return None
    try:
        value = int(raw)
    except ValueError:
        raise ValueError(f"{POOL_ENV}={raw!r}: not a whole number") from None
    if value < 0:
        raise ValueError(f"{POOL_ENV}={raw!r}: must be 0 or more")
    return value


def _pool_keeping_kernel_manager() -> type:
    from jupyter_server._tz import utcnow
    from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager
    from traitlets import Float, Integer, default

    class PoolKeepingKernelManager(AsyncMappingKernelManager):
        """A mapping kernel manager that never culls a preheated kernel waiting in Voila's pool,
        counts its kernels for the dashboard's cap (:meth:`admit_page`) and paces the work of
        executing the notebook (:meth:`_paced_initialize`, :meth:`page_slot_free`)."""

        max_kernels = Integer(config=True, help="At most this many live kernels (pages and the "
                              "preheated pool); a page beyond it gets HTTP 503. Default: "
                              f"${MAX_KERNELS_ENV}, else {MAX_KERNELS}.")
        pages_at_once = Integer(PAGES_AT_ONCE, config=True, help="Pages that start their own kernel "
                                "(the pool had none ready) and execute the notebook at the same "
                                "time; a page beyond them is told to wait and retries.")
        refills_at_once = Integer(REFILLS_AT_ONCE, config=True, help="Pool kernels started and "
                                  "executing the notebook at the same time; a refill also waits "
                                  "while a page executes the notebook and while the cap is reached.")
        refill_quiet = Float(REFILL_QUIET_S, config=True, help="Seconds without a new page before "
                             "the pool refills (the browsers of a class arriving need the CPU).")
        refill_busy = Float(REFILL_BUSY_S, config=True, help="For this many seconds after the last "
                            "page, a refill also waits while the machine is busy (1-minute load "
                            "average at least its number of CPUs): the pages that just arrived are "
                            "still being drawn and their kernels answer them.")

        @default("max_kernels")
        def _max_kernels_default(self):
            return max_kernels_default()

        def __init__(self, **kwargs):
            super().__init__(**kwargs)
            self._preheated: set[str] = set()
            self._starting = 0  # start_kernel calls under way
            self._reserved: list[float] = []  # when each admitted page was admitted, until its kernel starts
            self.pages_executing = 0  # pages executing the notebook in their own kernel (the handler counts)
            self._refilling = 0
            self._closing = False
            self.last_page_at = float("-inf")  # when the handler last admitted a page (monotonic)
            if hasattr(self, "_initialize"):  # Voila's pooling subclass: pace its pool kernels
                self._voila_initialize = self._initialize
                self._initialize = self._paced_initialize
                self.get_pool_size = self.ready_pool_size

        # ---------------------------------------------------------------- the pool
        def _pool_tasks(self) -> list:
            return [task for pool in getattr(self, "_pools", {}).values() for task in pool]

        def ready_pool_size(self, notebook_name: str) -> int:
            """Pool kernels that have executed the notebook (what Voila's handler asks, so a page
            takes a pool kernel only when one is ready); the ready ones move to the front of the
            pool, which Voila's ``get_rendered_notebook`` takes from."""
            pool = getattr(self, "_pools", {}).get(notebook_name, [])
            ready = [t for t in pool if t.done() and not t.cancelled() and t.exception() is None]
            pool[:] = ready + [t for t in pool if t not in ready]
            return len(ready)

        def ready_kernels(self) -> int:
            return sum(self.ready_pool_size(name) for name in list(getattr(self, "_pools", {})))

        async def _paced_initialize(self, notebook_name, kernel_id=None, **kwargs):
            """Voila's ``_initialize`` for a pool kernel, paced: at most ``refills_at_once`` at a
            time, none while a page executes the notebook, within ``refill_quiet`` seconds of the
            last page served (a class arriving), within ``refill_busy`` seconds of it while the
            machine is busy (:func:`machine_busy`) or while the cap is reached; the pool
            task ends once the kernel has executed the whole notebook (so it is "ready")."""
            if kernel_id is not None:  # a restart: not paced
                return await self._voila_initialize(notebook_name, kernel_id, **kwargs)
            while (self._refilling >= self.refills_at_once or self.pages_executing
                   or time.monotonic() - self.last_page_at < self.refill_quiet
                   or (time.monotonic() - self.last_page_at < self.refill_busy and machine_busy())
                   or self.kernel_count() >= self.max_kernels):
                if self._closing:
                    raise RuntimeError("the server is shutting down: no pool kernel started")
                await asyncio.sleep(0.25)
            self._refilling += 1
            try:
                content = await self._voila_initialize(notebook_name, None, **kwargs)
                await asyncio.wait([content["task"]])  # the notebook executed (errors: the page shows them)
            finally:
                self._refilling -= 1
            return content

        # ---------------------------------------------------------------- pages
        def kernel_count(self) -> int:
            """Live kernels, kernels starting, and pages admitted whose kernel has not started."""
            now = time.monotonic()
            self._reserved = [t for t in self._reserved if now - t < RESERVATION_TIMEOUT]
            return len(self.list_kernel_ids()) + self._starting + len(self._reserved)

        def page_slot_free(self) -> bool:
            """True while fewer than ``pages_at_once`` pages execute the notebook."""
            return self.pages_executing < self.pages_at_once

        def admit_page(self) -> bool:
            """True if a pool kernel is ready (the page takes it; its refill waits for room under
            the cap), else True (and a kernel reserved for the page) while :meth:`kernel_count`
            is below ``max_kernels``: the count never passes the cap."""
            self.last_page_at = time.monotonic()
            if self.ready_kernels():
                return True
            if self.kernel_count() >= self.max_kernels:
                return False
            self._reserved.append(time.monotonic())
            return True

        async def start_kernel(self, *args, **kwargs):
            preheat = (kwargs.get("env") or {}).get("VOILA_PREHEAT") == "True"
            if self._reserved and not preheat:
                self._reserved.pop(0)
            self._starting += 1
            try:
                kernel_id = await super().start_kernel(*args, **kwargs)
            finally:
                self._starting -= 1
            if preheat:
                self._preheated.add(kernel_id)
            return kernel_id

        def _pooled_kernel_ids(self) -> set[str]:
            ids = set()
            for task in self._pool_tasks():
                if task.done() and not task.cancelled() and task.exception() is None:
                    kernel_id = (task.result() or {}).get("kernel_id")
                    if kernel_id:
                        ids.add(kernel_id)
            return ids

        async def cull_kernel_if_idle(self, kernel_id):
            kernel = self._kernels.get(kernel_id)
            if kernel is not None and kernel_id in self._preheated:
                kernel.last_activity = utcnow()  # waiting in the pool, or just handed to a page
                if kernel_id not in self._pooled_kernel_ids() and not self._executing_in_pool(kernel_id):
                    self._preheated.discard(kernel_id)  # from now on, culled like any kernel
                return None
            return await super().cull_kernel_if_idle(kernel_id)

        def _executing_in_pool(self, kernel_id) -> bool:
            """True while a paced pool task still executes the notebook in ``kernel_id``."""
            return any(not t.done() for t in self._pool_tasks()) and self._refilling > 0

        async def shutdown_kernel(self, kernel_id, *args, **kwargs):
            self._preheated.discard(kernel_id)
            return await super().shutdown_kernel(kernel_id, *args, **kwargs)

        async def shutdown_all(self, *args, **kwargs):
            self._closing = True  # pool tasks still waiting give up instead of starting kernels
            return await super().shutdown_all(*args, **kwargs)

    PoolKeepingKernelManager.__qualname__ = "PoolKeepingKernelManager"
    return PoolKeepingKernelManager


# ---------------------------------------------------------------------- processes
def free_port(host: str = "127.0.0.1") -> int:
    """A TCP port nothing listens on at ``host`` right now (the OS picks it)."""
    with socket.socket() as s:
        s.bind((host, 0))
        return s.getsockname()[1]


def _stat_fields(pid: int | str) -> list[str]:
    """The fields of ``/proc/<pid>/stat`` after ``pid (comm)``: state, ppid, ... (comm may hold
    spaces and parentheses)."""
    return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()


def _children_map() -> dict[int, list[int]]:
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").glob("[0-9]*"):
        try:
            ppid = int(_stat_fields(entry.name)[1])
        except (OSError, IndexError, ValueError):  # gone meanwhile
            continue
        children.setdefault(ppid, []).append(int(entry.name))
    return children


def descendants(pid: int) -> list[int]:
    """Every process under ``pid`` (kernels run in their own sessions, so a process group does
    not hold them); empty without ``/proc``."""
    if not Path("/proc").is_dir():
        return []
    tree = _children_map()
    out, todo = [], [pid]
    while todo:
        for child in tree.get(todo.pop(), []):
            out.append(child)
            todo.append(child)
    return out


def alive(pid: int) -> bool:
    """True while ``pid`` runs (a zombie counts as dead)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    try:
        return _stat_fields(pid)[0] != "Z"
    except (OSError, IndexError):
        return not Path("/proc").is_dir()


def die_with_parent() -> None:  # pragma: no cover - runs in the child before exec
    """``preexec_fn`` (Linux): SIGTERM this process when its parent dies, even by SIGKILL."""
    try:
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except Exception:  # noqa: BLE001 - best effort, not on every platform
        pass


def start_process_group(cmd: Sequence[str], **popen_kwargs: Any) -> subprocess.Popen:
    """``subprocess.Popen(cmd)`` in a new session (so its own process group, which
    :func:`stop_process_group` signals), with :func:`die_with_parent` on Linux; stdin is
    ``/dev/null`` unless given."""
    popen_kwargs.setdefault("stdin", subprocess.DEVNULL)
    if sys.platform == "linux":
        popen_kwargs.setdefault("preexec_fn", die_with_parent)
    return subprocess.Popen(list(cmd), start_new_session=True, **popen_kwargs)


def _signal_group(pgid: int, sig: int) -> None:
    try:
        os.killpg(pgid, sig)
    except ProcessLookupError:
        pass


def stop_process_group(proc: subprocess.Popen, grace: float = STOP_GRACE, settle: float = 5.0) -> None:
    """Stop a process started with :func:`start_process_group`: SIGTERM to its group, SIGKILL
    after ``grace`` seconds (at once on Ctrl-C during the wait, which is then re-raised), then
    kill by id anything that was under it and still runs ``settle`` seconds later (at once after
    a Ctrl-C)."""
    if proc.poll() is not None and not descendants(proc.pid):
        return
    below = descendants(proc.pid)
    interrupted = None
    _signal_group(proc.pid, signal.SIGTERM)
    try:
        proc.wait(timeout=grace)
    except (subprocess.TimeoutExpired, KeyboardInterrupt) as exc:
        if isinstance(exc, KeyboardInterrupt):
            interrupted = exc
        _signal_group(proc.pid, signal.SIGKILL)
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:  # unkillable for now: still kill what was under it
            pass
    deadline = time.monotonic() + (0 if interrupted else settle)
    left = [p for p in below if alive(p)]
    while left and time.monotonic() < deadline:
        time.sleep(0.1)
        left = [p for p in left if alive(p)]
    for pid in left:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    if interrupted is not None:
        raise interrupted


# ---------------------------------------------------------------------- Voila
def voila_executable() -> Path:
    """The ``dungeon-guilds-voila`` script next to this Python (Voila with the dashboard's
    handler, see :mod:`dungeon_guilds.app.voila_app`; it may not exist)."""
    return Path(sys.executable).with_name("dungeon-guilds-voila")


def voila_command(port: int, notebook: str = NOTEBOOK, *, preheat: bool = True,
                  cull_idle: int | None = None, cull_interval: int | None = None,
                  max_kernels: int | None = None, host: str = "127.0.0.1",
                  pages_at_once: int | None = None, extra_args: Sequence[str] = ()) -> list[str]:
    """``make dashboard``'s command on ``host``:``port``; ``preheat=False`` turns the kernel
    pool off, ``cull_idle``/``cull_interval`` override ``voila.json``'s culling times (seconds),
    ``max_kernels`` the kernel cap (default: ``$DUNGEON_GUILDS_MAX_KERNELS``, else 40),
    ``pages_at_once`` the pages beyond the pool executing the notebook at once (default 2);
    ``extra_args``: more ``--Class.trait=value`` options."""
    cmd = [str(voila_executable()), "--no-browser", f"--Voila.ip={host}", f"--port={port}",
           "--Voila.port_retries=0"]
    if not preheat:
        cmd.append("--VoilaConfiguration.preheat_kernel=False")
    if cull_idle is not None:
        cmd.append(f"--MappingKernelManager.cull_idle_timeout={cull_idle}")
    if cull_interval is not None:
        cmd.append(f"--MappingKernelManager.cull_interval={cull_interval}")
    if max_kernels is not None:
        cmd.append(f"--PoolKeepingKernelManager.max_kernels={max_kernels}")
    if pages_at_once is not None:
        cmd.append(f"--PoolKeepingKernelManager.pages_at_once={pages_at_once}")
    cmd.extend(extra_args)
    cmd.append(notebook)
    return cmd


@dataclass
class VoilaServer:
    """A Voila process started by :func:`start_voila`, its port and its log file. A context
    manager: leaving the ``with`` block stops it."""

    proc: subprocess.Popen
    port: int
    log_path: Path
    cull_idle: int | None = None
    cull_interval: int | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/"

    def log(self) -> str:
        return self.log_path.read_text("utf-8", errors="replace")

    def count(self, pattern: str) -> int:
        return len(re.findall(pattern, self.log()))

    def wait_for_log(self, pattern: str, timeout: float, count: int = 1) -> None:
        """Wait until ``pattern`` occurs ``count`` times in the log; RuntimeError if Voila
        exits first, TimeoutError after ``timeout`` seconds."""
        deadline = time.monotonic() + timeout
        while self.count(pattern) < count:
            if self.proc.poll() is not None:
                raise RuntimeError(f"Voila exited ({self.proc.returncode}):\n{self.log()[-3000:]}")
            if time.monotonic() > deadline:
                raise TimeoutError(f"no {pattern!r} in Voila's log after {timeout} s:\n{self.log()[-3000:]}")
            time.sleep(0.05)

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
            if b"ipykernel" in cmd and alive(pid):
                out.append(pid)
        return out

    def stop(self, grace: float = STOP_GRACE) -> None:
        stop_process_group(self.proc, grace)

    def __enter__(self) -> VoilaServer:
        return self

    def __exit__(self, *exc_info) -> None:
        self.stop()


def start_voila(cwd: str | os.PathLike, log_path: str | os.PathLike, *, notebook: str = NOTEBOOK,
                port: int | None = None, preheat: bool = True, cull_idle: int | None = None,
                cull_interval: int | None = None, wait_pool: bool = False,
                timeout: float = START_TIMEOUT, pool_timeout: float | None = None,
                max_kernels: int | None = None, env: dict | None = None,
                pool: int | None = None, pages_at_once: int | None = None,
                extra_args: Sequence[str] = ()) -> VoilaServer:
    """Start :func:`voila_command` from ``cwd`` (the repository root, so ``voila.json``
    applies) on ``port`` (default: a free one), output to ``log_path``, and wait until it is
    running (``timeout`` seconds) and, with ``wait_pool``, until its kernel pool is filled
    (``pool_timeout``, default ``timeout``). ``env``: variables added to the environment;
    ``pool``: the preheated pool's size (``$DUNGEON_GUILDS_POOL``; default ``voila.json``'s). If
    the wait fails or is interrupted, Voila is stopped before the error propagates."""
    port = free_port() if port is None else port
    log_path = Path(log_path)
    # the class tables a test or benchmark server saves stay beside its log (not in the home folder)
    env = {"DUNGEON_GUILDS_TABLES_DIR": str(log_path.parent / "tables"), **(env or {})}
    if pool is not None:
        env = {**(env or {}), POOL_ENV: str(pool)}
    log_path = Path(log_path)
    cmd = voila_command(port, notebook, preheat=preheat, cull_idle=cull_idle, cull_interval=cull_interval,
                        max_kernels=max_kernels, pages_at_once=pages_at_once, extra_args=extra_args)
    with open(log_path, "wb") as log:
        proc = start_process_group(cmd, cwd=cwd, stdout=log, stderr=subprocess.STDOUT, env={**os.environ, **env})
    server = VoilaServer(proc, port, log_path, cull_idle, cull_interval)
    try:
        server.wait_for_log(READY_PATTERN, timeout)
        if wait_pool:
            server.wait_pool_filled(timeout if pool_timeout is None else pool_timeout)
    except BaseException:
        server.stop()
        raise
    return server
