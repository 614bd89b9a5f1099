"""The students' copy of every exit quiz (issue 53): made from the same Markdown as the
teacher's plan, with every question and none of the answers, for every lesson that has a quiz
(lesson 4's included), in both languages; the teacher panel offers it beside the plan, the
static site and ``dungeon-guilds notebooks DIR`` write it beside the plans, and "Which lesson
for which time" lists lesson 4."""

from __future__ import annotations

import re

import pytest

from dungeon_guilds import i18n
from dungeon_guilds.teaching import lesson_pages

pytest.importorskip("mistune")
LESSONS = [name for name in lesson_pages.plans() if name.startswith("lesson-")]


def _questions(text: str) -> list[str]:
    """The numbered questions of a plan's exit quiz section (the teacher's copy)."""
    quiz = text[re.search(r"^## (Exit quiz|課後小測驗).*$", text, re.M).end():]
    quiz = re.split(r"^## ", quiz, flags=re.M)[0]
    return re.findall(r"^\d+\. (.+)$", quiz, re.M)


@pytest.mark.parametrize("lang", lesson_pages.LANGS)
@pytest.mark.parametrize("name", LESSONS)
def test_each_lessons_quiz_has_a_students_copy_without_the_answers(name, lang):
    source = lesson_pages.plans()[name].file(lang).read_text("utf-8")
    answers = re.findall(r"(?:Answer: |答案：)\*\*(.+?)\*\*", source)
    questions = _questions(source)
    assert len(answers) == len(questions) >= 4, "every lesson has an exit quiz with its answers"
    page = lesson_pages.quiz_html(name, lang)
    text = re.sub(r"<[^>]+>", " ", page)
    for question in questions:
        assert question.split("(")[0].split("（")[0].strip()[:30] in text
    assert "<strong>" not in page and "engine:" not in page  # no bold answer, no engine marker
    assert text.count("_" * 12) == len(questions) + 1  # a blank per answer, and the name line
    assert i18n.t("lesson_quiz.name_line", lang).split("\\")[0] in text


def test_a_plan_without_a_quiz_has_no_copy(tmp_path):
    assert lesson_pages.quiz_html("challenges", "en") is None and not lesson_pages.has_quiz("challenges")
    written = {p.name for p in lesson_pages.write_pages(tmp_path)}
    assert {lesson_pages.quiz_name(n, lang) for n in LESSONS for lang in lesson_pages.LANGS} <= written
    assert "challenges-quiz.html" not in written
    assert 'href="lesson-4-strategy-quiz.zh.html"' in (tmp_path / "index.html").read_text("utf-8")


def test_the_teacher_panel_offers_the_copy_and_lists_lesson_4():
    pytest.importorskip("ipywidgets")
    from dungeon_guilds.widgets.teacher import TeacherPanel

    panel = TeacherPanel()
    assert panel.lessons_html.value.count("<tr>") == 1 + 4  # the head, lessons 1-4
    assert i18n.t("teacher.lesson_strategy", "en") in panel.lessons_html.value
    panel.plan_dropdown.value = "lesson-4-strategy"
    panel.open_plan()
    saved = re.findall(r'download="([^"]+)"', panel.plan_links_html.value)
    assert saved == ["lesson-4-strategy.html", "lesson-4-strategy.zh.html",
                     "lesson-4-strategy-quiz.html", "lesson-4-strategy-quiz.zh.html"]
    assert set(panel.quiz_pages) == {"en", "zh"} and "Answer: **" not in panel.quiz_pages["en"]


@pytest.mark.parametrize("lang", lesson_pages.LANGS)
def test_worksheet_2_is_printed_per_group_as_it_says(lang):
    """Issue 53: worksheet 2 said "one sheet per group", lesson 2's set-up "print one per
    student"; both say per group now, and the per-student paper is the quiz's students' copy."""
    plan = lesson_pages.plans()["lesson-2-design"].file(lang).read_text("utf-8")
    setup = plan.split("\n## ")[2]  # Learning goals, then Setup
    assert ("one per group" if lang == "en" else "每組印一份") in setup
    assert ("print one per student and the answer key" if lang == "en" else "每人印一份，另印答案卷") not in plan
    assert ("per group" if lang == "en" else "每組一張") in i18n.t("worksheet.h_intro", lang)
