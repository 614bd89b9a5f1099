"""What a player may click on the board now: the interaction model of the drawn board, apart
from the drawing (:mod:`dungeon_guilds.drawing.board_svg` draws it; the widget
:mod:`dungeon_guilds.widgets.board` makes it clickable).

:func:`board_targets` lists the clickable things (an adventurer of the player's hand, then a
slot or a room; the exhaust pair at setup) with the action each click means, its cost in words
and, for an illegal choice, the engine's reason. Nothing here decides a rule: costs and
refusals are the engine's answers (:meth:`State.action_fees`, :meth:`State.refusal`,
:meth:`State.legal_actions`).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Sequence

from . import i18n, rule_cards
from .actions import BUMP, EXHAUST, PLACE, SWAP, Action
from .state import EMPTY, OVER, SETUP, strengths_of


def t(key: str, lang: str, **values) -> str:
    """A word of the drawn board (``bd.*`` in the strings), worded once for each key, language
    and values (a class table words every slot of every choice of the mover's hand at every
    move, issue 37; the strings never change while the server runs)."""
    try:
        return _worded(key, lang or i18n.get_language(), tuple(values.items()))
    except TypeError:  # a value that cannot be a key: worded every time
        return i18n.t(f"bd.{key}", lang, **values)


@lru_cache(maxsize=8192)
def _worded(key: str, lang: str, values: tuple) -> str:
    return i18n.t(f"bd.{key}", lang, **dict(values))


@dataclass(frozen=True)
class Target:
    """One clickable thing on the board: ``id`` (``hand-S``, ``slot-R-X``, ``exhaust``),
    the action a click means (None for picking an adventurer), whether the engine allows it
    now, its accessible name, its cost in words and, when refused, the engine's reason."""

    id: str
    label: str
    enabled: bool = True
    action: Action | None = None
    reason: str = ""
    cost: str = ""
    pressed: bool = False


def _cost_words(state, action: Action, lang: str) -> str:
    """What ``action`` costs and to whom, from the engine (R4.4, R4.5, R10.2)."""
    bank, owner_gets, owner = state.action_fees(action)
    if owner == EMPTY:
        return t("cost_free", lang)
    if owner_gets:
        return t("cost_bank_owner", lang, bank=bank, gold=owner_gets,
                 owner=i18n.player_name(state.names, owner, lang))
    return t("cost_bank", lang, bank=bank)


def _slot_action(state, player: int, strength: int, room: int, slot: int) -> Action:
    """The action a click on a slot means with ``strength`` chosen: place in an empty slot,
    swap your own adventurer, bump anyone else's."""
    owner, _ = state.slot(room - 1, slot)
    if owner == EMPTY:
        return Action(PLACE, strength, room)
    return Action(SWAP if owner == player else BUMP, strength, room, slot)


def _hand_words(state, player: int, lang: str) -> list[tuple[int, str, bool, str]]:
    """Each card of the hand a player may pick now: (strength, accessible name, allowed, the
    engine's reason if not) — the same whatever is picked already."""
    if state.phase == SETUP:
        return [(s, t("pick_exhaust", lang, strength=s, heal=state.base_heal[s]), True, "") for s in range(1, 6)]
    legal = state.legal_actions()
    out = []
    for s in strengths_of(state.active[player]):
        ok = any(a.strength == s for a in legal)
        reason = "" if ok else _refusal(_first_reason(state, player, s), lang)
        label = t("pick", lang, strength=s, heal=state.heal_cost(s))
        out.append((s, label if ok else f"{label}: {reason}", ok, reason))
    return out


def _hand_targets(state, player: int, selected: Sequence[int], lang: str, memo: dict | None = None) -> list[Target]:
    key = ("hand", player, lang)
    words = memo.get(key) if memo is not None else None
    if words is None:
        words = _hand_words(state, player, lang)
        if memo is not None:
            memo[key] = words
    if state.phase == SETUP:
        out = [Target(f"hand-{s}", label, pressed=s in selected) for s, label, _, _ in words]
        if len(selected) == 2:
            a, b = sorted(selected)
            action = Action(EXHAUST, a, other=b)
            reason = state.refusal(action, player)
            gain = state.base_heal[a] + state.base_heal[b]
            out.append(Target("exhaust", t("exhaust_go", lang, a=a, b=b, gold=gain), reason is None,
                              action, _refusal(reason, lang), t("gain", lang, gold=gain)))
        return out
    return [Target(f"hand-{s}", label, ok, None, reason, pressed=s in selected) for s, label, ok, reason in words]


def _first_reason(state, player: int, strength: int):
    """The engine's refusal of any move with ``strength`` (asked of room 1, placing, then
    replacing): why this adventurer cannot go in now."""
    return state.refusal(Action(PLACE, strength, 1), player) or state.refusal(
        Action(BUMP, strength, 1, 0), player)


_WORDED: dict = {}  # refusals worded already (_refusal), by what their words read; cleared when large


def _refusal(err, lang: str) -> str:
    """The engine's refusal in words (``i18n.refusal_text``) followed by the one-line text of
    the rule it applies (``rule_cards.rule_line``: a student does not know what "R4.4" means),
    or "" for none. Worded once for each code, values and language (a class table words the
    same refusal for every slot and adventurer, issue 37)."""
    if err is None:
        return ""
    key = (err.code, lang, tuple(sorted((k, tuple(v) if isinstance(v, list) else v) for k, v in err.params.items())))
    try:
        return _WORDED[key]
    except KeyError:
        pass
    except TypeError:  # a value that cannot be a key: worded every time
        key = None
    words = " — ".join([i18n.refusal_text(err, lang)] + rule_cards.rule_lines_for(err, lang))
    if key is not None:
        if len(_WORDED) > 4096:
            _WORDED.clear()
        _WORDED[key] = words
    return words


def _slot_targets(state, player: int, strength: int, lang: str) -> list[Target]:
    out = []
    names = state.names
    for i in range(len(state.rooms)):
        room = i + 1
        for x in (0, 1):
            action = _slot_action(state, player, strength, room, x)
            reason = state.refusal(action, player)
            where = t("where", lang, room=room, slot="ab"[x])
            owner, held = state.slot(i, x)
            if action.kind == PLACE:
                words = t("place", lang, strength=strength, room=room)
            else:
                words = t("replace", lang, strength=strength, where=where, held=held,
                          owner=i18n.player_name(names, owner, lang))
            cost = _cost_words(state, action, lang)
            if reason is None:
                label = f"{words} — {cost}"
            else:
                label = t("refused", lang, what=where, reason=_refusal(reason, lang))
            out.append(Target(f"slot-{room}-{x}", label, reason is None, action,
                              _refusal(reason, lang), cost if action.kind != PLACE else ""))
    return out


def board_targets(state, player: int, selected: Sequence[int] = (), lang: str | None = None,
                  memo: dict | None = None) -> dict[str, Target]:
    """What ``player`` may click now, by target id (empty when it is not their decision).
    With no adventurer chosen: the hand; with one chosen (dispatch): the hand and every slot,
    each with the action it means, its cost and the engine's verdict. ``memo``: a dict shared by
    the calls for one state (a class table's picks, issue 37): the hand is worded once."""
    lang = lang or i18n.get_language()
    if state.phase == OVER or state.current != player:
        return {}
    out = _hand_targets(state, player, selected, lang, memo)
    if state.phase != SETUP and len(selected) == 1:
        out += _slot_targets(state, player, selected[0], lang)
    return {x.id: x for x in out}


__all__ = ["Target", "board_targets"]
