"""The one port of ``table_server --workers N`` (issue 52): a front process hands each connection
to the worker process that serves the table it names, so that the pages of one table are served
by one process (no move crossing Redis's publish/subscribe to be drawn again in another process).

``table_server.serve_workers`` calls :func:`serve`; the front:

* forks the N workers (each runs ``worker(slot, channel)``: its end of a Unix socket pair, over
  which it is handed connections and says ``ready``), starts again one that dies;
* accepts every connection on the port and reads its request line *without taking it*
  (``MSG_PEEK``: the worker reads the same bytes), takes the table from it (:func:`table_of`:
  ``?table=CODE``, the websocket's address in tables.js, or ``/tables/CODE``, the shared link)
  and passes the connection's descriptor (``SCM_RIGHTS``) to the table's process
  (:meth:`Front.order`: a table first named goes to the next worker in turn and stays there; a
  worker gone, its tables move for good to the others by rendezvous hashing, :func:`owner`, so
  that its death moves only its own tables, each to one other process); a request naming no table
  goes to the next worker in turn. A connection is the front's for one request line at most; the rest is
  the worker's.

A worker that died is found at once (its end of the pair closed: the hand-over fails, the next
owner is tried) and started again, empty: its tables are another's from then on, which reads them
from Redis. A worker behind with the connections handed to it (its channel full:
:data:`CHANNEL_BYTES`) is skipped for the next, not killed. Bounds: at most :data:`PENDING`
connections whose request line has not arrived (the port's backlog holds the next), each for
:data:`LINE_TIMEOUT_S` and :data:`LINE_BYTES` at most; at most :data:`PLACED` tables remembered.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import os
import re
import selectors
import signal
import socket
import time
from typing import Callable
from urllib.parse import parse_qs, urlsplit

log = logging.getLogger(__name__)
PENDING = 512  # connections at most waiting for their request line
LINE_TIMEOUT_S = 10.0  # a request line not arrived by then: the connection is closed
LINE_BYTES = 8192  # a request line is looked for in the first bytes only
PEEK_AGAIN_S = 0.02  # an incomplete line is looked at again after this (the bytes stay unread: no event says more came)
RESTART_AFTER_S = 1.0  # a worker that died this soon after its start waits this long to start again
CHANNEL_BYTES = 1 << 20  # a worker's channel holds this much of connections handed and not yet taken (~1,000)
PLACED = 20_000  # tables whose worker the front remembers (a code is 6 characters: about 2 MB at most)
CODE_RE = re.compile(r"[A-Za-z0-9]{4,12}")
PATH_CODE_RE = re.compile(r"/tables/([A-Za-z0-9]{4,12})/?$")


def table_of(head: bytes) -> str | None:
    """The table a request names in its request line (``GET /…/tables/ws?table=CODE HTTP/1.1``,
    or the table's page ``/…/tables/CODE``), upper-cased; None if it names none."""
    line = head.split(b"\r\n", 1)[0].split(b"\n", 1)[0].decode("latin-1")
    parts = line.split(" ")
    if len(parts) < 2:
        return None
    target = urlsplit(parts[1])
    code = (parse_qs(target.query).get("table") or [""])[0]
    if CODE_RE.fullmatch(code):
        return code.upper()
    found = PATH_CODE_RE.search(target.path)
    return found.group(1).upper() if found else None


def owner(code: str, slots: list[int]) -> list[int]:
    """``slots`` in the order a table's connections try them: rendezvous (highest random weight)
    hashing, the same order in every front for the same slots; a slot gone moves only its own
    tables, each to the slot next in its order."""
    def weight(slot: int) -> bytes:
        return hashlib.blake2b(f"{code}:{slot}".encode(), digest_size=8).digest()
    return sorted(slots, key=weight, reverse=True)


class Worker:
    """One worker's slot: its process and the front's end of its channel."""

    def __init__(self, slot: int, pid: int, channel: socket.socket):
        self.slot, self.pid, self.channel = slot, pid, channel
        self.ready = False
        self.started = time.monotonic()


class Front:
    def __init__(self, listener: socket.socket, n: int, worker: Callable[[int, socket.socket], None]):
        self.listener, self.n, self.worker = listener, n, worker
        self.workers: dict[int, Worker] = {}
        self.due: dict[int, float] = {}  # slots to start again, and when
        self.pending: dict[socket.socket, float] = {}  # connections waiting for their request line: their deadline
        self.later: dict[socket.socket, float] = {}  # connections whose line came in part: when to look again
        self.turn = 0
        self.placed: dict[str, int] = {}  # table code -> the worker it was placed on (at most PLACED, oldest out)
        self.sel = selectors.DefaultSelector()

    def start(self, slot: int) -> None:
        """Fork the worker of ``slot``; the child never returns from here."""
        mine, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        pid = os.fork()
        if pid == 0:
            signal.signal(signal.SIGTERM, signal.SIG_DFL)
            mine.close()
            for other in [self.listener, *(w.channel for w in self.workers.values()), *self.pending]:
                other.close()
            self.sel.close()
            status = 1
            try:
                self.worker(slot, theirs)
                status = 0
            except BaseException:  # noqa: BLE001 - the worker's end: its reason logged, the front starts another
                log.exception("class tables: worker %s stopped", slot)
            finally:
                os._exit(status)
        theirs.close()
        mine.setblocking(False)
        mine.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, CHANNEL_BYTES)
        self.workers[slot] = Worker(slot, pid, mine)
        self.sel.register(mine, selectors.EVENT_READ, ("worker", slot))

    def gone(self, slot: int) -> None:
        """The worker of ``slot`` died: its channel closed, started again."""
        w = self.workers.pop(slot, None)
        if w is None:
            return
        self.sel.unregister(w.channel)
        w.channel.close()
        kill(w.pid)
        soon = time.monotonic() - w.started < RESTART_AFTER_S
        self.due[slot] = time.monotonic() + (RESTART_AFTER_S if soon else 0.0)

    def reap(self) -> None:
        while True:
            try:
                pid, _ = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                return
            if pid == 0:
                return
            for slot, w in list(self.workers.items()):
                if w.pid == pid:
                    self.gone(slot)

    def heard(self, slot: int) -> None:
        w = self.workers[slot]
        try:
            said = w.channel.recv(64)
        except OSError:
            said = b""
        if said == b"ready":
            w.ready = True
        elif not said:
            self.gone(slot)

    def accept(self) -> None:
        for _ in range(64):
            if len(self.pending) >= PENDING:
                return
            try:
                conn, _ = self.listener.accept()
            except (BlockingIOError, InterruptedError):
                return
            except OSError:  # e.g. out of descriptors: the backlog keeps the next
                return
            conn.setblocking(False)
            self.pending[conn] = time.monotonic() + LINE_TIMEOUT_S
            self.sel.register(conn, selectors.EVENT_READ, ("conn", None))

    def look(self, conn: socket.socket) -> None:
        """The connection's request line arrived (or came in part: looked at again in
        :data:`PEEK_AGAIN_S`, unwatched meanwhile: its unread bytes would wake the loop at once)."""
        try:
            head = conn.recv(LINE_BYTES, socket.MSG_PEEK)
        except BlockingIOError:
            return
        except OSError:
            head = b""
        if conn not in self.later:
            self.sel.unregister(conn)
        if head and b"\n" not in head and len(head) < LINE_BYTES:
            self.later[conn] = time.monotonic() + PEEK_AGAIN_S
            return
        self.later.pop(conn, None)
        self.pending.pop(conn)
        if head:
            self.hand(conn, table_of(head))
        conn.close()

    def ready_slots(self) -> list[int]:
        """The workers ready (none yet: every one started, whose channel keeps the connection until it reads)."""
        return sorted(s for s, w in self.workers.items() if w.ready) or sorted(self.workers)

    def order(self, code: str | None) -> list[int]:
        """The workers a connection naming ``code`` tries, in order. A table first named is placed
        on the next worker in turn (so that N workers get a table each in turn, not as a hash
        happens to split a few dozen) and stays there while it lives; a worker gone, its tables
        move for good, each to the one :func:`owner` says (all of a table's pages together, also
        when the worker is back before they all came); a connection naming no table goes to the
        next in turn."""
        slots = self.ready_slots()
        if not slots:
            return []
        if code is not None and code in self.placed:
            first = self.placed[code]
            if first not in slots:
                first = self.placed[code] = owner(code, slots)[0]
            return [first] + owner(code, [s for s in slots if s != first])
        self.turn += 1
        turn = slots[self.turn % len(slots):] + slots[: self.turn % len(slots)]
        if code is not None:
            self.placed[code] = turn[0]
            if len(self.placed) > PLACED:
                del self.placed[next(iter(self.placed))]  # the oldest: long closed, or a wrong code
        return turn

    def hand(self, conn: socket.socket, code: str | None) -> None:
        """The connection's descriptor to its table's worker (:meth:`order`), the next one tried
        if that one is gone; the front's copy is closed by the caller."""
        for slot in self.order(code):
            try:
                socket.send_fds(self.workers[slot].channel, [b"c"], [conn.fileno()])
                return
            except (BlockingIOError, InterruptedError):
                continue  # that worker is behind with its connections: the next one serves this one (the store is shared)
            except OSError:  # its end closed: it died
                self.gone(slot)

    def again(self) -> None:
        """Connections whose request line came in part, looked at again when due; every
        connection past its deadline (:data:`LINE_TIMEOUT_S`) without its line, closed."""
        now = time.monotonic()
        for conn in [c for c, due in self.later.items() if due <= now]:
            self.look(conn)
        for conn in [c for c, deadline in self.pending.items() if deadline < now]:
            if self.later.pop(conn, None) is None:
                self.sel.unregister(conn)
            del self.pending[conn]
            conn.close()

    def run(self) -> None:
        self.listener.setblocking(False)
        self.sel.register(self.listener, selectors.EVENT_READ, ("listen", None))
        for slot in range(self.n):
            self.start(slot)
        while True:
            for key, _ in self.sel.select(PEEK_AGAIN_S if self.later else 0.2):
                kind, slot = key.data
                if kind == "listen":
                    self.accept()
                elif kind == "worker":
                    if slot in self.workers:
                        self.heard(slot)
                elif key.fileobj in self.pending:
                    self.look(key.fileobj)
            self.again()
            self.reap()
            self.restart()

    def restart(self) -> None:
        now = time.monotonic()
        for slot, when in list(self.due.items()):
            if when <= now:
                del self.due[slot]
                self.start(slot)


def kill(pid: int) -> None:
    """A worker whose channel closed is made sure to be gone (SIGKILL; reaped later); one already gone is left."""
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, signal.SIGKILL)


def serve(port: int, ip: str, n: int, worker: Callable[[int, socket.socket], None]) -> None:
    """The front on ``ip:port`` with ``n`` workers (see the module); runs until it is stopped
    (SIGTERM: its workers end with it)."""
    family = socket.AF_INET6 if ":" in ip else socket.AF_INET
    listener = socket.socket(family, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind((ip, port))
    listener.listen(1024)
    front = Front(listener, n, worker)

    def stop(*_):
        for w in front.workers.values():
            kill(w.pid)
        os._exit(0)

    signal.signal(signal.SIGTERM, stop)
    front.run()


def receive(channel: socket.socket, take: Callable[[socket.socket], None]) -> bool:
    """In a worker: the connections the front handed over on ``channel``, each given to ``take``
    (False: the front is gone, the worker ends)."""
    while True:
        try:
            msg, fds, _, _ = socket.recv_fds(channel, 16, 8)
        except BlockingIOError:
            return True
        if not msg and not fds:
            return False
        for fd in fds:
            take(socket.socket(fileno=fd))


__all__ = ["Front", "owner", "receive", "serve", "table_of"]
