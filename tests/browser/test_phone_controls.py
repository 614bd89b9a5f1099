"""Every dashboard screen on a phone (issue 50, item 2): the dashboard served by Voila
(``voila_server``, the session's one server) in Chromium at 390 × 844 with touch, in English and
繁體中文. On every tab and every sub-tab (Learn with the teacher's page; Play with its folds open;
each section of the Rules; Explore; each of Compare's four tabs; Challenges; the Lab's balance
run and design workshop: deck editor, lord builder, A/B experiment, design explorer), every
visible control — buttons, selects, text and number boxes, checkboxes (their whole label),
links, summaries, slider handles, editable readouts, anything else focusable, the board's hand
cards and room slots (``[role=button]``), tabs and fold titles — is at least 44 × 44 CSS px, and
the page does not scroll sideways. A screenshot of each screen goes to
``build/screenshots/phone-<screen>-<lang>.png``.

In English the lessons' steps are done by tapping (``locator.tap()``), each showing its result:
Learn's set-up and a placement; Play's set-up (two adventurers exhausted, R2.4) and a placement
(R4); a challenge's Check (a level-3 card's defence lowered, the verdict with its interval); the
deck editor (a count changed, the deck used); the A/B experiment run with that deck in arm B.
繁體中文 measures the same screens after those results (the taps once: the Check alone plays 280
games of each version).

The sizes come from the phone rules of ``dungeon_guilds/widgets/a11y.css`` (a media query: a
desktop keeps ipywidgets' sizes) and the board split of ``dungeon_guilds/widgets/board.js``.
"""

from __future__ import annotations

import math
import re
import time
from pathlib import Path

import pytest
from test_dashboard_browser import open_dashboard, settle

from dungeon_guilds import i18n

pytestmark = pytest.mark.browser


SHOTS = Path(__file__).resolve().parents[2] / "build" / "screenshots"
PHONE = {"width": 390, "height": 844}
TAP = 44  # CSS px, each way
APPS = {"explore": ".dg-turn-order-explorer", "challenges": ".dg-challenges"}  # a tab: its app, drawn
AB_GAMES = 100  # games an arm of the A/B experiment tapped through (about a second of the kernel)
CHECK_TIMEOUT = 120_000  # ms: the Check tapped plays 280 games of each version (8 s alone on this machine)

# what a finger may hit, and how big it is: a checkbox by its whole label (ipywidgets' Checkbox
# is a label around the box and its words); text inside a paragraph is not a control
MEASURE_JS = """() => {
  const small = [];
  let count = 0;
  const hit = 'button, select, input:not([type=hidden]), textarea, a[href], summary, [role=button], ' +
              '.lm-TabBar-tab, .jupyter-widget-Collapse-header, .noUi-handle, [contenteditable=true], ' +
              '[tabindex]:not([tabindex^="-"])';
  const shown = (e) => e.getClientRects().length > 0 && getComputedStyle(e).visibility !== 'hidden'
                       && !e.closest('.dg-visually-hidden, .dg-story-replay, .dg-board-text');
  for (const e of document.querySelectorAll('.dg-dashboard ' + hit.split(', ').join(', .dg-dashboard '))) {
    if (!shown(e)) continue;
    const t = e.type === 'checkbox' ? (e.closest('label') || e) : e;
    const r = t.getBoundingClientRect();
    if (r.width === 0 && r.height === 0) continue;
    count += 1;
    if (r.width < 44 - 0.01 || r.height < 44 - 0.01) {
      const where = e.closest('[class*="dg-"]');
      const name = (e.getAttribute('aria-label') || e.innerText || e.value || e.placeholder || '').trim().slice(0, 24);
      small.push(`${e.tagName.toLowerCase()}${e.type ? '[' + e.type + ']' : ''} "${name}" in ` +
                 `.${where ? [...where.classList].filter(c => c.startsWith('dg-')).join('.') : '?'} ` +
                 `${r.width.toFixed(0)}×${r.height.toFixed(0)}`);
    }
  }
  const sizes = Array.from(document.querySelectorAll('.dg-dashboard ' + hit.split(', ').join(', .dg-dashboard ')))
    .filter(shown).map(e => (e.type === 'checkbox' ? (e.closest('label') || e) : e).getBoundingClientRect())
    .filter(r => r.width || r.height);
  const board = Array.from(document.querySelectorAll('.dg-dashboard .dg-board-widget [data-target]'))
    .filter(shown).map(e => e.getBoundingClientRect()).filter(r => r.width);
  return {count, small, scroll: document.scrollingElement.scrollWidth, width: innerWidth,
          least: sizes.length ? Math.round(Math.min(...sizes.map(r => Math.min(r.width, r.height)))) : null,
          board: board.length ? [Math.min(...board.map(r => r.width)), Math.min(...board.map(r => r.height))].map(Math.round) : null};
}"""


def tap_tab(page, key: str, lang: str, bar: str = ".dg-tabs") -> None:
    page.locator(f"{bar} > .lm-TabBar .lm-TabBar-tab", has_text=i18n.t(key, lang)).first.tap()
    settle(page)


def unfold_all(page, root: str) -> None:
    """Open every closed fold under ``root`` (a lesson opens them: set-ups, advanced moves)."""
    closed = f"{root} .jupyter-widget-Collapse:not(.jupyter-widget-Collapse-open) > .jupyter-widget-Collapse-header"
    for _ in range(12):  # one at a time: a fold opened may show another
        header = page.locator(closed).filter(visible=True)
        if not header.count():
            return
        header.first.tap()
        settle(page, root)
    raise AssertionError(f"more than 12 folds under {root}")


# the page's height, its scrolled boxes (Voila's panel scrolls, not the document) back at the top
TALL_JS = """() => {
  const dash = document.querySelector('.dg-dashboard');
  for (let e = dash; e; e = e.parentElement) e.scrollTop = 0;
  scrollTo(0, 0);
  return Math.ceil(dash.getBoundingClientRect().bottom);
}"""


def measure(page, name: str, lang: str, found: dict, shot: bool = True) -> None:
    """Every visible control's size on this screen (into ``found``). With ``shot``, first the
    window made as tall as the page (the page is 390 px wide still: a chart drawn once in view is
    drawn, its controls measured too) for its screenshot, then a phone again."""
    settle(page)
    if shot:
        tall = page.evaluate(TALL_JS)
        page.set_viewport_size({"width": PHONE["width"], "height": min(max(tall + 16, PHONE["height"]), 8000)})
        settle(page, quiet_ms=150)
    got = page.evaluate(MEASURE_JS)
    found[f"{name}-{lang}"] = got
    print(f"{time.perf_counter():.1f}", name, lang, got["count"], "controls,", len(got["small"]), "under 44 px;",
          "smallest side", got["least"], "page width", got["scroll"], "board's smallest target", got["board"],
          got["small"][:40], flush=True)
    if shot:
        page.screenshot(path=str(SHOTS / f"phone-{name}-{lang}.png"))
        page.set_viewport_size(PHONE)  # a board tapped next is fitted to it again first (settle)


def tap_board(page, root: str, target: str) -> None:
    page.locator(f'{root} [data-target="{target}"][aria-disabled="false"]').tap()


def type_into(page, box, value: str) -> None:
    """A number typed into a box the finger tapped (the phone's keyboard), sent with Enter."""
    box.tap()
    page.keyboard.press("Control+A")
    page.keyboard.type(value)
    page.keyboard.press("Enter")


def learn_to_placement(page) -> None:
    """Learn's set-up done by tapping the board (R3: exhaust two adventurers, then go), then an
    adventurer picked for placement (R4): the rooms' slots become targets."""
    settle(page, ".dg-stepper")
    for card in ("hand-1", "hand-2"):
        tap_board(page, ".dg-stepper", card)
        page.wait_for_selector(f'.dg-stepper [data-target="{card}"][aria-pressed="true"]')
    tap_board(page, ".dg-stepper", "exhaust")
    slots = page.locator('.dg-stepper [data-target^="slot-"][aria-disabled="false"]')
    cards = page.locator('.dg-stepper [data-target^="hand-"][aria-disabled="false"]')
    for _ in range(12):  # the bots' set-ups, a step at a time, until "you" place: a card, then a slot
        settle(page, ".dg-stepper")
        if slots.count():
            return
        if cards.count():
            cards.first.tap()
        else:
            page.locator(".dg-stepper button.dg-step").first.tap()
    raise AssertionError("no room slot to tap after 12 steps of Learn")


def play_by_tapping(page) -> None:
    """Play (seat 1 against three bots): the set-up tapped on the board (two adventurers, then
    the exhaust button: R2.4), then, once the bots have chosen theirs and dispatch begins with
    seat 1 (R4.1), the strength-3 adventurer placed in room 1 (R4.2): the board shows it there."""
    root = ".dg-play-table"
    settle(page, root)
    for card in ("hand-1", "hand-2"):
        tap_board(page, root, card)
        page.wait_for_selector(f'{root} [data-target="{card}"][aria-pressed="true"]')
    tap_board(page, root, "exhaust")
    page.wait_for_selector(f'{root} .dg-board[data-phase="dispatch"]')
    tap_board(page, root, "hand-3")
    page.wait_for_selector(f'{root} [data-target="hand-3"][aria-pressed="true"]')
    tap_board(page, root, "slot-1-0")
    page.wait_for_selector(f'{root} .dg-board .dg-room[data-room="1"] .dg-token[data-owner="0"][data-strength="3"]')
    assert not page.locator(f'{root} [data-target="hand-3"]').count()  # out of the hand, into the dungeon


def check_by_tapping(page) -> str:
    """A challenge's Check: "Level 3 worth the risk" (the first), the level-3 defence-9 card
    picked and its defence typed down to 7, Check tapped; the verdict (with its 95 % interval)."""
    root = ".dg-challenges"
    kind = page.locator(f"{root} .dg-challenge-choice select").nth(1)
    kind.tap()
    kind.select_option(index=10)  # the picker's choice: Lv3 defence 9, treasure $12
    page.wait_for_function("() => document.querySelector('.dg-challenge-defence input').value === '9'")
    type_into(page, page.locator(f"{root} .dg-challenge-defence input"), "7")
    settle(page, root)
    page.locator(f"{root} button.dg-challenge-check").tap()
    verdict = page.locator(f"{root} .dg-verdict[role='status']")
    verdict.wait_for(timeout=CHECK_TIMEOUT)
    return verdict.inner_text()


def deck_by_tapping(page) -> str:
    """The deck editor: room row 1's count (4 level-1 defence-3 cards) typed up to 9, the deck
    used (offered to the A/B's arms). Its summary counts 45 cards."""
    editor = page.locator(".dg-deck-editor").first
    type_into(page, editor.locator(".dg-rooms-count.dg-row-1 input").first, "9")
    summary = editor.locator(".dg-deck-summary", has_text="45").first
    summary.wait_for()
    editor.locator("button.dg-deck-use").tap()
    saved = i18n.t("workshop.deck_saved", "en", name="\0").split("\0")[-1]  # "… is ready for the A/B experiment …"
    editor.locator(".dg-message", has_text=saved).first.wait_for()
    return summary.inner_text()


def ab_by_tapping(page) -> str:
    """The A/B experiment: arm B plays the deck just made, AB_GAMES games an arm, Run tapped;
    the message says it is done and the comparison table is drawn."""
    ab = page.locator(".dg-ab")
    deck = ab.locator(".dg-arm-b .dg-arm-deck select")
    deck.tap()
    deck.select_option(index=1)  # the deck the editor used
    type_into(page, ab.locator(".dg-ab-games input"), str(AB_GAMES))
    settle(page, ".dg-ab")
    ab.locator("button.dg-ab-run").tap()
    done = i18n.t("workshop.ab_done", "en", games=AB_GAMES, seconds=math.nan).split("nan")[0]
    page.wait_for_function("t => document.querySelector('.dg-ab .dg-message').innerText.startsWith(t)",
                           arg=done, timeout=120_000)
    ab.locator(".dg-ab-table-html .dg-ab-table").wait_for()
    return ab.locator(".dg-message").first.inner_text()


def learn_screens(page, lang: str, found: dict, taps: bool) -> None:
    """Learn with the teacher's page (the first screen's plans and worksheets) and every fold open."""
    tap_tab(page, "dash.tab_learn", lang)
    unfold_all(page, ".dg-dash-header")
    unfold_all(page, ".dg-tab-learn")  # the set-up and the move list (they stay open in 繁體中文)
    measure(page, "learn", lang, found)
    if taps:
        learn_to_placement(page)
        measure(page, "learn-placement", lang, found)
    page.locator(".dg-teacher-fold .jupyter-widget-Collapse-header").first.tap()  # folded again


def play_screens(page, lang: str, found: dict, taps: bool, done: dict) -> None:
    tap_tab(page, "dash.tab_play", lang)
    page.locator(".dg-play-table .dg-board svg").first.wait_for(timeout=120_000)
    if taps:
        play_by_tapping(page)
        done["play"] = "placed"
    unfold_all(page, ".dg-play-table")  # pass and play, the game's set-up, the move list
    measure(page, "play", lang, found)


def rules_screens(page, lang: str, found: dict) -> None:
    """The Rules: one section of the accordion open at a time, each measured."""
    tap_tab(page, "dash.tab_rules", lang)
    page.locator(".dg-rules-tab").first.wait_for(timeout=120_000)
    headers = page.locator(".dg-rules-tab .jupyter-widget-Accordion > .jupyter-widget-Collapse > "
                           ".jupyter-widget-Collapse-header")
    assert headers.count() >= 8, headers.count()
    for i in range(headers.count()):
        if "jupyter-widget-Collapse-open" not in headers.nth(i).locator("..").get_attribute("class"):
            headers.nth(i).tap()
            settle(page, ".dg-rules-tab")
        measure(page, f"rules-{i}", lang, found, shot=i == 0)


def sub_tabs(page, bar: str, name: str, lang: str, found: dict, ready: str) -> None:
    """Every tab of a tab bar under the dashboard's (Compare's, the workshop's), each measured."""
    page.locator(ready).first.wait_for(timeout=120_000)
    tabs = page.locator(f"{bar} > .lm-TabBar .lm-TabBar-tab")
    for i in range(tabs.count()):
        tabs.nth(i).tap()
        settle(page)
        measure(page, f"{name}-{i}", lang, found)


def workshop_screens(page, lang: str, found: dict, taps: bool, done: dict) -> None:
    """The Lab: the balance run; the workshop's tabs, the deck edited and the A/B run by tapping."""
    tap_tab(page, "dash.tab_lab", lang)
    tap_tab(page, "dash.lab_balance", lang, ".dg-lab-tabs")
    page.locator(".dg-lab button.dg-lab-run").wait_for(timeout=120_000)
    measure(page, "lab-balance", lang, found)
    tap_tab(page, "dash.lab_workshop", lang, ".dg-lab-tabs")
    sub_tabs(page, ".dg-workshop", "lab-workshop", lang, found, ".dg-workshop")
    if not taps:
        return
    tabs = page.locator(".dg-workshop > .lm-TabBar .lm-TabBar-tab")
    tabs.nth(0).tap()
    done["deck"] = deck_by_tapping(page)
    tabs.filter(has_text=i18n.t("workshop.ab_title", lang)).tap()
    done["ab"] = ab_by_tapping(page)
    measure(page, "lab-ab-result", lang, found)


def every_screen(page, lang: str, found: dict, taps: bool, done: dict) -> None:
    learn_screens(page, lang, found, taps)
    play_screens(page, lang, found, taps, done)
    rules_screens(page, lang, found)
    for key, app in APPS.items():
        tap_tab(page, f"dash.tab_{key}", lang)
        page.locator(app).first.wait_for(timeout=120_000)
        measure(page, key, lang, found)
    if taps:
        done["check"] = check_by_tapping(page)
        measure(page, "challenges-checked", lang, found)
    tap_tab(page, "dash.tab_compare", lang)
    sub_tabs(page, ".dg-cmp .widget-tab", "compare", lang, found, ".dg-cmp")
    workshop_screens(page, lang, found, taps, done)


READABLE_JS = """() => {
  const cells = document.querySelector('#rendered_cells') || document.body;
  const text = Array.from(cells.querySelectorAll('.jp-RenderedMarkdown p, .jp-RenderedMarkdown li'))
    .filter(e => e.getClientRects().length).map(e => e.getBoundingClientRect().width);
  return {scroll: document.scrollingElement.scrollWidth, width: innerWidth, paragraphs: text.length,
          narrowest: text.length ? Math.min(...text) : 0};
}"""


def lesson_four_on_a_phone(context, page) -> None:
    """Item 3: the first screen's link to lesson 4's notebook opens it as a page of its own (a
    new tab), readable at 390 px: its text as wide as the screen allows, no sideways scroll."""
    tap_tab(page, "dash.tab_learn", "zh")
    link = page.locator('.dg-notebook-links a[data-notebook="10_strategy"]')
    box = link.bounding_box()
    assert box["height"] >= TAP - 0.01 and box["width"] >= TAP, box
    with context.expect_page() as opened:
        link.tap()
    notebook = opened.value
    notebook.wait_for_selector("#rendered_cells .jupyter-widgets button", timeout=180_000)  # a Check
    notebook.wait_for_selector("#rendered_cells .js-plotly-plot .main-svg", timeout=60_000)
    settle(notebook, "#rendered_cells")
    got = notebook.evaluate(READABLE_JS)
    assert not notebook.evaluate("getComputedStyle(document.querySelector('#rendered_cells'), '::before').content"
                                 ".includes('Starting')"), "the dashboard's waiting line stays on the notebook"
    notebook.set_viewport_size({"width": PHONE["width"], "height": 3000})
    notebook.screenshot(path=str(SHOTS / "phone-notebook-10.png"))
    print("notebook 10 at 390 px:", got, notebook.url)
    assert "/dungeon-guilds/notebooks/10_strategy" in notebook.url
    assert got["scroll"] <= got["width"] and got["paragraphs"] >= 5 and got["narrowest"] >= 300, got
    notebook.close()


def test_every_dashboard_screen_is_tappable_on_a_phone(browser, voila_server):
    SHOTS.mkdir(parents=True, exist_ok=True)
    context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True, locale="en-US")
    context.set_default_timeout(60_000)
    page = context.new_page()
    found: dict[str, dict] = {}
    done: dict[str, str] = {}
    try:
        open_dashboard(page, voila_server)
        every_screen(page, "en", found, True, done)
        page.locator(".dg-dash-header .dg-lang-toggle button", has_text="繁體中文").tap()
        settle(page)
        every_screen(page, "zh", found, False, done)
        lesson_four_on_a_phone(context, page)
    finally:
        context.close()
    print("done by tapping:", done)
    assert done["play"] == "placed"
    assert re.search(r"95 % interval \d+\.\d % to \d+\.\d %", done["check"]) and "defence 7" in done["check"], done
    assert "45 cards" in done["deck"], done
    assert done["ab"].startswith(f"Done: {AB_GAMES} games per arm"), done
    report = {k: (v["count"], len(v["small"]), v["small"][:6], v["scroll"]) for k, v in found.items()}
    for k, v in report.items():
        print(k, v)
    print("controls measured:", sum(v["count"] for v in found.values()), "on", len(found), "screens; smallest side",
          min(v["least"] for v in found.values() if v["least"] is not None), "px")
    assert all(v["scroll"] <= v["width"] for v in found.values()), report
    assert not any(v["small"] for v in found.values()), {k: v[2] for k, v in report.items() if v[1]}
