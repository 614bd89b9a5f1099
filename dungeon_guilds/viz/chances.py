"""Room clear probabilities: with the adventurers in the dungeon now, how likely is each room
to beat its defence, and to be cleared (every room above cleared too, R5.1)?

What is known (docs/rules.md, ``State.view``): each room's level (its back), the deck's card list and
the fronts revealed so far. A room's front is therefore a uniformly random card among the
*unseen* cards of its level (``State.unseen_cards``), the rooms of one level drawing without
replacement from the same pool. The defence a room must beat is the engine's: the card's
defence plus the lord's change for that room (``State.defence`` minus the printed defence, plus
the engine's conditional change) and never below 0 (R5.3); a room is beaten when the total
strength in it reaches that defence (R5.1).

The result is exact (fractions): for the rooms of one level, each room ``r`` allows ``a_r``
cards of the pool (those whose defence it beats). The sets are nested, so the number of ways to
deal all of them allowed cards is the product of ``a_(q) - q`` over the rooms sorted by
``a`` (q = 0, 1, ...), out of ``m (m-1) ...`` ways in all; levels draw from disjoint pools.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Sequence

from ..extras import require

require("dungeon_guilds.viz", "analysis", "plotly", "networkx")

import plotly.graph_objects as go

from ..i18n import t
from ..state import OVER, beats
from ..events import state_and_log


def _beats(state, i: int, defence: int) -> bool:
    """Whether room ``i`` as it stands beats a front of this printed ``defence`` (the engine's
    rule, :func:`~dungeon_guilds.state.beats`, after the lord's change)."""
    return beats(state.room_total(i), defence + state.lord_defence_change(i))


def _ways(allowed: Sequence[int]) -> int:
    ways = 1
    for q, a in enumerate(sorted(allowed)):
        if a - q <= 0:
            return 0
        ways *= a - q
    return ways


def _falling(m: int, j: int) -> int:
    out = 1
    for q in range(j):
        out *= m - q
    return out


def clear_probabilities(game_or_state) -> list[tuple[Fraction, Fraction]]:
    """Per room, top first: (P(the room beats its defence), P(the room is cleared)).

    After the game (the last rooms revealed) the fronts are known and the values are 0 or 1.
    """
    state, _ = state_and_log(game_or_state)
    k = len(state.rooms)
    if state.phase == OVER:
        alone = [Fraction(int(_beats(state, i, state.rooms[i].defence))) for i in range(k)]
        out, reach = [], Fraction(1)
        for a in alone:
            reach *= a
            out.append((a, reach))
        return out
    pools: dict[int, list] = {}
    for card in state.unseen_cards():
        pools.setdefault(card.level, []).append(card)
    allowed = []
    for i, room in enumerate(state.rooms):
        pool = pools.get(room.level, [])
        allowed.append(sum(1 for c in pool if _beats(state, i, c.defence)))
    out = []
    for i in range(k):
        m = len(pools.get(state.rooms[i].level, []))
        alone = Fraction(allowed[i], m) if m else Fraction(0)
        cleared = Fraction(1)
        for level, pool in pools.items():
            rooms = [j for j in range(i + 1) if state.rooms[j].level == level]
            if not rooms:
                continue
            total = _falling(len(pool), len(rooms))
            cleared *= Fraction(_ways([allowed[j] for j in rooms]), total) if total else 0
        if any(not pools.get(state.rooms[j].level) for j in range(i + 1)):
            cleared = Fraction(0)
        out.append((alone, cleared))
    return out


def clear_probability_figure(game_or_state, lang: str | None = None) -> go.Figure:
    """Grouped bars per room: ``alone`` (beats its defence) and ``cleared`` (and every room
    above); ``y`` are probabilities, ``x`` room labels, ``meta`` the series name."""
    state, _ = state_and_log(game_or_state)
    probs = clear_probabilities(state)
    xs = [f"{t('board.room', lang)} {i + 1} (Lv{c.level}, {state.room_total(i)})"
          for i, c in enumerate(state.rooms)]
    alone = [float(a) for a, _ in probs]
    cleared = [float(c) for _, c in probs]
    fig = go.Figure([
        go.Bar(x=xs, y=alone, name=t("fig.clear_alone", lang), meta="alone", marker={"color": "#9ecae9"},
               text=[f"{v:.0%}" for v in alone], textposition="outside"),
        go.Bar(x=xs, y=cleared, name=t("fig.clear_reached", lang), meta="cleared",
               marker={"color": "#2a7d2a"}, text=[f"{v:.0%}" for v in cleared], textposition="outside"),
    ])
    fig.update_layout(barmode="group", title={"text": t("fig.clear_title", lang)},
                      xaxis={"title": {"text": t("fig.clear_x", lang)}},
                      yaxis={"title": {"text": t("fig.clear_y", lang)}, "range": [0, 1.15], "tickformat": ".0%"},
                      height=320, margin={"l": 10, "r": 10, "t": 50, "b": 40}, plot_bgcolor="white",
                      legend={"orientation": "h", "y": -0.3})
    return fig


__all__ = ["clear_probabilities", "clear_probability_figure"]
