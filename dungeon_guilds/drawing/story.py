"""The resolution told room by room and the round log, as plain text and HTML (no widget).

:func:`resolution_steps` reads the engine's log of one round (``bonus``, ``revealed``,
``cleared`` / ``failed`` with the adventurers in the room, ``healed``) into sentences a
student can step through: who is in the room, whether the party clears it and why (their
strength against the needed defence, R5.1), the treasure and its split with the remainder
(R5.2), what the lord changed (printed front against the value used, §7), the rooms below a
failure (R5.1) and the healing paid or dropped (R6.1). Nothing is decided here: the numbers are
the engine's. :func:`round_log_html` is the whole game's log grouped by round, the latest round
open, older rounds folded but kept; :func:`log_html` its last events.

Widget-free on purpose (issue 39): the class-table server (``app/tables/``) tells a round with
these functions and loads no widget library; :mod:`dungeon_guilds.widgets.narration` shows them
in a widget.
"""

from __future__ import annotations

from html import escape
from typing import Mapping, Sequence

from .. import i18n
from ..events import Bonus, Heal, RoomOutcome, entries, resolution_events, resolved_rounds


def _t(key: str, lang: str, **values) -> str:
    return i18n.t(f"narr.{key}", lang, **values)


def _who(names: Sequence[str], occupants, lang: str) -> str:
    return " + ".join(f"{i18n.player_name(names, o, lang)} {s}" for o, s in occupants) or "—"


def _room_step(out: RoomOutcome, names: Sequence[str], lang: str) -> str:
    room = out.room
    who = _who(names, out.occupants, lang)
    lord = ""
    if out.defence != out.printed_defence:
        lord = _t("lord_defence", lang, printed=out.printed_defence, used=out.defence)
    head = _join(lang, _t("room_head", lang, room=room, who=who, total=out.total, defence=out.defence), lord)
    if not out.cleared:
        below = [r for r in out.rooms if r != room]
        tail = _t("failed_below", lang, rooms=i18n.join_list(below, lang)) if below else _t("failed_last", lang)
        return _join(lang, head, _t("failed", lang), tail)
    parts = [i18n.t("word.share", lang, name=i18n.player_name(names, p, lang), gold=g)
             for p, g in out.shares.items()]
    split = i18n.join_list(parts, lang) or "—"
    treasure = _t("treasure", lang, treasure=out.treasure, split=split)
    if out.treasure != out.printed_treasure:
        treasure = _join(lang, treasure, _t("lord_treasure", lang, printed=out.printed_treasure, used=out.treasure))
    if out.to_bank:
        treasure = _join(lang, treasure, _t("remainder", lang, gold=out.to_bank))
    return _join(lang, head, _t("cleared", lang), treasure)


def _join(lang: str, *parts: str) -> str:
    return ("" if lang == "zh" else " ").join(p.strip() for p in parts if p)


def _step(ev: Bonus | RoomOutcome | Heal, names: Sequence[str], lang: str) -> str:
    if isinstance(ev, Bonus):
        return i18n.t("event.bonus", lang, player=i18n.player_name(names, ev.player, lang), gold=ev.gold,
                      total=ev.total)
    if isinstance(ev, RoomOutcome):
        return _room_step(ev, names, lang)
    key = "heal_dropped" if ev.dropped else "heal_paid"
    return _t(key, lang, player=i18n.player_name(names, ev.player, lang), cost=ev.cost, paid=ev.paid,
              dropped=ev.dropped)


def resolution_steps(log: Sequence[Mapping], round_no: int, names: Sequence[str], lang: str) -> list[str]:
    """The resolution of ``round_no`` as sentences, in the order the engine resolved it
    (empty if that round has not been resolved)."""
    events = resolution_events(log, round_no)
    steps = [_step(ev, names, lang) for ev in events]
    if steps and not any(isinstance(ev, Heal) for ev in events):
        failed = any(isinstance(ev, RoomOutcome) and not ev.cleared for ev in events)
        steps.append(_t("no_heal_cost" if failed else "no_heal", lang))  # a failed room whose heal costs are all $0
    return steps


def round_log_html(log: Sequence[Mapping], names: Sequence[str], lang: str, secret_for: int | None = None,
                   lords: Sequence = (), memo: dict | None = None) -> str:
    """The log grouped by round (``<details>`` each, the latest open): it stays after a round
    ends. ``secret_for``: hide other players' setup exhaust choices from that seat (R2.4);
    ``lords``: the game's lords (a workshop lord named by its name in ``lang``); ``memo``: a
    dict kept with one game (its log only grows) where each event's line is kept once worded,
    and each seat's rounds as listed so far, so that a long game's log is neither worded nor
    walked again at every move for every seat (issue 37)."""
    return "".join(round_log_pieces(log, names, lang, secret_for, lords, memo))


def round_log_pieces(log: Sequence[Mapping], names: Sequence[str], lang: str, secret_for: int | None = None,
                     lords: Sequence = (), memo: dict | None = None) -> list[str]:
    """:func:`round_log_html` in pieces: the root's tags and each round's ``<details>`` (a class
    table sends a page the pieces that changed: a move changes the last round's). With a
    ``memo``, a round's piece is joined again only when it has grown or stopped being the last."""
    listed = memo.get(("listed", lang, secret_for)) if memo is not None else None
    if listed is None or listed[0] > len(log) or (listed[0] and log[listed[0] - 1] is not listed[1]):
        listed = (0, None, {})  # nothing listed yet, or not this log: from its start
    rounds = dict(listed[2])  # round -> its lines (a tuple: a list grown is a new tuple)
    grown: dict[int, list[str]] = {}
    for entry in entries(log, listed[0]):
        hidden = entry.hidden_from(secret_for)
        key = (entry.index, id(entry.event), lang, hidden)  # the event itself: a log is never rewritten
        line = memo.get(key) if memo is not None else None
        if line is None:
            text = i18n.event_text(entry.event, names, lang, secret_exhaust=hidden, lords=lords)
            line = f'<li class="dg-log-event" data-kind="{escape(entry.kind)}">{escape(text)}</li>'
            if memo is not None:
                memo[key] = line
        grown.setdefault(entry.round, list(rounds.get(entry.round, ()))).append(line)
    rounds.update((r, tuple(lines)) for r, lines in grown.items())
    if memo is not None and log:
        memo["listed", lang, secret_for] = (len(log), log[-1], rounds)
    last = max(rounds) if rounds else 0
    parts = ['<div class="dg-log-rounds">']
    for r in sorted(rounds):
        lines = rounds[r]
        drawn = (len(lines), lines[-1], r == last)  # its lines (the last one's object: the same event) and "open"
        key = ("round", lang, secret_for, r)
        kept = memo.get(key) if memo is not None else None
        if kept is None or kept[0][0] != drawn[0] or kept[0][1] is not drawn[1] or kept[0][2] != drawn[2]:
            title = escape(_t("log_round", lang, round=r))
            kept = (drawn, f'<details class="dg-round-log" data-round="{r}"{" open" if r == last else ""}>'
                           f'<summary>{title}</summary><ol class="dg-log">{"".join(lines)}</ol></details>')
            if memo is not None:
                memo[key] = kept  # one per round, seat and language: the last drawn
        parts.append(kept[1])
    parts.append("</div>")
    return parts


def log_html(log: Sequence[dict], names: Sequence[str], lang: str, last: int = 14,
             secret_for: int | None = None) -> str:
    """The last events of the log, in words (``secret_for``: hide other players' exhaust
    choices from that seat)."""
    start = max(0, len(log) - last)
    items = []
    for entry in entries(log, start):
        text = i18n.event_text(entry.event, names, lang, secret_exhaust=entry.hidden_from(secret_for))
        items.append(f'<li class="dg-log-event" data-kind="{escape(entry.kind)}">{escape(text)}</li>')
    return f'<ol class="dg-log" start="{start + 1}">{"".join(items)}</ol>'


__all__ = ["log_html", "resolution_steps", "resolved_rounds", "round_log_html", "round_log_pieces"]
