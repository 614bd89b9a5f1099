"""Phones and tablets (issue 37, item 5), in Chromium with touch emulation on the dashboard's own
server (one Voila for this module, ``tables_server`` of test_tables_browser.py):

* a whole class-table game played by tapping (``locator.tap()``) on a 390 × 844 phone, a 768 × 1024
  tablet held upright and a 1024 × 768 one held sideways, one person and two beginner bots: at
  every stage (lobby, setup, a round, the resolution, the end) no sideways scroll, every visible
  control a finger can hit (buttons, links, fields, the board's targets, the round log's folds)
  at least 44 × 44 CSS px and, upright, the board at least 90 % of the screen's width; axe-core on
  the phone finds no serious violation; screenshots of each stage in English and 繁體中文 go to
  ``build/screenshots/`` (``tables-<device>-<stage>-<lang>.png``); the teacher's page (the same
  stylesheet) does not scroll sideways on the phone either;
* the dashboard's tab bar at 390 px: every label whole (the old bar cut "Learr", "Explc",
  "Chall"), each tab 44 px tall, none beyond the screen; screenshots at 390 × 844, 768 × 1024
  and 1024 × 768, in both languages.

A desktop window narrowed to 390 px splits the board, and joins it again when widened.

The page's layout is tables.css and board_layout.js (the board split into the dungeon and the
seats); the dashboard's, the tab rules in widgets/a11y.py.
"""

from __future__ import annotations

import pytest
from a11y_audit import audit
from test_tables_browser import SHOTS, tables_server  # noqa: F401 - the module's server

pytestmark = pytest.mark.browser

DEVICES = {  # name: (viewport, upright: the page in one column, the board as wide as the screen)
    "phone": ({"width": 390, "height": 844}, True),
    "tablet": ({"width": 768, "height": 1024}, True),
    "sideways": ({"width": 1024, "height": 768}, False),
}
TAP = 44  # CSS px, each way

GEOMETRY_JS = """() => {
  const small = [];
  const shown = (e) => e.getClientRects().length > 0 && !e.closest('[hidden]') && getComputedStyle(e).visibility !== 'hidden';
  const hit = 'button, a[href], input, select, summary, label.file-button, [role=button], [tabindex="0"]';
  for (const e of document.querySelectorAll(hit)) {
    if (!shown(e) || e.classList.contains('visually-hidden')) continue;  // a file input: its label is the target
    const t = e.type === 'checkbox' ? (e.closest('label') || e) : e;     // a checkbox: its whole label
    const r = t.getBoundingClientRect();
    if (r.width < 44 - 0.01 || r.height < 44 - 0.01)
      small.push(`${e.id || e.dataset.target || e.tagName} ${r.width.toFixed(1)}×${r.height.toFixed(1)}`);
  }
  const board = document.getElementById('board');
  return {scroll: document.scrollingElement.scrollWidth, width: innerWidth, small,
          board: (() => {  // the pictures' extent (the dungeon and the seats), not their box
            const r = Array.from(board.querySelectorAll('svg')).map(e => e.getBoundingClientRect()).filter(r => r.width);
            return board.offsetParent && r.length ? Math.max(...r.map(x => x.right)) - Math.min(...r.map(x => x.left)) : null; })(),
          board_min: Math.min(...Array.from(document.querySelectorAll('#board [data-target]')).map(e => {
                       const r = e.getBoundingClientRect(); return Math.min(r.width, r.height); })),
          smallest: Math.min(...Array.from(document.querySelectorAll(hit)).filter(e => shown(e) && !e.classList.contains('visually-hidden'))
                                .map(e => { const r = (e.type === 'checkbox' ? e.closest('label') : e).getBoundingClientRect();
                                            return Math.min(r.width, r.height); }))};
}"""

STAGE_JS = """() => {
  const b = document.querySelector('#board .dg-board');
  const on = (s) => document.querySelector('#board [data-target' + s + '][aria-disabled="false"]');
  if (!b || document.getElementById('table').hidden) return 'wait';
  if (b.hasAttribute('data-resolving'))  // the last round too, before the final result
    return document.querySelector('#story-buttons:not([hidden]) #continue:not([disabled])') ? 'resolving' : 'wait';
  if (b.dataset.phase === 'over') return 'over';
  if (on('^="slot-"')) return 'slot';
  if (on('="exhaust"')) return 'exhaust';
  if (on('^="hand-"')) return b.dataset.phase === 'setup' ? 'setup' : 'hand';
  return 'wait';
}"""


def stage(page, not_in: tuple[str, ...] = ("wait",), timeout: float = 90_000) -> str:
    """Wait until the page is at a stage other than ``not_in`` (what the last tap changes), and say which."""
    page.wait_for_function(f"(no) => !no.includes(({STAGE_JS})())", arg=list(not_in), timeout=timeout)
    return page.evaluate(STAGE_JS)


def tap_slot(page, device: str) -> str:
    """Tap the first open slot; the move plays and the pick is spent: the next stage is not a slot
    to tap (until stop 43, an adventurer bumped back to the hand came back picked, its slots
    open, which looked like a lost tap: the page kept the pick after its own move)."""
    tap(page, first_on(page, "slot-"))
    return stage(page, ("wait", "slot"), timeout=20_000)


def check(page, upright: bool, where: str) -> dict:
    """No sideways scroll, every tap target ≥ 44 × 44 CSS px, the board as wide as the screen when upright."""
    g = page.evaluate(GEOMETRY_JS)
    assert g["scroll"] <= g["width"], f"{where}: the page scrolls sideways ({g['scroll']} > {g['width']} px)"
    assert not g["small"], f"{where}: tap targets under {TAP} × {TAP} CSS px: {g['small']}"
    if upright and g["board"] is not None:
        assert g["board"] >= 0.9 * g["width"], f"{where}: the board is {g['board']:.0f} px of {g['width']}"
    return g


def shots(page, device: str, name: str, axe: bool = False) -> None:
    """The page as it is in English, then in 繁體中文 (the language button tapped), then back;
    with ``axe``, axe-core on each (no serious or critical violation)."""
    page.screenshot(path=str(SHOTS / f"tables-{device}-{name}-en.png"), full_page=True)
    if axe:
        assert audit(page, f"tables-{device}-{name}-en") == {}
    page.locator("#lang").tap()
    page.wait_for_function("document.documentElement.lang === 'zh-Hant' && document.title === '課堂牌桌'")
    page.wait_for_function("!document.getElementById('status').offsetParent || /[\\u4e00-\\u9fff]/.test(document.getElementById('status').textContent)")
    page.screenshot(path=str(SHOTS / f"tables-{device}-{name}-zh.png"), full_page=True)
    if axe:
        assert audit(page, f"tables-{device}-{name}-zh") == {}
    page.locator("#lang").tap()
    page.wait_for_function("document.documentElement.lang === 'en'")


def tap(page, target: str) -> None:
    page.locator(f'#board [data-target="{target}"]').tap()


def first_on(page, prefix: str) -> str:
    return page.eval_on_selector(f'#board [data-target^="{prefix}"][aria-disabled="false"]', "e => e.dataset.target")


def open_with_bots(page, base: str, device: str, upright: bool, seen: dict) -> None:
    page.goto(f"{base}dungeon-guilds/tables")
    page.wait_for_selector("#lobby:not([hidden])")
    seen["lobby"] = check(page, upright, f"{device} lobby")
    shots(page, device, "lobby", axe=device == "phone")
    page.locator("#name").tap()
    page.fill("#name", "Ann")
    page.select_option("#seats", "3")
    page.locator("#open-form button").tap()
    page.wait_for_selector("#levels:not([hidden]) select[data-seat='3']")
    for seat in ("2", "3"):
        page.select_option(f"#level-list select[data-seat='{seat}']", "beginner")
    seen["opened"] = check(page, upright, f"{device} table opened")
    page.locator("#bots").tap()


def play_by_tapping(page, device: str, upright: bool, axe: bool) -> dict:
    """Tap through the whole game; returns the geometry seen at each stage."""
    seen, pictured, stages = {}, set(), []
    now = stage(page)
    while now != "over":
        stages.append(now)
        seen.setdefault(now, check(page, upright, f"{device} {now}"))
        if now not in pictured:  # each stage's first appearance: screenshots (and axe on the phone)
            pictured.add(now)
            shots(page, device, now, axe)
        if now == "setup":
            tap(page, "hand-1")
            page.wait_for_selector('#board [data-target="hand-1"][aria-pressed="true"]')
            tap(page, "hand-2")
        elif now == "hand":
            tap(page, first_on(page, "hand-"))
        elif now == "slot":
            now = tap_slot(page, device)
            continue
        elif now == "exhaust":
            tap(page, "exhaust")
        else:  # resolving: the story a step on (when it has one), then Continue
            if not page.locator("#story-next").is_disabled():
                page.locator("#story-next").tap()
                page.wait_for_selector('#board .dg-board[data-step="1"]')
            page.locator("#continue").tap()
        now = stage(page, ("wait", now) if now != "setup" else ("wait", "setup"))
    seen["over"] = check(page, upright, f"{device} over")
    shots(page, device, "over")
    assert stages.count("resolving") == 3, stages  # each round of a 3-seat game shown resolving, then Continue
    assert page.locator("#story-buttons").is_hidden()  # no Continue left once the game is over (it was: display:flex beat [hidden])
    return seen


def teacher_on_a_phone(page, base: str) -> None:
    page.goto(f"{base}dungeon-guilds/teacher")
    page.fill("input[name=teacher]", "teach-owl-42")
    page.locator("form button").first.tap()
    page.wait_for_selector("table tr td")
    width = page.evaluate("[document.scrollingElement.scrollWidth, innerWidth]")
    assert width[0] <= width[1], f"the teacher's page scrolls sideways at 390 px: {width}"
    page.screenshot(path=str(SHOTS / "tables-phone-teacher-en.png"), full_page=True)
    assert audit(page, "tables-phone-teacher") == {}


@pytest.mark.parametrize("device", list(DEVICES))
def test_a_whole_table_game_by_tapping(browser, tables_server, device):  # noqa: F811
    server, _ = tables_server
    viewport, upright = DEVICES[device]
    phone = device == "phone"
    context = browser.new_context(viewport=viewport, has_touch=True, is_mobile=viewport["width"] < 800,
                                  device_scale_factor=2, locale="en-US")
    context.set_default_timeout(60_000)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    SHOTS.mkdir(parents=True, exist_ok=True)
    try:
        seen: dict = {}
        open_with_bots(page, f"http://127.0.0.1:{server.port}/", device, upright, seen)
        if phone:
            assert audit(page, "tables-phone-opened") == {}  # the bot levels offered
        seen.update(play_by_tapping(page, device, upright, axe=phone))
        assert {"setup", "hand", "slot", "exhaust", "resolving"} <= set(seen)
        split = page.evaluate("document.querySelectorAll('#board .dg-board.dg-split > svg').length")
        assert split == 2  # the dungeon and the seats, each scaled to the screen (board_layout.js)
        assert not errors
        if phone:  # the teacher's list of tables (the same stylesheet) fits a phone too
            teacher_on_a_phone(page, f"http://127.0.0.1:{server.port}/")
        print(device, "smallest target, board target (CSS px), board width:",
              {k: (round(v["smallest"], 1), v["board_min"] if v["board_min"] < 1e9 else None, v["board"]) for k, v in seen.items()})
    finally:
        context.close()


TABS_JS = """() => Array.from(document.querySelectorAll('.dg-tabs > .lm-TabBar .lm-TabBar-tab')).map(t => {
  const l = t.querySelector('.lm-TabBar-tabLabel'), r = t.getBoundingClientRect();
  return {label: l.textContent, whole: l.scrollWidth <= l.clientWidth, left: r.left, right: r.right,
          top: r.top, height: r.height, width: r.width, screen: innerWidth}; })"""


def tab_bar_whole(page, lang: str) -> list[dict]:
    tabs = page.evaluate(TABS_JS)
    assert len(tabs) == 7
    for t in tabs:
        assert t["whole"], f"{lang}: the tab label {t['label']!r} is cut"
        assert t["left"] >= 0 and t["right"] <= t["screen"], f"{lang}: the tab {t['label']!r} is off the screen"
        assert t["height"] >= TAP and t["width"] >= TAP, f"{lang}: the tab {t['label']!r} is {t['width']}×{t['height']}"
    return tabs


def test_the_dashboard_tab_bar_cuts_no_label_on_a_phone(browser, tables_server):  # noqa: F811
    from test_dashboard_browser import open_dashboard

    server, _ = tables_server
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True,
                                  device_scale_factor=3, locale="en-US")
    context.set_default_timeout(90_000)
    page = context.new_page()
    SHOTS.mkdir(parents=True, exist_ok=True)
    try:
        open_dashboard(page, server)
        bar = page.locator(".dg-tabs > .lm-TabBar")
        for lang, button, first in (("en", "English", "Learn"), ("zh", "繁體中文", "學習"), ("en", "English", "Learn")):
            page.locator(".dg-lang-toggle button", has_text=button).first.tap()
            page.wait_for_function("(w) => document.querySelector('.dg-tabs .lm-TabBar-tabLabel').textContent === w",
                                   arg=first)
            for size in ({"width": 390, "height": 844}, {"width": 768, "height": 1024}, {"width": 1024, "height": 768}):
                page.set_viewport_size(size)
                tabs = tab_bar_whole(page, f"{lang} {size['width']} px")
                assert page.evaluate("document.scrollingElement.scrollWidth <= innerWidth")
                bar.screenshot(path=str(SHOTS / f"dashboard-tabs-{size['width']}-{lang}.png"))
                if size["width"] == 390 and lang == "en":  # 繁體中文's seven fit on one line
                    assert len({t["top"] for t in tabs}) == 2  # seven tabs on two lines, not squeezed on one
            page.set_viewport_size({"width": 390, "height": 844})
        page.locator(".dg-tabs .lm-TabBar-tab", has_text="Challenges").first.tap()  # the last tab, on line 2
        page.wait_for_function("document.querySelector('.dg-tabs .lm-TabBar-tab.lm-mod-current').textContent.includes('Challenges')")
    finally:
        context.close()


def test_the_board_splits_on_a_narrow_window_and_joins_again(browser, tables_server):  # noqa: F811
    """A desktop window (mouse, no touch) keeps the board the server drew as one picture; narrowed
    to 390 px its dungeon and seats become two (the targets ≥ 44 px, a tap still plays); widened
    again they are one picture, the same as the server's."""
    server, _ = tables_server
    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-US")
    page = context.new_page()
    pictures = "document.querySelectorAll('#board .dg-board > svg').length"
    try:
        page.goto(f"http://127.0.0.1:{server.port}/dungeon-guilds/tables")
        page.fill("#name", "Ann")
        page.select_option("#seats", "3")
        page.click("#open-form button")
        page.click("#bots")
        page.wait_for_selector('#board [data-target="hand-1"][aria-disabled="false"]')
        drawn = page.inner_html("#board")
        assert page.evaluate(pictures) == 1
        page.set_viewport_size({"width": 390, "height": 844})
        page.wait_for_function(f"{pictures} === 2")
        check(page, True, "narrowed to 390 px")
        page.click('#board [data-target="hand-3"]')  # a click on the moved seats still reaches the server
        page.wait_for_selector('#board [data-target="hand-3"][aria-pressed="true"]')
        assert page.evaluate(pictures) == 2  # the new board is split as it comes
        page.click('#board [data-target="hand-3"]')  # put back: the board as first drawn
        page.wait_for_selector('#board [data-target="hand-3"][aria-pressed="false"]')
        page.set_viewport_size({"width": 1280, "height": 900})
        page.wait_for_function(f"{pictures} === 1")
        same = page.evaluate("""(html) => { const t = document.createElement('div'); t.innerHTML = html;
            return t.innerHTML === document.getElementById('board').innerHTML; }""", drawn)
        assert same  # joined again: exactly the picture the server sent
    finally:
        context.close()


NARROW_JS = """() => { const r = document.getElementById('npc').getBoundingClientRect();
  return {scroll: document.scrollingElement.scrollWidth, width: innerWidth, npc: [r.width, r.height],
          selects: Array.from(document.querySelectorAll('#level-list select')).map(s => s.getBoundingClientRect().right)}; }"""


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_opener_screen_fits_360_px_and_the_npc_box_is_44_px(browser, tables_server, lang):  # noqa: F811
    """Issue 51, item 5: at 360 px the lobby and the opener's screen with five free seats, each at
    the level of the longest name ("judge bot (plays the review's best move)"), do not scroll
    sideways (the level select sized itself to that name: 428 px), and Leave tells the server (the
    address's table slot is freed) before the lobby comes back; issue 50, item 5: the lobby's NPC
    checkbox itself is 44 × 44 CSS px (it was 24 × 24)."""
    server, _ = tables_server
    context = browser.new_context(viewport={"width": 360, "height": 740}, has_touch=True, is_mobile=True,
                                  device_scale_factor=2, locale="en-US")
    context.set_default_timeout(60_000)
    page = context.new_page()
    sent: list[str] = []
    page.on("websocket", lambda ws: ws.on("framesent", lambda payload: sent.append(str(payload))))
    try:
        page.goto(f"http://127.0.0.1:{server.port}/dungeon-guilds/tables")
        page.wait_for_selector("#lobby:not([hidden])")
        if lang == "zh":
            page.locator("#lang").tap()
            page.wait_for_function("document.documentElement.lang === 'zh-Hant'")
        lobby = page.evaluate(NARROW_JS)
        assert lobby["scroll"] <= lobby["width"] == 360 and min(lobby["npc"]) >= TAP, lobby
        page.fill("#name", "Ann")
        page.select_option("#seats", "6")
        page.locator("#open-form button").tap()
        page.wait_for_selector("#levels:not([hidden]) select[data-seat='6']")
        levels = page.eval_on_selector("#level-list select", "s => Array.from(s.options).map(o => [o.value, o.text])")
        longest = max(levels, key=lambda v: len(v[1]))[0]
        for seat in "23456":
            page.select_option(f"#level-list select[data-seat='{seat}']", longest)
        opened = page.evaluate(NARROW_JS)
        page.screenshot(path=str(SHOTS / f"tables-360-opened-{lang}.png"), full_page=True)
        assert opened["scroll"] <= opened["width"] == 360, opened
        assert len(opened["selects"]) == 5 and max(opened["selects"]) <= 360
        page.locator("#leave").tap()  # the server frees this device's table slot, then the lobby (issue 51)
        page.wait_for_selector("#lobby:not([hidden])")
        assert any('"leave"' in frame for frame in sent), sent
    finally:
        context.close()
