"""The strategy lesson's figures (issue 38, item 5): strong play beside greedy play.

:func:`compare_figure` draws one family of shares of the shipped figures
(:func:`dungeon_guilds.analysis.strategy_facts.shipped`) — e.g. the exhaust pairs (R2.4) or the
room entered first — as bars for the ``strong`` and the ``greedy`` self-play, each with its
95 % interval. A pure function from the data to a plotly figure.
"""

from __future__ import annotations

from typing import Any, Sequence

import plotly.graph_objects as go

__all__ = ["compare_figure"]

COLOURS = {"strong": "#0072b2", "greedy": "#e69f00"}  # Okabe-Ito blue and orange
NAMES = {"strong": "strong (search)", "greedy": "greedy (this round's gold)"}


def compare_figure(data: dict[str, Any], family: str, labels: Sequence[tuple[str, str]], title: str) -> go.Figure:
    """Bars of ``{bot}.{family}.{key}`` for each (key, label) in ``labels``, in percent of the
    decisions, with the intervals as error bars; a key without a figure (too few decisions) is
    left out."""
    facts = data["facts"]
    fig = go.Figure()
    for bot in ("strong", "greedy"):
        keys = [(k, lab) for k, lab in labels if f"{bot}.{family}.{k}" in facts]
        rows = [facts[f"{bot}.{family}.{k}"] for k, _ in keys]
        fig.add_bar(
            name=NAMES[bot], y=[lab for _, lab in keys], x=[100 * r["value"] for r in rows], orientation="h",
            marker_color=COLOURS[bot],
            error_x={"type": "data", "symmetric": False, "color": "#333",
                     "array": [100 * (r["high"] - r["value"]) for r in rows],
                     "arrayminus": [100 * (r["value"] - r["low"]) for r in rows]},
            hovertemplate="%{y}: %{x:.0f} %<extra>" + NAMES[bot] + "</extra>")
    fig.update_layout(  # the title just above the plot, clear of plotly's toolbar on a phone
        title={"text": title, "font": {"size": 14}, "x": 0, "xref": "paper", "y": 1, "yref": "paper",
               "yanchor": "bottom", "pad": {"b": 10}},
        barmode="group", xaxis={"range": [0, 100], "ticksuffix": " %"},
        yaxis={"autorange": "reversed", "automargin": True},
        height=170 + 44 * len(labels), margin={"l": 10, "r": 24, "t": 90, "b": 10},
        # the legend 36 px under the plot (below the tick labels), whatever the plot's height
        legend={"orientation": "h", "yanchor": "top", "y": -36 / (70 + 44 * len(labels)), "x": 0},
        plot_bgcolor="white")
    return fig
