"""The review's chart: each seat's expected gold through the game, the reviewed seat's
decisions marked (good / inaccuracy / mistake by shape and colour, so colour-blind readers can
tell them apart). Reads an :class:`~dungeon_guilds.analysis.review.Review`."""

from __future__ import annotations

from ..extras import require

require("dungeon_guilds.viz", "analysis", "plotly", "networkx")

import plotly.graph_objects as go

from ..analysis.review import GOOD, INACCURACY, MISTAKE, Review, money
from ..drawing.colours import colour
from ..drawing.plotly_config import CLOUD_BUTTONS
from .explorer import MODEBAR_BUTTONS
from ..i18n import t

#: a mark's marker: shape and colour (Okabe-Ito: bluish green, orange, vermillion)
MARK_STYLE = {GOOD: ("circle", "#009E73"), INACCURACY: ("diamond", "#E69F00"),
              MISTAKE: ("x", "#D55E00")}


def review_figure(review: Review, seat: int, lang: str | None = None) -> go.Figure:
    """A line per seat (``meta`` = seat) of the expected gold after each decision, and the
    decisions of ``seat`` as marked points just after them (``customdata`` = decision index)."""
    xs = list(range(len(review.curve)))
    traces = []
    for p, name in enumerate(review.names):
        traces.append(go.Scatter(
            x=xs, y=[row[p] for row in review.curve], name=f"{p + 1} · {name}", meta=p, mode="lines",
            line={"color": colour(p), "width": 3 if p == seat else 1.5, "dash": "solid" if p == seat else "dot"},
            hovertemplate=f"{name}: $%{{y:.2f}}<extra></extra>"))
    mine = [(i, d) for i, d in enumerate(review.decisions) if d.seat == seat]
    for mark in (GOOD, INACCURACY, MISTAKE):
        points = [(i, d) for i, d in mine if d.mark == mark]
        if not points:
            continue
        symbol, fill = MARK_STYLE[mark]
        traces.append(go.Scatter(
            x=[d.ply + 1 for _, d in points], y=[review.curve[d.ply + 1][seat] for _, d in points],
            customdata=[i for i, _ in points], mode="markers", name=t(f"review.{mark}", lang),
            marker={"symbol": symbol, "size": 14, "color": fill, "line": {"width": 1, "color": "#222"}},
            hovertext=[f"{t('review.diff', lang)} {money(d.loss)}" for _, d in points],
            hovertemplate="%{hovertext}<extra></extra>"))
    return readable(go.Figure(traces), t("review.chart_title", lang), t("review.chart_x", lang),
                    {"title": {"text": t("review.chart_y", lang)}, "rangemode": "tozero", "nticks": 6})


def win_chance_figure(review, seat: int, lang: str | None = None) -> go.Figure:
    """The judge's review (:class:`~dungeon_guilds.analysis.judge_review.JudgedReview`): a line
    per seat (``meta`` = seat) of its win chance at every moment, as ``seat`` could see it, and
    ``seat``'s decisions marked (``customdata`` = decision index). The moments of big change are
    the ones to study."""
    xs = list(range(len(review.curve)))
    traces = []
    for p, name in enumerate(review.names):
        traces.append(go.Scatter(
            x=xs, y=[100 * row[p] for row in review.curve], name=f"{p + 1} · {name}", meta=p, mode="lines",
            line={"color": colour(p), "width": 3 if p == seat else 1.5, "dash": "solid" if p == seat else "dot"},
            hovertemplate=f"{name}: %{{y:.0f}} %<extra></extra>"))
    mine = [(i, d) for i, d in enumerate(review.decisions) if d.seat == seat]
    for mark in (GOOD, INACCURACY, MISTAKE):
        points = [(i, d) for i, d in mine if d.mark == mark]
        if not points:
            continue
        symbol, fill = MARK_STYLE[mark]
        traces.append(go.Scatter(
            x=[d.ply + 1 for _, d in points], y=[100 * review.curve[d.ply + 1][seat] for _, d in points],
            customdata=[i for i, _ in points], mode="markers", name=t(f"review.{mark}", lang),
            marker={"symbol": symbol, "size": 14, "color": fill, "line": {"width": 1, "color": "#222"}},
            hovertext=[f"{t('judge.diff', lang)} {100 * d.made.loss:.0f}" for _, d in points],
            hovertemplate="%{hovertext}<extra></extra>"))
    return readable(go.Figure(traces), t("judge.chart_title", lang), t("judge.chart_x", lang),
                    {"title": {"text": t("judge.chart_y", lang)}, "range": [-3, 103], "tickvals": [0, 25, 50, 75, 100]})


def title_lines(text: str) -> str:
    """A chart's title in two lines at its bracket (plotly never wraps a title: one line of 60
    characters is cut on a 390-px phone)."""
    for bracket in (" (", "（"):
        if bracket in text:
            head, tail = text.split(bracket, 1)
            return f"{head}<br><span style='font-size:13px'>{bracket.strip()}{tail}</span>"
    return text


def readable(fig: go.Figure, title: str, x_title: str, yaxis: dict) -> go.Figure:
    """The review charts' layout, readable on a 390-px phone as on a laptop (issue 49, item 6):
    14-px text, the title in two lines, a few ticks on each axis (plotly keeps fewer on a narrow
    plot: ``nticks`` is an upper bound), the legend in rows below the plot, larger markers, and
    no toolbar (its buttons are 24 px, named in English only; a student has no use for zoom:
    hovering or tapping a point still tells its figure)."""
    fig.update_layout(title={"text": title_lines(title), "font": {"size": 16}, "x": 0.02, "xanchor": "left"},
                      font={"size": 14}, xaxis={"title": {"text": x_title}, "nticks": 8, "automargin": True},
                      yaxis={**yaxis, "automargin": True}, height=400, plot_bgcolor="white",
                      margin={"l": 10, "r": 10, "t": 70, "b": 40}, hoverlabel={"font": {"size": 14}},
                      legend={"orientation": "h", "y": -0.2, "yanchor": "top", "font": {"size": 13}},
                      modebar={"remove": list(CLOUD_BUTTONS + MODEBAR_BUTTONS)})
    return fig


__all__ = ["MARK_STYLE", "readable", "review_figure", "title_lines", "win_chance_figure"]
