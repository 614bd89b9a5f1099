"""The board in words (issue 32, item 3): ``drawing/board_text.py`` says what the drawn board
shows, in English and 繁體中文, and every number it says is the engine's — rooms (number, level,
ranges or revealed front, lock threshold, locked, occupants with seats from 1, cleared / failed /
not reached, R5.1), each seat's gold and hand as the viewer may know it (R2.4), whose turn, the
round."""

from __future__ import annotations

import re

import pytest

from dungeon_guilds import Game, i18n
from dungeon_guilds.analysis.bots import make_bot
from dungeon_guilds.drawing.board_text import board_lines, board_text_html
from dungeon_guilds.events import resolution, rooms_round
from dungeon_guilds.payout import EMPTY, NPC
from dungeon_guilds.rules import Rules

NAMES = ["Ann", "Bob", "Cy", "Dee"]
SEAT = {"en": r"Seat (\d) · (\w+)(?: \(you\))?: \$(-?\d+);", "zh": r"座位 (\d) · (\w+)(?:（你）)?：\$(-?\d+)；"}
OCCUPANT = {"en": "seat {seat} · {name}, strength {strength}", "zh": "座位 {seat} · {name}，力量 {strength}"}
FREE = {"en": "free slot", "zh": "空位"}
LOCKS = {"en": "locks at {value}", "zh": "鎖定門檻 {value}"}


def played(seed: int, moves: int | None = None, n: int = 4, rules: Rules | None = None) -> Game:
    """A game of greedy bots: ``moves`` decisions, or to the end."""
    game = Game(NAMES[:n], seed=seed, rules=rules or Rules())
    bots = [make_bot("greedy", seed=seed * 10 + p) for p in range(n)]
    k = 0
    while not game.is_over and (moves is None or k < moves):
        seat = game.state.current
        game.push(bots[seat].choose(game.state.copy(), seat))
        k += 1
    return game


def room_lines(lines: list[str], k: int) -> list[str]:
    return lines[3:3 + k]  # the round, whose turn, the lord, then the rooms from the top


def seat_gold(lines: list[str], lang: str) -> dict[int, int]:
    """{seat (0-based): gold} as the text says it (seats spoken from 1)."""
    found = {}
    for line in lines:
        m = re.match(SEAT[lang], line)
        if m:
            found[int(m.group(1)) - 1] = int(m.group(3))
    return found


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("seed,moves", [(1, 9), (2, 14), (5, 23)])
def test_rooms_gold_and_turn_are_the_engines(lang, seed, moves):
    game = played(seed, moves)
    state = game.state
    lines = board_lines(state, lang, log=game.log)
    assert lines[0] == i18n.t("btext.head", lang, round=state.round + 1, rounds=state.rounds,
                              phase=i18n.phase_name(state.phase, lang))
    assert f"{state.current + 1} · {state.names[state.current]}" in lines[1]  # whose turn, from 1
    assert seat_gold(lines, lang) == dict(enumerate(state.gold))
    for i, line in enumerate(room_lines(lines, len(state.rooms))):
        card = state.rooms[i]
        assert line.startswith(i18n.t("btext.room", lang, room=i + 1, level=card.level, numbers="", lock=0,
                                      locked="", occupants="", outcome="").split(":")[0].split("：")[0])
        assert LOCKS[lang].format(value=state.lock_threshold(i)) in line
        assert (i18n.t("btext.locked", lang) in line) == bool(state.locked[i])
        for x in (0, 1):
            owner, strength = state.slot(i, x)
            if owner not in (EMPTY, NPC):
                assert OCCUPANT[lang].format(seat=owner + 1, name=NAMES[owner], strength=strength) in line
        empty = sum(state.slot(i, x)[0] == EMPTY for x in (0, 1))
        assert line.count(FREE[lang]) == empty
        info = state.levels[card.level]
        assert f"{info.defence[0]}–{info.defence[1]}" in line and f"${info.treasure[0]}–${info.treasure[1]}" in line


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("seed", [1, 3, 4])
def test_after_the_last_round_the_revealed_fronts_outcomes_and_winners_are_said(lang, seed):  # R5.1, R8.1
    game = played(seed, n=3)
    state = game.state
    assert game.is_over
    lines = board_lines(state, lang, log=game.log)
    results = resolution(game.log, rooms_round(state))
    words = {"cleared": i18n.t("btext.cleared", lang, total="", defence="", treasure="", split="").split("：")[0]
             .split(":")[0],
             "failed": i18n.t("btext.failed", lang, total="", defence="").split("：")[0].split(":")[0],
             "not_reached": i18n.t("btext.not_reached", lang).split("，")[0].split(",")[0]}
    for res, line in zip(results, room_lines(lines, len(state.rooms))):
        assert words[res.status] in line, (res, line)
        if res.status != "not_reached":
            assert i18n.t("btext.front", lang, defence=res.defence, treasure=res.treasure) in line
            assert f"{res.total} " in line and f" {res.effective_defence}" in line
        for p, gold in (res.shares or {}).items():
            assert i18n.t("btext.share", lang, seat=int(p) + 1, gold=gold) in line
    winners = [i18n.t("bd.seat", lang, seat=p + 1, name=NAMES[p]) for p in game.result().winners]
    assert all(w in lines[1] for w in winners) and winners
    assert seat_gold(lines, lang) == dict(enumerate(state.gold))


def test_a_viewer_hears_only_what_their_seat_may_know():  # R2.4: others' exhaust choices are secret
    game = Game(NAMES[:3], seed=1)
    game.push(game.state.legal_actions()[0])  # Ann exhausts two adventurers face down
    for viewer in (0, 1):
        lines = board_lines(game.state, "en", viewer=viewer, log=game.log)
        view = game.state.view(viewer)
        for p in range(3):
            line = next(x for x in lines[3:] if x.startswith(f"Seat {p + 1} · "))
            assert ("hand secret" in line) == (not view.knows_hand(p)), line
            assert (" (you)" in line) == (p == viewer)
    ann = next(x for x in board_lines(game.state, "en", viewer=0, log=game.log) if x.startswith("Seat 1"))
    exhausted = sorted(s for s in range(1, 6) if game.state.exhausted[0] >> s & 1)
    assert f"exhausted {' '.join(map(str, exhausted))}" in ann
    # with no viewer (a teacher's screen) every hand is said
    assert not any("hand secret" in x for x in board_lines(game.state, "en", log=game.log))


def test_the_lords_change_and_the_npc_are_said():  # R7.1, R10.2
    game = played(2, 4, n=3, rules=Rules(npc=True))
    state = game.state
    lines = board_lines(state, "en", log=game.log)
    rooms = room_lines(lines, len(state.rooms))
    for i, line in enumerate(rooms):
        change = state.lord_defence_change(i)
        assert (f"(the lord changes its defence by {change:+d})" in line) == bool(change)
        npcs = [s for x in (0, 1) for o, s in [state.slot(i, x)] if o == NPC]
        for s in npcs:
            assert f"NPC, strength {s}" in line
    assert any("NPC, strength" in line for line in rooms)


def test_zh_has_no_english_words_but_the_players_names():
    for game in (played(1, 9), played(3, n=3)):
        for line in board_lines(game.state, "zh", viewer=0, log=game.log):
            words = set(re.findall(r"[A-Za-z]{2,}", line)) - set(NAMES) - {"NPC"}
            assert not words, line


def test_the_html_is_one_labelled_region_in_the_pages_language():
    game = played(1, 9)
    for lang, html_lang, label in (("en", "en", "The board in words"), ("zh", "zh-Hant", "圖板的文字說明")):
        html = board_text_html(game.state, lang, 0, game.log, uid="dgx")
        assert html.startswith(f'<div class="dg-board-text" role="region" aria-label="{label}" '
                               f'lang="{html_lang}"><ul class="dg-board-text-lines" id="dgx-text">')
        assert html.count("<li>") == len(board_lines(game.state, lang, 0, game.log)) == 3 + len(game.state.rooms) + game.state.n
