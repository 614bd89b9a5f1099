"""The teacher's kit in a real browser (issue 28), on the Voila server and on the static site:
the teacher page unfolds on the first screen and downloads the worksheets (data: links whose
pages equal the engine-made worksheets), every design challenge can be chosen with its editor,
and a Check plays the games and shows the verdict with its interval — on the server (the
kernel plays) and on the static site (the browser's Python plays; no pandas there)."""

from __future__ import annotations

import base64
import re
from pathlib import Path

import pytest

from conftest import unavailable
from test_dashboard_browser import click_tab, open_dashboard, settle

from dungeon_guilds.app.site_server import start
from dungeon_guilds.teaching.worksheet_html import worksheet_page
from dungeon_guilds.workshop.challenges import load

pytestmark = pytest.mark.browser

SITE = Path(__file__).resolve().parents[2] / "_site"
PREFIX = "/dungeon-guilds/"
CHECK_TIMEOUT = 900_000  # ms: a check plays 100-600 greedy games a version (slow on a busy machine)
FOLD = ".dg-teacher-fold .jupyter-widget-Collapse-header, .dg-teacher-fold .lm-AccordionPanel-title"


def worksheet_links(page) -> list[tuple[str, str]]:
    page.locator(FOLD).first.click()
    page.locator(".dg-teacher .dg-worksheet-version input").fill("7")
    page.locator(".dg-teacher .dg-worksheet-version input").press("Enter")
    page.wait_for_timeout(500)
    page.locator(".dg-teacher button.dg-worksheet-make").click()
    page.wait_for_selector(".dg-worksheet-links a[download]", timeout=120_000)  # the worksheets (not the plans' links)
    links = [(a.get_attribute("download"), a.get_attribute("href"))
             for a in page.locator(".dg-worksheet-links a").all()]
    # in the static site the same box also links the lesson plan's own pages (../../lessons/…)
    assert all(name or href.startswith("../../lessons/") for name, href in links), links
    return [(name, href) for name, href in links if name]


def check_worksheets(links) -> None:
    assert len(links) == 4
    for name, href in links:
        assert href.startswith("data:text/html;charset=utf-8;base64,")
        page_html = base64.b64decode(href.split(",", 1)[1]).decode()
        lang = "zh" if "-zh" in name else "en"
        assert page_html == worksheet_page("learn", 7, lang, key=name.endswith("-key.html"))


def every_challenge_and_one_check(page) -> str:
    click_tab(page, "Challenges")
    page.wait_for_selector(".dg-challenges button.dg-challenge-check", timeout=120_000)
    select = page.locator(".dg-challenges .dg-challenge-choice select").first
    challenges = load()
    assert len(challenges) >= 4
    for ch in challenges:
        select.select_option(value=ch.id) if select.locator(f"option[value='{ch.id}']").count() else \
            select.select_option(label=ch.words("title", "en"))
        page.wait_for_function("t => document.querySelector('.dg-challenges').innerText.includes(t)",
                               arg=ch.words("goal_text", "en")[:40])
        editor = ".dg-challenge-defence" if ch.change == "room_card" else ".dg-effect-row"
        page.locator(f".dg-challenges {editor}").first.wait_for(state="visible", timeout=60_000)
    first = next(c for c in challenges if c.id == "level3_worth_it")
    select.select_option(label=first.words("title", "en"))  # a room card: the hardest level-3 kind made easier
    page.wait_for_timeout(800)
    page.locator(".dg-challenges .dg-challenge-choice select").nth(1).select_option(index=10)  # Lv3 9/12
    page.wait_for_function("() => document.querySelector('.dg-challenge-defence input').value === '9'")
    page.wait_for_timeout(800)
    page.locator(".dg-challenges .dg-challenge-defence input").fill("7")
    page.locator(".dg-challenges .dg-challenge-defence input").press("Enter")
    page.wait_for_timeout(800)
    page.locator(".dg-challenges button.dg-challenge-check").click()
    verdict = page.locator(".dg-challenges .dg-verdict[role='status']")
    verdict.wait_for(timeout=CHECK_TIMEOUT)
    text = verdict.inner_text()
    assert re.search(r"95 % interval \d+\.\d % to \d+\.\d %", text), text
    assert "defence 7, treasure $12" in text and "Traceback" not in page.content()
    return text


def test_teacher_page_and_challenges_on_the_server(page, voila_server):
    open_dashboard(page, voila_server)
    check_worksheets(worksheet_links(page))
    every_challenge_and_one_check(page)
    assert not page.console_errors


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


def test_teacher_page_and_challenges_on_the_static_site(browser, site):
    context = browser.new_context(viewport={"width": 1024, "height": 768}, locale="en-US")
    context.set_default_timeout(60_000)
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        page.goto(site, timeout=120_000)
        page.wait_for_selector(".dg-dashboard .dg-stepper .dg-board", timeout=400_000)
        settle(page)
        check_worksheets(worksheet_links(page))
        page.locator(FOLD).first.click()
        every_challenge_and_one_check(page)
    finally:
        context.close()
    assert not errors, errors
