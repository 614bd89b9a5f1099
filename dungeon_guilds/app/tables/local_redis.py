"""A Redis of one's own on a free loopback port (the tests, ``benchmarks/bench_tables.py
--workers``, ``tools/school.sh``): ``redis-server`` (the Debian package) started with an
append-only file fsynced at every write (``--appendonly yes --appendfsync always``: a change
the tables announce is on disk) in a directory of its own, no snapshots, stopped at the end."""

from __future__ import annotations

import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

SERVER = "redis-server"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def available() -> bool:
    return shutil.which(SERVER) is not None


class LocalRedis:
    """``with LocalRedis() as r:`` ``r.url`` is ``redis://127.0.0.1:<port>/0`` until the block ends."""

    def __init__(self, directory: str | Path | None = None):
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self._tmp = None if directory else tempfile.TemporaryDirectory(prefix="dg-redis-")
        self.dir = Path(directory or self._tmp.name)
        self.proc: subprocess.Popen | None = None

    def start(self, timeout: float = 10.0) -> "LocalRedis":
        self.proc = subprocess.Popen(
            [SERVER, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "yes",
             "--appendfsync", "always", "--dir", str(self.dir)],
            stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"redis-server exited with status {self.proc.returncode}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.2) as s:
                    s.sendall(b"PING\r\n")
                    if s.recv(16).startswith(b"+PONG"):
                        return self
            except OSError:
                time.sleep(0.05)
        self.stop()
        raise TimeoutError(f"redis-server did not answer on port {self.port} within {timeout} s")

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        if self._tmp is not None:
            self._tmp.cleanup()
            self._tmp = None

    def __enter__(self) -> "LocalRedis":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()


__all__ = ["LocalRedis", "available", "free_port"]
