"""Tables saved as JSON files in one directory the server owns.

The directory is the server's choice only (``--tables-dir`` / ``DUNGEON_GUILDS_TABLES_DIR``,
default :func:`default_dir`); file names are the table codes the server drew itself, never a
text a visitor sent. Each change rewrites the table's file atomically (a temporary file,
``fsync``, then ``os.replace``), so a server stopped at any moment — or a disk that fills up —
leaves every table as it was after its last complete change; a write that fails raises
:class:`OSError` and the old file stays (the lobby then puts the table back as it was). A
closed table's file moves to ``closed/`` (kept for the teacher's records). A file that cannot be
read back as a table (broken JSON, or JSON that is not a table: ``[]``, ``null``, a malformed
``pending``) is moved to ``damaged/`` with a message in the log, and the other tables start.
A file that reads as a table is checked before it is served (issue 51, item 3; :func:`check_table`):
its ``code`` is a table code and the file's own name, no other file holds that code, its seats are
as many as the record's players, and its secret choices (R2.4) and Continue presses name its seats;
a file that fails is moved aside the same way, so one bad file never reaches the 2-second tick.

**The store's contract** (issue 52; the same tests run against :class:`TableStore` and
:class:`~.store_redis.RedisStore`, tests/tables/test_store_contract.py). Besides the sync calls the
lobby makes (``known``, ``save``, ``close``, ``load_all``, ``load_closed``), the server calls:

* ``await commit(code, text, version)``: the table's new text stored before anyone is told of it,
  only if the stored version is still the one this store last read or wrote for ``code`` (none for
  a new table); else :class:`Conflict` (another process changed it: ``await fetch(code)`` and try
  again) and nothing is stored;
* ``await fetch(code)``: the table as stored now (None once closed or never opened);
* ``await versions()``: every open table's stored version (a process that missed an announcement
  catches up);
* ``await beat(here, ttl_ms)``: this process is alive with pages on the seats ``here``
  (``"CODE:seat"``) for ``ttl_ms``; answers (this process leads, the seats with a page on another
  process): the JSON files are one process, which leads;
* ``listen(callback, presence)``: ``callback(code, version, text)`` for each change another store
  of the same tables commits, in the order committed, with the table's text (``version`` and
  ``text`` None: the table closed); ``presence(code)`` when another
  process ``await announce_presence(code)`` (its pages of that table came or went). The JSON files are one process's tables:
  only stores of one process on one directory hear each other (:data:`_LISTENERS`); Redis
  announces by pub/sub to every process.

:func:`.store_choice.open_store` picks the store from ``--tables-store`` (``redis://HOST:PORT/N``;
redis is imported only then) or the directory.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import re
import uuid
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Callable

from .table import MAX_SEATS, MIN_SEATS, Table

ENV = "DUNGEON_GUILDS_TABLES_DIR"
CODE_RE = re.compile(r"^[A-Z0-9]{4,12}$")
log = logging.getLogger(__name__)
_LISTENERS: dict[Path, list[tuple[str, Callable]]] = {}  # a directory -> its stores' listeners (one process)
_ON_DISK: dict[Path, dict[str, int]] = {}  # a directory -> each open table's version written or read there


class Conflict(Exception):
    """Another process changed the table since this store last read or wrote it: nothing stored."""

    def __init__(self, code: str, stored: int | None):
        super().__init__(f"table {code} is at version {stored} in the store")
        self.code, self.stored = code, stored


def default_dir() -> Path:
    """``$DUNGEON_GUILDS_TABLES_DIR``, else ``$XDG_DATA_HOME/dungeon-guilds/tables`` (that is
    ``~/.local/share/dungeon-guilds/tables``)."""
    if os.environ.get(ENV):
        return Path(os.environ[ENV])
    base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    return base / "dungeon-guilds" / "tables"


def write_atomically(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` so that a reader finds the old file or the new one, never half
    of one (a temporary file, ``fsync``, ``os.replace``); :class:`OSError` if it could not be."""
    tmp = path.with_suffix(".tmp")
    try:
        with open(tmp, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def check_table(table: Table, name: str, codes: set[str]) -> None:
    """:class:`ValueError` (the reason) unless ``table``, read from the file ``name``.json, can be
    served beside the tables of ``codes``: a well-formed code that is the file's name and no
    other table's, 3 to 6 seats (as many as the record's players once the game has begun), secret
    setup choices (R2.4) and Continue presses of its own seats only."""
    if not CODE_RE.match(table.code):
        raise ValueError(f"code {table.code[:40]!r} is not a table code")
    if table.code != name:
        raise ValueError(f"code {table.code!r} is not the file's name {name!r}")
    if table.code in codes:
        raise ValueError(f"code {table.code!r} is another table's")
    seats = len(table.seats)
    if not MIN_SEATS <= seats <= MAX_SEATS:
        raise ValueError(f"{seats} seats (a table has {MIN_SEATS} to {MAX_SEATS})")
    if table.game is not None and table.game.n_players != seats:
        raise ValueError(f"{seats} seats but the record has {table.game.n_players} players")
    if table.game is not None and list(table.game.names) != table.names():
        raise ValueError("the seats' names are not the record's players")
    strays = [s for s in (*table.pending, *table.ready) if not 0 <= s < seats]
    if strays:
        raise ValueError(f"seat {strays[0]} of {seats} chose or pressed Continue")


class TableStore:
    """The JSON files of one directory (the default: one process, nothing to install)."""

    shared = False  # one process's tables: --workers needs a store every process shares

    def __init__(self, directory: Path | str | None = None):
        self.dir = Path(directory) if directory else default_dir()
        self.dir.mkdir(parents=True, exist_ok=True)
        (self.dir / "closed").mkdir(exist_ok=True)
        self.seen: dict[str, int] = {}  # code -> the version this store last read or wrote
        self.me = uuid.uuid4().hex
        self.io: ThreadPoolExecutor | None = None  # writes (with their fsync) off the event loop

    def _path(self, code: str, folder: str = "") -> Path:
        if not CODE_RE.match(code):  # codes are the server's own; refuse anything else outright
            raise ValueError(f"not a table code: {code!r}")
        return self.dir / folder / f"{code}.json"

    def known(self, code: str) -> bool:
        return self._path(code).exists() or self._path(code, "closed").exists()

    def save(self, table: Table) -> str:
        """Write ``table`` (returns the text written); :class:`OSError` if it could not be."""
        text = json.dumps(table.to_dict(), ensure_ascii=False)
        self.write(table.code, text)
        self._saw(table.code, table.version)
        return text

    def write(self, code: str, text: str) -> None:
        write_atomically(self._path(code), text)

    def close(self, table: Table) -> None:
        self.save(table)
        os.replace(self._path(table.code), self._path(table.code, "closed"))
        self.seen.pop(table.code, None)
        _ON_DISK.setdefault(self.dir.resolve(), {}).pop(table.code, None)
        self._announce(table.code, None, None)

    async def commit(self, code: str, text: str, version: int) -> None:
        """See the module's contract: written in a thread (a write with its ``fsync`` takes
        milliseconds), then announced to this directory's other stores."""
        if self._stored_version(code) != self.seen.get(code):
            raise Conflict(code, self._stored_version(code))
        self.io = self.io or ThreadPoolExecutor(max_workers=4, thread_name_prefix="table-save")
        await asyncio.get_running_loop().run_in_executor(self.io, self.write, code, text)
        self._saw(code, version)
        self._announce(code, version, text)

    def _stored_version(self, code: str) -> int | None:
        """The version on disk (as the stores of this process wrote or read it; the JSON files are
        one process's), None if no open table has that code."""
        return _ON_DISK.setdefault(self.dir.resolve(), {}).get(code) if self._path(code).exists() else None

    def _saw(self, code: str, version: int) -> None:
        self.seen[code] = _ON_DISK.setdefault(self.dir.resolve(), {})[code] = version

    async def fetch(self, code: str) -> Table | None:
        try:
            table = Table.from_dict(json.loads(self._path(code).read_text("utf-8")))
        except FileNotFoundError:
            return None
        self._saw(code, table.version)
        return table

    async def versions(self) -> dict[str, int]:
        return {t.code: t.version for t in self.load_all()}

    async def beat(self, here: list[str], ttl_ms: int) -> tuple[bool, list[str]]:
        """(this process leads, the seats with a page on another process): one process, so it
        leads and no seat is elsewhere."""
        return True, []

    async def announce_presence(self, code: str) -> None:
        """One process: nobody else to tell that its pages came or went."""

    def listen(self, callback: Callable[[str, int | None, str | None], None], presence: Callable[[str], None] | None = None) -> None:
        _LISTENERS.setdefault(self.dir.resolve(), []).append((self.me, callback))

    def _announce(self, code: str, version: int | None, text: str | None) -> None:
        for who, callback in list(_LISTENERS.get(self.dir.resolve(), ())):
            if who != self.me:
                callback(code, version, text)

    async def aclose(self) -> None:
        """Stop listening; the writes' thread ends."""
        heard = _LISTENERS.get(self.dir.resolve(), [])
        heard[:] = [(w, cb) for w, cb in heard if w != self.me]
        if self.io is not None:
            self.io.shutdown(wait=True)

    def _aside(self, path: Path, err: Exception) -> None:
        aside = self.dir / "damaged"
        aside.mkdir(exist_ok=True)
        try:
            os.replace(path, aside / path.name)
            log.error("table file %s is not a table (%s): moved to %s; the other tables start", path, err, aside)
        except OSError as move_err:
            log.error("table file %s is not a table (%s) and could not be moved aside (%s); it is skipped",
                      path, err, move_err)

    def _read(self, folder: str) -> list[Table]:
        out: list[Table] = []
        for path in sorted((self.dir / folder).glob("*.json")):
            try:
                data = json.loads(path.read_text("utf-8"))
                if not isinstance(data, dict):
                    raise ValueError(f"JSON {type(data).__name__}, not an object")
                table = Table.from_dict(data)
                check_table(table, path.stem, {t.code for t in out})
                out.append(table)
                if not folder:
                    self._saw(table.code, table.version)
            except OSError as err:
                log.warning("table file %s could not be read and is left alone: %s", path, err)
            except (ValueError, KeyError, TypeError, AttributeError, IndexError, RecursionError) as err:
                self._aside(path, err)
        return out

    def load_all(self) -> list[Table]:
        """The open tables saved here."""
        return self._read("")

    def load_closed(self) -> list[Table]:
        return self._read("closed")


__all__ = ["Conflict", "ENV", "TableStore", "check_table", "default_dir", "write_atomically"]
