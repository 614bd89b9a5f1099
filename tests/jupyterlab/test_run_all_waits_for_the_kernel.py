"""Issue 54, race (c): JupyterLab's Run All pressed before the notebook has its kernel.

The cause of "Run All cleared every prompt and ran nothing" (stop 45), "two kernels started for
one notebook, Run All ran cell 1 and left the rest blank" (stop 46) and the "Select Kernel"
dialog over a notebook (stops 46, 47), found in JupyterLab 4.6's own code:

* the notebook's execution indicator starts as ``data-status="idle"`` when it is attached to a
  notebook, before any kernel exists (its model's initial state), and changes only on the first
  status event of the session. The series test waited for that "idle" and then pressed Run All;
* Run All with no kernel yet: ``runCell`` sees ``sessionContext.hasNoKernel`` and starts a kernel
  itself (a second one, beside the one the notebook's own start is about to make; when it cannot
  choose one it asks in "Select Kernel"), and ``CodeCell.execute`` clears the prompt of any cell
  it is asked to run while ``session.kernel`` is still null and runs nothing.

The reproduction makes the window wide at will: the page's requests for the list of sessions
(``GET /api/sessions``, which the notebook's session context waits for before it starts its
kernel) are held. Pressed at the old "idle", Run All does not run the notebook; pressed once
:func:`kernel_ready` (the session context's own state, through ``window.jupyterapp``) says the
kernel is connected and idle, it runs every cell, with one kernel. The series test
(``test_notebooks_in_jupyterlab``) now waits for :func:`kernel_ready` and asks Run All once.

A learner meets the same in ``dungeon-guilds lab`` when Run All is pressed while the kernel is
still starting (a loaded classroom server): ``notebooks/00_index.ipynb``'s conventions say to wait
for the kernel's circle to be empty (Idle), and to choose Run All again if nothing ran.
"""

from __future__ import annotations

import re
import time

import pytest

from tests.jupyterlab.test_notebooks_in_jupyterlab import (
    CELLS_JS, Watched, kernel_ready, new_kernel, run_all, wait_done, wait_kernel_ready)

pytestmark = pytest.mark.jupyterlab

NOTEBOOK = "02_snake_turn_order.ipynb"  # eight quick code cells
INDICATOR_IDLE = ".jp-NotebookPanel .jp-Notebook-ExecutionIndicator[data-status='idle']"
SESSIONS = re.compile(r".*/api/sessions(\?.*)?$")
CONTENTS = re.compile(r".*/api/contents/notebooks/" + re.escape(NOTEBOOK) + r"(\?.*)?$")


class HeldSessions:
    """The page's ``GET /api/sessions`` requests held (not answered) until :meth:`release`, from
    the moment the page fetches the notebook's file: JupyterLab itself has started (its own first
    list of sessions answered) and the notebook's session context is about to ask for the list."""

    def __init__(self, page):
        self.page, self.held, self.armed = page, [], False
        page.route(CONTENTS, self._contents)
        page.route(SESSIONS, self._sessions)

    def _contents(self, route) -> None:
        self.armed = True
        route.continue_()

    def _sessions(self, route) -> None:
        if self.armed and route.request.method == "GET":
            self.held.append(route)
        else:
            route.continue_()

    def release(self) -> None:
        self.page.unroute(SESSIONS)
        self.page.unroute(CONTENTS)
        for route in self.held:
            route.continue_()
        self.held.clear()


def _open_held(context, server):
    watched = Watched(context, NOTEBOOK[:2], 1)
    page = watched.page
    held = HeldSessions(page)
    page.goto(f"{server.base}/lab/tree/notebooks/{NOTEBOOK}?token={server.token}&reset")
    deadline = time.monotonic() + 120
    while not held.held:  # the notebook's session context has asked for the list: it waits
        assert time.monotonic() < deadline, "the notebook never asked for the list of sessions"
        page.wait_for_timeout(200)
    # the old wait passes now, with no kernel
    page.wait_for_selector(INDICATOR_IDLE, timeout=60_000)
    return watched, held


def _ran(page) -> list[bool]:
    return [bool(re.search(r"\[\d+\]", c["prompt"])) for c in page.evaluate(CELLS_JS)]


def _kernels(server) -> int:
    return len(server.api("/api/kernels") or [])


@pytest.fixture
def held_page(lab_server, lab_browser):
    """A fresh page opening the notebook with no kernel left, its sessions' list held:
    (the page's :class:`Watched`, its :class:`HeldSessions`)."""
    new_kernel(lab_server)
    context = lab_browser.new_context(viewport={"width": 1280, "height": 1000}, locale="en-US")
    context.set_default_timeout(60_000)
    try:
        yield _open_held(context, lab_server)
    finally:
        context.close()
        new_kernel(lab_server)


def test_run_all_before_the_kernel_does_not_run_the_notebook(lab_server, held_page):
    """The old wait (the indicator's "idle") passes with no kernel; Run All then leaves cells
    unrun (or starts a second kernel): the race, made certain by holding the sessions' list."""
    watched, held = held_page
    page = watched.page
    assert not kernel_ready(page), "the session context says ready while its sessions' list is held"
    before = _kernels(lab_server)
    page.locator(".jp-NotebookPanel .jp-Notebook").click(position={"x": 5, "y": 5})
    page.locator(".lm-MenuBar-itemLabel", has_text=re.compile(r"^Run$")).click()
    page.locator(".lm-Menu-item:not(.lm-mod-disabled) .lm-Menu-itemLabel",
                 has_text=re.compile(r"^Run All Cells$")).click()
    page.wait_for_timeout(3000)
    held.release()
    wait_kernel_ready(page)
    page.wait_for_timeout(5000)  # whatever the early Run All was going to run has run
    ran, kernels = _ran(page), _kernels(lab_server) - before
    print(f"Run All before the kernel: cells run {ran}, kernels started {kernels}", flush=True)
    assert not all(ran) or kernels > 1, (
        "Run All pressed before the kernel ran every cell with one kernel: JupyterLab no longer "
        "loses it (tests/jupyterlab/test_notebooks_in_jupyterlab.kernel_ready may be simplified)")
    page.close(run_before_unload=False)


def test_run_all_once_the_kernel_is_ready_runs_every_cell_with_one_kernel(lab_server, held_page):
    """The fix: wait for :func:`kernel_ready` (false while the sessions' list is held), then one
    Run All runs every cell, and the notebook has one kernel."""
    watched, held = held_page
    page = watched.page
    deadline = time.monotonic() + 3
    while time.monotonic() < deadline:
        assert not kernel_ready(page), "kernel_ready said ready while the sessions' list was held"
        page.wait_for_timeout(250)
    held.release()
    wait_kernel_ready(page)
    run_all(page)
    wait_done(page)
    assert all(_ran(page)), f"cells not run: {_ran(page)}"
    assert _kernels(lab_server) == 1, lab_server.api("/api/kernels")
    assert not (found := watched.close()), found
