"""Shared test settings: widget bugs fail tests (issue 17, item 5).

A widget callback shows an expected error (a refusal, bad input) as a sentence; any other error
is a bug, which the dashboard logs on the ``dungeon_guilds.widgets`` logger instead of showing a
traceback (``widgets.common.safe``). Under test a bug must fail the test, not become a message:

* ``widgets.common.RAISE_UNEXPECTED`` is on, so a callback called directly re-raises the bug;
* a button's callbacks run inside ipywidgets, which swallows exceptions, so every test also
  fails if anything logged an error on the widgets' logger.

A test about the dashboard's own handling of a bug asks for the ``widget_errors`` fixture: the
widgets then behave as in the dashboard (no re-raise) and the test reads the logged records.

Parallel runs (issue 39.6: ``make test`` runs ``pytest -n 2 --dist loadgroup``, pytest-xdist):
every test runs in a group, on one worker — its module (module-scoped servers and browsers start
once; a notebook's cells share one kernel, in order), or ``voila_server`` for every module that
uses the session's dashboard server (one Voila with its preheated pool, not one per worker) —
and the groups are handed out longest first (:data:`FIRST`), so the two workers end together.
Without ``-n`` (a developer's ``pytest tests/x``) nothing changes.
"""

from __future__ import annotations

import functools
import logging
import re
from pathlib import Path

import pytest

WIDGETS_LOGGER = "dungeon_guilds.widgets"
ROOT = Path(__file__).resolve().parents[1]
# the groups handed out first under xdist, longest first (seconds in one serial run, quiet
# machine: docs/architecture.md, "Tests"); every other group follows in the usual order
FIRST = (
    "tests/jupyterlab/test_notebooks_in_jupyterlab.py",  # the notebook series in JupyterLab
    "voila_server",  # every test on the session's dashboard server
    "tests/browser/test_notebooks_in_voila.py",
    "tests/browser/test_static_site.py",
    "tests/browser/test_voila_classroom.py",
    "tests/browser/test_tables_browser.py",
)
LATER = ("tests/browser/", "tests/jupyterlab/", "notebooks/")  # then these, then the rest


@functools.cache
def _uses_voila_server(module: str) -> bool:
    path = ROOT / module
    return path.suffix == ".py" and path.is_file() and re.search(r"\bvoila_server\b", path.read_text("utf-8")) is not None


def xdist_group(nodeid: str) -> str:
    """The group a test runs in under ``--dist loadgroup``: ``voila_server`` for every test of a
    module that names that fixture, else its module (a notebook for nbval's cells)."""
    module = nodeid.split("::", 1)[0]
    return "voila_server" if _uses_voila_server(module) else module


def _rank(group: str) -> int:
    if group in FIRST:
        return FIRST.index(group)
    later = [i for i, prefix in enumerate(LATER) if group.startswith(prefix)]
    return len(FIRST) + (later[0] if later else len(LATER))


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config, log):
    """``--dist loadgroup`` by :func:`xdist_group` (xdist's own reads ``xdist_group`` marks by
    rewriting node ids, which pytest 9.2 no longer lets it do), groups handed out in the order of
    the workers' collection (sorted below), two at a time per worker."""
    if config.getoption("dist") != "loadgroup":
        return None
    from xdist.scheduler import LoadScopeScheduling

    class GroupScheduling(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return xdist_group(nodeid)

    config.option.loadscopereorder = False
    return GroupScheduling(config, log)


def pytest_collection_modifyitems(config, items):
    if not hasattr(config, "workerinput"):  # not an xdist worker: the usual serial run
        return
    stray = sorted({item.nodeid.split("::")[0] for item in items
                    if "voila_server" in getattr(item, "fixturenames", ())
                    and xdist_group(item.nodeid) != "voila_server"})
    if stray:  # the server would start on a second worker too: name it where the test is
        raise pytest.UsageError(f"{stray} use voila_server without naming it in the module")
    items.sort(key=lambda item: _rank(xdist_group(item.nodeid)))  # stable: a group keeps its order


class _Records(logging.Handler):
    def __init__(self):
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@pytest.fixture(autouse=True)
def _widget_bugs_fail_loudly(request, monkeypatch):
    try:
        from dungeon_guilds.widgets import common
    except ImportError:  # the widgets' libraries (the notebooks extra) are not installed
        yield
        return
    if "widget_errors" in request.fixturenames:  # that fixture sets the dashboard's behaviour
        yield
        return
    monkeypatch.setattr(common, "RAISE_UNEXPECTED", True)
    handler = _Records()
    logger = logging.getLogger(WIDGETS_LOGGER)
    logger.addHandler(handler)
    try:
        yield
    finally:
        logger.removeHandler(handler)
    if handler.records:
        pytest.fail("a widget logged an unexpected error (a bug): "
                    + "; ".join(r.getMessage() + f" ({r.exc_info[1]!r})" if r.exc_info else r.getMessage()
                                for r in handler.records), pytrace=False)


@pytest.fixture
def widget_errors(monkeypatch) -> list[logging.LogRecord]:
    """The widgets as in the dashboard (a bug is logged and said in a sentence, not re-raised);
    the list of error records logged on the widgets' logger during the test."""
    from dungeon_guilds.widgets import common

    monkeypatch.setattr(common, "RAISE_UNEXPECTED", False)
    handler = _Records()
    logger = logging.getLogger(WIDGETS_LOGGER)
    logger.addHandler(handler)
    yield handler.records
    logger.removeHandler(handler)


@pytest.fixture(autouse=True)
def _small_judge(monkeypatch):
    """The judge's play-outs with a test-sized budget in every widget (issue 38): the review
    and the hints behave the same, only with fewer worlds (docs/review.md has the real figures;
    tests/analysis/test_judge.py checks the judge itself)."""
    try:
        from dungeon_guilds.analysis.judge import Budget
        from dungeon_guilds.widgets import review
    except ImportError:  # the widgets' libraries (the notebooks extra) are not installed
        yield
        return
    monkeypatch.setattr(review, "HINT_BUDGET", Budget(worlds=4, min_worlds=4, batch=4, check=0))
    monkeypatch.setattr(review.ReviewPanel, "budget", Budget(worlds=4, min_worlds=4, batch=4, check=4))
    monkeypatch.setattr(review.ReviewPanel, "curve_worlds", 1)
    yield
