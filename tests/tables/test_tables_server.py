"""The class tables over their real websocket (issue 26, items 2, 3, 7): four seats play a
whole game; every frame each seat receives is what the server renders for that seat alone and
does not change when the secrets it may not know change; a seat reconnects mid-round; a
server stopped mid-game (killed) and started again finishes the game."""

from __future__ import annotations

import asyncio
import json
import os
import random
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from tornado.httpserver import HTTPServer
from tornado.testing import bind_unused_port

from dungeon_guilds.app.table_server import make_app
from dungeon_guilds.app.tables.client import SeatClient
from dungeon_guilds.app.tables.render import seat_message
from dungeon_guilds.record import from_record

from tables_helpers import NAMES, other_choices, other_fronts, random_move

WS = "/dungeon-guilds/tables/ws"


def wire(msg: dict) -> dict:
    return json.loads(json.dumps(msg, ensure_ascii=False))


async def seat_four(url: str) -> list[SeatClient]:
    clients = [await SeatClient(url).connect() for _ in range(4)]
    await clients[0].send({"op": "open", "seats": 4, "name": NAMES[0]})
    code = (await clients[0].wait(lambda m: m["op"] == "seat"))["code"]
    for i in range(1, 4):
        await clients[i].send({"op": "join", "code": code, "name": NAMES[i]})
        await clients[i].wait(lambda m: m["op"] == "seat")
    return clients


async def move_and_wait(clients, table, seat, move):
    v = table.version
    for c in clients:
        c.mark()
    await clients[seat].send({"op": "act", "action": move, "version": v})
    return [await c.wait(lambda m: m["op"] == "state" and m["version"] > v) for c in clients]


async def continue_all(clients, table):
    """A round shown resolving (issue 24): every seat presses Continue; the frames after the
    last one (the next round) are returned."""
    frames = []
    for c in clients:
        v = table.version
        for x in clients:
            x.mark()
        await c.send({"op": "continue"})
        frames = [await x.wait(lambda m: m["op"] == "state" and m["version"] > v) for x in clients]
    assert table.showing is None
    return frames


def check_frames(table, frames, rng):
    """Each seat's frame is the server's render for that seat, and no secret changes it."""
    fronts = other_fronts(table, rng)
    for seat, frame in enumerate(frames):
        mine = wire(seat_message(table, seat, "en"))
        assert frame == mine
        if fronts is not None:
            assert wire(seat_message(fronts, seat, "en")) == mine
        if table.in_setup and table.pending:
            assert wire(seat_message(other_choices(table, seat, rng), seat, "en")) == mine


async def _whole_game(tmp_path):
    app = make_app(tmp_path, code="teach")
    sock, port = bind_unused_port()
    server = HTTPServer(app)
    server.add_sockets([sock])
    url = f"ws://127.0.0.1:{port}{WS}"
    clients = await seat_four(url)
    table = next(iter(app.hub.lobby.tables.values()))
    rng = random.Random(7)
    moves = 0
    shown = 0
    while not table.is_over or table.showing is not None:
        if table.showing is not None:  # every page shows the round resolving; the next round waits
            assert all(f["resolving"]["round"] == table.showing and f["targets"] == {} for f in frames)
            shown += 1
            frames = await continue_all(clients, table)
            check_frames(table, frames, rng)
            continue
        seat, move = random_move(table, rng)
        frames = await move_and_wait(clients, table, seat, move)
        check_frames(table, frames, rng)
        moves += 1
        if moves == 12:  # seat 3's connection drops mid-round; a new one resumes the seat
            token = clients[2].token
            clients[2].close()
            await asyncio.sleep(0.2)
            assert table.seats[2].connected == 0
            clients[2] = await SeatClient(url).connect()
            clients[2].token = token
            await clients[2].send({"op": "resume", "code": table.code, "token": token})
            await clients[2].wait(lambda m: m["op"] == "state")
            assert table.seats[2].connected == 1
    assert shown == table.game.state.rounds  # every round was shown resolving to every seat
    tokens = [c.token for c in clients]
    for i, c in enumerate(clients):  # no frame ever carried another seat's token
        assert not any(t in raw for t in tokens if t != tokens[i] for raw in c.raw)
    for c in clients:
        c.close()
    server.stop()
    return table


def test_four_seats_over_the_websocket_keep_their_secrets(tmp_path):
    table = asyncio.run(_whole_game(tmp_path))
    assert table.is_over
    record = json.loads((tmp_path / f"{table.code}.json").read_text())["record"]
    assert list(from_record(record).state.gold) == list(table.game.state.gold)


# ---------------------------------------------------------------------- a restart
def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(port: int, tables: Path) -> subprocess.Popen:
    env = {**os.environ, "DUNGEON_GUILDS_TEACHER_CODE": "teach-owl-42"}
    proc = subprocess.Popen([sys.executable, "-m", "dungeon_guilds.app.table_server", "--port", str(port),
                             "--tables-dir", str(tables)], env=env, start_new_session=True,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/dungeon-guilds/tables", timeout=2).read()
            return proc
        except OSError:
            time.sleep(0.2)
    stop_server(proc)
    raise RuntimeError("the table server did not start")


def stop_server(proc: subprocess.Popen, sig=signal.SIGKILL) -> None:
    try:
        os.killpg(proc.pid, sig)
    except ProcessLookupError:
        pass
    proc.wait(timeout=20)


def saved_table(tables: Path):
    from dungeon_guilds.app.tables.table import Table

    (path,) = tables.glob("*.json")
    return Table.from_dict(json.loads(path.read_text()))


async def play_some(url, clients, tables: Path, rng, most: int | None):
    """Play random moves (the saved table says whose turn it is) until the game ends or ``most``."""
    n = 0
    while most is None or n < most:
        table = saved_table(tables)
        if table.showing is not None:  # a round shown resolving: every seat presses Continue
            for c in clients:
                c.mark()
                await c.send({"op": "continue"})
                await c.wait(lambda m: m["op"] == "state" and (m["resolving"] or {}).get("ready")
                             or m["op"] == "state" and m["resolving"] is None
                             # the round moved on before this press arrived (its state came first):
                             or m["op"] == "refused" and m.get("code") == "not_resolving")
            continue
        if table.is_over:
            return table
        seat, move = random_move(table, rng)
        clients[seat].mark()
        await clients[seat].send({"op": "act", "action": move, "version": table.version})
        await clients[seat].wait(lambda m: m["op"] == "state" and m["version"] > table.version)
        n += 1
    return saved_table(tables)


async def _restart(tmp_path):
    port, tables = free_port(), tmp_path / "tables"
    url = f"ws://127.0.0.1:{port}{WS}"
    proc = start_server(port, tables)
    try:
        clients = await seat_four(url)
        rng = random.Random(11)
        before = await play_some(url, clients, tables, rng, most=15)
        tokens = [c.token for c in clients]
        stop_server(proc)  # killed mid-game: no goodbye
        proc = start_server(port, tables)
        clients = [await SeatClient(url).connect() for _ in range(4)]
        for c, token in zip(clients, tokens):
            await c.send({"op": "resume", "code": before.code, "token": token})
            msg = await c.wait(lambda m: m["op"] == "state")
            assert msg["version"] == before.version
        after = await play_some(url, clients, tables, rng, most=None)
        for c in clients:
            c.close()
        return after
    finally:
        stop_server(proc)


def test_a_server_restart_loses_no_game(tmp_path):
    table = asyncio.run(_restart(tmp_path))
    assert table.is_over
    replay = from_record(table.to_dict()["record"])
    assert replay.state.gold == table.game.state.gold


async def _origin_and_size(tmp_path):
    from tornado.httpclient import HTTPClientError, HTTPRequest
    from tornado.websocket import WebSocketClosedError, websocket_connect

    app = make_app(tmp_path, code="teach")
    sock, port = bind_unused_port()
    server = HTTPServer(app)
    server.add_sockets([sock])
    url = f"ws://127.0.0.1:{port}{WS}"
    try:
        try:
            await websocket_connect(HTTPRequest(url, headers={"Origin": "http://elsewhere.example"}))
            foreign = "accepted"
        except HTTPClientError as err:
            foreign = err.code
        same = await websocket_connect(HTTPRequest(url, headers={"Origin": f"http://127.0.0.1:{port}"}))
        await same.write_message("x" * 70_000)  # beyond the 64 KiB a frame may have
        closed = await same.read_message()
        try:
            await same.write_message("{}")
            still = await same.read_message()
        except WebSocketClosedError:
            still = None
        return foreign, closed, still, app.hub.lobby.tables
    finally:
        server.stop()


def test_another_site_cannot_connect_and_a_huge_frame_closes_the_socket(tmp_path):
    foreign, closed, still, tables = asyncio.run(_origin_and_size(tmp_path))
    assert foreign == 403  # Tornado's same-origin check, kept
    assert closed is None and still is None and tables == {}


# ---------------------------------------------------------------------- bots by level (issue 30)
def enabled(state: dict, prefix: str) -> list[str]:
    return [k for k, t in state["targets"].items() if k.startswith(prefix) and t["enabled"]]


def unseen_resolution(state: dict) -> bool:
    """The table shows a round resolving and this seat has not pressed Continue yet (without
    it, the next round waits for the table's clock: a minute a round)."""
    return (state.get("resolving") or {}).get("ready") is False


async def my_turns(client, rng, most: int | None) -> dict:
    """The person's moves, clicked as a page does, until the game ends or ``most`` moves."""
    n = 0
    while most is None or n < most:
        state = await client.wait(lambda m: m["op"] == "state" and (m["over"] or enabled(m, "hand-")
                                                                     or unseen_resolution(m)), 120)
        if state["over"]:
            return state
        if unseen_resolution(state):  # a round shown resolving (issue 24): Continue, as a page does
            client.mark()
            await client.send({"op": "continue"})
            continue
        hands = enabled(state, "hand-")
        a = rng.choice(hands)
        if state["phase_id"] == "setup":
            x, y = sorted(int(h[5:]) for h in rng.sample(hands, 2))
            move = f"exhaust {x} {y}"
        else:  # the page picks the adventurer itself (issue 37): the moves it allows came with the state
            picked = state["picks"][a[5:]]["targets"]
            move = picked[rng.choice([k for k, t in picked.items() if t["enabled"]])]["action"]
        client.mark()
        await client.send({"op": "act", "action": move, "version": state["version"]})
        await client.wait(lambda m: m["op"] == "state" and m["version"] > state["version"])
        n += 1
    return client.state


def group_ends(pgid: int, seconds: float) -> bool:
    """Whether every process of the server's group (its bots' worker) is gone within ``seconds``."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            os.killpg(pgid, 0)
        except ProcessLookupError:
            return True
        time.sleep(0.2)
    return False


async def _bots_restart(tmp_path):
    port, tables = free_port(), tmp_path / "tables"
    url = f"ws://127.0.0.1:{port}{WS}"
    proc = start_server(port, tables)
    try:
        me = await SeatClient(url).connect()
        await me.send({"op": "open", "seats": 4, "name": "Ann"})
        offer = await me.wait(lambda m: m["op"] == "state")
        assert [x["id"] for x in offer["levels"]][:3] == ["beginner", "intermediate", "strong"]
        await me.send({"op": "bots", "levels": {"2": "strong", "3": "beginner", "4": "strong"}})
        rng = random.Random(30)
        await my_turns(me, rng, 4)  # the strong bots think in the server's worker process
        before = saved_table(tables)
        assert [s.bot for s in before.seats] == ["", "strong", "beginner", "strong"]
        os.kill(proc.pid, signal.SIGKILL)  # the server alone killed mid-game: its bots' worker ends too
        proc.wait(timeout=20)
        assert group_ends(proc.pid, 15), "the bots' worker process outlived the killed server"
        proc = start_server(port, tables)
        me2 = await SeatClient(url).connect()
        await me2.send({"op": "lang", "lang": "zh"})
        await me2.send({"op": "resume", "code": me.code, "token": me.token})
        state = await me2.wait(lambda m: m["op"] == "state")
        assert [s["state"] for s in state["seats"]][1:] == ["第 3 級 · 高手機器人", "第 1 級 · 新手機器人",
                                                              "第 3 級 · 高手機器人"]
        end = await my_turns(me2, rng, None)
        me.close()
        me2.close()
        return end, saved_table(tables)
    finally:
        stop_server(proc)


def test_bots_by_level_play_through_a_server_restart(tmp_path):
    end, table = asyncio.run(_bots_restart(tmp_path))
    assert end["over"] and table.is_over and [s.bot for s in table.seats] == ["", "strong", "beginner", "strong"]
    assert from_record(table.to_dict()["record"]).state.gold == table.game.state.gold
