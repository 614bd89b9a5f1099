"""Issue 24, item 5: every notebook of the series rendered by Voila in Chromium, several times
over, with no "Error displaying widget" on the page and no JavaScript error in the console.

Voila is started as a teacher or Binder serves the notebooks (``voila notebooks/``, from the
repository root so ``voila.json`` applies, but with no preheated pool: each page executes its
notebook, as the first page of a fresh server does). The notebooks of :data:`AT_ONCE` are opened
by two pages at once (two kernels starting together: the situation of a class opening the same
lesson), every other notebook by one page, which draws at least the figures the notebook stores
(every notebook by two pages until stop 49 and by three until stop 48, when CI's time on the
project's machine had reached 24.8, then 25.7 minutes); every page is scrolled to the end; the
network outside 127.0.0.1 is cut off.

What it caught (issue 24.5): plotly's JupyterLab renderer stores a PNG of each figure it draws
with ``model.setData``, which Voila's bare output models lack — "r.setData is not a function" on
every page with a figure a cell returns (notebooks 02, 03, 04, 06, 07, 08, 09). Under Voila those
figures are now plotly's HTML (``widgets.figures.voila_figure_renderer``). The one request the
page still makes to another host is Voila's own lab template linking Font Awesome from a CDN
(the dashboard's server serves it locally); it is listed and allowed, nothing else is.

``DG_VOILA_NOTEBOOKS=04,05`` limits the notebooks, ``DG_VOILA_RENDERS=N`` changes the count.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from dungeon_guilds.app.processes import free_port, start_process_group, stop_process_group
from tests.money_on_page import money_problems

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
SERIES = sorted(p.name for p in (ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb")
                if not os.environ.get("DG_VOILA_NOTEBOOKS")
                or p.name[:2] in os.environ["DG_VOILA_NOTEBOOKS"].split(","))
RENDERS = int(os.environ.get("DG_VOILA_RENDERS", "0"))  # 0: two pages for AT_ONCE, one for the others
# the notebooks opened by two pages at once (the widget manager's race was seen in 03's stepper;
# 01 draws the most widgets); every other notebook by one page, whose figures are counted against
# those the notebook stores
AT_ONCE = ("01_", "03_")
PAGE_TIMEOUT = 400_000  # ms for a page to execute its notebook on a busy machine
PLOTLY = "application/vnd.plotly.v1+json"
VOILA_CDN = "https://cdn.jsdelivr.net/npm/@fortawesome/"  # Voila's lab template, not ours

DONE_JS = """() => {
  const cells = document.getElementById('rendered_cells');
  return !!cells && cells.style.display !== 'none'
    && ![...document.querySelectorAll('.jupyter-widgets')].some(w => w.textContent === 'Loading widget...');
}"""
# per cell: widget errors, and how many plotly figures are drawn (plots with an SVG inside; a plot
# draws its several SVG layers one after another, so layers are not counted)
CELLS_JS = """() => [...document.querySelectorAll('[cell-index]')].map(c => ({
  cell: c.getAttribute('cell-index'),
  widget_error: (c.innerText.match(/Error displaying widget[^\\n]*/) || [''])[0],
  drawn: [...c.querySelectorAll('.js-plotly-plot')].filter(p => p.querySelector('.main-svg')).length,
}))"""
# figures placed and drawn so far, and whether every placed one is drawn
FIGURES_JS = """() => { const plots = [...document.querySelectorAll('.js-plotly-plot')];
  return [plots.length, plots.every(p => p.querySelector('.main-svg'))]; }"""


@pytest.fixture(scope="module")
def voila_notebooks(tmp_path_factory):
    voila = Path(sys.executable).with_name("voila")
    if not voila.exists():
        pytest.skip("voila is not installed in this environment")
    port = free_port()
    log_path = tmp_path_factory.mktemp("voila-notebooks") / "voila.log"
    cmd = [str(voila), "--no-browser", "--Voila.ip=127.0.0.1", f"--port={port}", "--Voila.port_retries=0",
           "--VoilaConfiguration.preheat_kernel=False", "notebooks"]
    with open(log_path, "wb") as log:
        proc = start_process_group(cmd, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 120
        while "is running at" not in log_path.read_text("utf-8", errors="replace"):
            assert proc.poll() is None and time.monotonic() < deadline, log_path.read_text("utf-8", errors="replace")
            time.sleep(0.2)
        yield f"http://127.0.0.1:{port}/voila/render/"
    finally:
        stop_process_group(proc)


def _open(browser, url: str):
    context = browser.new_context(viewport={"width": 1024, "height": 768}, locale="en-US")
    page = context.new_page()
    page.problems = []  # type: ignore[attr-defined]
    page.outside = []  # type: ignore[attr-defined]

    def route(r):
        if r.request.url.startswith(("http://127.0.0.1", "data:", "blob:")):
            r.continue_()
        else:
            page.outside.append(r.request.url)
            r.abort()

    context.route("**/*", route)
    page.on("console", lambda m: m.type == "error" and page.problems.append(f"console: {m.text[:300]}"))
    page.on("pageerror", lambda exc: page.problems.append(f"pageerror: {str(exc)[:300]}"))
    page.goto(url, wait_until="commit", timeout=PAGE_TIMEOUT)
    return context, page


def _settle(pages) -> None:
    """Every page executed its notebook and was scrolled to the end (so every output has been in
    view), then waited on until every figure placed in it is drawn and no new one has appeared for
    3 s (a widget's figures are placed when its view renders, later than the page's own on a busy
    machine), every page's count the same. The pages are waited on together (not one after
    another: 2/3 of the fixed waits gone, issue 39.6); they are still open at once, as a class's
    are."""
    for page in pages:
        page.wait_for_function(DONE_JS, timeout=PAGE_TIMEOUT)
    for _ in range(6):
        for page in pages:
            page.mouse.wheel(0, 4000)
        pages[0].wait_for_timeout(400)
    pages[0].wait_for_timeout(2500)
    last, steady, deadline = [None] * len(pages), [0] * len(pages), time.monotonic() + 90
    # ... and, on a loaded machine, until the renders agree on how many figures they place (a
    # render that never gets there is still caught: the count is compared after the deadline)
    while (min(steady) < 3 or len({str(now) for now in last}) > 1) and time.monotonic() < deadline:
        for k, page in enumerate(pages):
            page.mouse.wheel(0, 4000)  # a figure placed late is brought into view as well
            now = page.evaluate(FIGURES_JS)
            steady[k] = steady[k] + 1 if (now == last[k] and now[1]) else 0
            last[k] = now
        pages[0].wait_for_timeout(1000)


def _check(page, where: str) -> tuple[list[str], int]:
    """What is wrong on a settled page (:func:`_settle`), and how many figures it draws."""
    cells = page.evaluate(CELLS_JS)
    found = [f"{where} cell {c['cell']}: {c['widget_error']}" for c in cells if c["widget_error"]]
    outside = [u for u in page.outside if not u.startswith(VOILA_CDN)]
    found += [f"{where}: asked another host for {u}" for u in outside]
    blocked = len(page.outside) - len(outside)  # each blocked CDN link logs one "Failed to load resource"
    errors = [p for p in page.problems if "Failed to load resource" not in p]
    failed_loads = len(page.problems) - len(errors)
    if failed_loads > blocked:
        errors.append(f"{failed_loads - blocked} resource(s) of 127.0.0.1 failed to load")
    found += [f"{where}: {e}" for e in errors]
    found += money_problems(page, where)[0]  # issue 40.7: money read back, never typeset as maths
    return found, sum(c["drawn"] for c in cells)


# ipywidgets' message when a view asks for a model its page does not hold (issue 24.5's race;
# seen again in stop 47's clean clone: 03, one render of three at once, in the stepper's cell).
# Its cause (issue 54, race (b)): jupyterlab-manager's get_model gives up after its last sleep
# without looking again, and a restore that ends in that sleep loses the view. The dashboard
# server's pages carry the work-around (app/templates/get_model_last_look.js, tested with the
# race forced in test_widget_restore_race.py); Voila's own page, served here as Binder serves it,
# does not, hence the one fresh render below.
MODEL_NOT_FOUND = ("model not found",)


def _one_render_raced(per_render: list[list[str]]) -> bool:
    """Only one render went wrong, and only by the widget manager's race (every problem of it is
    "model not found": the widget's error text or ipywidgets' console error)."""
    bad = [problems for problems in per_render if problems]
    return len(bad) == 1 and all(any(m in p for m in MODEL_NOT_FOUND) for p in bad[0])


def _renders(name: str) -> int:
    """Pages opened at once for notebook ``name``: ``DG_VOILA_RENDERS`` if set, else 2 for AT_ONCE."""
    return RENDERS or (2 if name.startswith(AT_ONCE) else 1)


def _stored_figures(name: str) -> int:
    """Plotly figures the notebook's cells store (``make figures``): a page draws at least these
    (a widget's own figures come on top)."""
    nb = json.loads((ROOT / "notebooks" / name).read_text(encoding="utf-8"))
    return sum(PLOTLY in o.get("data", {}) for c in nb["cells"] if c["cell_type"] == "code"
               for o in c.get("outputs", []))


def _fresh_render(browser, url: str, name: str) -> tuple[list[str], int]:
    context, page = _open(browser, url)
    try:
        _settle([page])
        return _check(page, f"{name} render {_renders(name) + 1}")
    finally:
        context.close()


@pytest.mark.parametrize("name", SERIES)
def test_the_notebook_renders_in_voila_without_widget_or_console_errors(name, browser, voila_notebooks):
    t0, renders = time.monotonic(), _renders(name)
    pages = [_open(browser, voila_notebooks + name) for _ in range(renders)]
    per_render, drawn = [], []
    try:
        _settle([page for _, page in pages])
        for k, (_, page) in enumerate(pages):
            problems, figures = _check(page, f"{name} render {k + 1}")
            per_render.append(problems)
            drawn.append(figures)
    finally:
        for context, _ in pages:
            context.close()
    found = [p for problems in per_render for p in problems]
    print(f"{name}: {renders} page(s) at once, {time.monotonic() - t0:.0f} s, figures drawn {drawn}")
    if found and renders > 1 and _one_render_raced(per_render):
        # One page lost the widget manager's race (a view asked for a model before its
        # page held it): a reload draws it. A fresh render must then be clean and draw what the
        # others drew; the race every time, or in two pages at once, still fails.
        problems, figures = _fresh_render(browser, voila_notebooks + name, name)
        print(f"{name}: one render lost the widget race ({found[0]!r}); a fresh render: "
              f"{problems or 'no problem'}, {figures} figures")
        assert not problems, "\n".join(found + problems)
        assert figures == max(drawn), f"{name}: a fresh render drew {figures} figures, the others {drawn}"
        return
    assert not found, "\n".join(found)
    if len(set(drawn)) > 1:
        # stop 46's official CI (and a clean clone of stop 47): one render of 08 of three, on a
        # busy machine, had drawn 5 figures of 6 after 90 s. A fresh render must then draw what
        # the others drew: a figure missing every time still fails, a rare slow one does not.
        problems, figures = _fresh_render(browser, voila_notebooks + name, name)
        print(f"{name}: renders disagreed ({drawn}); a fresh render drew {figures}")
        assert not problems, "\n".join(problems)
        assert drawn.count(figures) == renders - 1 and figures == max(drawn), (
            f"{name}: the renders drew different numbers of figures: {drawn}, then {figures}")
    stored = _stored_figures(name)
    assert max(drawn) >= stored, f"{name}: a page drew {max(drawn)} plotly figures, the notebook stores {stored}"
