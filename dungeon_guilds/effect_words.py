"""The one describer of lord effects: an effect in words in a language, from what the effect
declares (:meth:`~dungeon_guilds.effects.RoomModifier.words`: a template key and plain params)
and the templates ``rulecard.num.*`` of ``strings/<lang>/rule_cards.toml``.

The Rules tab's lord cards (:func:`dungeon_guilds.rule_cards.lord_card`), the CLI's ``lords``
(:func:`dungeon_guilds.reference.lords_listing`) and the workshop's lord builder
(:func:`dungeon_guilds.workshop.lord_edit.describe_lord`) all word effects here.
"""

from __future__ import annotations

from typing import Any, Iterable, Sequence

from . import i18n
from .effects import EQUAL_STRENGTHS


def money(delta: int) -> str:
    """A change of gold with its sign: ``+$3``, ``−$2``."""
    return f"+${delta}" if delta >= 0 else f"−${-delta}"


def signed(delta: int) -> str:
    """A change with its sign: ``+2``, ``−3``."""
    return f"+{delta}" if delta >= 0 else f"−{-delta}"


def _t(key: str, lang: str | None, **values: Any) -> str:
    return i18n.t(f"rulecard.num.{key}", lang, **values)


def strengths_words(values: Iterable[int], lang: str | None = None) -> str:
    return i18n.join_list(values, lang)


def positions_words(rooms: Sequence[int], lang: str | None) -> str:
    """Room positions (1 the top room, -1 the last) in words; none: every room."""
    if not rooms:
        return _t("every_room", lang)
    words = []
    for pos in rooms:
        if pos > 0:
            words.append(_t("room_top", lang, n=pos))
        elif pos == -1:
            words.append(_t("room_last", lang))
        else:
            words.append(_t("room_bottom", lang, n=-pos))
    return _t("and", lang).join(words)


def _room_params(params: dict[str, Any], lang: str | None) -> dict[str, str]:
    parts = []
    if params["defence"]:
        parts.append(_t("defence", lang, delta=signed(params["defence"])))
    if params["treasure"]:
        parts.append(_t("treasure", lang, delta=money(params["treasure"])))
    rooms = positions_words(params["rooms"], lang)
    if params["when"] == EQUAL_STRENGTHS:
        rooms = _t("when_equal", lang, rooms=rooms)
    return {"rooms": rooms, "changes": _t("sep", lang).join(parts)}


# how each param an effect declares is worded: room positions, strengths, signed gold
_WORDED = {"strengths": strengths_words, "exhaust": strengths_words, "activate": strengths_words,
           "delta": lambda v, _lang: money(v), "amount": lambda v, _lang: str(v)}


def effect_words(effect, lang: str | None = None) -> str:
    """One lord effect as a sentence with its numbers."""
    key, params = effect.words()
    if key == "room":  # positions, a condition and the changes, composed
        return _t("room", lang, **_room_params(params, lang))
    return _t(key, lang, **{name: _WORDED[name](value, lang) for name, value in params.items()})


def effects_words(effects: Sequence, lang: str | None = None) -> str:
    """A lord's effects as one text (the text a workshop lord's card prints), starting with a
    capital letter (a no-op in Chinese)."""
    lang = lang or i18n.get_language()
    text = _t("effects_sep", lang).join(effect_words(e, lang) for e in effects)
    return _t("effects_end", lang, text=text[:1].upper() + text[1:]) if effects else ""


__all__ = ["effect_words", "effects_words", "money", "positions_words", "signed", "strengths_words"]
