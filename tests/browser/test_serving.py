"""The process helpers of ``dungeon_guilds.app.serving`` that run Voila for the browser tests and the
dashboard benchmark, on dummy processes (no Voila, no browser; fast)."""

from __future__ import annotations

import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from dungeon_guilds.app import processes, serving

ROOT = Path(__file__).resolve().parents[2]
needs_proc = pytest.mark.skipif(not Path("/proc").is_dir() or sys.platform != "linux",
                                reason="process trees are read from /proc (Linux)")

# A parent that starts a grandchild in its own session (as Voila starts kernels, which the
# process group therefore does not hold), prints the grandchild's id and sleeps.
PARENT = """
import signal, subprocess, sys, time
if sys.argv[1] == "ignore-term":
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"], start_new_session=True)
print(child.pid, flush=True)
time.sleep(60)
"""


def wait_dead(pid: int, timeout: float = 5.0) -> bool:
    deadline = time.monotonic() + timeout
    while processes.alive(pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    return not processes.alive(pid)


def test_importing_the_module_starts_and_imports_nothing_heavy():
    code = ("import sys, dungeon_guilds.app.serving as s; "
            "assert 'jupyter_server' not in sys.modules and 'voila' not in sys.modules; "
            "assert s.PoolKeepingKernelManager.__name__ == 'PoolKeepingKernelManager'; "
            "assert 'jupyter_server' in sys.modules")
    subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=True, timeout=60)


def test_free_port_returns_a_bindable_loopback_port():
    port = processes.free_port()
    assert 0 < port < 65536
    with socket.socket() as s:
        s.bind(("127.0.0.1", port))


def test_the_voila_command_is_make_dashboards_with_the_options_asked_for():
    base = [str(serving.voila_executable()), "--no-browser", "--Voila.ip=127.0.0.1", "--port=8123",
            "--Voila.port_retries=0"]
    assert serving.voila_command(8123) == base + ["notebooks/dashboard.ipynb"]
    assert serving.voila_command(8123, preheat=False, cull_idle=5, cull_interval=1) == base + [
        "--VoilaConfiguration.preheat_kernel=False", "--MappingKernelManager.cull_idle_timeout=5",
        "--MappingKernelManager.cull_interval=1", "notebooks/dashboard.ipynb"]
    assert serving.voila_command(8123, max_kernels=7, host="0.0.0.0") == [
        str(serving.voila_executable()), "--no-browser", "--Voila.ip=0.0.0.0", "--port=8123",
        "--Voila.port_retries=0", "--PoolKeepingKernelManager.max_kernels=7", "notebooks/dashboard.ipynb"]
    assert serving.voila_executable().name == "dungeon-guilds-voila"


@needs_proc
@pytest.mark.parametrize("mode", ["obey-term", "ignore-term"])
def test_stopping_a_process_group_kills_the_children_left_under_it(mode):
    proc = processes.start_process_group([sys.executable, "-c", PARENT, mode], stdout=subprocess.PIPE)
    try:
        grandchild = int(proc.stdout.readline())
        assert processes.descendants(proc.pid) == [grandchild]
        assert processes.alive(grandchild)
        t0 = time.monotonic()
        processes.stop_process_group(proc, grace=1.0, settle=0.5)
        assert proc.returncode == (-signal.SIGTERM if mode == "obey-term" else -signal.SIGKILL)
        assert wait_dead(grandchild, timeout=1.0)
        assert time.monotonic() - t0 < 5.0
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.stdout.close()


@needs_proc
def test_a_started_process_group_dies_with_the_process_that_started_it():
    starter = ("import sys, time; from dungeon_guilds.app.processes import start_process_group; "
               "p = start_process_group([sys.executable, '-c', 'import time; time.sleep(60)']); "
               "print(p.pid, flush=True); time.sleep(60)")
    proc = subprocess.Popen([sys.executable, "-c", starter], cwd=ROOT, stdout=subprocess.PIPE)
    try:
        child = int(proc.stdout.readline())
        assert processes.alive(child)
        proc.kill()  # SIGKILL: no clean-up code runs in the starter
        proc.wait(timeout=10)
        assert wait_dead(child), "the server outlived the process that started it"
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.stdout.close()


def running_with(arg: str) -> list[int]:
    out = []
    for entry in Path("/proc").glob("[0-9]*"):
        try:
            if arg.encode() in (entry / "cmdline").read_bytes().split(b"\0") and processes.alive(int(entry.name)):
                out.append(int(entry.name))
        except (OSError, ValueError):
            continue
    return out


@needs_proc
def test_a_server_that_never_becomes_ready_is_stopped(tmp_path, monkeypatch):
    script = tmp_path / "voila"  # stands in for voila: runs, never says it is running
    script.write_text(f"#!{sys.executable}\nimport time\nprint('starting', flush=True)\ntime.sleep(60)\n")
    script.chmod(0o755)
    monkeypatch.setattr(serving, "voila_executable", lambda: script)
    with pytest.raises(TimeoutError, match="Voil"):
        serving.start_voila(tmp_path, tmp_path / "voila.log", timeout=1.0)
    assert "starting" in (tmp_path / "voila.log").read_text()
    assert not running_with(str(script)), "the server was left running"
