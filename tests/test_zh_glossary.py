"""繁體中文 uses one term per concept on every screen (issue 24, item 10).

The glossary (``dungeon_guilds/strings/glossary/zh.toml``) names each concept's term and the
variants to avoid (推廣/特典, 桌遊領主/桌遊城主, 蛇形/U 字型, 標記/指示物, 零頭/餘數,
通過/攻略成功/攻克, 整理/清除階段, 替換/推擠, 效果/效應, 治療費用/治療費 were all in use; issue 40
added 回合 for a round only (輪到 a turn), 消耗 not 疲憊/休息, 替換自己 not 交換, 被替換的玩家 not 原主).
Every Chinese string of the app (``strings/zh.toml``, ``strings/zh/*.toml``), every
Chinese literal in the package's code, the Chinese lesson plans (``teaching/lessons/*.zh.md``)
and the design challenges' Chinese words (``workshop/data/challenges.toml``) are checked; quotations of the printed rulebooks
(``siblings/data``) keep their own words."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

from tests.ui_strings import language_strings

PKG = Path(__file__).resolve().parents[1] / "dungeon_guilds"
GLOSSARY = tomllib.loads((PKG / "strings" / "glossary" / "zh.toml").read_text("utf-8"))


def zh_texts():
    """(where, text) of every Chinese string the app shows."""
    yield from language_strings("zh")
    # issue 40: the lesson plans the teacher panel prints and the challenges' own words
    for path in sorted((PKG / "teaching" / "lessons").glob("*.zh.md")):
        for n, line in enumerate(path.read_text("utf-8").splitlines(), 1):
            yield f"{path.relative_to(PKG)}:{n}", line
    challenges = tomllib.loads((PKG / "workshop" / "data" / "challenges.toml").read_text("utf-8"))
    for ch in challenges["challenge"]:
        for key, value in ch.items():
            if key.endswith("_zh"):
                yield f"workshop/data/challenges.toml:{ch['id']}.{key}", value
    for path in sorted(PKG.rglob("*.py")):
        for n, line in enumerate(path.read_text("utf-8").splitlines(), 1):
            if re.search(r"[\u4e00-\u9fff]", line) and "cite(" not in line:  # cite(...): a quotation
                yield f"{path.relative_to(PKG)}:{n}", line


def variants(text: str) -> list[tuple[str, str, str]]:
    return [(concept, entry["term"], m.group()) for concept, entry in GLOSSARY.items()
            for pattern in entry["avoid"] for m in re.finditer(pattern, text)]


def test_the_check_rejects_each_variant_the_issue_found():
    for text in ("推廣城主", "桌遊城主", "蛇形順序", "起始玩家標記", "零頭", "通過：5 ≥ 3", "攻克率",
                 "4 · 整理", "推擠", "城主效應", "付治療費 $2"):
        assert variants(text), text
    assert not variants("請重新整理頁面；治療費用 $2")


def test_the_check_rejects_what_fresh_readers_found():
    """Issue 40, item 8b: 回合 for a turn, 疲憊/休息 for exhausted, 原主 (read as 城主) for the
    replaced player, the Lab's undefined 交換, 清理 for the cleanup phase."""
    found = {text: {c for c, _, _ in variants(text)} for text in (
        "每個回合一個動作", "每回合一個行動（R4.2）", "回合順序", "每輪之間畫面會蓋住圖板", "第 2 輪",
        "你讓 4 和 5 疲憊", "下回合休息", "銀行 $1＋原主 $1", "替換與交換的費用", "清理後",
        "3–5 可用。", "公平份額 25 %")}
    assert found == {"每個回合一個動作": {"turn"}, "每回合一個行動（R4.2）": {"turn"}, "回合順序": {"turn"},
                     "每輪之間畫面會蓋住圖板": {"round"}, "第 2 輪": {"round"}, "你讓 4 和 5 疲憊": {"exhausted"},
                     "下回合休息": {"exhausted"}, "銀行 $1＋原主 $1": {"replaced_player"},
                     "替換與交換的費用": {"swap"}, "清理後": {"cleanup"}, "3–5 可用。": {"active"},
                     "公平份額 25 %": {"fair_share"}}
    assert not variants("第 2 回合；輪到 Ann；每次輪到做一個行動；兩輪；輪流；消耗 4 和 5；銀行 $1＋被替換的玩家 $1")
    assert not variants("牌組已可用於 A/B 實驗；可用更強的冒險者替換")


@pytest.mark.parametrize("concept", sorted(GLOSSARY))
def test_one_term_per_concept_in_every_chinese_string(concept):
    entry = GLOSSARY[concept]
    texts = list(zh_texts())
    found = [(where, m.group()) for where, text in texts for pattern in entry["avoid"]
             for m in re.finditer(pattern, text)]
    assert not found, f"{entry['concept']}: use {entry['term']!r}, not {found[:5]}"
    assert any(entry["term"] in text for _, text in texts), f"the glossary's {entry['term']!r} is used nowhere"


def test_no_emoji_glyph_the_chinese_fonts_lack():
    """The lock drawn as 🔒 came out as a missing-glyph box beside 已鎖定 ("5 □已鎖定")."""
    found = [str(p.relative_to(PKG)) for p in PKG.rglob("*.py") if "🔒" in p.read_text("utf-8").replace(
        "not a font glyph: 🔒", "").replace("a word: 🔒", "")]
    assert not found, found
