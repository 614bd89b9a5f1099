"""Learn and Play on the drawn board: bots' turns lock the human's controls and say whose turn
it is; hints only for the human; the resolution told room by room with the engine's numbers
(R5.1, R5.2, R6.1); the round log stays after the round; the guided first round can be
skipped; the set-up folds away once a game starts."""

from __future__ import annotations

import random
import re

from dungeon_guilds.widgets.narration import resolution_steps, round_log_html
from dungeon_guilds.widgets.play_table import PlayTable
from dungeon_guilds.widgets.stepper import RoundStepper

FIRST = "first"


def play_human_by_board(app, rng: random.Random) -> None:
    """One human decision made by clicking the board (random legal targets)."""
    b = app.board
    hands = [k for k, t in b.targets.items() if k.startswith("hand-") and t.enabled]
    if app.game.state.phase == "setup":
        for k in rng.sample(hands, 2):
            b.click(k)
        b.click("exhaust")
        return
    b.click(rng.choice(hands))
    b.click(rng.choice([k for k, t in b.targets.items() if k.startswith("slot-") and t.enabled]))


def test_bots_turns_lock_the_board_and_say_whose_turn(monkeypatch):
    seen = []
    p = PlayTable(players=3, opponents=[FIRST, FIRST], seed=4, start=False, bot_delay=0.001)
    original = p.refresh

    def spy():
        original()
        if p.bot_moving:
            seen.append((p.board.locked, p.board.targets, p.status_html.value, p.hints_html.value))

    monkeypatch.setattr(p, "refresh", spy)
    p.hints_checkbox.value = True
    p.start()
    rng = random.Random(1)
    while not p.game.is_over:
        if p.resolving is not None:  # a round shown resolving on the board: step on (issue 24)
            assert p.board.locked and p.board.targets == {}
            p.next_round_button.click()
            continue
        assert not p.board.locked and p.game.current == p.human
        play_human_by_board(p, rng)
        assert p.last_error is None, p.last_error
    assert seen
    for locked, targets, status, hints in seen:
        assert locked and targets == {} and hints == ""
        assert "is moving" in status and ("Bo" in status or "Cy" in status)


def test_resolution_is_told_room_by_room_with_the_engines_numbers():
    s = RoundStepper(players=3, seats=["human", FIRST, FIRST], seed=2, timeline=False)
    rng = random.Random(3)
    while s.game.state.round == 0:
        if s.board.locked:
            s.step()
        else:
            play_human_by_board(s, rng)
    log = s.game.log
    outcomes = [ev for ev in log if ev["kind"] in ("cleared", "failed") and ev["round"] == 1]
    steps = s.story.steps
    assert steps == resolution_steps(log, 1, s.game.names, "en")
    for ev, text in zip(outcomes, steps):
        assert f"Room {ev['room']}:" in text and f"= {ev['total']} against defence {ev['defence']}" in text
        for seat, gold in ev.get("shares", {}).items():
            assert f"{s.game.names[int(seat)]} ${gold}" in text
    for ev in (e for e in log if e["kind"] == "healed"):
        assert any(f"{s.game.names[ev['player']]}" in x and f"${ev['paid']}" in x for x in steps)
    s.story.go(len(steps) - 1)
    assert s.story.next_button.disabled and not s.story.prev_button.disabled
    assert s.guide_html.value and "Round 1 is over" in s.guide_html.value
    s.skip_guide_button.click()
    assert s.guide_html.value == ""
    # round 2 has started: round 1 is still in the log, folded
    html = round_log_html(log, s.game.names, "en")
    assert '<details class="dg-round-log" data-round="1">' in html and 'data-round="2" open' in html
    assert s.setup_box.selected_index is None


def test_learn_board_locks_on_a_bots_turn_and_hints_are_for_people_only():
    s = RoundStepper(players=3, seats=[FIRST, "human", FIRST], seed=1, hints=True, timeline=False)
    assert s.game.current == 0 and s.board.locked and s.hints_html.value == ""
    assert "Seat 1 · Ann (first-legal bot) to move" in s.status_html.value
    s.step()
    assert s.game.current == 1 and not s.board.locked and s.hints_html.value
    s.run("game")  # stops at the human's turn with a message
    assert s.game.current == 1 and s.message_text == "Waiting for Bo (human) to move."


def test_a_bots_exhausted_pair_stays_secret_in_the_message_line():
    """Issue 40 (R2.4): Learn's message line said "Bo (greedy bot): exhaust 4 and 5"."""
    from dungeon_guilds import Rules
    from dungeon_guilds.widgets.stepper import RoundStepper

    for lang in ("en", "zh"):
        s = RoundStepper(players=3, seats=["greedy", "greedy", "greedy"], seed=1, rules=Rules(lords="none"), lang=lang)
        s.step()
        assert "R2.4" in s.message_text and not re.search(r"[1-5] (and|和) [1-5]", s.message_text), s.message_text
