"""Class tables in Redis (issue 52): every process of a school's servers serves any seat.

``--tables-store redis://HOST:PORT/N`` (or ``$DUNGEON_GUILDS_TABLES_STORE``) gives the server a
:class:`RedisStore` instead of the JSON files (:class:`~.store.TableStore`); the contract is the
same (:mod:`.store`'s docstring; one test suite runs against both). Layout, under the prefix
``dg:`` of database N:

* ``dg:t:<CODE>`` a hash ``{text, version}``: the table's JSON, as the files hold it;
* ``dg:open`` the set of open codes; ``dg:closed:<CODE>`` a closed table's hash (the teacher's records);
* ``dg:leader`` the process that runs the tick (away seats' bots, idle closing), ``dg:procs`` and
  ``dg:here:<process>`` the seats with a page on each process (expiring: :meth:`RedisStore.beat`);
* channel ``dg:changes``: ``<CODE> <version> <writer>``, a newline and the table's text after each
  change (``closed`` for a closed table; ``here`` when a process's pages of it came or went): every
  process gets every version, in the order stored, without asking for it.

A change is stored before anyone is told: :data:`COMMIT` (a Lua script, run by Redis as one step)
stores the new text only if the stored version is the one this store last read or wrote, then
publishes it, so two processes changing one table at once cannot both win (the loser gets
:class:`~.store.Conflict`, fetches the table and tries the message again). Durability is Redis's:
run it with ``--appendonly yes --appendfsync always`` (tools/school_redis.sh, compose.yaml) and a
change announced is on disk. The lobby's sync calls (start, closing an idle table) use redis-py's
blocking client; the server's path (commit, fetch, pub/sub) its asyncio client (``redis.asyncio``).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import uuid
from pathlib import Path
from typing import Callable

import redis
import redis.asyncio as aredis

from .store import CODE_RE, Conflict, check_table, default_dir
from .table import Table

PREFIX = "dg:"
CHANNEL = PREFIX + "changes"
CONNECTIONS = 16  # a process's connections to Redis for its changes (and one for the announcements)
log = logging.getLogger(__name__)

# KEYS: the table's hash, the open set; ARGV: text, version, the version expected ("" none, "*" any), channel, message, code
COMMIT = """
local stored = redis.call('HGET', KEYS[1], 'version')
if ARGV[3] ~= '*' and (stored or '') ~= ARGV[3] then return stored or '' end
redis.call('HSET', KEYS[1], 'text', ARGV[1], 'version', ARGV[2])
redis.call('SADD', KEYS[2], ARGV[6])
redis.call('PUBLISH', ARGV[4], ARGV[5])
return false
"""
# KEYS: the table's hash, its closed hash, the open set; ARGV: text, version, code, channel, message
CLOSE = """
redis.call('HSET', KEYS[1], 'text', ARGV[1], 'version', ARGV[2])
redis.call('RENAME', KEYS[1], KEYS[2])
redis.call('SREM', KEYS[3], ARGV[3])
redis.call('PUBLISH', ARGV[4], ARGV[5])
return 1
"""

# KEYS: the leader's key, the processes' set, this process's seats; ARGV: me, ttl (ms), seats (JSON), prefix
BEAT = """
local lead = redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2])
if not lead and redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  lead = true
end
redis.call('SET', KEYS[3], ARGV[3], 'PX', ARGV[2])
redis.call('SADD', KEYS[2], ARGV[1])
local others = {}
for _, p in ipairs(redis.call('SMEMBERS', KEYS[2])) do
  if p ~= ARGV[1] then
    local seats = redis.call('GET', ARGV[4] .. 'here:' .. p)
    if seats then table.insert(others, seats) else redis.call('SREM', KEYS[2], p) end
  end
end
return {lead and 1 or 0, others}
"""


class RedisStore:
    """The tables of one Redis database, shared by every process that opens the same URL.
    ``directory``: this process's own files beside the tables (the class reviews)."""

    shared = True

    def __init__(self, url: str, directory: Path | str | None = None):
        self.url = url
        self.dir = Path(directory) if directory else default_dir()
        self.dir.mkdir(parents=True, exist_ok=True)
        self.me = uuid.uuid4().hex[:12]
        self.seen: dict[str, int] = {}
        self.sync = redis.Redis.from_url(url, socket_timeout=5)
        self._async: aredis.Redis | None = None
        self._listening: asyncio.Task | None = None
        self._commit = self.sync.register_script(COMMIT)
        self._close = self.sync.register_script(CLOSE)
        self._beat = self.sync.register_script(BEAT)

    def __repr__(self) -> str:
        return f"RedisStore({self.url!r})"

    @property
    def client(self) -> aredis.Redis:
        """The asyncio client, made on the running loop that first asks (after a fork: the child's)."""
        if self._async is None:  # at most CONNECTIONS at once: a change waits for one (never refused)
            pool = aredis.BlockingConnectionPool.from_url(self.url, max_connections=CONNECTIONS, timeout=5,
                                                          socket_timeout=5)
            self._async = aredis.Redis(connection_pool=pool)
        return self._async

    @staticmethod
    def _key(code: str, folder: str = "t") -> str:
        if not CODE_RE.match(code):  # codes are the server's own; refuse anything else outright
            raise ValueError(f"not a table code: {code!r}")
        return f"{PREFIX}{folder}:{code}"

    def known(self, code: str) -> bool:
        return bool(self.sync.exists(self._key(code), self._key(code, "closed")))

    def _args(self, code: str, text: str, version: int, expected: str) -> tuple[list, list]:
        return ([self._key(code), PREFIX + "open"],
                [text, version, expected, CHANNEL, f"{code} {version} {self.me}\n{text}", code])

    def save(self, table: Table) -> str:
        """Store ``table`` whatever version is stored (the lobby's own saves); :class:`OSError` if
        Redis cannot be reached (the lobby then puts the table back)."""
        text = json.dumps(table.to_dict(), ensure_ascii=False)
        self.write(table.code, text, table.version)
        return text

    def write(self, code: str, text: str, version: int | None = None) -> None:
        version = json.loads(text)["version"] if version is None else version
        keys, args = self._args(code, text, version, "*")
        try:
            self._commit(keys=keys, args=args)
        except redis.RedisError as err:
            raise OSError(f"redis: {err}") from err
        self.seen[code] = version

    def close(self, table: Table) -> None:
        text = json.dumps(table.to_dict(), ensure_ascii=False)
        try:
            self._close(keys=[self._key(table.code), self._key(table.code, "closed"), PREFIX + "open"],
                        args=[text, table.version, table.code, CHANNEL, f"{table.code} closed {self.me}"])
        except redis.RedisError as err:
            raise OSError(f"redis: {err}") from err
        self.seen.pop(table.code, None)

    async def _run(self, script, source: str, keys: list, args: list):
        """A Lua script by its digest (its source the first time this Redis sees it); OSError if unreachable."""
        try:
            try:
                return await self.client.evalsha(script.sha, len(keys), *keys, *args)
            except redis.exceptions.NoScriptError:
                return await self.client.eval(source, len(keys), *keys, *args)
        except redis.RedisError as err:
            raise OSError(f"redis: {err}") from err

    async def commit(self, code: str, text: str, version: int) -> None:
        """Stored (and announced) only if Redis holds the version this store last saw; else :class:`Conflict`."""
        expected = "" if code not in self.seen else str(self.seen[code])
        keys, args = self._args(code, text, version, expected)
        stored = await self._run(self._commit, COMMIT, keys, args)
        if stored is not None:
            raise Conflict(code, int(stored) if stored else None)
        self.seen[code] = version

    async def beat(self, here: list[str], ttl_ms: int) -> tuple[bool, list[str]]:
        """This process alive with pages on the seats ``here`` for ``ttl_ms``; (it leads, the seats
        with a page on another process still alive)."""
        keys = [PREFIX + "leader", PREFIX + "procs", f"{PREFIX}here:{self.me}"]
        lead, others = await self._run(self._beat, BEAT, keys, [self.me, ttl_ms, json.dumps(here), PREFIX])
        return bool(lead), [seat for seats in others for seat in json.loads(seats)]

    async def fetch(self, code: str) -> Table | None:
        try:
            text = await self.client.hget(self._key(code), "text")
        except redis.RedisError as err:
            raise OSError(f"redis: {err}") from err
        if text is None:
            self.seen.pop(code, None)
            return None
        table = Table.from_dict(json.loads(text))
        self.seen[code] = table.version
        return table

    async def versions(self) -> dict[str, int]:
        try:
            codes = sorted(c.decode() for c in await self.client.smembers(PREFIX + "open"))
            async with self.client.pipeline(transaction=False) as pipe:
                for code in codes:
                    pipe.hget(self._key(code), "version")
                found = await pipe.execute()
        except redis.RedisError as err:
            raise OSError(f"redis: {err}") from err
        return {c: int(v) for c, v in zip(codes, found) if v is not None}

    def _read(self, folder: str) -> list[Table]:
        if folder == "t":
            codes = sorted(c.decode() for c in self.sync.smembers(PREFIX + "open"))
        else:
            codes = sorted(k.decode()[len(PREFIX + folder) + 1:] for k in self.sync.scan_iter(f"{PREFIX}{folder}:*"))
        out: list[Table] = []
        for code in codes:
            text = self.sync.hget(self._key(code, folder), "text")
            try:
                table = Table.from_dict(json.loads(text))
                check_table(table, code, {t.code for t in out})
            except (ValueError, KeyError, TypeError, AttributeError, IndexError, RecursionError) as err:
                log.error("table %s in %s is not a table (%s): left out; the other tables start", code, self.url, err)
                continue
            out.append(table)
            if folder == "t":
                self.seen[code] = table.version
        return out

    def load_all(self) -> list[Table]:
        return self._read("t")

    def load_closed(self) -> list[Table]:
        return self._read("closed")

    def listen(self, callback: Callable[[str, int | None, str | None], None], presence: Callable[[str], None] | None = None) -> None:
        """``callback(code, version, text)`` for each change another process stores, ``presence(code)``
        when another process's pages of a table come or go (from a task on the running loop; a
        lost connection is logged and subscribed again after half a second: the server's beat
        compares :meth:`versions` to catch up what was missed)."""
        self._listening = asyncio.ensure_future(self._listen(callback, presence))

    async def announce_presence(self, code: str) -> None:
        """Tell the other processes that this one's pages of ``code`` came or went."""
        try:
            await self.client.publish(CHANNEL, f"{code} here {self.me}")
        except redis.RedisError as err:
            log.warning("could not announce the pages of table %s (%s): the others see them at their beat", code, err)

    async def _listen(self, callback, presence) -> None:
        while True:
            try:
                async with self.client.pubsub() as pubsub:
                    await pubsub.subscribe(CHANNEL)
                    async for msg in pubsub.listen():
                        if msg.get("type") == "message":
                            self._heard(msg["data"].decode(), callback, presence)
            except (redis.RedisError, OSError) as err:
                log.warning("table announcements from %s lost (%s): subscribing again", self.url, err)
                await asyncio.sleep(0.5)

    def _heard(self, data: str, callback, presence) -> None:
        head, _, text = data.partition("\n")
        code, version, writer = head.split(" ")
        if writer == self.me:
            return
        if version == "here":
            if presence is not None:
                presence(code)
        else:
            callback(code, None, None) if version == "closed" else callback(code, int(version), text)

    async def aclose(self) -> None:
        if self._listening is not None:
            self._listening.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._listening
        if self._async is not None:
            await self._async.aclose()
        self.sync.close()


__all__ = ["CHANNEL", "COMMIT", "PREFIX", "RedisStore"]
