"""Process helpers for serving and its tests: a free loopback port, a process started in its
own group (and dying with its parent on Linux), stopped by that group then by the ids of what
ran under it, process trees read from ``/proc`` (Linux).

Voila (:func:`dungeon_guilds.app.serving.start_voila`) is started as ``make dashboard`` starts it
(``dungeon-guilds-voila``), on a
free loopback port, in its own process group (``start_new_session``) and, on Linux, with the
parent-death signal set so it goes if the process that started it dies (even by SIGKILL). It is
stopped by its group's id: SIGTERM (Voila shuts its kernels down), SIGKILL after a grace period,
then any process that was under it (kernels run in their own sessions, so the group does not
hold them) is killed by its own id. :func:`start_voila` stops what it started when the readiness
wait fails or is interrupted. Process trees are read from ``/proc`` (Linux).
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Sequence

__all__ = ["STOP_GRACE", "alive", "descendants", "die_with_parent", "free_port", "start_process_group",
           "stop_process_group"]

STOP_GRACE = 10.0  # seconds between SIGTERM and SIGKILL


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
    except (OSError, AttributeError):  # no libc prctl here: best effort (no logging between fork and exec)
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
