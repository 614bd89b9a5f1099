"""Class tables served by the dashboard's own server (issue 26): routes for ``dungeon-guilds-voila``.

:func:`table_routes` gives the Tornado routes :class:`~dungeon_guilds.app.voila_app.DashboardVoila`
adds in ``init_handlers`` (and :func:`make_app` serves alone, for tests and the benchmark):

* ``/dungeon-guilds/tables`` (and ``/dungeon-guilds/tables/<code>``, the link a table shares):
  the table page, plain HTML and JavaScript from this server (no kernel, nothing from another
  host); it talks to the websocket below and draws only what the server sends for its seat.
* ``/dungeon-guilds/tables/ws``: the websocket (:mod:`.tables.protocol`); Tornado's default
  same-origin check stays.
* ``/dungeon-guilds/teacher``: the teacher's page (a code printed in the server's console at
  start, or ``DUNGEON_GUILDS_TEACHER_CODE``), listing every table, with the finished games'
  records (JSON) and a CSV row per game to download, and the class's mistakes (issue 38, item 6):
  every finished game reviewed by the judge in a worker process of its own
  (:mod:`.tables.class_review`), summed by kind of decision (:mod:`.tables.mistakes_page`).

The tables are held by one :class:`~.tables.lobby.Lobby` in the server's process and saved in
``--tables-dir`` / ``DUNGEON_GUILDS_TABLES_DIR`` (:func:`~.tables.store.default_dir`).

Issue 37: a seat's part of a message is drawn once per board, seat, language and step
(:class:`PartsCache`); a change is written (in a thread, one change at a time per table) before
anyone is told (:meth:`TableHub.save_all`); each page is held to :class:`~.tables.limits.Limits`
(message rate, send queue, pages per seat, tables and wrong codes per client address); the
teacher's POSTs check ``_xsrf`` and wrong teacher codes are limited per address; the table page
shares the server's LAN address with classmates (:func:`share_origin`).

Issue 51: an address's pages share one budget (connections, messages, ``open``s: however many
connections it opens, it cannot saturate the server), the server raises its own open-file limit
at start and keeps a reserve for the teacher's page and new students, and one table's exception
at the tick stays at its table (``Lobby.alone``).

Issue 52: the tables' store is the JSON files (one process) or Redis (``--tables-store
redis://HOST:PORT/N``, :mod:`.tables.store_redis`), which every process of a school shares: a
change is committed with a version check before anyone is told (a change that lost the race to
another process is handled again on the table as stored), the other processes hear of it and tell
their pages (:mod:`.tables.sharing`), and ``--workers N`` serves one port from N processes
(:func:`serve_workers`).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import multiprocessing
import os
import secrets
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from html import escape
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import orjson
import tornado.ioloop
import tornado.web
import tornado.websocket

from .. import i18n
from .tables import front, pieces, protocol, records
from .tables.class_review import FOLDER as REVIEWS_FOLDER, ClassReviews
from .tables.limits import Bucket, Limits, PerAddress, Sockets, raise_fd_limit
from .tables.lobby import ALPHABET, Lobby
from .tables.mistakes_page import mistakes_csv, mistakes_html, mistakes_json
from .tables.refusal import TableRefusal
from .tables.render import Kept, bot_words, seat_head, seat_parts
from .tables.sharing import Sharing
from .tables.store import Conflict
from .tables.store_choice import STORE_ENV, open_store
from .tables.table import AWAY_BOT, think
from .tables.teacher_code import MIN_KINDS as TEACHER_MIN_KINDS, MIN_LENGTH as TEACHER_MIN_LENGTH, weakness

PAGE_DIR = Path(__file__).with_name("tables") / "static"
BOARD_KEYS = Path(__file__).parents[1] / "drawing" / "board_keys.js"
BASE = "dungeon-guilds"
TICK_MS = 2000
TEACHER_ENV = "DUNGEON_GUILDS_TEACHER_CODE"
RETRIES = 8  # a message handled again after another process changed its table first (issue 52: the seats
# of one table on two processes pressing Continue at once race each other; a refused press waits out the round)
BOT_NICENESS = 10  # the bots' worker yields the CPUs to the server (people's moves) when both are busy
log = logging.getLogger(__name__)


def bot_worker(server: int) -> None:
    """The bots' worker process starts: a lower priority (:data:`BOT_NICENESS`), and it ends
    with the server (a killed server leaves no worker behind)."""
    os.nice(BOT_NICENESS)

    def watch() -> None:
        while os.getppid() == server:
            time.sleep(1.0)
        os._exit(0)

    threading.Thread(target=watch, name="server-watch", daemon=True).start()


class TableHub:
    """The lobby and the open websockets of each table (who to push a new state to), and the
    one worker process where the slow bots (``table.SLOW_LEVELS``: the strong level's tree
    search) think, off the event loop and off its interpreter lock, so that other tables' moves
    are not held up (a thread held them up too: docs/dashboard.md has the figures). The worker
    is started (``spawn``: no copy of the server's threads) when a slow bot first thinks, at a
    lower priority (:data:`BOT_NICENESS`). A table has at most one bot thinking at a time."""

    def __init__(self, lobby: Lobby, teacher_code: str, limits: Limits | None = None):
        self.lobby, self.teacher_code = lobby, teacher_code
        self.limits = limits or Limits()
        lobby.tables_per_address = self.limits.tables_per_address
        self.sockets: dict[str, set["TableSocket"]] = {}
        self.thinking: set[str] = set()  # codes of the tables whose bot thinks now
        self.pool: ProcessPoolExecutor | None = None
        self.parts = PartsCache()
        self.locks: dict[str, asyncio.Lock] = {}  # one change at a time per table, its write included
        self.listen_ip: str | None = None  # the address the server listens on (the classmates' link)
        self.guesses = PerAddress(self.limits.code_guesses_per_s, self.limits.code_guesses)
        # issue 51, item 1: budgets per address, however many connections it opens
        self.opens = PerAddress(self.limits.opens_per_s, self.limits.opens)
        self.address_rate = PerAddress(self.limits.address_messages_per_s, self.limits.address_message_burst)
        self.redraws = PerAddress(self.limits.redraws_per_s, self.limits.redraws)
        self.open_sockets = Sockets(self.limits.sockets_per_address, raise_fd_limit(), self.limits.fd_reserve)
        self.teacher_tries = PerAddress(self.limits.teacher_tries_per_s, self.limits.teacher_tries)
        # the class's mistakes (issue 38, item 6): finished games judged in a worker of their own
        self.reviews = ClassReviews(lobby.store.dir / REVIEWS_FOLDER)
        lobby.reviews = self.reviews  # a student's review of their own seat (issue 50, item 4: protocol's review)
        self.sharing = Sharing(self)  # in step with the other processes of a shared store (issue 52)
        self.beating: asyncio.Task | None = None
        self.worker: int | None = None  # with --workers: this process's number (said to each page's upgrade)

    def _pool(self) -> ProcessPoolExecutor:
        if self.pool is None:
            self.pool = ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn"),
                                            initializer=bot_worker, initargs=(os.getpid(),))
        return self.pool

    def lock(self, code: str) -> asyncio.Lock:
        return self.locks.setdefault(code, asyncio.Lock())

    def busy(self) -> set[str]:
        """The tables whose change is being written now."""
        return {code for code, lock in self.locks.items() if lock.locked()}

    async def save_all(self, tables: list) -> bool | None:
        """Commit the ``tables`` changed to the store (off the event loop: a file's write with its
        ``fsync`` takes milliseconds to tens of milliseconds, and every table's moves would wait
        behind it) before anyone is told; False if one could not be written: each is then put
        back as it was last saved; None if another process changed one first (``Conflict``): the
        ones not stored are fetched as stored, and the caller handles its message again. Encoded
        by orjson (the standard library's encoder took 2 % of the server at 30 tables; the same
        JSON, read back the same)."""
        texts = [(t, orjson.dumps(t.to_dict(), option=orjson.OPT_NON_STR_KEYS).decode()) for t in tables]
        done = 0
        try:
            for table, text in texts:
                await self.lobby.store.commit(table.code, text, table.version)
                self.lobby.saved[table.code] = text
                done += 1
        except Conflict:
            for table, _ in texts[done:]:
                await self.sharing.refetch(table.code)
            return None
        except OSError as err:
            log.error("class table(s) %s could not be saved (%s): the change is undone",
                      ", ".join(t.code for t, _ in texts), err)
            for table, _ in texts[done:]:
                self.lobby.put_back(table)
            return False
        return True

    def close(self) -> None:
        """Stop the bots' worker process (if one was started), the writes' thread and the reviews' worker."""
        io = getattr(self.lobby.store, "io", None)
        if io is not None:
            io.shutdown(wait=True)
        self.reviews.close()
        if self.pool is not None:
            self.pool.shutdown(wait=False, cancel_futures=True)
            self.pool = None

    def think(self, table) -> None:
        """Start the bot due at ``table`` thinking off the loop (if one is due and none is)."""
        if table.code in self.thinking or not self.lobby.think_off_loop:
            return
        job = table.bot_job(self.lobby.clock(), self.lobby.away_s)
        if job is not None:
            self.thinking.add(table.code)
            tornado.ioloop.IOLoop.current().spawn_callback(self._thought, table, job)

    async def _thought(self, table, job) -> None:
        try:
            action = await tornado.ioloop.IOLoop.current().run_in_executor(
                self._pool(), think, job.level, job.seed, job.state, job.seat)
        except Exception as err:  # noqa: BLE001 - a bot's bug or a lost worker: logged, the fast bot moves
            log.exception("a class table's bot failed to think; the %s bot moves instead", AWAY_BOT)
            if isinstance(err, BrokenProcessPool):
                self.pool = None  # a new worker next time
            action = think(AWAY_BOT, job.seed, job.state, job.seat)
        finally:
            self.thinking.discard(table.code)
        async with self.lock(table.code):
            if self.lobby.tables.get(table.code) is not table:
                return  # the table closed meanwhile
            if table.take_bot_move(job, action, self.lobby.clock(), self.lobby.away_s):
                if not await self.save_all([table]):
                    return  # put back or fetched as stored: asked again at the next tick
                self.push(table.code)
        self.think(table)

    def attach(self, sock: "TableSocket") -> bool:
        """``sock`` is a page of its seat (True if that seat had no page open: the others see it come back)."""
        code, seat = sock.conn.code, sock.conn.seat
        if sock.attached == (code, seat):
            return False
        self.detach(sock)
        mine = [s for s in self.sockets.get(code, ()) if s.attached == (code, seat)]
        for old in sorted(mine, key=lambda s: s.opened)[: max(0, len(mine) - self.limits.sockets_per_seat + 1)]:
            old.drop("too many pages on one seat")  # a reload replaces the oldest page
        self.sockets.setdefault(code, set()).add(sock)
        table = self.lobby.tables[code]
        table.seats[seat].connected += 1
        table.seats[seat].away_since = None
        sock.attached = (code, seat)
        if table.seats[seat].connected == 1:
            self.sharing.moved(code)  # the other processes see the seat here at once (issue 52)
        return table.seats[seat].connected == 1

    def detach(self, sock: "TableSocket") -> None:
        if sock.attached is None:
            return
        code, seat = sock.attached
        sock.attached = None
        self.sockets.get(code, set()).discard(sock)
        table = self.lobby.tables.get(code)
        if table is not None:
            s = table.seats[seat]
            s.connected = max(0, s.connected - 1)
            if s.connected == 0:  # the seat's last page went: the others see it away
                s.away_since = self.lobby.clock()
                self.sharing.moved(code)
                self.push(code)

    def message(self, sock: "TableSocket") -> bytes:
        """The ``state`` message (JSON, UTF-8) for ``sock``'s seat: the head made now, the parts
        drawn once per board, seat, language and step (:class:`PartsCache`), of the board and
        the log only the pieces that changed since the page's last message (:mod:`.tables.pieces`; the page
        is then taken to hold the whole board: call this only for a message sent). Encoded by orjson:
        a board is ~30 KB of markup, and the standard library's encoder took a sixth of the
        server's time at 30 tables (issue 37)."""
        table = self.lobby.tables[sock.conn.code]
        seat, lang = sock.conn.seat, sock.conn.lang
        step = sock.conn.step[1] if table.showing is not None and sock.conn.step[0] == table.showing else 0
        parts = self.parts.get(table, seat, lang, step)
        held = getattr(sock, "held", {})
        msg = {**seat_head(table, seat, lang, self.lobby.clock(), self.lobby.away_s), **parts,
               **{f: pieces.delta(held.get(f, ()), parts[f]) for f in pieces.FIELDS}}
        sock.held = {f: parts[f] for f in pieces.FIELDS}  # what the page holds once this message is read
        if msg["resolving"] is not None:  # who has pressed Continue changes without a new board
            msg["resolving"] = {**msg["resolving"], "ready": seat in table.ready}
        return orjson.dumps(msg)

    def push(self, code: str) -> None:
        if code not in self.lobby.tables:
            return
        for sock in list(self.sockets.get(code, ())):
            sock.send_text(self.message(sock))

    def tick(self) -> None:
        """Every :data:`TICK_MS`: the lobby's tick, then each table's pages told and its slow bot
        asked, each table on its own (``Lobby.alone``: one table's exception, logged once, stops
        no other; issue 51, item 3)."""
        for table in self.lobby.tick(self.busy()):
            with self.lobby.alone(table.code, "telling its pages"):
                self.push(table.code)
        self.after_tick()

    async def shared_tick(self) -> None:
        """The tick with a shared store (issue 52; every :data:`TICK_MS`, one at a time):
        :meth:`.tables.sharing.Sharing.beat`, then, in the leading process only, the lobby's tick,
        its changes committed (each under its table's lock) before the pages are told."""
        await self.sharing.beat()
        if self.sharing.leader:
            self.sharing.settle_all()  # the tables heard and not decoded here: the tick reads them all
            with self.lobby.deferring():
                changed = self.lobby.tick(self.busy())
            for table in changed:
                async with self.lock(table.code):
                    if self.lobby.tables.get(table.code) is table and await self.save_all([table]):
                        with self.lobby.alone(table.code, "telling its pages"):
                            self.push(table.code)
            self.after_tick()
        else:
            self.parts.forget(self.lobby.tables)

    def beat(self) -> None:
        """:meth:`shared_tick` started, unless the last one is still under way."""
        if self.beating is None or self.beating.done():
            self.beating = asyncio.ensure_future(self.shared_tick())

    def after_tick(self) -> None:
        """The slow bots asked, the finished games queued for review, the caches trimmed."""
        for table in list(self.lobby.tables.values()):  # a slow bot due after a restart or an absence
            with self.lobby.alone(table.code, "asking its bot"):
                self.think(table)
            with self.lobby.alone(table.code, "queueing its review"):
                self.reviews.notice([table])  # a finished game queued for the class's mistakes
        self.parts.forget(self.lobby.tables)
        self.reviews.pump()  # a finished review taken; the next started
        for code in [c for c, lock in self.locks.items() if c not in self.lobby.tables and not lock.locked()]:
            del self.locks[code]


class PartsCache:
    """:func:`~.tables.render.seat_parts`, drawn once per board (the engine's log, the secret
    setup choices made, the round shown: :func:`board_key`), seat, language and step, however
    many pages or messages ask (issue 37); a table's entries go when its board changes.
    ``drawn`` counts the drawings (the regression guard's measure)."""

    def __init__(self):
        self.tables: dict[str, tuple[tuple, dict[tuple, dict]]] = {}
        self.drawn = 0

    def get(self, table, seat: int, lang: str, step: int) -> dict:
        board = board_key(table)
        key, parts = self.tables.get(table.code, (None, {}))
        if key != board:  # what the seats see alike, drawn once at this board (render.seat_parts), and
            # the parts of the last board drawn the same again (board_svg.Kept: a move changes a few)
            kept = parts["memo"]["kept"].next() if "memo" in parts else Kept()
            parts = {"memo": {"kept": kept}}
            self.tables[table.code] = (board, parts)
        if (seat, lang, step) not in parts:
            parts[seat, lang, step] = seat_parts(table, seat, lang, step, memo=parts["memo"])
            self.drawn += 1
        return parts[seat, lang, step]

    def forget(self, open_tables) -> None:
        for code in [c for c in self.tables if c not in open_tables]:
            del self.tables[code]


def board_key(table) -> tuple:
    """What a seat's parts are drawn from: the game so far (its log's length: every move logs),
    which seats have made their secret setup choice, the round shown resolving."""
    return (-1 if table.game is None else len(table.game.log), tuple(sorted(table.pending)), table.showing)


class TableSocket(tornado.websocket.WebSocketHandler):
    """One page's websocket (Tornado's same-origin check kept), with its limits (issue 37): at
    most ``Limits.messages_per_s`` messages a second (a burst of ``message_burst``; beyond, one
    refusal and the rest dropped, and after ``refused_before_drop`` more the page is closed), at
    most ``Limits.send_queue`` messages waiting for a page that does not read (beyond, the page
    is closed; its seat stays, and a page that comes back resumes it). Issue 51, item 1: the
    pages of one address share its message rate (``Limits.address_messages_per_s``) and its
    ``open``s (``Limits.opens_per_s``), and at most ``Limits.sockets_per_address`` are open
    (:class:`~.tables.limits.Sockets`)."""

    MAX_BYTES = 64 * 1024  # a longer frame closes the socket (a message is refused beyond protocol.MAX_MESSAGE)

    @property
    def max_message_size(self) -> int:
        return self.MAX_BYTES

    def initialize(self, hub: TableHub) -> None:
        self.hub = hub
        self.conn = protocol.Conn()
        self.held: dict[str, list[str]] = {}  # the board's and the log's pieces this page was sent (pieces.py)
        self.attached: tuple[str, int] | None = None
        self.opened = time.monotonic()
        limits = hub.limits
        self.rate = Bucket(limits.messages_per_s, limits.message_burst)
        self.address_rate = Bucket(limits.address_messages_per_s, limits.address_message_burst)  # its address's (open)
        self.over_rate = 0
        self.queued = 0  # messages handed to Tornado and not yet written to the network
        self.dropped = False
        self.gone = False  # closed (on_close ran)
        self.counted = False  # counted in the hub's open sockets of its address
        self.redraw_due: object | None = None  # a redraw waiting for its address's budget (at most one)

    async def get(self, *args: Any, **kwargs: Any) -> None:
        """The upgrade to a websocket, refused (429, in words) before any is made when the
        address has ``Limits.sockets_per_address`` pages open or the server keeps its reserve
        (issue 51, item 1: one address cannot take every descriptor)."""
        if self.hub.worker is not None:  # which process serves this page (issue 52: the tests, a school's IT)
            self.set_header("X-Tables-Worker", f"{self.hub.worker} {os.getpid()}")
        why = self.hub.open_sockets.admit(self.request.remote_ip or "?")
        if why is not None:
            self.set_status(429)
            self.finish(i18n.t(f"tables.refusal.{why}", "en", most=self.hub.limits.sockets_per_address))
            return
        await super().get(*args, **kwargs)

    def _log(self) -> None:
        """Tornado's access log line, but none for a refused upgrade (429): those are logged once
        per address (``limits.Sockets``), not once each (issue 51: a pile of 1,500 is one line)."""
        if self.get_status() != 429:
            super()._log()

    def open(self, *args: Any) -> None:
        self.conn.address = address = self.request.remote_ip or "?"
        if not self.hub.open_sockets.add(address):  # the count filled while this page's upgrade was under way
            self.dropped = True
            self.close(1013, "too many pages from this address")
            return
        self.counted = True
        self.conn.guesses = self.hub.guesses.of(address)
        self.conn.opens = self.hub.opens.of(address)
        self.address_rate = self.hub.address_rate.of(address)

    def _too_fast(self) -> bool:
        if self.rate.take() and self.address_rate.take():
            self.over_rate = 0
            return False
        self.over_rate += 1
        if self.over_rate == 1:
            self.send({"op": "refused", "code": "too_fast", "reason": i18n.t("tables.refusal.too_fast", self.conn.lang)})
        elif self.over_rate >= self.hub.limits.refused_before_drop:
            self.drop("too many messages")
        return True

    def _table_code(self, message: Any) -> str | None:
        """The table a message is about (the page's, or the code it names): its changes wait for one another."""
        if self.conn.code is not None:
            return self.conn.code
        try:
            msg = json.loads(message) if isinstance(message, str) and len(message) <= protocol.MAX_MESSAGE else None
        except (ValueError, RecursionError):
            return None
        code = msg.get("code") if isinstance(msg, dict) else None
        return code.strip().upper() if isinstance(code, str) and len(code) <= 20 else None

    async def on_message(self, message: Any) -> None:
        if self.dropped or self._too_fast():
            return
        if not isinstance(message, str):
            message = None  # binary frames are refused like any malformed message
        code = self._table_code(message)
        async with (self.hub.lock(code) if code else contextlib.nullcontext()):
            await self.hub.sharing.known(code)  # a table just opened on another process (issue 52)
            out = await self._handle(message)
            if out is None:
                return
            if out.reply is not None:
                self.send(out.reply)
            if self.gone:
                return  # the page closed while its change was written: it is not attached again
            if self.conn.seat is None and self.attached is not None:
                self.hub.detach(self)  # the page left its table (its seat stays: the others see it away)
            if self.conn.seat is not None and self.conn.code in self.hub.lobby.tables and self.hub.attach(self) \
                    and out.changed is None:
                self.hub.push(self.conn.code)  # the seat's first page: every page sees it here again
                return
            if out.changed is not None:
                self.hub.push(out.changed.code)
                self.hub.think(out.changed)
            elif out.refresh and out.redraw:
                if self.redraw_due is None:  # one waiting already: it will draw the page's language then
                    self.redraw()
            elif out.refresh and self.conn.code in self.hub.lobby.tables:
                self.send_text(self.hub.message(self))

    def redraw(self) -> None:
        """Send this page its state again in its new language, within its address's budget of
        whole boards (``Limits.redraws``): beyond it, one redraw waits for the next token, and
        however many ``lang`` messages come meanwhile, the page is sent one (issue 51, item 2: a
        28-byte ``lang`` no longer buys a ~50 KB answer every time)."""
        self.redraw_due = None
        if self.dropped or self.gone or self.conn.code not in self.hub.lobby.tables:
            return
        budget = self.hub.redraws.of(self.conn.address or "?")
        if budget.take():
            self.send_text(self.hub.message(self))
            return
        wait = max(0.05, (1 - budget.tokens) / budget.rate)
        self.redraw_due = tornado.ioloop.IOLoop.current().call_later(wait, self.redraw)

    async def _handle(self, message: Any) -> protocol.Outcome | None:
        """The protocol's answer, the tables it changed written first (off the loop); a write
        that fails puts them back and the page is told so (``not_saved``) instead. A change that
        another process beat to it (issue 52: a shared store) is handled again on the table as
        stored, up to :data:`RETRIES` times."""
        seated = (self.conn.code, self.conn.seat)
        for _ in range(RETRIES):
            try:
                with self.hub.lobby.deferring() as changed:
                    out = protocol.handle(self.hub.lobby, self.conn, message)
            except Exception:  # noqa: BLE001 - a server bug: logged, the page gets plain words
                log.exception("class table message failed")
                self.send({"op": "refused", "code": "bad_message",
                           "reason": i18n.t("tables.refusal.bad_message", self.conn.lang)})
                return None
            saved = await self.hub.save_all(changed) if changed else True
            if saved:
                return out
            self.conn.code, self.conn.seat = seated
            if saved is False:
                break
        return protocol.Outcome(protocol.refused(TableRefusal("not_saved"), self.conn.lang))

    def send(self, msg: dict[str, Any]) -> None:
        self.send_text(orjson.dumps(msg))

    def send_text(self, text: str | bytes) -> None:
        """Send one message (JSON as text, or as UTF-8 bytes: a text frame either way)."""
        if self.dropped:
            return
        if self.queued >= self.hub.limits.send_queue:
            self.drop("the page does not read its messages")
            return
        try:
            sent = self.write_message(text)
        except tornado.websocket.WebSocketClosedError:
            return
        self.queued += 1
        sent.add_done_callback(self._written)

    def _written(self, fut) -> None:
        self.queued -= 1
        if not fut.cancelled():
            fut.exception()  # a closed stream: nothing more to do (on_close detaches the page)

    def drop(self, why: str) -> None:
        """Close this page's connection (its seat stays: the page may come back and resume)."""
        if self.dropped:
            return
        self.dropped = True
        log.warning("class table page from %s dropped: %s", self.conn.address, why)
        self.hub.detach(self)
        self.close(1008, why)

    def on_close(self) -> None:
        self.gone = True
        if self.redraw_due is not None:
            tornado.ioloop.IOLoop.current().remove_timeout(self.redraw_due)
            self.redraw_due = None
        self.hub.detach(self)
        if self.counted:
            self.counted = False
            self.hub.open_sockets.remove(self.conn.address or "?")


def _page(title_key: str, body: str, lang: str = "en") -> str:
    html_lang = "zh-Hant" if lang == "zh" else "en"
    return (f"<!DOCTYPE html><html lang='{html_lang}'><head><meta charset='utf-8'>"
            "<meta name='viewport' content='width=device-width, initial-scale=1'>"
            f"<title>{escape(i18n.t(title_key, lang))}</title>"
            f"<link rel='stylesheet' href='{{static}}/tables.css'></head><body>{body}</body></html>")


LOOPBACK = ("127.", "localhost", "::1", "[::1]")
EVERY_ADDRESS = ("", "0.0.0.0", "::", "*")


def lan_address() -> str | None:
    """This computer's address on its network (the interface a route out would use: a UDP
    socket "connected" to a TEST-NET address sends nothing), or None without a network."""
    import socket

    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(("192.0.2.1", 9))
            address = s.getsockname()[0]
    except OSError:
        return None
    return None if address.startswith(LOOPBACK) else address


def share_origin(host: str, scheme: str, listen_ip: str | None, lan=lan_address) -> str | None:
    """The origin classmates can reach for a page asked as ``host`` (issue 37 item 6): a page
    opened on the server's own computer (127.0.0.1, localhost) shares the server's LAN address
    when the server listens on one (``--ip`` / Voila's ``--Voila.ip``: 0.0.0.0 or that address),
    with the same port; otherwise the page's own origin (None: the page uses ``location.origin``)."""
    asked = urlsplit(f"//{host}")
    name, port = asked.hostname or "", asked.port
    if listen_ip is None or listen_ip.startswith(LOOPBACK) or not name.startswith(LOOPBACK):
        return None
    address = lan() if listen_ip in EVERY_ADDRESS else listen_ip
    if not address:
        return None
    address = f"[{address}]" if ":" in address else address
    return f"{scheme}://{address}" + (f":{port}" if port else "")  # the same port: the same server


class TablePageHandler(tornado.web.RequestHandler):
    """The table page: its texts in both languages go with it; the script picks one."""

    def initialize(self, base: str, hub: TableHub) -> None:
        self.base, self.hub = base, hub

    def get(self, code: str | None = None) -> None:
        texts = {lang: {k[len("tables."):]: v for k, v in i18n.strings(lang).items() if k.startswith("tables.")}
                 for lang in protocol.LANGS}
        static = f"{self.base}{BASE}/tables/static"
        share = share_origin(self.request.host, self.request.protocol, self.hub.listen_ip) or ""
        html = (PAGE_DIR / "tables.html").read_text("utf-8")
        html = html.replace("{static}", static).replace(
            "{texts}", escape(json.dumps(texts, ensure_ascii=False))).replace(
            "{ws}", f"{self.base}{BASE}/tables/ws").replace("{share}", escape(share)).replace(
            "{route}", "1" if self.hub.sharing.on else "")  # several processes: the socket names its table (issue 52)
        self.set_header("Content-Type", "text/html; charset=UTF-8")
        self.set_header("Cache-Control", "no-store")
        self.finish(html)


class TeacherHandler(tornado.web.RequestHandler):
    """The teacher's page: a form asking the teacher code; with it, the tables and downloads."""

    def initialize(self, hub: TableHub, base: str) -> None:
        self.hub, self.base = hub, base

    def prepare(self) -> None:
        """Every POST carries the page's ``_xsrf`` (the form's hidden field and its cookie), also
        under Voila, whose application does not turn Tornado's own check on (``xsrf_cookies``);
        Jupyter's handlers check it in their ``prepare`` the same way."""
        if self.request.method not in ("GET", "HEAD", "OPTIONS"):
            self.check_xsrf_cookie()

    def _lang(self) -> str:
        lang = self.get_argument("lang", "en")
        return lang if lang in protocol.LANGS else "en"

    def get(self, what: str | None = None) -> None:
        self._form(self._lang(), "")

    def _form(self, lang: str, problem: str) -> None:
        t = lambda k: escape(i18n.t(f"tables.{k}", lang))  # noqa: E731
        note = f"<p role='alert' class='problem'>{escape(problem)}</p>" if problem else ""
        body = (f"<main><h1>{t('teacher_title')}</h1>{note}<form method='post'>{self.xsrf_form_html()}"
                f"<input type='hidden' name='lang' value='{lang}'><label>{t('teacher_code')} "
                f"<input name='teacher' autocomplete='off' required></label> <button>{t('teacher_enter')}</button>"
                "</form></main>")
        self._send(_page("tables.teacher_title", body, lang))

    def _send(self, html: str) -> None:
        self.set_header("Content-Type", "text/html; charset=UTF-8")
        self.set_header("Cache-Control", "no-store")
        self.finish(html.replace("{static}", f"{self.base}{BASE}/tables/static"))

    def post(self, what: str | None = None) -> None:
        lang = self._lang()
        given = self.get_body_argument("teacher", "")[:200]
        tries = self.hub.teacher_tries.of(self.request.remote_ip or "?")
        if tries.left() < 1:  # too many wrong codes from this address: wait, even with the right one
            self.set_status(429)
            self._form(lang, i18n.t("tables.teacher_wait", lang))
            return
        if not secrets.compare_digest(given.strip().encode(), self.hub.teacher_code.encode()):
            tries.take()
            self.set_status(403)
            self._form(lang, i18n.t("tables.teacher_bad", lang))
            return
        self.hub.sharing.settle_all()  # the tables heard from other processes and not decoded here yet
        everything = [*self.hub.lobby.tables.values(), *self.hub.lobby.store.load_closed()]
        self.hub.reviews.armed = True  # a teacher looks: the finished games are reviewed from now on
        self.hub.reviews.notice(everything)
        if what == "records.json":
            self._download("class-table-records.json", "application/json",
                           json.dumps(records.records(everything), ensure_ascii=False, indent=1))
        elif what == "games.csv":
            self._download("class-table-games.csv", "text/csv; charset=UTF-8", records.games_csv(everything, lang))
        elif what == "mistakes.csv":
            self._download("class-mistakes.csv", "text/csv; charset=UTF-8", mistakes_csv(self.hub.reviews, lang))
        elif what == "mistakes.json":
            self._download("class-mistakes.json", "application/json", mistakes_json(self.hub.reviews))
        else:
            self._send(_page("tables.teacher_title", teacher_body(self, lang, given), lang))

    def _download(self, name: str, kind: str, text: str) -> None:
        self.set_header("Content-Type", kind)
        self.set_header("Content-Disposition", f'attachment; filename="{name}"')
        self.finish(text)


def _rules_words(row: dict, lang: str) -> str:
    r = row["rules"]
    parts = [i18n.t(f"tables.lords_{r['lords']}", lang), i18n.t(f"tables.edition_{r['edition']}", lang)]
    if r.get("teams"):
        parts.append(r["teams"])
    if r.get("npc"):
        parts.append(i18n.t("tables.npc", lang))
    deck = i18n.t("tables.deck_reference", lang) if row["deck"] == "reference" else row["deck"]
    parts.append(i18n.t("tables.deck_line", lang, name=deck))
    if row.get("lord") is not None:  # a workshop lord, by its name in the page's language
        parts.append(i18n.t("tables.lord_line", lang, name=row["lord"].name(lang)))
    return " · ".join(parts)


def _seat_words(seat: dict, lang: str) -> str:
    if seat["bot"]:
        return i18n.t("tables.seat_with_bot", lang, name=seat["name"], bot=bot_words(seat["bot"], lang))
    return seat["name"] or i18n.t("tables.free_seat", lang)


def teacher_body(handler: TeacherHandler, lang: str, code: str) -> str:
    t = lambda k: escape(i18n.t(f"tables.{k}", lang))  # noqa: E731
    rows = []
    for row in handler.hub.lobby.listing():
        seats = escape(i18n.join_list((_seat_words(s, lang) for s in row["seats"]), lang))
        rnd = t("not_started") if row["round"] is None else str(row["round"])
        gold = "" if row["gold"] is None else " · ".join(f"${g}" for g in row["gold"])
        rows.append(f"<tr><td>{row['code']}</td><td>{escape(_rules_words(row, lang))}</td><td>{seats}</td>"
                    f"<td>{rnd}</td><td>{gold}</td><td>{t('yes') if row['over'] else t('no')}</td></tr>")
    head = "".join(f"<th scope='col'>{t(k)}</th>" for k in ("col_code", "col_rules", "col_seats", "col_round",
                                                            "col_gold", "col_over"))
    table = (f"<table><thead><tr>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table>" if rows
             else f"<p>{t('teacher_none')}</p>")
    hidden = (f"{handler.xsrf_form_html()}<input type='hidden' name='teacher' value='{escape(code)}'>"
              f"<input type='hidden' name='lang' value='{lang}'>")
    forms = "".join(f"<form method='post' action='{handler.base}{BASE}/teacher/{path}'>{hidden}"
                    f"<button>{t(key)}</button></form>"
                    for path, key in (("records.json", "teacher_records"), ("games.csv", "teacher_csv"),
                                      ("mistakes.csv", "mistakes_csv"), ("mistakes.json", "mistakes_json")))
    refresh = (f"<form method='post' action='{handler.base}{BASE}/teacher'>{hidden}"
               f"<button>{t('mistakes_refresh')}</button></form>")
    mistakes = mistakes_html(handler.hub.reviews, lang, refresh)
    return f"<main><h1>{t('teacher_title')}</h1>{table}<div class='downloads'>{forms}</div>{mistakes}</main>"


def teacher_code() -> str:
    """``$DUNGEON_GUILDS_TEACHER_CODE`` if it is strong enough (:func:`.tables.teacher_code.weakness`:
    at least 10 characters, 6 of them different, not a common code, not mostly a run like
    ``1234…``; a weaker one stops the server with the reason in English and 繁體中文), else 10
    random characters of the table codes' alphabet (31¹⁰ ≈ 8·10¹⁴, tried at most one every 20 s
    per address once five are spent)."""
    given = os.environ.get(TEACHER_ENV, "").strip()
    if not given:
        return "".join(secrets.choice(ALPHABET) for _ in range(TEACHER_MIN_LENGTH))
    why = weakness(given)
    if why is not None:
        raise SystemExit("\n".join(i18n.t(f"tables.teacher_weak_{why}", lang, env=TEACHER_ENV, length=TEACHER_MIN_LENGTH,
                                           kinds=TEACHER_MIN_KINDS) for lang in protocol.LANGS))
    return given


def make_hub(tables_dir: str | Path | None = None, code: str | None = None, think_off_loop: bool = True,
             limits: Limits | None = None, store: str | None = None) -> TableHub:
    """The lobby (tables read back from ``store``, a ``redis://`` URL, else ``$DUNGEON_GUILDS_TABLES_STORE``,
    else the JSON files of ``tables_dir``) and its websockets; the teacher code is printed to the
    console. ``think_off_loop``: the slow bots think in the hub's worker process."""
    tables = open_store(store, tables_dir)
    hub = TableHub(Lobby.from_env(tables, think_off_loop), code or teacher_code(), limits or Limits.from_env())
    where = tables.dir if not tables.shared else tables
    print(f"Class tables: {len(hub.lobby.tables)} table(s) read back from {where}; "
          f"teacher code: {hub.teacher_code}", flush=True)
    return hub


def table_routes(base: str, hub: TableHub) -> list[tuple]:
    """The Tornado routes of the class tables under ``base`` (the server's URL prefix, ``/``)."""
    root = f"{base}{BASE}"
    return [
        (f"{root}/tables/ws", TableSocket, {"hub": hub}),
        # the board's keyboard module, one file with the widget board (drawing/board_keys.js)
        (f"{root}/tables/static/(board_keys\\.js)", tornado.web.StaticFileHandler, {"path": str(BOARD_KEYS.parent)}),
        (f"{root}/tables/static/(.*)", tornado.web.StaticFileHandler, {"path": str(PAGE_DIR)}),
        (rf"{root}/tables/?([A-Za-z0-9]{{0,12}})", TablePageHandler, {"base": base, "hub": hub}),
        (f"{root}/teacher/?(records.json|games.csv|mistakes.csv|mistakes.json)?", TeacherHandler, {"hub": hub, "base": base}),
    ]


def start_ticks(hub: TableHub) -> tornado.ioloop.PeriodicCallback:
    """Idle tables close and bots play away seats' turns, checked every :data:`TICK_MS` (with a
    shared store: the other processes' changes heard, and :meth:`TableHub.beat` instead)."""
    hub.sharing.start()
    ticker = tornado.ioloop.PeriodicCallback(hub.beat if hub.sharing.on else hub.tick, TICK_MS)
    ticker.start()
    return ticker


def make_app(tables_dir: str | Path | None = None, code: str | None = None,
             think_off_loop: bool = True, limits: Limits | None = None, store: str | None = None,
             cookie_secret: str | None = None) -> tornado.web.Application:
    """The class tables alone in a Tornado application (tests, ``benchmarks/bench_tables.py``),
    configured as Voila configures its own (no ``xsrf_cookies``: the teacher's page checks
    ``_xsrf`` itself)."""
    hub = make_hub(tables_dir, code, think_off_loop, limits, store)
    app = tornado.web.Application(table_routes("/", hub), cookie_secret=cookie_secret or secrets.token_hex(16),
                                  websocket_max_message_size=64 * 1024)
    app.hub = hub  # type: ignore[attr-defined]
    return app


def main(argv: list[str] | None = None) -> None:
    """``python -m dungeon_guilds.app.table_server --port 8870 --tables-dir DIR``: the class
    tables alone (no notebooks), on 127.0.0.1 unless ``--ip`` says otherwise; ``--workers N
    --tables-store redis://HOST:PORT/N``: N processes on the one port (issue 52)."""
    import argparse

    parser = argparse.ArgumentParser(description=main.__doc__)
    parser.add_argument("--port", type=int, default=8870)
    parser.add_argument("--ip", default="127.0.0.1")
    parser.add_argument("--tables-dir", default=None, help="where tables are saved (default: see store.default_dir)")
    parser.add_argument("--tables-store", default=None, metavar="redis://HOST:PORT/N",
                        help=f"the tables in Redis, shared by every process (default: ${STORE_ENV}, else the JSON files)")
    parser.add_argument("--workers", type=int, default=1, metavar="N",
                        help="N processes serving the one port (needs --tables-store; a killed one is restarted)")
    parser.add_argument("--behind-proxy", action="store_true",
                        help="the client's address is the proxy's X-Real-IP / X-Forwarded-For (nginx: docs/school.md)")
    parser.add_argument("--bots-on-loop", action="store_true",
                        help="every bot thinks on the event loop (benchmarks/bench_tables.py --compare)")
    args = parser.parse_args(argv)
    serve_workers(args)


def serve_workers(args) -> None:
    """``args.workers`` processes behind one port: a front process (:mod:`.tables.front`) accepts
    every connection and hands it to the process serving the table it names (``?table=CODE``),
    so that one table's pages are served by one process; the processes share the tables through
    the store, and one that dies is started again (its tables served meanwhile by the others);
    one teacher code and one cookie secret for all. One worker: this process serves."""
    store = args.tables_store if args.tables_store is not None else os.environ.get(STORE_ENV, "").strip()
    if args.workers > 1 and not store:
        raise SystemExit("--workers needs a store every process shares: --tables-store redis://HOST:PORT/N "
                         "(docs/school.md); the JSON files are one process's tables")
    code, secret = teacher_code(), secrets.token_hex(16)
    if args.workers == 1:
        asyncio.run(_serve(args, store or None, code, secret, None))
        return
    print(f"Class tables: {args.workers} processes on port {args.port}; teacher code: {code}", flush=True)

    def work(slot: int, channel) -> None:
        _end_with(os.getppid())
        asyncio.run(_serve(args, store, code, secret, slot, channel))

    front.serve(args.port, args.ip, args.workers, work)


def _end_with(parent: int) -> None:
    """This worker ends when the process that forked it does (stopped, or killed)."""
    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(0)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


def _take_from_front(app: tornado.web.Application, channel, xheaders: bool) -> None:
    """This worker serves the connections the front hands it on ``channel`` (``--workers``), and
    tells the front it is ready; the front gone, the worker ends."""
    import tornado.httpserver
    import tornado.iostream

    server = tornado.httpserver.HTTPServer(app, xheaders=xheaders)
    channel.setblocking(False)

    def take(conn) -> None:
        conn.setblocking(False)
        try:
            address = conn.getpeername()
        except OSError:  # the client left while its connection was handed over
            conn.close()
            return
        server.handle_stream(tornado.iostream.IOStream(conn, max_buffer_size=server.max_buffer_size), address)

    def readable() -> None:
        if not front.receive(channel, take):
            os._exit(0)

    asyncio.get_running_loop().add_reader(channel.fileno(), readable)
    channel.send(b"ready")


async def _serve(args, store: str | None, code: str, secret: str, worker: int | None, channel=None) -> None:
    app = make_app(args.tables_dir, code, think_off_loop=not args.bots_on_loop, store=store,
                   cookie_secret=secret)  # the tables only: no Voila, no kernels
    app.hub.listen_ip, app.hub.worker = args.ip, worker
    if channel is None:
        app.listen(args.port, args.ip, xheaders=args.behind_proxy)
    else:
        _take_from_front(app, channel, args.behind_proxy)
    start_ticks(app.hub)
    who = "" if worker is None else f" (process {worker}, pid {os.getpid()})"
    print(f"Class tables on http://{args.ip}:{args.port}/{BASE}/tables{who}", flush=True)
    await asyncio.Event().wait()


__all__ = ["TableHub", "main", "make_app", "make_hub", "start_ticks", "table_routes"]

if __name__ == "__main__":
    main()
