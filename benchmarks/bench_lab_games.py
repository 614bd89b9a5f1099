"""The Lab's games per second: four greedy bots in this CPython and in the static site's browser
(Pyodide), side by side (issue 31).

    python benchmarks/bench_lab_games.py --games 200 [--rounds 3] [--no-browser] [--json]

CPython: the Lab's own code path in this process (``LabPanel(games=N).run()``: the simulator's
:class:`~dungeon_guilds.analysis.simulate.ChunkedRun` with the Lab's chunks, then the intervals),
reporting the games per second of the playing alone (``data-games-per-second``, the same
figure the page carries) and of the whole run (wall, with the tables). Browser: the built
static site (``make site``) served on loopback, opened in Chromium (every other host refused),
the Lab's default settings (four greedy bots, seed 0) with ``--games``, Run clicked and the
same two figures read from the page. One round plays both, CPython first; the figures are the
medians over ``--rounds`` rounds, with the load average (a shared machine: read the ratio).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path
from urllib.parse import urlparse

ROOT = Path(__file__).resolve().parent.parent
SITE = ROOT / "_site"


def cpython(games: int) -> dict[str, float]:
    from dungeon_guilds.widgets.lab import LabPanel

    lab = LabPanel(games=games)
    t0 = time.perf_counter()
    lab.run()
    return {"playing": lab.stats["games_per_second"], "wall": games / (time.perf_counter() - t0)}


def open_lab(browser, url: str):
    """A page of the static site on its Lab tab (Pyodide started), every other host refused."""
    context = browser.new_context(viewport={"width": 1024, "height": 768})
    here = urlparse(url).netloc
    context.route("**/*", lambda route: route.continue_() if urlparse(route.request.url).netloc in (here, "")
                  else route.abort())
    page = context.new_page()
    page.goto(url, timeout=120_000)
    page.wait_for_selector(".dg-dashboard .dg-stepper .dg-board", timeout=600_000)
    page.get_by_role("tab", name="Lab").click()
    page.locator(".dg-lab button.dg-lab-run").wait_for(timeout=120_000)
    return page


def browser_run(page, games: int) -> dict[str, float]:
    lab = page.locator(".dg-lab")
    box = lab.locator(".dg-lab-games input")
    box.fill(str(games))
    box.press("Enter")
    time.sleep(1.0)
    t0 = time.perf_counter()
    lab.locator("button.dg-lab-run").click()
    message = "document.querySelector('.dg-lab .dg-message').innerText"
    page.wait_for_function(f"{message}.startsWith('Playing {games} games')", timeout=60_000)  # this run's
    page.wait_for_function(f"{message}.startsWith('{games} games in')", timeout=1_800_000)
    wall = games / (time.perf_counter() - t0)
    return {"playing": float(lab.locator(".dg-lab-stats").get_attribute("data-games-per-second")), "wall": wall}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--no-browser", action="store_true", help="CPython only")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    rows: dict[str, list[dict]] = {"cpython": [], "browser": []}
    loads = []
    page = server = pw = None
    if not args.no_browser:
        if not (SITE / "index.html").exists():
            raise SystemExit(f"{SITE} is missing: run `make site` first (or pass --no-browser)")
        from playwright.sync_api import sync_playwright

        from dungeon_guilds.app.site_server import start

        server, url = start(SITE, 0, "/dungeon-guilds/")
        pw = sync_playwright().start()
        browser = pw.chromium.launch(executable_path=os.environ.get("DG_CHROMIUM", "/usr/bin/chromium"))
        page = open_lab(browser, url)
    try:
        for _ in range(args.rounds):
            rows["cpython"].append(cpython(args.games))
            if page is not None:
                rows["browser"].append(browser_run(page, args.games))
            loads.append(os.getloadavg()[0])
    finally:
        if pw is not None:
            pw.stop()
        if server is not None:
            server.shutdown()
    out = {"games": args.games, "rounds": args.rounds, "load_average_1min": [round(x, 1) for x in loads],
           "python": sys.version.split()[0], "runs": rows}
    for kind, runs in rows.items():
        for figure in ("playing", "wall"):
            if runs:
                out[f"{kind}_{figure}_games_per_second"] = round(statistics.median(r[figure] for r in runs), 1)
    if rows["browser"]:
        out["cpython_over_browser"] = round(out["cpython_playing_games_per_second"]
                                            / out["browser_playing_games_per_second"], 2)
    print(json.dumps(out) if args.json else "\n".join(f"{k}: {v}" for k, v in out.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
