"""One effect vocabulary (issue 25, item 2): every effect class declares, once, what it does to
the round's numbers, the rules it touches, its words (a template key and params) and why it
would do nothing; one describer words effects for the Rules tab, ``lords --json`` and the lord
builder, and they agree for the 11 printed lords and for random built lords."""

from __future__ import annotations

import ast
import json
import random
from pathlib import Path

import pytest

import dungeon_guilds
from dungeon_guilds import i18n
from dungeon_guilds.cli import main
from dungeon_guilds.effect_words import effect_words, effects_words
from dungeon_guilds.effects import EFFECT_TYPES, EffectError, effect_from_dict
from dungeon_guilds.lords import ALL_LORDS
from dungeon_guilds.reference import lords_listing
from dungeon_guilds.rule_cards import lord_card

PKG = Path(dungeon_guilds.__file__).parent
DECLARED = ("kind", "add_numbers", "rules", "words", "problem")
SAMPLES = [  # one of each class, and each template variant
    {"kind": "room", "rooms": [1, -1], "defence": -2, "treasure": 3},
    {"kind": "room", "rooms": [], "treasure": 2, "when": "equal_strengths"},
    {"kind": "heal", "strengths": [4, 5], "delta": -1},
    {"kind": "ban", "strengths": [2]},
    {"kind": "flip", "exhaust": [1], "activate": [5]},
    {"kind": "flip", "exhaust": [1, 2], "activate": []},
    {"kind": "flip", "exhaust": [], "activate": [3]},
    {"kind": "bonus", "amount": 2},
]


def test_every_effect_class_declares_its_numbers_rules_words_and_problem():
    for cls in EFFECT_TYPES:
        missing = [name for name in DECLARED if name not in vars(cls)]
        assert not missing, f"{cls.__name__} does not declare {missing}"
    assert {effect_from_dict(d).kind for d in SAMPLES} == {cls.kind for cls in EFFECT_TYPES}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_effect_has_its_words_in_both_languages(lang):
    for data in SAMPLES:
        effect = effect_from_dict(data)
        key, params = effect.words()
        assert i18n.has(f"rulecard.num.{key}", lang), (key, lang)
        words = effect_words(effect, lang)
        assert "{" not in words and all(str(abs(v)) in words for v in params.values() if isinstance(v, int) and v)
        assert all(r.startswith("R") for r in effect.rules())


def test_no_isinstance_chain_over_the_effect_classes_outside_effects_py():
    names = {cls.__name__ for cls in EFFECT_TYPES}
    found = []
    for path in sorted(PKG.rglob("*.py")):
        if path.name == "effects.py":
            continue
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "isinstance" and len(node.args) == 2:
                used = {n.id for n in ast.walk(node.args[1]) if isinstance(n, ast.Name)} & names
                if used:
                    found.append((path.relative_to(PKG).as_posix(), sorted(used)))
    # the engine's start phase asks one question of its own (R7.2); no chain anywhere
    assert found == [("state.py", ["StartFlip"])], found


def random_lords(n: int, seed: int = 25):
    from dungeon_guilds.workshop.lord_edit import make_lord

    rng = random.Random(seed)
    out = []
    while len(out) < n:
        effects = []
        for _ in range(rng.randint(1, 3)):
            kind = rng.choice(["room", "heal", "ban", "flip", "bonus"])
            picks = sorted(rng.sample(range(1, 6), rng.randint(0, 3)))
            effects.append({
                "room": {"kind": "room", "rooms": sorted(rng.sample([1, 2, 3, -1, -2], rng.randint(0, 2))),
                         "defence": rng.randint(-3, 3), "treasure": rng.randint(-4, 4),
                         "when": rng.choice(["always", "equal_strengths"])},
                "heal": {"kind": "heal", "strengths": picks, "delta": rng.randint(-2, 2)},
                "ban": {"kind": "ban", "strengths": picks},
                "flip": {"kind": "flip", "exhaust": picks[:1], "activate": picks[1:]},
                "bonus": {"kind": "bonus", "amount": rng.randint(0, 4)},
            }[kind])
        try:
            out.append(make_lord(f"built_{len(out)}", f"Built {len(out)}", effects))
        except (EffectError, ValueError):
            continue  # an effect that does nothing is refused: draw again
    return out


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_lords_json_the_rules_tab_and_the_lord_builder_agree(lang, capsys):
    pytest.importorskip("ipywidgets")
    from dungeon_guilds.widgets.lord_builder import LordBuilder
    from dungeon_guilds.workshop.session import WorkshopSession

    assert main(["lords", "--json", "--lang", lang]) == 0
    printed = {x["id"]: x for x in json.loads(capsys.readouterr().out)["lords"]}
    assert set(printed) == {lord.id for lord in ALL_LORDS} and len(printed) == 11
    built = random_lords(12)
    listing = {x["id"]: x for x in lords_listing(lang, built)} | printed
    session = WorkshopSession(lords=built)
    builder = LordBuilder(session=session, auto_preview=False, lang=lang)
    for lord in (*ALL_LORDS, *built):
        card = lord_card(lord, lang)
        entry = listing[lord.id]
        assert entry["numbers"] == list(card.numbers), lord.id
        assert entry["rules"] == [rule for rule, _ in card.rulings] == lord.rules(), lord.id
        builder.load(lord)
        assert builder.lord.effects == lord.effects, lord.id
        assert effects_words(lord.effects, lang) in builder.card_html.value.replace("&#x27;", "'"), lord.id
        assert card.numbers and all(words in effects_words(lord.effects, lang)
                                    for words in (w[:1].upper() + w[1:] if i == 0 else w
                                                  for i, w in enumerate(card.numbers))), lord.id
