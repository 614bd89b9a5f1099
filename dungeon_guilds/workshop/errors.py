"""The design workshop's errors as values (issue 17): a stable ``code`` and plain ``params``.

The lord builder (:mod:`.lord_edit`) and the deck editor (:mod:`.deck_edit`) name what is wrong
with a :class:`Message`; the words are templates in ``strings/<lang>/workshop_errors.toml``
(``[workshop_error]``), one per code of :data:`CODES`, filled with the params by
:func:`message_text`. The English template *is* the English sentence, so no language parses
English back. A param may itself be a :class:`Message` (an effect's problem inside
``effect_invalid``); it is worded in the same language. Derived value: ``number`` is ``index``
counted from 1 (people count effects from 1).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .. import i18n
from ..effects import EffectError
from ..lords import LordError

#: Workshop error code -> the params its templates use (a test checks both languages).
CODES: dict[str, tuple[str, ...]] = {
    # an effect that is well-formed but does nothing or contradicts itself (lord builder)
    "room_effect_no_change": (),
    "heal_no_strengths": (),
    "heal_zero": (),
    "ban_no_strengths": (),
    "ban_every_strength": (),
    "flip_no_strengths": (),
    "flip_both": ("strength",),
    "bonus_zero": (),
    "effect_invalid": ("index", "reason"),  # reason: a Message of one of the codes above
    # the lord itself
    "lord_id_empty": (),
    "lord_id_characters": ("id",),
    "lord_id_printed": ("id",),
    "lord_name_empty": (),
    "lord_no_effects": (),
    # one cell of the deck editor's tables
    "cell_not_whole": ("value",),
    "cell_empty": (),
    "cell_negative": ("value",),
    "cell_below_minimum": ("minimum", "value"),
    "count_below_one": ("value",),
    "outside_level_range": ("value", "level", "low", "high"),
    "deck_name_empty": (),
    "deck_no_rooms": (),
    "deck_too_small": ("cards",),
}

#: Values computed from the params for the templates (``name``: how).
DERIVED = {"number": "index + 1"}


@dataclass(frozen=True)
class Message:
    """A workshop problem as a value: ``code`` (a key of :data:`CODES`) and ``params``
    (plain values, or a nested :class:`Message`). ``str()`` is the English sentence."""

    code: str
    params: tuple[tuple[str, Any], ...] = field(default=())

    @classmethod
    def of(cls, code: str, **params: Any) -> "Message":
        if code not in CODES:
            raise ValueError(f"unknown workshop error code {code!r} (see workshop.errors.CODES)")
        return cls(code, tuple(sorted(params.items())))

    def text(self, lang: str | None = None) -> str:
        return message_text(self.code, dict(self.params), lang)

    def __str__(self) -> str:
        return self.text(i18n.FALLBACK)


def message_text(code: str, params: dict[str, Any], lang: str | None = None) -> str:
    """The ``workshop_error.<code>`` template of ``lang`` filled with ``params`` (nested
    messages worded in ``lang`` too; ``number`` = ``index`` + 1)."""
    lang = lang or i18n.get_language()
    values = {k: (v.text(lang) if isinstance(v, Message) else v) for k, v in params.items()}
    if isinstance(values.get("index"), int):
        values["number"] = values["index"] + 1
    template = i18n.strings(lang).get(f"workshop_error.{code}")
    if template is None:
        raise KeyError(f"no text for workshop error {code!r} in strings/{i18n.FALLBACK}/workshop_errors.toml")
    return str(template).format(**values)


class WorkshopError(ValueError):
    """A workshop error with a :class:`Message`; ``str()`` is its English sentence, and
    ``code`` / ``params`` / :meth:`text` give it in any language."""

    def __init__(self, message: Message):
        super().__init__(str(message))
        self.message = message

    @property
    def code(self) -> str:
        return self.message.code

    @property
    def params(self) -> dict[str, Any]:
        return dict(self.message.params)

    def text(self, lang: str | None = None) -> str:
        return self.message.text(lang)

    def __reduce__(self):  # pickle (process pools) keeps the message
        return (type(self), (self.message,))


class WorkshopLordError(WorkshopError, LordError):
    """A workshop lord that cannot be made (a :class:`~dungeon_guilds.lords.LordError`)."""


class WorkshopEffectError(WorkshopError, EffectError):
    """A workshop effect that does nothing or contradicts itself (an
    :class:`~dungeon_guilds.effects.EffectError`)."""


def lord_error(code: str, **params: Any) -> WorkshopLordError:
    return WorkshopLordError(Message.of(code, **params))


__all__ = ["CODES", "DERIVED", "Message", "WorkshopEffectError", "WorkshopError", "WorkshopLordError",
           "lord_error", "message_text"]
