"""Worksheets (issue 28): every number of every answer key equals what the engine says, checked
here by other routes than the generator's (the move actually applied, the round resolved from
the engine's per-room numbers, the snake walked by a real dispatch), and the printed key shows
exactly those answers. A worksheet whose key disagrees with the engine fails ``make test``."""

from __future__ import annotations

import re

import pytest

from dungeon_guilds import i18n
from dungeon_guilds.actions import PLACE
from dungeon_guilds.cards import reference_deck
from dungeon_guilds.lords import get_lord
from dungeon_guilds.payout import split
from dungeon_guilds.rules import Rules
from dungeon_guilds.siblings.comparison import SIBLINGS
from dungeon_guilds.state import DISPATCH, SETUP, State, beats
from dungeon_guilds.actions import exhaust
from dungeon_guilds.teaching import LESSONS
from dungeon_guilds.teaching.worksheet_html import value_text, worksheet_html
from dungeon_guilds.teaching.worksheets import worksheet

SEEDS = range(1, 9)


def walked_snake(players: int, start: int, turns: int) -> list[int]:
    """R4.1 by a real dispatch: who is to move at each of the first ``turns`` placements
    (seats from 1)."""
    deck = reference_deck()
    st = State.new([f"p{k}" for k in range(players)], list(deck.rooms), [get_lord("beholder")] * players,
                   deck.levels, deck.heal_costs, rules=Rules(lords="none"), start=start)
    while st.phase == SETUP:
        st.apply_action(exhaust(4, 5))
    seen = []
    for _ in range(turns):
        seen.append(st.current + 1)
        st.apply_action(next(a for a in st.legal_actions() if a.kind == PLACE))
    return seen


def check_snake(q) -> None:
    assert [a.value for a in q.answers] == walked_snake(q.params["players"], q.params["start"] - 1,
                                                        q.params["turns"])


def check_replace(q) -> None:
    st = q.setup.state()
    gold, bank = st.gold[:], st.bank_in
    player, owner = q.params["player"] - 1, q.params["owner"] - 1
    assert st.current == player
    st.apply_action(q.action)  # the engine takes the fees (R4.4, R4.5)
    got = {a.label: a.value for a in q.answers}
    assert got["pay_bank"] == st.bank_in - bank
    assert gold[player] - st.gold[player] == got["pay_bank"] + got.get("pay_owner", 0)
    if "pay_owner" in got:
        assert got["pay_owner"] == st.gold[owner] - gold[owner]
    assert got["locks"] is bool(st.locked[q.action.room - 1])


def resolved_by_rooms(st) -> tuple:
    """R5.1, R5.2, R6.1 from the engine's per-room numbers (defence, treasure, occupants, heal)."""
    treasure = [0] * st.n
    failed = None
    for i in range(st.n_rooms):
        if not beats(st.room_total(i), st.room_defence(i)):
            failed = i + 1
            break
        for p, v in split(st.room_treasure(i), st.occupants(i))[0].items():
            treasure[p] += v
    heal = [0] * st.n
    for i in range(failed - 1 if failed else st.n_rooms, st.n_rooms):
        for owner, strength in st.occupants(i):
            heal[owner] += st.heal_cost(strength)
    paid = [min(heal[p], st.gold[p] + treasure[p]) for p in range(st.n)]
    return failed, treasure, paid, [st.gold[p] + treasure[p] - paid[p] for p in range(st.n)]


def check_resolution(q) -> None:
    st = q.setup.state()
    failed, treasure, paid, gold = resolved_by_rooms(st)
    assert q.answers[0].value == failed
    rows = {(a.label, a.params.get("player")): a.value for a in q.answers[1:]}
    for p in range(st.n):
        assert rows[("treasure", p + 1)] == treasure[p]
        assert rows[("heal_paid", p + 1)] == paid[p]
        assert rows[("gold_after", p + 1)] == gold[p]
    played = q.setup.state(hold=False)  # and the round really played gives the same gold
    assert played.round_results[0]["gold"] == gold


def check_lord(q) -> None:
    st = q.setup.state()
    i = q.params["room"] - 1
    card = st.rooms[i]
    assert (card.level, card.defence, card.treasure) == (q.params["level"], q.params["defence"], q.params["treasure"])
    assert st.lord.id == q.params["lord"]
    got = {a.label: a.value for a in q.answers}
    assert got == {"defence_now": st.room_defence(i), "treasure_now": st.room_treasure(i),
                   "lock_now": st.lock_threshold(i)}
    assert got["defence_now"] != card.defence or got["treasure_now"] != card.treasure  # the lord matters


def check_siblings(q) -> None:
    n, turns = q.params["players"], q.params["turns"]
    expected = []
    for game in SIBLINGS:
        seq = [s + 1 for s in game.turn_sequence(n, turns)]
        if game.key == "dungeon_guilds":
            assert seq == walked_snake(n, 0, turns)
        expected += seq + [seq.count(1)]
    assert [a.value for a in q.answers] == expected


def check_next_start(q) -> None:
    st = q.setup.state(hold=False)
    assert st.round == 1 and st.phase == DISPATCH
    assert q.answers[0].value == st.start + 1 == 2  # R6.3 the marker passes to the left


CHECKS = {"snake": check_snake, "replace": check_replace, "resolution": check_resolution,
          "lord": check_lord, "siblings": check_siblings, "next_start": check_next_start}


@pytest.mark.parametrize("lesson", LESSONS)
@pytest.mark.parametrize("seed", SEEDS)
def test_every_answer_equals_the_engine(lesson, seed):
    ws = worksheet(lesson, seed)
    assert ws.questions
    for q in ws.questions:
        CHECKS[q.kind](q)


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("lesson", LESSONS)
def test_printed_key_shows_the_engine_answers(lesson, lang):
    ws = worksheet(lesson, 3)
    key = worksheet_html(ws, lang, key=True)
    printed = re.findall(r'<span class="blank">(.*?)</span>', key)
    assert printed == [value_text(v, lang) for _, v in ws.numbers()]
    sheet = worksheet_html(ws, lang, key=False)
    assert re.findall(r'<span class="blank">(.*?)</span>', sheet) == ["&nbsp;"] * len(printed)
    body = key.split("</style>")[1]
    assert "{" not in body and "}" not in body  # every field of every sentence filled
    assert "http" not in key  # nothing from another host (offline schools)


def test_seed_gives_the_same_sheet_and_a_new_seed_a_new_one():
    assert worksheet_html(worksheet("learn", 5)) == worksheet_html(worksheet("learn", 5))
    assert worksheet_html(worksheet("learn", 5)) != worksheet_html(worksheet("learn", 6))


def test_unknown_lesson_is_refused():
    with pytest.raises(ValueError, match="no lesson"):
        worksheet("chess", 1)


def test_words_exist_in_both_languages():
    en = {k for k in i18n.strings("en") if k.startswith("worksheet.")}
    zh_own = set(i18n._flatten(i18n._table("zh")))
    assert en and en <= zh_own
