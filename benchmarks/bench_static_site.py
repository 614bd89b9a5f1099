"""Time the static site (``make site``) in Chromium (issue 31): until the drawn board is on screen
cold (a fresh browser profile), warm (a second visit with the same profile: its HTTP cache,
service worker and compiled code) and cold with the CPU throttled 4x (``Emulation.setCPUThrottlingRate``,
a school Chromebook); the site's size; one Step click (from the click to the board redrawn); and
where a cold start's time goes (from the kernel's console lines: Pyodide's ``Loading …`` /
``Loaded …`` for each wheel install).

Each site is served on 127.0.0.1 under /dungeon-guilds/; every request to another host is aborted
(and counted). Several sites (``--site A --site B``: before and after a change) are measured
interleaved, run by run, so a busy machine slows both alike; the figure is the median of
``--runs``. The load average is printed before and after.

    .venv/bin/python benchmarks/bench_static_site.py [--runs 5] [--site _site --site other] [--json]

``--visits N [--gap 60] [--stay 5]`` (issue 40) times instead one student's visits: the first in a
fresh profile, each later one ``--gap`` seconds after the previous tab was closed, in the same
browser, each tab closed ``--stay`` seconds after its board; per visit the median over ``--runs``
students, and in how many Pyodide came from the snapshot.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlparse

from playwright.sync_api import sync_playwright

from dungeon_guilds.app.site_server import start

ROOT = Path(__file__).resolve().parents[1]
BOARD = ".dg-dashboard .dg-stepper .dg-board svg"  # the drawn board (an SVG) of the Learn tab
PREFIX = "/dungeon-guilds/"
TIMEOUT = 600_000  # ms: a very busy machine

# the kernel's console lines that mark the phases of a start
APP_READY = re.compile(r"^Starting WebSocket")  # JupyterLite asks for a kernel: the page's code runs
LOADING = re.compile(r"^Loading (.+)")  # Pyodide: a package install starts (download + unpack)
LOADED = re.compile(r"^Loaded (.+)")  # … and ends
# the notebook's cell runs: the kernel loads what it imports (the package)
CELL = re.compile(r"^(Loading .*\bdungeon-guilds\b|dungeon-guilds already loaded)")

# one Step in Learn, timed in the page: from the click until the board's SVG changes
STEP_JS = """async () => {
  const stepper = document.querySelector('.dg-dashboard .dg-stepper');
  const board = () => stepper.querySelector('.dg-board');
  const button = stepper.querySelector('button.dg-step');
  const before = board().innerHTML;
  const t0 = performance.now();
  await new Promise((resolve, reject) => {
    setTimeout(() => reject(new Error('the board did not change within 60 s of a Step click')), 60000);
    const seen = new MutationObserver(() => {
      if (board() && board().innerHTML !== before) { seen.disconnect(); resolve(); }
    });
    seen.observe(stepper, {subtree: true, childList: true, attributes: true, characterData: true});
    button.click();
  });
  return performance.now() - t0;
}"""


def size_mb(folder: Path) -> tuple[float, int]:
    files = [f for f in folder.rglob("*") if f.is_file()]
    return sum(f.stat().st_size for f in files) / 1e6, len(files)


def load() -> str:
    return "load average " + " ".join(f"{x:.2f}" for x in os.getloadavg())


class Visit:
    """One page load in one browser profile; console lines timed from the navigation."""

    def __init__(self, playwright, url: str, profile: Path, throttle: float = 1.0):
        self.url, self.lines, self.outside = url, [], []
        self.context = playwright.chromium.launch_persistent_context(
            str(profile), executable_path="/usr/bin/chromium", headless=True,
            viewport={"width": 1024, "height": 768})
        here = urlparse(url).netloc

        def only_loopback(route):
            if urlparse(route.request.url).netloc not in (here, ""):
                self.outside.append(route.request.url)
                return route.abort()
            return route.continue_()

        self.context.route("**/*", only_loopback)
        self.page = self.context.pages[0] if self.context.pages else self.context.new_page()
        if throttle != 1.0:
            cdp = self.context.new_cdp_session(self.page)
            cdp.send("Emulation.setCPUThrottlingRate", {"rate": throttle})
        self.page.on("console", lambda m: self.lines.append((time.perf_counter() - self.t0, m.text)))

    def board(self) -> float:
        """Seconds from the navigation until the drawn board is on screen."""
        self.t0 = time.perf_counter()
        self.page.goto(self.url, timeout=TIMEOUT)
        self.page.wait_for_selector(BOARD, state="visible", timeout=TIMEOUT)
        return time.perf_counter() - self.t0

    def steps(self, n: int) -> list[float]:
        """Up to ``n`` Step clicks in Learn (ms each): seat 1 is the human, so its set-up choice
        (exhaust strengths 1 and 2, R3) is made on the board first; then the bots' moves."""
        page = self.page
        page.wait_for_timeout(1500)  # the first render's last messages settle
        times = []
        for _ in range(n):
            board = page.locator(".dg-stepper .dg-board").first
            if board.get_attribute("data-current") == "0":  # the human's turn
                if board.get_attribute("data-phase") != "setup":
                    break
                for strength in (1, 2):
                    page.locator(".dg-stepper").get_by_role(
                        "button", name=re.compile(rf"^Exhaust strength {strength} ")).first.click()
                    page.wait_for_selector(f".dg-stepper [data-target='hand-{strength}'][aria-pressed='true']")
            times.append(page.evaluate(STEP_JS))
        return times

    def stored(self, site: Path) -> float | None:
        """Seconds after the board until the site's offline worker has stored every file of
        the site and, for a site with the snapshot loader, its Pyodide snapshot is stored (a
        student's first visit stays open that long), or None for a site without the worker."""
        worker = (site / "service-worker.js").read_text(encoding="utf-8")
        version = re.search(r'const VERSION = "([0-9a-f]+)"', worker)
        files = re.search(r"const FILES = (\[.*?\]);", worker)
        if not (version and files):
            return None
        t0, cache = time.perf_counter(), f"dungeon-guilds-{version.group(1)}"
        self.poll("async ([name, n]) => (await caches.keys()).includes(name) && "
                  "(await (await caches.open(name)).keys()).length >= n", [cache, len(json.loads(files.group(1)))])
        if (site / "static" / "pyodide" / "dg-pyodide.js").exists():
            self.poll("async () => (await caches.keys()).includes('dg-pyodide-snapshot') && "
                      "(await (await caches.open('dg-pyodide-snapshot')).keys()).length === 1")
        return time.perf_counter() - t0

    def poll(self, js: str, arg=None) -> None:
        """Until the async function ``js`` (its promise awaited) is true; not wait_for_function,
        which takes an async function's promise for a true value at once."""
        deadline = time.monotonic() + TIMEOUT / 1000
        while not self.page.evaluate(js, arg):
            if time.monotonic() > deadline:
                raise TimeoutError(f"still false after {TIMEOUT / 1000:.0f} s: {js[:60]}")
            self.page.wait_for_timeout(500)

    def close(self) -> None:
        self.context.close()


def breakdown(lines: list[tuple[float, str]], total: float) -> dict[str, float]:
    """Where a start's time went, from its console lines (seconds): the page's code until it asks
    for a kernel; Pyodide's start, the kernel's packages and IPython until the notebook's cell
    runs (its import of the package: ``Loading … dungeon-guilds …`` or ``dungeon-guilds already
    loaded``); of that, the time spent in ``Loading …``/``Loaded …`` wheel installs; then the
    dashboard's own wheels (if loaded only then) and imports until the board is drawn."""
    app = next((t for t, s in lines if APP_READY.search(s)), None)
    cell = next((t for t, s in lines if CELL.search(s)), None)
    if app is None or cell is None:
        return {}
    spans, opened = [], {}
    for t, s in lines:
        if m := LOADING.search(s):
            opened[m.group(1)] = t
        elif (m := LOADED.search(s)) and m.group(1) in opened:
            spans.append((opened.pop(m.group(1)), t))
    before = sum(b - a for a, b in spans if b <= cell)
    after = sum(b - a for a, b in spans if a >= cell)
    return {"download and page code": app,
            "Pyodide, kernel packages, IPython": cell - app,
            "  of which wheel installs": before,
            "dashboard wheels (installed when the cell runs)": after,
            "dashboard imports and first render": total - cell - after}


def measure_site(p, url: str, site: Path, steps: int) -> dict:
    """Cold, warm (second visit, same profile), one Step; cold with the CPU throttled 4x."""
    out = {}
    profile = Path(tempfile.mkdtemp(prefix="dg-bench-"))
    try:
        v = Visit(p, url, profile)
        out["cold"] = v.board()
        out["breakdown cold"] = breakdown(v.lines, out["cold"])
        out["outside"] = len(v.outside)
        out["stored"] = v.stored(site)  # the second visit comes after a whole first one
        v.close()
        v = Visit(p, url, profile)
        out["warm"] = v.board()
        out["breakdown warm"] = breakdown(v.lines, out["warm"])
        print(f"  cold {out['cold']:.1f} s, warm {out['warm']:.1f} s", flush=True)
        out["step"] = v.steps(steps)
        out["outside"] += len(v.outside)
        v.close()
    finally:
        shutil.rmtree(profile, ignore_errors=True)
    profile = Path(tempfile.mkdtemp(prefix="dg-bench-"))
    try:
        v = Visit(p, url, profile, throttle=4)
        out["cold 4x throttled"] = v.board()
        out["outside"] += len(v.outside)
        v.close()
    finally:
        shutil.rmtree(profile, ignore_errors=True)
    return out


RESTORED = "Pyodide restored from its snapshot"


def measure_visits(p, url: str, visits: int, gap: float, stay: float) -> list[dict]:
    """Visits of one student (issue 40): the board's time on the first visit (a fresh profile)
    and on each later one, ``gap`` seconds after the previous tab was closed, in the same browser
    (a student closes the tab and opens the link again); each tab stays ``stay`` seconds after
    its board is on screen. Each visit says whether Pyodide came from the snapshot."""
    profile = Path(tempfile.mkdtemp(prefix="dg-bench-"))
    out = []
    try:
        v = Visit(p, url, profile)
        for i in range(visits):
            if i:
                time.sleep(gap)
                v.lines = []
                v.page = v.context.new_page()
                v.page.on("console", lambda m, v=v: v.lines.append((time.perf_counter() - v.t0, m.text)))
            board = v.board()
            restored = any(RESTORED in s for _, s in v.lines)
            out.append({"board": board, "restored": restored, "lines": v.lines})
            parts = ", ".join(f"{k.strip()} {v:.1f}" for k, v in breakdown(v.lines, board).items())
            print(f"  visit {i + 1}: {board:.1f} s{' (snapshot)' if restored else ''} ({load()}) [{parts}]", flush=True)
            v.page.wait_for_timeout(stay * 1000)
            v.page.close()
        v.close()
    finally:
        shutil.rmtree(profile, ignore_errors=True)
    return out


def visits_main(args, sites, urls) -> int:
    """``--visits N``: medians per visit over ``--runs`` students."""
    results = {}
    with sync_playwright() as p:
        runs = {str(s): [] for s in sites}
        for i in range(args.runs):
            for site, url in zip(sites, urls):
                print(f"run {i + 1} {site} ({load()})", flush=True)
                runs[str(site)].append(measure_visits(p, url, args.visits, args.gap, args.stay))
    for site in sites:
        per = list(zip(*runs[str(site)]))
        res = [{"median": round(statistics.median(v["board"] for v in visit), 2),
                "runs": [round(v["board"], 2) for v in visit],
                "restored": sum(v["restored"] for v in visit)} for visit in per]
        results[str(site)] = res
        print(f"\n== {site}: {args.runs} students, {args.visits} visits, {args.gap:.0f} s apart, each tab open "
              f"{args.stay:.0f} s after its board")
        for n, r in enumerate(res, 1):
            print(f"visit {n}: median {r['median']:5.1f} s  runs {r['runs']}  snapshot restored in {r['restored']}")
    print(f"\nafter: {load()}")
    if args.json:
        print(json.dumps({"load after": os.getloadavg(), "visits": results}, indent=1))
    return 0


def summary(runs: list[dict]) -> dict:
    med = statistics.median
    result = {k: round(med(r[k] for r in runs), 2) for k in ("cold", "warm", "cold 4x throttled")}
    steps = [s for r in runs for s in r["step"]]
    result["step ms"] = round(med(steps)) if steps else None
    result["step ms max"] = round(max(steps)) if steps else None
    for kind in ("breakdown cold", "breakdown warm"):
        parts = [r[kind] for r in runs if r[kind]]
        result[kind] = {k: round(med(b[k] for b in parts), 2) for k in parts[0]} if parts else {}
    stored = [r["stored"] for r in runs if r["stored"] is not None]
    result["stored for offline, s after the board"] = round(med(stored), 1) if stored else None
    result["requests to other hosts"] = sum(r["outside"] for r in runs)
    result["runs"] = {k: [round(r[k], 2) for r in runs] for k in ("cold", "warm", "cold 4x throttled")}
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--site", action="append", type=Path, help="a built site (repeat to compare; default _site)")
    parser.add_argument("--runs", type=int, default=5, help="median of this many runs (default 5)")
    parser.add_argument("--steps", type=int, default=5, help="Step clicks timed per run")
    parser.add_argument("--json", action="store_true", help="print the result as JSON too")
    parser.add_argument("--visits", type=int, default=0,
                        help="instead: time N visits of one student (a tab opened, closed, opened again)")
    parser.add_argument("--gap", type=float, default=60, help="--visits: seconds between a tab closed and the next")
    parser.add_argument("--stay", type=float, default=0, help="--visits: seconds each tab stays after its board")
    args = parser.parse_args()
    sites = args.site or [ROOT / "_site"]
    print(f"before: {load()}", flush=True)
    servers, urls = [], []
    for site in sites:
        server, url = start(site, 0, PREFIX)
        servers.append(server)
        urls.append(url)
    if args.visits:
        try:
            return visits_main(args, sites, urls)
        finally:
            for server in servers:
                server.shutdown()
                server.server_close()
    runs = {str(s): [] for s in sites}
    try:
        with sync_playwright() as p:
            for i in range(args.runs):
                for site, url in zip(sites, urls):  # interleaved: each run measures every site
                    r = measure_site(p, url, site, args.steps)
                    runs[str(site)].append(r)
                    print(f"run {i + 1} {site}: cold {r['cold']:.1f} s, warm {r['warm']:.1f} s, "
                          f"4x {r['cold 4x throttled']:.1f} s, step {statistics.median(r['step']):.0f} ms "
                          f"({load()})", flush=True)
    finally:
        for server in servers:
            server.shutdown()
            server.server_close()
    results = {}
    for site in sites:
        mb, files = size_mb(site)
        res = {"site MB": round(mb, 1), "files": files, **summary(runs[str(site)])}
        results[str(site)] = res
        print(f"\n== {site} (median of {args.runs})")
        print(f"site size                      {mb:6.1f} MB in {files} files")
        print(f"cold: board on screen          {res['cold']:6.1f} s")
        print(f"warm: board on screen          {res['warm']:6.1f} s")
        print(f"cold, CPU throttled 4x         {res['cold 4x throttled']:6.1f} s")
        print(f"one Step click                 {res['step ms']:6} ms (max {res['step ms max']})")
        for kind in ("breakdown cold", "breakdown warm"):
            for part, secs in res[kind].items():
                print(f"  {kind[10:]:5} {part:50} {secs:5.1f} s")
        print(f"stored for offline             {res['stored for offline, s after the board']} s after the board")
        print(f"requests to other hosts        {res['requests to other hosts']}")
    print(f"\nafter: {load()}")
    if args.json:
        print(json.dumps({"load after": os.getloadavg(), "sites": results}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
