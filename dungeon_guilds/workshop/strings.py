"""The workshop's words: the ``[workshop]`` section of ``dungeon_guilds/strings/<lang>.toml``,
and its errors in any language (coded values, :mod:`.errors`; templates in
``strings/<lang>/workshop_errors.toml``)."""

from __future__ import annotations

from typing import Any

from .. import i18n
from .errors import WorkshopError


def wt(key: str, lang: str | None = "en", **values: Any) -> str:
    """The workshop string ``key`` in ``lang`` (English if missing), formatted with ``values``."""
    return i18n.t(f"workshop.{key}", lang, **values)


def error_text(exc: BaseException, lang: str | None = None) -> str:
    """:func:`i18n.error_text`, with a workshop error worded from its code in ``lang``."""
    if isinstance(exc, WorkshopError):
        return i18n.t("error.invalid", lang, message=exc.text(lang))
    return i18n.error_text(exc, lang)


__all__ = ["error_text", "wt"]
