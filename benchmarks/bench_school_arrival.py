"""Benchmark: a class of 30 arriving at once on a school's dashboard servers (issue 52, item 4).

    .venv/bin/python benchmarks/bench_school_arrival.py --servers 2 --pages 30   # two servers behind nginx
    .venv/bin/python benchmarks/bench_school_arrival.py --servers 1 --pages 30   # one server, the same way

It starts what ``tools/school.py --servers N --dashboard`` starts (one Redis, N ``dungeon-guilds
dashboard`` servers on loopback ports, nginx in front, sticky by the ``dg_server`` cookie), each
server preparing ``ceil(pages / N)`` kernels (``$DUNGEON_GUILDS_POOL``), and waits until every
server has printed READY (its pool is filled). Then one headless Chromium opens ``--pages`` pages
at the same moment, each in its own context (its own cookie, so nginx spreads them), and times
each page from navigation start until it is **interactive**: the Learn board's svg is drawn
(``.dg-dashboard .dg-stepper .dg-board svg``). Printed: the seconds (median / p95 / max), the
pages each server took, the load average before and after, and the CPU-seconds spent during the
arrival by the servers (Voila and its kernels), by Chromium, and by Redis + nginx — with the bound
they imply on this machine: all that CPU divided by its cores. Everything it starts is stopped by
process group at the end. Not a test (too heavy for CI).
"""

from __future__ import annotations

import argparse
import asyncio
import math
import os
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path

import psutil

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))
sys.path.insert(0, str(ROOT))

import school  # noqa: E402  (tools/school.py: the deployment this measures)
from dungeon_guilds.app import kernels, serving  # noqa: E402
from dungeon_guilds.app.tables.local_redis import LocalRedis  # noqa: E402

# nginx must pass the Host the browser sent, port included (``$http_host``; ``$host`` drops it and
# Jupyter's origin check then refuses every kernel websocket): tools/school.py does since stop 56
assert "proxy_set_header Host $http_host;" in school.CONF

INTERACTIVE = ".dg-dashboard .dg-stepper .dg-board svg"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--disable-dev-shm-usage"]


def tree_cpu(roots: list[int]) -> float:
    """CPU-seconds (user + system) of ``roots`` and all their descendants alive now."""
    total, seen = 0.0, set()
    for pid in roots:
        try:
            proc = psutil.Process(pid)
            for p in [proc, *proc.children(recursive=True)]:
                if p.pid not in seen:
                    seen.add(p.pid)
                    t = p.cpu_times()
                    total += t.user + t.system + t.children_user + t.children_system
        except psutil.Error:
            continue
    return total


def tree_rss_mb(roots: list[int]) -> float:
    total = 0
    for pid in roots:
        try:
            proc = psutil.Process(pid)
            total += sum(p.memory_info().rss for p in [proc, *proc.children(recursive=True)])
        except psutil.Error:
            continue
    return round(total / 2**20)


def kernel_count(root: int) -> int:
    try:
        return sum(any(m.decode() in " ".join(p.cmdline()) for m in serving.KERNEL_MARKS)
                   for p in psutil.Process(root).children(recursive=True))
    except psutil.Error:
        return 0


def chromium_pid(marker: str) -> int | None:
    """The browser process launched with ``marker`` among its flags (not another run's Chromium)."""
    for p in psutil.process_iter(["pid", "cmdline"]):
        if any(marker in a for a in (p.info["cmdline"] or [])):
            return p.info["pid"]
    return None


def wait_ready(directory: Path, servers: int, timeout: float) -> float:
    """Seconds until every server's log says READY (its pool of kernels is filled)."""
    t0 = time.monotonic()
    while True:
        logs = [(directory / f"server{i}" / "server.log") for i in range(servers)]
        if all(log.exists() and "READY:" in log.read_text(errors="replace") for log in logs):
            return round(time.monotonic() - t0, 1)
        if time.monotonic() - t0 > timeout:
            raise TimeoutError(f"the pools were not filled within {timeout} s")
        time.sleep(1)


async def one_page(browser, url: str, timeout: float) -> dict:
    context = await browser.new_context(viewport={"width": 1024, "height": 768})
    page = await context.new_page()
    t0 = time.monotonic()
    out: dict = {}
    try:
        await page.goto(url, wait_until="commit", timeout=timeout * 1000)
        await page.wait_for_selector(INTERACTIVE, timeout=timeout * 1000)
        out["s"] = round(time.monotonic() - t0, 1)
    except Exception as exc:  # noqa: BLE001 - a page that never becomes interactive is a result
        out["error"] = str(exc).splitlines()[0]
    out["context"] = context
    return out


async def arrival(url: str, pages: int, timeout: float, chromium: str, server_pids: list[int],
                  others: list[int]) -> dict:
    from playwright.async_api import async_playwright

    marker = f"--dg-bench-arrival={uuid.uuid4().hex}"
    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=chromium, headless=True, args=[*CHROMIUM_ARGS, marker])
        browser_pid = chromium_pid(marker)
        roots = {"servers": server_pids, "chromium": [browser_pid] if browser_pid else [], "redis+nginx": others}
        cpu0 = {k: tree_cpu(v) for k, v in roots.items()}
        load0, t0 = os.getloadavg(), time.monotonic()
        results = await asyncio.gather(*(one_page(browser, url, timeout) for _ in range(pages)))
        wall = round(time.monotonic() - t0, 1)
        cpu = {k: round(tree_cpu(v) - cpu0[k], 1) for k, v in roots.items()}
        rss = {k: tree_rss_mb(v) for k, v in roots.items()}
        kernels_each = [kernel_count(pid) for pid in server_pids]
        load1 = os.getloadavg()
        for r in results:
            await r.pop("context").close()
        await browser.close()
    return {"results": results, "wall_s": wall, "cpu_s": cpu, "rss_mb": rss, "kernels_each": kernels_each, "load_before": load0,
            "load_after": load1}


def report(args, fill_s: float, m: dict) -> None:
    times = sorted(r["s"] for r in m["results"] if "s" in r)
    errors = [r["error"] for r in m["results"] if "error" in r]
    p95 = times[max(0, math.ceil(0.95 * len(times)) - 1)] if times else None
    total = sum(m["cpu_s"].values())
    cores = os.cpu_count() or 1
    print(f"servers {args.servers}, pool {math.ceil(args.pages / args.servers)} each (filled in {fill_s} s); "
          f"{args.pages} pages at once")
    print(f"interactive: {len(times)}/{args.pages}; median {statistics.median(times) if times else None} s, "
          f"p95 {p95} s, max {times[-1] if times else None} s; all {times}")
    if errors:
        print("not interactive:", errors[:3])
    print("kernels per server with every page open (a page holds one):", m["kernels_each"])
    print("load average before {:.2f} {:.2f} {:.2f}, after {:.2f} {:.2f} {:.2f}".format(*m["load_before"], *m["load_after"]))
    print(f"CPU-seconds during the arrival ({m['wall_s']} s): {m['cpu_s']}; total {total:.1f} = "
          f"{total / args.pages:.2f} a page; RSS at the end (MB): {m['rss_mb']}")
    print(f"bound: {args.pages} pages x {total / args.pages:.2f} CPU-s / {cores} cores = {total / cores:.1f} s "
          f"(the machine's whole CPU for {m['wall_s']} s would be {m['wall_s'] * cores:.1f} CPU-s)")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--servers", type=int, default=2)
    ap.add_argument("--pages", type=int, default=30)
    ap.add_argument("--timeout", type=float, default=300.0, help="seconds a page may take to become interactive")
    ap.add_argument("--fill-timeout", type=float, default=600.0, help="seconds the pools may take to fill")
    ap.add_argument("--chromium", default=os.environ.get("DG_CHROMIUM", "/usr/bin/chromium"))
    args = ap.parse_args()
    os.environ[kernels.POOL_ENV] = str(math.ceil(args.pages / args.servers))
    directory = Path(tempfile.mkdtemp(prefix="dg-school-arrival-"))
    (directory / "redis").mkdir()
    with LocalRedis(directory / "redis") as redis:
        procs: list = []
        try:
            ports, procs = school.start_servers(args.servers, redis.url, directory, dashboard=True)
            port = school.free_port()
            procs.append(school.start_nginx(directory, f"127.0.0.1:{port}", ports))
            fill_s = wait_ready(directory, args.servers, args.fill_timeout)
            time.sleep(5)  # the last kernel's start-up settles
            others = [procs[-1].pid, *redis_pids(redis)]
            m = asyncio.run(arrival(f"http://127.0.0.1:{port}/", args.pages, args.timeout, args.chromium,
                                    [p.pid for p in procs[:-1]], others))
            report(args, fill_s, m)
        finally:
            school.stop(procs)


def redis_pids(redis) -> list[int]:
    proc = getattr(redis, "proc", None) or getattr(redis, "process", None)
    return [proc.pid] if proc is not None else []


if __name__ == "__main__":
    main()
