"""Does a lesson page lose a widget when its widget manager restores the models the slow way?
(issue 54, item 1, race (b): "Error displaying widget: model not found" in 03's stepper cell).

A Voila page restores its widgets once the notebook has run: it opens a ``jupyter.widget.control``
comm, asks ``request_states`` and waits 4 s (ipywidgets' ``CONTROL_COMM_TIMEOUT``) for the one
``update_states`` reply; without it, it falls back to ``comm_info_request`` and one
``request_state`` per widget. A loaded server can answer late, so the probe forces each path and
reports which one a page took and whether a cell shows a widget error:

* ``--delay-states S``: the ``update_states`` reply is held S seconds (after the 4-s timeout:
  the fallback runs, then the late reply arrives too);
* ``--drop-states``: the ``request_states`` request is dropped (the fallback alone);
* ``--states-after S``: the reply is held until S seconds after the page's first widget output
  showed "Loading widget..." (its view's first ``get_model``), with ``--stretch-wait MS``
  stretching the 100-ms sleeps of ipywidgets' ``get_model`` wait (2 s in all) to MS: the
  reproduction of the race found (see below);
* none: pages as they are, with ``--hogs`` busy processes beside them.

The race found (jupyterlab-manager 5.0.16, the widget manager Voila's page runs): a view asks
``get_model(id)`` before the restore has registered the model; ``get_model`` looks for it every
100 ms for 2 s, and after its last sleep it throws without looking again. When the restore
registers every model *and* finishes during that last sleep, the view's ``renderModel`` catches
the throw with the manager already restored and shows "Error displaying widget: model not found"
for good (had the restore not finished, the view would have been drawn again on ``restored``).
``--states-after 1.8 --stretch-wait 1500`` lands the restore in that sleep (an error); the
reply is held in the page (``tests/browser/restore_race.py``). The pages load the project's page
extension (``voila.json``: the widget manager looks once more, the fix); ``--without-fix`` makes
them do without it, as upstream's are. ``--url`` probes another server's page (e.g. the
dashboard's lesson page).

The page's kernel websocket goes through Playwright's ``route_web_socket``, which forwards every
message and holds or drops the chosen one. Voila is started as the notebook test starts it (no
preheated pool).

    .venv/bin/python benchmarks/voila_restore_probe.py --runs 15 --pages 2 --hogs 3
    .venv/bin/python benchmarks/voila_restore_probe.py --runs 2 --pages 1 --delay-states 6
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_render_races import parse_frame  # noqa: E402
from bench_voila_renders import start_voila  # noqa: E402

from dungeon_guilds.app.processes import stop_process_group  # noqa: E402
from tests.browser.restore_race import LAST_LOOK_JS, RELEASED_JS, WIDGET_ERRORS_JS, race_script, without_last_look  # noqa: E402
from tests.browser.test_notebooks_in_voila import DONE_JS  # noqa: E402

RESTORE = ("request_states", "update_states", "request_state")
BOXES_JS = "() => document.querySelectorAll('.widget-box').length"


def open_page(browser, url: str, args) -> tuple:
    """A page whose kernel websocket is routed: (context, page, its record)."""
    context = browser.new_context(viewport={"width": 1024, "height": 768})
    page = context.new_page()
    rec = {"t0": time.monotonic(), "events": [], "held": [], "console": []}
    page.on("console", lambda m: m.type == "error" and rec["console"].append(m.text[:200]))
    if args.without_fix:  # the page extension's script not served: upstream's page
        without_last_look(context)
    if args.states_after:  # the reply held in the page itself (to the millisecond)
        page.add_init_script(race_script(args.states_after * 1000, args.stretch_wait))

    def note(what: str) -> None:
        rec["events"].append((round(time.monotonic() - rec["t0"], 2), what))

    def route(ws) -> None:
        server = ws.connect_to_server()

        def up(message) -> None:
            frame = parse_frame(message)
            if frame["method"] in RESTORE or frame["type"] == "comm_info_request":
                note(f"page sent {frame['method'] or frame['type']}")
            if args.drop_states and frame["method"] == "request_states":
                note("DROPPED request_states")
                return
            server.send(message)

        def down(message) -> None:
            frame = parse_frame(message)
            if args.delay_states and frame["method"] == "update_states":
                rec["held"].append((time.monotonic() + args.delay_states, message))
                note("HELD update_states")
                return
            if frame["method"] == "update_states" or frame["type"] == "comm_info_reply":
                note(f"page got {frame['method'] or frame['type']}")
            ws.send(message)

        ws.on_message(up)
        server.on_message(down)
        rec["ws"] = ws

    context.route_web_socket("**/channels*", route)
    page.goto(url, wait_until="commit", timeout=400_000)
    return context, page, rec


def release_held(pages) -> None:
    for _, _, rec in pages:
        for item in list(rec["held"]):
            if item[0] <= time.monotonic():
                rec["held"].remove(item)
                rec["ws"].send(item[1])
                rec["events"].append((round(time.monotonic() - rec["t0"], 2), "RELEASED update_states"))


def restore_path(events) -> str:
    """Which way the page's manager restored: "the reply" (``update_states``) or "the slow path"
    (``comm_info_request`` and a request per model, after its wait for the reply ran out)."""
    seen = [what for _, what in events]
    slow = "page sent comm_info_request" in seen
    reply = "page got update_states" in seen
    if slow and reply:
        return "the slow path" if seen.index("page sent comm_info_request") < seen.index("page got update_states") \
            else "the reply"
    return "the slow path" if slow else "the reply" if reply else "nothing seen"


def one_run(browser, url: str, args) -> int:
    pages = [open_page(browser, url, args) for _ in range(args.pages)]
    bad = 0
    try:
        deadline = time.monotonic() + 300
        while time.monotonic() < deadline:  # the held replies are released from this thread
            pages[0][1].wait_for_timeout(200)
            release_held(pages)
            # drawn, or given up ("Error displaying widget": nothing more will come)
            ready = all(page.evaluate(BOXES_JS) > 0 or page.evaluate(WIDGET_ERRORS_JS) for _, page, _ in pages)
            if ready and not any(rec["held"] for _, _, rec in pages):
                break
        for _, page, _ in pages:
            page.wait_for_function(DONE_JS, timeout=300_000)
        pages[0][1].wait_for_timeout(args.settle * 1000)
        for k, (_, page, rec) in enumerate(pages):
            cells = page.evaluate(WIDGET_ERRORS_JS)
            bad += bool(cells)
            print(f"  page {k + 1}: cells with a widget error {cells or 'none'}; restored by "
                  f"{restore_path(rec['events'])}; widget boxes "
                  f"{page.evaluate(BOXES_JS)}; restore: {rec['events'][:6]}; states released "
                  f"{page.evaluate(RELEASED_JS)} s after the first 'Loading widget...'; "
                  f"console errors: {[e for e in rec['console'] if 'Failed to load' not in e][:2]}; "
                  f"last look installed: {page.evaluate(LAST_LOOK_JS)}",
                  flush=True)
    finally:
        for context, _, _ in pages:
            context.close()
    return bad


def main() -> None:
    from playwright.sync_api import sync_playwright

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--notebook", default="03_payouts_and_healing.ipynb")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--pages", type=int, default=2, help="pages of the notebook opened at once")
    ap.add_argument("--hogs", type=int, default=0)
    ap.add_argument("--without-fix", action="store_true",
                    help="the page does without the project's page extension (the widget manager's last look)")
    ap.add_argument("--url", default="", help="a page of a server already running (instead of `voila notebooks/`)")
    ap.add_argument("--settle", type=float, default=4, help="seconds waited after the page is drawn")
    ap.add_argument("--drop-states", action="store_true")
    ap.add_argument("--delay-states", type=float, default=0)
    ap.add_argument("--states-after", type=float, default=0,
                    help="hold update_states until S s after the first 'Loading widget...'")
    ap.add_argument("--stretch-wait", type=float, default=0,
                    help="ms each of get_model's 100-ms sleeps takes (with --states-after)")
    args = ap.parse_args()
    hogs = [subprocess.Popen([sys.executable, "-c", "while 1: pass"]) for _ in range(args.hogs)]
    log = Path(tempfile.mkdtemp(prefix="voila-restore-")) / "voila.log"
    proc, url = (None, args.url) if args.url else start_voila(log)
    bad = 0
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path="/usr/bin/chromium")
            for run in range(args.runs):
                print(f"run {run + 1}:", flush=True)
                bad += one_run(browser, url if args.url else url + args.notebook, args)
            browser.close()
    finally:
        if proc is not None:
            stop_process_group(proc)
        for hog in hogs:
            hog.kill()
    print(f"{bad} of {args.runs * args.pages} pages showed a widget error ({args.notebook}, {args.hogs} hogs, "
          f"drop {args.drop_states}, delay {args.delay_states} s, states after {args.states_after} s, "
          f"get_model's sleeps {args.stretch_wait or 100:.0f} ms, {'without' if args.without_fix else 'with'} "
          f"the page extension); Voila's log: {log}")


if __name__ == "__main__":
    main()
