"""The teacher page and the design challenges panel driven headless (issue 28), and their place
in the dashboard: the teacher page folded above the tabs, the challenges in their own tab."""

from __future__ import annotations

import base64
import re

import pytest

pytest.importorskip("ipywidgets")

from dungeon_guilds.app.dashboard import TABS, Dashboard  # noqa: E402
from dungeon_guilds.teaching.worksheet_html import worksheet_page  # noqa: E402
from dungeon_guilds.widgets.challenges import ChallengePanel  # noqa: E402
from dungeon_guilds.widgets.teacher import TeacherPanel  # noqa: E402


def words(widget) -> str:
    """Every text a user reads in a widget tree (HTML values, descriptions, options, titles)."""
    out = []
    stack = [widget]
    while stack:
        w = stack.pop()
        for attr in ("value", "description", "tooltip"):
            v = getattr(w, attr, None)
            if isinstance(v, str):
                out.append(v)
        for o in getattr(w, "options", ()) or ():
            out.append(o[0] if isinstance(o, tuple) else str(o))
        out += list(getattr(w, "titles", ()) or ())
        stack += list(getattr(w, "children", ()) or ())
    text = "\n".join(out)
    return re.sub(r"<style>.*?</style>|href=\"data:[^\"]*\"", "", text, flags=re.S)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_teacher_page_makes_four_downloads_equal_to_the_worksheets(lang):
    t = TeacherPanel(lang=lang)
    t.lesson_dropdown.value = "design"
    t.version_input.value = 42
    t.make_button.click()
    links = re.findall(r'download="([^"]+)" href="data:text/html;charset=utf-8;base64,([^"]+)"', t.links_html.value)
    assert len(links) == 4
    for name, data in links:
        wlang = "zh" if "-zh" in name else "en"
        assert base64.b64decode(data).decode() == worksheet_page("design", 42, wlang, key=name.endswith("-key.html"))
    text = words(t)
    assert "teacher." not in text and "{" not in text
    assert ("45" in text) and ("90" in text)


def test_a_bad_version_is_refused_and_the_links_stay():
    t = TeacherPanel()
    t.make_button.click()
    before = t.links_html.value
    t.version_input.value = 0
    t.make_button.click()
    assert t.message_level == "warn" and "1" in t.message_text and "9999" in t.message_text
    assert t.links_html.value == before


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_challenge_shows_its_goal_and_editor(lang):
    p = ChallengePanel(lang=lang, games=(3, 3))
    for cid in p.challenges:
        p.challenge_dropdown.value = cid
        ch = p.challenge
        assert ch.words("goal_text", lang) in p.goal_html.value.replace("&#x27;", "'")
        assert (p.card_box.layout.display != "none") == (ch.change == "room_card")
        assert (p.lord_box.layout.display != "none") == (ch.change == "lord")
        text = words(p)
        assert "challenge." not in text and "workshop." not in text and "{" not in text


def test_check_shows_the_verdict_and_follows_the_language():
    p = ChallengePanel(games=(4, 4))
    p.challenge_dropdown.value = "level3_worth_it"
    p.card_dropdown.value = [c for c, _ in p.card_kinds].index(next(c for c, _ in p.card_kinds if c.defence == 9))
    p.defence_input.value = 7
    p.check_button.click()
    r = p.result
    assert r is not None and r.games == 4 and r.change[2] == 3
    assert f"dg-verdict-{r.status}" in p.verdict_html.value and 'role="status"' in p.verdict_html.value
    p.lang = "zh"
    assert "把握程度" in p.verdict_html.value and "等級 3" in p.verdict_html.value


def test_a_value_off_the_cards_back_is_refused_in_words():
    p = ChallengePanel(lang="zh", games=(2, 2))
    p.challenge_dropdown.value = "risky_level1"
    p.defence_input.value = 12
    p.check_button.click()
    assert p.result is None and p.message_level == "warn"
    assert "R1.2" in p.message_text and "range" not in p.message_text
    p.defence_input.value = 99
    p.check_button.click()
    assert p.result is None and "99" in p.message_text


def test_a_lord_challenge_starts_from_the_printed_lord_and_checks_the_students():
    p = ChallengePanel(games=(3, 3))
    p.challenge_dropdown.value = "calmer_caveman"
    assert p.effect_row.effect_dict() == {"kind": "flip", "exhaust": [1, 2], "activate": [3, 4, 5]}
    p.check_button.click()
    assert p.result.change is None  # the printed lord: nothing changed
    p.effect_row.exhaust_select.value = (1,)
    p.check_button.click()
    assert p.result.change.effects[0].exhaust == (1,)
    assert "now:" in p.verdict_html.value


def test_the_dashboard_has_the_challenges_tab_and_the_teacher_page_on_its_first_screen():
    d = Dashboard()
    assert "challenges" in TABS
    assert d.teacher_fold in d.app_layout.header.children and d.teacher_fold.selected_index is None
    assert d.teacher_fold.titles == ("For teachers: lessons, worksheets, how to serve",)
    assert isinstance(d.select_tab("challenges"), ChallengePanel)
    d.lang = "zh"
    assert d.tabs.titles[TABS.index("challenges")] == "挑戰"
    assert d.apps["challenges"].check_button.description == "檢查"
    assert d.teacher.make_button.description == "產生學習單"


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_teacher_page_opens_every_lesson_plan_in_both_languages(lang):
    """Issue 40: every plan in the package's folder is offered, and opens as two pages to print
    (English, 繁體中文) equal to the package's rendering; the commands are a pip user's."""
    from dungeon_guilds.teaching import lesson_pages

    t = TeacherPanel(lang=lang)
    offered = [value for _label, value in t.plan_dropdown.options]
    assert offered == list(lesson_pages.plans()) and {"lesson-2-design", "challenges"} <= set(offered)
    for name in offered:
        t.plan_dropdown.value = name
        t.plan_button.click()
        links = re.findall(r'download="([^"]+)" href="data:text/html;charset=utf-8;base64,([^"]+)"',
                           t.plan_links_html.value)
        quiz = [lesson_pages.quiz_name(name, x) for x in ("en", "zh")] if lesson_pages.has_quiz(name) else []
        assert [n for n, _ in links] == [f"{name}.html", f"{name}.zh.html"] + quiz  # issue 53: the students' quiz
        for (_n, data), page_lang in zip(links, ("en", "zh")):
            assert base64.b64decode(data).decode() == lesson_pages.page_html(name, page_lang)
        for (_n, data), page_lang in zip(links[2:], ("en", "zh")):
            assert base64.b64decode(data).decode() == lesson_pages.quiz_html(name, page_lang)
    text = words(t)
    assert "dungeon-guilds dashboard --host 0.0.0.0 --class" in text and "docs/teaching" not in text
    assert "teacher." not in text and "{" not in text
