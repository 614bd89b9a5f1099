"""The drawn board in a real Chromium (issue 14 item 7): Voila serves the dashboard, Playwright
clicks on the board's SVG targets only.

* Play: a whole 3-player game against bots played by clicking the board in English and in
  繁體中文; the final gold shown equals the engine's for the same seed and choices; during the
  bots' turns the board is locked (``data-locked="1"``, status says whose turn); at 1024×768
  the board and the player's controls are inside the viewport (checked by geometry).
* Learn: one move made with the keyboard only (Tab, arrow keys, Enter).
Screenshots (1024×768, en and zh) go to pytest's tmp dir, or to ``DG_SHOTS`` if set.
"""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest

from dungeon_guilds import Game, Rules
from dungeon_guilds.analysis.bots import make_bot
from dungeon_guilds.game import DEFAULT_NAMES

from test_dashboard_browser import click_tab, open_dashboard, settle  # noqa: E402 - same folder (rootdir on sys.path)

pytestmark = pytest.mark.browser

VIEW = {"width": 1024, "height": 768}
OPPONENTS = ["greedy", "greedy"]
SEED = 5


def shots(tmp_path) -> Path:
    folder = Path(os.environ.get("DG_SHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def start_play(page, lang: str) -> None:
    """Play tab: 3 players, two greedy bots, seed SEED, started from the (folded) set-up."""
    click_tab(page, "Play")
    table = page.locator(".dg-play-table")
    table.locator(".dg-board svg").first.wait_for()
    table.locator(".dg-setup-fold .lm-AccordionPanel-title, .dg-setup-fold .p-Collapse-header, "
                  ".dg-setup-fold .jupyter-widget-Collapse-header").first.click()
    table.locator(".dg-players select").select_option(label="3")
    settle(page, ".dg-play-table")
    for select in table.locator(".dg-opponent select").all():
        select.select_option(label="greedy bot")
    seed = table.locator(".dg-seed input")
    seed.fill(str(SEED))
    seed.press("Enter")
    table.locator("button.dg-start-game").click()
    page.wait_for_function("document.querySelector('.dg-play-table .dg-board').dataset.round == '1'")
    settle(page, ".dg-play-table")
    if lang == "zh":
        page.locator(".dg-dash-header .dg-lang-toggle button", has_text="繁體中文").click()
        page.wait_for_function("document.querySelector('.dg-play-table .dg-board').getAttribute('lang') == 'zh-Hant'")
        settle(page, ".dg-play-table")


def board_ready(page) -> None:
    """Wait until it is the human's turn (board unlocked), a round is shown resolving on the
    board (issue 24) or the game is over."""
    page.wait_for_function("""() => {
      const b = document.querySelector('.dg-play-table .dg-board');
      return b && (b.dataset.phase == 'over' || b.dataset.locked == '0' || b.dataset.resolving);
    }""", timeout=60_000)
    settle(page, ".dg-play-table", 200)


def step_on_after_resolution(page) -> bool:
    """If the board shows a round resolving: one "Next room" (the board reveals the next step),
    then "Next round ▶" / "Final result ▶"; True if it did."""
    board = page.locator(".dg-play-table .dg-board").first
    if not board.get_attribute("data-resolving"):
        return False
    step = board.get_attribute("data-step")
    nxt = page.locator(".dg-play-table button.dg-story-next").first
    if not nxt.is_disabled():
        nxt.click()
        page.wait_for_function("s => document.querySelector('.dg-play-table .dg-board').dataset.step != s",
                               arg=step, timeout=30_000)
    page.locator(".dg-play-table button.dg-next-round").first.click()
    page.wait_for_function("() => !document.querySelector('.dg-play-table .dg-board').dataset.resolving",
                           timeout=60_000)
    return True


def enabled(page, prefix: str) -> list[str]:
    return page.eval_on_selector_all(
        f".dg-play-table [data-target^='{prefix}'][aria-disabled='false']",
        "els => els.map(e => e.dataset.target)")


def click_target(page, target: str) -> None:
    page.locator(f".dg-play-table [data-target='{target}']").first.click()


def play_by_clicking(page, rng: random.Random, saw_lock: list[bool]) -> list[str]:
    """Play the human's moves on the board; return the target ids clicked (the choices)."""
    clicks = []
    page.evaluate("""() => { window.dgLocked = [];
      new MutationObserver(() => { const b = document.querySelector('.dg-play-table .dg-board');
        const s = document.querySelector('.dg-play-table .dg-status');
        if (b && b.dataset.locked == '1' && b.dataset.phase != 'over' && !b.dataset.resolving)
          window.dgLocked.push(s ? s.innerText : '');
      }).observe(document.querySelector('.dg-play-table'), {subtree: true, childList: true, attributes: true}); }""")
    for _ in range(80):
        board_ready(page)
        if step_on_after_resolution(page):  # a round shown resolving: step on (issue 24)
            continue
        if page.locator(".dg-play-table .dg-board").first.get_attribute("data-phase") == "over":
            saw_lock.extend(page.evaluate("window.dgLocked"))
            return clicks
        setup = page.locator(".dg-play-table .dg-board").first.get_attribute("data-phase") == "setup"
        hands = enabled(page, "hand-")
        picks = rng.sample(hands, 2) if setup else [rng.choice(hands)]
        for h in picks:
            click_target(page, h)
            page.wait_for_selector(f".dg-play-table [data-target='{h}'][aria-pressed='true']")
        second = ["exhaust"] if setup else enabled(page, "slot-")
        page.wait_for_selector(f".dg-play-table [data-target='{second[0]}'][aria-disabled='false']")
        pick = rng.choice(second)
        clicks.append(f"{' '.join(picks)} {pick}")
        before = page.locator(".dg-play-table .dg-board").first.get_attribute("data-actions")
        click_target(page, pick)
        page.wait_for_function("b => document.querySelector('.dg-play-table .dg-board').dataset.actions != b",
                               arg=before, timeout=60_000)
    raise AssertionError("the game did not end after 80 human moves and resolutions")


def engine_gold(clicks: list[str]) -> list[int]:
    """The same game computed here: the human's clicks turned into the engine's actions."""
    from dungeon_guilds.board_targets import board_targets

    game = Game(list(DEFAULT_NAMES[:3]), seed=SEED, rules=Rules())
    bots = {s: make_bot(name, seed=SEED * 10 + s) for s, name in zip((1, 2), OPPONENTS)}
    human = iter(clicks)
    while not game.is_over:
        st = game.state
        if st.current == 0:
            *hands, target = next(human).split()
            chosen = tuple(int(h.split("-")[1]) for h in hands)
            action = board_targets(st, 0, chosen, "en")[target].action
        else:
            action = bots[st.current].choose(st.copy(), st.current)
        game.push(action)
    assert next(human, None) is None
    return list(game.state.gold)


def inside(box, view) -> bool:
    return box and box["x"] >= 0 and box["y"] >= 0 and box["x"] + box["width"] <= view["width"] + 1 \
        and box["y"] + box["height"] <= view["height"] + 1


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_whole_game_played_on_the_board_only(browser, voila_server, tmp_path, lang):
    context = browser.new_context(viewport=VIEW, locale="en-US")
    context.set_default_timeout(30_000)
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        open_dashboard(page, voila_server)
        start_play(page, lang)
        board_ready(page)
        board = page.locator(".dg-play-table .dg-board svg").first.bounding_box()
        side = page.locator(".dg-play-table .dg-side").first.bounding_box()
        status = page.locator(".dg-play-table .dg-status").first.bounding_box()
        page.screenshot(path=str(shots(tmp_path) / f"play-{lang}-1024.png"))
        assert inside(board, VIEW), board  # the whole board without scrolling
        assert inside(status, VIEW) and side["x"] < VIEW["width"], (status, side)
        locked: list[str] = []
        clicks = play_by_clicking(page, random.Random(11), locked)
        page.screenshot(path=str(shots(tmp_path) / f"play-{lang}-end.png"))
        shown = page.eval_on_selector_all(".dg-play-table .dg-board svg .dg-player",
                                          "els => els.map(e => Number(e.dataset.gold))")
        assert shown == engine_gold(clicks)
        assert locked, "the board was never seen locked during a bot's turn"
        assert any(("Bo" in s or "Cy" in s) for s in locked), locked[:3]  # it says whose turn
        assert "Traceback" not in page.content()
        assert not errors, errors
    finally:
        context.close()


def test_one_move_by_keyboard_only_in_learn(browser, voila_server, tmp_path):
    context = browser.new_context(viewport=VIEW, locale="en-US")
    context.set_default_timeout(30_000)
    page = context.new_page()
    try:
        open_dashboard(page, voila_server)
        learn = page.locator(".dg-stepper")
        learn.locator(".dg-board [data-target='hand-1']").wait_for()
        page.screenshot(path=str(shots(tmp_path) / "learn-en-1024.png"))
        learn.locator(".dg-board [data-target='hand-1']").focus()
        page.keyboard.press("Enter")  # exhaust strength 1 ...
        page.wait_for_selector(".dg-stepper [data-target='hand-1'][aria-pressed='true']")
        page.keyboard.press("ArrowRight")  # ... and strength 2
        page.keyboard.press("Enter")
        page.wait_for_selector(".dg-stepper [data-target='exhaust'][aria-disabled='false']")
        page.wait_for_function("document.activeElement && document.activeElement.dataset.target == 'exhaust'")
        page.keyboard.press("Enter")
        page.wait_for_function("document.querySelector('.dg-stepper .dg-message').innerText.includes('exhaust 1 and 2')")
        assert page.locator(".dg-stepper .dg-board").first.get_attribute("data-locked") == "1"  # a bot to move
        assert "Bo" in page.locator(".dg-stepper .dg-status").first.inner_text()
    finally:
        context.close()
