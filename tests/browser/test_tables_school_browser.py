"""A table page in Chromium against ``table_server --workers 2`` sharing Redis (issue 52): with a
shared store the page (tables.js) names its table in its websocket's address (``?table=CODE``),
so that the front sends every page of one table to one process (tests/tables/test_workers.py
tests the front): the opener moves to such a socket once its table is open, a classmate who
follows the table's link opens one at once; both play on. Skipped, with the reason, where
redis-server is not installed."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import urllib.request

import pytest

from dungeon_guilds.app.tables import local_redis

pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(not local_redis.available(), reason="redis-server is not installed")]


@pytest.fixture
def school(tmp_path):
    pytest.importorskip("redis", reason="redis-py is not installed (pip install 'dungeon-guilds[school]')")
    (tmp_path / "redis").mkdir()
    with local_redis.LocalRedis(tmp_path / "redis") as redis:
        port = local_redis.free_port()
        log = open(tmp_path / "server.log", "w")
        proc = subprocess.Popen([sys.executable, "-m", "dungeon_guilds.app.table_server", "--port", str(port),
                                 "--workers", "2", "--tables-store", redis.url, "--tables-dir", str(tmp_path / "own")],
                                stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        try:
            deadline = time.monotonic() + 60
            while (tmp_path / "server.log").read_text().count("Class tables on") < 2:
                assert proc.poll() is None and time.monotonic() < deadline, (tmp_path / "server.log").read_text()
                time.sleep(0.1)
            urllib.request.urlopen(f"http://127.0.0.1:{port}/dungeon-guilds/tables", timeout=5).read()
            yield f"http://127.0.0.1:{port}/"
        finally:
            os.killpg(proc.pid, signal.SIGTERM)
            proc.wait(10)
            log.close()


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
