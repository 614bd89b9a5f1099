"""Graphs of the four games (networkx) and their plotly drawings (plain ``go.Figure``).

* :func:`turn_order_graph` — who acts when: a path of turn events for ``n`` players and a few
  rounds. Dungeon Guilds: snake; Dungeon!: clockwise whole turns; Dungeon Lords: secret
  simultaneous orders, then seat order card by card; Dungeon Fighter: a rotating leader with
  three shared coloured dice. :func:`draw_turn_order` plots it as a timeline (turn x seat).
* :func:`phase_graph` — each game's phase flow as a state machine; every edge carries its
  condition and source. :func:`draw_phase_graph`.
* :func:`mechanism_graph` — the bipartite games <-> mechanisms graph, edge sources included,
  with the Jaccard similarity of every pair of games (:func:`draw_mechanism_graph`,
  :func:`draw_similarity`).
"""

from __future__ import annotations

from ..extras import require

require("dungeon_guilds.siblings.graphs", "analysis", "networkx", "plotly")

import networkx as nx
import plotly.graph_objects as go

from . import GAMES, Source, cite, cite_rule
from . import comparison, dungeon_lords
from ..turn_order import snake_order

ALL = -1  # the "seat" of an event everyone does at once
NPC_ROW = -2  # the row of NPC placements

# --------------------------------------------------------------------------------------------
# Turn order
# --------------------------------------------------------------------------------------------

TURN_SOURCES = {
    "dungeon_guilds": cite_rule("R4.1", "Snake order"),
    "dungeon": cite("dungeon", 38, "依順時針方向輪替行動"),
    "dungeon_lords": cite("lords", 46, "由起始玩家開始放他的"),
    "dungeon_fighter": cite("fighter", 143, "原起始玩家的左手邊玩家"),
}


def _events(game: str, n: int, rounds: int) -> list[dict]:
    """The turn events of ``rounds`` rounds, start player 0 in round 1."""
    events = []
    for r in range(rounds):
        if game == "dungeon_guilds":
            start = r % n  # the marker passes left each round (R6.3)
            for seat in snake_order(n, start):  # each player places 2 adventurers (R4.8)
                events.append(dict(round=r + 1, seat=seat, label=f"dispatch, seat {seat + 1}"))
        elif game == "dungeon":
            for seat in range(n):
                events.append(dict(round=r + 1, seat=seat,
                                   label=f"seat {seat + 1}: move, encounter, combat, loot"))
        elif game == "dungeon_lords":
            start = r % n
            if n < 4:
                events.append(dict(round=r + 1, seat=NPC_ROW, label="NPCs place first"))
            events.append(dict(round=r + 1, seat=ALL, label="everyone programs 3 orders in secret"))
            for card in range(dungeon_lords.ORDERS_PER_ROUND):
                for pos in range(n):
                    seat = (start + pos) % n
                    events.append(dict(round=r + 1, seat=seat,
                                       label=f"order card {card + 1}, seat {seat + 1}"))
        elif game == "dungeon_fighter":
            start = r % n
            for d in range(3):
                seat = (start + d) % n
                events.append(dict(round=r + 1, seat=seat,
                                   label=f"seat {seat + 1} throws coloured die {d + 1}"))
        else:
            raise KeyError(game)
    return events


def turn_order_graph(game: str, n_players: int = 4, rounds: int = 2) -> nx.DiGraph:
    """A directed path of turn events; node attributes ``step``, ``seat`` (``-1`` = everyone
    at once, ``-2`` = NPCs), ``round``, ``label``; graph attributes ``game``, ``scheme``,
    ``source``."""
    if n_players < 1 or rounds < 1:
        raise ValueError("need at least one player and one round")
    schemes = {
        "dungeon_guilds": "snake",
        "dungeon": "clockwise turns",
        "dungeon_lords": "secret simultaneous orders, then seat order",
        "dungeon_fighter": "rotating leader with shared dice",
    }
    g = nx.DiGraph(game=game, scheme=schemes[game], source=str(TURN_SOURCES[game]),
                   n_players=n_players)
    for step, ev in enumerate(_events(game, n_players, rounds)):
        g.add_node(step, step=step, **ev)
        if step:
            g.add_edge(step - 1, step)
    return g


def seat_sequence(graph: nx.DiGraph) -> list[int]:
    """The seats of a turn-order graph in turn order (everyone/NPC events left out)."""
    return [graph.nodes[s]["seat"] for s in sorted(graph.nodes) if graph.nodes[s]["seat"] >= 0]


def draw_turn_order(graph: nx.DiGraph) -> go.Figure:
    """A timeline: turn events left to right, seats bottom to top."""
    nodes = [graph.nodes[s] for s in sorted(graph.nodes)]
    n = graph.graph["n_players"]
    fig = go.Figure()
    fig.add_trace(go.Scatter(
        x=[v["step"] for v in nodes], y=[v["seat"] for v in nodes], mode="lines+markers",
        marker=dict(size=12, color=[v["round"] for v in nodes], colorscale="Viridis"),
        line=dict(color="lightgray"), text=[f"round {v['round']}: {v['label']}" for v in nodes],
        hoverinfo="text", name="turns"))
    ticks = list(range(n))
    labels = [f"seat {s + 1}" for s in ticks]
    if any(v["seat"] == ALL for v in nodes):
        ticks, labels = [ALL] + ticks, ["everyone"] + labels
    if any(v["seat"] == NPC_ROW for v in nodes):
        ticks, labels = [NPC_ROW] + ticks, ["NPCs"] + labels
    name = GAMES[graph.graph["game"]][0]
    fig.update_layout(
        title=f"{name}: {graph.graph['scheme']} ({graph.graph['source']})",
        xaxis_title="turn", yaxis=dict(tickvals=ticks, ticktext=labels, title=None),
        showlegend=False, height=320, margin=dict(l=60, r=20, t=50, b=40))
    return fig


# --------------------------------------------------------------------------------------------
# Phase flow (state machines)
# --------------------------------------------------------------------------------------------

# game -> (nodes as (id, label, x, y), edges as (from, to, condition, source))
_PHASES: dict[str, tuple[list, list]] = {
    "dungeon_guilds": (
        [("setup", "Setup", 0, 1), ("start", "Start", 1, 2), ("dispatch", "Dispatch", 2, 1),
         ("resolution", "Resolution", 2, 0), ("cleanup", "Cleanup", 1, 0), ("end", "Game end", 0, -1)],
        [("setup", "dispatch", "round 1 skips start", cite_rule("R3.1", "skipped in round 1")),
         ("start", "dispatch", "rooms dealt, lord revealed", cite("guilds_zh", 47, "正面朝下發出")),
         ("dispatch", "resolution", "every player has 2 adventurers in", cite("guilds_zh", 71, "派遣階段結束")),
         ("resolution", "cleanup", "a room fails or all rooms cleared", cite("guilds_zh", 81, "直到攻略失敗")),
         ("cleanup", "start", "lords remain", cite("guilds_zh", 89, "若還有城主卡")),
         ("cleanup", "end", "no lord left", cite("guilds_zh", 91, "城主卡使用完畢時代表遊戲結束"))],
    ),
    "dungeon": (
        [("move", "Move", 0, 2), ("encounter", "Encounter", 2, 2), ("combat", "Combat", 2, 0),
         ("counter", "Counter-attack", 3, -1), ("loot", "Loot", 0, 0), ("next", "Next player", -1, 1),
         ("win", "Win", -2, 2)],
        [("move", "encounter", "entered an uncleared room", cite("dungeon", 42, "未清空的房間時必須停止")),
         ("move", "next", "nothing entered", cite("dungeon", 41, "最多走 5 格")),
         ("encounter", "combat", "monster drawn", cite("dungeon", 49, "抽 1 張相應等級的怪物卡")),
         ("encounter", "next", "trap in a room", cite("dungeon", 51, "抽1張寶藏卡")),
         ("combat", "loot", "2d6 ≥ the class's number", cite("dungeon", 60, "大於等於")),
         ("combat", "counter", "monster still alive", cite("dungeon", 66, "若怪物未死")),
         ("counter", "next", "12 / 11 / 8-10 / 6-7 / ≤5", cite("dungeon", 68, "擲骰結果 效果")),
         ("loot", "next", "treasure taken", cite("dungeon", 82, "擊敗房間怪物")),
         ("next", "move", "clockwise", cite("dungeon", 38, "順時針")),
         ("move", "win", "out alive with the target", cite("dungeon", 5, "活著走出地下城"))],
    ),
    "dungeon_lords": (
        [("new_round", "New round", 0, 2), ("orders", "Orders", 2, 2),
         ("production", "Production & retrieval", 3, 1), ("event", "Event", 2, 0),
         ("adventurers", "Adventurers", 0, 0), ("end_of_round", "End of round", -1, 1),
         ("combat", "Combat", 1, -1), ("end", "Score", 3, -1)],
        [("new_round", "orders", "", cite("lords", 37, "進度標示物前進一格")),
         ("orders", "production", "", cite("lords", 76, "進度標示物前進一格")),
         ("production", "end_of_round", "round 1", cite("lords", 96, "回家階段")),
         ("production", "event", "rounds 2-4", cite("lords", 109, "事件階段")),
         ("event", "adventurers", "", cite("lords", 112, "冒險者階段")),
         ("adventurers", "end_of_round", "rounds 2-3", cite("lords", 124, "回家階段")),
         ("adventurers", "combat", "round 4", cite("lords", 160, "到這邊建築就結束了")),
         ("end_of_round", "new_round", "start marker passes left", cite("lords", 97, "左手邊玩家")),
         ("combat", "new_round", "after year 1", cite("lords", 163, "下一年一樣照這個流程")),
         ("combat", "end", "after year 2", cite("lords", 184, "第二年結束後就call game算分"))],
    ),
    "dungeon_fighter": (
        [("setup", "Setup", -1, 1), ("move", "Move", 0, 2), ("combat", "Combat", 2, 2),
         ("settlement", "Settlement", 1, 0), ("boss", "Boss fight", 3, 0),
         ("win", "Win (all)", 4, 1), ("lose", "Lose (all)", 4, -1)],
        [("setup", "move", "captain starts", cite("fighter", 85, "隊長同時為第一回合的起始玩家")),
         ("move", "combat", "entered a room", cite("fighter", 95, "接著便進行戰鬥階段")),
         ("combat", "settlement", "monster dead", cite("fighter", 131, "並進入結算階段")),
         ("combat", "lose", "all heroes knocked out", cite("fighter", 139, "所有玩家皆為輸家")),
         ("settlement", "move", "dice pass left", cite("fighter", 143, "左手邊玩家")),
         ("settlement", "boss", "last room reached", cite("fighter", 151, "玩家們將魔王卡翻至正面")),
         ("boss", "win", "boss dead", cite("fighter", 159, "魔王死亡")),
         ("boss", "lose", "white dice gone, boss alive", cite("fighter", 153, "則所有玩家將輸掉此遊戲"))],
    ),
}


def phase_graph(game: str) -> nx.DiGraph:
    """The phase flow of a game: nodes have ``label`` and ``pos``; edges ``condition`` and
    ``source`` (a :class:`Source`)."""
    nodes, edges = _PHASES[game]
    g = nx.DiGraph(game=game)
    for key, label, x, y in nodes:
        g.add_node(key, label=label, pos=(x, y))
    for a, b, condition, source in edges:
        g.add_edge(a, b, condition=condition, source=source)
    return g


def phase_sources() -> list[Source]:
    """Every source cited by the phase graphs (tests check them)."""
    return [src for _, edges in _PHASES.values() for *_, src in edges] + list(TURN_SOURCES.values())


def draw_phase_graph(graph: nx.DiGraph) -> go.Figure:
    """Nodes as labelled markers, edges as arrows with their condition; hover shows sources."""
    pos = nx.get_node_attributes(graph, "pos")
    fig = go.Figure()
    mid_x, mid_y, mid_text = [], [], []
    for a, b, data in graph.edges(data=True):
        (x0, y0), (x1, y1) = pos[a], pos[b]
        if graph.has_edge(b, a):  # two-way: draw each direction on its own side
            dx, dy = x1 - x0, y1 - y0
            norm = (dx * dx + dy * dy) ** 0.5 or 1.0
            ox, oy = -dy / norm * 0.12, dx / norm * 0.12
            x0, y0, x1, y1 = x0 + ox, y0 + oy, x1 + ox, y1 + oy
        fig.add_annotation(x=x1, y=y1, ax=x0, ay=y0, xref="x", yref="y", axref="x", ayref="y",
                           showarrow=True, arrowhead=3, arrowsize=1.2, arrowwidth=1.5,
                           arrowcolor="gray", standoff=22, startstandoff=22, text="")
        mid_x.append((x0 + x1) / 2)
        mid_y.append((y0 + y1) / 2)
        mid_text.append(f"{graph.nodes[a]['label']} → {graph.nodes[b]['label']}: "
                        f"{data['condition'] or 'next'} ({data['source']})")
    fig.add_trace(go.Scatter(
        x=mid_x, y=mid_y, mode="text",
        text=[graph.edges[e]["condition"] for e in graph.edges], textfont=dict(size=10, color="dimgray"),
        hovertext=mid_text, hoverinfo="text", name="transitions"))
    keys = list(graph.nodes)
    fig.add_trace(go.Scatter(
        x=[pos[k][0] for k in keys], y=[pos[k][1] for k in keys], mode="markers+text",
        marker=dict(size=44, color="lightsteelblue", line=dict(width=1, color="steelblue")),
        text=[graph.nodes[k]["label"] for k in keys], textposition="middle center",
        hoverinfo="text", name="phases"))
    fig.update_layout(title=f"{GAMES[graph.graph['game']][0]}: phase flow", showlegend=False,
                      xaxis=dict(visible=False), yaxis=dict(visible=False), height=420,
                      margin=dict(l=20, r=20, t=50, b=20), plot_bgcolor="white")
    return fig


# --------------------------------------------------------------------------------------------
# Games <-> mechanisms
# --------------------------------------------------------------------------------------------


def mechanism_graph() -> nx.Graph:
    """Bipartite: game nodes (``kind="game"``) and mechanism nodes (``kind="mechanism"``);
    each edge has its ``source``. ``graph.graph["similarity"]`` maps game pairs to Jaccard."""
    g = nx.Graph()
    for game in GAMES:
        g.add_node(game, kind="game", label=GAMES[game][0])
    for row in comparison.mechanism_rows():
        g.add_node(row["mechanism"], kind="mechanism", label=row["mechanism"])
        g.add_edge(row["game"], row["mechanism"], source=row["source"])
    games = list(GAMES)
    g.graph["similarity"] = {(a, b): comparison.jaccard(a, b)
                             for i, a in enumerate(games) for b in games[i + 1:]}
    return g


def draw_mechanism_graph(graph: nx.Graph | None = None) -> go.Figure:
    """Games on the left, mechanisms on the right; shared mechanisms connect several games."""
    graph = graph or mechanism_graph()
    games = [n for n, d in graph.nodes(data=True) if d["kind"] == "game"]
    mechs = sorted((n for n, d in graph.nodes(data=True) if d["kind"] == "mechanism"),
                   key=lambda m: (-graph.degree(m), m))
    pos = {g: (0.0, 1 - i / max(len(games) - 1, 1)) for i, g in enumerate(games)}
    pos.update({m: (1.0, 1 - i / max(len(mechs) - 1, 1)) for i, m in enumerate(mechs)})
    fig = go.Figure()
    colours = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e"]
    for i, game in enumerate(games):
        xs, ys = [], []
        for m in graph.neighbors(game):
            xs += [pos[game][0], pos[m][0], None]
            ys += [pos[game][1], pos[m][1], None]
        fig.add_trace(go.Scatter(x=xs, y=ys, mode="lines", name=graph.nodes[game]["label"],
                                 line=dict(width=1.5, color=colours[i % len(colours)]), hoverinfo="skip"))
    fig.add_trace(go.Scatter(
        x=[pos[g][0] for g in games], y=[pos[g][1] for g in games], mode="markers+text",
        marker=dict(size=16, color=colours[: len(games)]), text=[graph.nodes[g]["label"] for g in games],
        textposition="middle left", hoverinfo="text", showlegend=False))
    fig.add_trace(go.Scatter(
        x=[pos[m][0] for m in mechs], y=[pos[m][1] for m in mechs], mode="markers+text",
        marker=dict(size=10, color="gray"), text=[f"{m} ({graph.degree(m)})" for m in mechs],
        textposition="middle right", showlegend=False,
        hovertext=["; ".join(f"{graph.nodes[g]['label']}: {graph.edges[g, m]['source']}"
                             for g in graph.neighbors(m)) for m in mechs], hoverinfo="text"))
    fig.update_layout(title="Games ↔ mechanisms (hover a mechanism for its sources)",
                      xaxis=dict(visible=False, range=[-0.6, 1.6]), yaxis=dict(visible=False),
                      height=max(420, 22 * len(mechs)), margin=dict(l=20, r=20, t=50, b=20),
                      plot_bgcolor="white")
    return fig


def draw_similarity() -> go.Figure:
    """Heatmap of the Jaccard similarity of the games' mechanism sets."""
    names = [GAMES[g][0] for g in GAMES]
    values = [[float(comparison.jaccard(a, b)) for b in GAMES] for a in GAMES]
    fig = go.Figure(go.Heatmap(z=values, x=names, y=names,
                               zmin=0, zmax=1, colorscale="Blues",
                               text=[[f"{v:.2f}" for v in row] for row in values],
                               texttemplate="%{text}", hovertemplate="%{y} ~ %{x}: %{z:.3f}<extra></extra>"))
    fig.update_layout(title="Mechanism similarity (Jaccard)", height=380,
                      margin=dict(l=20, r=20, t=50, b=20))
    return fig


def contention_groups(rows) -> list[tuple[int, list[dict]]]:
    """The rows of :func:`comparison.contention_rows` (or its DataFrame) by player count, in
    increasing order, without the ``"all"`` rows: ``[(players, [row, ...]), ...]``."""
    if hasattr(rows, "to_dict"):  # a comparison.contention_frame
        rows = rows.to_dict("records")
    groups: dict[int, list[dict]] = {}
    for row in rows:
        if row["position"] != "all":
            groups.setdefault(row["players"], []).append(row)
    return sorted(groups.items())


def draw_contention(rows) -> go.Figure:
    """Bar chart of :func:`comparison.contention_rows` (or :func:`comparison.contention_frame`):
    no-slot rate by position, one group per player count."""
    fig = go.Figure()
    for n, group in contention_groups(rows):
        fig.add_trace(go.Bar(x=[f"position {r['position']}" for r in group],
                             y=[r["no-slot rate"] for r in group], name=f"{n} players"))
    fig.update_layout(barmode="group", title="Dungeon Lords: chosen order finds no slot",
                      yaxis=dict(title="rate", tickformat=".1%"), height=360,
                      margin=dict(l=60, r=20, t=50, b=40))
    return fig
