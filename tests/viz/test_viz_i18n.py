"""The string tables: every key the code uses exists, languages mirror English, lord names come
from the cards, and every engine refusal has a Chinese translation."""

from __future__ import annotations

import random
import re
import string
from pathlib import Path

import pytest

from dungeon_guilds import Game, Rules, i18n
from dungeon_guilds.actions import BUMP, EXHAUST, PLACE, SWAP, Action
from dungeon_guilds.errors import IllegalAction
from dungeon_guilds.rules import RulesError
from dungeon_guilds.lords import ALL_LORDS

PKG = Path(i18n.__file__).parent
SOURCES = [PKG / "drawing" / "display.py", PKG / "i18n.py", *sorted((PKG / "viz").glob("*.py")),
           *sorted((PKG / "widgets").glob("*.py")), *sorted((PKG / "workshop").glob("*.py"))]
KEY = re.compile(r"""(?:\bt|self\.t|i18n\.t|\btext)\(\s*f?["']([a-z_]+\.[a-z_0-9]+)["']""")
WORKSHOP_KEY = re.compile(r"""\bwt\(\s*["']([a-z_0-9-]+)["']""")


def fields(text: str) -> set[str]:
    return {f for _, f, _, _ in string.Formatter().parse(text) if f}


def test_every_literal_key_the_code_uses_exists_in_english():
    used = set()
    for path in SOURCES:
        source = path.read_text("utf-8")
        used |= set(KEY.findall(source))
        used |= {f"workshop.{k}" for k in WORKSHOP_KEY.findall(source)}
    assert used, "the scan found no keys"
    en = i18n.strings("en")
    missing = sorted(k for k in used if k not in en)
    assert not missing, missing


def test_languages_are_found_from_the_files_english_first():
    langs = i18n.languages()
    assert list(langs)[:2] == ["en", "zh"]
    assert langs["zh"] == "繁體中文"


def test_chinese_has_every_english_key_with_the_same_fields():
    en = i18n.strings("en")
    zh_raw = i18n._flatten(i18n._table("zh"))
    missing = sorted(set(en) - set(zh_raw))
    assert not missing, missing
    for key, text in en.items():
        assert fields(str(text)) == fields(str(zh_raw[key])), key


def test_lord_names_and_texts_come_from_the_cards_in_both_languages():
    for lord in ALL_LORDS:
        assert i18n.lord_name(lord, "en") == lord.name_en
        assert i18n.lord_name(lord.id, "zh") == lord.name_zh
        assert i18n.lord_text(lord, "zh") == lord.text_zh


def test_an_unknown_message_keeps_the_english_inside_the_chinese_frame():
    assert i18n.illegal_text("something new", "zh") == "不合法：something new"
    assert i18n.illegal_text("something new", "en") == "Not allowed: something new"


def _all_refusals() -> dict[str, IllegalAction]:
    """One refusal per code the engine gives for a spread of candidate moves in real games."""
    reasons: dict[str, IllegalAction] = {}
    candidates = ([Action(PLACE, s, r) for s in range(0, 7) for r in range(0, 9)]
                  + [Action(k, s, r, x) for k in (BUMP, SWAP) for s in range(1, 6) for r in range(1, 8) for x in (0, 1)]
                  + [Action(EXHAUST, a, other=b) for a in (0, 1, 3) for b in (1, 3, 6)])
    combos = [(3, Rules()), (4, Rules(lords="all", npc=True)), (5, Rules(edition="fr", npc=True)),
              (4, Rules(lords="all")), (3, Rules(lords="all", edition="fr"))]
    for seed in range(6):
        for n, rules in combos:
            g = Game(n, seed=seed, rules=rules)
            rng = random.Random(seed)
            while True:
                st = g.state
                for a in candidates[:: 1 + (len(g.log) % 3)]:
                    r = st.refusal(a)
                    if r:
                        reasons.setdefault(r.code, r)
                r = st.refusal(candidates[0], (st.current + 1) % n)
                if r:
                    reasons.setdefault(r.code, r)
                if g.is_over:
                    break
                # poor players meet the gold refusals: spend by bumping when possible
                legal = g.legal_actions()
                bumps = [a for a in legal if a.kind in (BUMP, SWAP)]
                g.push(rng.choice(bumps if bumps and rng.random() < 0.6 else legal))
    return reasons


def test_every_engine_refusal_met_in_play_is_worded_in_both_languages():
    reasons = _all_refusals()
    assert len(reasons) >= 12
    for code, err in reasons.items():
        en, zh = i18n.refusal_text(err, "en"), i18n.refusal_text(err, "zh")
        assert en == str(err) and zh != en and "{" not in zh, code


@pytest.mark.parametrize("err, expected", [
    (IllegalAction("lord_forbids", {"lord": "succubus", "strength": 1}), "魅魔：本回合不能派遣力量 1 的冒險者（R7.5）"),
    (IllegalAction("room_locked", {"room": 3}), "房間 3 已鎖定：其中的冒險者無法再被替換（R4.3）"),
    (IllegalAction("bump_fee", {"level": 2, "fee": 2, "gold": 1}), "替換 Lv2 房間的冒險者需要 $2，你只有 $1（R4.6）"),
    (IllegalAction("not_your_turn", {"player": 1, "name": "Bo"}), "現在輪到 Bo（R4.1）"),
])
def test_refusal_templates_fill_in_names_numbers_and_lords(err, expected):
    assert i18n.refusal_text(err, "zh") == expected


def test_error_text_frames_each_kind_of_error():
    assert i18n.error_text(IllegalAction("room_full", {"room": 2}), "zh") \
        == "不合法：房間 2 沒有空位：請改為替換冒險者（R4.3）"
    with pytest.raises(RulesError) as info:
        Rules().check_players(7)
    assert i18n.error_text(info.value, "zh") == "錯誤：地城聯盟是 3 至 6 人的遊戲，不是 7 人"
    assert i18n.error_text(ValueError("a plain message"), "zh") == "錯誤：a plain message"
    text = i18n.error_text(KeyError("x"), "en")
    assert text.startswith("Something went wrong (KeyError)") and "Traceback" not in text


def test_event_text_covers_every_event_kind_in_both_languages():
    g = Game(4, seed=5, rules=Rules(lords="all", npc=True))
    rng = random.Random(2)
    while not g.is_over:
        g.push(rng.choice(g.legal_actions()))
    kinds = set()
    for ev in g.log:
        for lang in ("en", "zh"):
            text = i18n.event_text(ev, g.names, lang)
            assert text and "{" not in text and not text.startswith("event."), (ev, text)
        kinds.add(ev["kind"])
    assert {"setup", "dealt", "exhausted", "placed", "cleared", "healed", "game_over"} <= kinds


def test_feature_string_files_merge_and_refuse_a_key_given_twice():
    """strings/<lang>/<feature>.toml files merge into the language's table; a key defined in
    two files is refused with the file's name (so two features cannot silently overwrite)."""
    from dungeon_guilds.i18n import _merge

    table = {"ui": {"a": "A"}}
    _merge(table, {"ui": {"b": "B"}, "new": {"c": "C"}}, "strings/en/x.toml")
    assert table == {"ui": {"a": "A", "b": "B"}, "new": {"c": "C"}}
    with pytest.raises(ValueError, match="strings/en/y.toml"):
        _merge(table, {"ui": {"a": "again"}}, "strings/en/y.toml")
