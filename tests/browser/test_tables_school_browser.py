"""A table page in Chromium against ``table_server --workers 2`` sharing Redis (issue 52): with a
shared store the page (tables.js) names its table in its websocket's address (``?table=CODE``),
so that the front sends every page of one table to one process (tests/tables/test_workers.py
tests the front): the opener moves to such a socket once its table is open, a classmate who
follows the table's link opens one at once; both play on. Skipped, with the reason, where
redis-server is not installed."""

from __future__ import annotations

import time

import pytest

from dungeon_guilds.app.tables import local_redis
from tests.tables.tables_helpers import two_workers

pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(not local_redis.available(), reason="redis-server is not installed")]


@pytest.fixture
def school(tmp_path):
    pytest.importorskip("redis", reason="redis-py is not installed (pip install 'dungeon-guilds[school]')")
    with two_workers(tmp_path) as (port, _redis_url):
        yield f"http://127.0.0.1:{port}/"


def student(browser):
    context = browser.new_context(viewport={"width": 1024, "height": 768}, locale="en-US")
    context.set_default_timeout(30_000)
    page = context.new_page()
    page.sockets, page.errors = [], []  # type: ignore[attr-defined]
    page.on("websocket", lambda ws: page.sockets.append(ws.url))  # type: ignore[attr-defined]
    page.on("pageerror", lambda exc: page.errors.append(str(exc)))  # type: ignore[attr-defined]
    return context, page


def test_a_table_page_names_its_table_in_its_socket(browser, school):
    (ann_context, ann), (bo_context, bo) = student(browser), student(browser)
    try:
        ann.goto(f"{school}dungeon-guilds/tables")
        ann.fill("#name", "Ann")
        ann.click("#open-form button")
        ann.wait_for_selector("#table:not([hidden])")
        code = ann.text_content("#code-line").strip()[-6:]
        deadline = time.monotonic() + 10
        while len(ann.sockets) < 2 and time.monotonic() < deadline:
            ann.wait_for_timeout(100)
        assert ann.sockets[0].endswith("/tables/ws"), ann.sockets  # no table yet: any process
        assert ann.sockets[1:] == [f"{school.replace('http', 'ws')}dungeon-guilds/tables/ws?table={code}"], ann.sockets
        bo.goto(ann.text_content("#link"))
        bo.fill("#name", "Bo")
        bo.click("#join-form button")
        bo.wait_for_selector("#table:not([hidden])")
        assert bo.sockets == [f"{school.replace('http', 'ws')}dungeon-guilds/tables/ws?table={code}"], bo.sockets
        ann.wait_for_function("() => document.querySelector('#seat-list').innerText.includes('Bo')")
        assert "Ann" in bo.inner_text("#seat-list")
        assert ann.text_content("#message") in ("", None)  # the move to the table's socket says nothing
        assert not ann.errors and not bo.errors
    finally:
        ann_context.close()
        bo_context.close()
