"""The drawn board (drawing/board_svg.py, its targets from board_targets.py) and its clickable widget (widgets/board.py): targets are
the engine's legal moves, costs are the engine's fees (R4.4, R4.5), refusals the engine's
reasons, hidden choices stay hidden (R2.4), and Game's redo line (one home for undo/redo)."""

from __future__ import annotations

import re

from dungeon_guilds import Game
from dungeon_guilds.actions import BUMP, SWAP, Action
from dungeon_guilds.board_targets import board_targets
from dungeon_guilds.drawing.board_svg import board_svg_html
from dungeon_guilds.rule_cards import rule_lines_for
from dungeon_guilds.widgets.board import GameBoard


def dispatch_game(seed: int = 1) -> Game:
    g = Game(3, seed=seed)
    g.exhaust_randomly()
    return g


def test_root_and_targets_are_accessible_buttons():
    g = dispatch_game()
    st = g.state
    html = board_svg_html(st, "en", targets=board_targets(st, st.current, (), "en"))
    assert html.startswith('<div class="dg-board"')
    buttons = re.findall(r'<g class="dg-target[^"]*" role="button" tabindex="(-?\d)" aria-disabled="(\w+)"'
                         r'[^>]*data-target="([^"]+)" aria-label="([^"]+)"', html)
    assert buttons and all(label for *_, label in buttons)
    assert {b[2] for b in buttons} == {f"hand-{s}" for s in range(1, 6) if st.active[st.current] >> s & 1}
    assert all((tab == "0") == (disabled == "false") for tab, disabled, *_ in buttons)


def test_enabled_slot_targets_are_exactly_the_engines_legal_moves():
    g = dispatch_game(3)
    for _ in range(4):  # a few moves in, so rooms fill and replacing becomes possible
        g.push(g.legal_actions()[-1])
    st = g.state
    legal = set(st.legal_actions())
    for s in {a.strength for a in legal}:
        targets = board_targets(st, st.current, (s,), "en")
        on = {t.action for k, t in targets.items() if k.startswith("slot-") and t.enabled}
        assert on == {a for a in legal if a.strength == s}
        for t in targets.values():
            if t.id.startswith("slot-") and not t.enabled:
                err = st.refusal(t.action)
                assert t.reason.startswith(str(err))  # the engine's words ...
                lines = rule_lines_for(err, "en")
                assert lines and all(x in t.reason for x in lines)  # ... and its rule in words (issue 19)


def test_replace_targets_state_the_engines_cost_before_the_click():  # R4.4, R4.5
    g = dispatch_game(3)
    for _ in range(6):
        g.push(g.legal_actions()[-1])
        st = g.state
        for a in st.legal_actions():
            if a.kind not in (BUMP, SWAP):
                continue
            t = board_targets(st, st.current, (a.strength,), "en")[f"slot-{a.room}-{a.slot}"]
            bank, owner_gets, owner = st.action_fees(a)
            assert f"${bank} to the bank" in t.label
            if owner_gets:
                assert f"${owner_gets} to {st.names[owner]}" in t.label


def test_action_fees_are_what_the_move_takes():  # R4.4, R4.5
    g = dispatch_game(3)
    seen = 0
    for _ in range(12):
        st = g.state
        if st.is_over:
            break
        for a in st.legal_actions():
            if a.kind in (BUMP, SWAP):
                bank, owner_gets, owner = st.action_fees(a)
                after = st.copy()
                after.hold_resolution = True
                after.apply_action(a)
                assert st.gold[st.current] - after.gold[st.current] == bank + owner_gets
                seen += 1
        g.push(st.legal_actions()[-1])
    assert seen


def test_other_players_secret_exhaust_choice_is_not_drawn():  # R2.4
    g = Game(3, seed=1)
    g.push(Action("exhaust", 1, other=2))
    g.push(Action("exhaust", 4, other=5))  # Bo's secret choice
    html = board_svg_html(g.state, "en", viewer=0)
    bo = re.search(r'<g class="dg-player[^"]*" data-seat="1".*?</g></g>', html, re.S)
    assert 'dg-card-unknown' in html and "strength 4: exhausted" not in bo.group(0)


def test_clicks_play_refuse_and_keep_the_choice():
    g = dispatch_game()
    board = GameBoard()
    said = []
    board.on_move = lambda a: (g.push(a), board.show(g.state, "en", g.state.current))
    board.on_refused = said.append
    board.show(g.state, "en", g.state.current)
    s = next(k for k, t in board.targets.items() if t.enabled)
    board.click(s)
    assert board.selected == (int(s.split("-")[1]),) and board.focus_target.startswith("slot-")
    ply = g.ply
    board.click(board.focus_target)
    assert g.ply == ply + 1
    board.show(g.state, "en", None)
    assert board.locked and board.targets == {}


def test_game_redo_line_replaces_the_steppers_own_branch():
    g = dispatch_game()
    for _ in range(3):
        g.push(g.legal_actions()[0])
    line = g.line
    g.undo(2)
    assert g.line == line and g.line_length == g.ply + 2
    g.redo(2)
    assert g.line == line
    g.go_to(g.ply - 1)
    other = next(a for a in g.legal_actions() if a != line[g.ply])
    g.push(other)
    assert g.line_length == g.ply and g.line[-1] == other


def test_the_board_in_words_follows_every_move_in_the_boards_language():  # issue 32
    from dungeon_guilds.drawing.board_text import board_text_html

    g = dispatch_game()
    board = GameBoard()
    board.on_move = lambda a: (g.push(a), board.show(g.state, "zh", g.state.current, g.state.current, g.log))
    board.show(g.state, "zh", g.state.current, g.state.current, g.log)
    uid = f"dg{board.model_id[:8]}"
    assert board.description == board_text_html(g.state, "zh", g.state.current, g.log, uid=uid)
    assert f'id="{uid}-text"' in board.description and 'role="region"' in board.description
    seat = g.state.current
    hand = next(k for k, t in board.targets.items() if t.enabled)
    board.click(hand)
    board.click(board.focus_target)  # the first allowed slot: the move is played
    assert board.description == board_text_html(g.state, "zh", g.state.current, g.log, uid=uid)
    strength = int(hand.split("-")[1])
    assert f"座位 {seat + 1} · {g.names[seat]}，力量 {strength}" in board.description  # the new occupant
    assert f"輪到座位 {g.state.current + 1} · {g.names[g.state.current]}" in board.description
