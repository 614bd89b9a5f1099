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
behind the figures is in :mod:`dungeon_guilds.viz.events` (no plotly needed).
"""

from importlib import import_module
from typing import Any

from ..extras import require

# name -> submodule; imported on first use so that ``dungeon_guilds.viz.events`` (plain data,
# used by the core's notebook display) never needs plotly or networkx.
_EXPORTS = {
    "board_figure": "board",
    "clear_probabilities": "chances", "clear_probability_figure": "chances",
    "gold_figure": "money", "sankey_data": "money", "sankey_figure": "money",
    "PayoutCase": "payouts", "explain": "payouts", "payout_case": "payouts",
    "payout_figure": "payouts", "payout_parts": "payouts",
    "graph_figure": "turns", "snake_figure": "turns", "snake_graph": "turns",
    "timeline_figure": "turns", "transition_figure": "turns", "transition_graph": "turns",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'dungeon_guilds.viz' has no attribute {name!r}")
    require("dungeon_guilds.viz", "analysis", "plotly", "networkx")
    value = getattr(import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_EXPORTS))
