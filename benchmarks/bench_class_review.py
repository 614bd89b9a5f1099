"""Do the class tables stay fast while the judge reviews the class's games? (issue 38, item 6)

Runs ``benchmarks/bench_tables.py``'s load (``--tables`` tables of ``--seats`` people playing
at once over the websocket; the latency of a move to every seat of its table) twice on the
table server, with ``--games`` finished 4-person games already in its tables folder:

1. **idle**: nobody opened the teacher's page, so no game is reviewed;
2. **reviewing**: the teacher's page is opened first (the reviewing starts: one worker process
   at niceness 19 judges the finished games' people's seats, one game at a time).

Prints each run's latency (median, p95, max), the server's CPU, the games the worker finished
during the run and the load average. Run::

    PYTHONPATH=. nice -n 19 .venv/bin/python benchmarks/bench_class_review.py [--tables 8] [--games 6] [--table-games 2]

(Under ``nice -n 19`` the server runs at the worker's niceness, so the worker competes with it
as an equal: the worst case. A server started at niceness 0 gives the worker ~1.5 % of a busy CPU.)
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import signal
import statistics
import tempfile
import time
import urllib.parse
import urllib.request
from pathlib import Path

from bench_tables import cpu_and_rss, free_port, run, start_server

from dungeon_guilds.app.tables.class_review import FOLDER
from dungeon_guilds.app.tables.lobby import Lobby
from dungeon_guilds.app.tables.protocol import Conn, handle
from dungeon_guilds.app.tables.store import TableStore

CODE = "bench-owl-42"
NAMES = ("Ann", "Bo", "Cy", "Di")


def finished_games(folder: Path, n: int) -> None:
    """``n`` tables of 4 people played to their end with random legal moves (seeded)."""
    lobby = Lobby(TableStore(folder))
    for seed in range(n):
        conns = [Conn() for _ in NAMES]
        say = lambda c, m: handle(lobby, c, json.dumps(m))  # noqa: E731
        code = say(conns[0], {"op": "open", "seats": 4, "name": NAMES[0]}).reply["code"]
        lobby.tables[code].seed = seed
        for c, name in zip(conns[1:], NAMES[1:]):
            say(c, {"op": "join", "code": code, "name": name})
        table, rng = lobby.tables[code], random.Random(seed)
        while not table.is_over:
            if table.in_setup:
                seat = rng.choice([s for s in range(4) if s not in table.pending])
                a, b = sorted(rng.sample(range(1, 6), 2))
                move = f"exhaust {a} {b}"
            else:
                seat, move = table.game.current, rng.choice(table.game.legal_moves())
            say(conns[seat], {"op": "act", "action": move, "version": table.version})


def open_teacher_page(port: int) -> None:
    base = f"http://127.0.0.1:{port}/dungeon-guilds/teacher"
    with urllib.request.urlopen(base) as form:
        xsrf = re.search(r'name="_xsrf" value="([^"]+)"', form.read().decode()).group(1)
        cookie = form.headers.get_all("Set-Cookie")[0].split(";")[0]
    body = urllib.parse.urlencode({"_xsrf": xsrf, "teacher": CODE, "lang": "en"}).encode()
    with urllib.request.urlopen(urllib.request.Request(base, body, {"Cookie": cookie})) as page:
        progress = re.search(r"Games reviewed: [^<]*", page.read().decode()).group(0)
    print(f"  teacher's page opened: {progress}")


def children_cpu(pid: int) -> float:
    """CPU seconds of the server's child processes (here: the review worker; no bot thinks)."""
    total = 0.0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            total += cpu_and_rss(int(stat.parent.name))[0]
    return total


def measure(args, reviewing: bool) -> None:
    port = free_port()
    with tempfile.TemporaryDirectory() as tmp:
        finished_games(Path(tmp), args.games)
        os.environ["DUNGEON_GUILDS_TEACHER_CODE"] = CODE
        proc = start_server(port, Path(tmp))
        try:
            if reviewing:
                open_teacher_page(port)
                time.sleep(4)  # the next tick (2 s) starts the worker
            cpu0, worker0 = cpu_and_rss(proc.pid)[0], children_cpu(proc.pid)
            latencies, lost, wall = asyncio.run(run(f"ws://127.0.0.1:{port}/dungeon-guilds/tables/ws",
                                                    args.tables, args.seats, args.table_games))
            cpu1, worker1 = cpu_and_rss(proc.pid)[0], children_cpu(proc.pid)
            reviewed = len(list((Path(tmp) / FOLDER).glob("*.json")))
        finally:
            os.killpg(proc.pid, signal.SIGTERM)
            proc.wait(timeout=20)
    ms = sorted(x * 1000 for x in latencies)
    print(f"{'reviewing' if reviewing else 'idle'}: {args.tables} tables x {args.seats} seats, {len(ms)} moves in "
          f"{wall:.1f} s; move -> every seat: median {statistics.median(ms):.0f} ms, "
          f"p95 {ms[int(0.95 * (len(ms) - 1))]:.0f} ms, max {ms[-1]:.0f} ms; lost {lost}; "
          f"server CPU {cpu1 - cpu0:.1f} s, review worker CPU {worker1 - worker0:.1f} s; games reviewed meanwhile {reviewed} of {args.games}; "
          f"load average {os.getloadavg()[0]:.1f}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=8)
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--games", type=int, default=6, help="finished games waiting for the review")
    parser.add_argument("--table-games", type=int, default=2, help="games each table plays during a run")
    args = parser.parse_args()
    measure(args, reviewing=False)
    measure(args, reviewing=True)


if __name__ == "__main__":
    main()
