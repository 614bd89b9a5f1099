"""The lesson plans in the package (issue 40): one copy, every file of the folder a page, each
rendered as a printable page (A4) with its tables, links between plans going to their pages."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

from dungeon_guilds.teaching import lesson_pages

ROOT = Path(__file__).resolve().parents[2]
pytest.importorskip("mistune")


def test_the_plans_have_one_copy_in_the_package():
    names = {p.name for p in lesson_pages.LESSON_DIR.glob("*.md")} - {"README.md"}
    assert {"lesson-1-learn.md", "lesson-2-design.zh.md", "challenges.md"} <= names
    skip = {".git", "build", "_site", ".venv", "node_modules", "mutants"}  # mutants: make mutation's copy
    copies = [p for p in ROOT.rglob("*.md") if p.name in names and not skip & set(p.relative_to(ROOT).parts)
              and p.parent != lesson_pages.LESSON_DIR]
    assert copies == [], f"a second copy of a lesson plan: {copies}"
    pointer = (ROOT / "docs" / "teaching" / "README.md").read_text("utf-8")
    assert "dungeon_guilds/teaching/lessons/" in pointer
    data = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["tool"]["setuptools"]["package-data"]
    assert "teaching/lessons/*.md" in data["dungeon_guilds"]


def test_every_file_in_the_folder_is_a_page(tmp_path):
    for path in lesson_pages.LESSON_DIR.glob("*.md"):
        (tmp_path / path.name).write_text(path.read_text("utf-8"), "utf-8")
    (tmp_path / "lesson-9-new.md").write_text("# Lesson 9 · New\n\nSee [lesson 1](lesson-1-learn.md).\n", "utf-8")
    plans = lesson_pages.plans(tmp_path)
    assert "lesson-9-new" in plans and "README" not in plans
    written = {p.name for p in lesson_pages.write_pages(tmp_path / "out", tmp_path)}
    assert {"lesson-9-new.html", "lesson-9-new.zh.html", "index.html"} <= written
    page = (tmp_path / "out" / "lesson-9-new.html").read_text("utf-8")
    assert 'href="lesson-1-learn.html"' in page and "<title>Lesson 9 · New</title>" in page
    assert 'href="lesson-9-new.html"' in (tmp_path / "out" / "index.html").read_text("utf-8")


@pytest.mark.parametrize("lang", lesson_pages.LANGS)
def test_a_plan_is_a_printable_page(lang):
    page = lesson_pages.page_html("lesson-2-design", lang)
    assert "@page { size: A4" in page and f'lang="{lesson_pages.HTML_LANG[lang]}"' in page
    assert page.count("<table>") >= 1 and "<td>" in page  # the timeline is a table
    assert not re.search(r'href="[^"]+\.md"', page)  # links go to pages
    assert not re.search(r"(src|href)=\"https?://", page)  # nothing from another host
    assert "<code>dungeon-guilds dashboard --host 0.0.0.0 --class 30</code>" in page


@pytest.mark.parametrize("lang", lesson_pages.LANGS)
def test_worksheet_2_is_the_design_handout_with_a_key(lang):
    """Issue 40: what a group hands in — the unfair moment, the starting value and the
    prediction, the change, the verdict with its interval, the playtest — and a key saying
    what a good answer looks like; the engine's questions follow."""
    from dungeon_guilds import i18n
    from dungeon_guilds.teaching.worksheet_html import HANDOUT, worksheet_page

    sheet, key = worksheet_page("design", 3, lang), worksheet_page("design", 3, lang, key=True)
    for item in HANDOUT:
        title = i18n.t(f"worksheet.h_{item}", lang)
        assert title.split("。")[0].split(".")[1][:6] in sheet and title.split("。")[0].split(".")[1][:6] in key
    assert sheet.count('<div class="box"></div>') == len(HANDOUT) and 'class="good"' not in sheet
    assert key.count('class="good"') == len(HANDOUT) and '<div class="box">' not in key
    assert "95" in key and sheet.index('class="handout"') < sheet.index('class="q"')
    assert 'class="handout"' not in worksheet_page("learn", 3, lang)
