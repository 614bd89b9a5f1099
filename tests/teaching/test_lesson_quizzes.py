"""The lesson plans (issue 28): three lessons in English and 繁體中文, each with learning goals,
set-up for the server and the static site, and an exit quiz whose every answer is the engine's.

A quiz question carries ``<!-- engine: KIND key=value ... -->`` and then its answer in bold;
``dungeon_guilds.teaching.quiz.answer`` works the answer out with the engine. A lesson whose
printed answer differs from the engine's fails here (``make test``)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from dungeon_guilds.teaching.quiz import answer

DOCS = Path(__file__).resolve().parents[2] / "dungeon_guilds" / "teaching" / "lessons"  # in the package (issue 40)
LESSONS = ("lesson-1-learn", "lesson-2-design", "lesson-3-compare", "lesson-4-strategy")
MARKER = re.compile(r"<!-- engine: (.+?) -->\s*\n\s*(?:Answer|答案)[:：]\s*\*\*(.+?)\*\*")
WORDS = {"en": {True: "yes", False: "no"}, "zh": {True: "是", False: "否"}}


def quiz(path: Path) -> list[tuple[str, str]]:
    return MARKER.findall(path.read_text("utf-8"))


def files():
    for name in LESSONS:
        yield name, "en", DOCS / f"{name}.md"
        yield name, "zh", DOCS / f"{name}.zh.md"


@pytest.mark.parametrize("name, lang, path", list(files()), ids=lambda x: str(x))
def test_every_quiz_answer_is_the_engines(name, lang, path):
    items = quiz(path)
    assert len(items) >= 4, f"{path.name}: an exit quiz of at least 4 questions"
    assert path.read_text("utf-8").count("<!-- engine:") == len(items), "a marker without its answer"
    for marker, printed in items:
        value = answer(marker)
        expected = WORDS[lang][value] if isinstance(value, bool) else str(value)
        assert printed == expected, f"{path.name}: {marker}: printed {printed!r}, the engine says {expected!r}"


@pytest.mark.parametrize("name", LESSONS)
def test_both_languages_ask_the_same_questions(name):
    assert [m for m, _ in quiz(DOCS / f"{name}.md")] == [m for m, _ in quiz(DOCS / f"{name}.zh.md")]


@pytest.mark.parametrize("name, lang, path", list(files()), ids=lambda x: str(x))
def test_each_plan_names_goals_setup_timeline_misconceptions(name, lang, path):
    text = path.read_text("utf-8")
    heads = (["Learning goals", "Setup", "Timeline", "misconceptions", "Exit quiz"] if lang == "en" else
             ["學習目標", "課前準備", "時間分配", "常見誤解", "課後小測驗"])
    for head in heads:
        assert re.search(rf"^## .*{head}", text, re.M | re.I), f"{path.name}: no section {head!r}"
    # what a pip user types first (issue 40), a clone's make targets as the alternative
    assert "dungeon-guilds dashboard --host 0.0.0.0 --class" in text
    assert "make dashboard" in text and "make site" in text
    # the static site from a pip install too (issue 40): its command, and no "clone only"
    assert "dungeon-guilds site _site" in text
    assert not re.search(r"not a pip install|不是 pip|built in a clone", text)


def test_a_wrong_answer_is_caught():
    marker = "snake players=4 start=1 turn=5"
    assert answer(marker) == 4
    with pytest.raises(ValueError, match="unknown quiz kind"):
        answer("chess players=2")
