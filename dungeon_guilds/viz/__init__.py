"""Plotly figures and networkx graphs: pure functions from engine states (and their event logs)
to figures. Nothing here decides a rule; everything is read from the engine.

=============================  ==================================================================
``board_figure``               the dungeon: rooms, slots by owner and strength, locks, results
``timeline_figure``            a round's snake as a timeline (acted / passed / again after bump)
``transition_graph``           the same as a ``networkx.DiGraph`` of seat-to-seat transitions
``transition_figure``          that graph drawn around the table (``snake_figure``: no bumps)
``payout_case``                what the engine pays for a room (lord, position, owners)
``payout_figure``              that payout: half shares, odd remainder, bank, one owner
``sankey_figure``              money flows of a round or of the game (bank ↔ players ↔ players)
``gold_figure``                each player's gold over the game
``clear_probability_figure``   each room's chance to be cleared with its adventurers now
=============================  ==================================================================

Every function takes a :class:`~dungeon_guilds.Game` or a :class:`~dungeon_guilds.State` (with
its log on) and ``lang`` (``"en"``, ``"zh"``; see :mod:`dungeon_guilds.i18n`). The plain data
behind the figures is in :mod:`dungeon_guilds.events` (core, no plotly needed; also reachable as
``dungeon_guilds.viz.events``).
"""

from ..extras import require

require("dungeon_guilds.viz", "analysis", "plotly", "networkx")

from .board import board_figure  # noqa: E402  (after the extra's check)
from .chances import clear_probabilities, clear_probability_figure
from .money import gold_figure, sankey_data, sankey_figure
from .payouts import PayoutCase, explain, payout_case, payout_figure, payout_parts
from .turns import (graph_figure, snake_figure, snake_graph, timeline_figure, transition_figure,
                    transition_graph)

__all__ = [
    "PayoutCase", "board_figure", "clear_probabilities", "clear_probability_figure", "explain",
    "gold_figure", "graph_figure", "payout_case", "payout_figure", "payout_parts", "sankey_data",
    "sankey_figure", "snake_figure", "snake_graph", "timeline_figure", "transition_figure",
    "transition_graph",
]
