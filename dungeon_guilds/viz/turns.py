"""The snake turn order of a round (R4.1, R4.2): a timeline of turns (acted / passed / acting
again after a bump) and a networkx graph of seat-to-seat transitions.

Both are read from the engine's log (:func:`.events.turns`); the plain snake without bumps comes
from :func:`dungeon_guilds.turn_order.snake_order`.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Sequence

from ..extras import require

require("dungeon_guilds.viz", "analysis", "plotly", "networkx")

import plotly.graph_objects as go

from .. import i18n
from ..drawing.colours import colour
from ..i18n import t
from ..turn_order import snake_order
from ..events import (ACTED, AGAIN, PASSED_FULL, PASSED_STUCK, STATUSES, Turn, current_round,
                     round_start, state_and_log, transitions, turns)

if TYPE_CHECKING:  # networkx is imported when a graph is built (not on every dashboard start)
    import networkx as nx

_SYMBOL = {ACTED: "circle", AGAIN: "star", PASSED_FULL: "circle-open", PASSED_STUCK: "x-thin-open"}
_SIZE = {ACTED: 16, AGAIN: 20, PASSED_FULL: 12, PASSED_STUCK: 12}
_ACTION = {"placed": "place", "bumped": "bump", "swapped": "swap"}


def _turn_label(turn: Turn, lang: str | None = None) -> str:
    """A marker's words, on two lines ("3" over "room 1", "3 replaces" over "room 1"; issue
    24.8: not "3→1a"); the hover text is the log's whole sentence, slot included."""
    ev = turn.event
    if turn.kind not in ("placed", "bumped", "swapped"):
        return "–"
    return t(f"turn.label_{turn.kind}", lang, strength=ev["strength"], room=ev["room"])


def timeline_figure(game_or_state, round_no: int | None = None, lang: str | None = None) -> go.Figure:
    """The turns of a round's dispatch as a timeline: x = turn (1-based), y = seat.

    Traces: ``path`` (a line through every turn in order), then one marker trace per status
    present, named by status key in ``meta``; each marker's ``customdata`` is
    ``[turn, seat, status, event kind]``.
    """
    state, log = state_and_log(game_or_state)
    names = state.names
    if round_no is None:
        round_no = current_round(log)
    tl = turns(log, round_no)
    start = round_start(log, round_no)
    seats = list(range(state.n))
    path = go.Scatter(x=[tr.position + 1 for tr in tl], y=[tr.seat for tr in tl], mode="lines",
                      line={"color": "#bbb", "width": 1.5, "shape": "linear"}, name="path",
                      hoverinfo="skip", showlegend=False)
    traces = [path]
    for status in STATUSES:
        sel = [tr for tr in tl if tr.status == status]
        if not sel:
            continue
        hover = [i18n.event_text(tr.event, names, lang) for tr in sel]
        traces.append(go.Scatter(
            x=[tr.position + 1 for tr in sel], y=[tr.seat for tr in sel],
            text=[_turn_label(tr, lang) for tr in sel], hovertext=hover, hoverinfo="text",
            customdata=[[tr.position + 1, tr.seat, tr.status, tr.kind] for tr in sel],
            mode="markers+text", textfont={"size": 10}, cliponaxis=False,
            # above and below in turn: two turns in a row of one seat do not write over each other
            textposition=["top center" if tr.position % 2 == 0 else "bottom center" for tr in sel],
            name=t(f"turn.{status}", lang), meta=status,
            marker={"symbol": _SYMBOL[status], "size": _SIZE[status],
                    "color": [colour(tr.seat) for tr in sel],
                    "line": {"width": 2, "color": [colour(tr.seat) for tr in sel]}},
        ))
    start_name = names[start] if start is not None else "?"
    fig = go.Figure(traces)
    fig.update_layout(
        title={"text": t("fig.timeline_title", lang, round=round_no, start=start_name)},
        xaxis={"title": {"text": t("fig.timeline_x", lang)}, "dtick": 1,
               "range": [0.3, max(len(tl), 2 * state.n) + 0.7]},
        yaxis={"title": {"text": t("fig.timeline_y", lang)}, "tickvals": seats,
               "ticktext": list(names), "range": [state.n + 0.2, -1.2]},
        height=150 + 36 * state.n, margin={"l": 10, "r": 10, "t": 50, "b": 40},
        plot_bgcolor="white", legend={"orientation": "h", "y": -0.35},
    )
    if not tl:
        fig.add_annotation(text=t("fig.empty_timeline", lang), showarrow=False, x=0.5, y=0.5,
                           xref="paper", yref="paper", font={"color": "#888"})
    return fig


# ---------------------------------------------------------------------- graphs
def transition_graph(game_or_state=None, round_no: int | None = None,
                     turn_list: Sequence[Turn] | None = None, names: Sequence[str] | None = None) -> nx.DiGraph:
    """Seat-to-seat transitions of a round's turns as a ``networkx.DiGraph``.

    Nodes are seats (attribute ``name``); an edge ``a -> b`` means seat b had the turn right
    after seat a, with ``weight`` (how often) and ``turns`` (the 1-based turn numbers of b).
    """
    if turn_list is None:
        state, log = state_and_log(game_or_state)
        names = state.names
        turn_list = turns(log, round_no if round_no is not None else current_round(log))
    import networkx as nx

    names = list(names or [])
    g = nx.DiGraph()
    for seat, name in enumerate(names):
        g.add_node(seat, name=name)
    for tr in turn_list:
        if tr.seat not in g:
            g.add_node(tr.seat, name=str(tr.seat))
    for (a, b), tr in zip(transitions(turn_list), turn_list[1:]):
        if g.has_edge(a, b):
            g[a][b]["weight"] += 1
            g[a][b]["turns"].append(tr.position + 1)
        else:
            g.add_edge(a, b, weight=1, turns=[tr.position + 1])
    return g


def snake_graph(n_players: int, start: int = 0, names: Sequence[str] | None = None,
                cycles: int = 1) -> nx.DiGraph:
    """The plain snake (no bumps, R4.1) for ``cycles`` cycles as a transition graph."""
    order = snake_order(n_players, start, 2 * n_players * cycles)
    fake = [Turn(i, s, ACTED, "placed", -1, {}) for i, s in enumerate(order)]
    names = names or [f"P{i + 1}" for i in range(n_players)]
    return transition_graph(turn_list=fake, names=names)


def table_layout(n: int) -> dict[int, tuple[float, float]]:
    """Seats around a round table, clockwise from the top (seat 0)."""
    return {s: (math.sin(2 * math.pi * s / n), math.cos(2 * math.pi * s / n)) for s in range(n)}


def graph_figure(graph: nx.DiGraph, title: str = "", lang: str | None = None) -> go.Figure:
    """Draw a transition graph: seats around the table, an arrow per edge (width by weight,
    label = weight), a loop for a seat acting twice in a row.

    Traces: ``edges`` (lines), ``loops`` (self-transitions) and ``seats`` (markers whose
    ``customdata`` is ``[seat, name]``); edge labels are annotations.
    """
    seats = sorted(graph.nodes)
    pos = table_layout(max(len(seats), 1))
    ex, ey, annotations = [], [], []
    lx, ly, ltext = [], [], []
    for a, b, data in graph.edges(data=True):
        w = data.get("weight", 1)
        (x0, y0), (x1, y1) = pos[a], pos[b]
        if a == b:  # a loop: the seat acts again right away (the snake's turning point)
            lx.append(x0 * 1.28)
            ly.append(y0 * 1.28)
            ltext.append(f"↻ {w}")
            continue
        ex += [x0, x1, None]
        ey += [y0, y1, None]
        annotations.append({
            "x": x0 + 0.86 * (x1 - x0), "y": y0 + 0.86 * (y1 - y0), "ax": x0 + 0.6 * (x1 - x0),
            "ay": y0 + 0.6 * (y1 - y0), "xref": "x", "yref": "y", "axref": "x", "ayref": "y",
            "showarrow": True, "arrowhead": 2, "arrowsize": 1.2, "arrowwidth": 1 + min(w, 6) * 0.6,
            "arrowcolor": colour(a), "text": "",
        })
        annotations.append({"x": x0 + 0.5 * (x1 - x0), "y": y0 + 0.5 * (y1 - y0), "text": str(w),
                            "showarrow": False, "font": {"size": 11, "color": "#333"},
                            "bgcolor": "rgba(255,255,255,0.8)"})
    names = [graph.nodes[s].get("name", str(s)) for s in seats]
    traces = [
        go.Scatter(x=ex, y=ey, mode="lines", name="edges", line={"color": "#999", "width": 1},
                   hoverinfo="skip", showlegend=False),
        go.Scatter(x=lx, y=ly, text=ltext, mode="text", name="loops", showlegend=False,
                   hoverinfo="skip", textfont={"size": 12}),
        go.Scatter(x=[pos[s][0] for s in seats], y=[pos[s][1] for s in seats], text=names,
                   customdata=[[s, n] for s, n in zip(seats, names)], mode="markers+text",
                   name="seats", textposition="middle center", textfont={"color": "white"},
                   marker={"size": 46, "color": [colour(s) for s in seats]}, showlegend=False,
                   hovertemplate="%{text}<extra></extra>"),
    ]
    fig = go.Figure(traces)
    fig.update_layout(title={"text": title}, annotations=annotations, height=380, width=420,
                      xaxis={"visible": False, "range": [-1.6, 1.6]},
                      yaxis={"visible": False, "range": [-1.6, 1.6], "scaleanchor": "x"},
                      margin={"l": 10, "r": 10, "t": 50, "b": 10}, plot_bgcolor="white")
    return fig


def transition_figure(game_or_state, round_no: int | None = None, lang: str | None = None) -> go.Figure:
    """The transition graph of a round of a game, drawn."""
    state, log = state_and_log(game_or_state)
    round_no = round_no if round_no is not None else current_round(log)
    g = transition_graph(game_or_state, round_no)
    return graph_figure(g, t("fig.graph_title", lang, round=round_no), lang)


def snake_figure(n_players: int, start: int = 0, names: Sequence[str] | None = None,
                 lang: str | None = None) -> go.Figure:
    names = names or [f"P{i + 1}" for i in range(n_players)]
    g = snake_graph(n_players, start, names)
    return graph_figure(g, t("fig.graph_snake_title", lang, n=n_players, start=names[start]), lang)


__all__ = ["graph_figure", "snake_figure", "snake_graph", "table_layout", "timeline_figure",
           "transition_figure", "transition_graph"]
