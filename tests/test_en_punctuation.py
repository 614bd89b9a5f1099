"""English screens use English punctuation (issue 40: "？ Too close to tell." carried the
Chinese full-width question mark). Every English string of the app (``strings/en.toml``,
``strings/en/*.toml``), the challenges' English words and the English lesson plans are checked."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from tests.ui_strings import language_strings

PKG = Path(__file__).resolve().parents[1] / "dungeon_guilds"
# a full-width mark not after Chinese words (a lesson's "繁體中文：[中文版]" link is Chinese)
FULL_WIDTH = re.compile(r"(?<![\u4e00-\u9fff\u3000-\u303f\uff08-\uff1f])[？，。：；（）！、「」]")


def en_texts():
    yield from language_strings("en")
    challenges = tomllib.loads((PKG / "workshop" / "data" / "challenges.toml").read_text("utf-8"))
    for ch in challenges["challenge"]:
        for key, value in ch.items():
            if isinstance(value, str) and not key.endswith("_zh"):
                yield f"workshop/data/challenges.toml:{ch['id']}.{key}", value
    for path in sorted((PKG / "teaching" / "lessons").glob("*.md")):
        if not path.name.endswith(".zh.md"):
            for n, line in enumerate(path.read_text("utf-8").splitlines(), 1):
                yield f"{path.relative_to(PKG)}:{n}", line


def test_the_check_sees_a_full_width_mark():
    assert FULL_WIDTH.search("？ Too close to tell.") and FULL_WIDTH.search("Seat 1（Ann）")
    assert not FULL_WIDTH.search("? Too close to tell.") and not FULL_WIDTH.search("繁體中文：[中文版]")


def test_no_full_width_punctuation_in_english_text():
    texts = list(en_texts())
    assert len(texts) > 500  # the files were read
    found = [(where, text) for where, text in texts if FULL_WIDTH.search(text)]
    assert not found, found[:5]
