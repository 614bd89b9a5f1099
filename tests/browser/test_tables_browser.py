"""Four students play one class table in Chromium, on the dashboard's own server (issue 26,
item 7): four browser contexts (each its own localStorage, so its own seat token) open and join
by the code, play a whole 4-player game by clicking the drawn board; one reloads mid-round and
goes on; the final gold is the engine's replay of the table's record. Every websocket frame and
the page (DOM) of every seat are checked for the other seats' secrets (item 2). Screenshots of
the table page at 1024×768 in English and 繁體中文 go to ``build/screenshots/``."""

from __future__ import annotations

import json
import random
import time
from pathlib import Path

import pytest

from dungeon_guilds.app import serving
from dungeon_guilds.app.tables import pieces
from dungeon_guilds.record import from_record

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOK = "notebooks/dashboard.ipynb"

pytestmark = pytest.mark.browser
SHOTS = ROOT / "build" / "screenshots"
NAMES = ("Ann", "Bo", "Cy", "Di")


@pytest.fixture(scope="module")
def tables_server(tmp_path_factory):
    """The dashboard's Voila (no preheated kernels: a table page needs none)."""
    if not serving.voila_executable().exists():
        pytest.skip("voila is not installed in this environment")
    folder = tmp_path_factory.mktemp("tables-voila")
    server = serving.start_voila(ROOT, folder / "voila.log", notebook=NOTEBOOK, preheat=False,
                                 timeout=serving.START_TIMEOUT,
                                 env={"DUNGEON_GUILDS_TEACHER_CODE": "teach-owl-42",  # a loaded machine is slow:
                                      "DUNGEON_GUILDS_TABLE_RESOLUTION": "900"})  # no wait ends by the clock
    try:
        yield server, folder / "tables"
    finally:
        server.stop()


class Student:
    def __init__(self, browser, base: str, name: str):
        self.name = name
        self.context = browser.new_context(viewport={"width": 1024, "height": 768}, locale="en-US")
        self.context.set_default_timeout(30_000)
        self.page = self.context.new_page()
        PAGES.append(self.page)
        self.frames: list[dict] = []
        self.errors: list[str] = []
        self.page.on("pageerror", lambda exc: self.errors.append(str(exc)))
        self.sent: list[str] = []
        self.page.on("websocket", self._socket)
        self.base = base

    def _socket(self, ws) -> None:
        held: dict = {}  # the board and log this socket was sent, in pieces (app/tables/pieces.py)
        ws.on("framereceived", lambda payload: self._frame(payload, held))
        ws.on("framesent", lambda payload: self.sent.append(payload if isinstance(payload, str) else payload.decode()))

    def _frame(self, payload, held: dict) -> None:
        msg = json.loads(payload if isinstance(payload, str) else payload.decode())
        if msg.get("op") == "state":  # the whole board and log, joined as the page joins them
            pieces.join(held, msg)
        self.frames.append(msg)

    def states(self) -> list[dict]:
        return [f for f in self.frames if f.get("op") == "state"]

    def token(self) -> str:
        return self.page.evaluate("() => JSON.stringify(localStorage.getItem('dg-table-seats'))")

    def enabled(self, prefix: str) -> list[str]:
        return self.page.eval_on_selector_all(
            f'#board [data-target^="{prefix}"][aria-disabled="false"]', "els => els.map(e => e.dataset.target)")

    def click(self, target: str) -> None:
        self.page.locator(f'#board [data-target="{target}"]').click()


PAGES: list = []  # the students' open pages (to let Playwright deliver their events while waiting)


def wait_for(cond, timeout: float = 60.0, what: str = "") -> None:
    """Until ``cond()``. Playwright's sync API delivers a page's events (the websocket frames
    a Student records) only while a Playwright call runs, so the wait is one (a plain sleep
    would leave a condition on the recorded frames waiting for ever)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if cond():
            return
        live = [p for p in PAGES if not p.is_closed()]
        if live:
            live[0].wait_for_timeout(100)
        else:
            time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}")


def join_all(browser, base: str) -> list[Student]:
    students = [Student(browser, base, n) for n in NAMES]
    ann = students[0].page
    ann.goto(f"{base}dungeon-guilds/tables")
    ann.fill("#name", "Ann")
    ann.click("#open-form button")
    ann.wait_for_selector("#table:not([hidden])")
    link = ann.text_content("#link")
    for s in students[1:]:
        s.page.goto(link)  # the code is filled in from the link
        s.page.fill("#name", s.name)
        s.page.click("#join-form button")
    for s in students:
        s.page.wait_for_selector("#board .dg-board")
    return students


def choose_exhaust(s: Student, rng: random.Random, keyboard: bool = False) -> tuple[int, int]:
    a, b = sorted(rng.sample(range(1, 6), 2))
    if keyboard:  # Tab to the board, arrow keys between the targets, Enter/Space to choose
        s.page.locator('#board [data-target="hand-1"]').focus()
        for _ in range(a - 1):
            s.page.keyboard.press("ArrowRight")
        s.page.keyboard.press("Enter")
        wait_for(lambda: s.page.locator('#board [data-target="hand-%d"][aria-pressed="true"]' % a).count() == 1)
        for _ in range(b - a):  # the focus stays on the card just picked
            s.page.keyboard.press("ArrowRight")
        s.page.keyboard.press(" ")
        s.page.wait_for_selector('#board [data-target="exhaust"]')
        for _ in range(6 - b):  # the green button comes after the five cards
            s.page.keyboard.press("ArrowRight")
        assert s.page.evaluate("document.activeElement.dataset.target") == "exhaust"
        s.page.keyboard.press("Enter")
    else:
        choose_by_clicking(s, a, b)
    wait_for(lambda: f"{a} and {b}" in (s.page.text_content("#status") or "") or "setup" not in
             (s.page.get_attribute("#board .dg-board", "data-phase") or ""), what="the choice kept")
    return a, b


def choose_by_clicking(s: Student, a: int, b: int) -> None:
    s.click(f"hand-{a}")
    wait_for(lambda: s.page.locator('#board [data-target="hand-%d"][aria-pressed="true"]' % a).count() == 1)
    s.click(f"hand-{b}")
    s.page.wait_for_selector('#board [data-target="exhaust"]')
    s.click("exhaust")


def secrets_kept(students: list[Student], chosen: dict[int, tuple[int, int]]) -> None:
    """No page (its DOM and every frame it received) holds another seat's pending choice or token."""
    tokens = [s.token() for s in students]
    for i, s in enumerate(students):
        text = s.page.inner_text("body")
        frames = json.dumps(s.frames)
        for j, (a, b) in chosen.items():
            if j != i:
                assert f"exhaust {a} and {b}" not in text and f"exhaust {a} and {b}" not in frames
        for j, t in enumerate(tokens):
            if j != i:
                assert json.loads(t) not in frames and json.loads(t) not in s.page.content()


SAME_AS_FRAME = """(html) => { const t = document.createElement('div'); t.innerHTML = html;
  return t.innerHTML === document.getElementById('board').innerHTML; }"""


def dom_is_last_frame(students: list[Student]) -> None:
    """Each page's board is exactly the last frame its seat received (frames are checked against
    the seat's view in test_tables_server.py): the DOM holds nothing else of the table."""
    for s in students:
        wait_for(lambda: s.page.evaluate(SAME_AS_FRAME, s.states()[-1]["board"]), 10, "the board drawn from its frame")


def play_turn(students: list[Student], rng: random.Random) -> None:
    wait_for(lambda: any(s.enabled("hand-") for s in students), what="a seat to move")
    mover = next(s for s in students if s.enabled("hand-"))
    before = len(mover.states())
    mover.click(rng.choice(mover.enabled("hand-")))
    wait_for(lambda: mover.enabled("slot-") or len(mover.states()) > before + 1, what="slots to choose")
    slots = mover.enabled("slot-")
    if not slots:
        return
    mover.click(rng.choice(slots))
    wait_for(lambda: not mover.enabled("slot-"), what="the move played")


def resolving(s: Student) -> dict | None:
    states = s.states()
    return states[-1].get("resolving") if states else None


def step_through_resolution(students: list[Student], shots: bool) -> bool:
    """A round shown resolving on every page's board (issue 24): each page steps one room on,
    then presses Continue; the next round starts after the last page's Continue. True if a
    round was shown."""
    if not any(resolving(s) for s in students):
        return False
    wait_for(lambda: all(resolving(s) for s in students), 60, "every page shows the resolution")
    for k, s in enumerate(students):
        r = resolving(s)
        assert s.enabled("hand-") == [] and s.page.get_attribute("#board .dg-board", "data-resolving") == str(r["round"])
        if r["steps"] > 1:  # the page acts on what it has drawn: wait for its DOM, not only its frame
            s.page.wait_for_selector('#board .dg-board[data-resolving][data-step="0"]', timeout=60_000)
            s.page.wait_for_selector("#story-next:not([disabled])", timeout=60_000)
            s.page.click("#story-next")
            try:
                wait_for(lambda: (resolving(s) or {}).get("step") == 1, 60, "the next room revealed")
            except AssertionError as err:  # say which page and what it last received
                last = [(f.get("op"), f.get("version"), f.get("resolving"), f.get("reason")) for f in s.frames[-3:]]
                raise AssertionError(f"{err} on {s.name}'s page; errors {s.errors}; last frames {last}; "
                                     f"last sent {s.sent[-3:]}") from None
            assert s.page.get_attribute("#board .dg-board", "data-step") == "1"
        if shots and k == 3:  # one page mid-resolution, in both languages
            s.page.screenshot(path=str(SHOTS / "tables-resolving-en.png"))
            s.page.click("#lang")
            wait_for(lambda: "結算" in s.page.inner_text("#status"), 20, "the page in 繁體中文")
            s.page.screenshot(path=str(SHOTS / "tables-resolving-zh.png"))
            s.page.click("#lang")
            wait_for(lambda: "resolved" in s.page.inner_text("#status"), 20, "the page in English")
    for k, s in enumerate(students):
        s.page.wait_for_selector("#board .dg-board[data-resolving]", timeout=60_000)
        s.page.wait_for_selector("#continue:not([disabled])", timeout=60_000)
        s.page.click("#continue")
        if k < len(students) - 1:
            wait_for(lambda: (resolving(s) or {}).get("ready"), 60, "Continue taken")
            assert all(resolving(x) for x in students)  # the next round waits for every page
    wait_for(lambda: not any(resolving(s) for s in students), 60, "the next round")
    return True


def teacher_sees(page, base: str, code: str, replay) -> None:
    """The teacher's page on the dashboard's server: the code printed at start opens it; the
    finished game is listed with its gold, and the CSV download has its row."""
    page.goto(f"{base}dungeon-guilds/teacher")
    page.fill("input[name=teacher]", "wrong")
    page.click("form button")
    assert "not the teacher code" in page.inner_text("body")
    page.fill("input[name=teacher]", "teach-owl-42")
    page.click("form button")
    row = page.locator("tr", has_text=code)
    assert " · ".join(f"${g}" for g in replay.state.gold) in row.inner_text()
    page.screenshot(path=str(SHOTS / "tables-teacher-en.png"))
    with page.expect_download() as got:
        page.locator("form button", has_text="per finished game (CSV)").click()
    text = Path(got.value.path()).read_text()
    assert code in text and " | ".join(map(str, replay.state.gold)) in text
    page.goto(f"{base}dungeon-guilds/teacher?lang=zh")
    page.fill("input[name=teacher]", "teach-owl-42")
    page.click("form button")
    assert "老師檢視" in page.inner_text("h1") and "六位基本城主" in page.inner_text("table")
    page.screenshot(path=str(SHOTS / "tables-teacher-zh.png"))


def test_four_browsers_play_one_table(browser, tables_server):
    server, tables = tables_server
    assert "teacher code: teach" in server.log_path.read_text()  # printed in the console at start
    base = f"http://127.0.0.1:{server.port}/"
    students = join_all(browser, base)
    rng = random.Random(26)
    try:
        SHOTS.mkdir(parents=True, exist_ok=True)
        students[1].page.screenshot(path=str(SHOTS / "tables-setup-en.png"))
        chosen = {}
        for i in (2, 0, 3):
            chosen[i] = choose_exhaust(students[i], rng)
            secrets_kept(students, chosen)
        chosen[1] = choose_exhaust(students[1], rng, keyboard=True)
        moves = resolutions = 0
        phase = lambda: students[0].page.get_attribute("#board .dg-board", "data-phase")  # noqa: E731
        while phase() != "over":
            if step_through_resolution(students, shots=resolutions == 0):
                resolutions += 1
                continue
            play_turn(students, rng)
            moves += 1
            dom_is_last_frame(students)
            if moves == 6:  # Cy reloads mid-round: same seat (the token kept in localStorage)
                students[2].page.reload()
                students[2].page.wait_for_selector("#board .dg-board")
                assert students[2].page.locator("#seat-list .you").inner_text().startswith("Seat 3")
            if moves == 9:
                students[1].page.screenshot(path=str(SHOTS / "tables-play-en.png"))
                students[1].page.click("#lang")
                wait_for(lambda: any(w in students[1].page.inner_text("#status") for w in ("輪到", "正在", "結算")),
                         what="the page in 繁體中文")  # a move, or a round resolving
                students[1].page.screenshot(path=str(SHOTS / "tables-play-zh.png"))
            wait_for(lambda: phase() == "over" or any(s.enabled("hand-") or resolving(s) for s in students),
                     what="next turn")
        assert resolutions == 4  # every round (4 lords for 4 players) was shown resolving
        (path,) = tables.glob("*.json")
        record = json.loads(path.read_text())["record"]
        replay = from_record(record)
        for s in students:
            shown = s.page.eval_on_selector_all("#board .dg-player", "els => els.map(e => Number(e.dataset.gold))")
            assert shown == list(replay.state.gold)
        assert all(not s.errors for s in students), [s.errors for s in students]
        teacher_sees(students[0].page, base, path.stem, replay)
    finally:
        for s in students:
            s.context.close()


def test_table_page_lobby_in_both_languages(browser, tables_server):
    server, _ = tables_server
    context = browser.new_context(viewport={"width": 1024, "height": 768}, locale="zh-TW")
    page = context.new_page()
    try:
        page.goto(f"http://127.0.0.1:{server.port}/dungeon-guilds/tables")
        page.wait_for_selector("#lobby:not([hidden])")
        assert page.inner_text("h1") == "課堂牌桌"
        page.screenshot(path=str(SHOTS / "tables-lobby-zh.png"))
        page.click("#lang")
        assert page.inner_text("h1") == "Class tables"
        page.fill("#code", "ZZZZZZ")
        page.fill("#name", "Eve")
        page.click("#join-form button")
        page.wait_for_function("document.getElementById('message').textContent.length > 0")
        assert "no table with that code" in page.inner_text("#message")
        page.screenshot(path=str(SHOTS / "tables-lobby-en.png"))
        assert not [r for r in page.evaluate("performance.getEntriesByType('resource').map(e => e.name)")
                    if not r.startswith(f"http://127.0.0.1:{server.port}/") and not r.startswith("ws://127.0.0.1")]
    finally:
        context.close()


def test_the_play_tab_links_the_tables_and_passes_and_plays(browser, tables_server):
    """The dashboard's Play tab: a link to this server's class tables, and pass and play with
    the screen hidden between two people (en and zh screenshots)."""
    from test_dashboard_browser import click_tab, open_dashboard, settle

    server, _ = tables_server
    context = browser.new_context(viewport={"width": 1024, "height": 768}, locale="en-US")
    context.set_default_timeout(60_000)
    page = context.new_page()
    try:
        open_dashboard(page, server)
        click_tab(page, "Play")
        link = page.locator(".dg-tables-link a")
        link.wait_for()
        assert link.get_attribute("href") == "/dungeon-guilds/tables"
        box = page.locator(".dg-pass-box")
        box.locator(".lm-AccordionPanel-title, .p-Collapse-header, .jupyter-widget-Collapse-header").first.click()
        box.locator("button", has_text="Start the game").click()
        page.wait_for_selector(".dg-pass-and-play .dg-pass-to")
        assert "Pass the device to Ann" in page.inner_text(".dg-pass-and-play .dg-pass-to")
        assert page.locator(".dg-pass-and-play .dg-board").count() == 0  # the curtain hides the board
        box.scroll_into_view_if_needed()
        page.screenshot(path=str(SHOTS / "pass-curtain-en.png"))
        box.locator("button", has_text="I am Ann").click()
        page.wait_for_selector(".dg-pass-and-play .dg-board svg")
        settle(page, ".dg-pass-and-play")
        page.locator(".dg-dash-header .dg-lang-toggle button", has_text="繁體中文").click()
        page.wait_for_function("document.querySelector('.dg-pass-and-play .dg-board').getAttribute('lang') == 'zh-Hant'")
        settle(page, ".dg-pass-and-play")
        page.screenshot(path=str(SHOTS / "pass-board-zh.png"))
        assert not page.locator(".dg-play-table").first.is_visible()  # one game on screen at a time
        box.locator(".lm-AccordionPanel-title, .p-Collapse-header, .jupyter-widget-Collapse-header").first.click()
        page.locator(".dg-play-table").first.wait_for()  # pass and play folded: the game against bots is back
        play = page.locator(".dg-play-table")  # the set-up offers the workshop's decks and lords
        play.locator(".dg-setup-fold .lm-AccordionPanel-title, .dg-setup-fold .p-Collapse-header, "
                     ".dg-setup-fold .jupyter-widget-Collapse-header").first.click()
        choice = play.locator(".dg-workshop-choice")
        choice.wait_for()
        assert "第 1 回合的城主" in choice.inner_text() and "參考牌組" in choice.inner_text()
        choice.scroll_into_view_if_needed()
        page.screenshot(path=str(SHOTS / "play-setup-zh.png"))
        page.locator(".dg-dash-header .dg-lang-toggle button", has_text="English").click()
        page.wait_for_function("document.querySelector('.dg-workshop-choice').innerText.includes('Lord in round 1')")
        page.wait_for_function("document.querySelector('.dg-pass-and-play .dg-status').innerText.includes('Choose two')")
        settle(page)
        page.screenshot(path=str(SHOTS / "play-setup-en.png"))
        click_tab(page, "Learn")  # Learn's set-up offers them too
        learn = page.locator(".dg-stepper")
        learn.locator(".dg-setup-fold .lm-AccordionPanel-title, .dg-setup-fold .p-Collapse-header, "
                      ".dg-setup-fold .jupyter-widget-Collapse-header").first.click()
        learn.locator(".dg-workshop-choice").wait_for()
        learn.locator(".dg-workshop-choice").scroll_into_view_if_needed()
        page.screenshot(path=str(SHOTS / "learn-setup-en.png"))
    finally:
        context.close()


def test_a_table_opened_with_a_deck_file_and_a_lord_file(browser, tables_server, tmp_path):
    """The files the deck editor and the lord builder download open a table from the page."""
    from dungeon_guilds.cards import reference_deck
    from dungeon_guilds.lords import LORDS_BY_ID

    server, tables = tables_server
    deck = tmp_path / "my_deck.toml"
    deck.write_text(reference_deck().with_values(heal_costs=[0, 1, 1, 2, 2, 3]).to_toml())
    lord = tmp_path / "lord_gentle_dragon.json"
    lord.write_text(json.dumps(LORDS_BY_ID["red_dragon"].to_dict() | {"id": "gentle_dragon", "name_en": "Gentle Dragon"}))
    context = browser.new_context(viewport={"width": 1024, "height": 768}, locale="en-US")
    page = context.new_page()
    try:
        page.goto(f"http://127.0.0.1:{server.port}/dungeon-guilds/tables")
        page.wait_for_selector("#lobby:not([hidden])")
        page.fill("#name", "Ann")
        page.select_option("#seats", "3")
        page.set_input_files("#deck", str(deck))
        page.set_input_files("#lord", str(lord))
        page.wait_for_function("document.getElementById('lord-line').textContent.includes('lord_gentle_dragon.json')")
        page.click("#open-form button")
        page.wait_for_selector("#table:not([hidden])")
        page.click("#bots")
        page.wait_for_selector("#board .dg-lord[data-lord='gentle_dragon']")
        code = page.text_content("#code-line").split()[-1]
        saved = json.loads((tables / f"{code}.json").read_text())
        assert saved["deck"] and saved["lord"]["id"] == "gentle_dragon"
        assert saved["record"]["heal_costs"]["5"] == 3
    finally:
        context.close()


def test_the_opener_picks_a_strong_bot_and_every_page_shows_it(browser, tables_server):
    """Issue 30: at a class table the opener picks each free seat's opponent by level, in Play's
    words; after the start every page lists the bot with its level, and the strong bots' secret
    setup choices (thought in the server's worker process) let round 1 begin. Screenshots of the
    level choice at 1024×768 in English and 繁體中文, each audited by axe-core."""
    from a11y_audit import audit

    server, tables = tables_server
    base = f"http://127.0.0.1:{server.port}/"
    ann, bo = Student(browser, base, "Ann"), Student(browser, base, "Bo")
    try:
        ann.page.goto(f"{base}dungeon-guilds/tables")
        ann.page.fill("#name", "Ann")
        ann.page.click("#open-form button")
        ann.page.wait_for_selector("#levels:not([hidden]) select[data-seat='2']")
        bo.page.goto(ann.page.text_content("#link"))
        bo.page.fill("#name", "Bo")
        bo.page.click("#join-form button")
        bo.page.wait_for_selector("#table:not([hidden])")
        assert bo.page.locator("#levels").is_hidden() and bo.page.locator("#bots").is_hidden()
        wait_for(lambda: ann.page.locator("#level-list select").count() == 2, what="seat 2 taken by Bo")
        seat3 = ann.page.get_by_label("Seat 3")
        assert seat3.evaluate("s => Array.from(s.options).map(o => o.text)")[:3] == [
            "level 1 · beginner bot", "level 2 · intermediate bot", "level 3 · strong bot"]
        seat3.select_option("strong")
        ann.page.get_by_label("Seat 4").select_option("beginner")
        SHOTS.mkdir(parents=True, exist_ok=True)
        ann.page.screenshot(path=str(SHOTS / "tables-levels-en.png"))
        assert audit(ann.page, "tables-levels-en") == {}  # axe-core, WCAG 2.1 A/AA: names, contrast
        ann.page.click("#lang")
        ann.page.wait_for_function("document.querySelector('#level-list select option').text.startsWith('第 1 級')")
        assert ann.page.get_by_label("座位 3").input_value() == "strong"  # the pick survives the language
        assert ann.page.inner_text("#levels legend") == "空位的對手"
        ann.page.screenshot(path=str(SHOTS / "tables-levels-zh.png"))
        assert audit(ann.page, "tables-levels-zh") == {}
        ann.page.click("#bots")
        for s in (ann, bo):
            s.page.wait_for_selector("#board .dg-board")
        wait_for(lambda: "第 3 級 · 高手機器人" in ann.page.inner_text("#seat-list"), what="zh level shown")
        items = bo.page.locator("#seat-list li").all_inner_texts()
        assert items[2].startswith("Seat 3 ·") and items[2].endswith("— level 3 · strong bot")
        assert items[3].endswith("— level 1 · beginner bot")
        code = ann.page.text_content("#code-line").strip()[-6:]
        saved = json.loads((tables / f"{code}.json").read_text())
        assert [s.get("bot") for s in saved["seats"]] == [None, None, "strong", "beginner"]
        choose_by_clicking(ann, 1, 2)
        choose_by_clicking(bo, 3, 4)
        wait_for(lambda: ann.page.get_attribute("#board .dg-board", "data-phase") == "dispatch", 90,
                 "round 1 after the strong bot's secret choice")
        bo.page.screenshot(path=str(SHOTS / "tables-levels-play-en.png"))
        ann.page.screenshot(path=str(SHOTS / "tables-levels-play-zh.png"))
        assert not ann.errors and not bo.errors
    finally:
        ann.context.close()
        bo.context.close()
