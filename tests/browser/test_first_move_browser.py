"""Issue 24, items 1 and 6 in a real browser (Voila + Chromium, fixtures in conftest.py).

* Learn's first move made exactly as the guide says — "click two cards in your hand, then the
  green button" — with the green **Step ▶**: the gold shown is the engine's for that exhaust
  (R2.4), never the hidden "Legal actions" selection's; Step with nothing chosen says what to do.
* "▶▶ end of round" is disabled with a tooltip saying why while the human must move.
* Play: the folded "Game set-up", opened and then "Start game" pressed, folds away again.
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
