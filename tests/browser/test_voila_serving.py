"""Serving: the preheated kernel survives idle-kernel culling and serves the next page, and the
kernel of a closed page is culled (the test server culls after ``CULL_IDLE`` seconds, see conftest.py;
``voila.json`` says 600)."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.browser

POOL = json.loads((ROOT / "voila.json").read_text("utf-8"))["VoilaConfiguration"]["default_pool_size"]


def test_a_pool_kernel_idle_past_the_cull_timeout_still_serves_and_closed_pages_are_freed(browser, voila_server):
    idle, interval = voila_server.cull_idle, voila_server.cull_interval
    voila_server.wait_pool_filled()
    time.sleep(idle + 2 * interval + 0.5)  # the pool kernel is now "idle" to the culler
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        page = context.new_page()
        kernel_ids: list[str] = []
        page.on("websocket", lambda ws: kernel_ids.extend(
            re.findall(r"/api/kernels/([0-9a-f-]{36})/", ws.url)))
        t0 = time.monotonic()
        page.goto(voila_server.url, timeout=60_000)
        page.wait_for_selector(".dg-dashboard .dg-stepper .dg-board", timeout=30_000)
        render = time.monotonic() - t0
        assert kernel_ids, "the page opened no kernel connection"
        kernel = kernel_ids[0]
        assert f"Using pre-heated kernel: {kernel}" in voila_server.log()
        assert "Traceback" not in page.content()
        time.sleep(idle + 2 * interval)  # a connected page keeps its kernel
        assert f"({kernel})" not in "".join(re.findall(r"Culling .*", voila_server.log()))
    finally:
        context.close()
    # closed: culled within the timeout and an interval or two
    voila_server.wait_for_log(rf"Culling .*\({kernel}\)", timeout=idle + 4 * interval + 10)
    deadline = time.monotonic() + idle + 10
    pool = voila_server.pool_size(POOL)  # as it grew for the session's pages (issue 40)
    while len(voila_server.kernels()) > pool and time.monotonic() < deadline:
        time.sleep(0.2)
    assert len(voila_server.kernels()) == pool, "only the preheated kernels should be left"
    assert render < 30
