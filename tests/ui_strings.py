"""The app's strings files walked key by key, for the tests that read every string of a language
(tests/test_zh_glossary.py: one Chinese term per concept; tests/test_en_punctuation.py: English
punctuation in English)."""

from __future__ import annotations

import tomllib
from pathlib import Path

PKG = Path(__file__).resolve().parents[1] / "dungeon_guilds"


def strings(table: dict, where: str = ""):
    """(dotted key, text) of every string of a parsed TOML table, nested tables included."""
    for key, value in table.items():
        if isinstance(value, dict):
            yield from strings(value, f"{where}{key}.")
        elif isinstance(value, str):
            yield f"{where}{key}", value


def language_strings(lang: str):
    """(file:key, text) of ``strings/<lang>.toml`` and ``strings/<lang>/*.toml``."""
    for path in [PKG / "strings" / f"{lang}.toml", *sorted((PKG / "strings" / lang).glob("*.toml"))]:
        for key, value in strings(tomllib.loads(path.read_text("utf-8"))):
            yield f"{path.relative_to(PKG)}:{key}", value
