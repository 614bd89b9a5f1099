"""How much one visitor may ask of the class-table server (issue 37): so that no student, by
accident or on purpose, can stall another table.

* :class:`Bucket` — a token bucket (``burst`` tries at once, then ``rate`` a second): a
  connection's message rate, an address's wrong table codes and wrong teacher codes.
* :class:`PerAddress` — one bucket per client address, kept while the server runs: a budget
  that reconnecting does not reset (at most :data:`MAX_ADDRESSES` addresses are remembered; the
  oldest full bucket is forgotten first).
* :class:`Limits` — the numbers, from the environment (``DUNGEON_GUILDS_*``, docs/dashboard.md),
  read once at start; a value that is not a number stops the server with its name.

Pure Python (standard library); the server (:mod:`~dungeon_guilds.app.table_server`) applies them.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass
from typing import Callable

MAX_ADDRESSES = 10_000


class Bucket:
    """``burst`` tokens, refilled at ``rate`` a second; :meth:`take` spends one if there is one."""

    def __init__(self, rate: float, burst: float, clock: Callable[[], float] = time.monotonic):
        self.rate, self.burst, self.clock = rate, burst, clock
        self.tokens, self.at = float(burst), clock()

    def _fill(self) -> None:
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now

    def take(self) -> bool:
        self._fill()
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False

    def left(self) -> int:
        self._fill()
        return int(self.tokens)

    def full(self) -> bool:
        self._fill()
        return self.tokens >= self.burst


class PerAddress:
    """One :class:`Bucket` per client address (``rate`` a second, ``burst`` at most)."""

    def __init__(self, rate: float, burst: float, clock: Callable[[], float] = time.monotonic):
        self.rate, self.burst, self.clock = rate, burst, clock
        self.buckets: dict[str, Bucket] = {}

    def of(self, address: str) -> Bucket:
        bucket = self.buckets.get(address)
        if bucket is None:
            if len(self.buckets) >= MAX_ADDRESSES:  # forget addresses whose budget is whole again
                for key in [k for k, b in self.buckets.items() if b.full()][: MAX_ADDRESSES // 10]:
                    del self.buckets[key]
            bucket = self.buckets[address] = Bucket(self.rate, self.burst, self.clock)
        return bucket


def env_number(name: str, default: float, low: float = 0.0) -> float:
    """``$name`` as a number (``default`` when unset); not a number, or below ``low``: the server stops."""
    raw = os.environ.get(name, "").strip()
    try:
        value = float(raw) if raw else default
    except ValueError:
        raise SystemExit(f"{name}={raw!r}: expected a number") from None
    if value < low:
        raise SystemExit(f"{name}={raw!r}: expected a number of at least {low:g}")
    return value


@dataclass(frozen=True)
class Limits:
    """What one connection or one address may do (defaults for a class of 30 on one server)."""

    messages_per_s: float = 10.0  # a page sends a few messages a move; a burst of 30 is allowed
    message_burst: float = 30.0
    refused_before_drop: int = 60  # messages over the rate in a row before the connection is dropped
    send_queue: int = 32  # messages sent and not yet taken by the network; beyond: the page is dropped
    sockets_per_seat: int = 4  # pages open on one seat (a reload replaces the oldest)
    tables_per_address: int = 4  # open tables opened from one address (DUNGEON_GUILDS_TABLES_PER_ADDRESS)
    code_guesses: float = 20.0  # unknown table codes (or bad tokens) an address may name at once…
    code_guesses_per_s: float = 1 / 30  # …then one more every 30 s
    teacher_tries: float = 5.0  # wrong teacher codes an address may send at once…
    teacher_tries_per_s: float = 1 / 20  # …then one more every 20 s

    @classmethod
    def from_env(cls) -> "Limits":
        return cls(tables_per_address=int(env_number("DUNGEON_GUILDS_TABLES_PER_ADDRESS", cls.tables_per_address, 1)),
                   sockets_per_seat=int(env_number("DUNGEON_GUILDS_SOCKETS_PER_SEAT", cls.sockets_per_seat, 1)))


__all__ = ["Bucket", "Limits", "PerAddress", "env_number"]
