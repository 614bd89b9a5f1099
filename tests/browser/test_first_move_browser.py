"""Issue 24, items 1, 3 and 6 in a real browser (Voila + Chromium, fixtures in conftest.py).

* Learn's first move made exactly as the guide says — "click two cards in your hand, then the
  green button" — with the green **Step ▶**: the gold shown is the engine's for that exhaust
  (R2.4), never the hidden "Legal actions" selection's; Step with nothing chosen says what to do.
* "▶▶ end of round" is disabled with a tooltip saying why while the human must move.
* Play: the folded "Game set-up", opened and then "Start game" pressed, folds away again.
* Learn shows round 1 resolving on the board, room by room, before round 2 is dealt (item 3).
"""

from __future__ import annotations

import pytest

from dungeon_guilds import Game, Rules, i18n
from dungeon_guilds.app.dashboard import LEARN_SETTINGS
from dungeon_guilds.game import DEFAULT_NAMES

from test_dashboard_browser import click_tab, open_dashboard, settle, shown_gold  # noqa: E402 - same folder

pytestmark = pytest.mark.browser


def guided_gold(a: int, b: int) -> list[int]:
    """The engine's gold after the human (seat 1) exhausts ``a`` and ``b`` (R2.4)."""
    s = LEARN_SETTINGS
    game = Game(list(DEFAULT_NAMES[:s["players"]]), seed=s["seed"], rules=Rules())
    game.push(next(x for x in game.legal_actions() if i18n.action_text(x, "en", game.state) == f"exhaust {a} and {b}"))
    return list(game.state.gold)


def test_the_guided_first_move_plays_the_cards_chosen_on_the_board(page, voila_server):
    open_dashboard(page, voila_server)
    settle(page, ".dg-stepper")
    learn = page.locator(".dg-stepper")
    assert "Click two cards in your hand" in learn.locator(".dg-guide").inner_text()
    run = learn.locator("button.dg-to-round")
    assert run.is_disabled() and "after your move" in run.get_attribute("title")

    learn.locator("button.dg-step").click()  # nothing chosen: a sentence, no move
    page.wait_for_function("document.querySelector('.dg-stepper .dg-message').innerText.includes('Nothing chosen')")
    assert shown_gold(page, ".dg-stepper") == {0: 2, 1: 2, 2: 2}

    for strength in (4, 5):  # as the guide says: two cards of the hand …
        learn.locator(f"[data-target='hand-{strength}']").click()
        page.wait_for_selector(f".dg-stepper [data-target='hand-{strength}'][aria-pressed='true']")
    learn.locator("button.dg-step").click()  # … then the green button
    page.wait_for_function("document.querySelector('.dg-stepper .dg-message').innerText.includes('exhaust 4 and 5')")
    settle(page, ".dg-stepper")
    want = guided_gold(4, 5)
    assert want[0] == 7  # 2 + heal costs of 4 and 5 ($2 + $3), not the list's "exhaust 1 and 2" (+$1)
    assert shown_gold(page, ".dg-stepper") == dict(enumerate(want))
    assert not run.is_disabled()  # a bot is to move now
    assert not page.console_errors, page.console_errors


def test_play_folds_its_set_up_after_start_game(page, voila_server):
    open_dashboard(page, voila_server)
    click_tab(page, "Play")
    table = page.locator(".dg-play-table")
    table.locator(".dg-board svg").first.wait_for()
    settle(page, ".dg-play-table")
    fold = table.locator(".dg-setup-fold")
    fold.locator(".lm-AccordionPanel-title, .jupyter-widget-Collapse-header").first.click()
    table.locator("button.dg-start-game").wait_for(state="visible")
    table.locator("button.dg-start-game").click()
    table.locator("button.dg-start-game").wait_for(state="hidden", timeout=20_000)
    assert not page.console_errors, page.console_errors


def test_learn_shows_round_1_resolving_on_the_board_before_round_2(browser, voila_server, tmp_path):
    """Issue 24, item 3: after the last placement of round 1, Learn's board still shows round
    1's rooms with their adventurers; "Next room" reveals the next room (its outcome and the
    seats' gold, the engine's); round 2 is dealt only after "Next round ▶". Screenshots of a
    room revealed mid-resolution, 1024×768, en and zh (``DG_SHOTS`` or pytest's tmp dir)."""
    import random

    from test_board_browser import shots

    context = browser.new_context(viewport={"width": 1024, "height": 768}, locale="en-US")
    context.set_default_timeout(60_000)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        open_dashboard(page, voila_server)
        settle(page, ".dg-stepper")
        learn = page.locator(".dg-stepper")
        board = learn.locator(".dg-board").first
        rng = random.Random(24)
        for strength in (4, 5):
            learn.locator(f"[data-target='hand-{strength}']").click()
            page.wait_for_selector(f".dg-stepper [data-target='hand-{strength}'][aria-pressed='true']")
        learn.locator("button.dg-step").click()
        for _ in range(60):
            settle(page, ".dg-stepper", 300)
            if board.get_attribute("data-resolving"):
                break
            before = board.get_attribute("data-actions")
            if board.get_attribute("data-locked") == "1":  # a bot's turn: Step ▶
                learn.locator("button.dg-step").click()
            else:  # Ann: a card, then a free slot
                hands = learn.locator(".dg-board [data-target^='hand-'][aria-disabled='false']")
                hands.nth(rng.randrange(hands.count())).click()
                slot = learn.locator(".dg-board [data-target^='slot-'][aria-disabled='false']").first
                slot.wait_for()
                slot.click()
            page.wait_for_function("b => { const e = document.querySelector('.dg-stepper .dg-board');"
                                   " return e.dataset.actions != b || e.dataset.resolving; }", arg=before)
        assert board.get_attribute("data-resolving") == "1" and board.get_attribute("data-round") == "1"
        assert learn.locator(".dg-board .dg-token").count() >= 6  # the round's adventurers stay
        assert learn.locator(".dg-board .dg-room[data-status='pending']").count() >= 1
        learn.locator("button.dg-story-next").click()  # the next room revealed
        page.wait_for_function("document.querySelector('.dg-stepper .dg-board').dataset.step == '1'")
        settle(page, ".dg-stepper")
        assert learn.locator(".dg-board .dg-room-now").count() == 1
        assert learn.locator(".dg-board .dg-room[data-status='cleared'], .dg-board .dg-room[data-status='failed']"
                             ).count() >= 2
        page.screenshot(path=str(shots(tmp_path) / "en-01d-learn-resolving.png"))
        page.locator(".dg-dash-header .dg-lang-toggle button", has_text="繁體中文").click()
        page.wait_for_function("document.querySelector('.dg-stepper .dg-board svg .dg-board-title')"
                               ".textContent.includes('結算')")
        settle(page, ".dg-stepper")
        page.screenshot(path=str(shots(tmp_path) / "zh-01d-learn-resolving.png"))
        learn.locator("button.dg-next-round").click()
        page.wait_for_function("() => { const b = document.querySelector('.dg-stepper .dg-board');"
                               " return !b.dataset.resolving && b.dataset.round == '2'; }")
        assert learn.locator(".dg-board .dg-token").count() == 0  # round 2 dealt, empty
        assert not errors, errors
    finally:
        context.close()
