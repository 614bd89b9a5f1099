"""Showing plotly figures in an app's ``Output``: as plotly's display bundles, or on the
classroom server as :class:`~dungeon_guilds.widgets.figure_view.LazyFigure` widgets (imported
when first needed)."""

from __future__ import annotations

import json
import os
import sys

import ipywidgets as W
import plotly.io as pio
from plotly.io.base_renderers import ExternalRenderer, MimetypeRenderer

from ..drawing.plotly_config import plotly_config

__all__ = ["VoilaHtmlRenderer", "figure_bundle", "show_figure", "show_figures", "under_voila", "voila_figure_renderer"]


def figure_bundle(fig) -> dict:
    """A plotly figure as a Jupyter display bundle (plotly's own mimetype, rendered natively by
    JupyterLab, Notebook 7, Voila and VS Code through the extension plotly ships)."""
    data = json.loads(fig.to_json())
    data["config"] = plotly_config()
    title = ((data.get("layout") or {}).get("title") or {}).get("text", "")
    return {"application/vnd.plotly.v1+json": data, "text/plain": f"<plotly figure {title!r}>"}


def show_figure(output: W.Output, fig) -> None:
    """Show ``fig`` in ``output``, replacing what was there (works with or without a kernel)."""
    show_figures(output, [fig])


def show_figures(output: W.Output, figs) -> None:
    """Show the figures ``figs`` one below the other in ``output``, replacing what was there:
    as plotly's display bundles, or, in a kernel of the dashboard's Voila server, as
    :class:`~dungeon_guilds.widgets.figure_view.LazyFigure` widgets (kept with the output and
    redrawn in place), which load plotly.js only when a figure is about to be seen."""
    bundles = [figure_bundle(fig) for fig in figs]
    from .figure_view import LazyFigure, lazy_figures, view_output

    if not lazy_figures():
        output.outputs = tuple({"output_type": "display_data", "data": b, "metadata": {}} for b in bundles)
        return
    views = list(getattr(output, "dg_figures", ()))[:len(bundles)]
    views += [LazyFigure() for _ in range(len(bundles) - len(views))]
    for view, bundle in zip(views, bundles):
        view.show(bundle)
    output.dg_figures = views
    shown = tuple(view_output(v, b["text/plain"]) for v, b in zip(views, bundles))
    if output.outputs != shown:  # the same views stay on the page: only their figures change
        output.outputs = shown


# ---------------------------------------------------------------- figures a cell returns, in Voila
VOILA_ENV = ("VOILA_KERNEL_ID", "VOILA_PREHEAT")  # Voila sets these in every kernel it starts
VOILA_RENDERER = "dungeon_guilds_html"
BROWSER_RENDERER = "dungeon_guilds_browser"  # the static site's (BrowserMimeRenderer)


class VoilaHtmlRenderer(MimetypeRenderer):
    """A figure as plotly's HTML (``plotly.io.to_html``) with plotly.js inline in the first
    figure of the kernel (a Voila kernel serves one page) and no MathJax: plotly's own
    ``notebook`` renderer asks a CDN for MathJax, and nothing may come from another host."""

    def __init__(self):
        self.state = {"plotly_js_sent": False}  # shared by the copies plotly makes of a renderer

    def to_mimebundle(self, fig_dict: dict) -> dict:
        first = not self.state["plotly_js_sent"]
        html = pio.to_html(fig_dict, config=plotly_config(), include_plotlyjs=first,
                           include_mathjax=False, full_html=False, default_width="100%", validate=False)
        self.state["plotly_js_sent"] = True
        return {"text/html": html}


class BrowserMimeRenderer(ExternalRenderer):
    """The static site (issue 50: lesson 4's notebook rendered by Voici, Python in the browser):
    plotly's own mimetype bundle, displayed as it is. Plotly's ``show`` refuses every mimetype
    renderer where ``nbformat`` cannot be imported (it only checks its version), and the browser's
    Python has no nbformat (its jsonschema needs a compiled rpds-py): a figure a cell returned was
    drawn under a ValueError's traceback. An external renderer's ``render`` is not checked."""

    def render(self, fig_dict: dict) -> None:
        from IPython.display import display

        display(pio.renderers["plotly_mimetype"].to_mimebundle(fig_dict), raw=True)


def under_voila() -> bool:
    """Whether this kernel was started by Voila (``voila``, Voila's server extension, Binder's
    ``voila/render``, or the dashboard's own server)."""
    return any(name in os.environ for name in VOILA_ENV)


def voila_figure_renderer() -> bool:
    """In a kernel Voila started, make plotly draw a figure that a notebook cell returns as HTML
    (:class:`VoilaHtmlRenderer`: plotly.js inline, once a page, nothing fetched); elsewhere
    (JupyterLab, nbconvert, nbval) leave plotly's renderer alone; in the static site's browser,
    :class:`BrowserMimeRenderer`. Returns whether it did.

    Why (issue 24.5): Voila draws a cell's own outputs with a bare JSON object for a model, and
    plotly's JupyterLab renderer (the mimetype bundle), once it has drawn a figure, stores a PNG
    of it with ``model.setData`` — which that object lacks: "r.setData is not a function" on
    every page with a figure. Figures shown by the widgets (:func:`show_figures`, in an
    ``Output``, whose outputs have real models) are not affected and stay as they are."""
    if sys.platform == "emscripten":  # the static site's Voici page (BrowserMimeRenderer)
        pio.renderers[BROWSER_RENDERER] = BrowserMimeRenderer()
        pio.renderers.default = BROWSER_RENDERER
        return True
    if not under_voila():
        return False
    if VOILA_RENDERER not in pio.renderers:
        pio.renderers[VOILA_RENDERER] = VoilaHtmlRenderer()
    pio.renderers.default = VOILA_RENDERER
    return True
