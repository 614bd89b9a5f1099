"""Composing lords from the effect vocabulary the engine uses for the printed lords (§7).

A workshop lord is a :class:`~dungeon_guilds.lords.Lord` like the printed ones: an id, names,
texts and a tuple of effects from :mod:`dungeon_guilds.effects` (``RoomModifier``,
``HealModifier``, ``PlacementBan``, ``StartFlip``, ``LowestTotalBonus``). The engine interprets
them; nothing here decides a rule.

* :func:`make_lord` builds and checks one (effects as objects or dicts, validated by the
  engine's :func:`~dungeon_guilds.effects.effect_from_dict`);
* :func:`describe_effect` / :func:`describe_lord` write the effects in plain words (en, zh)
  with the package's one describer (:mod:`dungeon_guilds.effect_words`), the text a workshop
  lord's card prints;
* :func:`replace_in_pool` puts a workshop lord in place of a printed one in a lord pool — the
  tight A/B design: every game draws the same lords, except that one;
* :func:`copy_of` gives a printed lord's effects under a new id (the builder's starting point).
"""

from __future__ import annotations

import re
from typing import Any, Iterable, Mapping, Sequence

from .. import i18n
from ..effect_words import effect_words, effects_words
from ..effects import ALWAYS, EFFECT_TYPES, EQUAL_STRENGTHS, Effect, effect_from_dict, effect_to_dict
from ..lords import ALL_LORDS, LORDS_BY_ID, Lord, LordError, get_lord, lord_pool
from ..rules import room_counts
from .errors import Message, WorkshopEffectError, lord_error

EFFECT_KINDS = tuple(cls.kind for cls in EFFECT_TYPES)  # room, heal, ban, flip, bonus
# 1 = top (first) room, -1 = bottom (last); no 7th room: a round has at most 6 (issue 40)
ROOM_POSITIONS = (*range(1, max(room_counts()) + 1), -1, -2, -3)


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
    if isinstance(effect, EFFECT_TYPES):
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
    ``str()`` of the :class:`~.errors.Message` is the English sentence). Each effect class
    declares its own (``problem``)."""
    problem = effect.problem()
    return None if problem is None else Message.of(problem[0], **problem[1])


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
    return Lord(new_id or f"my_{lord.id}", i18n.t("workshop_lord.copy_name", "en", name=lord.name_en),
                i18n.t("workshop_lord.copy_name", "zh", name=lord.name_zh), lord.text_en, lord.text_zh, lord.effects)


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
def describe_effect(effect: Effect, lang: str = "en") -> str:
    """One effect in plain words: the package's one describer
    (:func:`dungeon_guilds.effect_words.effect_words`, as the Rules tab's lord cards)."""
    return effect_words(effect, lang)


def describe_effects(effects: Sequence[Effect], lang: str = "en") -> str:
    return effects_words(effects, lang)


def describe_lord(lord: Lord, lang: str = "en") -> str:
    return describe_effects(lord.effects, lang)


def printed_lords() -> tuple[Lord, ...]:
    """The 11 printed lords (the builder's examples)."""
    return ALL_LORDS


__all__ = ["EFFECT_KINDS", "ROOM_POSITIONS", "as_effect", "canonical_rooms", "copy_of", "describe_effect",
           "describe_effects", "describe_lord", "effect_problem", "make_lord", "printed_lords",
           "replace_in_pool", "slug", "ALWAYS", "EQUAL_STRENGTHS"]
