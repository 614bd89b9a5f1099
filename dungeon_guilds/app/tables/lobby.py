"""Every class table of one server: codes, limits, saving, idle closing, away seats.

* **Codes** are 6 characters from 31 letters and digits that cannot be mistaken for each other
  (no 0/O, 1/I/L): 31⁶ ≈ 8.9·10⁸ codes, drawn by :mod:`secrets`. With 30 tables open one guess in
  about 3·10⁷ names a table. Wrong guesses are counted per client address
  (:class:`~.limits.PerAddress`, kept by the server: reconnecting does not reset it): 20 at once,
  then one every 30 seconds, so one address needs about 3·10⁷ × 30 s ≈ 28 years for one lucky guess.
* **Limits.** At most ``max_tables`` open tables (``DUNGEON_GUILDS_MAX_TABLES``, default
  :data:`MAX_TABLES`); beyond it opening is refused in plain words. A table with no move and no
  join for ``idle_s`` seconds (``DUNGEON_GUILDS_TABLE_IDLE``, default :data:`IDLE_S`, 3 hours)
  closes: a finished game stays in the teacher's records, an unfinished one is set aside.
* **Away seats.** A person whose pages have all gone for ``away_s`` seconds
  (``DUNGEON_GUILDS_TABLE_AWAY``, default :data:`AWAY_S`, 2 minutes) has their turns played by a
  bot until a page of theirs (their token) comes back; the seat stays theirs.
* **Saving.** Every change is written by :class:`~.store.TableStore` before anyone is told of
  it (:meth:`Lobby.save`); if the write fails (a full disk) the table in memory is put back as it
  was saved last and the change is refused in plain words (``not_saved``). At start the lobby
  reads every table back, so a server restart loses no game.
* **Per address.** At most ``tables_per_address`` open tables opened from one client address
  (``DUNGEON_GUILDS_TABLES_PER_ADDRESS``, default 4: one student cannot take every slot).
* **One table's trouble stays at its table** (issue 51, item 3). The tick handles each table on
  its own (:meth:`Lobby.alone`): an exception at one table is logged once (again only when it
  changes or after the table was well) and the other tables' bots and round limits go on.
"""

from __future__ import annotations

import json
import logging
import os
import secrets
import time
from contextlib import contextmanager
from typing import Any, Callable

from ...cards import Deck
from ...rules import Rules
from .refusal import TableRefusal
from .store import TableStore
from .table import Table

ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LEN = 6
MAX_TABLES = 30
IDLE_S = 3 * 3600
AWAY_S = 120
TABLES_PER_ADDRESS = 4
log = logging.getLogger(__name__)


def env_number(name: str, default: float) -> float:
    raw = os.environ.get(name, "").strip()
    try:
        return float(raw) if raw else default
    except ValueError:
        raise SystemExit(f"{name}={raw!r}: expected a number") from None


class Lobby:
    """The tables of one server (pure Python: no network; the server calls it)."""

    def __init__(self, store: TableStore, max_tables: int = MAX_TABLES, idle_s: float = IDLE_S,
                 away_s: float = AWAY_S, clock: Callable[[], float] = time.time, think_off_loop: bool = False,
                 tables_per_address: int = TABLES_PER_ADDRESS):
        self.store, self.max_tables, self.idle_s, self.away_s, self.clock = store, max_tables, idle_s, away_s, clock
        self.think_off_loop = think_off_loop  # the server's: slow bots think off its event loop
        self.tables_per_address = tables_per_address
        self.tables: dict[str, Table] = {t.code: t for t in store.load_all()}
        self.saved: dict[str, str] = {}  # each table as last written (put back if a later write fails)
        self.owners: dict[str, str] = {}  # table code -> the address that opened it (not saved)
        self.deferred: list[Table] | None = None  # see deferring()
        self.trouble: dict[tuple[str, str], str] = {}  # (code, work) -> the exception it last raised (logged once)
        self.reviews = None  # the server's ClassReviews (table_server.TableHub): a seat's own review (issue 50)
        now = clock()
        for table in self.tables.values():  # read back after a restart: nobody is here yet
            self._arrived(table, now)
            self.saved[table.code] = json.dumps(table.to_dict(), ensure_ascii=False)

    def _arrived(self, table: Table, now: float) -> None:
        table.think_off_loop = self.think_off_loop
        if table.showing is not None:  # a round shown when the server stopped: shown again from now
            table.showing_since = now
        for seat in table.seats:
            seat.away_since = now  # a person who never comes back is played by a bot after away_s

    @classmethod
    def from_env(cls, store: TableStore, think_off_loop: bool = False) -> "Lobby":
        return cls(store, int(env_number("DUNGEON_GUILDS_MAX_TABLES", MAX_TABLES)),
                   env_number("DUNGEON_GUILDS_TABLE_IDLE", IDLE_S), env_number("DUNGEON_GUILDS_TABLE_AWAY", AWAY_S),
                   think_off_loop=think_off_loop)

    def new_code(self) -> str:
        while True:
            code = "".join(secrets.choice(ALPHABET) for _ in range(CODE_LEN))
            if code not in self.tables and not self.store.known(code):
                return code

    def open(self, seats: Any, name: Any, rules: Rules, deck: Deck | None, lord=None,
             owner: str | None = None) -> tuple[Table, str]:
        """A new table (saved before it is told); ``owner``: the client address opening it."""
        self.check_open(owner)
        table, token = Table.open(self.new_code(), seats, name, rules, deck, self.clock(), lord=lord)
        table.think_off_loop = self.think_off_loop
        self.tables[table.code] = table
        self.save(table)
        if owner is not None:
            self.owners[table.code] = owner
        return table, token

    def check_open(self, owner: str | None) -> None:
        """Refused unless one more table may open, from ``owner`` (the client address): the
        server's limit and the address's. Cheap: the server asks it before it reads a deck."""
        open_now = sum(not t.is_over for t in self.tables.values())
        if open_now >= self.max_tables:
            raise TableRefusal("too_many_tables", most=self.max_tables)
        if owner is not None and sum(self.owners.get(c) == owner and not t.is_over
                                     for c, t in self.tables.items()) >= self.tables_per_address:
            raise TableRefusal("too_many_yours", most=self.tables_per_address)

    def leave(self, code: str, owner: str | None) -> None:
        """The page of ``owner`` (a client address) has left table ``code``: if that address
        opened it, the table no longer counts among its ``tables_per_address`` (issue 51, item 5:
        at once, not after the idle time)."""
        if owner is not None and self.owners.get(code) == owner:
            del self.owners[code]

    def table(self, code: Any) -> Table:
        if not isinstance(code, str) or len(code) > 20:
            raise TableRefusal("no_such_table")
        table = self.tables.get(code.strip().upper())
        if table is None:
            raise TableRefusal("no_such_table")
        return table

    def save(self, table: Table) -> None:
        """Write ``table`` before anyone is told of its change. If the write fails, the table
        in memory is put back as it was last saved (a new table is dropped) and the change is
        refused (``not_saved``): nobody was told of it, nothing is lost. While :meth:`deferring`,
        the table is only listed: the server writes it off its event loop before telling anyone
        (``TableHub.save_all``)."""
        if self.deferred is not None:
            if table not in self.deferred:
                self.deferred.append(table)
            return
        try:
            self.saved[table.code] = self.store.save(table)
        except OSError as err:
            log.error("class table %s could not be saved (%s): the change is undone", table.code, err)
            self._put_back(table)
            raise TableRefusal("not_saved") from None

    @contextmanager
    def deferring(self):
        """Within: :meth:`save` lists the tables changed (the list given) instead of writing them."""
        self.deferred = []
        try:
            yield self.deferred
        finally:
            self.deferred = None

    def put_back(self, table: Table) -> None:
        """The table as it was last saved (after a write that failed; a new table is dropped)."""
        self._put_back(table)

    def _put_back(self, table: Table) -> None:
        before = self.saved.get(table.code)
        if before is None:
            self.tables.pop(table.code, None)
            return
        again = Table.from_dict(json.loads(before))
        again.think_off_loop, again.resumed = self.think_off_loop, table.resumed
        again.showing_since = table.showing_since if again.showing == table.showing else self.clock()
        for old, new in zip(table.seats, again.seats):
            new.connected, new.away_since = old.connected, old.away_since
        self.tables[table.code] = again

    @contextmanager
    def alone(self, code: str, what: str):
        """Within: the work of the tick (``what``) for the table ``code``; an exception is logged
        (once while it stays the same) and swallowed, so that the other tables are not stopped."""
        try:
            yield
        except Exception as err:  # noqa: BLE001 - one table's fault stays at its table (issue 51, item 3)
            said = f"{type(err).__name__}: {err}"
            if self.trouble.get((code, what)) != said:
                self.trouble[code, what] = said
                log.exception("class table %s: %s failed (logged once; the other tables go on)", code, what)
        else:
            self.trouble.pop((code, what), None)

    def tick(self, busy: frozenset[str] | set[str] = frozenset()) -> list[Table]:
        """Close idle tables and let bots play away seats' turns; the tables that changed
        (``busy``: codes of tables being written now, left for the next tick). Each table on its
        own (:meth:`alone`)."""
        now = self.clock()
        changed: list[Table] = []
        for code, table in list(self.tables.items()):
            if code not in busy:
                with self.alone(code, "the tick"):
                    self._tick_one(code, table, now, changed)
        for key in [k for k in self.trouble if k[0] not in self.tables]:
            del self.trouble[key]
        return changed

    def _tick_one(self, code: str, table: Table, now: float, changed: list[Table]) -> None:
        if now - table.last_active >= self.idle_s:
            try:
                self.store.close(table)
            except OSError as err:
                log.error("idle class table %s could not be closed (%s): kept open", code, err)
                return
            del self.tables[code]
            self.saved.pop(code, None)
            return
        if table.game is not None and table.play_bots(now, self.away_s):
            try:
                self.save(table)
            except TableRefusal:
                return  # put back as saved; tried again at the next tick
            changed.append(table)

    def listing(self) -> list[dict[str, Any]]:
        """One row a table for the teacher (code, rules, seats, round, gold)."""
        rows = []
        for table in sorted(self.tables.values(), key=lambda t: t.created):
            game = table.game
            rows.append({
                "code": table.code, "rules": table.rules.to_dict(),
                "deck": "reference" if table.deck.is_reference else table.deck.name,
                "lord": table.lord,  # the workshop lord in round 1 (a Lord), or None
                "seats": [{"name": s.name, "kind": s.kind, "bot": s.bot} for s in table.seats],
                "round": None if game is None else min(game.state.round + 1, game.state.rounds),
                "gold": None if game is None else list(game.state.gold),
                "over": table.is_over,
            })
        return rows


__all__ = ["ALPHABET", "AWAY_S", "CODE_LEN", "IDLE_S", "Lobby", "MAX_TABLES", "TableRefusal"]
