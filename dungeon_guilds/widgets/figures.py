"""Showing plotly figures in an app's ``Output``: as plotly's display bundles, or on the
classroom server as :class:`~dungeon_guilds.widgets.figure_view.LazyFigure` widgets (imported
when first needed)."""

from __future__ import annotations

import json

import ipywidgets as W

__all__ = ["figure_bundle", "show_figure", "show_figures"]


def figure_bundle(fig) -> dict:
    """A plotly figure as a Jupyter display bundle (plotly's own mimetype, rendered natively by
    JupyterLab, Notebook 7, Voila and VS Code through the extension plotly ships)."""
    data = json.loads(fig.to_json())
    data["config"] = {"displaylogo": False, "responsive": True}
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
