"""The Dungeon Lord cards (城主卡, R1.3, §7), written in the effect vocabulary of ``effects.py``.

Each lord has an id, its English and Chinese names from the Chinese rulebook, its effect text
and its effects as data. ``BASE_LORDS`` are the six lords in the box; ``PROMO_LORDS`` the five
promo cards (R7.4). A lord also counts a round: the game lasts as many rounds as lords drawn.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from .effects import (
    EQUAL_STRENGTHS,
    Effect,
    HealModifier,
    LowestTotalBonus,
    PlacementBan,
    RoomModifier,
    StartFlip,
    effect_from_dict,
    effect_to_dict,
    effects_rules,
)


@dataclass(frozen=True, slots=True)
class Lord:
    id: str
    name_en: str
    name_zh: str
    text_en: str
    text_zh: str
    effects: tuple[Effect, ...]
    promo: bool = False
    rule: str = ""  # the R-number of a ruling that applies to this lord, if any

    def name(self, lang: str = "en") -> str:
        return self.name_zh if lang == "zh" else self.name_en

    def text(self, lang: str = "en") -> str:
        return self.text_zh if lang == "zh" else self.text_en

    def rules(self) -> list[str]:
        """The rules this lord touches, from its effects (so a workshop lord gets them too),
        R7.4 for a promo lord and its own ruling (:func:`dungeon_guilds.effects.effects_rules`)."""
        return effects_rules(self.effects, self.promo, self.rule)

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id, "name_en": self.name_en, "name_zh": self.name_zh,
            "text_en": self.text_en, "text_zh": self.text_zh, "promo": self.promo,
            "effects": [effect_to_dict(e) for e in self.effects],
        }


class LordError(ValueError):
    """A lord id or lord description that cannot be used."""


def lord_from_dict(data: Mapping[str, Any], where: str = "lord") -> Lord:
    """A (custom) lord from a dict as written by :meth:`Lord.to_dict`."""
    if not isinstance(data, Mapping):
        raise LordError(f"{where}: expected a table with id, names and effects")
    for fld in ("id", "effects"):
        if fld not in data:
            raise LordError(f"{where}.{fld}: missing")
    effects = data["effects"]
    if not isinstance(effects, list):
        raise LordError(f"{where}.effects: expected a list of effects")
    lord_id = str(data["id"])
    return Lord(
        id=lord_id,
        name_en=str(data.get("name_en", lord_id)), name_zh=str(data.get("name_zh", lord_id)),
        text_en=str(data.get("text_en", "")), text_zh=str(data.get("text_zh", "")),
        effects=tuple(effect_from_dict(e, f"{where}.effects[{i}]") for i, e in enumerate(effects)),
        promo=bool(data.get("promo", False)),
    )


BASE_LORDS: tuple[Lord, ...] = (
    Lord("succubus", "The Succubus", "魅魔",
         "Players cannot place strength-1 adventurers.", "玩家不能放置力量 1 的冒險者",
         (PlacementBan((1,)),)),
    Lord("vampire_lord", "The Vampire Lord", "吸血鬼領主",
         "The first two rooms' treasure −$2.", "這座地城的前兩個房間獎勵 -$2",
         (RoomModifier(rooms=(1, 2), treasure=-2),), rule="R5.3"),
    Lord("beholder", "The Beholder", "眼魔",
         "The first room's treasure +$3.", "這座地城的第一個房間獎勵 +$3",
         (RoomModifier(rooms=(1,), treasure=3),)),
    Lord("lich_king", "The Lich King", "巫妖王",
         "The second room's defence +2 and treasure +$3.", "這座地城的第二個房間難度 +2 獎勵 +$3",
         (RoomModifier(rooms=(2,), defence=2, treasure=3),), rule="R7.1"),
    Lord("red_dragon", "The Red Dragon", "紅龍",
         "The last room's treasure +$10.", "這座地城的最後一個房間獎勵 +$10",
         (RoomModifier(rooms=(-1,), treasure=10),)),
    Lord("guardian", "The Guardian", "守護者",
         "Strength 4 and 5 adventurers' heal cost +$2.", "力量 4 與 5 的冒險者治療費用 +$2",
         (HealModifier((4, 5), 2),), rule="R2.4"),
)

PROMO_LORDS: tuple[Lord, ...] = (
    Lord("naughty_kid", "The Naughty Kid", "小屁孩",
         "A room whose two adventurers are equally strong: treasure +$3.",
         "若是同一個房間中的兩名冒險者力量相同，則房間獎勵 +$3",
         (RoomModifier(treasure=3, when=EQUAL_STRENGTHS),), promo=True),
    Lord("caveman", "The Caveman", "山頂洞人",
         "In the start phase all strength 1–2 adventurers become exhausted, all 3–5 active.",
         "在開始階段時，將所有力量 1、2 的冒險者翻成消耗狀態，並將所有力量 3、4、5 的冒險者翻成為啟動狀態",
         (StartFlip(exhaust=(1, 2), activate=(3, 4, 5)),), promo=True, rule="R7.2"),
    Lord("bigfun_king", "Bigfun King", "繽紛王",
         "The last room's defence −3 and treasure −$5.", "這座地城的最後一個房間難度 -3 獎勵 -$5",
         (RoomModifier(rooms=(-1,), defence=-3, treasure=-5),), promo=True, rule="R7.1"),
    Lord("hello_duck", "Hello Duck", "禮賀鴨",
         "The last two rooms' treasure +$4.", "這座地城的最後兩個房間獎勵 +$4",
         (RoomModifier(rooms=(-2, -1), treasure=4),), promo=True),
    Lord("boardgame_lord", "Boardgame Lord", "桌遊領主",
         "The player whose two placed adventurers have the lowest total strength gains $3 as "
         "resolution starts.",
         "這回合打出的兩張冒險者力量值合計最低的玩家，在結算階段開始時獲得 $3",
         (LowestTotalBonus(3),), promo=True, rule="R7.3"),
)

ALL_LORDS: tuple[Lord, ...] = BASE_LORDS + PROMO_LORDS
LORDS_BY_ID: dict[str, Lord] = {lord.id: lord for lord in ALL_LORDS}


def get_lord(lord_id: str) -> Lord:
    """The printed lord with this id; an unknown id is refused with the list of known ids."""
    try:
        return LORDS_BY_ID[lord_id]
    except KeyError:
        raise LordError(
            f"unknown lord id {lord_id!r} (known: {', '.join(LORDS_BY_ID)})"
        ) from None


def lord_pool(option: str) -> tuple[Lord, ...]:
    """The lords a game draws from under the ``lords`` option (R7.4): with ``none`` the base
    lords are still drawn, to count rounds, but their effects are off."""
    return ALL_LORDS if option == "all" else BASE_LORDS
