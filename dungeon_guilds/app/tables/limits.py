"""How much one visitor may ask of the class-table server (issue 37): so that no student, by
accident or on purpose, can stall another table.

* :class:`Bucket` — a token bucket (``burst`` tries at once, then ``rate`` a second): a
  connection's message rate, an address's wrong table codes and wrong teacher codes.
* :class:`PerAddress` — one bucket per client address, kept while the server runs: a budget
  that reconnecting does not reset (at most :data:`MAX_ADDRESSES` addresses are remembered; the
  oldest full bucket is forgotten first).
* :class:`Limits` — the numbers, from the environment (``DUNGEON_GUILDS_*``, docs/dashboard.md),
  read once at start; a value that is not a number stops the server with its name.
* :class:`Sockets` — the websockets open, counted per client address (issue 51, item 1): at most
  ``Limits.sockets_per_address`` from one address, and never so many in all that the server runs
  out of file descriptors: a reserve (``Limits.fd_reserve``) stays for the teacher's page, the
  tables' files, and students whose device has no page open yet.
* :func:`raise_fd_limit` — the server's own descriptor limit (``RLIMIT_NOFILE``) raised to the
  hard limit at start (the default soft limit, 1,024, is what one address exhausted in issue 51).

Pure Python (standard library); the server (:mod:`~dungeon_guilds.app.table_server`) applies them.
"""

from __future__ import annotations

import logging
import os
import time
from dataclasses import dataclass
from typing import Callable

MAX_ADDRESSES = 10_000
log = logging.getLogger(__name__)


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
    # issue 51, item 1: what one address may ask, however many connections it opens
    sockets_per_address: int = 32  # pages open from one address (4 pages a seat × 8 seats; DUNGEON_GUILDS_SOCKETS_PER_ADDRESS)
    address_messages_per_s: float = 40.0  # messages of every page of one address together…
    address_message_burst: float = 120.0  # …with a burst of this many
    opens: float = 6.0  # `open`s an address may send at once (a deck or a lord parsed: the costly message)…
    opens_per_s: float = 0.5  # …then one every 2 s
    fd_reserve: int = 128  # descriptors no page of an address already connected may take
    redraws: float = 6.0  # whole boards an address's pages are sent at once for a new language (`lang`)…
    redraws_per_s: float = 0.5  # …then one every 2 s; a `lang` beyond waits for the next (issue 51, item 2)

    @classmethod
    def from_env(cls) -> "Limits":
        """The limits the environment sets; a class behind one address (NAT) raising
        ``DUNGEON_GUILDS_SOCKETS_PER_ADDRESS`` raises that address's shared budgets with it."""
        pages = int(env_number("DUNGEON_GUILDS_SOCKETS_PER_ADDRESS", cls.sockets_per_address, 1))
        scale = max(1.0, pages / cls.sockets_per_address)
        return cls(tables_per_address=int(env_number("DUNGEON_GUILDS_TABLES_PER_ADDRESS", cls.tables_per_address, 1)),
                   sockets_per_seat=int(env_number("DUNGEON_GUILDS_SOCKETS_PER_SEAT", cls.sockets_per_seat, 1)),
                   sockets_per_address=pages, address_messages_per_s=cls.address_messages_per_s * scale,
                   address_message_burst=cls.address_message_burst * scale, opens=cls.opens * scale,
                   opens_per_s=cls.opens_per_s * scale, redraws=cls.redraws * scale,
                   redraws_per_s=cls.redraws_per_s * scale)


def raise_fd_limit() -> int:
    """Raise this process's soft limit of open files to its hard limit (at the server's start);
    the soft limit now. Where it cannot be raised, the limit stays and is said in the log."""
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY:
        hard = max(soft, 1 << 16) if soft != resource.RLIM_INFINITY else 1 << 16
    if soft == resource.RLIM_INFINITY or soft >= hard:
        return hard if soft == resource.RLIM_INFINITY else soft
    try:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    except (ValueError, OSError) as err:
        log.warning("the open-file limit stays at %d (raising it to %d failed: %s)", soft, hard, err)
        return soft
    return hard


class Sockets:
    """The websockets open, counted per client address: :meth:`admit` says whether one more from
    an address may open (None) or why not (a refusal code of ``tables.refusal``); :meth:`add` and
    :meth:`remove` count it. At most ``per_address`` from one address; in all at most
    ``files - reserve`` for addresses already connected, and half the reserve more for addresses
    with no page yet (a new student always connects; the other half stays for the teacher's page
    and the tables' files)."""

    def __init__(self, per_address: int, files: int, reserve: int):
        self.per_address = per_address
        self.most = max(1, files - reserve)  # for an address already connected
        self.most_new = max(self.most, files - reserve // 2)  # for an address with no page open
        self.by_address: dict[str, int] = {}
        self.total = 0
        self.told: set[str] = set()  # addresses whose refusal was logged (once until they are under again)

    def admit(self, address: str) -> str | None:
        mine = self.by_address.get(address, 0)
        if mine >= self.per_address:
            why = "too_many_pages"
        elif self.total >= (self.most if mine else self.most_new):
            why = "server_full"
        else:
            self.told.discard(address)
            return None
        if address not in self.told:
            self.told.add(address)
            log.warning("class table pages from %s refused (%s: %d open from it, %d in all)",
                        address, why, mine, self.total)
        return why

    def add(self, address: str) -> bool:
        """Count one more page from ``address`` if :meth:`admit` allows it (True)."""
        if self.admit(address) is not None:
            return False
        self.by_address[address] = self.by_address.get(address, 0) + 1
        self.total += 1
        return True

    def remove(self, address: str) -> None:
        left = self.by_address.get(address, 0) - 1
        if left > 0:
            self.by_address[address] = left
        else:
            self.by_address.pop(address, None)
        self.total = max(0, self.total - 1)


__all__ = ["Bucket", "Limits", "PerAddress", "Sockets", "env_number", "raise_fd_limit"]
