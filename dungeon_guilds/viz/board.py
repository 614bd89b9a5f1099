"""The dungeon board as a plotly figure: rooms top to bottom, two slots a room coloured by owner
with the adventurer's strength, the back's ranges and lock threshold, the lock, and once the
engine has resolved the rooms the revealed fronts and cleared / failed."""

from __future__ import annotations

from ..extras import require

require("dungeon_guilds.viz", "analysis", "plotly", "networkx")

import plotly.graph_objects as go

from .. import i18n
from ..drawing.colours import NPC_COLOUR, colour
from ..i18n import t
from ..payout import NPC
from ..state import EMPTY
from ..events import resolution, rooms_round, state_and_log

SLOT_X = (0.0, 1.0)
ROOM_LABEL_X = -0.75
INFO_X = 1.7


def _moved(printed: tuple[int, int], change: int, unit: str = "") -> str:
    """A back's range moved by the lord's change, e.g. ``7–9 (+2)``; the printed range if none."""
    low, high = printed
    if not change:
        return f"{low}–{unit}{high}"
    return f"{max(low + change, 0)}–{unit}{max(high + change, 0)} ({change:+d})"


def board_figure(game_or_state, lang: str | None = None) -> go.Figure:
    """The board of a :class:`Game` or :class:`State`.

    Traces: one ``markers+text`` trace per owner present (players by name, the NPC), whose
    ``customdata`` rows are ``[room, slot, owner, strength]``; one for empty slots; one text
    trace of room labels; one of each room's back (ranges, lock threshold, lock); and, when the
    rooms have been resolved, one of results (``customdata`` ``[room, status]``).
    """
    state, log = state_and_log(game_or_state)
    traces = _slot_traces(state, lang) + _room_traces(state, lang)
    results = resolution(log, rooms_round(state)) if log else None
    if results:
        traces.append(_result_trace(results, lang))
    fig = go.Figure(traces)
    k = len(state.rooms)
    lord = f"{t('board.lord', lang)}: {i18n.lord_name(state.lord, lang)} — {i18n.lord_text(state.lord, lang)}"
    if not state.effects_on:
        lord += f" ({t('word.effects_off', lang)})"
    fig.update_layout(
        title={"text": f"{t('fig.board_title', lang, round=rooms_round(state))}<br><sup>{lord}</sup>"},
        xaxis={"visible": False, "range": [-2.6, 5.2]},
        yaxis={"visible": False, "range": [-k + 0.4, 0.6]},
        height=110 + 70 * k, margin={"l": 10, "r": 10, "t": 70, "b": 10},
        plot_bgcolor="white", legend={"orientation": "h", "y": -0.02},
    )
    return fig


def _slot_traces(state, lang: str | None) -> list[go.Scatter]:
    """One trace per owner present (players, then the NPC) and one of the empty slots."""
    by_owner: dict[int, dict[str, list]] = {}
    empty = {"x": [], "y": [], "customdata": []}
    for i in range(len(state.rooms)):
        for x_slot in (0, 1):
            o, strength = state.slot(i, x_slot)
            if o == EMPTY:
                empty["x"].append(SLOT_X[x_slot])
                empty["y"].append(-i)
                empty["customdata"].append([i + 1, "ab"[x_slot]])
                continue
            d = by_owner.setdefault(o, {"x": [], "y": [], "text": [], "customdata": []})
            d["x"].append(SLOT_X[x_slot])
            d["y"].append(-i)
            d["text"].append(str(strength))
            d["customdata"].append([i + 1, "ab"[x_slot], o, strength])
    traces = []
    for o in sorted(by_owner, key=lambda o: (o == NPC, o)):
        d = by_owner[o]
        name = i18n.player_name(state.names, o, lang)
        traces.append(go.Scatter(
            x=d["x"], y=d["y"], text=d["text"], customdata=d["customdata"], name=name,
            mode="markers+text", textposition="middle center",
            textfont={"color": "white", "size": 16},
            marker={"symbol": "square", "size": 42, "color": NPC_COLOUR if o == NPC else colour(o),
                    "line": {"width": 2, "color": "#333" if o == NPC else "white"}},
            hovertemplate=f"{name}: %{{text}}<extra></extra>",
        ))
    traces.append(go.Scatter(
        x=empty["x"], y=empty["y"], customdata=empty["customdata"], name=t("word.empty", lang),
        mode="markers", marker={"symbol": "square-open", "size": 42, "color": "#bbb"},
        hoverinfo="skip", showlegend=False,
    ))
    return traces


def _room_traces(state, lang: str | None) -> list[go.Scatter]:
    """The room labels and each room's back: ranges, lock threshold (R1.2, R4.3), lock."""
    labels, infos = [], []
    for i, card in enumerate(state.rooms):
        info = state.levels[card.level]
        labels.append(f"{t('board.room', lang)} {i + 1} · Lv{card.level}")
        lock = f" ({t('word.locked', lang)})" if state.locked[i] else ""  # a word: 🔒 lacks a glyph in CJK fonts
        # the ranges in play: moved by the lord like the lock threshold (R7.1), never below 0 (R5.3)
        d_def, d_tr = state.lord_defence_change(i), state.lord_treasure_change(i)
        infos.append(f"{t('board.defence_range', lang)} {_moved(info.defence, d_def)} · "
                     f"${_moved(info.treasure, d_tr, '$')} · {t('board.lock_at', lang)} "
                     f"{state.lock_threshold(i)}{lock}")
    k = len(state.rooms)
    ys = [-i for i in range(k)]
    return [go.Scatter(x=[ROOM_LABEL_X] * k, y=ys, text=labels, mode="text", name="rooms",
                       textposition="middle left", showlegend=False, hoverinfo="skip"),
            go.Scatter(x=[INFO_X] * k, y=[y + 0.22 for y in ys], text=infos, mode="text",
                       name="backs", textposition="middle right", showlegend=False,
                       hoverinfo="skip", textfont={"size": 11, "color": "#555"})]


def _result_trace(results, lang: str | None) -> go.Scatter:
    """The revealed fronts and cleared / failed / not reached, once the engine resolved (R5.1)."""
    texts, cd, colours = [], [], []
    for res in results:
        if res.status == "not_reached":
            texts.append(t("board.not_reached", lang))
            colours.append("#888")
        else:
            front = t("board.front_value", lang, defence=res.defence, treasure=res.treasure)
            texts.append(f"{front} · {t('board.' + res.status, lang)}")
            colours.append("#2a7d2a" if res.status == "cleared" else "#b02020")
        cd.append([res.room, res.status])
    return go.Scatter(x=[INFO_X] * len(texts), y=[-(r.room - 1) - 0.2 for r in results],
                      text=texts, customdata=cd, mode="text", name="results",
                      textposition="middle right", textfont={"color": colours, "size": 12},
                      showlegend=False, hoverinfo="skip")


__all__ = ["board_figure"]
