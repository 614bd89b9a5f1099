"""One place per event kind (issue 39, item 5): ``events.KINDS`` names each kind's fields, rule
and words; ``State._ev`` writes exactly those fields; every language has the words of every kind
in its own strings table (English is not filled in for a missing 繁體中文 one here), with the same
placeholders; and no word of ``[event]`` is left without its kind.
"""

from __future__ import annotations

import ast
import random
import re
from pathlib import Path

import pytest

from dungeon_guilds import Game, i18n
from dungeon_guilds.events import KINDS
from dungeon_guilds.rules import Rules

STATE = Path(i18n.__file__).with_name("state.py")
PLACEHOLDER = re.compile(r"\{(\w+)\}")


def logged_fields() -> dict[str, set[str]]:
    """{kind: the fields its ``self._ev("kind", ...)`` calls in state.py write}."""
    out: dict[str, set[str]] = {}
    for node in ast.walk(ast.parse(STATE.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "_ev":
            kind = node.args[0].value
            out.setdefault(kind, set()).update(k.arg for k in node.keywords)
    return out


def own_words(lang: str) -> dict[str, str]:
    """The ``event.*`` keys of ``lang``'s own files (without the English fallback)."""
    return {k: v for k, v in i18n._flatten(i18n._table(lang)).items() if k.startswith("event.")}


def missing_words(words: dict[str, str], kinds=KINDS) -> list[str]:
    return [f"event.{key}" for kind in kinds.values() for key in kind.keys if f"event.{key}" not in words]


def test_every_kind_the_engine_writes_is_a_row_with_its_fields():
    written = logged_fields()
    assert sorted(written) == sorted(KINDS), "a kind state.py writes has no KINDS row (or a row no kind)"
    for kind, fields in written.items():
        assert fields == set(KINDS[kind].fields), kind
        assert re.fullmatch(r"R\d+\.\d+(, R\d+\.\d+)*", KINDS[kind].rule), kind


@pytest.mark.parametrize("lang", sorted(i18n.languages()))
def test_every_kind_has_its_words_in_every_language(lang):
    words = own_words(lang)
    assert not missing_words(words), f"{lang}: no words for {missing_words(words)}"
    english = own_words("en")
    for key, text in words.items():
        assert set(PLACEHOLDER.findall(text)) == set(PLACEHOLDER.findall(english[key])), (lang, key)
    known = {f"event.{key}" for kind in KINDS.values() for key in kind.keys}
    assert set(words) <= known, f"{lang}: words of no kind: {sorted(set(words) - known)}"


def test_a_kind_without_words_is_found():
    words = own_words("zh")
    del words["event.npc_left"]
    assert missing_words(words) == ["event.npc_left"]


def test_logged_events_carry_their_kinds_fields_and_are_said():
    seen = set()
    for seed, rules in enumerate([Rules(lords="all", npc=True), Rules(lords="none"), Rules(lords="all")]):
        g = Game(4, seed=seed + 3, rules=rules)
        rng = random.Random(seed)
        while not g.is_over:
            g.push(rng.choice(g.legal_actions()))
        for ev in g.log:
            kind = KINDS[ev["kind"]]
            assert set(ev) - {"kind", "round"} == set(kind.fields), ev
            for lang in ("en", "zh"):
                text = i18n.event_text(ev, g.names, lang)
                assert text and "{" not in text and not text.startswith("event."), (ev, text)
            seen.add(ev["kind"])
    assert {"setup", "dealt", "exhausted", "placed", "bumped", "cleared", "failed", "healed", "game_over"} <= seen
