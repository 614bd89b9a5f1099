"""The static site (issue 13) in a real browser: ``make site`` builds ``_site/``; here it is
served on loopback under a sub-path (as GitHub Pages serves ``/<repo>/``), Chromium opens it with
every request to any other host aborted, and the dashboard — Python running in the page
(Pyodide), no server kernel — plays round 1 in Learn (the gold shown equals the engine's, replayed
here), a move in Play made by clicking the drawn board (an anywidget: its targets are
``role="button"`` elements found by their accessible names), opens Explore, shows a sourced fact in
Compare (built from the comparison's plain rows: no pandas in the browser), runs a small Lab
experiment (the numbers shown = this Python's for the same settings), stops a long one, runs an
A/B experiment in the design workshop and downloads its report (plotly inlined; its data = this
Python's run), switches to 繁體中文 and does the Lab and the A/B again (issue 31); then axe-core
audits every tab in 繁體中文 (issue 32; both languages until stop 49, and on the server still). Screenshots of Lab and A/B at 1024×768 in both
languages are left in the test's temporary folder.

Skipped (or failed in CI) only when the site has not been built.
"""

from __future__ import annotations

import math
import random
import re
import time
from pathlib import Path
from urllib.parse import urlparse

import pytest

from a11y_audit import audit_every_tab, counts
from conftest import CHROMIUM_ARGS, chromium_path, only_loopback, unavailable
from test_dashboard_browser import (play_round_one_by_clicking, ply, replay_with_engine, settle,
                                    shown_gold, wait_changed)

from dungeon_guilds import i18n
from dungeon_guilds.app.site_server import start
from dungeon_guilds.siblings import comparison

pytestmark = pytest.mark.browser

SITE = Path(__file__).resolve().parents[2] / "_site"
PREFIX = "/dungeon-guilds/"
FIRST_RENDER_TIMEOUT = 400_000  # ms: Pyodide starts and loads every wheel; slow on a busy machine
# issue 50: a name that resolves to loopback but is not "localhost" nor 127.0.0.1, so the page is
# not a secure context (no service workers, no Cache Storage), as on a LAN address
INSECURE_HOST = "dg.test"
INSECURE_FIRST_VISIT_S = 15  # the board on screen this soon on a first visit over plain http
# ... or, on a machine so busy that the secure first visit of this module's first test took
# longer than that, no slower than this times it (the same site's start, the worker left out)
INSECURE_VS_SECURE = 1.25
FIRST_VISITS: dict[str, float] = {}  # "secure": the first test's first render (s)
LAB_GAMES, AB_GAMES = 30, 20  # small runs: a few seconds each in the browser


def expected_lab(games: int) -> list[tuple[int, float, float]]:
    """(seat, win rate, mean gold) of the Lab's default run (4 greedy bots, seed 0) here."""
    pytest.importorskip("ipywidgets")
    from dungeon_guilds.widgets.lab import LabPanel

    lab = LabPanel(games=games)
    lab.run()
    return [(r["seat"], r["win_rate"], r["gold_mean"]) for r in lab.seat_rows]


def run_lab(page, lang: str, games: int = LAB_GAMES) -> None:
    """Run the Lab with ``games`` games; check the table against this Python's numbers."""
    page.locator(".dg-lab-tabs .lm-TabBar-tab", has_text=i18n.t("dash.lab_balance", lang)).first.click()
    lab = page.locator(".dg-lab")
    lab.locator("button.dg-lab-run").wait_for(timeout=120_000)
    games_input = lab.locator(".dg-lab-games input")
    games_input.fill(str(games))
    games_input.press("Enter")
    settle(page, ".dg-lab")
    t0 = time.perf_counter()
    lab.locator("button.dg-lab-run").click()
    done = i18n.t("lab.done", lang, games=games, seconds=math.nan, rate=0).split("nan")[0]  # "30 games in "
    page.wait_for_function("t => document.querySelector('.dg-lab .dg-message').innerText.startsWith(t)",
                           arg=done, timeout=300_000)
    rate = lab.locator(".dg-lab-stats").get_attribute("data-games-per-second")
    print(f"Lab ({lang}): {games} games in {time.perf_counter() - t0:.1f} s ({rate} games/s playing)")
    rows = page.eval_on_selector_all(
        ".dg-lab .dg-lab-row", "rows => rows.map(r => [Number(r.dataset.seat), Number(r.dataset.win), "
                               "Number(r.dataset.gold)])")
    want = expected_lab(games)
    assert len(rows) == len(want) == 4
    for (seat, win, gold), (s, w, g) in zip(rows, want):
        assert seat == s and abs(win - w) < 1e-5 and abs(gold - g) < 1e-5, (rows, want)
    lab.locator(".dg-lab-chart").scroll_into_view_if_needed()
    lab.locator(".dg-lab-chart .js-plotly-plot .main-svg").first.wait_for(timeout=120_000)


def stop_a_long_lab_run(page) -> None:
    """Start 5000 games, Stop after the first chunks: the page answers and keeps the games played."""
    lab = page.locator(".dg-lab")
    games_input = lab.locator(".dg-lab-games input")
    games_input.fill("5000")
    games_input.press("Enter")
    settle(page, ".dg-lab")
    lab.locator("button.dg-lab-run").click()
    page.wait_for_function("Number((document.querySelector('.dg-lab .dg-lab-progress-text').innerText"
                           ".match(/^(\\d+) \\/ 5000 /) || [0, 0])[1]) >= 20", timeout=120_000)
    t0 = time.perf_counter()
    lab.locator("button.dg-lab-stop").click()
    page.wait_for_function("document.querySelector('.dg-lab .dg-message').innerText.startsWith('Stopped after')",
                           timeout=60_000)
    print(f"Stop answered in {time.perf_counter() - t0:.2f} s: {lab.locator('.dg-message').first.inner_text()}")
    said = lab.locator(".dg-message").first.inner_text()
    assert "of 5000 games" in said and int(said.split()[2]) >= 20, said


def run_ab_and_download(page, lang: str, folder: Path, games: int = AB_GAMES) -> None:
    """The design workshop's A/B (arm B without lords' effects): run, prepare the downloads,
    download the report; its data block is this Python's experiment."""
    from dungeon_guilds.rules import Rules
    from dungeon_guilds.widgets.ab_experiment import DEFAULT_BOTS
    from dungeon_guilds.workshop.ab import Arm, run_ab
    from dungeon_guilds.workshop.report import load_report

    page.locator(".dg-lab-tabs .lm-TabBar-tab", has_text=i18n.t("dash.lab_workshop", lang)).first.click()
    page.locator(".dg-workshop .lm-TabBar-tab", has_text=i18n.t("workshop.ab_title", lang)).first.click()
    ab = page.locator(".dg-ab")
    ab.locator("button.dg-ab-run").wait_for(timeout=120_000)
    ab.locator(".dg-arm-b .dg-arm-lords select").select_option(label=i18n.t("option.lords_none", lang))
    games_input = ab.locator(".dg-ab-games input")
    games_input.fill(str(games))
    games_input.press("Enter")
    settle(page, ".dg-ab")
    t0 = time.perf_counter()
    ab.locator("button.dg-ab-run").click()
    done = i18n.t("workshop.ab_done", lang, games=games, seconds=math.nan).split("nan")[0]
    page.wait_for_function("t => document.querySelector('.dg-ab .dg-message').innerText.startsWith(t)",
                           arg=done, timeout=300_000)
    print(f"A/B ({lang}): {games} games per arm in {time.perf_counter() - t0:.1f} s")
    ab.locator(".dg-ab-table-html .dg-ab-table").wait_for()
    ab.locator(".dg-ab-fig-differences .js-plotly-plot").scroll_into_view_if_needed()
    ab.locator(".dg-ab-fig-differences .js-plotly-plot .main-svg").first.wait_for(timeout=120_000)
    ab.locator("button.dg-ab-export").click()
    link = ab.locator(".dg-ab-downloads a.dg-download").first
    link.wait_for(timeout=120_000)
    with page.expect_download(timeout=60_000) as download:
        link.click()
    path = folder / f"report-{lang}.html"
    download.value.save_as(path)
    html = path.read_text(encoding="utf-8")
    assert html.count("Plotly.newPlot") == 4 and "<script src" not in html  # plotly.js inline, once
    report = load_report(html)
    here = run_ab(Arm("A"), Arm("B", Rules(lords="none")), games, list(DEFAULT_BOTS[:4]), 4, seed=0)
    shown = report["comparison"].set_index(["metric", "group"])["diff"]
    for row in here.comparison_rows:
        assert abs(shown[(row["metric"], row["group"])] - row["diff"]) < 1e-9, row
    assert report["arms"][1].rules == Rules(lords="none")


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
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    asked, outside = only_loopback(context, site)
    try:
        t0 = time.perf_counter()
        page.goto(site, timeout=120_000)  # the root page opens the dashboard
        page.wait_for_selector(".dg-dashboard .dg-stepper .dg-board", timeout=FIRST_RENDER_TIMEOUT)
        FIRST_VISITS["secure"] = time.perf_counter() - t0
        print(f"first render {FIRST_VISITS['secure']:.1f} s")
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

        # Play: one move by clicking the drawn board (set-up: exhaust two adventurers, R3)
        page.get_by_role("tab", name="Play").click()
        table = page.locator(".dg-play-table")
        table.locator(".dg-board svg").first.wait_for(timeout=120_000)
        settle(page, ".dg-play-table")
        assert table.locator(".dg-board").first.get_attribute("data-phase") == "setup"
        for strength in (1, 2):
            table.get_by_role("button", name=re.compile(rf"^Exhaust strength {strength} ")).click()
            page.wait_for_selector(f".dg-play-table [data-target='hand-{strength}'][aria-pressed='true']")
        go = table.get_by_role("button", name=re.compile(r"^Exhaust 1 and 2: gain"))
        assert go.get_attribute("data-target") == "exhaust" and go.get_attribute("aria-disabled") == "false"
        before = table.locator(".dg-message").first.inner_text()  # "2 of 2 chosen: ..."
        go.click()
        wait_changed(page, ".dg-play-table .dg-message", before)
        assert table.locator(".dg-message").first.inner_text().startswith("Ann: exhaust 1 and 2")

        # Explore: the treasure split and the order of turns draw (plotly in the page)
        page.get_by_role("tab", name="Explore").click()
        page.wait_for_selector(".dg-payout-explorer .dg-payout-result", timeout=120_000)
        page.wait_for_selector(".dg-payout-explorer .js-plotly-plot")
        page.wait_for_selector(".dg-turn-order-explorer .dg-order")

        # Compare: runs in the browser too; a fact and its source as the comparison data says
        fact = next(r for r in comparison.fact_rows() if (r["game"], r["attribute"]) == ("dungeon_guilds", "players"))
        page.get_by_role("tab", name="Compare").click()
        page.wait_for_selector(".dg-tab-compare .dg-cmp table", timeout=120_000)
        cmp_table = page.locator(".dg-tab-compare .dg-cmp table").first
        row = cmp_table.locator("tr", has_text="Players").first
        assert fact["value"] in row.inner_text() and "line 9" in row.inner_text(), row.inner_text()
        assert page.locator(".dg-tab-compare .dg-needs-server").count() == 0

        # Lab: a balance run, a long one stopped, and the design workshop's A/B with its report
        page.get_by_role("tab", name="Lab").click()
        run_lab(page, "en")
        page.screenshot(path=str(tmp_path / "static-site-lab-en.png"))
        page.locator(".dg-lab .dg-lab-intro").scroll_into_view_if_needed()
        page.screenshot(path=str(tmp_path / "static-site-lab-top-en.png"))
        stop_a_long_lab_run(page)
        run_ab_and_download(page, "en", tmp_path)
        page.screenshot(path=str(tmp_path / "static-site-ab-en.png"))
        page.locator(".dg-ab .dg-ab-verdict").scroll_into_view_if_needed()
        page.screenshot(path=str(tmp_path / "static-site-ab-top-en.png"))

        # 繁體中文: the labels follow, the numbers stay
        page.locator(".dg-dash-header .dg-lang-toggle button", has_text="繁體中文").click()
        page.get_by_role("tab", name="學習").wait_for()
        page.get_by_role("tab", name="學習").click()
        settle(page)
        assert page.locator(".dg-stepper .dg-board").first.get_attribute("lang") == "zh-Hant"
        assert shown_gold(page, ".dg-stepper") == gold
        page.get_by_role("tab", name="比較").click()
        page.wait_for_function(
            "document.querySelector('.dg-tab-compare .dg-cmp table').innerText.includes('3–6 人')")

        # Lab in 繁體中文: the same runs, the words in Chinese
        page.get_by_role("tab", name="實驗室").click()
        run_lab(page, "zh")
        page.screenshot(path=str(tmp_path / "static-site-lab-zh.png"))
        page.locator(".dg-lab .dg-lab-intro").scroll_into_view_if_needed()
        page.screenshot(path=str(tmp_path / "static-site-lab-top-zh.png"))
        run_ab_and_download(page, "zh", tmp_path)
        page.screenshot(path=str(tmp_path / "static-site-ab-zh.png"))
        page.locator(".dg-ab .dg-ab-verdict").scroll_into_view_if_needed()
        page.screenshot(path=str(tmp_path / "static-site-ab-top-zh.png"))
        assert "Traceback" not in page.content()

        # accessibility (issue 32): axe-core over every tab and sub-tab after the round played
        # above: no serious or critical violation. In 繁體中文 only since stop 49 (CI's time):
        # the same widgets are audited in both languages on the server
        # (test_accessibility.py); here what is the site's own, the page and its language switch
        screens = audit_every_tab(page, langs=("zh",))
        assert counts(screens) == {}, [n for v in screens.values() for ns in v.values() for n in ns][:8]
    finally:
        context.close()
    assert not outside, f"requests left the loopback server: {outside[:5]}"
    assert len(asked) > 50 and all(urlparse(u).path.startswith(PREFIX) for u in asked if u.startswith("http")), \
        [u for u in asked if u.startswith("http") and not urlparse(u).path.startswith(PREFIX)][:5]
    assert not errors, errors


def test_the_site_starts_on_plain_http_without_a_service_worker(browser, site):
    """Issue 50: ``http://<LAN address>`` is no secure context, so the browser offers no service
    worker; JupyterLite's manager never settled its ``ready`` then and Voici never drew the
    dashboard ("Running …" for ever). Here Chromium maps :data:`INSECURE_HOST` to loopback: the
    page is insecure and has no worker, and the board comes on a first visit within
    :data:`INSECURE_FIRST_VISIT_S` seconds (or :data:`INSECURE_VS_SECURE` times the secure first
    visit of the test above, on a machine too busy for that); a hand card chosen in Learn is marked (the kernel answers). Then the first screen's link opens lesson
    4's notebook (issue 50, item 3), rendered in the browser beside the dashboard."""
    port = urlparse(site).port
    url = f"http://{INSECURE_HOST}:{port}{PREFIX}"
    rules = f"--host-resolver-rules=MAP {INSECURE_HOST} 127.0.0.1"
    insecure = browser.browser_type.launch(executable_path=chromium_path(), headless=True,
                                           args=[*CHROMIUM_ARGS, rules], timeout=60_000)
    try:
        context = insecure.new_context(viewport={"width": 1024, "height": 768}, locale="en-US")
        page = context.new_page()
        errors = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        asked, outside = only_loopback(context, url)
        t0 = time.perf_counter()
        page.goto(url, timeout=60_000)
        page.wait_for_selector(".dg-dashboard .dg-stepper .dg-board svg", timeout=120_000)
        seconds = time.perf_counter() - t0
        print(f"plain http, no service worker: the board in {seconds:.1f} s")
        assert page.evaluate("[window.isSecureContext, 'serviceWorker' in navigator]") == [False, False]
        settle(page)
        page.locator(".dg-stepper [data-target='hand-1']").click()  # the set-up's choice (R3), in Python
        page.wait_for_selector(".dg-stepper [data-target='hand-1'][aria-pressed='true']", timeout=60_000)
        limit = max(INSECURE_FIRST_VISIT_S, INSECURE_VS_SECURE * FIRST_VISITS.get("secure", 0))
        assert seconds <= limit, f"the board took {seconds:.1f} s on plain http (limit {limit:.1f} s)"
        lesson_four_notebook(context, page)  # issue 50, item 3
        assert not outside and asked, outside[:5]
        assert not errors, errors
    finally:
        insecure.close()


def lesson_four_notebook(context, page) -> None:
    """The dashboard's first screen links lesson 4's notebook; on the site it is a Voici page
    beside the dashboard (its own Python in the tab): a prediction's Check and the figures come."""
    link = page.locator('.dg-notebook-links a[data-notebook="10_strategy"]')
    assert link.get_attribute("href") == "10_strategy.html"
    t0 = time.perf_counter()
    with context.expect_page() as opened:
        link.click()
    notebook = opened.value
    notebook.wait_for_selector(".jupyter-widgets button", timeout=180_000)  # a prediction's Check
    notebook.wait_for_selector(".js-plotly-plot .main-svg", timeout=60_000)
    print(f"notebook 10 on the site: {time.perf_counter() - t0:.1f} s")
    assert notebook.url.endswith("/voici/render/10_strategy.html")
    assert "Traceback" not in notebook.content() and "Error" not in notebook.locator("body").inner_text()
    notebook.close()
