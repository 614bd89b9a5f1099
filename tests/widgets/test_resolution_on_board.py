"""A round's resolution shown on the board (issue 24, item 3): after the last placement of a
round the board still shows that round's rooms with their occupants; stepping reveals them room
by room with the engine's outcome (R5.1), split (R5.2), heal costs (R6.1) and the seats' gold;
the next round's deal appears only when the student steps on — in Learn (the stepper) and Play,
after a person's move or a run of bots' moves."""

from __future__ import annotations

import random
import re

import pytest

from dungeon_guilds.events import RoomOutcome, gold_after, resolution_events
from dungeon_guilds.widgets.play_table import PlayTable
from dungeon_guilds.widgets.stepper import RoundStepper

FIRST = "first"


def rooms_drawn(html: str) -> dict[int, tuple[str, list[tuple[str, int]]]]:
    """{room: (data-status, [(owner, strength) of its tokens])} read back from the drawn board."""
    out = {}
    for m in re.finditer(r'<g class="dg-room[^"]*" data-room="(\d+)"[^>]*data-status="([a-z_]*)">(.*?)'
                         r'(?=<g class="dg-room|<g class="dg-lord)', html, re.S):
        tokens = [(o, int(s)) for o, s in re.findall(r'class="dg-slot dg-token" data-owner="([^"]+)" '
                                                      r'data-strength="(\d)"', m.group(3))]
        out[int(m.group(1))] = (m.group(2), tokens)
    return out


def gold_drawn(html: str) -> list[int]:
    return [int(g) for g in re.findall(r'<g class="dg-player[^"]*" data-seat="\d" data-gold="(-?\d+)"', html)]


def play_a_human_move(app, rng):
    b = app.board
    hands = [k for k, t in b.targets.items() if k.startswith("hand-") and t.enabled]
    if app.game.state.phase == "setup":
        for k in rng.sample(hands, 2):
            b.click(k)
        b.click("exhaust")
        return
    b.click(rng.choice(hands))
    b.click(rng.choice([k for k, t in b.targets.items() if k.startswith("slot-") and t.enabled]))


def learn_until_round_ends(seed: int) -> RoundStepper:
    s = RoundStepper(players=3, seats=["human", FIRST, FIRST], seed=seed, timeline=False)
    rng = random.Random(seed)
    while s.resolving is None:
        if s.board.locked:
            s.step()
        else:
            play_a_human_move(s, rng)
        assert s.last_error is None, s.last_error
    return s


@pytest.mark.parametrize("seed", [2, 5, 11])
def test_after_the_last_placement_the_board_keeps_the_rounds_rooms_and_reveals_them_step_by_step(seed):
    s = learn_until_round_ends(seed)
    game = s.game
    assert game.state.round == 1  # the engine has resolved round 1 and dealt round 2 ...
    end = game.dispatch_end(1)
    html = s.board.html
    assert 'data-resolving="1"' in html and 'data-round="1"' in html and s.board.locked and not s.board.targets
    drawn = rooms_drawn(html)
    for i in range(len(end.rooms)):  # ... but the board shows round 1's rooms, with their occupants
        want = [("npc" if o < 0 else str(o), st) for o, st in end.occupants(i)]
        assert drawn[i + 1][1] == want
    events = resolution_events(game.log, 1)
    assert len(s.story.steps) >= len(events)
    for k in range(len(s.story.steps)):
        s.story.go(k)
        html = s.board.html
        assert f'data-step="{k}"' in html
        shown = events[:k + 1]
        reached = set()
        for ev in (e for e in shown if isinstance(e, RoomOutcome)):
            reached.add(ev.room)
            reached.update(ev.rooms)
            status = rooms_drawn(html)[ev.room][0]
            assert status == ("cleared" if ev.cleared else "failed")  # the engine's outcome (R5.1)
            if ev.cleared:
                for seat, gold in ev.shares.items():  # the split under the tokens (R5.2)
                    if gold:
                        assert f'class="dg-share-tag" data-seat="{seat}"' in html
        for room, (status, _) in rooms_drawn(html).items():
            if room not in reached:
                assert status == "pending"  # not yet revealed: face down, no front drawn
        assert gold_drawn(html) == gold_after(end.gold, shown)  # the seats' gold after these steps
    assert gold_drawn(s.board.html) == game.state.round_results[0]["gold"]


def test_the_next_round_is_dealt_only_when_the_student_steps_on():
    s = learn_until_round_ends(2)
    ply = s.game.ply
    for _ in range(len(s.story.steps) - 1):  # Step ▶ reveals the next room, plays nothing
        s.step()
        assert s.resolving == 1 and s.game.ply == ply and 'data-resolving="1"' in s.board.html
    assert s.story.index == len(s.story.steps) - 1
    s.step()  # after the last step: the next round
    assert s.resolving is None and 'data-resolving' not in s.board.html
    assert 'data-round="2"' in s.board.html and s.game.ply == ply
    new_rooms = rooms_drawn(s.board.html)
    assert new_rooms and all(status == "" and not tokens for status, tokens in new_rooms.values())  # dealt, empty
    assert s.next_round_button.layout.display == "none"


def test_next_round_button_and_a_move_while_resolving_is_refused_with_a_sentence():
    s = learn_until_round_ends(5)
    assert s.next_round_button.layout.display is None and s.next_round_button.description == "Next round ▶"
    ply, gold = s.game.ply, list(s.game.state.gold)
    legal = s.game.legal_actions()[0]
    assert s.try_move(legal) is None and s.game.ply == ply and s.game.state.gold == gold
    assert "Next round" in s.message.value
    s.next_round_button.click()
    assert s.resolving is None and 'data-resolving' not in s.board.html


def test_bots_running_to_the_end_of_the_round_stop_at_its_resolution():
    s = RoundStepper(players=4, seats=[FIRST] * 4, seed=3, timeline=False)
    s.run("phase")  # the setup
    s.run("round")
    assert s.resolving == 1 and 'data-resolving="1"' in s.board.html
    s.round_button.click()  # pressed while the resolution is shown: steps on, then plays round 2
    assert s.resolving == 2
    s.run("game")
    assert s.game.is_over and s.resolving == s.game.state.rounds  # the last round, on the board
    assert s.next_round_button.description == "Final result ▶" and not s.step_button.disabled
    s.next_round_button.click()
    assert s.resolving is None


def test_undo_leaves_the_resolution():
    s = learn_until_round_ends(11)
    s.undo()
    assert s.resolving is None and s.game.state.round == 0 and 'data-resolving' not in s.board.html


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_play_bots_wait_for_the_human_after_a_round_resolves(lang):
    p = PlayTable(players=4, seat=0, opponents=[FIRST] * 3, seed=2, lang=lang)
    rng = random.Random(4)
    resolved = 0
    while not p.game.is_over:
        if p.resolving is not None:
            ply = p.game.ply
            assert p.board.locked and 'data-resolving' in p.board.html
            assert p.game.state.pos == 0 and p.game.state.phase == "dispatch"  # nobody moved in the new round
            assert p.action_dropdown.options == () and p.play_button.disabled
            resolved += 1
            p.next_round_button.click()
            assert p.resolving is None and (p.game.ply > ply or p.game.current == p.human)
            continue
        assert p.game.current == p.human and not p.board.locked
        play_a_human_move(p, rng)
        assert p.last_error is None, p.last_error
    assert resolved == p.game.state.rounds - 1 and p.resolving == p.game.state.rounds


def test_a_seats_name_never_runs_under_its_gold_badge_while_a_round_resolves():
    """The +$/−$ badge of a resolution step sits between the seat's name and its gold: a long
    name ("Seat 4 · Di (you)", 座位 1 · Ann（你）) is squeezed to end before it (seen cut at a
    class table)."""
    from dungeon_guilds.drawing.board_svg import board_svg
    from dungeon_guilds.drawing.resolving import resolution_frame
    from dungeon_guilds.game import Game

    game = Game(["Ann", "Bo", "Cy", "Di"], seed=3)
    rng = random.Random(3)
    while game.state.round == 0:
        game.push(rng.choice(game.legal_moves()))
    end = game.dispatch_end(1)
    for lang in ("en", "zh"):
        for step in range(8):
            frame = resolution_frame(end, game.log, 1, step)
            if frame is None:
                break
            svg = board_svg(end, lang, 3, game.log, {}, frame=frame)
            for p in range(4):
                player = svg.split(f'data-seat="{p}" data-gold=')[1].split("</g>")[0]
                head = re.search(r"<text ([^>]*)>([^<]*)</text>", player)
                if frame.delta[p] and len(head.group(2)) > 14:
                    assert "textLength" in head.group(1), (lang, p, head.group(2))
                    assert float(re.search(r'textLength="([\d.]+)"', head.group(1)).group(1)) <= 240 - 104 - 32
