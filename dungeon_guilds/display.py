"""Rich display of a game in a notebook (``Game._repr_html_``): the dungeon from top to bottom,
the lord, each player's gold and hand, whose turn it is. Only reads the engine's state."""

from __future__ import annotations

from html import escape

from .state import EMPTY, OVER, SETUP, strengths_of
from .payout import NPC

COLOURS = ("#d62728", "#1f77b4", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b")


def _adventurer(game, owner: int, strength: int) -> str:
    if owner == NPC:
        return f'<span style="border:1px dashed #777;padding:1px 4px">NPC {strength}</span>'
    colour = COLOURS[owner % len(COLOURS)]
    return (f'<span style="background:{colour};color:white;padding:1px 5px;border-radius:3px">'
            f'{escape(game.names[owner])} {strength}</span>')


def game_html(game) -> str:
    st = game.state
    lord = st.lord
    rows = []
    revealed = st.phase == OVER
    for i, card in enumerate(st.rooms):
        info = st.levels[card.level]
        slots = []
        for j in (2 * i, 2 * i + 1):
            o = st.slot_owner[j]
            slots.append("·" if o == EMPTY else _adventurer(game, o, st.slot_str[j]))
        front = f"defence {card.defence}, treasure ${card.treasure}" if revealed else "hidden"
        rows.append(
            f"<tr><td>{i + 1}</td><td>Lv{card.level}</td>"
            f"<td>{info.defence[0]}–{info.defence[1]}</td><td>${info.treasure[0]}–{info.treasure[1]}</td>"
            f"<td>{st.lock_threshold(i)}</td><td>{'🔒' if st.locked[i] else ''}</td>"
            f"<td>{' '.join(slots)}</td><td>{front}</td></tr>"
        )
    players = []
    for p, name in enumerate(game.names):
        mark = " ◀ to move" if st.phase != OVER and p == st.current else ""
        marker = " (start)" if p == st.start else ""
        players.append(
            f"<tr><td>{_adventurer(game, p, '')}{marker}</td><td>${st.gold[p]}</td>"
            f"<td>{strengths_of(st.active[p])}</td><td>{strengths_of(st.exhausted[p])}</td><td>{mark}</td></tr>"
        )
    effects = "on" if st.effects_on else "off (lords only count rounds)"
    phase = {SETUP: "setup: choose two adventurers to exhaust", OVER: "game over"}.get(st.phase, st.phase)
    round_no = min(st.round + 1, st.rounds)
    head = (f"<b>Round {round_no}/{st.rounds}</b> · {phase} · lord: <b>{escape(lord.name_en)}</b> "
            f"{escape(lord.name_zh)} — {escape(lord.text_en)} (effects {effects})")
    deck_note = "" if game.deck.is_reference else " (custom deck)"
    table = (
        "<table><tr><th>room</th><th>level</th><th>defence range</th><th>treasure range</th>"
        "<th>lock at</th><th></th><th>adventurers</th><th>front</th></tr>" + "".join(rows) + "</table>"
    )
    ptable = (
        "<table><tr><th>player</th><th>gold</th><th>active</th><th>exhausted</th><th></th></tr>"
        + "".join(players) + "</table>"
    )
    note = ("<small>Card values are the project's reference deck, an assumption (R1.4)"
            f"{deck_note}.</small>")
    return f"<div>{head}{table}{ptable}{note}</div>"
