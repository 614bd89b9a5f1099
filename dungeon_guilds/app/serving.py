"""Serving the dashboard: ``make dashboard``'s Voila command, starting Voila and waiting until
it is ready (:func:`start_voila`, :class:`VoilaServer`), as the browser tests, the benchmarks
and the screenshot tour do.

The pieces it uses live by responsibility: the kernel settings in
:mod:`dungeon_guilds.app.kernels`, the kernel manager in
:mod:`dungeon_guilds.app.kernel_manager`, the process groups and ``/proc`` in
:mod:`dungeon_guilds.app.processes`. A ``voila.json`` written before that split names
``dungeon_guilds.app.serving.PoolKeepingKernelManager``: it is still found here, built on first
access (importing this module imports neither jupyter_server nor Voila).

Kernels never import this module.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Sequence

from .kernels import POOL_ENV
from .processes import STOP_GRACE, alive, descendants, free_port, start_process_group, stop_process_group

__all__ = ["NOTEBOOK", "READY_PATTERN", "START_TIMEOUT", "VoilaServer", "start_voila", "voila_command",
           "voila_executable"]

# what a kernel process's command line holds: ipykernel's launcher, or the dashboard's
KERNEL_MARKS = (b"ipykernel_launcher", b"dungeon_guilds.app.kernel_launcher")
NOTEBOOK = "notebooks/dashboard.ipynb"  # relative to the repository root, where voila.json is
READY_PATTERN = r"Voil. is running at"
START_TIMEOUT = 90.0  # seconds for Voila to start and fill its kernel pool


def __getattr__(name: str) -> Any:
    """``PoolKeepingKernelManager`` for a ``voila.json`` that names it here (it needs jupyter_server)."""
    if name == "PoolKeepingKernelManager":
        from .kernel_manager import PoolKeepingKernelManager

        return PoolKeepingKernelManager
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


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

    def pool_size(self, default: int) -> int:
        """The preheated pool's size now: ``default`` (what it started with) unless it grew
        (issue 40: "Kernel pool grows to N kernels" in the log)."""
        grown = re.findall(r"Kernel pool grows to (\d+) kernels", self.log())
        return int(grown[-1]) if grown else default

    def kernels(self) -> list[int]:
        """The ids of the kernel processes running under Voila (started by ipykernel's launcher or
        the dashboard's, :mod:`~dungeon_guilds.app.kernel_launcher`)."""
        out = []
        for pid in descendants(self.proc.pid):
            try:
                cmd = Path(f"/proc/{pid}/cmdline").read_bytes()
            except OSError:
                continue
            if any(mark in cmd for mark in KERNEL_MARKS) and alive(pid):
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
