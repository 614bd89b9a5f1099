"""Shared pieces of the class-table tests: a lobby in a temporary directory, seats joined,
secret variants of a table (what a seat may not know, changed)."""

from __future__ import annotations

import contextlib
import copy
import json
import os
import random
import signal
import subprocess
import sys
import time
import urllib.request

from dungeon_guilds.app.tables import local_redis
from dungeon_guilds.app.tables.lobby import Lobby
from dungeon_guilds.app.tables.protocol import Conn, handle
from dungeon_guilds.app.tables.store import TableStore
from dungeon_guilds.actions import EXHAUST, Action

NAMES = ("Ann", "Bo", "Cy", "Di", "Ed", "Flo")


class Clock:
    def __init__(self, now: float = 1000.0):
        self.now = now

    def __call__(self) -> float:
        return self.now


def lobby_in(path, **kw) -> Lobby:
    return Lobby(TableStore(path), clock=kw.pop("clock", Clock()), **kw)


def send(lobby, conn, msg):
    return handle(lobby, conn, json.dumps(msg) if isinstance(msg, dict) else msg)


def seated_table(lobby, seats: int = 4, rules=None, deck=None, seed: int | None = None):
    """A table with ``seats`` people joined; returns (table, conns). ``seed``: the game's (else
    the table's own, drawn at random)."""
    conns = [Conn() for _ in range(seats)]
    out = send(lobby, conns[0], {"op": "open", "seats": seats, "name": NAMES[0], "rules": rules, "deck": deck})
    assert out.reply["op"] == "seat", out.reply
    code = out.reply["code"]
    if seed is not None:
        lobby.tables[code].seed = seed
    for i in range(1, seats):
        out = send(lobby, conns[i], {"op": "join", "code": code, "name": NAMES[i]})
        assert out.reply["op"] == "seat", out.reply
    return lobby.tables[code], conns


def random_move(table, rng: random.Random) -> tuple[int, str]:
    """(seat, move text) a random legal decision of the table now (setup: a seat still to choose)."""
    if table.in_setup:
        seat = rng.choice([s for s in range(len(table.seats)) if s not in table.pending])
        a, b = sorted(rng.sample(range(1, 6), 2))
        return seat, f"exhaust {a} {b}"
    return table.game.current, rng.choice(table.game.legal_moves())


def with_state(table, state):
    """A copy of ``table`` whose game has ``state`` (the log and history shared, read only)."""
    other = copy.copy(table)
    other.game = copy.copy(table.game)
    other.game.state = state
    other.pending = dict(table.pending)
    return other


def other_fronts(table, rng: random.Random):
    """The table with every hidden front changed: the current rooms get other cards of their
    level from the unseen ones and the undealt deck is reshuffled (None if nothing is hidden)."""
    st = table.game.state
    if st.phase != "dispatch":
        return None
    pool = list(st.unseen_cards())
    rng.shuffle(pool)
    rooms = []
    for room in st.rooms:
        pick = next((c for c in pool if c.level == room.level and c != room), None)
        pick = pick or next(c for c in pool if c.level == room.level)
        pool.remove(pick)
        rooms.append(pick)
    return with_state(table, st.with_fronts(rooms, pool))


def other_choices(table, seat: int, rng: random.Random):
    """The table with every other seat's pending secret setup choice changed (R2.4)."""
    other = with_state(table, table.game.state)
    for s in list(other.pending):
        if s != seat:
            while True:
                pair = tuple(sorted(rng.sample(range(1, 6), 2)))
                if pair != table.pending[s]:
                    break
            other.pending[s] = pair
    return other


__all__ = ["Action", "EXHAUST", "Clock", "NAMES", "lobby_in", "other_choices", "other_fronts", "random_move",
           "seated_table", "send", "with_state"]


@contextlib.contextmanager
def two_workers(tmp_path):
    """``table_server --workers 2`` sharing a Redis of its own, both on loopback (issue 52): yields
    (the server's port, the Redis URL) once both workers are up; stopped by process group."""
    (tmp_path / "redis").mkdir()
    with local_redis.LocalRedis(tmp_path / "redis") as redis:
        port = local_redis.free_port()
        log = open(tmp_path / "server.log", "w")
        proc = subprocess.Popen([sys.executable, "-m", "dungeon_guilds.app.table_server", "--port", str(port),
                                 "--workers", "2", "--tables-store", redis.url, "--tables-dir", str(tmp_path / "own")],
                                stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        try:
            deadline = time.monotonic() + 60
            while (tmp_path / "server.log").read_text().count("Class tables on") < 2:
                assert proc.poll() is None and time.monotonic() < deadline, (tmp_path / "server.log").read_text()
                time.sleep(0.1)
            urllib.request.urlopen(f"http://127.0.0.1:{port}/dungeon-guilds/tables", timeout=5).read()
            yield port, redis.url
        finally:
            os.killpg(proc.pid, signal.SIGTERM)
            proc.wait(10)
            log.close()
