"""Plotly figures for the classroom server, drawn when they come into view (issue 12).

Everywhere else (JupyterLab, Notebook 7, VS Code, the static site, Binder) a figure is shown as
plotly's own display bundle and drawn by the page extension plotly ships
(:func:`~dungeon_guilds.widgets.figures.figure_bundle`). That extension carries all of plotly.js
(4.8 MB) and a page loads it before anything else, whether it shows a figure or not: with a
class of 30 opening the dashboard on one small server, parsing it was half of each page's start.

So the dashboard's own Voila server (``make dashboard``, :mod:`dungeon_guilds.app.voila_app`)
leaves that extension out of its pages and sets :data:`FIGURES_ENV` for its kernels; there a
figure is a :class:`LazyFigure`: a small ``anywidget`` (its JavaScript: ``figure_view.js``) that asks the
same server for plotly.js (:data:`PLOTLY_URL`, the file of the installed plotly package, so the
versions match) the first time a figure is about to be seen, once per page, and draws the
figure's JSON with it. Nothing is fetched from another host.
"""

from __future__ import annotations

import os
from pathlib import Path

import anywidget
import traitlets

from .. import i18n

HERE = Path(__file__).parent
FIGURES_ENV = "DUNGEON_GUILDS_FIGURES"  # "lazy": figures are LazyFigure widgets
PLOTLY_URL = "dungeon-guilds/plotly/plotly.min.js"  # under the server's base URL




class LazyFigure(anywidget.AnyWidget):
    """One figure (plotly's JSON in ``figure``), drawn in the page once it is about to be seen,
    with plotly.js from ``src`` (relative to the server's base URL)."""

    _esm = HERE / "figure_view.js"
    _css = HERE / "figure_view.css"
    figure = traitlets.Dict({}).tag(sync=True)
    src = traitlets.Unicode(PLOTLY_URL).tag(sync=True)
    # what the box says if plotly.js cannot be loaded, in both languages (a chart does not know
    # the page's language; its title is already in it)
    failed_text = traitlets.Unicode().tag(sync=True)

    @traitlets.default("failed_text")
    def _failed_text(self) -> str:
        return " · ".join(i18n.t("fig.chart_failed", lang) for lang in ("en", "zh"))

    def show(self, bundle: dict) -> None:
        """Draw the figure of a plotly display bundle (``figure_bundle``)."""
        self.figure = bundle["application/vnd.plotly.v1+json"]


def lazy_figures() -> bool:
    """Whether this kernel was started by the dashboard's Voila server (figures as
    :class:`LazyFigure`), not by JupyterLab, the static site or a test."""
    return os.environ.get(FIGURES_ENV) == "lazy"


def plotly_js() -> Path:
    """The installed plotly package's own ``plotly.min.js`` (what its figures' JSON is for)."""
    import plotly

    path = Path(plotly.__file__).with_name("package_data") / "plotly.min.js"
    if not path.is_file():
        raise FileNotFoundError(f"no plotly.min.js in the plotly package ({path.parent})")
    return path


def view_output(widget: LazyFigure, text: str) -> dict:
    """An output (for an ``Output`` widget's ``outputs``) that shows ``widget`` (``text``: what
    a plain-text reader sees)."""
    return {"output_type": "display_data", "metadata": {},
            "data": {"application/vnd.jupyter.widget-view+json":
                     {"version_major": 2, "version_minor": 0, "model_id": widget.model_id},
                     "text/plain": text}}


__all__ = ["FIGURES_ENV", "LazyFigure", "PLOTLY_URL", "lazy_figures", "plotly_js", "view_output"]
