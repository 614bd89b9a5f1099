"""Issue 54, race (b): "Error displaying widget: model not found" in a lesson page, made to happen.

The cause (jupyterlab-manager 5.0.16, the widget manager of Voila's pages; found by reading it and
reproduced here): a cell's widget view asks the manager for its model while the manager is still
fetching every model from the kernel. ``get_model`` looks every 100 ms for 2 s and, after its
last sleep, gives up without looking again. When the fetch registers the models and ends during
that last sleep, the view is told "not found" by a manager already restored and shows the error
for good. It needs the fetch to end in a window of one sleep, hence a rare failure on a loaded
machine (the notebook test's render of 03's stepper, stops 47 and 49).

:func:`tests.browser.restore_race.race_script` makes the window 1.5 s wide (the sleeps stretched)
and ends the fetch inside it (the kernel's reply held until 1.8 s after the view first asked).
The fix is the project's page extension (``dungeon_guilds/app/page_extensions.py``: one more look
before "not found"), which every route to the notebooks loads:

* Voila's page without the extension (its script not served: upstream's page) shows the error
  in 03's two top-level widgets (when this fails, upstream has mended ``get_model`` and the
  extension can go);
* Voila's own page (``voila notebooks/`` from the repository root, as Binder's ``voila/render``:
  ``voila.json`` names the extension) draws both widgets;
* so does the dashboard server's lesson page (``/dungeon-guilds/notebooks/03_…``: the pages a
  class opens).

JupyterLab's pages load it too (``tests/jupyterlab``: the series test checks it is in place).
"""

from __future__ import annotations

import pytest

from tests.browser.restore_race import LAST_LOOK_JS, RELEASED_JS, WIDGET_ERRORS_JS, race_script, without_last_look
from tests.browser.test_notebooks_in_voila import DONE_JS, PAGE_TIMEOUT, voila_notebooks  # noqa: F401 - a fixture

pytestmark = pytest.mark.browser

NOTEBOOK = "03_payouts_and_healing"
TOP_LEVEL = 2  # 03's widgets a cell shows: the payout explorer and the round stepper
HOLD_MS, STRETCH_MS = 1800, 1500
SETTLED_JS = "() => !document.body.innerText.includes('Loading widget...')"
DRAWN_JS = "() => document.querySelectorAll('.widget-box').length"


def _raced_page(browser, url: str, last_look: bool = True) -> dict:
    """``url`` opened with the race forced (without the page extension unless ``last_look``);
    what the page shows once settled."""
    context = browser.new_context(viewport={"width": 1024, "height": 768})
    context.add_init_script(race_script(HOLD_MS, STRETCH_MS))
    context.route("**/*", lambda r: r.continue_() if r.request.url.startswith(("http://127.0.0.1", "data:", "blob:"))
                  else r.abort())
    if not last_look:
        without_last_look(context)  # routed after the catch-all: asked first
    page = context.new_page()
    try:
        page.goto(url, wait_until="commit", timeout=PAGE_TIMEOUT)
        page.wait_for_function(DONE_JS, timeout=PAGE_TIMEOUT)
        page.wait_for_function("() => !!window.__dgStatesReleasedAt", timeout=PAGE_TIMEOUT)
        page.wait_for_function(SETTLED_JS, timeout=120_000)  # every view drawn or given up
        page.wait_for_timeout(2000)  # a view drawn again on "restored" has had its turn
        return {"errors": page.evaluate(WIDGET_ERRORS_JS), "released": page.evaluate(RELEASED_JS),
                "last_look": page.evaluate(LAST_LOOK_JS), "drawn": page.evaluate(DRAWN_JS)}
    finally:
        context.close()


def test_a_page_without_the_extension_loses_the_restore_race(browser, voila_notebooks):  # noqa: F811
    seen = _raced_page(browser, voila_notebooks + NOTEBOOK + ".ipynb", last_look=False)
    print(f"Voila's page without the extension, the reply released at {seen['released']} s: {seen}")
    assert seen["released"] is not None and seen["released"] >= HOLD_MS / 1000, seen
    assert not seen["last_look"], seen
    assert len(seen["errors"]) == TOP_LEVEL, (
        f"the forced race did not show 'model not found' in 03's {TOP_LEVEL} widgets ({seen}): upstream may "
        "have mended get_model; if so the page extension (dungeon_guilds/app/page_extensions.py) can go")


def test_voilas_own_page_draws_every_widget_in_the_restore_race(browser, voila_notebooks):  # noqa: F811
    seen = _raced_page(browser, voila_notebooks + NOTEBOOK + ".ipynb")
    print(f"Voila's own page (voila.json), the reply released at {seen['released']} s: {seen}")
    assert seen["released"] is not None and seen["released"] >= HOLD_MS / 1000, seen
    assert seen["last_look"], "Voila's own page did not load the page extension (voila.json's extra_labextensions_path)"
    assert not seen["errors"], f"cells with a widget error: {seen['errors']}"
    assert seen["drawn"] >= TOP_LEVEL, seen


def test_the_lesson_page_draws_every_widget_in_the_restore_race(browser, voila_server):
    seen = _raced_page(browser, f"{voila_server.url}dungeon-guilds/notebooks/{NOTEBOOK}")
    print(f"the dashboard's lesson page, the reply released at {seen['released']} s: {seen}")
    assert seen["released"] is not None and seen["released"] >= HOLD_MS / 1000, seen
    assert seen["last_look"], "the lesson page did not load the page extension (DashboardVoila)"
    assert not seen["errors"], f"cells with a widget error: {seen['errors']}"
    assert seen["drawn"] >= TOP_LEVEL, seen
