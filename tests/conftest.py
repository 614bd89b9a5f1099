"""Shared test settings: widget bugs fail tests (issue 17, item 5).

A widget callback shows an expected error (a refusal, bad input) as a sentence; any other error
is a bug, which the dashboard logs on the ``dungeon_guilds.widgets`` logger instead of showing a
traceback (``widgets.common.safe``). Under test a bug must fail the test, not become a message:

* ``widgets.common.RAISE_UNEXPECTED`` is on, so a callback called directly re-raises the bug;
* a button's callbacks run inside ipywidgets, which swallows exceptions, so every test also
  fails if anything logged an error on the widgets' logger.

A test about the dashboard's own handling of a bug asks for the ``widget_errors`` fixture: the
widgets then behave as in the dashboard (no re-raise) and the test reads the logged records.
"""

from __future__ import annotations

import logging

import pytest

WIDGETS_LOGGER = "dungeon_guilds.widgets"


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
