"""Turn-order graphs, phase state machines and the games <-> mechanisms graph."""

from __future__ import annotations

import networkx as nx
import plotly.graph_objects as go
import pytest

from dungeon_guilds.siblings import GAMES, graphs
from dungeon_guilds.turn_order import snake_order


def test_turn_orders():
    g = graphs.turn_order_graph("dungeon_guilds", 4, rounds=2)
    assert graphs.seat_sequence(g) == snake_order(4, 0) + snake_order(4, 1)
    assert nx.is_directed_acyclic_graph(g) and g.number_of_edges() == g.number_of_nodes() - 1
    assert graphs.seat_sequence(graphs.turn_order_graph("dungeon", 3, 2)) == [0, 1, 2] * 2
    lords = graphs.turn_order_graph("dungeon_lords", 3, rounds=1)
    seats = [lords.nodes[s]["seat"] for s in sorted(lords.nodes)]
    assert seats[:2] == [graphs.NPC_ROW, graphs.ALL]  # NPCs, then secret orders
    assert seats[2:] == [0, 1, 2] * 3  # three cards placed in seat order
    assert graphs.seat_sequence(graphs.turn_order_graph("dungeon_lords", 4, 1)) == [0, 1, 2, 3] * 3
    fighter = graphs.turn_order_graph("dungeon_fighter", 4, rounds=2)
    assert graphs.seat_sequence(fighter) == [0, 1, 2, 1, 2, 3]  # leader rotates left
    assert graphs.seat_sequence(graphs.turn_order_graph("dungeon_fighter", 2, 1)) == [0, 1, 0]
    with pytest.raises(ValueError):
        graphs.turn_order_graph("dungeon", 0)


@pytest.mark.parametrize("game", list(GAMES))
def test_phase_graphs(game):
    g = graphs.phase_graph(game)
    assert all("source" in d and "condition" in d for *_, d in g.edges(data=True))
    assert all("pos" in d for _, d in g.nodes(data=True))
    # the round loops: the largest strongly connected component is a cycle of phases
    assert max(len(c) for c in nx.strongly_connected_components(g)) >= 3
    sinks = [n for n in g if g.out_degree(n) == 0]
    assert sinks, "every game can end"
    fig = graphs.draw_phase_graph(g)
    assert isinstance(fig, go.Figure) and len(fig.layout.annotations) == g.number_of_edges()


def test_guilds_phase_cycle():
    g = graphs.phase_graph("dungeon_guilds")
    assert nx.has_path(g, "cleanup", "start") and nx.has_path(g, "start", "cleanup")
    assert list(g.successors("setup")) == ["dispatch"]


def test_mechanism_graph():
    g = graphs.mechanism_graph()
    games = {n for n, d in g.nodes(data=True) if d["kind"] == "game"}
    assert games == set(GAMES)
    assert nx.is_bipartite(g)
    assert all(g.edges[e]["source"] for e in g.edges)
    assert g.degree("hidden information") == 4
    assert set(g.graph["similarity"]) and all(0 <= v <= 1 for v in g.graph["similarity"].values())


def test_drawings_are_figures():
    for game in GAMES:
        fig = graphs.draw_turn_order(graphs.turn_order_graph(game, 4))
        assert isinstance(fig, go.Figure) and not isinstance(fig, go.FigureWidget)
    assert isinstance(graphs.draw_mechanism_graph(), go.Figure)
    assert isinstance(graphs.draw_similarity(), go.Figure)
