"""Every notebook of the series rendered many times by Voila on a loaded machine: is every figure
and every widget drawn in every render? (issue 54, item 2.)

Voila is started as ``tests/browser/test_notebooks_in_voila.py`` starts it (``voila notebooks/``
from the repository root, no preheated pool: each page executes its notebook), with ``--hogs``
busy Python processes beside it (load ≈ 6 on the 2-core machine with two hogs and two pages).
Each notebook is opened ``--renders`` times, ``--at-once`` pages at a time, each page settled as
the test settles it (executed, scrolled to the end, its figures drawn and steady) and checked as
the test checks it (no "Error displaying widget", no console error, nothing asked of another
host, money not typeset as maths). Counted per render: the plotly figures drawn and the widget
views drawn (``.jupyter-widgets`` elements that are neither "Loading widget..." nor an error).
A render is **complete** when it has no problem, draws exactly the figures the notebook test
expects (those stored and those its widgets draw: ``WIDGET_FIGURES``) and as many widget views as
the notebook's fullest render.

    .venv/bin/python benchmarks/bench_voila_renders.py --renders 30 --hogs 2
    .venv/bin/python benchmarks/bench_voila_renders.py --renders 4 --notebooks 03,08

Printed: a line per notebook (renders, complete, figures and widget views min–max, seconds a
render median / max, the load average) and the problems of every incomplete render. Figures:
docs/architecture.md, "Render races". Not a test (about 20 s a render).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from dungeon_guilds.app.processes import free_port, start_process_group, stop_process_group  # noqa: E402
from tests.browser import test_notebooks_in_voila as nbv  # noqa: E402  (the test's own page checks)

WIDGETS_JS = """() => [...document.querySelectorAll('.jupyter-widgets')].filter(w =>
  !/^(Loading widget\\.\\.\\.|Error displaying widget)/.test(w.textContent)).length"""


STOCK_KERNEL = ("--PoolKeepingKernelManager.kernel_manager_class="
                "jupyter_server.services.kernels.kernelmanager.ServerKernelManager")


def start_voila(log_path: Path, stock_kernel: bool = False):
    """Voila as the test's fixture starts it (with ``stock_kernel``, its kernels plain ipykernel,
    as before race (a)'s fix); (process, base url)."""
    port = free_port()
    cmd = [str(Path(sys.executable).with_name("voila")), "--no-browser", "--Voila.ip=127.0.0.1", f"--port={port}",
           "--Voila.port_retries=0", "--VoilaConfiguration.preheat_kernel=False",
           *([STOCK_KERNEL] if stock_kernel else []), "notebooks"]
    with open(log_path, "wb") as log:
        proc = start_process_group(cmd, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 120
    while "is running at" not in log_path.read_text("utf-8", errors="replace"):
        if proc.poll() is not None or time.monotonic() > deadline:
            raise RuntimeError(log_path.read_text("utf-8", errors="replace")[-2000:])
        time.sleep(0.2)
    return proc, f"http://127.0.0.1:{port}/voila/render/"


def render_group(browser, url: str, name: str, at_once: int, first: int, throttle: float = 1) -> list[dict]:
    """``at_once`` pages of one notebook opened together (Chromium's CPU slowed ``throttle``
    times by DevTools' ``Emulation.setCPUThrottlingRate`` when above 1), settled and checked:
    one dict a page."""
    t0 = time.monotonic()
    pages = [nbv._open(browser, url + name) for _ in range(at_once)]
    if throttle > 1:
        for context, page in pages:
            context.new_cdp_session(page).send("Emulation.setCPUThrottlingRate", {"rate": throttle})
    out = []
    try:
        nbv._settle([page for _, page in pages], nbv._expected_figures(name))
        seconds = time.monotonic() - t0
        for k, (_, page) in enumerate(pages):
            problems, figures = nbv._check(page, f"{name} render {first + k + 1}")
            out.append({"problems": problems, "figures": figures, "widgets": page.evaluate(WIDGETS_JS),
                        "seconds": seconds})
    finally:
        for context, _ in pages:
            context.close()
    return out


def report(name: str, renders: list[dict], loads: list[float]) -> int:
    """Print the notebook's line (and its incomplete renders); return how many were incomplete."""
    figures, widgets = max(r["figures"] for r in renders), max(r["widgets"] for r in renders)
    stored, expected = nbv._stored_figures(name), nbv._expected_figures(name)
    bad = [r for r in renders if r["problems"] or r["figures"] != expected or r["widgets"] < widgets]
    secs = [r["seconds"] for r in renders]
    print(f"{name}: {len(renders)} renders, {len(renders) - len(bad)} complete; figures "
          f"{min(r['figures'] for r in renders)}-{figures} (expected {expected}, stored {stored}); widget views "
          f"{min(r['widgets'] for r in renders)}-{widgets}; seconds a render (its group) median "
          f"{statistics.median(secs):.0f}, max {max(secs):.0f}; load average {min(loads):.1f}-{max(loads):.1f}",
          flush=True)
    for r in bad:
        print(f"    incomplete: figures {r['figures']}, widget views {r['widgets']}; "
              + "; ".join(p[:200] for p in r["problems"]), flush=True)
    return len(bad)


def main() -> None:
    from playwright.sync_api import sync_playwright

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--renders", type=int, default=30, help="renders of each notebook")
    ap.add_argument("--at-once", type=int, default=2, help="pages of one notebook opened together")
    ap.add_argument("--hogs", type=int, default=2, help="busy Python processes beside Voila")
    ap.add_argument("--notebooks", default="", help="two-digit prefixes, e.g. 03,08 (default: the series)")
    ap.add_argument("--throttle", type=float, default=1, help="Chromium's CPU slowed this many times")
    ap.add_argument("--stock-kernel", action="store_true",
                    help="plain ipykernel, whose IOPub drops messages under load (race (a), before its fix)")
    args = ap.parse_args()
    names = [n for n in sorted(p.name for p in (ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
             if not args.notebooks or n[:2] in args.notebooks.split(",")]
    hogs = [subprocess.Popen([sys.executable, "-c", "while 1: pass"]) for _ in range(args.hogs)]
    log = Path(tempfile.mkdtemp(prefix="voila-renders-")) / "voila.log"
    proc, url = start_voila(log, args.stock_kernel)
    incomplete = total = 0
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path="/usr/bin/chromium")
            for name in names:
                renders, loads = [], []
                while len(renders) < args.renders:
                    loads.append(os.getloadavg()[0])
                    renders += render_group(browser, url, name, min(args.at_once, args.renders - len(renders)),
                                            len(renders), args.throttle)
                incomplete += report(name, renders, loads)
                total += len(renders)
            browser.close()
    finally:
        stop_process_group(proc)
        for hog in hogs:
            hog.kill()
    print(f"{total - incomplete} of {total} renders complete ({args.hogs} hogs, {args.at_once} pages at once, "
          f"Chromium throttled x{args.throttle:g}, "
          f"{'stock ipykernel' if args.stock_kernel else 'the kernels voila.json names'}); "
          f"Voila's log: {log}")


if __name__ == "__main__":
    main()
