"""One server's tables kept in step with the other processes sharing its store (issue 52).

:class:`~dungeon_guilds.app.table_server.TableHub` holds a :class:`Sharing`; with a store every
process shares (``store.shared``: Redis, :mod:`.store_redis`) the server calls:

* :meth:`Sharing.heard` for each change another process announces (the store's ``listen``, with
  the table's text: every version, in order): the table is put in this process's lobby in place of its old copy (:meth:`Sharing.adopt`:
  the pages attached here stay attached) and this process's pages of it are told. A table with
  no page here (its pages are on the process serving it: ``table_server --workers`` routes them
  there) is not decoded at every move: its newest text waits (:attr:`Sharing.later`) until this
  process needs the table (:meth:`Sharing.settle`: a message naming it, the leader's tick, the
  teacher's page);
* :meth:`Sharing.refetch` when a change made here lost the race (``store.Conflict``): the table
  as stored, so that the message is handled again on it;
* :meth:`Sharing.beat` every tick (``table_server.start_ticks``): the seats with a page on
  another process (so that nobody here takes them for away and plays a bot for them), which
  process leads (only the leader runs the lobby's tick: away seats' bots and idle closing, once
  for the school, not once per process), and the tables whose announcement was missed (a lost
  connection to Redis) caught up.

With the JSON files (one process) nothing is shared: :attr:`Sharing.on` is False and the server
ticks as before.
"""

from __future__ import annotations

import asyncio
import logging

import orjson
import tornado.ioloop

from .store import CODE_RE
from .table import Table

BEAT_TTL_MS = 6000  # a process silent this long is gone: its seats are away, another leads
log = logging.getLogger(__name__)


class Sharing:
    def __init__(self, hub):  # the server's TableHub (table_server.py)
        self.hub = hub
        self.on = bool(getattr(hub.lobby.store, "shared", False))
        self.leader = not self.on  # one process alone leads; with a shared store, the beat decides
        self.elsewhere: set[str] = set()  # "CODE:seat" of seats with a page on another process
        self.later: dict[str, tuple[int, str]] = {}  # tables with no page here: the newest version heard, undecoded
        self.tasks: set[asyncio.Task] = set()

    def start(self) -> None:
        """Listen to the other processes' changes, on the server's loop (running or about to:
        the dashboard asks before Voila starts it)."""
        if self.on:
            tornado.ioloop.IOLoop.current().add_callback(self.hub.lobby.store.listen, self.heard, self.spawn_presence)

    def moved(self, code: str) -> None:
        """A seat of ``code`` got its first page here, or lost its last: the other processes
        told at once (not at their next beat), after this process's seats are stored."""
        if self.on:
            self.spawn(self.tell_presence(code))

    async def tell_presence(self, code: str) -> None:
        await self.presence()
        await self.hub.lobby.store.announce_presence(code)

    def spawn_presence(self, code: str) -> None:
        """Another process's seats changed (at table ``code``): read them now."""
        self.spawn(self.presence())

    def spawn(self, work) -> None:
        task = asyncio.ensure_future(work)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    def heard(self, code: str, version: int | None, text: str | None) -> None:
        if not self.newer(code, version):
            return  # this lobby holds that version already (or a newer one)
        if text is not None and code in self.hub.lobby.tables and not self.hub.sockets.get(code) \
                and not self.hub.lock(code).locked():
            if version > self.later.get(code, (-1, ""))[0]:
                self.later[code] = (version, text)  # decoded when needed (settle): no page here to tell
            return
        self.spawn(self.take(code, version, text))

    def settle(self, code: str) -> None:
        """Table ``code``'s newest version heard and not yet decoded (:attr:`later`) put in this
        lobby; an unreadable one is fetched at the next beat (the store's version stays newer)."""
        version, text = self.later.pop(code, (None, None))
        if text is None or not self.newer(code, version):
            return
        try:
            fresh = Table.from_dict(orjson.loads(text))
        except (ValueError, KeyError, TypeError) as err:
            log.error("class table %s announced unreadable (%s): fetched at the next beat", code, err)
            return
        self.adopt(code, fresh)

    def settle_all(self) -> None:
        """Every table heard and not yet decoded, in this lobby (the leader's tick; the teacher's page),
        but a table whose change is under way (its lock held: its handler settles it or takes a newer)."""
        for code in list(self.later):
            if not self.hub.lock(code).locked():
                self.settle(code)

    def newer(self, code: str, version: int | None) -> bool:
        """Whether ``version`` of ``code`` (None: closed) is newer than the one this lobby last
        stored or took (not its copy in memory, which a change under way may have moved on)."""
        seen = self.hub.lobby.store.seen.get(code)
        return version is None or seen is None or seen < version

    async def take(self, code: str, version: int | None, text: str | None) -> None:
        """The version announced (in the order announced: the table's lock is first come, first
        served) in this lobby, its pages here told; unless this lobby holds it or a newer one."""
        async with self.hub.lock(code):
            if not self.newer(code, version):
                return
            if version is None or self.later.get(code, (-1, ""))[0] <= version:
                self.later.pop(code, None)  # older than this one
            try:
                fresh = None if text is None else Table.from_dict(orjson.loads(text))
            except (ValueError, KeyError, TypeError) as err:
                log.error("class table %s announced unreadable (%s): fetched instead", code, err)
                fresh = await self.hub.lobby.store.fetch(code)
            self.adopt(code, fresh)
            self.hub.push(code)

    async def catch_up(self, code: str) -> None:
        """Table ``code`` as stored now, in this lobby (a closed one out of it), its pages here told."""
        async with self.hub.lock(code):
            try:
                fresh = await self.hub.lobby.store.fetch(code)
            except OSError as err:
                log.warning("class table %s could not be fetched (%s): caught up at the next beat", code, err)
                return
            self.adopt(code, fresh)
            self.hub.push(code)

    async def known(self, code: str | None) -> None:
        """Before a message naming table ``code`` is handled (under its lock): a table opened on
        another process a moment ago, whose announcement has not arrived yet, fetched now (a
        classmate's join is not refused ``no_such_table`` for being quicker than Redis)."""
        if code in self.later:
            self.settle(code)  # a page of a table not decoded here comes (issue 52)
        if not self.on or code is None or code in self.hub.lobby.tables or not CODE_RE.match(code):
            return
        try:
            fresh = await self.hub.lobby.store.fetch(code)
        except OSError as err:
            log.warning("class table %s could not be fetched (%s)", code, err)
            return
        if fresh is not None and code not in self.hub.lobby.tables:
            self.adopt(code, fresh)

    async def refetch(self, code: str) -> bool:
        """After a ``Conflict``: the stored table in place of this process's copy (False: it is gone)."""
        fresh = await self.hub.lobby.store.fetch(code)
        self.adopt(code, fresh)
        self.hub.push(code)  # this process's pages see the version that won, then the message's own
        return fresh is not None

    def adopt(self, code: str, fresh: Table | None) -> None:
        """``fresh`` (as stored) in place of this lobby's ``code``; its seats keep the pages
        attached here and their away times; None: the table closed elsewhere."""
        lobby = self.hub.lobby
        old = lobby.tables.get(code)
        if fresh is None or self.later.get(code, (-1, ""))[0] <= fresh.version:
            self.later.pop(code, None)  # as new as the one waiting, or newer
        if fresh is None:
            lobby.tables.pop(code, None)
            lobby.saved.pop(code, None)
            lobby.store.seen.pop(code, None)
            return
        lobby.store.seen[code] = fresh.version  # this lobby's copy: its next change is checked against it
        now = lobby.clock()
        fresh.think_off_loop = lobby.think_off_loop
        fresh.showing_since = old.showing_since if old is not None and old.showing == fresh.showing else now
        for i, seat in enumerate(fresh.seats):
            before = old.seats[i] if old is not None and i < len(old.seats) else None
            seat.connected = before.connected if before else 0
            seat.away_since = before.away_since if before else (None if f"{code}:{i}" in self.elsewhere else now)
        if old is not None:
            fresh.resumed = old.resumed
        lobby.tables[code] = fresh

    async def beat(self) -> None:
        """Presence, leadership and missed announcements (see the module); then, if this process
        leads, the lobby's tick. A store that cannot be reached: logged, tried at the next beat."""
        if not await self.presence():
            return
        try:
            stored = await self.hub.lobby.store.versions()
        except OSError as err:
            log.warning("the tables' store could not be reached (%s): tried again at the next beat", err)
            return
        seen = self.hub.lobby.store.seen
        for code in set(stored) | set(self.hub.lobby.tables):
            # a table this process never stored nor took is left alone unless Redis has it (a
            # table being opened here is in the lobby before it is stored: it is not dropped);
            # a version heard and not decoded yet (later) is not missed
            known = self.later[code][0] if code in self.later else seen.get(code)
            missed = stored.get(code) != known if known is not None else code in stored
            if missed and not self.hub.lock(code).locked():
                await self.catch_up(code)

    async def presence(self) -> bool:
        """This process's seats stored, the other processes' read (:meth:`present`); False if the
        store could not be reached."""
        here = sorted({f"{s.attached[0]}:{s.attached[1]}" for socks in self.hub.sockets.values()
                       for s in socks if s.attached is not None})
        try:
            self.leader, elsewhere = await self.hub.lobby.store.beat(here, BEAT_TTL_MS)
        except OSError as err:
            log.warning("the tables' store could not be reached (%s): tried again at the next beat", err)
            return False
        self.present(set(elsewhere))
        return True

    def present(self, elsewhere: set[str]) -> None:
        """Seats with a page on another process count as here (not away); the pages told of a change."""
        now = self.hub.lobby.clock()
        for code, table in self.hub.lobby.tables.items():
            local = {s.attached[1] for s in self.hub.sockets.get(code, ()) if s.attached is not None}
            changed = False
            for i, seat in enumerate(table.seats):
                count = sum(1 for s in self.hub.sockets.get(code, ()) if s.attached == (code, i))
                there = f"{code}:{i}" in elsewhere and i not in local
                want = count + (1 if there else 0)
                if want != seat.connected:
                    changed = True
                    seat.connected = want
                    seat.away_since = None if want else now
            if changed:
                self.hub.push(code)
        self.elsewhere = elsewhere


__all__ = ["BEAT_TTL_MS", "Sharing"]
