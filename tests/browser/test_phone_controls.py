"""Every dashboard screen on a phone (issue 50, item 2): the dashboard served by Voila
(``voila_server``, the session's one server) in Chromium at 390 × 844 with touch, in English and
繁體中文. On every tab and every sub-tab (the Lab's balance run and design workshop, the
workshop's deck editor, lord builder, A/B experiment and design explorer), with the folds a lesson
opens unfolded, every visible control — buttons, selects, text and number boxes, checkboxes (their
whole label), links, the board's hand cards and room slots (``[role=button]``), tabs and fold
titles — is at least 44 × 44 CSS px, and the page does not scroll sideways. A screenshot of each
screen goes to ``build/screenshots/phone-<screen>-<lang>.png``.

The sizes come from the phone rules of ``dungeon_guilds/widgets/a11y.css`` (a media query: a
desktop keeps ipywidgets' sizes) and the board split of ``dungeon_guilds/widgets/board.js``.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from test_dashboard_browser import open_dashboard, settle

from dungeon_guilds import i18n

pytestmark = pytest.mark.browser

SHOTS = Path(__file__).resolve().parents[2] / "build" / "screenshots"
PHONE = {"width": 390, "height": 844}
TAP = 44  # CSS px, each way
APPS = {"play": ".dg-play-table .dg-board svg", "rules": ".dg-rules-tab", "explore": ".dg-turn-order-explorer",
        "compare": ".dg-cmp", "challenges": ".dg-challenges"}  # a tab: its app, drawn

# what a finger may hit, and how big it is: a checkbox by its whole label (ipywidgets' Checkbox
# is a label around the box and its words); text inside a paragraph is not a control
MEASURE_JS = """() => {
  const small = [];
  let count = 0;
  const hit = 'button, select, input:not([type=hidden]), textarea, a[href], summary, [role=button], ' +
              '.lm-TabBar-tab, .jupyter-widget-Collapse-header';
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
  const board = Array.from(document.querySelectorAll('.dg-dashboard .dg-board-widget [data-target]'))
    .filter(shown).map(e => e.getBoundingClientRect()).filter(r => r.width);
  return {count, small, scroll: document.scrollingElement.scrollWidth, width: innerWidth,
          board: board.length ? [Math.min(...board.map(r => r.width)), Math.min(...board.map(r => r.height))].map(Math.round) : null};
}"""


def unfold_all(page, root: str) -> None:
    """Open every closed fold under ``root`` (a lesson opens them: set-ups, advanced moves)."""
    closed = f"{root} .jupyter-widget-Collapse:not(.jupyter-widget-Collapse-open) > .jupyter-widget-Collapse-header"
    for _ in range(12):  # one at a time: a fold opened may show another
        header = page.locator(closed).filter(visible=True)
        if not header.count():
            return
        header.first.click()
        settle(page, root)
    raise AssertionError(f"more than 12 folds under {root}")


def measure(page, name: str, lang: str, found: dict) -> None:
    """Every visible control's size on this screen (into ``found``), and its screenshot: the
    window made as tall as the page for it (the page is 390 px wide still), then a phone again."""
    settle(page)
    got = page.evaluate(MEASURE_JS)
    found[f"{name}-{lang}"] = got
    print(name, lang, got["count"], len(got["small"]), got["scroll"], "board's smallest target", got["board"],
          got["small"][:40], flush=True)
    tall = page.evaluate("Math.ceil(document.querySelector('.dg-dashboard').getBoundingClientRect().bottom + scrollY)")
    page.set_viewport_size({"width": PHONE["width"], "height": min(max(tall + 16, PHONE["height"]), 8000)})
    page.screenshot(path=str(SHOTS / f"phone-{name}-{lang}.png"))
    page.set_viewport_size(PHONE)


def tap_board(page, root: str, target: str) -> None:
    page.locator(f'{root} [data-target="{target}"][aria-disabled="false"]').tap()


def learn_to_placement(page) -> None:
    """Learn's set-up done by tapping the board (R3: exhaust two adventurers, then go), then an
    adventurer picked for placement (R4): the rooms' slots become targets."""
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


def tab(page, key: str, lang: str, bar: str = ".dg-tabs") -> None:
    page.locator(f"{bar} > .lm-TabBar .lm-TabBar-tab", has_text=i18n.t(key, lang)).first.click()
    settle(page)


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
    tab(page, "dash.tab_learn", "zh")
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
    try:
        open_dashboard(page, voila_server)
        for lang in ("en", "zh"):
            if lang == "zh":
                page.locator(".dg-dash-header .dg-lang-toggle button", has_text="繁體中文").click()
                settle(page)
            tab(page, "dash.tab_learn", lang)
            unfold_all(page, ".dg-dash-header")  # the teacher's page: the first screen's plans and worksheets
            if lang == "en":
                unfold_all(page, ".dg-tab-learn")  # the set-up and the move list (open in 繁體中文 too)
            measure(page, "learn", lang, found)
            if lang == "en":
                learn_to_placement(page)
                measure(page, "learn-placement", lang, found)
            page.locator(".dg-teacher-fold .jupyter-widget-Collapse-header").first.click()  # folded again
            for key, app in APPS.items():
                tab(page, f"dash.tab_{key}", lang)
                page.locator(app).first.wait_for(timeout=120_000)
                measure(page, key, lang, found)
            tab(page, "dash.tab_lab", lang)
            tab(page, "dash.lab_balance", lang, ".dg-lab-tabs")
            page.locator(".dg-lab button.dg-lab-run").wait_for(timeout=120_000)
            measure(page, "lab-balance", lang, found)
            tab(page, "dash.lab_workshop", lang, ".dg-lab-tabs")
            page.locator(".dg-workshop").wait_for(timeout=120_000)
            bar = page.locator(".dg-workshop > .lm-TabBar .lm-TabBar-tab")
            for i in range(bar.count()):
                bar.nth(i).click()
                settle(page)
                measure(page, f"lab-workshop-{i}", lang, found)
        lesson_four_on_a_phone(context, page)
    finally:
        context.close()
    report = {k: (v["count"], len(v["small"]), v["small"][:6], v["scroll"]) for k, v in found.items()}
    for k, v in report.items():
        print(k, v)
    assert all(v["scroll"] <= v["width"] for v in found.values()), report
    assert not any(v["small"] for v in found.values()), report
