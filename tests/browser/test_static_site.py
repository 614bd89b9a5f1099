"""The static site (issue 13) in a real browser: ``make site`` builds ``_site/``; here it is
served on loopback under a sub-path (as GitHub Pages serves ``/<repo>/``), Chromium opens it with
every request to any other host aborted, and the dashboard — Python running in the page
(Pyodide), no server kernel — plays round 1 in Learn (the gold shown equals the engine's, replayed
here), a move in Play, opens Explore, switches to 繁體中文, and says that Lab needs the server version.

Skipped (or failed in CI) only when the site has not been built.
"""

from __future__ import annotations

import random
import time
from pathlib import Path
from urllib.parse import urlparse

import pytest

from conftest import unavailable
from test_dashboard_browser import (play_round_one_by_clicking, ply, replay_with_engine, settle,
                                    shown_gold, wait_changed)

from dungeon_guilds.app.site_server import start

pytestmark = pytest.mark.browser

SITE = Path(__file__).resolve().parents[2] / "_site"
PREFIX = "/dungeon-guilds/"
FIRST_RENDER_TIMEOUT = 400_000  # ms: Pyodide starts and loads every wheel; slow on a busy machine


@pytest.fixture(scope="module")
def site():
    if not (SITE / "index.html").exists() or not (SITE / "voici").is_dir():
        unavailable(f"the static site has not been built ({SITE} is missing: run `make site`)")
    server, url = start(SITE, 0, PREFIX)
    try:
        yield url
    finally:
        server.shutdown()
        server.server_close()


def test_the_static_site_plays_learn_and_play_offline_under_a_sub_path(browser, site, tmp_path):
    context = browser.new_context(viewport={"width": 1024, "height": 768}, locale="en-US")
    context.set_default_timeout(60_000)
    page = context.new_page()
    errors, outside, asked = [], [], []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    here = urlparse(site).netloc

    def only_loopback(route):
        url = route.request.url
        asked.append(url)
        if urlparse(url).netloc != here and not url.startswith(("data:", "blob:")):
            outside.append(url)
            route.abort()
        else:
            route.continue_()

    context.route("**/*", only_loopback)
    try:
        t0 = time.perf_counter()
        page.goto(site, timeout=120_000)  # the root page opens the dashboard
        page.wait_for_selector(".dg-dashboard .dg-stepper .dg-board", timeout=FIRST_RENDER_TIMEOUT)
        print(f"first render {time.perf_counter() - t0:.1f} s")
        assert page.url.startswith(site) and "/voici/render/dashboard.html" in page.url
        settle(page)
        assert page.get_by_role("tab").all_inner_texts()[:2] == ["Learn", "Play"]
        assert shown_gold(page, ".dg-stepper") == {0: 2, 1: 2, 2: 2}  # the setup gold (R2.4)

        # Learn: round 1 by clicking; the gold shown is the engine's for the same moves
        t1 = time.perf_counter()
        choices = play_round_one_by_clicking(page, random.Random(2024))
        print(f"round 1 in Learn: {time.perf_counter() - t1:.1f} s")
        game = replay_with_engine(choices)
        assert int(ply(page)) == game.ply
        gold = shown_gold(page, ".dg-stepper")
        assert gold == dict(enumerate(game.state.gold)), (gold, game.state.gold, game.moves)
        assert sum(gold.values()) > 6  # round 1 paid something out (R7)

        # Play: one move
        page.get_by_role("tab", name="Play").click()
        table = page.locator(".dg-play-table")
        table.locator(".dg-board").first.wait_for(timeout=120_000)
        before = table.locator(".dg-message").first.inner_text()
        table.locator(".dg-actions select").first.select_option(index=0)
        table.locator("button.dg-play").first.click()
        wait_changed(page, ".dg-play-table .dg-message", before)
        assert table.locator(".dg-message").first.inner_text().startswith("Ann: exhaust")

        # Explore: the treasure split and the order of turns draw (plotly in the page)
        page.get_by_role("tab", name="Explore").click()
        page.wait_for_selector(".dg-payout-explorer .dg-payout-result", timeout=120_000)
        page.wait_for_selector(".dg-payout-explorer .js-plotly-plot")
        page.wait_for_selector(".dg-turn-order-explorer .dg-order")

        # 繁體中文: the labels follow, the numbers stay
        page.locator(".dg-dash-header .dg-lang-toggle button", has_text="繁體中文").click()
        page.get_by_role("tab", name="學習").wait_for()
        page.get_by_role("tab", name="學習").click()
        settle(page)
        assert page.locator(".dg-stepper .dg-board").first.get_attribute("lang") == "zh-Hant"
        assert shown_gold(page, ".dg-stepper") == gold

        # Lab: no pandas in the browser -> the tab says so and points to the server version
        page.get_by_role("tab", name="實驗室").click()
        page.wait_for_selector(".dg-tab-lab .dg-needs-server")
        assert "伺服器版" in page.locator(".dg-tab-lab .dg-needs-server").first.inner_text()
        assert "Traceback" not in page.content()
        page.screenshot(path=str(tmp_path / "static-site-zh.png"))
    finally:
        context.close()
    assert not outside, f"requests left the loopback server: {outside[:5]}"
    assert len(asked) > 50 and all(urlparse(u).path.startswith(PREFIX) for u in asked if u.startswith("http")), \
        [u for u in asked if u.startswith("http") and not urlparse(u).path.startswith(PREFIX)][:5]
    assert not errors, errors
