"""The lesson plans, exit quizzes and the challenges guide as printable pages (issue 40).

The plans are Markdown files in ``dungeon_guilds/teaching/lessons/`` (the only copy: the wheel
carries them as package data; ``docs/teaching/README.md`` points there). Every ``*.md`` file
in that folder but ``README.md`` (the top of the index page) is a page: ``NAME.md`` in English, ``NAME.zh.md`` in 繁體中文 (a plan without
a Chinese file is shown in English for both). :func:`plans` lists them, :func:`page_html`
renders one as a page to print (A4, no asset from any host) with ``mistune`` — the Markdown
library nbconvert uses, so the dashboard's extras (Voila → nbconvert) and JupyterLab already
install it — and :func:`write_pages` writes them all as HTML files beside an index (the static
site, ``dungeon-guilds notebooks DIR``). A link from one plan to another (``NAME.md``) becomes
a link to its page (``NAME.html``). A plan with an exit quiz also has a students' copy of it,
made from the same Markdown without the answers (:func:`quiz_html`, ``NAME-quiz.html``; issue 53).

Listing the plans is standard library only; rendering needs ``mistune``
(:class:`RendererMissing` says so in words).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from html import escape
from pathlib import Path

from .. import i18n

LESSON_DIR = Path(__file__).with_name("lessons")
LANGS = ("en", "zh")
HTML_LANG = {"en": "en", "zh": "zh-Hant"}
INDEX = "index.html"
README = "README.md"  # the folder's introduction: the top of the index page, not a plan
_MD_LINK = re.compile(r'href="(?!https?:|/)([\w.-]+?)\.md(#[\w-]*)?"')
_CJK = "\u2e80-\u9fff\u3000-\u303f\uff00-\uffef"
# a line break in the Markdown source beside Chinese text: no space in the page (a browser shows
# the break of a soft-wrapped line as a space, which 繁體中文 does not have)
_CJK_BREAK = re.compile(rf"(?<=[{_CJK}])\n[ \t]*(?=\S)|(?<=\S)\n[ \t]*(?=[{_CJK}])")
# the exit quiz of a plan (its heading in either language), its heading's note on where the
# answers come from, an engine marker (``<!-- engine: … -->``) and an answer line
_QUIZ = re.compile(r"^## (Exit quiz|課後小測驗)")
_QUIZ_NOTE = re.compile(r"\s*[（(][^()（）]*[)）]\s*$")
_ENGINE_MARK = re.compile(r"^\s*<!--.*-->\s*$")
_ANSWER = re.compile(r"^(\s*(?:Answer: |答案：))\*\*.*\*\*.*$")
BLANK = "\\_" * 12  # a line to write on (escaped: Markdown would read ____ as emphasis)

CSS = Path(__file__).with_name("lesson_page.css").read_text(encoding="utf-8")  # the printed page (A4)


class RendererMissing(RuntimeError):
    """The Markdown renderer (``mistune``) is not installed."""


@dataclass(frozen=True)
class Plan:
    """One page of the teacher's kit: ``name`` (the file's stem), its files by language."""

    name: str
    files: dict[str, Path]

    def file(self, lang: str) -> Path:
        return self.files.get(lang) or self.files["en"]

    def title(self, lang: str) -> str:
        """The page's first ``# `` heading."""
        for line in self.file(lang).read_text("utf-8").splitlines():
            if line.startswith("# "):
                return line[2:].strip()
        return self.name


def plans(folder: Path = LESSON_DIR) -> dict[str, Plan]:
    """Every plan in ``folder`` (each ``*.md`` file; ``.zh.md`` is the Chinese of its stem), by
    name, the lessons (``lesson-*``) first: a file added to the folder is a page without any other change."""
    files: dict[str, dict[str, Path]] = {}
    for path in sorted(folder.glob("*.md")):
        if path.name == README:
            continue
        stem = path.name[:-3]
        lang = "zh" if stem.endswith(".zh") else "en"
        files.setdefault(stem.removesuffix(".zh"), {})[lang] = path
    order = sorted(files, key=lambda name: (not name.startswith("lesson-"), name))  # the lessons first
    return {name: Plan(name, files[name]) for name in order if "en" in files[name]}


def page_name(name: str, lang: str) -> str:
    """The HTML file of a plan in a language: ``NAME.html`` or ``NAME.zh.html``."""
    return f"{name}.html" if lang == "en" else f"{name}.{lang}.html"


def markdown_to_html(text: str) -> str:
    """Markdown (tables too) to HTML with ``mistune``; links to ``*.md`` go to ``*.html``."""
    try:
        import mistune
    except ImportError:
        raise RendererMissing("the lesson pages need the mistune package "
                              "(pip install 'dungeon-guilds[dashboard]' brings it)") from None
    html = mistune.create_markdown(escape=False, plugins=["table", "strikethrough"])(text)
    html = _CJK_BREAK.sub("", html)
    return _MD_LINK.sub(lambda m: f'href="{_target(m.group(1))}{m.group(2) or ""}"', html)


def _target(stem: str) -> str:
    return INDEX if stem == README[:-3] else f"{stem}.html"


def page_html(name: str, lang: str, folder: Path = LESSON_DIR) -> str:
    """The plan ``name`` in ``lang`` as a whole printable page."""
    plan = plans(folder)[name]
    body = markdown_to_html(plan.file(lang).read_text("utf-8"))
    return (f'<!DOCTYPE html><html lang="{HTML_LANG[lang]}"><head><meta charset="utf-8">'
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"<title>{escape(plan.title(lang))}</title><style>{CSS}</style></head>"
            f"<body>{body}</body></html>")


def quiz_name(name: str, lang: str) -> str:
    """The HTML file of a plan's student copy of its exit quiz: ``NAME-quiz.html`` / ``.zh.html``."""
    return page_name(f"{name}-quiz", lang)


def quiz_markdown(text: str) -> str | None:
    """A plan's exit quiz without its answers, for the students (issue 53), from the same
    Markdown as the teacher's copy: the section under :data:`_QUIZ` up to the next ``## ``
    heading, the heading's "(answers from …)" dropped, each ``Answer: **x**`` line left blank to
    fill in, the engine's markers (HTML comments) dropped. None when the plan has no exit quiz."""
    lines = text.splitlines()
    start = next((i for i, line in enumerate(lines) if _QUIZ.match(line)), None)
    if start is None:
        return None
    end = next((i for i in range(start + 1, len(lines)) if lines[i].startswith("## ")), len(lines))
    out = [_QUIZ_NOTE.sub("", lines[start])]
    for line in lines[start + 1:end]:
        if _ENGINE_MARK.match(line):
            continue
        answer = _ANSWER.match(line)
        out += ["", answer.group(1) + BLANK] if answer else [line]  # its own paragraph: room to write
    return "\n".join(out) + "\n"


def has_quiz(name: str, folder: Path = LESSON_DIR) -> bool:
    """Whether plan ``name`` has an exit quiz (standard library only: the static site asks)."""
    return quiz_markdown(plans(folder)[name].file("en").read_text("utf-8")) is not None


def quiz_html(name: str, lang: str, folder: Path = LESSON_DIR) -> str | None:
    """The student copy of plan ``name``'s exit quiz in ``lang`` as a page to print (a line for
    the student's name, then the questions with blank answers); None without a quiz."""
    plan = plans(folder)[name]
    quiz = quiz_markdown(plan.file(lang).read_text("utf-8"))
    if quiz is None:
        return None
    title = plan.title(lang)
    body = markdown_to_html(f"# {title}\n\n{i18n.t('lesson_quiz.name_line', lang)}\n\n{quiz}")
    return (f'<!DOCTYPE html><html lang="{HTML_LANG[lang]}"><head><meta charset="utf-8">'
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"<title>{escape(i18n.t('lesson_quiz.title', lang, lesson=title))}</title><style>{CSS}</style></head>"
            f'<body class="quiz">{body}</body></html>')


def index_html(folder: Path = LESSON_DIR) -> str:
    """A page listing every plan in both languages (the index of :func:`write_pages`)."""
    def link(plan: Plan, lang: str) -> str:
        return (f'<a href="{page_name(plan.name, lang)}" lang="{HTML_LANG[lang]}">'
                f"{escape(plan.title(lang))}</a>")

    readme = folder / README
    intro = markdown_to_html(readme.read_text("utf-8")) if readme.is_file() else "<h1>Dungeon Guilds</h1>"
    def quiz_links(plan: Plan) -> str:
        if quiz_markdown(plan.file("en").read_text("utf-8")) is None:
            return ""
        return " — " + " · ".join(f'<a href="{quiz_name(plan.name, lang)}" lang="{HTML_LANG[lang]}">'
                                  f"{escape(i18n.t('lesson_quiz.link', lang))}</a>" for lang in LANGS)

    rows = "".join(f"<li>{' · '.join(link(p, lang) for lang in LANGS)}{quiz_links(p)}</li>"
                   for p in plans(folder).values())
    return ('<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">'
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"<title>Lesson plans · 課程計畫</title><style>{CSS}</style></head>"
            f"<body>{intro}<h2>Lesson plans · 課程計畫</h2><ul>{rows}</ul></body></html>")


def write_pages(dest: Path, folder: Path = LESSON_DIR) -> list[Path]:
    """Write every plan in both languages, and the index, into ``dest``; returns the files."""
    dest.mkdir(parents=True, exist_ok=True)
    written = []
    for plan in plans(folder).values():
        for lang in LANGS:
            path = dest / page_name(plan.name, lang)
            path.write_text(page_html(plan.name, lang, folder), "utf-8")
            written.append(path)
            quiz = quiz_html(plan.name, lang, folder)
            if quiz is not None:  # the students' copy of its exit quiz (issue 53)
                (dest / quiz_name(plan.name, lang)).write_text(quiz, "utf-8")
                written.append(dest / quiz_name(plan.name, lang))
    (dest / INDEX).write_text(index_html(folder), "utf-8")
    return written + [dest / INDEX]


__all__ = ["LESSON_DIR", "Plan", "RendererMissing", "index_html", "page_html", "page_name", "plans",
           "has_quiz", "quiz_html", "quiz_markdown", "quiz_name", "write_pages"]
