"""The class's mistakes on the teacher's page in Chromium (issue 38, item 6), on the class tables'
own server (``python -m dungeon_guilds.app.table_server``: no Voila, a second to start).

The tables folder holds two finished games; one was reviewed by the real judge (its smallest
budget) before the server started, so the server reads that review back (a restart reviews no
game twice) and shows it at once, the other waits. At 1024 × 768 and 390 × 844, in English and
繁體中文: the panel is there with its counts, the kinds of decision and one example each (the
position in words, seats from 1, money as text), nothing scrolls sideways, every control is at
least 44 × 44 CSS px, no raw kind code, no English word in the Chinese panel, and axe-core finds
no serious violation. Screenshots: ``build/screenshots/class-mistakes-<width>-<lang>.png``."""

from __future__ import annotations

import os
import random
import re
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from a11y_audit import audit

from dungeon_guilds.analysis.class_mistakes import KINDS
from dungeon_guilds.analysis.judge import Budget
from dungeon_guilds.app.processes import free_port
from dungeon_guilds.app.tables.class_review import FOLDER, job_of, review_game
from dungeon_guilds.app.tables.lobby import Lobby
from dungeon_guilds.app.tables.protocol import Conn, handle

pytestmark = pytest.mark.browser
ROOT = Path(__file__).resolve().parents[2]
SHOTS = ROOT / "build" / "screenshots"
CODE = "teach-owl-42"
SIZES = ({"width": 1024, "height": 768}, {"width": 390, "height": 844})

GEOMETRY_JS = """() => {
  const shown = (e) => e.getClientRects().length > 0;
  const small = [];
  for (const e of document.querySelectorAll('button, a[href], input:not([type=hidden]), summary')) {
    if (!shown(e)) continue;
    const r = e.getBoundingClientRect();
    if (r.width < 44 - 0.01 || r.height < 44 - 0.01) small.push(`${e.tagName} ${e.textContent.trim().slice(0, 30)} ${r.width.toFixed(1)}×${r.height.toFixed(1)}`);
  }
  return {scroll: document.scrollingElement.scrollWidth, width: innerWidth, small};
}"""


# text nodes of the panel holding a dollar sign that is not a money span of its own (money_html)
MONEY_JS = """() => { const out = []; const w = document.createTreeWalker(document.querySelector('section.mistakes'), NodeFilter.SHOW_TEXT);
  for (let n = w.nextNode(); n; n = w.nextNode())
    if (n.data.includes('$') && !(n.parentNode.tagName === 'SPAN' && /^\\$\\d*$/.test(n.data))) out.push(n.data);
  return out; }"""


def finished_games(folder: Path) -> list:
    """Two class tables played to their end by their three people (random legal moves)."""
    from dungeon_guilds.app.tables.store import TableStore

    lobby = Lobby(TableStore(folder))
    out = []
    for seed in (3, 4):
        conns = [Conn() for _ in range(3)]
        import json

        say = lambda c, m: handle(lobby, c, json.dumps(m))  # noqa: E731
        opened = say(conns[0], {"op": "open", "seats": 3, "name": "Ann", "rules": {"lords": "none"}}).reply
        code = opened["code"]
        lobby.tables[code].ann_token = opened["token"]  # seat 1's key: its page reviews its own moves
        lobby.tables[code].seed = seed  # the same game every run (the code is drawn afresh)
        for c, name in zip(conns[1:], ("Bo", "Cy")):
            say(c, {"op": "join", "code": code, "name": name})
        table, rng = lobby.tables[code], random.Random(seed)
        while not table.is_over:
            if table.in_setup:
                seat = rng.choice([s for s in range(3) if s not in table.pending])
                a, b = sorted(rng.sample(range(1, 6), 2))
                move = f"exhaust {a} {b}"
            else:
                seat, move = table.game.current, rng.choice(table.game.legal_moves())
            say(conns[seat], {"op": "act", "action": move, "version": table.version})
        out.append(table)
    return out


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    folder = tmp_path_factory.mktemp("class-mistakes")
    reviewed, waiting = finished_games(folder)
    (folder / FOLDER).mkdir()
    review_game(job_of(reviewed), Budget(worlds=8, min_worlds=8, check=8), str(folder / FOLDER))
    port = free_port()
    log = open(folder / "server.log", "w")
    proc = subprocess.Popen([sys.executable, "-m", "dungeon_guilds.app.table_server", "--port", str(port),
                             "--tables-dir", str(folder)], stdout=log, stderr=subprocess.STDOUT,
                            env={**os.environ, "DUNGEON_GUILDS_TEACHER_CODE": CODE,
                                 "DUNGEON_GUILDS_REVIEW_WORLDS": "8"}, cwd=ROOT)  # a student's review: 8 worlds
    base = f"http://127.0.0.1:{port}/dungeon-guilds/teacher"
    try:
        for _ in range(120):
            try:
                urllib.request.urlopen(base, timeout=2)
                break
            except OSError:
                time.sleep(0.5)
        yield base, reviewed, waiting
    finally:
        proc.terminate()
        proc.wait(timeout=30)
        log.close()


def latin_words(text: str, allowed: set[str]) -> list[str]:
    """Words with Latin letters, but for ``allowed`` ones and slot names (room 3's slot "3a", as the board writes it)."""
    return [w for w in re.findall(r"[A-Za-z0-9_]+", text)
            if re.search("[A-Za-z]", w) and w not in allowed and not re.fullmatch(r"\d+[ab]", w)]


# ---------------------------------------------------------------------- issue 50, item 4
def test_a_student_reviews_their_own_table_game(browser, server):
    """Seat 1 of the reviewed game opens its table page (its key in the browser, as after playing):
    at game over "Review my moves" brings the judge's review of that seat from the server's worker
    (the page stays live), its headlines and details folded, in English then 繁體中文; "Download my
    game record" saves the record. 390 × 844, touch: nothing scrolls sideways, every control
    ≥ 44 px. Screenshots: ``build/screenshots/table-review-390-<lang>.png``. First in the module:
    no teacher has opened the page yet, so the worker is not busy with the class's reviews (a
    student's review goes before those waiting, not before the one under way)."""
    base, reviewed, _waiting = server
    code, token = reviewed.code, reviewed.ann_token
    context = browser.new_context(viewport={"width": 390, "height": 844}, locale="en-US", has_touch=True)
    context.set_default_timeout(30_000)
    context.add_init_script(f"localStorage.setItem('dg-table-seats', JSON.stringify({{{code!r}: {token!r}}}));"
                            f"localStorage.setItem('dg-lang', 'en');")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        page.goto(base.replace("/teacher", f"/tables/{code}"))
        page.wait_for_selector("#review-part:not([hidden]), #continue:visible")
        if page.locator("#continue").is_visible():  # the last round still shown resolving: on to the result
            page.locator("#continue").click()
        page.locator("#review-mine").click()
        page.wait_for_selector(".review .dg-lesson", timeout=240_000)
        for lang, words in (("en", "The decisions that cost you most"), ("zh", "讓你損失最多的決定")):
            if lang == "zh":
                page.locator("#lang").click()
                page.wait_for_function("document.querySelector('.review').innerText.includes('讓你損失最多的決定')")
            review = page.locator(".review")
            review.locator("details.dg-lesson-details summary").first.click()
            text = review.inner_text()
            assert words in text and "±" not in text.split("\n")[0]
            geometry = page.evaluate(GEOMETRY_JS)
            assert geometry["scroll"] <= geometry["width"], geometry
            assert geometry["small"] == [], geometry["small"]
            review.scroll_into_view_if_needed()
            page.locator("#review-part").screenshot(path=str(SHOTS / f"table-review-390-{lang}.png"))
        with page.expect_download() as got:
            page.locator("#record-mine").click()
        assert got.value.suggested_filename == f"dungeon-guilds-{code}-seat-1.json"
        assert not errors, errors
    finally:
        context.close()


@pytest.mark.parametrize("size", SIZES, ids=lambda s: str(s["width"]))
def test_the_class_mistakes_panel_in_both_languages(browser, server, size):
    base, reviewed, waiting = server
    context = browser.new_context(viewport=size, locale="en-US", has_touch=size["width"] < 800)
    context.set_default_timeout(30_000)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    SHOTS.mkdir(parents=True, exist_ok=True)
    try:
        for lang in ("en", "zh"):
            page.goto(f"{base}?lang={lang}")
            page.fill("input[name=teacher]", CODE)
            page.locator("form button").first.click()
            panel = page.locator("section.mistakes")
            panel.wait_for()
            first = page.locator("section.mistakes li.mistake-kind").first
            for summary in first.locator("details summary").all():  # its numbers for the teacher, its position
                summary.click()
            assert first.locator(".mistake-head").inner_text().strip()  # the headline (issue 49), in view
            text = panel.inner_text()
            progress = page.locator(".mistakes-progress").inner_text()
            if lang == "en":
                assert re.search(r"Games reviewed: [12] \(\d+ decisions of [36] seats\); still waiting: [01]\.", progress)
                assert "worst example: table".lower() in text.lower() and f"table {reviewed.code}" in text
                assert "Round " in text and re.search(r"seat [123] · (Ann|Bo|Cy)", text)
            else:
                assert re.search(r"已複盤的對局：[12] 局", progress) and "最嚴重的例子" in text
                allowed = {reviewed.code, waiting.code, "Ann", "Bo", "Cy", "CSV", "JSON"}
                assert latin_words(text, allowed) == [], latin_words(text, allowed)
            assert not any(k in text for k in KINDS if "_" in k), "a raw kind code on the page"
            assert "$" in text and page.evaluate(MONEY_JS) == []  # money is text, each amount in its own element
            geometry = page.evaluate(GEOMETRY_JS)
            assert geometry["scroll"] <= geometry["width"], geometry
            assert geometry["small"] == [], geometry["small"]
            page.screenshot(path=str(SHOTS / f"class-mistakes-{size['width']}-{lang}.png"), full_page=True)
            assert audit(page, f"class-mistakes-{size['width']}-{lang}") == {}
        assert not errors, errors
    finally:
        context.close()

