"""Rich display of a game in a notebook (``Game._repr_html_``) and the HTML board the widgets
show: the dungeon from top to bottom (level, back ranges, lock threshold, slots with owner colour
and strength, lock), after resolution the revealed fronts and cleared / failed rooms, the lord
and its effect, each player's gold, active and exhausted adventurers, and whose turn it is.

Only reads the engine's state and log; every word comes from :mod:`dungeon_guilds.i18n`.
``viewer`` (a seat) hides what that player may not know, as :meth:`State.view` says (other
players' secret exhaust choices in round 1); room fronts are shown only once revealed.
Stable CSS classes (``dg-board``, ``dg-room``, ``dg-slot``, ``dg-player``, ``dg-current``…)
and ``data-*`` attributes let browser tests find things.
"""

from __future__ import annotations

from html import escape
from pathlib import Path
from typing import Any, Sequence

from .. import i18n
from ..cards import strengths_of
from ..events import dealt_levels, resolution, rooms_round
from ..money_html import dollars_as_text
from ..i18n import t
from ..payout import EMPTY, NPC
from ..scoring import result
from ..state import OVER
from .board_svg import board_svg_html
from .colours import colour

_STYLE = "<style>" + Path(__file__).with_name("display.css").read_text(encoding="utf-8") + "</style>"


# a padlock drawn, not a font glyph: 🔒 came out as a missing-glyph box beside 已鎖定 (issue 24)
PADLOCK = ('<svg class="dg-padlock" width="10" height="12" viewBox="0 0 14 16" aria-hidden="true" '
           'style="vertical-align:-1px"><path d="M3 7V4a4 4 0 0 1 8 0v3" fill="none" stroke="currentColor" '
           'stroke-width="1.8"/><rect x="1" y="7" width="12" height="9" rx="1.5" fill="currentColor"/></svg>')


def chip(names: Sequence[str], owner: int, strength: Any = "", lang: str | None = None) -> str:
    """An adventurer (or a player with ``strength=""``) as a coloured chip."""
    label = f"{t('word.npc', lang)} {strength}".strip()
    if owner == NPC:
        return f'<span class="dg-slot dg-npc" data-owner="npc" data-strength="{strength}">{escape(label)}</span>'
    name = escape(names[owner]) if 0 <= owner < len(names) else "?"
    return (f'<span class="dg-slot dg-chip" style="background:{colour(owner)}" data-owner="{owner}" '
            f'data-strength="{strength}">{name} {strength}</span>').replace(" </span>", "</span>")


def _strengths(mask: int, lang: str | None) -> str:
    if mask == -1:
        return t("word.unknown", lang)
    values = strengths_of(mask)
    return " ".join(str(s) for s in values) if values else "—"


def _lord_line(state, lang: str | None) -> str:
    lord = state.lord
    name = escape(i18n.lord_name(lord, lang))
    other = lord.name_en if lang == "zh" else lord.name_zh
    text = escape(i18n.lord_text(lord, lang))
    if not state.effects_on:
        text = f"<s>{text}</s> ({escape(t('word.effects_off', lang))})"
    return (f'<div class="dg-lord" data-lord="{escape(lord.id)}"><b>{escape(t("board.lord", lang))}:</b> '
            f'<b>{name}</b> <span class="dg-note">{escape(other)}</span> — {text}</div>')


def _result_cell(res, names, lang) -> str:
    if res is None:
        return f'<span class="dg-note">{escape(t("word.hidden", lang))}</span>'
    if res.status == "not_reached":
        return f'<span class="dg-note">{escape(t("board.not_reached", lang))}</span>'
    front = t("board.front_value", lang, defence=res.defence, treasure=res.treasure)
    if res.status == "cleared":
        parts = [f"{escape(names[int(p)])} ${g}" for p, g in (res.shares or {}).items()]
        if res.to_bank:
            parts.append(f"{escape(t('word.bank', lang))} ${res.to_bank}")
        shares = i18n.join_list(parts, lang)
        return (f'{escape(front)} · <span class="dg-cleared">{escape(t("board.cleared", lang))}</span> '
                f'({res.total} ≥ {res.effective_defence}; ${res.effective_treasure}: {shares or "—"})')
    return (f'{escape(front)} · <span class="dg-failed">{escape(t("board.failed", lang))}</span> '
            f'({res.total} &lt; {res.effective_defence})')


def _range(printed: tuple[int, int], change: int, unit: str, lang: str | None) -> str:
    """A card back's range (R1.2); when the round's lord changes the room's numbers, the range in
    play (never below 0, R5.3; it moves with "Locks at", R7.1) and then the printed one."""
    low, high = printed
    text = f"{unit}{low}–{unit}{high}"
    if not change:
        return text
    moved = f"{unit}{max(low + change, 0)}–{unit}{max(high + change, 0)}"
    note = escape(t("board.printed_range", lang, range=text))
    return f'<b>{moved}</b> <span class="dg-note">({note}, {change:+d})</span>'


def rooms_table(state, log: Sequence[dict] | None, lang: str | None = None) -> str:
    """The dungeon now on the table, top room first."""
    names = state.names
    results = resolution(log, rooms_round(state)) if log else None
    head = "".join(f"<th>{escape(t(k, lang))}</th>" for k in (
        "board.room", "board.level", "board.defence_range", "board.treasure_range", "board.lock_at",
        "board.adventurers", "board.result"))
    rows = []
    for i, card in enumerate(state.rooms):
        info = state.levels[card.level]
        slots = []
        for x in (0, 1):
            o, strength = state.slot(i, x)
            if o == EMPTY:
                slots.append(f'<span class="dg-slot dg-empty" data-owner="">·</span>')
            else:
                slots.append(chip(names, o, strength, lang))
        lock = (f' {PADLOCK}<span class="dg-note">{escape(t("word.locked", lang))}</span>'
                if state.locked[i] else "")
        res = results[i] if results and i < len(results) else None
        rows.append(
            f'<tr class="dg-room" data-room="{i + 1}" data-level="{card.level}" '
            f'data-locked="{int(bool(state.locked[i]))}"><td>{i + 1}</td><td>Lv{card.level}</td>'
            f"<td>{_range(info.defence, state.lord_defence_change(i), '', lang)}</td>"
            f"<td>{_range(info.treasure, state.lord_treasure_change(i), '$', lang)}</td>"
            f"<td>{state.lock_threshold(i)}{lock}</td><td>{' '.join(slots)}</td>"
            f"<td>{_result_cell(res, names, lang)}</td></tr>"
        )
    return f'<table class="dg-rooms"><tr>{head}</tr>{"".join(rows)}</table>'


def players_table(state, lang: str | None = None, viewer: int | None = None) -> str:
    view = state.view(viewer) if viewer is not None else None
    active = view.active if view is not None else state.active
    exhausted = view.exhausted if view is not None else state.exhausted
    winners = set(result(state).winners) if state.phase == OVER else set()
    head = "".join(f"<th>{escape(t(k, lang))}</th>" for k in (
        "board.player", "board.gold", "board.active", "board.exhausted", "board.turn"))
    rows = []
    for p, name in enumerate(state.names):
        current = state.phase != OVER and p == state.current
        marks = []
        if current:
            marks.append(escape(t("board.to_move", lang)))
        if p in winners:
            marks.append(escape(t("board.winner", lang)))
        start = f' <span class="dg-note">{escape(t("board.start", lang))}</span>' if p == state.start else ""
        team = ""
        if state.team is not None:
            team = f' <span class="dg-note">{escape(t("board.teams", lang, team=state.team[p] + 1))}</span>'
        you = f' <b>({escape(t("word.you", lang))})</b>' if viewer == p else ""
        rows.append(
            f'<tr class="dg-player{" dg-current" if current else ""}" data-seat="{p}">'
            f"<td>{chip(state.names, p, '', lang)}{you}{start}{team}</td><td>${state.gold[p]}</td>"
            f"<td>{_strengths(active[p], lang)}</td><td>{_strengths(exhausted[p], lang)}</td>"
            f"<td>{' '.join(marks)}</td></tr>"
        )
    return f'<table class="dg-players"><tr>{head}</tr>{"".join(rows)}</table>'


def last_round_table(state, log: Sequence[dict] | None, lang: str | None = None) -> str:
    """The previous round's resolution (fronts, cleared / failed), while the next round runs."""
    if not log or state.phase == OVER or state.round < 1:
        return ""
    results = resolution(log, state.round)
    if not results:
        return ""
    levels = dealt_levels(log, state.round)
    rows = []
    for res in results:
        lv = levels[res.room - 1] if res.room - 1 < len(levels) else "?"
        rows.append(f'<tr class="dg-last-room" data-room="{res.room}" data-status="{res.status}">'
                    f"<td>{res.room}</td><td>Lv{lv}</td><td>{_result_cell(res, state.names, lang)}</td></tr>")
    title = escape(t("board.last_round", lang, round=state.round))
    return (f'<details class="dg-last-round"><summary>{title}</summary><table>'
            f"{''.join(rows)}</table></details>")


def board_tables_html(state, log: Sequence[dict] | None = None, lang: str | None = None,
                      viewer: int | None = None, reference_deck: bool = True, style: bool = True) -> str:
    """The whole table as HTML (see the module docstring)."""
    lang = lang or i18n.get_language()
    if log is None:
        log = state.log
    round_no = min(state.round + 1, state.rounds)
    phase = i18n.phase_name(state.phase, lang)
    title = escape(t("board.title", lang, round=round_no, rounds=state.rounds, phase=phase))
    if state.phase != OVER:
        mover = escape(state.names[state.current])
        title += f' · <span class="dg-mover" data-seat="{state.current}">{mover} {escape(t("word.to_move", lang))}</span>'
    heal = i18n.join_list((f"{s}:${state.heal_cost(s)}" for s in range(1, 6)), lang)
    note = t("word.reference_deck" if reference_deck else "word.custom_deck", lang)
    return dollars_as_text(  # money is text, never MathJax's mathematics (issue 40)
        f'{_STYLE if style else ""}<div class="dg-board" lang="{"zh-Hant" if lang == "zh" else lang}" '
        f'data-phase="{state.phase}" data-round="{round_no}">'
        f'<div class="dg-title"><b>{title}</b></div>{_lord_line(state, lang)}'
        f"{rooms_table(state, log, lang)}{players_table(state, lang, viewer)}"
        f'<div class="dg-note">{escape(t("board.heal_costs", lang, costs=heal))}</div>'
        f"{last_round_table(state, log, lang)}"
        f'<div class="dg-note"><small>{escape(note)}</small></div></div>'
    )


def game_html(game, lang: str | None = None, viewer: int | str | None = None) -> str:
    """A :class:`Game` as HTML (its ``_repr_html_``), in the default language unless given."""
    if isinstance(viewer, str):
        viewer = game.names.index(viewer)
    return board_svg_html(game.state, lang or i18n.get_language(), viewer, game.log, uid=f"dg{id(game):x}")

__all__ = ["board_tables_html", "chip", "game_html"]
