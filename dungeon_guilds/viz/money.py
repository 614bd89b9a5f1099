"""Where the gold goes: a money-flow Sankey for a round or a whole game, and each player's gold
over the game. Both are sums of :func:`.events.money_flows`, read from the engine's log.

Sankey nodes: ``Bank (pays)`` on the left, one node per player, ``Bank (receives)`` on the
right, and a closing node (``Final gold`` for a game; for a round also ``Start of round r``
on the left and ``End of round r`` on the right). Every player node balances: what flows in
(setup and exhaust gold, treasure, bonuses, compensation received, gold carried into the round)
equals what flows out (fees, heal costs, compensation paid, the gold kept).
"""

from __future__ import annotations

import re
from collections import defaultdict

from ..extras import require

require("dungeon_guilds.viz", "analysis", "plotly", "networkx")

import plotly.graph_objects as go

from .. import i18n
from ..drawing.colours import BANK_COLOUR, colour
from ..i18n import t
from ..events import BANK, entries, gold_series, money_flows, net_by_player, state_and_log

_FLOW_COLOUR = {
    "setup": "rgba(188,189,34,0.45)", "exhaust": "rgba(140,140,60,0.45)",
    "treasure": "rgba(44,160,44,0.45)", "bonus": "rgba(23,190,207,0.45)",
    "bump_fee": "rgba(214,39,40,0.45)", "swap_fee": "rgba(255,127,14,0.45)",
    "heal": "rgba(148,103,189,0.45)", "compensation": "rgba(227,119,194,0.55)",
    "kept": "rgba(127,127,127,0.35)", "carried": "rgba(127,127,127,0.25)",
    "end": "rgba(127,127,127,0.35)",
}


def sankey_data(game_or_state, round_no: int | None = None, lang: str | None = None) -> dict:
    """The Sankey as plain data: ``labels``, ``colors`` and ``links`` (``source``, ``target``,
    ``value``, ``kind``, ``label`` lists) plus ``player_nodes`` (node index per seat)."""
    state, log = state_and_log(game_or_state)
    n = state.n
    names = state.names
    flows = money_flows(log, round_no)
    labels: list[str] = [t("flow.bank_out", lang)] + list(names) + [t("flow.bank_in", lang)]
    colors: list[str] = [BANK_COLOUR] + [colour(p) for p in range(n)] + [BANK_COLOUR]
    bank_out, bank_in = 0, n + 1
    player_nodes = list(range(1, n + 1))
    agg: dict[tuple[int, int, str], int] = defaultdict(int)
    for f in flows:
        src = bank_out if f.source == BANK else player_nodes[f.source]
        dst = bank_in if f.target == BANK else player_nodes[f.target]
        agg[(src, dst, f.kind)] += f.amount
    if round_no is None:
        closing = len(labels)
        labels.append(t("flow.final_node", lang))
        colors.append("#7f7f7f")
        end_gold = net_by_player(flows, n)  # every player starts the game at $0 (R2.1 is a flow)
        for p in range(n):
            agg[(player_nodes[p], closing, "kept")] += end_gold[p]
    else:
        before = net_by_player([f for f in money_flows(log) if f.round < round_no], n)
        during = net_by_player(flows, n)
        opening = len(labels)
        labels.append(t("flow.start_node", lang, round=round_no))
        colors.append("#c7c7c7")
        closing = len(labels)
        labels.append(t("flow.end_node", lang, round=round_no))
        colors.append("#7f7f7f")
        for p in range(n):
            agg[(opening, player_nodes[p], "carried")] += before[p]
            agg[(player_nodes[p], closing, "end")] += before[p] + during[p]
    links = {"source": [], "target": [], "value": [], "kind": [], "label": [], "color": []}
    for (src, dst, kind), value in agg.items():
        if value <= 0:
            continue
        links["source"].append(src)
        links["target"].append(dst)
        links["value"].append(value)
        links["kind"].append(kind)
        links["label"].append(t(f"flow.{kind}", lang))
        links["color"].append(_FLOW_COLOUR.get(kind, "rgba(0,0,0,0.2)"))
    return {"labels": labels, "colors": colors, "links": links, "player_nodes": player_nodes,
            "closing": closing}


def sankey_figure(game_or_state, round_no: int | None = None, lang: str | None = None) -> go.Figure:
    """The money-flow Sankey of one round (``round_no``, 1-based) or of the whole log."""
    d = sankey_data(game_or_state, round_no, lang)
    links = d["links"]
    fig = go.Figure(go.Sankey(
        arrangement="snap",
        node={"label": node_labels(d), "color": d["colors"], "pad": 14, "thickness": 16,
              "customdata": d["labels"], "hovertemplate": "%{customdata}: $%{value}<extra></extra>"},
        link={"source": links["source"], "target": links["target"], "value": links["value"],
              "label": links["label"], "color": links["color"], "customdata": links["kind"],
              "hovertemplate": "%{label}: $%{value}<extra>%{source.label} → %{target.label}</extra>"},
    ))
    title = (t("fig.sankey_game_title", lang) if round_no is None
             else t("fig.sankey_round_title", lang, round=round_no))
    fig.update_layout(title={"text": title}, height=460, margin={"l": 10, "r": 10, "t": 50, "b": 60},
                      font={"size": 13}, annotations=[_colour_key(links, lang)])
    return fig


def node_labels(d: dict) -> list[str]:
    """Each node's name with the gold through it (``Ann · $23``): the larger of what flows in
    and what flows out, so a bank node shows what it paid or received."""
    links = d["links"]
    into = defaultdict(int)
    out = defaultdict(int)
    for src, dst, value in zip(links["source"], links["target"], links["value"]):
        out[src] += value
        into[dst] += value
    return [f"{label} · ${max(into[i], out[i])}" for i, label in enumerate(d["labels"])]


def _colour_key(links: dict, lang: str | None) -> dict:
    """An annotation under the Sankey: each kind of flow shown, in its colour (a Sankey has no
    legend)."""
    kinds = list(dict.fromkeys(links["kind"]))
    parts = []
    for kind in kinds:
        solid = re.sub(r",\s*[0-9.]+\)$", ",1)", _FLOW_COLOUR.get(kind, "rgba(85,85,85,1)"))
        parts.append(f'<span style="color:{solid}">■</span> {t("flow." + kind, lang)}')
    return {"text": t("flow.key", lang) + " " + " · ".join(parts), "showarrow": False, "xref": "paper",
            "yref": "paper", "x": 0, "y": -0.1, "xanchor": "left", "yanchor": "top", "align": "left",
            "font": {"size": 12, "color": "#333"}}


def gold_figure(game_or_state, lang: str | None = None) -> go.Figure:
    """Each player's gold after every event of the log (a line per player, ``meta`` = seat),
    with a dotted line where each round's rooms are dealt."""
    state, log = state_and_log(game_or_state)
    names = state.names
    xs, ys = gold_series(log, state.n)
    traces = []
    hover = [i18n.event_text(ev, names, lang) for ev in log]
    for p, name in enumerate(names):
        traces.append(go.Scatter(x=xs, y=ys[p], name=name, meta=p, mode="lines",
                                 line={"color": colour(p), "width": 2, "shape": "hv"},
                                 hovertext=hover, hovertemplate=f"{name}: $%{{y}}<br>%{{hovertext}}<extra></extra>"))
    fig = go.Figure(traces)
    shapes, annotations = [], []
    for entry in entries(log):
        if entry.kind == "dealt":
            i = entry.index
            shapes.append({"type": "line", "x0": i, "x1": i, "y0": 0, "y1": 1, "yref": "paper",
                           "line": {"dash": "dot", "color": "#aaa", "width": 1}})
            annotations.append({"x": i, "y": 1.02, "yref": "paper", "text": t("fig.round_marker", lang, round=entry.round),
                                "showarrow": False, "font": {"size": 10, "color": "#666"}, "xanchor": "left"})
    fig.update_layout(title={"text": t("fig.gold_title", lang)}, shapes=shapes, annotations=annotations,
                      xaxis={"title": {"text": t("fig.gold_x", lang)}},
                      yaxis={"title": {"text": t("fig.gold_y", lang)}, "rangemode": "tozero"},
                      height=340, margin={"l": 10, "r": 10, "t": 60, "b": 40}, plot_bgcolor="white",
                      hovermode="x unified")
    return fig


__all__ = ["gold_figure", "node_labels", "sankey_data", "sankey_figure"]
