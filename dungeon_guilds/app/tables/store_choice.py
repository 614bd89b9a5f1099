"""Which store holds the class tables (issue 52): the server asks :func:`open_store` once, at start.

The JSON files (:class:`~.store.TableStore`) unless ``--tables-store`` or
``$DUNGEON_GUILDS_TABLES_STORE`` names a Redis (:class:`~.store_redis.RedisStore`); redis-py is
imported only then, so a laptop's ``pip install`` + ``dungeon-guilds dashboard`` needs nothing else.
"""

from __future__ import annotations

import os
from pathlib import Path

from .store import TableStore

STORE_ENV = "DUNGEON_GUILDS_TABLES_STORE"


def open_store(spec: str | None = None, directory: Path | str | None = None):
    """The tables' store: ``spec`` (``--tables-store``, else ``$DUNGEON_GUILDS_TABLES_STORE``) a
    ``redis://HOST:PORT/N`` URL, else the JSON files of ``directory``."""
    spec = spec if spec is not None else os.environ.get(STORE_ENV, "").strip()
    if not spec:
        return TableStore(directory)
    if not spec.startswith(("redis://", "rediss://", "unix://")):
        raise SystemExit(f"--tables-store {spec!r}: expected redis://HOST:PORT/N (or nothing: the JSON files)")
    from .store_redis import RedisStore

    return RedisStore(spec, directory)


__all__ = ["STORE_ENV", "open_store"]
