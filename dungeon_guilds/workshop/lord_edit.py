"""Composing lords from the effect vocabulary the engine uses for the printed lords (§7).

A workshop lord is a :class:`~dungeon_guilds.lords.Lord` like the printed ones: an id, names,
texts and a tuple of effects from :mod:`dungeon_guilds.effects` (``RoomModifier``,
``HealModifier``, ``PlacementBan``, ``StartFlip``, ``LowestTotalBonus``). The engine interprets
them; nothing here decides a rule.

* :func:`make_lord` builds and checks one (effects as objects or dicts, validated by the
  engine's :func:`~dungeon_guilds.effects.effect_from_dict`);
* :func:`describe_effect` / :func:`describe_lord` write the effects in plain words (en, zh),
  the text a lord card would print;
* :func:`replace_in_pool` puts a workshop lord in place of a printed one in a lord pool — the
  tight A/B design: every game draws the same lords, except that one;
* :func:`copy_of` gives a printed lord's effects under a new id (the builder's starting point).
"""

from __future__ import annotations

import re
from typing import Any, Iterable, Mapping, Sequence

from ..effects import (ALWAYS, EQUAL_STRENGTHS, Effect, HealModifier, LowestTotalBonus,
                       PlacementBan, RoomModifier, StartFlip, effect_from_dict, effect_to_dict)
from ..lords import ALL_LORDS, LORDS_BY_ID, Lord, LordError, get_lord, lord_pool
from .errors import Message, WorkshopEffectError, lord_error

EFFECT_KINDS = ("room", "heal", "ban", "flip", "bonus")
ROOM_POSITIONS = (1, 2, 3, 4, 5, 6, 7, -1, -2, -3)  # 1 = top (first) room, -1 = bottom (last)


def canonical_rooms(rooms: Iterable[int]) -> tuple[int, ...]:
    """Room positions in the order the printed lords write them: top positions ascending, then
    bottom positions from the farthest up (``(1, 2)``, ``(-2, -1)``); duplicates dropped."""
    rooms = set(int(r) for r in rooms)
    return tuple(sorted(r for r in rooms if r >= 0)) + tuple(sorted(r for r in rooms if r < 0))  # 0 kept: refused later


def slug(text: str) -> str:
    """An id from a name: lower case, letters/digits/underscores (``"Gentle Dragon"`` ->
    ``gentle_dragon``)."""
    s = re.sub(r"[^a-z0-9]+", "_", text.strip().lower()).strip("_")
    return s


def as_effect(effect: Effect | Mapping[str, Any], where: str = "effect", index: int | None = None) -> Effect:
    """An effect object from an effect or a dict (checked by the engine's vocabulary). An effect
    that does nothing raises :class:`~.errors.WorkshopEffectError`: code ``effect_invalid``
    (with ``index``, the effect's place in the lord from 0) or the problem's own code."""
    if isinstance(effect, (RoomModifier, HealModifier, PlacementBan, StartFlip, LowestTotalBonus)):
        effect = effect_to_dict(effect)
    effect = dict(effect)
    if effect.get("kind") == "room" and "rooms" in effect and isinstance(effect["rooms"], (list, tuple)):
        effect["rooms"] = list(canonical_rooms(effect["rooms"]))
    out = effect_from_dict(effect, where)
    problem = effect_problem(out)
    if problem:
        raise WorkshopEffectError(problem if index is None else
                                  Message.of("effect_invalid", index=index, reason=problem))
    return out


def effect_problem(effect: Effect) -> Message | None:
    """Why an effect, although well-formed, does nothing or contradicts itself (None if fine;
    ``str()`` of the :class:`~.errors.Message` is the English sentence)."""
    if isinstance(effect, RoomModifier):
        if effect.defence == 0 and effect.treasure == 0:
            return Message.of("room_effect_no_change")
    elif isinstance(effect, HealModifier):
        if not effect.strengths:
            return Message.of("heal_no_strengths")
        if effect.delta == 0:
            return Message.of("heal_zero")
    elif isinstance(effect, PlacementBan):
        if not effect.strengths:
            return Message.of("ban_no_strengths")
        if set(effect.strengths) == {1, 2, 3, 4, 5}:
            return Message.of("ban_every_strength")
    elif isinstance(effect, StartFlip):
        if not effect.exhaust and not effect.activate:
            return Message.of("flip_no_strengths")
        both = sorted(set(effect.exhaust) & set(effect.activate))
        if both:
            return Message.of("flip_both", strength=both[0])
    elif isinstance(effect, LowestTotalBonus):
        if effect.amount == 0:
            return Message.of("bonus_zero")
    return None


def make_lord(lord_id: str, name_en: str, effects: Sequence[Effect | Mapping[str, Any]],
              name_zh: str = "", text_en: str = "", text_zh: str = "") -> Lord:
    """A workshop lord. ``lord_id``: letters, digits and ``_``, not a printed lord's id (the
    tables and records name lords by id). Texts default to :func:`describe_lord`'s words."""
    lord_id = (lord_id or "").strip()
    if not lord_id:
        raise lord_error("lord_id_empty")
    if not re.fullmatch(r"[a-z0-9_]+", lord_id):
        raise lord_error("lord_id_characters", id=lord_id)
    if lord_id in LORDS_BY_ID:
        raise lord_error("lord_id_printed", id=lord_id)
    if not (name_en or "").strip():
        raise lord_error("lord_name_empty")
    if not effects:
        raise lord_error("lord_no_effects")
    built = tuple(as_effect(e, f"effects[{i}]", i) for i, e in enumerate(effects))
    return Lord(lord_id, name_en.strip(), (name_zh or name_en).strip(),
                text_en.strip() or describe_effects(built, "en"),
                text_zh.strip() or describe_effects(built, "zh"), built)


def copy_of(lord: Lord | str, new_id: str | None = None) -> Lord:
    """A printed lord's effects as a workshop lord (``my_<id>`` unless ``new_id``)."""
    lord = get_lord(lord) if isinstance(lord, str) else lord
    return Lord(new_id or f"my_{lord.id}", f"{lord.name_en} (copy)", f"{lord.name_zh}（複製）",
                lord.text_en, lord.text_zh, lord.effects)


def replace_in_pool(pool: Sequence[Lord | str] | str, old: str, new: Lord) -> tuple[Lord, ...]:
    """``pool`` (lords, ids, or a ``rules.lords`` option such as ``"base"``) with the lord
    ``old`` replaced by ``new`` in the same position (common random numbers: every game draws
    the same lords as before, except ``new`` where ``old`` was)."""
    lords = list(lord_pool(pool)) if isinstance(pool, str) else [
        get_lord(x) if isinstance(x, str) else x for x in pool]
    ids = [lord.id for lord in lords]
    if old not in ids:
        raise LordError(f"{old!r} is not in the pool ({', '.join(ids)})")
    lords[ids.index(old)] = new
    return tuple(lords)


# ---------------------------------------------------------------------- plain words
_POS_EN = {1: "the first room", 2: "the second room", 3: "the third room", -1: "the last room",
           -2: "the second-to-last room", -3: "the third-to-last room"}
_POS_ZH = {1: "第一個房間", 2: "第二個房間", 3: "第三個房間", -1: "最後一個房間", -2: "倒數第二個房間",
           -3: "倒數第三個房間"}


def _rooms_words(rooms: tuple[int, ...], lang: str) -> str:
    if not rooms:
        return "每個房間" if lang == "zh" else "every room"
    if lang == "zh":
        if rooms == (1, 2):
            return "前兩個房間"
        if rooms == (-2, -1):
            return "最後兩個房間"
        return "、".join(_POS_ZH.get(r, f"第 {r} 個房間" if r > 0 else f"倒數第 {-r} 個房間") for r in rooms)
    if rooms == (1, 2):
        return "the first two rooms"
    if rooms == (-2, -1):
        return "the last two rooms"
    words = [_POS_EN.get(r, f"room {r} from the top" if r > 0 else f"room {-r} from the bottom") for r in rooms]
    return " and ".join(words)


def _signed(n: int, money: bool) -> str:
    sign = "+" if n > 0 else "−"
    return f"{sign}${abs(n)}" if money else f"{sign}{abs(n)}"


def _strengths(values: Sequence[int]) -> str:
    values = sorted(values)
    if len(values) > 2 and values == list(range(values[0], values[-1] + 1)):
        return f"{values[0]}–{values[-1]}"
    return " and ".join(str(v) for v in values) if len(values) <= 2 else ", ".join(map(str, values))


def describe_effect(effect: Effect, lang: str = "en") -> str:
    """One effect in plain words (the style of the printed cards, §7)."""
    zh = lang == "zh"
    if isinstance(effect, RoomModifier):
        parts = []
        if effect.defence:
            parts.append(("難度 " if zh else "defence ") + _signed(effect.defence, False))
        if effect.treasure:
            parts.append(("獎勵 " if zh else "treasure ") + _signed(effect.treasure, True))
        change = (" ".join(parts)) if zh else " and ".join(parts)
        if effect.when == EQUAL_STRENGTHS:
            where = _rooms_words(effect.rooms, lang)
            if zh:
                return f"{where}中若兩名冒險者力量相同，則{change}"
            return f"{'A room' if not effect.rooms else where[0].upper() + where[1:]} whose two adventurers are equally strong: {change}"
        where = _rooms_words(effect.rooms, lang)
        if zh:
            return f"這座地城的{where}{change}"
        return f"{where[0].upper() + where[1:]}: {change}"
    if isinstance(effect, HealModifier):
        s = _strengths(effect.strengths)
        if zh:
            return f"力量 {s} 的冒險者治療費用 {_signed(effect.delta, True)}"
        return f"Strength {s} adventurers' heal cost {_signed(effect.delta, True)}"
    if isinstance(effect, PlacementBan):
        s = _strengths(effect.strengths)
        return f"玩家不能放置力量 {s} 的冒險者" if zh else f"Players cannot place strength-{s} adventurers"
    if isinstance(effect, StartFlip):
        if zh:
            parts = []
            if effect.exhaust:
                parts.append(f"將所有力量 {_strengths(effect.exhaust)} 的冒險者翻成消耗狀態")
            if effect.activate:
                parts.append(f"將所有力量 {_strengths(effect.activate)} 的冒險者翻成啟動狀態")
            return "在開始階段時，" + "，並".join(parts)
        parts = []
        if effect.exhaust:
            parts.append(f"all strength {_strengths(effect.exhaust)} adventurers become exhausted")
        if effect.activate:
            parts.append(f"all strength {_strengths(effect.activate)} adventurers become active")
        return "In the start phase " + ", ".join(parts)
    if isinstance(effect, LowestTotalBonus):
        gain = effect.amount >= 0
        if zh:
            verb = "獲得" if gain else "失去"
            return f"這回合打出的兩張冒險者力量值合計最低的玩家，在結算階段開始時{verb} ${abs(effect.amount)}"
        return (f"The player whose placed adventurers have the lowest total strength "
                f"{'gains' if gain else 'loses'} ${abs(effect.amount)} as resolution starts")
    return str(effect)


def describe_effects(effects: Sequence[Effect], lang: str = "en") -> str:
    sep = "；" if lang == "zh" else "; "
    end = "" if lang == "zh" else "."
    return sep.join(describe_effect(e, lang) for e in effects) + (end if effects else "")


def describe_lord(lord: Lord, lang: str = "en") -> str:
    return describe_effects(lord.effects, lang)


def printed_lords() -> tuple[Lord, ...]:
    """The 11 printed lords (the builder's examples)."""
    return ALL_LORDS


__all__ = ["EFFECT_KINDS", "ROOM_POSITIONS", "as_effect", "canonical_rooms", "copy_of", "describe_effect",
           "describe_effects", "describe_lord", "effect_problem", "make_lord", "printed_lords",
           "replace_in_pool", "slug", "ALWAYS", "EQUAL_STRENGTHS"]
