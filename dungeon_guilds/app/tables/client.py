"""A seat played by a script over the table websocket (tests, ``benchmarks/bench_tables.py``):
what a page does, without a browser. Every frame received is kept (``frames``) with the time it
arrived, so a test can read everything a seat was sent (a state's ``board`` and ``log`` whole,
joined from the pieces sent as a page joins them)."""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

import orjson
from tornado.websocket import websocket_connect

from . import pieces


class SeatClient:
    def __init__(self, url):
        self.url = url  # a URL, or a tornado HTTPRequest (e.g. with network_interface: another loopback address)
        self.frames: list[tuple[float, dict[str, Any]]] = []
        self.raw: list[str] = []
        self.state: dict[str, Any] | None = None
        self.held: dict[str, list[str]] = {}  # the board and log this socket was sent, in pieces (pieces.py)
        self.code: str | None = None
        self.token: str | None = None
        self._changed = asyncio.Event()
        self._conn = None
        self._reader: asyncio.Task | None = None

    async def connect(self) -> "SeatClient":
        self._conn = await websocket_connect(self.url)
        self.held = {}  # a new socket is sent the whole board and log
        self._reader = asyncio.ensure_future(self._read())
        return self

    async def _read(self) -> None:
        while True:
            raw = await self._conn.read_message()
            if raw is None:
                return
            self.raw.append(raw)
            msg = orjson.loads(raw)
            self.frames.append((time.perf_counter(), msg))
            if msg.get("op") == "seat":
                self.code = msg["code"]
                self.token = msg.get("token", self.token)
            elif msg.get("op") == "state":
                pieces.join(self.held, msg)  # the board and the log whole, as a page joins them
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


def table_url(url: str, code: str) -> str:
    """The websocket's address naming table ``code`` (``?table=CODE``), as tables.js makes it
    when the server has several processes (issue 52): the front of ``table_server --workers`` or
    nginx sends it to the process serving that table."""
    return f"{url.split('?', 1)[0]}?table={code}"


class SilentPage:
    """A page that sends and never reads (the misbehaving client of issue 37's flood): a bare
    websocket over asyncio streams (RFC 6455: the upgrade, then masked text frames), from
    ``address`` (a loopback address), whose replies pile up unread in the network's buffers."""

    def __init__(self, host: str, port: int, path: str, address: str = "127.0.0.1"):
        self.host, self.port, self.path, self.address = host, port, path, address
        self.writer: asyncio.StreamWriter | None = None

    async def connect(self) -> "SilentPage":
        import base64
        import os

        reader, self.writer = await asyncio.open_connection(self.host, self.port, local_addr=(self.address, 0))
        key = base64.b64encode(os.urandom(16)).decode()
        self.writer.write((f"GET {self.path} HTTP/1.1\r\nHost: {self.host}:{self.port}\r\nUpgrade: websocket\r\n"
                           f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
        head = await reader.readuntil(b"\r\n\r\n")  # the 101 answer; nothing is read after it
        if b" 101 " not in head.split(b"\r\n", 1)[0]:
            raise ConnectionError(head.split(b"\r\n", 1)[0].decode())
        return self

    async def send(self, msg: dict[str, Any] | str) -> None:
        import os
        import struct

        data = (msg if isinstance(msg, str) else json.dumps(msg)).encode()
        mask = os.urandom(4)
        size = struct.pack("!B", 0x80 | len(data)) if len(data) < 126 else struct.pack("!BH", 0x80 | 126, len(data))
        self.writer.write(b"\x81" + size + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(data)))
        await self.writer.drain()

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()


__all__ = ["SeatClient", "SilentPage", "table_url"]
