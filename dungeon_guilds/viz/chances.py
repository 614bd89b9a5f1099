"""Room clear probabilities drawn: how likely each room is to beat its defence, and to be
cleared (every room above cleared too, R5.1).

The model is the analysis layer's (:func:`dungeon_guilds.analysis.probability.clear_probabilities`,
exact fractions from the unseen cards); this module only draws it. ``clear_probabilities`` is
re-exported here for the callers that read it from ``dungeon_guilds.viz``.
"""

from __future__ import annotations

from ..extras import require

require("dungeon_guilds.viz", "analysis", "plotly", "networkx")

import plotly.graph_objects as go

from ..analysis.probability import clear_probabilities
from ..i18n import t
from ..events import state_and_log


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
