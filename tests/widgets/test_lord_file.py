"""A lord built in the workshop is a file a student downloads and loads again (issue 26, item 1):
the lord builder offers ``lord_<id>.json`` when the lord is added to the workshop, and loads such
a file back (a bad file names the wrong field and changes nothing). The same file opens a class
table (tests/tables/test_tables_logic.py)."""

from __future__ import annotations

import base64
import json
import re

import pytest

from dungeon_guilds.lords import LordError
from dungeon_guilds.widgets.lord_builder import LordBuilder


def downloaded(html: str) -> str:
    return base64.b64decode(re.search(r"base64,([^\"]+)", html).group(1)).decode("utf-8")


def test_download_then_load_gives_the_same_lord():
    b = LordBuilder()
    b.example_dropdown.value = "red_dragon"
    b.effect_rows[0].treasure_input.value = 6
    b.id_text.value = "gentle_dragon"
    lord = b.save()
    assert 'download="lord_gentle_dragon.json"' in b.lord_file_html.value
    text = downloaded(b.lord_file_html.value)
    again = LordBuilder(lang="zh")
    assert again.load_file(text) == lord and again.lord == lord
    assert "gentle_dragon" in again.message_text and "城主" in again.message_text


def test_a_bad_lord_file_is_refused_by_field():
    b = LordBuilder()
    before = b.lord
    with pytest.raises(LordError, match="effects"):
        b.load_file(json.dumps({"id": "x"}))
    with pytest.raises(LordError, match="not JSON"):
        b.load_file("{")
    assert b.lord == before
