"""Plotly figures for the classroom server, drawn when they come into view (issue 12).

Everywhere else (JupyterLab, Notebook 7, VS Code, the static site, Binder) a figure is shown as
plotly's own display bundle and drawn by the page extension plotly ships
(:func:`~dungeon_guilds.widgets.figures.figure_bundle`). That extension carries all of plotly.js
(4.8 MB) and a page loads it before anything else, whether it shows a figure or not: with a
class of 30 opening the dashboard on one small server, parsing it was half of each page's start.

So the dashboard's own Voila server (``make dashboard``, :mod:`dungeon_guilds.app.voila_app`)
leaves that extension out of its pages and sets :data:`FIGURES_ENV` for its kernels; there a
figure is a :class:`LazyFigure`: a small ``anywidget`` (JavaScript inline here) that asks the
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

FIGURES_ENV = "DUNGEON_GUILDS_FIGURES"  # "lazy": figures are LazyFigure widgets
PLOTLY_URL = "dungeon-guilds/plotly/plotly.min.js"  # under the server's base URL

_ESM = r"""
function plotlyAt(src) {
  if (window.Plotly) return Promise.resolve(window.Plotly);
  if (!window.__dgPlotly) {
    window.__dgPlotly = new Promise((resolve, reject) => {
      const script = document.createElement('script');
      script.src = src;
      script.async = true;
      script.onload = () => resolve(window.Plotly);
      script.onerror = () => { window.__dgPlotly = null; reject(new Error(src)); };
      document.head.appendChild(script);
    });
  }
  return window.__dgPlotly;
}
function baseUrl() {
  try {
    return JSON.parse(document.getElementById('jupyter-config-data').textContent).baseUrl || '/';
  } catch (e) {
    return '/';
  }
}
function render({ model, el }) {
  const box = document.createElement('div');
  box.className = 'dg-lazy-plot';
  el.appendChild(box);
  let plotly = null;
  let started = false;
  function size() {
    const layout = (model.get('figure') || {}).layout || {};
    box.style.minHeight = (layout.height || 450) + 'px';
  }
  function draw() {
    const fig = model.get('figure') || {};
    plotly.react(box, fig.data || [], fig.layout || {}, fig.config || {});
  }
  function start() {
    if (started) return;
    started = true;
    box.classList.remove('dg-lazy-plot-failed');
    box.textContent = '';
    const src = new URL(model.get('src'), new URL(baseUrl(), window.location.href)).href;
    plotlyAt(src).then((p) => { plotly = p; box.classList.add('dg-lazy-plot-drawn'); draw(); })
      .catch(() => {
        // say so, in words, and try again on a click (a network blip, a server restarting)
        started = false;
        box.classList.add('dg-lazy-plot-failed');
        box.textContent = model.get('failed_text');
      });
  }
  box.addEventListener('click', () => { if (!plotly) start(); });
  size();
  if ('IntersectionObserver' in window) {
    const seen = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) { seen.disconnect(); start(); }
    }, { rootMargin: '300px' });
    seen.observe(box);
  } else {
    start();
  }
  model.on('change:figure', () => { size(); if (plotly) draw(); });
  return () => { if (plotly) plotly.purge(box); };
}
export default { render };
"""

_CSS = """
.dg-lazy-plot { width: 100%; background: #fafafa; border-radius: 4px; }
.dg-lazy-plot.dg-lazy-plot-drawn { background: none; }
.dg-lazy-plot.dg-lazy-plot-failed { display: flex; align-items: center; justify-content: center;
  padding: 1em; color: #8a1c1c; cursor: pointer; text-align: center; }
"""


class LazyFigure(anywidget.AnyWidget):
    """One figure (plotly's JSON in ``figure``), drawn in the page once it is about to be seen,
    with plotly.js from ``src`` (relative to the server's base URL)."""

    _esm = _ESM
    _css = _CSS
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
