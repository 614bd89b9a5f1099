"""Benchmark: a classroom opening the dashboard at once (issue 12).

    python benchmarks/bench_classroom.py --sessions 30 [--json] [--max-kernels N] [--pool N]

It starts the dashboard as ``make dashboard`` does (``dungeon-guilds-voila`` from the repository
root, so ``voila.json`` applies; the kernel cap is ``--max-kernels`` and the preheated pool
``--pool``, defaults as ``make dashboard``), on a free loopback port, in its own process group,
and waits until the pool is full (the fill time is reported). Then, in one headless
Chromium (Debian's, ``--chromium`` or ``DG_CHROMIUM``), it opens N pages at the same moment,
each in its own browser context, and for each page:

* **time to interactive**: from the navigation start until the Learn tab's board is visible;
* **what the page showed meanwhile**, sampled every second: the waiting line ("Starting your
  dashboard…", under Voila's spinner, then alone while the widgets arrive), the dashboard, or
  nothing (**blank**; counted after the page first showed something);
* **interaction**: a click on the Learn tab's *Step* button, answered when the message line
  changes (within 60 s);

then closes every page as a tab is closed (``run_before_unload``) and reports the kernels and
their total RSS (the Voila server's included) before the pages, with every page open, and 15 s
after the pages closed (the goal: back to the preheated pool). A page refused by the cap (HTTP
503) is counted as refused.

Not a test: it prints the figures and whether they meet the goals (exit status 0 either way).
Time on a shared machine is noisy: the load average before the run is reported with it.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path

from dungeon_guilds.app import kernels, serving

ROOT = Path(__file__).resolve().parents[1]
RENDERED = ".dg-dashboard .dg-stepper .dg-board"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--disable-dev-shm-usage"]
GOALS = {"max_interactive_s": 90.0, "freed_within_s": 15.0}
STATE_JS = """() => {
  const seen = e => e && e.offsetParent !== null;
  if (seen(document.querySelector('.dg-dashboard .dg-stepper .dg-board'))) return 'rendered';
  if (seen(document.querySelector('#loading'))) return 'waiting';
  const cells = document.querySelector('#rendered_cells');  // shown, the widgets still coming
  if (seen(cells) && !['none', 'normal', ''].includes(getComputedStyle(cells, '::before').content)) return 'waiting';
  return 'blank';
}"""
STEP_JS = """async () => {
  const root = document.querySelector('.dg-stepper');
  const msg = root.querySelector('.dg-message');
  const before = msg.innerText;
  root.querySelector('button.dg-step').click();
  return await new Promise(resolve => {
    const obs = new MutationObserver(() => { if (msg.innerText !== before) { obs.disconnect(); resolve(true); } });
    obs.observe(root, {subtree: true, childList: true, characterData: true});
    setTimeout(() => { obs.disconnect(); resolve(false); }, 60000);
  });
}"""


def rss_mb(pids: list[int]) -> float:
    total = 0
    for pid in pids:
        try:
            for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
        except OSError:
            continue
    return round(total / 1024, 1)


def snapshot(server) -> dict:
    kernels = server.kernels()
    return {"kernels": len(kernels), "rss_mb": rss_mb([server.proc.pid, *kernels])}


async def watch(page, states: list[str], stop: asyncio.Event) -> None:
    """Sample what the page shows, once a second, until ``stop``."""
    while not stop.is_set():
        try:
            states.append(await page.evaluate(STATE_JS))
        except Exception:  # noqa: BLE001 - the page is navigating: nothing to see yet
            states.append("navigating")
        try:
            await asyncio.wait_for(stop.wait(), 1.0)
        except asyncio.TimeoutError:
            pass


async def session(browser, url: str, timeout: float) -> dict:
    context = await browser.new_context(viewport={"width": 1024, "height": 768})
    page = await context.new_page()
    out: dict = {"rendered": False, "answered": False, "refused": False, "states": []}
    stop = asyncio.Event()
    t0 = time.monotonic()
    try:
        response = await page.goto(url, wait_until="commit", timeout=timeout * 1000)
        if response is not None and response.status == 503:
            out["refused"] = True
            return out | {"page": page, "context": context}
        watcher = asyncio.ensure_future(watch(page, out["states"], stop))
        try:
            await page.wait_for_selector(RENDERED, timeout=timeout * 1000)
            out["rendered"], out["interactive_s"] = True, round(time.monotonic() - t0, 2)
        except Exception as exc:  # noqa: BLE001 - a page that never renders is a result
            out["error"] = str(exc).splitlines()[0]
        finally:
            stop.set()
            await watcher
        if out["rendered"]:
            out["answered"] = bool(await page.evaluate(STEP_JS))
    except Exception as exc:  # noqa: BLE001
        out["error"] = str(exc).splitlines()[0]
    return out | {"page": page, "context": context}


async def classroom(args, server) -> dict:
    from playwright.async_api import async_playwright

    result: dict = {"before": snapshot(server)}
    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=args.chromium, headless=True, args=CHROMIUM_ARGS)
        result["chromium"] = browser.version
        t0 = time.monotonic()
        sessions = await asyncio.gather(*(session(browser, server.url, args.timeout) for _ in range(args.sessions)))
        result["all_done_s"] = round(time.monotonic() - t0, 1)
        result["open"] = snapshot(server)
        for s in sessions:
            await s.pop("page").close(run_before_unload=True)
        t_closed = time.monotonic()
        pool = args.pool
        freed_at = None
        while time.monotonic() - t_closed < 15:
            if len(server.kernels()) <= pool and freed_at is None:
                freed_at = round(time.monotonic() - t_closed, 1)
            await asyncio.sleep(0.5)
        result["after_15s"] = snapshot(server)
        result["freed_s"] = freed_at
        for s in sessions:
            await s.pop("context").close()
        await browser.close()
    result["sessions"] = sessions
    return result


def after_first_paint(states: list[str]) -> list[str]:
    """The samples after the page first showed something (before it, the browser has not
    received the page's head yet)."""
    shown = [i for i, x in enumerate(states) if x in ("waiting", "rendered")]
    return states[shown[0]:] if shown else states


def compress(states: list[str]) -> str:
    """``waiting×12 blank×2 rendered×1``: what a page showed, second by second."""
    runs: list[list] = []
    for x in states:
        if runs and runs[-1][0] == x:
            runs[-1][1] += 1
        else:
            runs.append([x, 1])
    return " ".join(f"{x}×{n}" for x, n in runs)


def summarise(raw: dict, args, load: tuple[float, float, float], started_s: float) -> dict:
    sessions = raw["sessions"]
    times = [s["interactive_s"] for s in sessions if s["rendered"]]
    blank = sum(1 for s in sessions if "blank" in after_first_paint(s["states"]))
    out = {
        "sessions": args.sessions, "max_kernels": args.max_kernels or kernels.max_kernels_default(),
        "pool": args.pool, "server_start_s": round(started_s, 1), "pool_fill_s": round(args.fill_s, 1),
        "rendered": len(times), "refused_503": sum(s["refused"] for s in sessions),
        "answered": sum(s["answered"] for s in sessions),
        "interactive_median_s": round(statistics.median(times), 1) if times else None,
        "interactive_max_s": max(times) if times else None,
        "pages_blank_at_some_sample": blank,
        "pages_showing_waiting_line": sum(1 for s in sessions if "waiting" in s["states"]),
        "kernels_before": raw["before"]["kernels"], "rss_before_mb": raw["before"]["rss_mb"],
        "kernels_open": raw["open"]["kernels"], "rss_open_mb": raw["open"]["rss_mb"],
        "kernels_15s_after": raw["after_15s"]["kernels"], "rss_15s_after_mb": raw["after_15s"]["rss_mb"],
        "freed_to_pool_s": raw["freed_s"],
        "errors": sorted({s["error"] for s in sessions if "error" in s}),
        "states": [compress(s["states"]) for s in sessions],
        "machine": {"cpus": os.cpu_count(), "load_average_before": [round(x, 2) for x in load],
                    "python": platform.python_version(), "chromium": raw.get("chromium")},
    }
    out["goals_met"] = (out["rendered"] == args.sessions and out["answered"] == args.sessions
                        and out["interactive_max_s"] is not None
                        and out["interactive_max_s"] <= GOALS["max_interactive_s"] and blank == 0
                        and out["freed_to_pool_s"] is not None)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sessions", type=int, default=30, help="pages opened at once (default 30)")
    ap.add_argument("--max-kernels", type=int, default=None, help="the kernel cap (default: make dashboard's)")
    ap.add_argument("--pool", type=int, default=kernels.CLASS_POOL,
                    help=f"the preheated pool (default: make dashboard's, {kernels.CLASS_POOL})")
    ap.add_argument("--fill-timeout", type=float, default=600.0, help="seconds the pool may take to fill")
    ap.add_argument("--timeout", type=float, default=240.0, help="seconds a page may take to render")
    ap.add_argument("--chromium", default=os.environ.get("DG_CHROMIUM", "/usr/bin/chromium"))
    ap.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = ap.parse_args(argv)
    load = os.getloadavg()
    with tempfile.TemporaryDirectory() as tmp:
        t0 = time.monotonic()
        server = serving.start_voila(ROOT, Path(tmp) / "voila.log", max_kernels=args.max_kernels,
                                     pool=args.pool, timeout=180)
        started = time.monotonic() - t0
        with server:
            t1 = time.monotonic()
            if args.pool:
                server.wait_pool_filled(args.fill_timeout)
            args.fill_s = time.monotonic() - t1
            raw = asyncio.run(classroom(args, server))
            iopub = server.count(r"Timeout waiting for IOPub output")
    out = summarise(raw, args, load, started)
    out["iopub_timeouts_logged"] = iopub
    if args.json:
        print(json.dumps(out, indent=2, ensure_ascii=False))
        return 0
    print(f"{args.sessions} pages at once (cap {out['max_kernels']} kernels, pool {out['pool']}, "
          f"filled in {out['pool_fill_s']} s), "
          f"{os.cpu_count()} CPUs, load average before {out['machine']['load_average_before']}")
    print(f"  rendered {out['rendered']}/{args.sessions}, refused (503) {out['refused_503']}, "
          f"answered a click {out['answered']}/{args.sessions}")
    print(f"  time to interactive: median {out['interactive_median_s']} s, max {out['interactive_max_s']} s "
          f"(goal ≤ {GOALS['max_interactive_s']:.0f} s)")
    print(f"  pages blank at some sample: {out['pages_blank_at_some_sample']}; "
          f"pages that showed the waiting line: {out['pages_showing_waiting_line']}")
    print(f"  kernels / RSS: before {out['kernels_before']} / {out['rss_before_mb']} MB, "
          f"all open {out['kernels_open']} / {out['rss_open_mb']} MB, "
          f"15 s after closing {out['kernels_15s_after']} / {out['rss_15s_after_mb']} MB "
          f"(back to the pool after {out['freed_to_pool_s']} s)")
    if out["errors"]:
        print("  errors:", *out["errors"], sep="\n    ")
    print("  goals met" if out["goals_met"] else "  goals NOT met")
    return 0


if __name__ == "__main__":
    sys.exit(main())
