"""Time the static site (``make site``) in headless Chromium: the site's size, a cold first
render (empty browser cache), a warm render (the same browser context: cached), and Step clicks
in the Learn tab. The site is served under /dungeon-guilds/ on loopback; every request to another
host is aborted (and counted).

    .venv/bin/python benchmarks/bench_static_site.py [--steps 5]
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path
from urllib.parse import urlparse

from playwright.sync_api import sync_playwright

from dungeon_guilds.app.site_server import start

SITE = Path(__file__).resolve().parents[1] / "_site"
READOUT = ".dg-stepper .dg-jump .widget-readout"


def size_mb(folder: Path) -> float:
    return sum(f.stat().st_size for f in folder.rglob("*") if f.is_file()) / 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--steps", type=int, default=5)
    args = parser.parse_args()
    print(f"site: {size_mb(SITE):.1f} MB in {sum(1 for f in SITE.rglob('*') if f.is_file())} files")
    server, url = start(SITE, 0, "/dungeon-guilds/")
    outside = []
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path="/usr/bin/chromium")
            context = browser.new_context(viewport={"width": 1024, "height": 768})
            here = urlparse(url).netloc

            def only_loopback(route):
                if urlparse(route.request.url).netloc not in (here, ""):
                    outside.append(route.request.url)
                    return route.abort()
                return route.continue_()

            context.route("**/*", only_loopback)
            page = context.new_page()
            for label in ("cold", "warm"):
                t0 = time.perf_counter()
                page.goto(url, timeout=120_000)
                page.wait_for_selector(".dg-dashboard .dg-stepper .dg-board", timeout=600_000)
                print(f"{label} render: {time.perf_counter() - t0:.1f} s", flush=True)
            page.wait_for_timeout(2000)
            times = []
            for _ in range(args.steps):
                before = page.locator(READOUT).first.inner_text()
                t0 = time.perf_counter()
                page.locator("button.dg-step").first.click()
                page.wait_for_function("([s, b]) => document.querySelector(s).innerText != b",
                                       arg=[READOUT, before])
                times.append((time.perf_counter() - t0) * 1000)
            print(f"Step click: median {statistics.median(times):.0f} ms (min {min(times):.0f}, "
                  f"max {max(times):.0f}) over {len(times)}")
            browser.close()
    finally:
        server.shutdown()
    print(f"requests to other hosts: {len(outside)}")


if __name__ == "__main__":
    main()
