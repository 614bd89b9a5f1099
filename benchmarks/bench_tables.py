"""Class tables under load (issue 26): 8 tables of 4 seats playing at once over the websocket.

Starts the table server (``python -m dungeon_guilds.app.table_server``: the same routes
``make dashboard`` serves) in its own process on 127.0.0.1, and plays from this process with
simulated seats (:class:`~dungeon_guilds.app.tables.client.SeatClient`, no browsers), each from
its own loopback address (a device of its own, so the server's per-address limits apply as in a
class): each seat plays as a page does (it picks adventurers itself from the state's ``picks``,
then sends ``act`` with the move; at each round shown it presses Continue once). Measured:

* **latency**: from sending a move to the new state's arrival at *every* seat of that table
  (median, 95th percentile, max);
* **moves answered per second** over the whole run;
* **no message lost**: every seat received the state of every version of its table;
* the server process's **CPU seconds** and **memory** (RSS) per table.

Goals (issue 37) on the project's 2-core machine: 8 tables × 4 seats median ≤ 50 ms, p95 ≤ 150 ms,
max ≤ 300 ms; 30 tables (``--tables 30``) median ≤ 100 ms, max ≤ 500 ms; ≤ 0.5 server CPU-s per
table-game; nothing lost. ``--flood`` adds misbehaving clients beside the tables: issue 51's
two floods by default (40 connections of one address, each under its own rate, every message an
``open`` with a 14 KB deck; ``lang`` toggles from 96 pages of one address), ``--flood old`` issue
37's three (a page that never reads, 150 pages on one seat, code guessing), ``--flood all`` the
five; it prints the server's memory growth (goal ≤ +50 MB) and, for the new floods, the bytes the
server sent per message they sent. Run: ``.venv/bin/python benchmarks/bench_tables.py [--tables 8]
[--seats 4] [--games 1] [--flood [new|old|all]]``.

``--bots strong --bot-tables 4`` adds tables of one person and ``seats - 1`` bots of that level
(the opener picks it) beside the tables of people; the latency goal is measured at the tables
of people, and the bot tables' wait (a move until it is that person's turn again: the bots'
thinking) is reported apart. ``--compare`` runs it twice in one go, the server thinking for the
slow bots on its event loop (``--bots-on-loop``, the old way) and then off it (a thread).

``--workers N`` (issue 52) serves the tables from N processes on the one port (``table_server
--workers N``), sharing them through a redis-server of the benchmark's own (``--store redis``,
the default with more than one worker; ``--store files`` the JSON files of one process); the
server's CPU is then the sum over its processes, and Redis's own CPU is printed apart. The load
average is printed with every figure: the machine is shared.
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

from tornado.httpclient import HTTPRequest

from dungeon_guilds.app.tables.client import SeatClient, SilentPage, table_url

NAMES = ("Ann", "Bo", "Cy", "Di", "Ed", "Flo")
SERVER_ENV: dict[str, str] = {}  # the server runs with its defaults (limits included)


def from_address(url: str, address: str) -> HTTPRequest:
    """The websocket request sent from ``address`` (a loopback address of 127.0.0.0/8): each
    simulated device has its own, as each student's device has on a class network, so the
    server's per-address limits apply to it alone."""
    return HTTPRequest(url, network_interface=address)
CLK = os.sysconf("SC_CLK_TCK")
PAGE = os.sysconf("SC_PAGE_SIZE")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def cpu_and_rss(pid: int) -> tuple[float, int]:
    """CPU seconds and resident memory of ``pid`` and its children (the workers: ``--workers``;
    a worker's own bots' process included)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    cpu = (int(fields[11]) + int(fields[12])) / CLK
    rss = int(Path(f"/proc/{pid}/statm").read_text().split()[1]) * PAGE
    for child in Path(f"/proc/{pid}/task/{pid}/children").read_text().split():
        try:
            c_cpu, c_rss = cpu_and_rss(int(child))
        except (OSError, IndexError):
            continue  # ended meanwhile
        cpu, rss = cpu + c_cpu, rss + c_rss
    return cpu, rss


def cpu_parts(pid: int) -> dict[int, float]:
    """CPU seconds of ``pid`` alone (key 0) and of each child with its own children (``--workers``:
    the front, then each worker)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    parts = {0: (int(fields[11]) + int(fields[12])) / CLK}
    for child in Path(f"/proc/{pid}/task/{pid}/children").read_text().split():
        try:
            parts[int(child)] = cpu_and_rss(int(child))[0]
        except (OSError, IndexError):
            continue
    return parts


def start_server(port: int, tables: Path, on_loop: bool = False, workers: int = 1,
                 store: str | None = None, most: int = 30) -> subprocess.Popen:
    """The server (``workers`` processes; ``store`` a redis:// URL, else the JSON files; at most
    ``most`` open tables); its log (stderr) goes to ``tables/server.log`` (the flood's drops are
    counted there)."""
    extra = (["--bots-on-loop"] if on_loop else []) + ["--workers", str(workers)]
    extra += ["--tables-store", store] if store else []
    proc = subprocess.Popen([sys.executable, "-m", "dungeon_guilds.app.table_server", "--port", str(port),
                             "--tables-dir", str(tables)] + extra, start_new_session=True,
                            env={**os.environ, **SERVER_ENV, "DUNGEON_GUILDS_MAX_TABLES": str(max(30, most))},
                            stdout=open(tables / "server.out", "w"), stderr=open(tables / "server.log", "w"))
    for _ in range(300):
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/dungeon-guilds/tables", timeout=2).read()
            if (tables / "server.out").read_text().count("Class tables on") >= workers:
                return proc
        except OSError:
            pass
        time.sleep(0.2)
    os.killpg(proc.pid, signal.SIGKILL)
    raise SystemExit("the table server did not start")


def enabled(state: dict, prefix: str) -> list[str]:
    return [k for k, t in state["targets"].items() if k.startswith(prefix) and t["enabled"]]


async def seat_table(url: str, seats: int, device: int = 0, routed: bool = False) -> list[SeatClient]:
    """A table opened and its seats joined; ``routed`` (several processes, issue 52): as tables.js
    does, the opener moves to a socket naming its table and the others join on such sockets (the
    front sends them all to the table's process)."""
    address = lambda i: f"127.0.{device % 200 + 10}.{i + 1}"  # noqa: E731
    opener = await SeatClient(from_address(url, address(0))).connect()
    await opener.send({"op": "open", "seats": seats, "name": NAMES[0]})
    code = (await opener.wait(lambda m: m["op"] == "seat"))["code"]
    if routed:
        url, token = table_url(url, code), opener.token
        opener.close()
        opener = await SeatClient(from_address(url, address(0))).connect()
        opener.code, opener.token = code, token
        await opener.send({"op": "resume", "code": code, "token": token})
        await opener.wait(lambda m: m["op"] == "state")
    clients = [opener] + [await SeatClient(from_address(url, address(i))).connect() for i in range(1, seats)]
    for i in range(1, seats):
        await clients[i].send({"op": "join", "code": code, "name": NAMES[i]})
    for c in clients:
        await c.wait(lambda m: m["op"] == "state" and m["started"])
    return clients


def choose(state: dict, rng: random.Random) -> str:
    """The move a page makes: it picks adventurers itself (issue 37: ``picks`` came with the
    state; at the setup two, then the exhaust button), then clicks an enabled target."""
    hands = enabled(state, "hand-")
    if state["phase_id"] == "setup":
        a, b = sorted(int(h[5:]) for h in rng.sample(hands, 2))
        return state["picks"][f"{a},{b}"]["targets"]["exhaust"]["action"]
    targets = state["picks"][rng.choice(hands)[5:]]["targets"]
    return targets[rng.choice([k for k, t in targets.items() if t["enabled"]])]["action"]


async def one_move(clients: list[SeatClient], rng: random.Random) -> float | None:
    """The next seat with a choice clicks it; the seconds until every seat has the new state."""
    mover = next((c for c in clients if enabled(c.state, "hand-")), None)
    if mover is None:
        return None
    state = mover.state
    action = choose(state, rng)
    v = state["version"]
    for c in clients:
        c.mark()
    t0 = time.perf_counter()
    await mover.send({"op": "act", "action": action, "version": v})
    arrived = [await c.wait(lambda m: m["op"] == "state" and m["version"] > v) for c in clients]
    assert all(m["version"] == v + 1 for m in arrived)
    return max(t for c in clients for t, m in c.frames if m.get("version") == v + 1) - t0


async def play_table(url: str, seats: int, seed: int, latencies: list[float], routed: bool = False) -> list[SeatClient]:
    clients = await seat_table(url, seats, seed, routed)
    rng = random.Random(seed)
    said: set[tuple[int, int]] = set()  # (seat, round) that pressed Continue: once each, as a page does
    while not clients[0].state["over"]:
        waiting = [(i, c) for i, c in enumerate(clients) if (c.state.get("resolving") or {}).get("ready") is False]
        if waiting:  # a round shown resolving (issue 24): every seat presses Continue (not timed)
            for i, c in waiting:
                if (i, c.state["resolving"]["round"]) not in said:
                    said.add((i, c.state["resolving"]["round"]))
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
    c = await SeatClient(from_address(url, f"127.0.{seed % 200 + 10}.9")).connect()
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
        action = choose(state, rng)
        v = state["version"]
        c.mark()
        t0 = time.perf_counter()
        await c.send({"op": "act", "action": action, "version": v})
        await c.wait(lambda m: m["op"] == "state" and m["version"] > v and (m["over"] or enabled(m, "hand-")), timeout=120)
        waits.append(time.perf_counter() - t0)
    c.close()


async def run(url: str, tables: int, seats: int, games: int, bots: str | None = None, bot_tables: int = 0,
              waits: list[float] | None = None, routed: bool = False, received: list[int] | None = None
              ) -> tuple[list[float], int, float]:
    """The tables' games; ``received`` gets the messages each seat's socket was sent."""
    latencies: list[float] = []
    lost = 0
    t0 = time.perf_counter()
    for g in range(games):
        people = [play_table(url, seats, 100 * g + t, latencies, routed) for t in range(tables)]
        robots = [play_bot_table(url, seats, bots, 100 * g + 50 + t, waits) for t in range(bot_tables if bots else 0)]
        results = (await asyncio.gather(*people, *robots))[:tables]
        for clients in results:
            lost += lost_messages(clients)
            for c in clients:
                if received is not None:
                    received.append([r.encode() if isinstance(r, str) else r for r in c.raw])
                c.close()
    return latencies, lost, time.perf_counter() - t0


# ---------------------------------------------------------------------- --flood: misbehaving clients
async def pick_flood(url: str, stop: asyncio.Event, counts: dict) -> None:
    """A seated page (a game on, bots at its table) that pipelines pick / lang / step messages
    and never reads a reply (:class:`SilentPage`): the server must drop it, not buffer for it."""
    port = int(url.split(":")[2].split("/")[0])
    flood = [{"op": "pick", "strength": 3}, {"op": "lang", "lang": "zh"}, {"op": "lang", "lang": "en"},
             {"op": "step", "step": 1}]
    while not stop.is_set():
        page = await SilentPage("127.0.0.1", port, "/dungeon-guilds/tables/ws", "127.0.0.4").connect()
        try:
            await page.send({"op": "open", "seats": 4, "name": "Flood"})
            await page.send({"op": "bots"})
            for k in range(100_000):
                if stop.is_set():
                    break
                await page.send(flood[k % len(flood)])
                counts["flood_sent"] = counts.get("flood_sent", 0) + 1
                if k % 50 == 0:
                    await asyncio.sleep(0)
        except OSError:  # the server closed this page (what it should do)
            counts["flood_dropped"] = counts.get("flood_dropped", 0) + 1
        page.close()
        await asyncio.sleep(0.2)


async def socket_pile(url: str, stop: asyncio.Event, counts: dict, n: int = 150) -> None:
    """One table; 150 pages resume seat 1 with its token, then close again, over and over."""
    opener = await SeatClient(from_address(url, "127.0.0.3")).connect()
    await opener.send({"op": "open", "seats": 4, "name": "Pile"})
    await opener.wait(lambda m: m["op"] == "seat")
    code, token = opener.code, opener.token
    while not stop.is_set():
        pile = []
        for _ in range(n):
            c = await SeatClient(from_address(url, "127.0.0.3")).connect()
            await c.send({"op": "resume", "code": code, "token": token})
            pile.append(c)
        counts["pile_opened"] = counts.get("pile_opened", 0) + n
        await asyncio.sleep(0.5)
        kept = sum(1 for c in pile if not c._reader.done())  # the others were closed by the server
        counts["pile_most_kept_open"] = max(counts.get("pile_most_kept_open", 0), kept)
        for c in pile:
            c.close()
        await asyncio.sleep(0.2)
    opener.close()


async def code_guessing(url: str, stop: asyncio.Event, counts: dict) -> None:
    """Guess table codes from new connections (reconnecting after each refusal)."""
    rng = random.Random(7)
    while not stop.is_set():
        c = await SeatClient(from_address(url, "127.0.0.2")).connect()
        for _ in range(25):
            c.mark()
            await c.send({"op": "join", "code": "".join(rng.choice("ABCDEFGHJKMNPQRSTUVWXYZ23456789") for _ in range(6)),
                          "name": "Guess"})
            reply = await c.wait(lambda m: m["op"] in ("refused", "seat"), timeout=30)
            key = "guess_" + reply.get("code", "seat")
            counts[key] = counts.get(key, 0) + 1
            if reply.get("code") == "too_many_codes":
                break
        c.close()
        await asyncio.sleep(0.05)


def big_deck(size: int = 13_900) -> str:
    """A valid deck file of about ``size`` characters (issue 51's probe sent 14 KB decks: each is
    parsed, ~10 ms of the server's CPU): the reference deck's heal costs and levels, then room
    fronts of every level, one copy each, until the size."""
    head = (Path(__file__).parents[1] / "dungeon_guilds" / "data" / "reference_deck.toml").read_text()
    head = "\n".join(line for line in head.split("[[rooms]]")[0].splitlines() if not line.startswith("#")) + "\n"
    fronts = [(1, d, t) for d in range(3, 6) for t in range(2, 5)] + [(2, d, t) for d in range(5, 8) for t in range(4, 8)] \
        + [(3, d, t) for d in range(7, 10) for t in range(8, 13)]
    parts, k = [head], 0
    while sum(map(len, parts)) < size - 60:
        level, defence, treasure = fronts[k % len(fronts)]
        parts.append(f"[[rooms]]\nlevel = {level}\ndefence = {defence}\ntreasure = {treasure}\ncount = 1\n\n")
        k += 1
    return "".join(parts)


def tally(counts: dict, clients: list[SeatClient], sent: int, prefix: str, since: dict | None = None) -> None:
    """The bytes the server sent ``clients`` per message they sent (of each client's frames from
    ``since[client]`` on: the flood's own, not its setup's), and the refusals they got."""
    since = since or {}
    got = sum(len(r) for c in clients for r in c.raw[since.get(c, 0):])
    counts[f"{prefix}_sent"] = sent
    counts[f"{prefix}_bytes_out_per_message_in"] = round(got / max(1, sent))
    for c in clients:
        for _, m in c.frames:
            if m.get("op") == "refused":
                key = f"{prefix}_refused_{m.get('code')}"
                counts[key] = counts.get(key, 0) + 1


async def connect_many(url: str, address: str, n: int, counts: dict, prefix: str) -> list[SeatClient]:
    """Up to ``n`` pages from ``address`` (the server refuses those over its per-address count)."""
    pages = []
    for _ in range(n):
        try:
            pages.append(await SeatClient(from_address(url, address)).connect())
        except Exception:  # noqa: BLE001 - refused at the upgrade (429) or closed: what the server should do
            counts[f"{prefix}_connections_refused"] = counts.get(f"{prefix}_connections_refused", 0) + 1
    counts[f"{prefix}_connections_held"] = len(pages)
    return pages


async def deck_crowd(url: str, stop: asyncio.Event, counts: dict, n: int = 40, rate: float = 9.5) -> None:
    """Issue 51's first flood: 40 connections from one address, each under its own rate (9.5
    messages a second), each message an ``open`` with a 14 KB deck."""
    pages = await connect_many(url, "127.0.0.5", n, counts, "deck")
    deck, sent = big_deck(), 0
    message = '{"op": "open", "seats": 4, "name": "Deck", "deck": %s}' % __import__("json").dumps(deck)

    async def one(page: SeatClient) -> None:
        nonlocal sent
        while not stop.is_set():
            try:
                await page.send(message)
            except Exception:  # noqa: BLE001 - the server closed it
                return
            sent += 1
            await asyncio.sleep(1 / rate)

    counts["deck_started"] = True
    await asyncio.gather(*(one(p) for p in pages))
    tally(counts, pages, sent, "deck")
    for p in pages:
        p.close()


async def lang_toggles(url: str, stop: asyncio.Event, counts: dict, n: int = 96, rate: float = 9.5) -> None:
    """Issue 51's second flood: one address seats itself (4 tables of 6 people at their secret
    setup, where every seat has ``picks``), then holds up to 96 pages on those seats, each
    toggling ``lang`` under its own rate."""
    address, pages = "127.0.0.6", []
    seats: list[tuple[str, str]] = []  # (code, token)
    for _ in range(4):
        opener = (await connect_many(url, address, 1, counts, "lang") or [None])[0]
        if opener is None:
            break
        await opener.send({"op": "open", "seats": 6, "name": NAMES[0]})
        reply = await opener.wait(lambda m: m["op"] in ("seat", "refused"))
        pages.append(opener)
        if reply["op"] != "seat":
            break
        seats.append((opener.code, opener.token))
        for name in NAMES[1:]:
            page = (await connect_many(url, address, 1, counts, "lang") or [None])[0]
            if page is None:
                break
            await page.send({"op": "join", "code": opener.code, "name": name})
            if (await page.wait(lambda m: m["op"] in ("seat", "refused")))["op"] == "seat":
                seats.append((page.code, page.token))
            pages.append(page)
    extra = await connect_many(url, address, max(0, n - len(pages)), counts, "lang")
    for k, page in enumerate(extra):
        code, token = seats[k % len(seats)]
        await page.send({"op": "resume", "code": code, "token": token})
    pages += extra
    counts["lang_connections_held"] = len(pages)
    await asyncio.sleep(0.5)  # the resumed pages' first states
    sent, since = 0, {p: len(p.raw) for p in pages}
    counts["lang_started"] = True

    async def one(page: SeatClient) -> None:
        nonlocal sent
        k = 0
        while not stop.is_set():
            try:
                await page.send({"op": "lang", "lang": ("zh", "en")[k % 2]})
            except Exception:  # noqa: BLE001 - the server closed it
                return
            sent, k = sent + 1, k + 1
            await asyncio.sleep(1 / rate)

    await asyncio.gather(*(one(p) for p in pages))
    tally(counts, pages, sent, "lang", since)
    for p in pages:
        p.close()


FLOODS = {"old": (pick_flood, socket_pile, code_guessing), "new": (deck_crowd, lang_toggles)}


async def flood_run(url: str, tables: int, seats: int, which: str = "new",
                    games: int = 1) -> tuple[list[float], int, float, dict]:
    """8 normal tables play while misbehaving clients run beside them: issue 51's two floods
    (``new``: 40 connections of one address sending ``open`` with a 14 KB deck, each under its
    rate; ``lang`` toggles from 96 pages of one address), or issue 37's three (``old``: a page
    that never reads, 150 pages on one seat, code guessing), or all five."""
    stop, counts = asyncio.Event(), {}
    floods = FLOODS["old"] + FLOODS["new"] if which == "all" else FLOODS[which]
    bad = [asyncio.ensure_future(f(url, stop, counts)) for f in floods]
    await asyncio.sleep(1.0)  # the floods are under way before the class starts…
    for _ in range(300):  # …the new floods' pages seated and sending (at most 30 s more)
        if all(counts.get(f"{f.__name__.split('_')[0]}_started") for f in floods if f in FLOODS["new"]):
            break
        await asyncio.sleep(0.1)
    try:
        result = await run(url, tables, seats, games)
    finally:
        stop.set()
        await asyncio.wait(bad, timeout=30)
    for task in bad:
        if task.done() and not task.cancelled() and task.exception() is not None:
            counts[f"error in {task}"] = repr(task.exception())
    return (*result, counts)


def deflated(sockets: list[list[bytes]]) -> int:
    """The bytes the same messages would take deflated as permessage-deflate does (RFC 7692: a
    raw deflate stream a socket, flushed at each message, the context kept from one to the next),
    at zlib's fastest level."""
    import zlib

    total = 0
    for messages in sockets:
        z = zlib.compressobj(1, zlib.DEFLATED, -15)
        total += sum(len(z.compress(m) + z.flush(zlib.Z_SYNC_FLUSH)) - 4 for m in messages)
    return total


def redis_stats(url: str) -> dict[str, int]:
    """Redis's own counts so far: commands processed, bytes in and out on its connections."""
    import redis

    info = redis.Redis.from_url(url).info("stats")
    return {"commands": info["total_commands_processed"], "in": info["total_net_input_bytes"],
            "out": info["total_net_output_bytes"]}


def goal(tables: int) -> tuple[float, float, float]:
    """Issue 37's latency goals (ms): median, p95, max — 8 tables of 4, or a year group (up to 30)."""
    return (50, 150, 300) if tables <= 8 else (100, 500, 500)


def goal_words(tables: int) -> str:
    med, p95, top = goal(tables)
    return f"median <= {med:.0f}, p95 <= {p95:.0f}, max <= {top:.0f} ms; <= 0.5 CPU-s per table-game"


def measure(args, on_loop: bool = False) -> tuple[bool, float, float]:
    """One run of the server; prints its figures; whether the latency goal is met, the moves answered a second,
    and the CPU-seconds a move took on this machine (server, Redis and the simulated pages together)."""
    from contextlib import nullcontext

    from dungeon_guilds.app.tables.local_redis import LocalRedis

    port = free_port()
    waits: list[float] = []
    redis = args.store == "redis" or (args.store is None and args.workers > 1)
    with tempfile.TemporaryDirectory() as tmp, (LocalRedis() if redis else nullcontext()) as store:
        proc = start_server(port, Path(tmp), on_loop, args.workers, store.url if store else None,
                            args.tables + args.bot_tables)
        try:
            store_cpu0 = cpu_and_rss(store.proc.pid)[0] if store else 0.0
            stats0 = redis_stats(store.url) if store else {}
            cpu0, rss0 = cpu_and_rss(proc.pid)
            parts0 = cpu_parts(proc.pid)
            mine0, load0 = time.process_time(), os.getloadavg()[0]
            routed, received = redis and not args.unrouted, []
            url = f"ws://127.0.0.1:{port}/dungeon-guilds/tables/ws"
            counts: dict = {}
            if args.flood:
                latencies, lost, wall, counts = asyncio.run(flood_run(url, args.tables, args.seats, args.flood,
                                                                          args.games))
            else:
                latencies, lost, wall = asyncio.run(run(url, args.tables, args.seats, args.games, args.bots,
                                                        args.bot_tables, waits, routed, received))
            cpu1, rss1 = cpu_and_rss(proc.pid)
            parts = {k: v - parts0.get(k, 0.0) for k, v in cpu_parts(proc.pid).items()}
            mine = time.process_time() - mine0
            stats = {k: v - stats0[k] for k, v in redis_stats(store.url).items()} if store else {}
            store_cpu = cpu_and_rss(store.proc.pid)[0] - store_cpu0 if store else None
            log = (Path(tmp) / "server.log").read_text(errors="replace")
            for why in ("the page does not read its messages", "too many messages", "too many pages on one seat"):
                counts[f"server dropped ({why})"] = log.count(f"dropped: {why}")
            counts["server refused pages (logged once per address)"] = log.count("class table pages from")
        except Exception:
            tail = (Path(tmp) / "server.log").read_text(errors="replace").splitlines()[-15:]
            print("the run stopped; the server's log ends:", *tail, sep="\n  ", flush=True)
            raise
        finally:
            os.killpg(proc.pid, signal.SIGTERM)
            proc.wait(timeout=20)
    ms = sorted(x * 1000 for x in latencies)
    per = lambda seconds: f"{1000 * seconds / max(1, len(ms)):.2f} ms"  # noqa: E731 - CPU a move
    n_tables = (args.tables + (args.bot_tables if args.bots else 0)) * args.games
    extra = f" + {args.bot_tables} tables of 1 person and {args.seats - 1} {args.bots} bots" if args.bots else ""
    where = (" (bots think on the event loop)" if on_loop else " (slow bots think off the event loop)") if args.bots else ""
    served = f"{args.workers} process(es), tables in {'Redis' if store_cpu is not None else 'JSON files'}"
    served += (", each table's sockets naming it (?table=)" if routed else
               ", sockets naming no table (spread by the front)" if args.workers > 1 else "")
    print(f"{args.tables} tables x {args.seats} seats{extra}, {args.games} game(s) each{where}; {served}; "
          f"load average {load0:.1f} at start, {os.getloadavg()[0]:.1f} (1 min), {os.getloadavg()[1]:.1f} (5 min) at end")
    print(f"moves: {len(ms)} in {wall:.1f} s = {len(ms) / wall:.1f} moves answered/s")
    print(f"move -> every seat of its table: median {statistics.median(ms):.0f} ms, "
          f"p95 {ms[int(0.95 * (len(ms) - 1))]:.0f} ms, max {ms[-1]:.0f} ms (goal {goal_words(args.tables)})")
    if waits:
        w = sorted(x * 1000 for x in waits)
        print(f"bot tables, a move -> that person's turn again: {len(w)} moves, median {statistics.median(w):.0f} ms, "
              f"max {w[-1]:.0f} ms")
    print(f"messages lost: {lost}" + ("" if args.workers == 1 else " (several processes: a version is skipped when "
                                      "two processes change one table at once, e.g. Continue pressed by seats on both; "
                                      "the page is sent the newer)"))
    if args.flood:
        print("beside them: " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())))
        print(f"server memory: {rss0 / 2**20:.0f} MB -> {rss1 / 2**20:.0f} MB (+{(rss1 - rss0) / 2**20:.0f} MB; goal <= +50)")
    print(f"server CPU: {cpu1 - cpu0:.1f} s in all = {(cpu1 - cpu0) / n_tables:.2f} s per table-game; "
          f"memory: {rss0 / 2**20:.0f} MB at start, {rss1 / 2**20:.0f} MB after "
          f"(+{(rss1 - rss0) / 2**20 / n_tables:.1f} MB per table)")
    if args.workers > 1:
        print(f"server CPU by process: the front {parts.pop(0):.2f} s, the workers "
              + ", ".join(f"{v:.1f} s" for v in parts.values()))
    if store_cpu is not None:
        print(f"redis-server CPU: {store_cpu:.1f} s = {1000 * store_cpu / max(1, len(ms)):.2f} ms per move; "
              f"per move: {stats['commands'] / max(1, len(ms)):.1f} Redis commands, {stats['in'] / max(1, len(ms)):.0f} bytes "
              f"to Redis, {stats['out'] / max(1, len(ms)):.0f} bytes from it")
    print(f"CPU over the run ({wall:.1f} s wall, {os.cpu_count()} cores = {wall * os.cpu_count():.0f} core-s): "
          f"server {cpu1 - cpu0:.1f} s, redis {store_cpu or 0:.1f} s, this benchmark's simulated pages {mine:.1f} s "
          f"(per move: {per(cpu1 - cpu0)}, {per(store_cpu or 0)}, {per(mine)}); "
          f"bytes sent to the pages per move: {sum(len(r) for c in received for r in c) / max(1, len(ms)):.0f}, "
          f"{deflated(received) / max(1, len(ms)):.0f} if deflated (permessage-deflate, level 1, its context kept; "
          f"not enabled)")
    cpu_game = (cpu1 - cpu0) / n_tables
    p95 = ms[int(0.95 * (len(ms) - 1))]
    med_goal, p95_goal, max_goal = goal(args.tables)
    ok = (statistics.median(ms) <= med_goal and p95 <= p95_goal and ms[-1] <= max_goal and lost == 0
          and (args.flood or args.bots or cpu_game <= 0.5) and (not args.flood or rss1 - rss0 <= 50 * 2**20))
    print("goal met" if ok else "goal NOT met", flush=True)
    return ok, len(ms) / wall, ((cpu1 - cpu0) + (store_cpu or 0) + mine) / max(1, len(ms))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=8)
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--games", type=int, default=1, help="games each table plays, one after another")
    parser.add_argument("--bots", default=None, help="a bot level (strong, greedy, ...) for the bot tables")
    parser.add_argument("--bot-tables", type=int, default=4, help="tables of one person and bots (with --bots)")
    parser.add_argument("--workers", default="1", help="server processes on the one port (issue 52); a list (1,2) "
                        "runs one after another in this run, and prints the ratio of their moves answered a second")
    parser.add_argument("--store", choices=("files", "redis"), default=None,
                        help="where the tables are kept (default: files with one worker, redis with more)")
    parser.add_argument("--unrouted", action="store_true",
                        help="with Redis: the pages' sockets name no table (the seats of a table spread over the "
                             "processes), not ?table=CODE as tables.js makes them")
    parser.add_argument("--compare", action="store_true", help="bots thinking on the event loop, then off it")
    parser.add_argument("--flood", nargs="?", const="new", choices=("new", "old", "all"), default=None,
                        help="misbehaving clients beside the normal tables: new (issue 51: 40 connections of one "
                             "address each sending open with a 14 KB deck under its rate; lang toggles from 96 pages "
                             "of one address), old (issue 37: a page that never reads, 150 pages on one seat, "
                             "table-code guessing) or all")
    args = parser.parse_args()
    counts = [int(n) for n in args.workers.split(",")]
    rates, ceilings = [], []
    for n in counts:
        args.workers = n
        if args.compare:
            measure(args, on_loop=True)
        _, rate, cpu_move = measure(args)
        rates.append(rate)
        # every core busy with this run's own work (the server, Redis and the simulated pages share the cores):
        # the most moves a second this machine could answer at this run's CPU a move
        ceilings.append(os.cpu_count() / cpu_move)
        print()
    if len(counts) > 1:
        print("moves answered a second, " + ", ".join(f"{n} process(es) {r / rates[0]:.2f}x" for n, r in zip(counts, rates))
              + f" those of {counts[0]}")
        print(f"the most this machine allows, every core busy at the run's CPU a move (the simulated pages share "
              f"the {os.cpu_count()} cores with the server): "
              + ", ".join(f"{n} process(es) {c / rates[0]:.2f}x" for n, c in zip(counts, ceilings) if n > 1)
              + f" those of {counts[0]}")


if __name__ == "__main__":
    main()
