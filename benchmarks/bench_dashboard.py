"""Benchmark: the dashboard in a real browser (issue 6 targets: first render ≤ 2.5 s with a
preheated kernel, ≤ 6 s cold; ≤ 150 ms from a click on *Step* to the redrawn page).

    python benchmarks/bench_dashboard.py [--loads 5] [--steps 30] [--json]

It serves ``notebooks/dashboard.ipynb`` with Voila as ``make dashboard`` does (from the
repository root, so ``voila.json`` applies) and drives Debian's Chromium headless through
Playwright (``--chromium`` or ``DG_CHROMIUM``, else ``/usr/bin/chromium``).

* **preheated**: Voila with ``voila.json`` (a preheated kernel); before each page load the
  benchmark waits until the pool holds a kernel again (Voila's log says so).
* **cold**: the same with ``--VoilaConfiguration.preheat_kernel=False``: each page view starts a
  kernel and runs the notebook.

A *render* is the time from the navigation start to the Learn tab's board being visible
(``.dg-stepper .dg-board``); the time until the plotly turn timeline is drawn is reported too.
Each load uses a fresh browser context (no HTTP cache), the same browser.

A *step* is measured in the page: ``performance.now()``, a click on *Step* (the JS ``click()``
of the button), then the time until the page shows the new state (the message line, which the
app writes last, has changed) and, separately, until the turn timeline's plotly chart has been
redrawn; each is taken at the next animation frame, i.e. when it can be painted. The Learn tab's
default game is used (one human seat playing the first legal action, greedy bots), so a step
is either a human move or one bot move including the bot's thinking.

Not a test: it prints the figures and whether they meet the targets (exit status 0 either way).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path

from dungeon_guilds.app import serving
from dungeon_guilds.app.serving import VoilaServer

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOK = "notebooks/dashboard.ipynb"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--disable-dev-shm-usage"]
TARGETS = {"preheated_s": 2.5, "cold_s": 6.0, "step_ms": 150.0}

STEP_JS = """async () => {
  const root = document.querySelector('.dg-stepper');
  const msg = root.querySelector('.dg-message');
  const before = msg.innerText;
  const oldPlot = root.querySelector('.dg-timeline .js-plotly-plot');
  const frame = () => new Promise(r => requestAnimationFrame(() => r(performance.now())));
  const t0 = performance.now();
  root.querySelector('button.dg-step').click();
  const shown = await new Promise((resolve, reject) => {
    const obs = new MutationObserver(() => {
      if (msg.innerText !== before) { obs.disconnect(); resolve(frame()); }
    });
    obs.observe(root, {subtree: true, childList: true, characterData: true});
    setTimeout(() => { obs.disconnect(); reject(new Error('no redraw within 10 s')); }, 10000);
  });
  let drawn = null;
  for (let i = 0; i < 120; i++) {
    const plot = root.querySelector('.dg-timeline .js-plotly-plot');
    if (plot && plot !== oldPlot && plot.querySelector('.main-svg')) { drawn = await frame(); break; }
    await frame();
  }
  return {shown: shown - t0, drawn: drawn === null ? null : drawn - t0};
}"""


# ---------------------------------------------------------------------- Voila
def start_voila(preheat: bool, log_path: Path) -> VoilaServer:
    """Voila as ``make dashboard`` runs it (``preheat=False``: no kernel pool), on a free port, in
    its own process group (see ``dungeon_guilds.app.serving``); stop it with ``.stop()``."""
    return serving.start_voila(ROOT, log_path, notebook=NOTEBOOK, preheat=preheat, timeout=60)


def stop_voila(server: VoilaServer) -> None:
    server.stop(grace=15)


# ---------------------------------------------------------------------- measures
def render(browser, url: str) -> dict[str, float]:
    context = browser.new_context(viewport={"width": 1280, "height": 1000})
    try:
        page = context.new_page()
        t0 = time.perf_counter()
        page.goto(url, timeout=90_000)
        page.wait_for_selector(".dg-stepper .dg-board", timeout=90_000)
        board = time.perf_counter() - t0
        page.wait_for_selector(".dg-stepper .dg-timeline .js-plotly-plot", timeout=30_000)
        plot = time.perf_counter() - t0
        nav = page.evaluate("performance.getEntriesByType('navigation')[0].toJSON()")
        return {"board_s": board, "timeline_s": plot, "html_s": nav["responseEnd"] / 1000}
    finally:
        context.close()


def steps(browser, url: str, n: int) -> dict[str, list[float]]:
    from dungeon_guilds.app.dashboard import LEARN_SETTINGS

    context = browser.new_context(viewport={"width": 1280, "height": 1000})
    out = {"human_shown": [], "human_drawn": [], "bot_shown": [], "bot_drawn": []}
    try:
        page = context.new_page()
        page.goto(url, timeout=90_000)
        page.wait_for_selector(".dg-stepper .dg-timeline .js-plotly-plot", timeout=90_000)
        page.wait_for_timeout(500)
        for _ in range(n):
            if page.locator(".dg-stepper button.dg-step").first.is_disabled():
                break
            seat = page.locator(".dg-stepper .dg-status .dg-to-move").first.get_attribute("data-seat")
            kind = "human" if LEARN_SETTINGS["seats"][int(seat)] == "human" else "bot"
            r = page.evaluate(STEP_JS)
            out[f"{kind}_shown"].append(r["shown"])
            if r["drawn"] is not None:
                out[f"{kind}_drawn"].append(r["drawn"])
            page.wait_for_timeout(150)  # let the page rest between clicks, as a user would
    finally:
        context.close()
    return out


def summary(values: list[float], digits: int = 3) -> dict[str, float]:
    if not values:
        return {"n": 0}
    v = sorted(values)
    return {"n": len(v), "median": round(statistics.median(v), digits),
            "p95": round(v[min(len(v) - 1, int(0.95 * (len(v) - 1) + 0.5))], digits),
            "min": round(v[0], digits), "max": round(v[-1], digits)}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--loads", type=int, default=5, help="page loads per mode (default 5)")
    ap.add_argument("--steps", type=int, default=30, help="Step clicks measured (default 30)")
    ap.add_argument("--chromium", default=os.environ.get("DG_CHROMIUM", "/usr/bin/chromium"))
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    args = ap.parse_args(argv)
    from playwright.sync_api import sync_playwright

    results: dict = {"machine": {"python": platform.python_version(), "cpus": os.cpu_count(),
                                 "platform": platform.platform()},
                     "targets": TARGETS, "loads": args.loads}
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=args.chromium, headless=True, args=CHROMIUM_ARGS)
        results["chromium"] = browser.version
        try:
            server = start_voila(preheat=True, log_path=Path(tmp) / "preheated.log")
            try:
                loads = []
                for _ in range(args.loads):
                    server.wait_pool_filled()
                    time.sleep(0.5)
                    loads.append(render(browser, server.url))
                results["preheated"] = {k: summary([x[k] for x in loads]) for k in loads[0]}
                results["preheated"]["first_load_board_s"] = round(loads[0]["board_s"], 3)
                server.wait_pool_filled()
                s = steps(browser, server.url, args.steps)
                results["step_ms"] = {k: summary(v, 1) for k, v in s.items()}
                results["step_ms"]["all_shown"] = summary(s["human_shown"] + s["bot_shown"], 1)
                results["step_ms"]["all_drawn"] = summary(s["human_drawn"] + s["bot_drawn"], 1)
            finally:
                stop_voila(server)
            server = start_voila(preheat=False, log_path=Path(tmp) / "cold.log")
            try:
                time.sleep(1.0)
                loads = [render(browser, server.url) for _ in range(args.loads)]
                results["cold"] = {k: summary([x[k] for x in loads]) for k in loads[0]}
                results["cold"]["first_load_board_s"] = round(loads[0]["board_s"], 3)
            finally:
                stop_voila(server)
        finally:
            browser.close()
    results["meets"] = {
        "preheated": results["preheated"]["board_s"]["median"] <= TARGETS["preheated_s"],
        "cold": results["cold"]["board_s"]["median"] <= TARGETS["cold_s"],
        "step": results["step_ms"]["all_drawn"].get("median", 1e9) <= TARGETS["step_ms"],
    }
    if args.json:
        print(json.dumps(results, indent=1))
        return 0
    print(f"Dashboard in Chromium {results['chromium']}, Python {results['machine']['python']}, "
          f"{results['machine']['cpus']} CPUs; {args.loads} loads per mode")
    for mode, target in (("preheated", TARGETS["preheated_s"]), ("cold", TARGETS["cold_s"])):
        r = results[mode]
        print(f"  first render, {mode:9s}: board median {r['board_s']['median']:.2f} s "
              f"(min {r['board_s']['min']:.2f}, max {r['board_s']['max']:.2f}; first load "
              f"{r['first_load_board_s']:.2f}); timeline drawn {r['timeline_s']['median']:.2f} s; "
              f"target ≤ {target} s: {'ok' if results['meets'][mode] else 'MISSED'}")
    st = results["step_ms"]
    for key, label in (("human_shown", "human step, state shown"), ("human_drawn", "human step, timeline drawn"),
                       ("bot_shown", "bot step, state shown"), ("bot_drawn", "bot step, timeline drawn"),
                       ("all_drawn", "every step, timeline drawn")):
        r = st[key]
        if r.get("n"):
            print(f"  click → redraw, {label:27s}: median {r['median']:.0f} ms, p95 {r['p95']:.0f} ms, "
                  f"max {r['max']:.0f} ms (n={r['n']})")
    print(f"  step target ≤ {TARGETS['step_ms']:.0f} ms (median): {'ok' if results['meets']['step'] else 'MISSED'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
