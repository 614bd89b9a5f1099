"""Issue 37 item 3: nothing lost, ever. A change is saved (a temporary file, fsync, rename)
before anyone is told of it; when the write fails (a full disk) the table in memory is put back
as it was and the page is told plainly, in its language, that the server could not save — the
joiner has no seat, the table is not started, nothing stale is on disk, and once the disk has
room again the same join works. A file that is not a table is moved aside and the other tables
start; a round being shown when the server stopped is shown again after the restart."""

from __future__ import annotations

import errno
import json
import os
import random
import subprocess
import sys

import pytest

from dungeon_guilds.app.tables import store as store_module
from dungeon_guilds.app.tables.lobby import Lobby
from dungeon_guilds.app.tables.protocol import Conn
from dungeon_guilds.app.tables.render import seat_message
from dungeon_guilds.app.tables.store import TableStore

from tables_helpers import NAMES, Clock, lobby_in, random_move, send


class FullDisk:
    """``os.fsync`` (the store's write) raising ENOSPC while ``full`` is set."""

    def __init__(self, monkeypatch):
        self.full = False
        real = os.fsync

        def fsync(fd):
            if self.full:
                raise OSError(errno.ENOSPC, "No space left on device")
            return real(fd)

        monkeypatch.setattr(store_module.os, "fsync", fsync)


def test_a_join_on_a_full_disk_changes_nothing_and_is_told_so(tmp_path, monkeypatch):
    disk = FullDisk(monkeypatch)
    lobby = lobby_in(tmp_path)
    conns = [Conn(lang="zh" if i == 3 else "en") for i in range(4)]
    out = send(lobby, conns[0], {"op": "open", "seats": 4, "name": "Ann"})
    code = out.reply["code"]
    for i in (1, 2):
        send(lobby, conns[i], {"op": "join", "code": code, "name": NAMES[i]})
    path = tmp_path / f"{code}.json"
    before_file, before = path.read_bytes(), lobby.tables[code].to_dict()
    disk.full = True
    out = send(lobby, conns[3], {"op": "join", "code": code, "name": "Di"})
    assert out.reply["code"] == "not_saved" and "無法儲存" in out.reply["reason"] and out.changed is None
    table = lobby.tables[code]
    assert table.to_dict() == before and table.game is None and conns[3].seat is None  # as it was
    assert path.read_bytes() == before_file and not list(tmp_path.glob("*.tmp"))
    disk.full = False  # room again: the same join works (no "name taken", no "table full")
    out = send(lobby, conns[3], {"op": "join", "code": code, "name": "Di"})
    assert out.reply["op"] == "seat" and lobby.tables[code].game is not None


def test_a_move_or_an_open_on_a_full_disk_is_undone(tmp_path, monkeypatch):
    disk = FullDisk(monkeypatch)
    lobby = lobby_in(tmp_path)
    conns = [Conn() for _ in range(3)]
    code = send(lobby, conns[0], {"op": "open", "seats": 3, "name": "Ann"}).reply["code"]
    for i in (1, 2):
        send(lobby, conns[i], {"op": "join", "code": code, "name": NAMES[i]})
    rng = random.Random(5)
    for _ in range(5):  # the setup and a move or two saved
        table = lobby.tables[code]
        seat, move = random_move(table, rng)
        send(lobby, conns[seat], {"op": "act", "action": move, "version": table.version})
    table = lobby.tables[code]
    before = table.to_dict()
    seat, move = random_move(table, rng)
    disk.full = True
    out = send(lobby, conns[seat], {"op": "act", "action": move, "version": table.version})
    assert out.reply["code"] == "not_saved" and lobby.tables[code].to_dict() == before
    opened = send(lobby, Conn(), {"op": "open", "seats": 3, "name": "Eve"})
    assert opened.reply["code"] == "not_saved" and list(lobby.tables) == [code]
    disk.full = False
    again = lobby.tables[code]
    out = send(lobby, conns[seat], {"op": "act", "action": move, "version": again.version})
    assert out.changed is again  # the same move, taken now


def test_a_real_file_size_limit_is_a_full_disk(tmp_path):
    """The store's write under RLIMIT_FSIZE (``ulimit -f``) in a child process: the write fails
    (SIGXFSZ ignored, so it is an OSError), the old file stays whole and readable."""
    code = f"""
import json, resource, signal, sys
sys.path[:0] = {sys.path!r}
from dungeon_guilds.app.tables.store import TableStore
from dungeon_guilds.app.tables.table import Table
from dungeon_guilds import Rules
store = TableStore({str(tmp_path)!r})
table, _ = Table.open("ABCDEF", 4, "Ann", Rules(), None, 1.0, seed=1)
store.save(table)
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
resource.setrlimit(resource.RLIMIT_FSIZE, (200, 200))
table.join("Bo" * 5, 2.0)
try:
    store.save(table)
    print("saved")
except OSError as err:
    print("OSError", err.errno)
"""
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert run.stdout.split()[0] == "OSError", run.stderr
    table = TableStore(tmp_path).load_all()[0]
    assert [s.name for s in table.seats][:2] == ["Ann", ""] and not list(tmp_path.glob("*.tmp"))


@pytest.mark.parametrize("text", ["[]", "null", "1", '"table"', '{"code": "X"}',
                                  '{"code": "ABCDEF", "pending": [1]}', "{not json"])
def test_a_file_that_is_not_a_table_is_moved_aside_and_the_others_start(tmp_path, text, caplog):
    lobby = lobby_in(tmp_path)
    good = send(lobby, Conn(), {"op": "open", "seats": 3, "name": "Ann"}).reply["code"]
    (tmp_path / "QQQQQQ.json").write_text(text)
    if text.startswith('{"code": "ABCDEF"'):  # a real table's file with a malformed pending
        data = json.loads((tmp_path / f"{good}.json").read_text())
        data["code"], data["pending"] = "QQQQQQ", [1]
        (tmp_path / "QQQQQQ.json").write_text(json.dumps(data))
    again = Lobby(TableStore(tmp_path), clock=Clock())
    assert list(again.tables) == [good]
    assert (tmp_path / "damaged" / "QQQQQQ.json").exists() and not (tmp_path / "QQQQQQ.json").exists()
    assert "QQQQQQ.json is not a table" in caplog.text


def test_a_round_shown_when_the_server_stopped_is_shown_again_after_the_restart(tmp_path):
    clock = Clock()
    lobby = lobby_in(tmp_path, clock=clock)
    conns = [Conn() for _ in range(4)]
    code = send(lobby, conns[0], {"op": "open", "seats": 4, "name": "Ann"}).reply["code"]
    for i in range(1, 4):
        send(lobby, conns[i], {"op": "join", "code": code, "name": NAMES[i]})
    table = lobby.tables[code]
    for s in table.seats:
        s.connected = 1
    rng = random.Random(4)
    while table.showing is None:
        seat, move = random_move(table, rng)
        send(lobby, conns[seat], {"op": "act", "action": move, "version": table.version})
    send(lobby, conns[0], {"op": "continue"})
    clock.now += 3600  # the server was down an hour
    again = Lobby(TableStore(tmp_path), clock=clock)
    table = again.tables[code]
    clock.now += 2
    assert again.tick() == [] and table.showing == 1  # the first ticks do not end it
    assert seat_message(table, 2, "en")["resolving"]["round"] == 1
    for seat in range(1, 4):  # the pages come back and press Continue: the next round starts
        conn = Conn(code=code, seat=seat)
        table.seats[seat].connected = 1
        send(again, conn, {"op": "continue"})
    assert table.showing is None


def test_a_save_is_a_temporary_file_fsynced_then_renamed(tmp_path, monkeypatch):
    calls = []
    monkeypatch.setattr(store_module.os, "fsync", lambda fd: calls.append("fsync"))
    real_replace = os.replace
    monkeypatch.setattr(store_module.os, "replace", lambda a, b: (calls.append(("replace", str(a)[-4:])),
                                                                  real_replace(a, b))[1])
    lobby_in(tmp_path)
    send(lobby_in(tmp_path), Conn(), {"op": "open", "seats": 3, "name": "Ann"})
    assert calls == ["fsync", ("replace", ".tmp")]


async def _join_over_the_websocket_on_a_full_disk(tmp_path, monkeypatch):
    from tornado.httpserver import HTTPServer
    from tornado.testing import bind_unused_port

    from dungeon_guilds.app.table_server import make_app
    from dungeon_guilds.app.tables.client import SeatClient

    app = make_app(tmp_path, code="teacher-owl-42")
    sock, port = bind_unused_port()
    server = HTTPServer(app)
    server.add_sockets([sock])
    url = f"ws://127.0.0.1:{port}/dungeon-guilds/tables/ws"
    try:
        ann = await SeatClient(url).connect()
        await ann.send({"op": "open", "seats": 3, "name": "Ann"})
        await ann.wait(lambda m: m["op"] == "state")
        table = app.hub.lobby.tables[ann.code]
        before = table.to_dict()
        real_write = app.hub.lobby.store.write

        def full(code, text):
            raise OSError(errno.ENOSPC, "No space left on device")

        monkeypatch.setattr(app.hub.lobby.store, "write", full)
        bo = await SeatClient(url).connect()
        await bo.send({"op": "lang", "lang": "zh"})
        ann.mark()
        await bo.send({"op": "join", "code": ann.code, "name": "Bo"})
        refused = await bo.wait(lambda m: m["op"] == "refused")
        after = app.hub.lobby.tables[ann.code].to_dict()
        told = [m for _, m in ann.frames[ann._mark:]]
        monkeypatch.setattr(app.hub.lobby.store, "write", real_write)
        await bo.send({"op": "join", "code": ann.code, "name": "Bo"})
        seat = await bo.wait(lambda m: m["op"] == "seat")
        return refused, before, after, told, seat, app.hub.lobby.tables[ann.code].seats[1].name
    finally:
        server.stop()


def test_over_the_websocket_a_change_the_server_cannot_save_is_told_and_undone(tmp_path, monkeypatch):
    import asyncio

    refused, before, after, told, seat, name = asyncio.run(_join_over_the_websocket_on_a_full_disk(tmp_path, monkeypatch))
    assert refused["code"] == "not_saved" and "無法儲存" in refused["reason"]
    assert after == before and told == []  # the table as it was; Ann was told nothing
    assert seat["seat"] == 2 and name == "Bo"  # the same join once the disk has room
