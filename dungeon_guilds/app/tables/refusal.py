"""A table's refusal as a value: a ``code`` and ``params``, worded from ``strings/<lang>/tables.toml``."""

from __future__ import annotations

from typing import Any

from ... import i18n


class TableRefusal(ValueError):
    """Something a table will not do (full, no such table, not your seat, stale message…)."""

    def __init__(self, code: str, **params: Any):
        super().__init__(code)
        self.code, self.params = code, params

    def text(self, lang: str) -> str:
        return i18n.t(f"tables.refusal.{self.code}", lang, **self.params)

    def __str__(self) -> str:
        return self.text("en")


def refusal_words(err: Any, lang: str) -> str:
    """Any refusal (a table's, the engine's, bad move text) in ``lang``."""
    if isinstance(err, TableRefusal):
        return err.text(lang)
    return i18n.refusal_text(err, lang)
