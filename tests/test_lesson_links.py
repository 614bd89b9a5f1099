"""The lesson notebooks' links on the dashboard's first screen (issue 50, item 3:
dungeon_guilds/app/lesson_links.py): where each page lives on the dashboard's server and on the
static site, in both languages, and no link where there is no page (JupyterLab)."""

from __future__ import annotations

import sys
from pathlib import Path

from dungeon_guilds.app import lesson_links

ROOT = Path(__file__).resolve().parents[1]


def test_every_lesson_notebook_exists_and_its_plan_names_it():
    for lesson, name in lesson_links.LESSON_NOTEBOOKS:
        assert lesson_links.NAME.fullmatch(name) and (ROOT / "notebooks" / f"{name}.ipynb").is_file()
        plan = next(p for p in (ROOT / "dungeon_guilds" / "teaching" / "lessons").glob(f"lesson-{lesson}-*.md")
                    if not p.name.endswith(".zh.md"))
        assert f"{name}.ipynb" in plan.read_text(encoding="utf-8"), plan
    assert set(lesson_links.SITE_NOTEBOOKS) <= {name for _, name in lesson_links.LESSON_NOTEBOOKS}


def test_the_links_follow_the_server_the_site_or_nothing(monkeypatch):
    monkeypatch.delenv(lesson_links.URL_ENV, raising=False)
    assert lesson_links.links_html("en") == ""  # JupyterLab: no page of its own
    monkeypatch.setenv(lesson_links.URL_ENV, "/base/dungeon-guilds/notebooks/")
    html = lesson_links.links_html("zh")
    assert 'href="/base/dungeon-guilds/notebooks/10_strategy"' in html and "第 4 課" in html
    assert 'href="/base/dungeon-guilds/notebooks/08_sibling_games"' in html
    monkeypatch.delenv(lesson_links.URL_ENV)
    monkeypatch.setattr(sys, "platform", "emscripten")  # the static site: only what the browser runs
    html = lesson_links.links_html("en")
    assert 'href="10_strategy.html"' in html and "Lesson 4: notebook 10" in html
    assert "08_sibling_games" not in html
