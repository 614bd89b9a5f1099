"""Lesson 4's worked positions (issue 49, item 7): every answer the lesson gives is the judge's.

* each position rebuilds from its seed and moves (the engine plays them, so each is legal) and
  every choice shown is a legal move of the seat to move;
* the shipped figures (``analysis/data/worked_positions.json``, written by ``python -m
  dungeon_guilds.teaching.worked_positions``) say the answer is the judge's best among *all*
  legal moves, and the best of the choices shown, each other choice behind it by at least
  10 points of win chance beyond 2 standard errors;
* the claim is checked against what produced it: the judge plays each position again on
  fresh worlds with a small fixed budget (every choice in the same worlds) and finds the same
  answer, each other choice behind it by at least 10 points and by more than 2 standard errors;
  and the full judge, played again with the shipped budget and seed, gives the shipped best among
  all legal moves and the shipped headline (en, zh);
* lesson 4 prints each position exactly as :func:`lesson_block` words it (board, choices, the
  judge's figures, the idea), in English and 繁體中文, and its exit quiz holds the quiz positions.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from dungeon_guilds.actions import parse
from dungeon_guilds.teaching import worked_positions as wp

ROOT = Path(__file__).resolve().parents[2]
LESSON = ROOT / "dungeon_guilds" / "teaching" / "lessons" / "lesson-4-strategy"
BLOCK = re.compile(r"<!-- position: (\w+) -->.*?<!-- /position -->", re.S)
GAP = 0.10  # 10 points of win chance
RECHECK = 64  # worlds a choice when the test judges again (every choice in the same worlds)


@pytest.fixture(scope="module")
def data():
    return wp.shipped()


def test_every_idea_has_a_worked_position():
    taught = [p.idea for p in wp.POSITIONS if not p.quiz]
    assert sorted(taught) == sorted(wp.IDEAS)
    assert [p for p in wp.POSITIONS if p.quiz], "the exit quiz has positions"


@pytest.mark.parametrize("p", wp.POSITIONS, ids=lambda p: p.key)
def test_the_position_rebuilds_and_its_choices_are_legal(p):
    st = wp.game(p).state
    legal = set(st.legal_actions())
    assert all(parse(c) in legal for c in p.choices)
    assert p.natural in p.choices and p.answer in p.choices and p.natural != p.answer


@pytest.mark.parametrize("p", wp.POSITIONS, ids=lambda p: p.key)
def test_the_shipped_answer_is_the_judges_best(p, data):
    fig = data["positions"][p.key]
    assert fig["best"] == p.answer and fig["full"]["best"] == p.answer
    assert set(fig["choices"]) == set(p.choices) and fig["worlds"] == wp.SHOWN
    for c in p.choices:
        if c != p.answer:
            v = fig["choices"][c]
            assert fig["choices"][p.answer]["win"] - v["win"] == pytest.approx(v["loss"], abs=2e-4)
            assert v["loss"] - 2 * v["loss_se"] >= GAP, (p.key, c)  # 10 points beyond 2 standard errors


@pytest.mark.parametrize("p", wp.POSITIONS, ids=lambda p: p.key)
def test_the_judge_finds_the_answer_again(p):
    j = wp.judge_shown(p, RECHECK, seed="recheck")
    assert str(j.best.action) == p.answer
    for v in j.moves[1:]:
        assert v.loss >= GAP and v.loss > 2 * v.loss_se, (p.key, str(v.action), v.loss, v.loss_se)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_lesson_prints_each_position_as_the_figures_say(lang, data):
    path = LESSON.with_suffix(".zh.md" if lang == "zh" else ".md")
    text = path.read_text("utf-8")
    shown = {m.group(1): m.group(0) for m in BLOCK.finditer(text)}
    assert set(shown) == {p.key for p in wp.POSITIONS}
    for p in wp.POSITIONS:
        assert shown[p.key] == wp.lesson_block(p, lang, data), f"{path.name}: {p.key}"
    quiz = text.split("## Exit quiz" if lang == "en" else "## 課後小測驗")[1]
    assert {k for k in shown if f"<!-- position: {k} -->" in quiz} == {p.key for p in wp.POSITIONS if p.quiz}


def test_a_quiz_position_answer_is_blanked_for_students():
    from dungeon_guilds.teaching.lesson_pages import quiz_markdown

    p = next(p for p in wp.POSITIONS if p.quiz)
    block = wp.lesson_block(p, "en")
    copy = quiz_markdown(f"## Exit quiz\n{block}\n")
    assert "position:" not in copy and wp.choice_words(p)[1][0] in copy  # the choices stay
    assert f"**{dict((c, w) for w, c in wp.choice_words(p))[p.answer]}**" not in copy


def test_the_check_reveals_plain_percentages(data):
    p = wp.by_key("standings")
    html = wp.reveal_html(p, p.natural, "en", data)
    assert "100 %" in html and "±" not in html and "best move here is" in html
    assert "答對了" in wp.reveal_html(p, p.answer, "zh", data)


@pytest.mark.parametrize("key", [p.key for p in wp.POSITIONS])
def test_the_shipped_best_and_headline_are_what_the_judge_gives(key, data):
    """The full judge (every legal move, the shipped budget and seed) played again: the same
    best move and the same headline, in both languages."""
    from dungeon_guilds.analysis.judge_headline import headline_text

    fig = data["positions"][key]["full"]
    d = wp.judge_full(wp.by_key(key))
    assert str(d.best.action) == fig["best"] and d.n_moves == fig["legal"]
    assert {lang: headline_text(d, lang) for lang in ("en", "zh")} == fig["says"]
