"""Issue 51, item 3: one table's trouble stays at its table. Every kind of table file that loads
but is malformed (seats that do not match the record's players, a code like ``../../X`` or
``ab cd``, a code that is not the file's name, a code another file holds, a secret choice of a
seat the table does not have) is moved to ``damaged/`` with a message, and the 2-second tick
handles each table on its own: a table whose tick raises is logged once (not at every tick) while
an away seat's bot at another table still plays in time (R2.4: its secret setup choice)."""

from __future__ import annotations

import asyncio
import json
import logging
import time

import pytest

from dungeon_guilds.app import table_server
from dungeon_guilds.app.table_server import make_app, start_ticks
from dungeon_guilds.app.tables.store import TableStore
from dungeon_guilds.app.tables.table import Table
from dungeon_guilds.rules import Rules

from tables_helpers import Clock, lobby_in


def saved(store: TableStore, code: str, seats: int = 3, now: float = 1000.0) -> dict:
    """A table ``code`` saved in ``store`` (every seat a person, the game at its secret setup),
    opened at ``now``; its file's JSON."""
    table, _ = Table.open(code, seats, "Ann", Rules(), None, now, seed=7)
    for name in ("Bo", "Cy", "Di", "Ed", "Flo")[: seats - 1]:
        table.join(name, now)
    store.save(table)
    return json.loads((store.dir / f"{code}.json").read_text())


def plant(store: TableStore, kind: str, name: str = "BADBAD") -> str:
    """A file of the bad ``kind`` in ``store``, named ``name`` unless the kind is a wrong name;
    returns its name (without ``.json``)."""
    data = saved(store, name)
    (store.dir / f"{name}.json").unlink()
    if kind == "seats_not_record":
        data["seats"] = data["seats"][:2] + data["seats"][:2]  # 4 seats, the record's 3 players
        data["seats"][3] = {**data["seats"][2], "name": "Zed"}
    elif kind == "code_path":
        data["code"] = "../../X"
    elif kind == "code_space":
        data["code"] = "ab cd"
    elif kind == "code_not_name":
        data["code"] = "CCCCCC"
    elif kind == "code_twice":
        data["code"] = "GOODGD"  # the good table's code, in a second file
    elif kind == "pending_stray":
        data["pending"] = {"5": [1, 2]}
    (store.dir / f"{name}.json").write_text(json.dumps(data))
    return name


KINDS = ("seats_not_record", "code_path", "code_space", "code_not_name", "code_twice", "pending_stray")


@pytest.mark.parametrize("kind", KINDS)
def test_a_table_file_that_loads_but_is_malformed_is_moved_aside(tmp_path, kind, caplog):
    store = TableStore(tmp_path)
    saved(store, "GOODGD")
    name = plant(store, kind)
    lobby = lobby_in(tmp_path)
    assert list(lobby.tables) == ["GOODGD"]
    assert (tmp_path / "damaged" / f"{name}.json").exists() and not (tmp_path / f"{name}.json").exists()
    assert f"{name}.json is not a table" in caplog.text


def fault(now, away_s):
    """A table's tick that raises, as the probe's malformed files did (issue 51)."""
    raise IndexError("list index out of range")


def test_one_tables_exception_at_the_tick_is_logged_once_and_stops_no_other(tmp_path, caplog):
    store = TableStore(tmp_path)
    saved(store, "AAAAAA")  # first in the tick's order
    saved(store, "ZZZZZZ")
    clock = Clock()
    lobby = lobby_in(tmp_path, clock=clock, away_s=10)
    broken = lobby.tables["AAAAAA"]
    broken.play_bots = fault  # its tick raises, every time
    clock.now += 11
    for _ in range(5):
        lobby.tick()
        clock.now += 2
    assert not lobby.tables["ZZZZZZ"].in_setup  # the away seats' bot chose for every seat there
    assert caplog.text.count("class table AAAAAA: the tick failed") == 1
    assert ("AAAAAA", "the tick") in lobby.trouble


async def _server_with_bad_files(tmp_path, monkeypatch):
    store = TableStore(tmp_path)
    saved(store, "AAAAAA", now=time.time())
    saved(store, "GOODGD", now=time.time())
    for i, kind in enumerate(KINDS):  # every kind of bad file at once, each its own name
        plant(store, kind, f"BAD{i + 2}XX")
    monkeypatch.setenv("DUNGEON_GUILDS_TABLE_AWAY", "0.5")
    monkeypatch.setattr(table_server, "TICK_MS", 200)
    app = make_app(tmp_path, code="teacher-owl-42")
    hub = app.hub
    assert sorted(hub.lobby.tables) == ["AAAAAA", "GOODGD"]
    hub.lobby.tables["AAAAAA"].play_bots = fault  # a fault at its every tick, before the good table's turn
    ticker = start_ticks(hub)
    try:
        for k in range(40):  # the away seats' bot chooses within 0.5 s + a tick or two
            await asyncio.sleep(0.1)
            if not hub.lobby.tables["GOODGD"].in_setup:
                return (k + 1) * 0.1
        return None
    finally:
        ticker.stop()
        hub.close()


def test_an_away_bot_plays_in_time_beside_bad_files_and_a_failing_table(tmp_path, monkeypatch, caplog):
    caplog.set_level(logging.ERROR)
    played_after = asyncio.run(_server_with_bad_files(tmp_path, monkeypatch))
    assert played_after is not None and played_after <= 2.0
    assert len(list((tmp_path / "damaged").glob("*.json"))) == len(KINDS)
    assert caplog.text.count("class table AAAAAA: the tick failed") == 1
