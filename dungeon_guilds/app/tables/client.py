"""A seat played by a script over the table websocket (tests, ``benchmarks/bench_tables.py``):
what a page does, without a browser. Every frame received is kept (``frames``) with the time it
arrived, so a test can read everything a seat was sent."""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

from tornado.websocket import websocket_connect


class SeatClient:
    def __init__(self, url):
        self.url = url  # a URL, or a tornado HTTPRequest (e.g. with network_interface: another loopback address)
        self.frames: list[tuple[float, dict[str, Any]]] = []
        self.raw: list[str] = []
        self.state: dict[str, Any] | None = None
        self.code: str | None = None
        self.token: str | None = None
        self._changed = asyncio.Event()
        self._conn = None
        self._reader: asyncio.Task | None = None

    async def connect(self) -> "SeatClient":
        self._conn = await websocket_connect(self.url)
        self._reader = asyncio.ensure_future(self._read())
        return self

    async def _read(self) -> None:
        while True:
            raw = await self._conn.read_message()
            if raw is None:
                return
            self.raw.append(raw)
            msg = json.loads(raw)
            self.frames.append((time.perf_counter(), msg))
            if msg.get("op") == "seat":
                self.code = msg["code"]
                self.token = msg.get("token", self.token)
            elif msg.get("op") == "state":
                self.state = msg
            self._changed.set()

    async def send(self, msg: dict[str, Any] | str) -> None:
        await self._conn.write_message(msg if isinstance(msg, str) else json.dumps(msg))

    async def wait(self, pred, timeout: float = 30.0) -> dict[str, Any]:
        """Wait until ``pred(frame)`` holds for a frame received (from now on or already kept
        since the last :meth:`mark`)."""
        deadline = time.monotonic() + timeout
        start = getattr(self, "_mark", 0)
        while True:
            for _, msg in self.frames[start:]:
                if pred(msg):
                    return msg
            left = deadline - time.monotonic()
            if left <= 0:
                last = [(m.get("op"), m.get("version"), m.get("code")) for _, m in self.frames[-3:]]
                raise TimeoutError(f"no frame matched in {timeout} s; last frames (op, version, code): {last}")
            self._changed.clear()
            try:
                await asyncio.wait_for(self._changed.wait(), left)
            except asyncio.TimeoutError:
                pass

    def mark(self) -> None:
        """Later :meth:`wait` calls look only at frames after now."""
        self._mark = len(self.frames)

    def close(self) -> None:
        if self._conn is not None:
            self._conn.close()
        if self._reader is not None:
            self._reader.cancel()


__all__ = ["SeatClient"]
