"""The lesson notebooks as students open them (issue 50, item 3): the notebook a lesson plan names
(lesson 4's ``10_strategy``, lesson 3's ``08_sibling_games``) is linked from the dashboard's first
screen (:class:`~.dashboard.Dashboard` puts :func:`links_html` under its title) and is a page of
its own, one per student, in the student's browser:

* on the dashboard's own server (:mod:`.voila_app`, ``make dashboard``) every numbered notebook of
  ``notebooks/`` is a Voila page at ``<base>/dungeon-guilds/notebooks/<name>`` (its own kernel,
  counted under the class's kernel cap); the server tells its kernels that base in
  :data:`URL_ENV`;
* on the static site (:mod:`.site`) the notebooks the browser's Python can run
  (:data:`SITE_NOTEBOOKS`: the standard library, plotly and ipywidgets, no pandas) are rendered by
  Voici beside the dashboard, ``voici/render/<name>.html`` (the others need the class's server).

Elsewhere (JupyterLab, a plain notebook) there is no page to link: :func:`links_html` is empty.
"""

from __future__ import annotations

import os
import re
import sys
from html import escape

from .. import i18n

# (lesson, notebook) for every lesson plan that names a notebook (teaching/lessons/lesson-*.md)
LESSON_NOTEBOOKS = (("3", "08_sibling_games"), ("4", "10_strategy"))
# the notebooks the static site renders too: they import nothing its Python lacks (pandas, numpy)
SITE_NOTEBOOKS = ("10_strategy",)
URL_ENV = "DUNGEON_GUILDS_NOTEBOOKS_URL"  # set by voila_app for its kernels: "<base>/dungeon-guilds/notebooks"
ROUTE = "dungeon-guilds/notebooks"
NAME = re.compile(r"[0-9]{2}_[a-z0-9_]+")  # a numbered notebook's name, without .ipynb


def in_the_browser() -> bool:
    """This Python is the static site's (Pyodide)."""
    return sys.platform == "emscripten"


def notebook_url(name: str) -> str | None:
    """Where a student opens notebook ``name`` from the dashboard's page, or None (no page)."""
    base = os.environ.get(URL_ENV)
    if base:
        return f"{base.rstrip('/')}/{name}"
    if in_the_browser() and name in SITE_NOTEBOOKS:
        return f"{name}.html"  # beside voici/render/dashboard.html
    return None


def links_html(lang: str) -> str:
    """The first screen's line of lesson notebooks (one link each, opening a new tab), or ""."""
    links = []
    for lesson, name in LESSON_NOTEBOOKS:
        url = notebook_url(name)
        if url is None:
            continue
        words = escape(i18n.t("notebooks.link", lang, lesson=lesson, name=name, number=name[:2]))
        links.append(f'<a class="dg-notebook-link" href="{escape(url)}" target="_blank" rel="noopener" '
                     f'data-notebook="{name}">{words}</a>')
    if not links:
        return ""
    return (f'<p class="dg-notebook-links"><span>{escape(i18n.t("notebooks.heading", lang))}</span> '
            + " ".join(links) + "</p>")


__all__ = ["LESSON_NOTEBOOKS", "NAME", "ROUTE", "SITE_NOTEBOOKS", "URL_ENV", "links_html", "notebook_url"]
