"""Regenerate the screenshot tour of the dashboard: every tab in English and 繁體中文.

    .venv/bin/python docs/tour/make_tour.py            # writes docs/tour/<lang>-NN-<shot>.png
    .venv/bin/python docs/tour/make_tour.py --only zh  # one language
    .venv/bin/python docs/tour/make_tour.py --teacher  # only the teacher page and the challenges

The dashboard is served by Voila exactly as ``make dashboard`` serves it
(:func:`dungeon_guilds.app.serving.start_voila`, on a free loopback port, stopped by its process
group at the end whatever happens) and visited by Debian's Chromium through Playwright
(``DG_CHROMIUM`` or ``/usr/bin/chromium``) at 1024×768. Each shot is the visible window
(1024 × 768 px) after the tab is opened, used as a newcomer would (the Lab and the A/B
experiment run a few games) and scrolled to what the shot is about. ``docs/tour/README.md``
lists the shots. No network is used besides the loopback server.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
OUT = Path(__file__).resolve().parent
VIEWPORT = {"width": 1024, "height": 768}
LANGS = {"en": "English", "zh": "繁體中文"}
# (file stem, what the shot shows) in the order taken
SHOTS = (
    ("01-learn", "Learn: a round step by step"),
    ("01b-learn-step-says", "Learn: Step ▶ with nothing chosen says what to do (▶▶ greyed out on your move)"),
    ("01c-learn-slots-and-costs", "Learn: a card chosen, each slot's cost tag under it"),
    ("01d-learn-resolving", "Learn: round 1 resolving on the board, room 2 revealed (its split, the seats' gold)"),
    ("02-play", "Play: a game against bots"),
    ("02c-play-since-last", "Play: the other seats' moves since your last move, beside the board"),
    ("02b-rules", "Rules: the rules explained"),
    ("02d-rules-variants", "Rules: the variants, with the NPC cases and a worked team example (R10.1, R10.2)"),
    ("03-explore-payout", "Explore: how a treasure is split"),
    ("03b-explore-turn-order", "Explore: the turn-order explorer (Add names the bump it adds; turns labelled in words)"),
    ("04-explore-rules", "Explore: every rule option, in sentences"),
    ("05-lab-results", "Lab: a balance run and its results"),
    ("06-deck-editor", "Lab → workshop: the deck editor (the reference deck's name and description in the page's language)"),
    ("06b-deck-editor-changes", "Lab → workshop: the deck editor, a heal cost changed: the changes in words"),
    ("07-lord-builder", "Lab → workshop: the lord builder"),
    ("08-lord-preview", "Lab → workshop: the lord builder's sample dungeon"),
    ("09-ab-results", "Lab → workshop: an A/B experiment's verdict and table"),
    ("10-compare", "Compare: the sibling games side by side, with citations"),
    ("11-compare-odds", "Compare: Dungeon! odds"),
    ("11b-compare-counter-attack", "Compare: Dungeon!'s counter-attack, each outcome's effect"),
    ("12-compare-lords-pending", "Compare: Dungeon Lords, a changed setting waits for Simulate"),
    ("12-teacher", "First screen: the teacher page unfolded, a worksheet made"),
    ("13-challenges", "Challenges: a design challenge checked, the verdict with its interval"),
)


def chromium() -> str:
    for path in (os.environ.get("DG_CHROMIUM"), "/usr/bin/chromium"):
        if path and Path(path).exists():
            return path
    raise SystemExit("Chromium not found: install it or set DG_CHROMIUM")


def settle(page, ms: int = 600) -> None:
    """Let widgets and plotly finish drawing."""
    page.wait_for_load_state("networkidle")
    page.wait_for_timeout(ms)


# every chart in the window drawn (a LazyFigure draws once it comes into view)
CHARTS_DRAWN_JS = """() => [...document.querySelectorAll('.dg-lazy-plot')].every(p => {
  const r = p.getBoundingClientRect();
  const inView = p.offsetParent !== null && r.bottom > 0 && r.top < window.innerHeight;
  return !inView || p.classList.contains('dg-lazy-plot-drawn');
})"""


def shot(page, lang: str, stem: str, target: str | None = None) -> Path:
    if target:
        page.locator(target).first.scroll_into_view_if_needed()
        page.evaluate("window.scrollBy(0, -8)")
    else:
        page.evaluate("window.scrollTo(0, 0)")
    settle(page, 400)
    page.wait_for_function(CHARTS_DRAWN_JS, timeout=60_000)  # charts in view load plotly.js, then draw
    path = OUT / f"{lang}-{stem}.png"
    page.screenshot(path=str(path), full_page=False)
    print(f"  {path.relative_to(ROOT)}  {path.stat().st_size // 1024} KB", flush=True)
    return path


def tab(page, selector: str, index: int) -> None:
    page.locator(f"{selector} > .lm-TabBar .lm-TabBar-tab, {selector} .lm-TabBar-tab").nth(index).click()
    settle(page)


def set_number(page, selector: str, value: int) -> None:
    box = page.locator(f"{selector} input").first
    box.fill(str(value))
    box.press("Enter")


def index(name: str) -> int:
    from dungeon_guilds.app.dashboard import TABS

    return TABS.index(name)


def tour(page, url: str, lang: str) -> None:
    page.goto(url, timeout=120_000)
    page.wait_for_selector(".dg-dashboard .dg-stepper", timeout=120_000)
    if lang != "en":
        page.locator(".dg-dash-header .dg-lang-toggle button", has_text=LANGS[lang]).click()
    settle(page, 1500)
    shot(page, lang, "01-learn")
    learn_first_move(page, lang)
    learn_resolving(page, lang)
    tabs = ".dg-tabs"
    page.locator(f"{tabs} .lm-TabBar-tab").nth(index("play")).click()
    page.wait_for_selector(".dg-play-table, .dg-tab-play .dg-app", timeout=60_000)
    settle(page, 1500)
    shot(page, lang, "02-play")
    play_first_moves(page, lang)
    page.locator(f"{tabs} .lm-TabBar-tab").nth(index("rules")).click()
    settle(page, 2000)
    shot(page, lang, "02b-rules")
    from dungeon_guilds.rule_cards import GROUPS

    page.locator(".dg-rules-accordion .jupyter-widget-Collapse-header").nth(GROUPS.index("variants")).click()
    settle(page, 1500)
    shot(page, lang, "02d-rules-variants", ".dg-rule-R10_1")
    page.locator(f"{tabs} .lm-TabBar-tab").nth(index("explore")).click()
    page.wait_for_selector(".dg-payout-explorer .js-plotly-plot", timeout=60_000)
    settle(page, 1000)
    shot(page, lang, "03-explore-payout")
    shot(page, lang, "03b-explore-turn-order", ".dg-turn-order-explorer")
    shot(page, lang, "04-explore-rules", ".dg-rules-options")
    page.locator(f"{tabs} .lm-TabBar-tab").nth(index("lab")).click()
    page.wait_for_selector(".dg-lab button.dg-lab-run", timeout=60_000)
    set_number(page, ".dg-lab-games", 40)
    page.locator(".dg-lab button.dg-lab-run").click()
    page.wait_for_selector(".dg-lab .dg-lab-chart", timeout=120_000)
    page.locator(".dg-lab .dg-lab-chart").first.scroll_into_view_if_needed()  # drawn once in view
    page.wait_for_selector(".dg-lab .dg-lab-chart .js-plotly-plot", timeout=120_000)
    settle(page, 1000)
    shot(page, lang, "05-lab-results", ".dg-lab .dg-lab-progress")
    page.locator(".dg-lab-tabs .lm-TabBar-tab").nth(1).click()
    page.wait_for_selector(".dg-workshop .dg-deck-editor", timeout=60_000)
    settle(page, 1000)
    shot(page, lang, "06-deck-editor")
    box = page.locator(".dg-deck-editor .dg-heal-heal-cost.dg-row-1 input").first
    box.fill("9")  # strength 1's heal cost: $0 -> $9
    box.press("Enter")
    page.wait_for_function("(document.querySelector('.dg-deck-changes') || {}).textContent?.includes('9')")
    settle(page, 800)
    shot(page, lang, "06b-deck-editor-changes", ".dg-deck-editor .dg-deck-summary")
    page.locator(".dg-workshop .lm-TabBar-tab").nth(1).click()
    page.wait_for_selector(".dg-lord-builder .dg-lord-preview table", timeout=60_000)
    settle(page, 800)
    shot(page, lang, "07-lord-builder", ".dg-lord-builder .dg-lord-example")
    shot(page, lang, "08-lord-preview", ".dg-lord-builder .dg-lord-preview")
    page.locator(".dg-workshop .lm-TabBar-tab").nth(2).click()
    page.wait_for_selector(".dg-ab button.dg-ab-run", timeout=60_000)
    set_number(page, ".dg-ab-games", 20)
    page.locator(".dg-arm-b .dg-arm-lords select").select_option(index=2)  # B: base + promo lords (LORDS_OPTIONS[2])
    settle(page, 300)
    page.locator(".dg-ab button.dg-ab-run").click()
    page.wait_for_selector(".dg-ab .dg-ab-table", timeout=180_000)
    settle(page, 1000)
    shot(page, lang, "09-ab-results", ".dg-ab .dg-ab-verdict")
    page.locator(f"{tabs} .lm-TabBar-tab").nth(index("compare")).click()
    page.wait_for_selector(".dg-cmp table", timeout=60_000)
    settle(page, 1000)
    shot(page, lang, "10-compare")
    page.locator(".dg-cmp .lm-TabBar-tab").nth(1).click()
    settle(page, 800)
    shot(page, lang, "11-compare-odds")
    shot(page, lang, "11b-compare-counter-attack", ".dg-cmp h4 >> nth=1")
    page.locator(".dg-cmp .lm-TabBar-tab").nth(3).click()
    page.wait_for_selector(".dg-cmp table >> nth=-1", timeout=60_000)
    set_number(page, ".dg-cmp-seed", 7)
    page.wait_for_selector(".dg-lords-pending", timeout=60_000)
    settle(page, 800)
    shot(page, lang, "12-compare-lords-pending", ".dg-lords-pending")


def learn_first_move(page, lang: str) -> None:
    """Learn: Step with nothing chosen (the sentence), then the guided first move (two cards,
    Step), the bots to Ann's first dispatch turn, and a card chosen: the slots' cost tags."""
    learn = page.locator(".dg-stepper")
    learn.locator("button.dg-step").click()
    page.wait_for_selector(".dg-stepper .dg-msg-warn", timeout=30_000)
    settle(page, 600)
    shot(page, lang, "01b-learn-step-says")
    for strength in (4, 5):
        learn.locator(f"[data-target='hand-{strength}']").click()
        page.wait_for_selector(f".dg-stepper [data-target='hand-{strength}'][aria-pressed='true']")
    learn.locator("button.dg-step").click()
    page.wait_for_function("!document.querySelector('.dg-stepper button.dg-to-round').disabled")
    learn.locator("button.dg-to-round").click()
    page.wait_for_function("document.querySelector('.dg-stepper .dg-board').dataset.phase == 'dispatch' && "
                           "document.querySelector('.dg-stepper button.dg-to-round').disabled")
    settle(page, 600)
    learn.locator("[data-target^='hand-'][aria-disabled='false']").last.click()
    page.wait_for_selector(".dg-stepper [data-target^='slot-']")
    settle(page, 600)
    shot(page, lang, "01c-learn-slots-and-costs")


def learn_resolving(page, lang: str) -> None:
    """Learn, from a card chosen: Ann places, the bots play to the end of round 1 (▶▶), which
    stops at the resolution shown on the board; "Next room" reveals room 2."""
    learn = page.locator(".dg-stepper")
    board = learn.locator(".dg-board").first
    learn.locator("[data-target^='slot-'][aria-disabled='false']").first.click()
    for _ in range(40):
        settle(page, 300)
        if board.get_attribute("data-resolving"):
            break
        before = board.get_attribute("data-actions")
        if learn.locator(".dg-board-widget").first.get_attribute("data-locked") == "1":
            learn.locator("button.dg-to-round").click()
        else:
            learn.locator("[data-target^='hand-'][aria-disabled='false']").last.click()
            learn.locator("[data-target^='slot-'][aria-disabled='false']").first.click()
        page.wait_for_function("b => { const e = document.querySelector('.dg-stepper .dg-board');"
                               " return e.dataset.actions != b || e.dataset.resolving; }", arg=before,
                               timeout=60_000)
    learn.locator("button.dg-story-next").click()
    page.wait_for_function("document.querySelector('.dg-stepper .dg-board').dataset.step == '1'")
    settle(page, 800)
    shot(page, lang, "01d-learn-resolving")


def play_first_moves(page, lang: str) -> None:
    """Play: the exhaust choice and one placement on the board; the bots answer."""
    table = page.locator(".dg-play-table")
    ready = ("() => { const b = document.querySelector('.dg-play-table .dg-board');"
             " return b && b.dataset.phase == 'dispatch' && document.querySelector("
             "'.dg-play-table .dg-board-widget').dataset.locked == '0'; }")
    for strength in (4, 5):
        table.locator(f"[data-target='hand-{strength}']").click()
        page.wait_for_selector(f".dg-play-table [data-target='hand-{strength}'][aria-pressed='true']")
    table.locator("[data-target='exhaust']").click()
    page.wait_for_function(ready, timeout=60_000)
    table.locator("[data-target^='hand-'][aria-disabled='false']").last.click()
    page.wait_for_selector(".dg-play-table [data-target^='slot-'][aria-disabled='false']")
    before = table.locator(".dg-board").first.get_attribute("data-actions")
    table.locator("[data-target^='slot-'][aria-disabled='false']").first.click()
    page.wait_for_function("b => document.querySelector('.dg-play-table .dg-board').dataset.actions != b",
                           arg=before, timeout=60_000)  # the move reached the kernel …
    page.wait_for_function(ready, timeout=60_000)  # … and the bots have answered
    page.wait_for_selector(".dg-play-table .dg-since li")
    settle(page, 800)
    shot(page, lang, "02c-play-since-last")


def teacher_tour(page, url: str, lang: str) -> None:
    """The teacher page (folded on the first screen) and a design challenge checked: the
    hardest level-3 card made easier (the check plays as many games as its verdict needs)."""
    page.goto(url, timeout=120_000)
    page.wait_for_selector(".dg-dashboard .dg-stepper", timeout=120_000)
    if lang != "en":
        page.locator(".dg-dash-header .dg-lang-toggle button", has_text=LANGS[lang]).click()
    settle(page, 1000)
    page.locator(".dg-teacher-fold .lm-AccordionPanel-title, .dg-teacher-fold .jupyter-widget-Collapse-header, "
                 ".dg-teacher-fold .p-Collapse-header").first.click()
    page.wait_for_selector(".dg-teacher button.dg-worksheet-make", timeout=60_000)
    page.locator(".dg-teacher button.dg-worksheet-make").click()
    page.wait_for_selector(".dg-worksheet-links a", timeout=60_000)
    shot(page, lang, "12-teacher", ".dg-teacher .dg-worksheet-version")
    page.locator(".dg-teacher-fold .lm-AccordionPanel-title, .dg-teacher-fold .jupyter-widget-Collapse-header, "
                 ".dg-teacher-fold .p-Collapse-header").first.click()
    page.locator(".dg-tabs .lm-TabBar-tab").nth(index("challenges")).click()
    page.wait_for_selector(".dg-challenges button.dg-challenge-check", timeout=60_000)
    page.locator(".dg-challenges .dg-challenge-choice select").nth(1).select_option(index=10)  # Lv3 9/12
    page.wait_for_function("() => document.querySelector('.dg-challenge-defence input').value === '9'")
    settle(page, 500)
    set_number(page, ".dg-challenge-defence", 7)
    page.wait_for_timeout(1000)
    page.locator(".dg-challenges button.dg-challenge-check").click()
    page.wait_for_selector(".dg-challenges .dg-verdict", timeout=900_000)
    shot(page, lang, "13-challenges", ".dg-challenges .dg-verdict p:last-child")


def write_index() -> None:
    lines = ["# Screenshot tour of the dashboard", "",
             "Every tab in English and 繁體中文 at 1024×768, regenerated by "
             "`.venv/bin/python docs/tour/make_tour.py` (Voila + Chromium; see the script).", "",
             "| shot | English | 繁體中文 |", "|---|---|---|"]
    for stem, what in SHOTS:
        lines.append(f"| {what} | ![](en-{stem}.png) | ![](zh-{stem}.png) |")
    (OUT / "README.md").write_text("\n".join(lines) + "\n", encoding="utf-8")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", choices=sorted(LANGS), help="one language only")
    parser.add_argument("--teacher", action="store_true", help="only the teacher page and the challenges")
    args = parser.parse_args(argv)
    sys.path.insert(0, str(ROOT))
    from playwright.sync_api import sync_playwright

    from dungeon_guilds.app import serving

    log = Path(tempfile.mkdtemp(prefix="dg-tour-")) / "voila.log"
    t0 = time.perf_counter()
    server = serving.start_voila(ROOT, log, wait_pool=True)
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=chromium(), headless=True,
                                         args=["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                                               "--disable-background-networking"])
            try:
                for lang in ([args.only] if args.only else list(LANGS)):
                    print(f"{LANGS[lang]}:", flush=True)
                    context = browser.new_context(viewport=VIEWPORT, device_scale_factor=1)
                    context.set_default_timeout(60_000)
                    try:
                        (teacher_tour if args.teacher else tour)(context.new_page(), server.url, lang)
                        if not args.teacher:
                            teacher_tour(context.new_page(), server.url, lang)
                    finally:
                        context.close()
            finally:
                browser.close()
    finally:
        server.stop()
    write_index()
    print(f"done in {time.perf_counter() - t0:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
