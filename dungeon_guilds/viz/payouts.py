"""The payout of a cleared room (R5.2, R10.2): split, odd remainder, a tie's remainder to the
bank, one owner taking it all, an NPC's share back to the bank — and a lord's treasure change.

:func:`payout_case` asks the engine: it builds a small engine state with the chosen lord and
room position, puts the two adventurers in the room and lets the engine's own resolution
(``State.preview_resolution``) clear it, then reads the ``cleared`` event (treasure after the lord's
modifiers and the R5.3 floor, shares, gold back to the bank). The figure decomposes that
result with :func:`dungeon_guilds.payout.split` alone.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping, Sequence

from ..extras import require

require("dungeon_guilds.viz", "analysis", "plotly", "networkx")

import plotly.graph_objects as go

from .. import i18n
from ..cards import RoomCard, reference_deck
from ..i18n import t
from ..lords import BASE_LORDS, Lord, get_lord
from ..money_html import figure_text
from ..events import RoomOutcome, resolution_events
from ..payout import NPC, split
from ..rules import Rules
from ..state import State

_STRONG_NPC = 5  # fills the rooms above so that they always clear


@dataclass(frozen=True)
class PayoutCase:
    printed: int  # the card's treasure
    treasure: int  # after the lord's modifiers (and R5.3's floor), as the engine paid it
    occupants: tuple[tuple[int, int], ...]  # (owner, strength); owner NPC for an NPC
    shares: Mapping[int, int] = field(default_factory=dict)
    to_bank: int = 0
    cleared: bool = True
    lord: str | None = None
    position: int = 1
    n_rooms: int = 3


def payout_case(treasure: int, occupants: Sequence[tuple[int, int]], lord: Lord | str | None = None,
                position: int = 1, n_rooms: int = 3, level: int = 1) -> PayoutCase:
    """How the engine pays a cleared room holding ``occupants`` [(owner, strength), ...] whose
    card shows ``treasure``, at ``position`` (1 = top) of ``n_rooms`` rooms, under ``lord``."""
    if not 3 <= n_rooms <= 6:
        raise ValueError("a dungeon has 3 to 6 rooms here (one per player)")
    if not 1 <= position <= n_rooms:
        raise ValueError(f"room position must be 1 to {n_rooms}")
    if treasure < 0:
        raise ValueError("a card's treasure is not negative")
    occupants = tuple((int(o), int(s)) for o, s in occupants)
    if not 1 <= len(occupants) <= 2:
        raise ValueError("a room holds one or two adventurers")
    if isinstance(lord, str):
        lord = get_lord(lord)
    deck = reference_deck()
    n = n_rooms
    cards = [RoomCard(level, 0, treasure if i == position - 1 else 0) for i in range(n)] * n
    lords = [lord] * n if lord is not None else list(BASE_LORDS[:n])
    rules = Rules(lords="all" if lord is not None else "none")
    st = State.new([f"P{i}" for i in range(n)], cards, lords, deck.levels, deck.heal_costs, rules=rules)
    for i in range(position - 1):  # rooms above: strong NPCs, so resolution reaches our room
        st.set_slot(i, 0, NPC, _STRONG_NPC)
        st.set_slot(i, 1, NPC, _STRONG_NPC)
    for x, (o, s) in enumerate(occupants):
        st.set_slot(position - 1, x, o, s)
    for ev in resolution_events(st.preview_resolution()):  # the engine's own resolution (R5)
        if isinstance(ev, RoomOutcome) and ev.room == position and ev.cleared:
            return PayoutCase(treasure, ev.treasure, occupants, dict(ev.shares), ev.to_bank, True,
                              lord.id if lord else None, position, n_rooms)
        if isinstance(ev, RoomOutcome) and ev.room == position:
            return PayoutCase(treasure, 0, occupants, {}, 0, False, lord.id if lord else None,
                              position, n_rooms)
    raise RuntimeError("the engine did not resolve the room")  # pragma: no cover


def payout_parts(case: PayoutCase) -> dict[str, dict[int | str, int]]:
    """The engine's result decomposed with :func:`split`: ``even`` (the part split evenly),
    ``rest`` (the odd remainder) and ``whole`` (one owner takes it all), per recipient (a seat,
    or ``"bank"``)."""
    occ = list(case.occupants)
    owners = {o for o, _ in occ}
    parts: dict[str, dict[int | str, int]] = {"even": {}, "rest": {}, "whole": {}}
    if not case.cleared:
        return parts
    if len(occ) == 1 or len(owners) == 1:
        for p, v in case.shares.items():
            parts["whole"][p] = v
        if case.to_bank:
            parts["whole"]["bank"] = case.to_bank
        return parts
    even_total = case.treasure - case.treasure % 2
    even, even_bank = split(even_total, occ)
    for p, v in even.items():
        parts["even"][p] = v
    if even_bank:
        parts["even"]["bank"] = even_bank
    for p, v in case.shares.items():
        if v - even.get(p, 0):
            parts["rest"][p] = v - even.get(p, 0)
    if case.to_bank - even_bank:
        parts["rest"]["bank"] = case.to_bank - even_bank
    return parts


def explain(case: PayoutCase, names: Sequence[str], lang: str | None = None) -> str:
    """The payout in one or two sentences."""
    if case.lord and case.treasure != case.printed:
        ttext = t("msg.treasure_lord", lang, printed=case.printed, lord=i18n.lord_name(case.lord, lang),
                  treasure=case.treasure)
    else:
        ttext = t("msg.treasure_plain", lang, treasure=case.treasure)
    parts = payout_parts(case)
    who = lambda p: t("word.bank", lang) if p == "bank" else i18n.player_name(names, p, lang)  # noqa: E731
    if parts["whole"]:
        p, v = next(iter(parts["whole"].items()))
        stext = t("msg.split_one", lang, owner=who(p), gold=v)
    else:
        shares = i18n.join_list((f"{who(p)} ${v}" for p, v in parts["even"].items()), lang)
        rest = sum(parts["rest"].values())
        if rest:
            rest_to = i18n.join_list((who(p) for p in parts["rest"]), lang)
            stext = t("msg.split_two", lang, shares=shares, rest=rest, rest_to=rest_to)
        else:
            stext = t("msg.split_even", lang, shares=shares)
    return t("msg.payout_explain", lang, treasure_text=ttext, split_text=stext)


def payout_figure(case: PayoutCase, names: Sequence[str] | None = None, lang: str | None = None) -> go.Figure:
    """A stacked horizontal bar per recipient (the owners, then the bank).

    Traces (present when non-zero): ``even`` (half shares), ``rest`` (odd remainder), ``whole``
    (one owner); each has ``x`` = gold per row and ``y`` = recipient labels, ``meta`` = part.
    """
    names = list(names) if names is not None else [f"P{i + 1}" for i in range(6)]
    parts = payout_parts(case)
    recipients: list[int | str] = []
    for o, _ in case.occupants:
        if o != NPC and o not in recipients:
            recipients.append(o)
    recipients.append("bank")
    labels = [t("word.bank", lang) if r == "bank" else i18n.player_name(names, r, lang) for r in recipients]
    style = {"even": ("fig.payout_half", "#4c78a8"), "rest": ("fig.payout_rest", "#f58518"),
             "whole": ("fig.payout_all", "#54a24b")}
    traces = []
    for part, (key, col) in style.items():
        if not parts[part]:
            continue
        xs = [parts[part].get(r, 0) for r in recipients]
        traces.append(go.Bar(x=xs, y=labels, orientation="h", name=t(key, lang), meta=part,
                             marker={"color": col}, text=[f"${v}" if v else "" for v in xs],
                             textposition="inside"))
    fig = go.Figure(traces)
    title = t("fig.payout_title", lang, treasure=case.treasure)
    fig.update_layout(barmode="stack", title={"text": f"{title}<br><sup>{figure_text(explain(case, names, lang))}</sup>"},
                      xaxis={"title": {"text": t("fig.payout_x", lang)}, "dtick": 1},
                      yaxis={"autorange": "reversed"}, height=260,
                      margin={"l": 10, "r": 10, "t": 70, "b": 40}, plot_bgcolor="white",
                      legend={"orientation": "h", "y": -0.3})
    return fig


__all__ = ["PayoutCase", "explain", "payout_case", "payout_figure", "payout_parts"]
