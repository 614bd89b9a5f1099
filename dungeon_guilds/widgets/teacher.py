"""The teacher page (issue 28): which lesson for which time, worksheets to print with their
answer keys, how to serve the dashboard and what students need. The dashboard shows it folded
on its first screen.

``TeacherPanel()``: ``lesson_dropdown`` (``teaching.LESSONS``), ``version_input``,
``make_button``, ``links_html`` (four downloads: worksheet and answer key, English and
繁體中文, as data: links — nothing is written on the server), ``pages`` (the last pages made,
``{(lang, key): html}``); ``plan_dropdown`` (every plan in ``teaching/lessons/``),
``plan_button``, ``plan_links_html`` (the plan in English and 繁體中文, as pages to print:
data: links rendered here, or the static site's own pages), ``plan_pages`` (``{lang: html}``).
"""

from __future__ import annotations

import sys
from html import escape
from pathlib import Path

import ipywidgets as W

from .. import i18n
from ..teaching import LESSONS, lesson_pages
from ..teaching.worksheet_html import filename, worksheet_html
from ..teaching.worksheets import worksheet
from .common import App, safe, set_options
from .inputs import checked_int, fit
from .downloads import LINK_STYLE, download_link
from .labels import label_all

VERSION_MAX = 9999
TABLE_CSS = (Path(__file__).with_name("teacher.css").read_text(encoding="utf-8").replace("\n", ""))
LESSON_TIMES = {"learn": "time_45", "design": "time_90", "compare": "time_45", "strategy": "time_45"}
# "Which lesson for which time": the worksheet lessons, then lesson 4 (no worksheet: notebook 10)
TIME_TABLE = tuple(LESSONS) + ("strategy",)


COMMANDS = {"pip": "pip install 'dungeon-guilds[dashboard]'",
            "server": "dungeon-guilds dashboard --host 0.0.0.0 --class 30",
            "make_server": "make dashboard HOST=0.0.0.0", "site": "dungeon-guilds site _site",
            "serve": "dungeon-guilds site _site --serve --host 0.0.0.0", "make_site": "make site",
            "notebooks": "dungeon-guilds notebooks DIR", "class_option": "--class", "npm": "npm"}
# in the static site (Pyodide, no mistune) the plans are the site's own pages (app/site.py
# writes them beside the dashboard's page, voici/render/dashboard.html)
SITE_LESSONS = "../../lessons"


def tt(key: str, lang: str, **values) -> str:
    return i18n.t(f"teacher.{key}", lang, **values)


def with_code(key: str, lang: str) -> str:
    """A sentence as HTML, its commands and folder names (``{server}`` …) set as code."""
    return escape(i18n.t(f"teacher.{key}", lang)).format(
        **{name: f"<code>{escape(cmd)}</code>" for name, cmd in COMMANDS.items()})


class TeacherPanel(App):
    css_class = "dg-teacher"
    # the controls' words (strings: teacher.<key>), given again when the language changes
    LABELS = {"plan_dropdown": "plan_choice", "plan_button": "plan_make", "lesson_dropdown": "worksheet_lesson",
              "version_input": "worksheet_version", "make_button": "make"}

    def __init__(self, lang: str = "en", lang_state=None, show_language: bool = False):
        super().__init__(lang=lang, lang_state=lang_state, show_language=show_language)
        self.lessons_html, self.serve_html = W.HTML(), W.HTML()
        self.worksheets_title = W.HTML()
        self.lesson_dropdown = W.Dropdown(options=list(LESSONS), layout=W.Layout(width="min(100%, 420px)"))
        self.version_input = W.IntText(value=1, layout=W.Layout(width="220px")).add_class("dg-worksheet-version")
        self.make_button = W.Button(icon="print", button_style="primary", layout=fit()).add_class("dg-worksheet-make")
        self.links_html = W.HTML().add_class("dg-worksheet-links")
        self.pages: dict[tuple[str, bool], str] = {}
        self._made: tuple[str, int] | None = None
        self.make_button.on_click(self._on_make)
        self.plans_title = W.HTML()
        self.plan_dropdown = W.Dropdown(layout=W.Layout(width="min(100%, 420px)")).add_class("dg-plan-choice")
        self.plan_button = W.Button(icon="book", button_style="primary", layout=fit()).add_class("dg-plan-open")
        self.plan_links_html = W.HTML().add_class("dg-worksheet-links")
        self.plan_pages: dict[str, str] = {}
        self.quiz_pages: dict[str, str] = {}  # the students' copy of the plan's exit quiz (issue 53)
        self.plan_button.on_click(self._on_plan)
        self.children = [self.lessons_html, self.plans_title,
                         W.HBox([self.plan_dropdown, self.plan_button],
                                layout=W.Layout(flex_flow="row wrap", align_items="center")),
                         self.plan_links_html, self.worksheets_title,
                         W.HBox([self.lesson_dropdown, self.version_input, self.make_button],
                                layout=W.Layout(flex_flow="row wrap", align_items="center")),
                         self.message, self.links_html, self.serve_html]
        self.relabel()

    @safe
    def _on_make(self, _button=None) -> None:
        self.make()

    def make(self) -> dict[tuple[str, bool], str]:
        """The worksheet and answer key of the chosen lesson and version, in both languages."""
        seed = checked_int(self.version_input, 1, VERSION_MAX, "teacher.worksheet_version")
        lesson = self.lesson_dropdown.value
        ws = worksheet(lesson, seed)
        self.pages = {(lang, key): worksheet_html(ws, lang, key) for lang in ("en", "zh") for key in (False, True)}
        self._made = (lesson, seed)
        self.say("")
        self._label_links()
        return self.pages

    @safe
    def _on_plan(self, _button=None) -> None:
        self.open_plan()

    def open_plan(self) -> dict[str, str]:
        """The chosen lesson plan as pages to print, in both languages (``plan_pages``)."""
        name = self.plan_dropdown.value
        try:
            self.plan_pages = {lang: lesson_pages.page_html(name, lang) for lang in lesson_pages.LANGS}
            quizzes = {lang: lesson_pages.quiz_html(name, lang) for lang in lesson_pages.LANGS}
            self.quiz_pages = {lang: page for lang, page in quizzes.items() if page is not None}
        except lesson_pages.RendererMissing:
            self.plan_pages, self.quiz_pages = {}, {}
            if sys.platform != "emscripten":  # a server without mistune: say what to install
                self.say(tt("plan_missing", self.lang))
                self.plan_links_html.value = ""
                return {}
        self.say("")
        self._label_plan_links()
        return self.plan_pages

    def _label_plan_links(self) -> None:
        name = self.plan_dropdown.value
        if not name or not (self.plan_pages or sys.platform == "emscripten"):
            self.plan_links_html.value = ""
            return
        names = i18n.languages()
        links = [self._plan_link(tt("plan_link", self.lang, language=names[lang]), self.plan_pages.get(lang),
                                 lesson_pages.page_name(name, lang)) for lang in lesson_pages.LANGS]
        if lesson_pages.has_quiz(name):  # the students' copy, no answers (issue 53)
            links += [self._plan_link(tt("quiz_link", self.lang, language=names[lang]), self.quiz_pages.get(lang),
                                      lesson_pages.quiz_name(name, lang)) for lang in lesson_pages.LANGS]
        self.plan_links_html.value = (f'<p class="dg-note">{escape(tt("plan_made", self.lang))}</p><p>'
                                      + " · ".join(links) + "</p>")

    @staticmethod
    def _plan_link(label: str, page: str | None, file: str) -> str:
        """A download of ``page``, or (the static site, ``page`` None) a link to its own ``file``."""
        if page is None:
            href = escape(f"{SITE_LESSONS}/{file}")
            return f'<a class="dg-download" style="{LINK_STYLE}" href="{href}" target="_blank" rel="noopener">{escape(label)}</a>'
        return download_link(page, file, label, "text/html")

    def _label_links(self) -> None:
        if self._made is None:
            self.links_html.value = ""
            return
        lesson, seed = self._made
        names = i18n.languages()
        links = [download_link(page, filename(lesson, seed, lang, key),
                               tt("link_key" if key else "link_sheet", self.lang, language=names[lang]), "text/html")
                 for (lang, key), page in self.pages.items()]
        self.links_html.value = (f'<p class="dg-note">{escape(tt("made", self.lang))}</p><p>'
                                 + " · ".join(links) + "</p>")

    def relabel(self) -> None:
        L = self.lang
        rows = "".join(
            f"<tr><td>{escape(tt(LESSON_TIMES[n], L))}</td><td>{escape(tt(f'lesson_{n}', L))}</td>"
            f"<td>{escape(tt(f'tabs_{n}', L))}</td><td>{escape(tt(f'hand_in_{n}', L))}</td></tr>" for n in TIME_TABLE)
        head = "".join(f"<th>{escape(tt(k, L))}</th>" for k in ("col_time", "col_lesson", "col_tabs", "col_hand_in"))
        self.lessons_html.value = (f"<style>{TABLE_CSS}</style><h4>{escape(tt('lessons', L))}</h4>"
                                   f'<table class="dg-teacher-lessons"><thead><tr>{head}</tr></thead>'
                                   f"<tbody>{rows}</tbody></table><p>{with_code('plans', L)}</p>")
        self.plans_title.value = f"<h4>{escape(tt('plan_title', L))}</h4>"
        plans = lesson_pages.plans()
        set_options(self.plan_dropdown, [(plans[n].title(L), n) for n in plans])
        self.plan_dropdown.style = {"description_width": "initial"}
        self.worksheets_title.value = f"<h4>{escape(tt('worksheets', L))}</h4>"
        set_options(self.lesson_dropdown, [(tt(f"lesson_{n}", L), n) for n in LESSONS])
        for w in (self.lesson_dropdown, self.version_input):
            w.style = {"description_width": "initial"}
        self.serve_html.value = (f"<h4>{escape(tt('serve', L))}</h4><ul>"
                                 + "".join(f"<li>{with_code(k, L)}</li>" for k in ("serve_server", "serve_site", "serve_paper"))
                                 + f"</ul><h4>{escape(tt('needs', L))}</h4><p>{escape(tt('needs_text', L))}</p>")
        label_all(self, self.LABELS, lambda key: tt(key, L))
        self._label_links()
        self._label_plan_links()

    def refresh(self) -> None:
        """Nothing to redraw beyond the words."""


__all__ = ["TeacherPanel", "VERSION_MAX"]
