"""Issue 24, item 1 and 6: Step ▶ never plays a hidden selection in the student's name, and the
"play on" buttons say why they wait while it is the human's move.

Learn's guide says "click two cards in your hand, then the green button". Step ▶ used to play
the move selected in the folded "Legal actions" list ("exhaust 1 and 2", +$1) and drop the
board's choice (4 and 5, +$5) without a word."""

from __future__ import annotations

import pytest

pytest.importorskip("ipywidgets")

from dungeon_guilds import i18n  # noqa: E402
from dungeon_guilds.widgets.stepper import RoundStepper  # noqa: E402


@pytest.fixture
def stepper():
    return RoundStepper(players=3, seats=["human", "greedy", "greedy"], seed=1, timeline=False)


def test_step_plays_the_two_cards_chosen_on_the_board(stepper):
    heal = stepper.game.state.base_heal
    stepper.board.click("hand-4")
    stepper.board.click("hand-5")
    stepper.step_button.click()
    assert stepper.game.ply == 1
    assert stepper.game.state.gold[0] == 2 + heal[4] + heal[5] == 7  # R2.4: their heal costs, now
    assert "exhaust 4 and 5" in stepper.message.value


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_step_with_nothing_chosen_refuses_with_a_sentence_and_plays_nothing(stepper, lang):
    stepper.lang = lang
    assert stepper.action_dropdown.value is not None  # a hidden selection exists …
    stepper.step_button.click()
    assert stepper.game.ply == 0  # … and is not played
    assert i18n.t("msg.step_choose_exhaust", lang) in stepper.message.value
    stepper.board.click("hand-4")
    stepper.step_button.click()
    assert stepper.game.ply == 0 and stepper.board.selected == (4,)
    assert i18n.t("msg.step_pick_second", lang, strength=4) in stepper.message.value


def test_one_card_chosen_in_dispatch_asks_for_a_slot(stepper):
    stepper.board.click("hand-4")
    stepper.board.click("hand-5")
    stepper.step_button.click()
    stepper.round_button.click()  # the bots exhaust; stops at Ann's first dispatch turn
    assert stepper.game.state.phase == "dispatch" and stepper.game.state.current == 0
    ply = stepper.game.ply
    stepper.step_button.click()
    assert stepper.game.ply == ply and i18n.t("msg.step_choose_move", "en") in stepper.message.value
    card = next(k for k, t in stepper.board.targets.items() if k.startswith("hand-") and t.enabled)
    stepper.board.click(card)
    stepper.step_button.click()
    assert stepper.game.ply == ply
    assert "click a slot" in stepper.message.value


def test_the_legal_actions_list_plays_only_while_it_is_shown(stepper):
    stepper.advanced_box.selected_index = 0  # Advanced open: the list is in view
    action = stepper.action_dropdown.value
    stepper.step_button.click()
    assert stepper.game.ply == 1 and stepper.game.line[0] == action


def test_play_on_buttons_are_disabled_with_a_reason_on_the_humans_turn(stepper):
    for b in (stepper.phase_button, stepper.round_button, stepper.game_button):
        assert b.disabled and "Ann" in b.tooltip and "after your move" in b.tooltip
    stepper.board.click("hand-1")
    stepper.board.click("hand-2")
    stepper.step_button.click()  # now a bot is to move
    for b in (stepper.phase_button, stepper.round_button, stepper.game_button):
        assert not b.disabled and b.tooltip == ""


def test_the_learn_log_keeps_the_bots_exhaust_choices_secret(stepper):
    """R2.4: the bots choose in secret; their hands are drawn face down, so the log below the
    board must not name their two cards either (it did)."""
    stepper.board.click("hand-4")
    stepper.board.click("hand-5")
    stepper.step_button.click()
    stepper.round_button.click()
    secret = [ev for ev in stepper.game.log if ev["kind"] == "exhausted" and ev["player"] != 0]
    assert len(secret) == 2
    for ev in secret:
        assert i18n.event_text(ev, stepper.game.names, "en") not in stepper.log_html.value
        assert i18n.event_text(ev, stepper.game.names, "en", secret_exhaust=True) in stepper.log_html.value
