"""The design explorer's figures (issue 41): pure functions from a sensitivity map
(:class:`~dungeon_guilds.workshop.explorer.ExplorerMap`) to plotly figures, in English or
繁體中文.

* :func:`bar_figure` — one measure: the knobs that move it most, sorted, each bar the change
  from the reference game with its 95 % interval; dark when the change is clear after Holm's
  correction over the whole map, light otherwise.
* :func:`grid_figure` — every knob step × every measure: the change in units of its interval's
  half-width (so measures of different units share one colour scale), clear cells marked.
"""

from __future__ import annotations

import math

import plotly.graph_objects as go

from ..workshop.explorer import MEASURES
from ..drawing.plotly_config import CLOUD_BUTTONS
from ..workshop.explorer_words import et, fmt, knob_name, measure_name, number

__all__ = ["bar_figure", "grid_figure", "step_label", "wrapped"]

CLEAR, UNCLEAR = "#1565c0", "#9ec5ea"  # blue (Okabe-Ito friendly), its light tint


def step_label(m, cell: dict, lang: str) -> str:
    knob = next(k for k in m.knobs if k["id"] == cell["knob"])
    old = knob["value"]
    return f"{knob_name(knob, lang)} {number(old)}→{number(old + cell['step'])}"


def wrapped(label: str, width: int = 22) -> str:
    """A bar's label on two lines when it is longer than ``width`` columns (a CJK character
    counts two), broken nearest its middle at a space outside brackets ("(× 6)" stays whole) or
    after a closing full-width bracket: the labels then take half the width, so a phone's narrow
    chart keeps its bars and whole labels."""
    breaks, depth, column = [], 0, 0  # (column, where the line ends, where the next begins)
    for i, ch in enumerate(label):
        depth += (ch in "(（") - (ch in ")）")
        if ch == " " and depth == 0:
            breaks.append((column, i, i + 1))
        column += 2 if ord(ch) > 0x2E80 else 1
        if ch == "）" and depth == 0 and i + 1 < len(label):
            breaks.append((column, i + 1, i + 1))
    if column <= width or not breaks:
        return label
    _, end, begin = min(breaks, key=lambda b: abs(b[0] - column / 2))
    return f"{label[:end]}<br>{label[begin:]}"


# plotly's toolbar (modebar) says its buttons' names in English only: plotly.py ships no
# plotly.js locales and none is on this machine to load offline, so a Chinese page hides the
# buttons (every one bears English words) rather than mix English into it; hover still works.
# "Share chart..." (plotly 6) uploads the chart to Plotly Cloud, another host: never shown.
MODEBAR_BUTTONS = ("zoom2d", "pan2d", "select2d", "lasso2d", "zoomIn2d", "zoomOut2d", "autoScale2d",
                   "resetScale2d", "toImage", "hoverClosestCartesian", "hoverCompareCartesian", "toggleSpikelines")


def _toolbar(fig: go.Figure, lang: str) -> None:
    fig.update_layout(modebar={"remove": list(CLOUD_BUTTONS + (MODEBAR_BUTTONS if lang != "en" else ()))})


def _scale(unit: str) -> float:
    return 100.0 if unit == "rate" else 1.0  # rates in percentage points


def bar_figure(m, measure: str, lang: str = "en", top: int = 12) -> go.Figure:
    """The ``top`` knob steps that move ``measure`` most, largest at the top."""
    unit = MEASURES.get(measure, "")
    k = _scale(unit)
    cells = m.ranked(measure)[:top][::-1]
    clear = [c["p_holm"] < 0.05 for c in cells]
    fig = go.Figure(go.Bar(
        x=[k * c["value"] for c in cells], y=[wrapped(step_label(m, c, lang)) for c in cells], orientation="h",
        marker_color=[CLEAR if x else UNCLEAR for x in clear],
        error_x={"type": "data", "symmetric": False, "color": "#333",
                 "array": [k * (c["high"] - c["value"]) for c in cells],
                 "arrayminus": [k * (c["value"] - c["low"]) for c in cells]},
        customdata=[[fmt(c["value"], unit, lang, True), fmt(c["low"], unit, lang, True),
                     fmt(c["high"], unit, lang, True), et("clear" if x else "not_clear", lang)]
                    for c, x in zip(cells, clear)],
        hovertemplate="%{y}<br>%{customdata[0]} [%{customdata[1]}, %{customdata[2]}] %{customdata[3]}<extra></extra>"))
    axis = et("axis_change", lang) + (f"<br>({et('pp', lang).strip()})" if unit == "rate" else "")
    title = wrapped(et("chart_title", lang, measure=measure_name(measure, lang)), 34)
    fig.update_layout(title={"text": title, "font": {"size": 14}},
                      xaxis_title=axis, height=130 + 32 * len(cells), margin={"l": 10, "r": 10, "t": 60, "b": 55},
                      yaxis={"automargin": True, "tickfont": {"size": 11}}, plot_bgcolor="white", showlegend=False)
    fig.add_vline(x=0, line_color="#555", line_width=1)
    _toolbar(fig, lang)
    return fig


def grid_figure(m, lang: str = "en") -> go.Figure:
    """Knob steps (rows) × measures (columns): change / half-width of its interval."""
    measures = m.measures()
    steps = list(dict.fromkeys((c["knob"], c["step"]) for c in m.cells))
    rows = [next(c for c in m.cells if (c["knob"], c["step"]) == s) for s in steps]
    z, text = [], []
    for knob, step in steps:
        zr, tr = [], []
        for measure in measures:
            c = m.cell(knob, step, measure)
            half = (c["high"] - c["low"]) / 2 if c else float("nan")
            v = c["value"] / half if c and half and not math.isnan(half) else 0.0
            zr.append(max(-4.0, min(4.0, v)))
            tr.append("●" if c and c["p_holm"] < 0.05 else "")
        z.append(zr)
        text.append(tr)
    fig = go.Figure(go.Heatmap(
        z=z, x=[measure_name(x, lang) for x in measures], y=[step_label(m, c, lang) for c in rows],
        text=text, texttemplate="%{text}", colorscale="RdBu", zmid=0, zmin=-4, zmax=4,
        colorbar={"thickness": 10, "len": 0.5}, hovertemplate="%{y}<br>%{x}: %{z:.1f}<extra></extra>"))
    fig.update_layout(title={"text": et("grid_short", lang), "font": {"size": 13}},
                      height=160 + 16 * len(steps), margin={"l": 10, "r": 10, "t": 60, "b": 10},
                      yaxis={"automargin": True, "autorange": "reversed", "tickfont": {"size": 10}},
                      xaxis={"side": "top", "tickangle": -40, "tickfont": {"size": 10}})
    _toolbar(fig, lang)
    return fig
