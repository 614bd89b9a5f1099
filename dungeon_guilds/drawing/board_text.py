"""The board in words: one description a screen reader reads for the drawn board (issue 32).

:func:`board_lines` says, from the engine's state and log, what the picture shows: the round and
the phase, whose turn it is (seats counted from 1), the lord, every room from the top (its number
and level, the ranges printed on its back or, once revealed, its front, the lock threshold,
locked or not, who is in it with what strength, and after resolution cleared / failed / not
reached with the engine's totals and shares) and every seat's gold and hand (what the ``viewer``
may know: :meth:`State.view`, so no secret exhaust choice leaks).

:func:`board_text_html` puts the lines in a ``role="region"`` list with an ``id``; the board
widget (:mod:`dungeon_guilds.widgets.board`) draws it beside the picture, visually hidden, and
links the picture to it with ``aria-describedby``. Nothing here decides a rule: thresholds,
changes, results and winners are the engine's answers (:meth:`State.lock_threshold`,
:meth:`State.lord_defence_change`, :func:`dungeon_guilds.events.resolution`,
:func:`dungeon_guilds.scoring.result`). Standard library only, like the rest of the drawing layer.
"""

from __future__ import annotations

from html import escape
from typing import Sequence

from .. import i18n
from ..cards import strengths_of
from ..events import RoomResult, resolution, rooms_round
from ..money_html import dollars_as_text
from ..payout import EMPTY, NPC
from ..scoring import result
from ..state import OVER

HTML_LANG = {"zh": "zh-Hant"}


def t(key: str, lang: str, **values) -> str:
    """A word of the board in words (``btext.*`` in ``strings/<lang>/board_text.toml``)."""
    return i18n.t(f"btext.{key}", lang, **values)


def _seat(state, p: int, lang: str) -> str:
    return i18n.t("bd.seat", lang, seat=p + 1, name=state.names[p])


def _occupant(state, owner: int, strength: int, lang: str) -> str:
    if owner == EMPTY:
        return t("free", lang)
    if owner == NPC:
        return t("npc", lang, strength=strength)
    return t("occupant", lang, seat=owner + 1, name=state.names[owner], strength=strength)


def _outcome(res: RoomResult | None, lang: str) -> str:
    """After resolution: cleared (the engine's total, defence, treasure and shares), failed, or
    never reached (R5.1)."""
    if res is None:
        return ""
    if res.status == "not_reached":
        return t("not_reached", lang)
    if res.status == "failed":
        return t("failed", lang, total=res.total, defence=res.effective_defence)
    parts = [t("share", lang, seat=int(p) + 1, gold=g) for p, g in (res.shares or {}).items()]
    if res.to_bank:
        parts.append(f"{i18n.t('word.bank', lang)} ${res.to_bank}")
    return t("cleared", lang, total=res.total, defence=res.effective_defence, treasure=res.effective_treasure,
             split=t("list_sep", lang).join(parts) or t("none", lang))


def room_line(state, i: int, res: RoomResult | None, lang: str) -> str:
    """Room ``i`` (0-based) in one sentence."""
    card = state.rooms[i]
    if res is not None and res.defence is not None:
        numbers = t("front", lang, defence=res.defence, treasure=res.treasure)
    else:
        info = state.levels[card.level]
        numbers = t("back", lang, d0=info.defence[0], d1=info.defence[1], t0=info.treasure[0], t1=info.treasure[1])
        change = state.lord_defence_change(i)
        if change:
            numbers += t("lord_change", lang, change=f"{change:+d}")
    occupants = t("and", lang).join(_occupant(state, *state.slot(i, x), lang) for x in (0, 1))
    return t("room", lang, room=i + 1, level=card.level, numbers=numbers, lock=state.lock_threshold(i),
             locked=t("locked", lang) if state.locked[i] else "", occupants=occupants,
             outcome=_outcome(res, lang))


def _hand(state, view, p: int, lang: str) -> str:
    """What the viewer may know of seat ``p``'s adventurers (R2.4: others' exhaust choices are
    secret in round 1)."""
    active = view.active[p] if view is not None else state.active[p]
    exhausted = view.exhausted[p] if view is not None else state.exhausted[p]
    # this round's adventurers in the dungeon, as the drawn hand shows them (outlined, not in hand)
    placed = sorted(s for owner, s in state.slots() if owner == p) if state.placed[p] else []
    if active == -1:
        parts = [t("secret", lang)]
    else:
        none = t("none", lang)
        shown = lambda mask: " ".join(str(s) for s in strengths_of(mask) if s not in placed) or none  # noqa: E731
        parts = [t("ready", lang, strengths=shown(active)), t("exhausted", lang, strengths=shown(exhausted))]
    if placed:
        parts.append(t("in_dungeon", lang, strengths=" ".join(map(str, placed))))
    return t("list_sep", lang).join(parts)


def seat_line(state, view, p: int, lang: str, viewer: int | None, winners: Sequence[int]) -> str:
    """Seat ``p`` (0-based; spoken from 1): gold, hand, start player, to move, winner."""
    marks = ""
    if p == state.start:
        marks += t("start", lang)
    if state.phase != OVER and p == state.current:
        marks += t("turn", lang)
    if p in winners:
        marks += t("winner", lang)
    return t("seat", lang, seat=p + 1, name=state.names[p], you=t("you", lang) if p == viewer else "",
             gold=state.gold[p], hand=_hand(state, view, p, lang), marks=marks)


def board_lines(state, lang: str | None = None, viewer: int | None = None, log: Sequence[dict] | None = None) -> list[str]:
    """The board as sentences, in reading order: the round and whose turn, the lord, the rooms
    from the top, the seats."""
    lang = lang or i18n.get_language()
    log = state.log if log is None else log
    view = state.view(viewer) if viewer is not None else None
    lines = [t("head", lang, round=min(state.round + 1, state.rounds), rounds=state.rounds,
               phase=i18n.phase_name(state.phase, lang))]
    winners: tuple[int, ...] = ()
    if state.phase == OVER:
        winners = result(state).winners
        lines.append(t("over", lang, winners=t("list_sep", lang).join(_seat(state, p, lang) for p in winners)))
    else:
        lines.append(t("to_move", lang, seat=state.current + 1, name=state.names[state.current]))
    name = i18n.lord_name(state.lord, lang)
    effect = i18n.lord_text(state.lord, lang).strip()
    if effect and not effect.endswith((".", "。", "!", "！", ")", "）")):
        effect += t("stop", lang)  # a lord card's text may end without a full stop
    lines.append(t("lord", lang, name=name, effect=effect) if state.effects_on else t("effects_off", lang, name=name))
    results = resolution(log, rooms_round(state)) if log else None
    for i in range(len(state.rooms)):
        lines.append(room_line(state, i, results[i] if results and i < len(results) else None, lang))
    lines.extend(seat_line(state, view, p, lang, viewer, winners) for p in range(state.n))
    return lines


def board_text_html(state, lang: str | None = None, viewer: int | None = None, log: Sequence[dict] | None = None,
                    uid: str = "dg") -> str:
    """:func:`board_lines` as a list in a labelled ``role="region"`` (a screen reader's landmark),
    in the page's language. The list's ``id="{uid}-text"`` is what the picture's
    ``aria-describedby`` names: the list, not the region, whose label would stand for the text."""
    lang = lang or i18n.get_language()
    items = "".join(f"<li>{escape(line)}</li>" for line in board_lines(state, lang, viewer, log))
    return dollars_as_text(  # money is text, never MathJax's mathematics (issue 40)
        f'<div class="dg-board-text" role="region" aria-label="{escape(t("region", lang))}" '
        f'lang="{HTML_LANG.get(lang, lang)}"><ul class="dg-board-text-lines" id="{escape(uid)}-text">{items}</ul></div>')


__all__ = ["board_lines", "board_text_html", "room_line", "seat_line"]
