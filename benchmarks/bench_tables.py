"""Class tables under load (issue 26): 8 tables of 4 seats playing at once over the websocket.

Starts the table server (``python -m dungeon_guilds.app.table_server``: the same routes
``make dashboard`` serves) in its own process on 127.0.0.1, and plays from this process with
simulated seats (:class:`~dungeon_guilds.app.tables.client.SeatClient`, no browsers): each seat
clicks as a page does (``pick`` an adventurer, then ``act`` with a slot's move; at setup two
picks then the exhaust move). Measured:

* **latency**: from sending a move to the new state's arrival at *every* seat of that table
  (median, 95th percentile, max);
* **moves answered per second** over the whole run;
* **no message lost**: every seat received the state of every version of its table;
* the server process's **CPU seconds** and **memory** (RSS) per table.

Goal on the project's 2-core machine: median ≤ 100 ms, max ≤ 500 ms, nothing lost.
Run: ``.venv/bin/python benchmarks/bench_tables.py [--tables 8] [--seats 4] [--games 1]``.

``--bots strong --bot-tables 4`` adds tables of one person and ``seats - 1`` bots of that level
(the opener picks it) beside the tables of people; the latency goal is measured at the tables
of people, and the bot tables' wait (a move until it is that person's turn again: the bots'
thinking) is reported apart. ``--compare`` runs it twice in one go, the server thinking for the
slow bots on its event loop (``--bots-on-loop``, the old way) and then off it (a thread).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from dungeon_guilds.app.tables.client import SeatClient

NAMES = ("Ann", "Bo", "Cy", "Di", "Ed", "Flo")
CLK = os.sysconf("SC_CLK_TCK")
PAGE = os.sysconf("SC_PAGE_SIZE")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def cpu_and_rss(pid: int) -> tuple[float, int]:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    cpu = (int(fields[11]) + int(fields[12])) / CLK
    rss = int(Path(f"/proc/{pid}/statm").read_text().split()[1]) * PAGE
    return cpu, rss


def start_server(port: int, tables: Path, on_loop: bool = False) -> subprocess.Popen:
    proc = subprocess.Popen([sys.executable, "-m", "dungeon_guilds.app.table_server", "--port", str(port),
                             "--tables-dir", str(tables)] + (["--bots-on-loop"] if on_loop else []),
                            start_new_session=True,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(300):
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/dungeon-guilds/tables", timeout=2).read()
            return proc
        except OSError:
            time.sleep(0.2)
    os.killpg(proc.pid, signal.SIGKILL)
    raise SystemExit("the table server did not start")


def enabled(state: dict, prefix: str) -> list[str]:
    return [k for k, t in state["targets"].items() if k.startswith(prefix) and t["enabled"]]


async def seat_table(url: str, seats: int) -> list[SeatClient]:
    clients = [await SeatClient(url).connect() for _ in range(seats)]
    await clients[0].send({"op": "open", "seats": seats, "name": NAMES[0]})
    code = (await clients[0].wait(lambda m: m["op"] == "seat"))["code"]
    for i in range(1, seats):
        await clients[i].send({"op": "join", "code": code, "name": NAMES[i]})
    for c in clients:
        await c.wait(lambda m: m["op"] == "state" and m["started"])
    return clients


async def pick(c: SeatClient, strength: int, want: str) -> dict:
    c.mark()
    await c.send({"op": "pick", "strength": strength})
    return await c.wait(lambda m: m["op"] == "state" and any(k.startswith(want) for k in m["targets"]))


async def one_move(clients: list[SeatClient], rng: random.Random) -> float | None:
    """The next seat with a choice clicks it; the seconds until every seat has the new state."""
    mover = next((c for c in clients if enabled(c.state, "hand-")), None)
    if mover is None:
        return None
    hands = enabled(mover.state, "hand-")
    if mover.state["phase_id"] == "setup":
        a, b = rng.sample(hands, 2)
        await pick(mover, int(a[5:]), "hand-")
        state = await pick(mover, int(b[5:]), "exhaust")
        target = "exhaust"
    else:
        state = await pick(mover, int(rng.choice(hands)[5:]), "slot-")
        target = rng.choice(enabled(state, "slot-"))
    v = state["version"]
    for c in clients:
        c.mark()
    t0 = time.perf_counter()
    await mover.send({"op": "act", "action": state["targets"][target]["action"], "version": v})
    arrived = [await c.wait(lambda m: m["op"] == "state" and m["version"] > v) for c in clients]
    assert all(m["version"] == v + 1 for m in arrived)
    return max(t for c in clients for t, m in c.frames if m.get("version") == v + 1) - t0


async def play_table(url: str, seats: int, seed: int, latencies: list[float]) -> list[SeatClient]:
    clients = await seat_table(url, seats)
    rng = random.Random(seed)
    while not clients[0].state["over"]:
        waiting = [c for c in clients if (c.state.get("resolving") or {}).get("ready") is False]
        if waiting:  # a round shown resolving (issue 24): every seat presses Continue (not timed)
            for c in waiting:
                await c.send({"op": "continue"})
            await asyncio.sleep(0.01)
            continue
        took = await one_move(clients, rng)
        if took is None:
            await asyncio.sleep(0.01)
        else:
            latencies.append(took)
    return clients


def lost_messages(clients: list[SeatClient]) -> int:
    """States a seat should have received and did not (every version after the start)."""
    last = clients[0].state["version"]
    lost = 0
    for c in clients:
        seen = {m["version"] for _, m in c.frames if m.get("op") == "state"}
        first = min(v for _, m in c.frames if m.get("op") == "state" and m["started"] for v in [m["version"]])
        lost += len(set(range(first, last + 1)) - seen)
    return lost


async def play_bot_table(url: str, seats: int, level: str, seed: int, waits: list[float]) -> None:
    """One person against ``seats - 1`` bots of ``level``: moves until the game ends; ``waits``
    gets each move's time until it is that person's turn again (or the game is over)."""
    c = await SeatClient(url).connect()
    await c.send({"op": "open", "seats": seats, "name": NAMES[0]})
    await c.wait(lambda m: m["op"] == "state")
    c.mark()
    await c.send({"op": "bots", "levels": {str(i): level for i in range(2, seats + 1)}})
    await c.wait(lambda m: m["op"] == "state" and m["started"])
    rng = random.Random(seed)
    while True:
        state = await c.wait(lambda m: m["op"] == "state" and (m["over"] or enabled(m, "hand-")), timeout=120)
        if state["over"]:
            break
        hands = enabled(state, "hand-")
        if state["phase_id"] == "setup":
            await pick(c, int(hands[0][5:]), "hand-")
            state = await pick(c, int(hands[1][5:]), "exhaust")
            target = "exhaust"
        else:
            state = await pick(c, int(rng.choice(hands)[5:]), "slot-")
            target = rng.choice(enabled(state, "slot-"))
        v = state["version"]
        c.mark()
        t0 = time.perf_counter()
        await c.send({"op": "act", "action": state["targets"][target]["action"], "version": v})
        await c.wait(lambda m: m["op"] == "state" and m["version"] > v and (m["over"] or enabled(m, "hand-")), timeout=120)
        waits.append(time.perf_counter() - t0)
    c.close()


async def run(url: str, tables: int, seats: int, games: int, bots: str | None = None, bot_tables: int = 0,
              waits: list[float] | None = None) -> tuple[list[float], int, float]:
    latencies: list[float] = []
    lost = 0
    t0 = time.perf_counter()
    for g in range(games):
        people = [play_table(url, seats, 100 * g + t, latencies) for t in range(tables)]
        robots = [play_bot_table(url, seats, bots, 100 * g + 50 + t, waits) for t in range(bot_tables if bots else 0)]
        results = (await asyncio.gather(*people, *robots))[:tables]
        for clients in results:
            lost += lost_messages(clients)
            for c in clients:
                c.close()
    return latencies, lost, time.perf_counter() - t0


def measure(args, on_loop: bool = False) -> bool:
    """One run of the server; prints its figures; True if the latency goal is met."""
    port = free_port()
    waits: list[float] = []
    with tempfile.TemporaryDirectory() as tmp:
        proc = start_server(port, Path(tmp), on_loop)
        try:
            cpu0, rss0 = cpu_and_rss(proc.pid)
            latencies, lost, wall = asyncio.run(run(f"ws://127.0.0.1:{port}/dungeon-guilds/tables/ws", args.tables,
                                                    args.seats, args.games, args.bots, args.bot_tables, waits))
            cpu1, rss1 = cpu_and_rss(proc.pid)
        finally:
            os.killpg(proc.pid, signal.SIGTERM)
            proc.wait(timeout=20)
    ms = sorted(x * 1000 for x in latencies)
    n_tables = (args.tables + (args.bot_tables if args.bots else 0)) * args.games
    extra = f" + {args.bot_tables} tables of 1 person and {args.seats - 1} {args.bots} bots" if args.bots else ""
    where = (" (bots think on the event loop)" if on_loop else " (slow bots think off the event loop)") if args.bots else ""
    print(f"{args.tables} tables x {args.seats} seats{extra}, {args.games} game(s) each{where}; "
          f"load average {os.getloadavg()[0]:.1f}")
    print(f"moves: {len(ms)} in {wall:.1f} s = {len(ms) / wall:.1f} moves answered/s")
    print(f"move -> every seat of its table: median {statistics.median(ms):.0f} ms, "
          f"p95 {ms[int(0.95 * (len(ms) - 1))]:.0f} ms, max {ms[-1]:.0f} ms (goal <= 100 / <= 500 ms)")
    if waits:
        w = sorted(x * 1000 for x in waits)
        print(f"bot tables, a move -> that person's turn again: {len(w)} moves, median {statistics.median(w):.0f} ms, "
              f"max {w[-1]:.0f} ms")
    print(f"messages lost: {lost}")
    print(f"server CPU: {cpu1 - cpu0:.1f} s in all = {(cpu1 - cpu0) / n_tables:.2f} s per table-game; "
          f"memory: {rss0 / 2**20:.0f} MB at start, {rss1 / 2**20:.0f} MB after "
          f"(+{(rss1 - rss0) / 2**20 / n_tables:.1f} MB per table)")
    ok = statistics.median(ms) <= 100 and ms[-1] <= 500 and lost == 0
    print("goal met" if ok else "goal NOT met", flush=True)
    return ok


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=8)
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--games", type=int, default=1, help="games each table plays, one after another")
    parser.add_argument("--bots", default=None, help="a bot level (strong, greedy, ...) for the bot tables")
    parser.add_argument("--bot-tables", type=int, default=4, help="tables of one person and bots (with --bots)")
    parser.add_argument("--compare", action="store_true", help="bots thinking on the event loop, then off it")
    args = parser.parse_args()
    if args.compare:
        measure(args, on_loop=True)
    measure(args)


if __name__ == "__main__":
    main()
