"""The workshop's words: the ``[workshop]`` section of ``dungeon_guilds/strings/<lang>.toml``,
and its messages (the lord builder's and deck editor's English sentences) in other languages."""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from .. import i18n


def wt(key: str, lang: str | None = "en", **values: Any) -> str:
    """The workshop string ``key`` in ``lang`` (English if missing), formatted with ``values``."""
    return i18n.t(f"workshop.{key}", lang, **values)


@lru_cache(maxsize=None)
def _messages(lang: str) -> tuple[tuple[re.Pattern[str], str], ...]:
    return tuple((re.compile(m["pattern"]), m["text"]) for m in i18n._table(lang).get("workshop_message", ()))


def message(text: str, lang: str | None = None) -> str:
    """A workshop message (an English sentence of :mod:`workshop.lord_edit` or
    :mod:`workshop.deck_edit`, which carry no code yet) in ``lang``: the language's
    ``[[workshop_message]]`` entries match the whole sentence (``pattern``) and word it
    (``text``; a group named ``reason`` is translated again). Unmatched: the English sentence."""
    lang = lang or i18n.get_language()
    if lang == i18n.FALLBACK:
        return text
    for pattern, template in _messages(lang):
        m = pattern.fullmatch(text)
        if m:
            groups = m.groupdict()
            if "reason" in groups:
                groups["reason"] = message(groups["reason"], lang)
            return template.format(**groups)
    return text


def error_text(exc: BaseException, lang: str | None = None) -> str:
    """:func:`i18n.error_text` with a workshop message translated."""
    if isinstance(exc, ValueError) and not isinstance(exc, i18n.Refusal) and getattr(exc, "code", None) is None:
        return i18n.t("error.invalid", lang, message=message(str(exc), lang))
    return i18n.error_text(exc, lang)


__all__ = ["error_text", "message", "wt"]
