"""The workshop's words: the ``[workshop]`` section of ``dungeon_guilds/strings/<lang>.toml``."""

from __future__ import annotations

from typing import Any

from .. import i18n


def wt(key: str, lang: str | None = "en", **values: Any) -> str:
    """The workshop string ``key`` in ``lang`` (English if missing), formatted with ``values``."""
    return i18n.t(f"workshop.{key}", lang, **values)


__all__ = ["wt"]
