"""A school's two servers behind nginx (issue 52, item 3): tools/school.py's layout on loopback
ports (one Redis, two table servers, nginx in front). Through nginx's one address: a browser is
kept on one server by its ``dg_server`` cookie; the sockets naming a table (``?table=CODE``, as
tables.js makes them with a shared store) all land on one server; a game's seats on sockets naming
no table land on both servers; one server is
killed (SIGKILL) mid-game and its seats' pages reconnect through the same address to the other
within 3 s, with the state they had, and the game goes on. Skipped, with the reason, only where
redis-server or nginx is not installed."""

from __future__ import annotations

import asyncio
import importlib.util
import os
import random
import shutil
import signal
import time
import urllib.request
from pathlib import Path

import pytest

from dungeon_guilds.app.tables import local_redis
from dungeon_guilds.app.tables.client import SeatClient, table_url
from test_workers import NAMES, play, resume

SCHOOL = Path(__file__).resolve().parents[2] / "tools" / "school.py"
spec = importlib.util.spec_from_file_location("school", SCHOOL)
school = importlib.util.module_from_spec(spec)
spec.loader.exec_module(school)
pytestmark = pytest.mark.skipif(not local_redis.available() or not (shutil.which("nginx") or os.path.exists(school.NGINX)),
                                reason="redis-server or nginx is not installed (apt-get install redis-server nginx)")


@pytest.fixture
def behind_nginx(tmp_path):
    pytest.importorskip("redis", reason="redis-py is not installed (pip install 'dungeon-guilds[school]')")
    (tmp_path / "redis").mkdir()
    with local_redis.LocalRedis(tmp_path / "redis") as redis:
        ports, procs = school.start_servers(2, redis.url, tmp_path, teacher="owl-school-52-tables")
        port = local_redis.free_port()
        procs.append(school.start_nginx(tmp_path, f"127.0.0.1:{port}", ports, debug=True))
        try:
            school.wait_for(f"http://127.0.0.1:{port}/dungeon-guilds/tables", 20)
            yield port, dict(zip(ports, procs))
        finally:
            school.stop(procs)


def served_by(client: SeatClient) -> int:
    return int(client._conn.headers["X-School-Server"].rsplit(":", 1)[1])


def test_a_browser_stays_on_one_server_by_its_cookie(behind_nginx):
    port, _ = behind_nginx
    url = f"http://127.0.0.1:{port}/dungeon-guilds/tables"
    first = urllib.request.urlopen(url, timeout=5)
    cookie = first.headers["Set-Cookie"].split(";")[0]
    assert cookie.startswith("dg_server=")
    servers = {urllib.request.urlopen(urllib.request.Request(url, headers={"Cookie": cookie}), timeout=5)
               .headers["X-School-Server"] for _ in range(8)}
    assert servers == {first.headers["X-School-Server"]}


async def game_across_a_dead_server(url: str, servers: dict) -> None:
    clients = [await SeatClient(url).connect() for _ in NAMES]
    await clients[0].send({"op": "open", "seats": 4, "name": NAMES[0]})
    code = (await clients[0].wait(lambda m: m["op"] == "seat"))["code"]
    for c, name in zip(clients[1:], NAMES[1:]):
        await c.send({"op": "join", "code": code, "name": name})
    for c in clients:
        await c.wait(lambda m: m["op"] == "state" and m["started"])
    for k in range(40):  # no cookie on these sockets: each lands where its new dg_server value hashes
        if len({served_by(c) for c in clients}) == 2:
            break
        i = 1 + k % 3
        clients[i].close()
        clients[i] = await resume(url, code, clients[i].token)
    assert len({served_by(c) for c in clients}) == 2
    rng = random.Random(53)
    await play(clients, 6, rng)
    victim = served_by(clients[0])
    before = {i: (c.state["version"], dict(c.held)) for i, c in enumerate(clients) if served_by(c) == victim}
    os.killpg(servers[victim].pid, signal.SIGKILL)
    killed = time.monotonic()
    await asyncio.sleep(0.5)  # tables.js waits 0.5 s, then connects to the same address again
    for i, (version, held) in before.items():
        clients[i].close()
        clients[i] = await resume(url, code, clients[i].token)
        assert served_by(clients[i]) != victim
        assert (clients[i].state["version"], clients[i].held) == (version, held), "the seat lost its state"
    took = time.monotonic() - killed
    assert took <= 3.0, f"the dead server's pages resumed after {took:.1f} s"
    await play(clients, 6, rng)
    assert len({c.state["version"] for c in clients}) == 1
    for c in clients:
        c.close()


def test_a_game_goes_on_when_one_of_two_servers_behind_nginx_dies(behind_nginx):
    port, servers = behind_nginx
    asyncio.run(game_across_a_dead_server(f"ws://127.0.0.1:{port}/dungeon-guilds/tables/ws", servers))


async def seats_through_nginx(url: str) -> set[int]:
    """A table opened, then its four seats on sockets naming it (tables.js with a shared store):
    the servers they land on, over several reloads each."""
    opener = await SeatClient(url).connect()
    await opener.send({"op": "open", "seats": 4, "name": NAMES[0]})
    code = (await opener.wait(lambda m: m["op"] == "seat"))["code"]
    at = table_url(url, code)
    clients = [await resume(at, code, opener.token)] + [await SeatClient(at).connect() for _ in NAMES[1:]]
    opener.close()
    for c, name in zip(clients[1:], NAMES[1:]):
        await c.send({"op": "join", "code": code, "name": name})
        await c.wait(lambda m: m["op"] == "seat")
    servers = {served_by(c) for c in clients}
    for i in (1, 2, 3, 1, 2, 3):
        clients[i].close()
        clients[i] = await resume(at, code, clients[i].token)
        servers.add(served_by(clients[i]))
    for c in clients:
        c.close()
    return servers


def test_nginx_sends_a_tables_sockets_to_one_server(behind_nginx):
    port, _ = behind_nginx
    url = f"ws://127.0.0.1:{port}/dungeon-guilds/tables/ws"
    for _ in range(3):  # three tables, each on one server
        servers = asyncio.run(seats_through_nginx(url))
        assert len(servers) == 1, f"one table's seats on several servers: {servers}"
