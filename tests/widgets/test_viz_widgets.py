"""The apps driven headless: set widget values and click, as a user would, for a full round, an
undo, an illegal choice, the language switch; no callback lets an exception out."""

from __future__ import annotations

import re

import pytest

from dungeon_guilds import Game, Rules, i18n, parse
from dungeon_guilds.drawing.display import board_tables_html, game_html
from dungeon_guilds.payout import NPC
from dungeon_guilds.viz import events
from dungeon_guilds.widgets.common import LanguageState
from dungeon_guilds.widgets.figures import figure_bundle
from dungeon_guilds.widgets.moves import FALLBACK_BOT, HUMAN, bot_names
from dungeon_guilds.widgets.explorers import PayoutExplorer, TurnOrderExplorer
from dungeon_guilds.widgets.play_table import PlayTable
from dungeon_guilds.widgets.stepper import RoundStepper

FIRST = FALLBACK_BOT  # deterministic and fast: the engine's first legal action


def text(html: str) -> str:
    """What a reader sees: tags gone (money's own ``<tspan>``/``<span>`` joined to its
    number, issue 40), entities read."""
    from html import unescape

    return unescape(re.sub(r"<[^>]+>", " ", re.sub(r"</?t?span>", "", html)))


def human_step(s: RoundStepper, index: int = 0) -> None:
    """A move from the "Legal actions" list: Step plays it only while the list is shown."""
    s.advanced_box.selected_index = 0
    s.action_dropdown.value = s.action_dropdown.options[index][1]
    s.step_button.click()


# ---------------------------------------------------------------------- RoundStepper
def test_stepper_plays_a_full_round_with_a_human_and_bots():
    s = RoundStepper(players=3, seats=[HUMAN, FIRST, FIRST], seed=4)
    assert s.seats == [HUMAN, FIRST, FIRST]
    assert s.game.phase == "setup" and s.game.current == 0
    steps = 0
    while s.game.state.round == 0 and steps < 100:
        if s.controller(s.game.current) == HUMAN:
            human_step(s, -1)
        else:
            s.step_button.click()
        assert s.last_error is None, s.message_text
        steps += 1
    assert s.game.state.round == 1
    assert s.game.state.round_results[0]["round"] == 1
    # everything on screen comes from the engine's state
    assert s.jump_slider.value == s.game.ply == steps
    assert [a for _, a in s.action_dropdown.options] == s.game.legal_actions()
    assert 'data-round="2"' in s.board_html.value
    assert s.timeline_figure is not None and "round 2" in s.timeline_figure.layout.title.text
    assert "Round 1 resolution" in s.board_html.value
    # round 2 has no turn yet: a line says the chart comes with the first move (no empty chart)
    assert len(s.timeline_output.outputs) == 1
    waiting = s.timeline_output.outputs[0]["data"]
    assert "application/vnd.plotly.v1+json" not in waiting
    assert "round 2" in waiting["text/html"] and "appears with the first move" in waiting["text/html"]
    if s.resolving is not None:  # round 1 is shown resolving on the board: step on (issue 24)
        s.next_round_button.click()
    assert s.resolving is None
    if s.controller(s.game.current) == HUMAN:
        human_step(s, -1)
    else:
        s.step_button.click()
    assert len(s.timeline_output.outputs) == 1
    assert "application/vnd.plotly.v1+json" in s.timeline_output.outputs[0]["data"]


def test_stepper_bots_play_to_the_end_of_phase_round_and_game():
    s = RoundStepper(players=4, seats=[FIRST] * 4, seed=2, rules=Rules(lords="all", npc=True))
    s.phase_button.click()
    assert s.game.phase == "dispatch" and s.game.state.round == 0
    s.round_button.click()
    assert s.game.state.round == 1
    s.game_button.click()
    assert s.game.is_over
    assert s.message_text.startswith("The game is over. Winner(s):")
    assert s.resolving is not None  # the last round is shown resolving on the board (issue 24) ...
    s.next_round_button.click()  # ... until "Final result ▶"
    assert s.resolving is None and s.step_button.disabled
    s.step_button.click()  # harmless once over
    assert s.last_error is None


def test_stepper_stops_for_a_human_when_bots_run():
    s = RoundStepper(players=3, seats=[FIRST, HUMAN, FIRST], seed=1)
    s.round_button.click()
    assert s.game.current == 1
    assert s.message_text == "Waiting for Bo (human) to move."


def test_stepper_undo_and_jump_back_and_forward_along_the_same_line():
    s = RoundStepper(players=3, seats=[FIRST] * 3, seed=7)
    s.round_button.click()
    end = s.game.ply
    final = (list(s.game.state.gold), list(s.game.state.slot_owner), len(s.game.log))
    s.undo_button.click()
    assert s.game.ply == end - 1 and s.message_text == "Took back one step."
    s.jump_slider.value = 2
    assert s.game.ply == 2
    replay = Game(3, seed=7)  # the same two decisions, taken by the engine directly
    for action in s.game.line[:2]:
        replay.push(action)
    assert s.game.log == replay.log
    s.jump_slider.value = end
    assert s.game.ply == end
    assert (list(s.game.state.gold), list(s.game.state.slot_owner), len(s.game.log)) == final
    # a different move from an earlier step starts a new line: the old future is dropped
    s.jump_slider.value = 3
    options = [a for _, a in s.action_dropdown.options]
    other = options[-1] if options[-1] != s.game.line[3] else options[0]
    s.builder.set(other)
    s.builder.try_button.click()
    assert s.game.ply == 4 and s.jump_slider.max == 4
    s.undo_button.click()
    s.undo_button.click()
    s.jump_slider.value = 0
    s.undo_button.click()
    assert s.message_text == "Nothing to take back." and s.game.ply == 0


def test_stepper_shows_the_engines_reason_for_an_illegal_choice():
    s = RoundStepper(players=3, seats=[HUMAN] * 3, seed=1)
    s.builder.set(parse("place 3 1"))  # still in setup
    s.builder.try_button.click()
    reason = s.game.state.why_illegal(parse("place 3 1"))
    assert s.message_text == f"Not allowed: {reason}"
    assert s.game.ply == 0
    for _ in range(3):
        human_step(s)
    before = (s.game.ply, list(s.game.state.slot_owner))
    s.builder.set(parse("bump 5 2a"))
    s.builder.try_button.click()
    assert s.message_text == "Not allowed: " + s.game.state.why_illegal(parse("bump 5 2a"))
    assert s.message_level == "warn"
    assert (s.game.ply, list(s.game.state.slot_owner)) == before  # nothing changed
    s.lang = "zh"  # the message is written again in Chinese, from the engine's words
    assert s.message_text == i18n.illegal_text(s.game.state.refusal(parse("bump 5 2a")), "zh")
    assert s.message_text.startswith("不合法：房間 2a 是空位")


def test_stepper_language_switch_relabels_everything():
    shared = LanguageState(lang="en")
    s = RoundStepper(players=3, seats=[HUMAN, FIRST, FIRST], seed=3, lang_state=shared)
    human_step(s)
    lord = s.game.state.lord
    assert lord.name_en in s.board_html.value
    shared.lang = "zh"
    assert s.step_button.description == "下一步 ▶"
    assert s.undo_button.description == "↶ 悔棋"
    assert lord.name_zh in s.board_html.value and "房間" in s.board_html.value
    assert all(re.search(r"[\u4e00-\u9fff]", label) for label, _ in s.action_dropdown.options)
    assert s.message_text.startswith("Ann：消耗")
    assert s.seat_dropdowns[0].label == "真人玩家"
    assert s.timeline_figure.layout.title.text.startswith("行動順序")
    assert "第" in s.log_html.value
    s.language_toggle.value = "en"  # the toggle drives the shared state
    assert shared.lang == "en" and s.step_button.description == "Step ▶"


def test_stepper_options_refused_by_the_engine_are_shown_not_raised():
    s = RoundStepper(players=3, seats=[FIRST] * 3, seed=1)
    game = s.game
    s.teams_dropdown.value = "2v2"
    s.new_game_button.click()
    assert s.message_text == "teams 2v2 needs 4 players, not 3 (R10.1)"
    assert s.game is game  # the old game stays
    s.lang = "zh"
    assert s.message_text == "錯誤：組隊 2v2 需要 4 位玩家，不是 3 位（R10.1）"


def test_an_unexpected_error_in_a_callback_becomes_a_friendly_message(widget_errors):
    class Broken:
        def choose(self, state, player):
            raise RuntimeError("the bot fell over")

    s = RoundStepper(players=3, seats=[FIRST] * 3, seed=1)
    s._bots[(0, FIRST)] = Broken()
    s.step_button.click()  # must not raise
    assert s.message_level == "error"
    assert s.message_text.startswith("Something went wrong (RuntimeError); nothing was changed.")
    assert "Traceback" not in s.message.value
    assert isinstance(s.last_error, RuntimeError)
    assert s.game.ply == 0
    assert [r.exc_info[0] for r in widget_errors] == [RuntimeError]  # logged with its traceback


def test_an_error_while_bots_run_keeps_the_moves_already_played_on_screen(widget_errors):
    class Broken:
        def choose(self, state, player):
            raise RuntimeError("no")

    s = RoundStepper(players=3, seats=[FIRST, FIRST, FIRST], seed=1)
    s._bots[(2, FIRST)] = Broken()
    s.game_button.click()
    assert s.game.ply == 2 and s.jump_slider.value == 2  # Ann and Bo chose, Cy's bot failed
    assert 'data-kind="exhausted"' in s.log_html.value
    assert s.message_level == "error"
    assert len(widget_errors) == 1


def test_a_bot_returning_an_illegal_move_is_refused_in_the_engines_words():
    class Cheat:
        def choose(self, state, player):
            return parse("bump 5 1a")

    s = RoundStepper(players=3, seats=[FIRST] * 3, seed=1)
    s.phase_button.click()
    seat = s.game.current
    s._bots[(seat, FIRST)] = Cheat()
    s.step_button.click()
    assert s.message_text.startswith("Not allowed: ")


def test_hints_come_from_the_analysis_module():
    s = RoundStepper(players=3, seats=[HUMAN, FIRST, FIRST], seed=3, hints=True)
    for _ in range(3):
        human_step(s) if s.controller(s.game.current) == HUMAN else s.step_button.click()
    assert s.game.phase == "dispatch"
    assert "dg-hints" in s.hints_html.value
    n_rows = s.hints_html.value.count('class="dg-hint"')
    assert n_rows == min(3, len(s.game.legal_actions()))  # the top three, each with its reason (issue 30)
    assert s.hints_html.value.count("dg-hint-why") == n_rows
    s.hints_checkbox.value = False
    assert s.hints_html.value == ""


def test_every_real_bot_plays_in_the_stepper():
    names = [b for b in bot_names() if b not in (FIRST, "mcts")]
    assert {"random", "greedy"} <= set(names)  # this package's own bots, never skipped
    s = RoundStepper(players=4, seats=(names * 4)[:4], seed=5, timeline=False)
    s.game_button.click()
    assert s.game.is_over and s.last_error is None


# ---------------------------------------------------------------------- explorers
def test_payout_explorer_shows_the_engines_split():
    p = PayoutExplorer()
    assert dict(p.case.shares) == {0: 3, 1: 2}
    assert "odd remainder $1 → Ann" in p.result_html.value
    p.strength_b.value = 3
    assert p.case.to_bank == 1 and dict(p.case.shares) == {0: 2, 1: 2}
    p.lord_dropdown.value = "naughty_kid"
    assert p.case.treasure == 8
    p.owner_b.value = NPC
    assert dict(p.case.shares) == {0: 4} and p.case.to_bank == 4
    p.owner_b.value = 0
    assert p.message_text.startswith("A player has one adventurer of each strength")
    p.lord_dropdown.value = "red_dragon"
    p.rooms_dropdown.value = 5
    p.position_dropdown.value = 5
    assert p.case.treasure == 15 and p.case.position == 5
    assert [t.meta for t in p.figure.data] == ["whole"]
    p.lang = "zh"
    assert "紅龍" in p.result_html.value
    assert p.lord_dropdown.label.startswith("紅龍")
    assert p.owner_a.description == "冒險者 A"


def test_turn_order_explorer_adds_bumps_and_shows_the_engines_order():
    e = TurnOrderExplorer(players=4, start=0)
    assert [tr.seat for tr in e.turns] == [0, 1, 2, 3, 3, 2, 1, 0]
    e.bump_turn.value = 6
    e.bump_victim.value = 0
    e.add_bump_button.click()
    assert e.bumps == [(6, 0)]
    assert [tr.seat for tr in e.turns] == [0, 1, 2, 3, 3, 2, 1, 0, 0]
    assert e.turns[-1].status == events.AGAIN
    assert 'data-seats="0,1,2,3,3,2,1,0,0"' in e.order_html.value
    assert sum(d["weight"] for _, _, d in e.graph.edges(data=True)) == len(e.turns) - 1
    e.bump_turn.value = 7
    e.bump_victim.value = 0  # Ann has nothing in the dungeon at turn 7
    e.add_bump_button.click()
    assert e.message_text == "turn 7: Bo cannot bump Ann here: Ann has no adventurer in the dungeon"
    e.start_dropdown.value = 2
    assert [tr.seat for tr in e.turns][:4] == [2, 3, 0, 1]
    e.lang = "zh"
    assert e.order_html.value.count("順序") == 1
    e.clear_bumps_button.click()
    assert e.bumps == [] and "沒有替換" in e.bumps_html.value
    e.players_dropdown.value = 3
    assert len(e.turns) == 6


def test_turn_order_explorer_reports_a_refused_bump_in_the_engines_words():
    e = TurnOrderExplorer(players=3, bumps=[(2, 0)])  # Ann's adventurer is alone in room 1
    reason = "room 1 is not full: only adventurers in a full room can be bumped (R4.4)"
    [(turn, key, values)] = e.notes
    assert (turn, key, values["player"], values["victim"]) == (2, "msg.bump_impossible", "Bo", "Ann")
    assert (values["reason"].code, values["reason"].params, str(values["reason"])) == (
        "room_not_full", {"room": 1}, reason)
    assert e.message_text == f"turn 2: Bo cannot bump Ann here: {reason}"
    assert [tr.seat for tr in e.turns] == [0, 1, 2, 2, 1, 0]  # the plain snake: nobody bumped
    e.lang = "zh"
    assert e.message_text == "第 2 個行動：Bo 在這裡不能替換 Ann：" + i18n.refusal_text(values["reason"], "zh")
    assert "還有空位" in e.message_text


# ---------------------------------------------------------------------- PlayTable
def test_play_table_plays_a_whole_game_against_bots():
    p = PlayTable(players=3, seat=1, opponents=[FIRST, FIRST], seed=2)
    assert p.opponents() == {0: FIRST, 2: FIRST}
    assert p.shown_state().current == 1 and p.message_text == "Your move, seat 2 · Bo: choose an adventurer on the board."
    assert p.status_html.value.count("Bo") == 1  # whose turn is said once (issue 15)
    assert "exhausts" not in p.bot_log_html.value  # R2.4: the bots choose with the person, not before
    moves = 0
    while not p.game.is_over or p.resolving is not None:
        if p.resolving is not None:  # a round shown resolving on the board: step on (issue 24)
            p.next_round_button.click()
            continue
        assert p.shown_state().current == 1
        p.action_dropdown.value = p.action_dropdown.options[0][1]
        p.play_button.click()
        assert p.last_error is None
        moves += 1
        if moves == 1:  # the setup: every seat's choice revealed together, the bots' pairs still secret
            assert "exhausts two adventurers" in p.bot_log_html.value and "Ann exhausts 1" not in p.bot_log_html.value
        if moves == 2:
            p.undo_button.click()
            assert p.message_text == "Took back your last move." and p.game.current == 1
    assert p.message_text.startswith("The game is over")
    assert p.result_html.value.count('class="dg-final') == 3
    assert len(p.summary_output.outputs) == 2
    assert p.gold_figure.data[1].y[-1] == p.game.state.gold[1]
    assert p.play_button.disabled


def test_play_table_hides_other_players_secret_exhaust_choice():
    p = PlayTable(players=3, seat=2, opponents=[FIRST, FIRST], seed=1, start=False)
    p.start_button.click()
    p.action_dropdown.value = p.action_dropdown.options[0][1]
    p.play_button.click()  # round 1 dispatch: others' exhausted adventurers are unknown to Cy
    rows = re.findall(r'<tr class="dg-player[^"]*" data-seat="(\d)">(.*?)</tr>', p.board_html.value)
    cells = {int(seat): re.findall(r"<td>(.*?)</td>", row) for seat, row in rows}
    assert cells[0][3] == "?" and cells[1][3] == "?"
    assert cells[2][3] != "?"


def test_play_table_illegal_try_and_language():
    p = PlayTable(players=4, seat=0, opponents=[FIRST] * 3, seed=3, lang="zh")
    assert p.play_button.description == "執行"
    p.builder.set(parse("swap 2 1a"))
    p.builder.try_button.click()
    assert p.message_text.startswith("不合法：")
    p.lang = "en"
    assert p.message_text.startswith("Not allowed: ")


# ---------------------------------------------------------------------- display
def test_repr_html_shows_the_drawn_board():
    g = Game(4, seed=3, rules=Rules(lords="all", npc=True))
    g.exhaust_randomly()
    g.push(g.legal_actions()[0])
    html = g._repr_html_()
    st = g.state
    assert html.count('class="dg-room"') == len(st.rooms)
    assert f'<g class="dg-player dg-current" data-seat="{st.current}"' in html and f"{st.names[st.current]} to move" in html
    assert st.lord.name_en in html and st.lord.name_zh in html
    for p in range(4):
        assert f"${st.gold[p]}" in text(html)
    npc = html.count('data-owner="npc"')
    assert npc == list(st.slot_owner).count(NPC)
    zh = game_html(g, "zh")
    assert "城主" in zh and "座位" in zh


def test_display_shows_the_last_resolution_and_the_final_result():
    g = Game(3, seed=2)
    g.exhaust_randomly()
    while g.state.round == 0:
        g.push(g.legal_actions()[-1])
    html = board_tables_html(g.state, g.log, "en")
    res = events.resolution(g.log, 1)
    assert 'class="dg-last-round"' in html
    assert html.count('class="dg-last-room"') == len(res)
    for r in res:
        assert f'data-room="{r.room}" data-status="{r.status}"' in html
    while not g.is_over:
        g.push(g.legal_actions()[0])
    html = board_tables_html(g.state, g.log, "zh")
    assert "🏆" in html and ("攻略成功" in html or "攻略失敗" in html)


def test_figure_bundle_is_plain_json():
    import json

    from dungeon_guilds.viz import board_figure

    bundle = figure_bundle(board_figure(Game(3, seed=1)))
    json.dumps(bundle)
    assert set(bundle) == {"application/vnd.plotly.v1+json", "text/plain"}
