"""Dungeon Fighter 地城鬥士 — the rule kernel for what the Dungeon Fighter overview specifies.

A cooperative party game (the Dungeon Fighter overview, line 5): the heroes walk through three map cards, fight a
monster in each room by *bouncing dice onto a target*, and win together only if the boss dies.
A round is *move, combat, settlement* (lines 89-147). Dexterity decides where a die lands, so
this kernel takes the landing zone as input; the dice faces are exact:

* coloured dice (3): 3 eye faces of 6 (line 11); white dice (9): 1 eye face of 6 (line 13);
* the target scores 1-6 and 10 in the bullseye (line 127). A hit with an eye on top triggers
  the thrower's skill; bullseye + eye kills a monster at once (line 127) but only takes 10 HP
  off a boss (line 151). Bones, holes and off-target are misses (line 129).

What this module gives you: :data:`COMPONENTS`, :data:`DIFFICULTY_POINTS`, :func:`throw`,
:class:`Hero` (knock-out, revival with damage tokens, out at 3), :data:`SHOP`,
:func:`final_score` with :func:`rating` (the ten tiers), and exact eye tables
(:func:`eye_distribution`, :func:`eye_table`).

Decisions where the Dungeon Fighter overview is silent or ambiguous (also in docs/siblings.md):

* The monster-card counts per difficulty were an image (line 75): not in the text, not here.
* Mission points (line 165) count only when the boss is defeated ("達成任務").
* Gold scores 1 point per *full* 2 gold (rounded down, line 171).
* A hero who took the 3rd damage token is out of the game (line 145) and counts as *dead* for
  scoring (line 177); every damage token ever taken costs 1 point (line 175), the dead hero's
  included. Everybody else counts as surviving (line 167).
* Tiers: "0分以下" is read as "0 or less" and "40分以上" as "more than 40", so a score of 40
  is "36~40" (the document's ranges overlap at 40, lines 197-199).
* Die colours: line 11 says red, yellow, blue; line 121 maps blue, green, red to the hero
  card's left, middle, right skills. The kernel keeps the document's words and only uses counts.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from math import comb

from . import Source, cite
from .base import KernelGame

# --------------------------------------------------------------------------------------------
# Facts
# --------------------------------------------------------------------------------------------

#: component -> (count, source)
COMPONENTS: dict[str, tuple[int, Source]] = {
    "target": (1, cite("fighter", 9, "標靶(1個)")),
    "coloured dice": (3, cite("fighter", 11, "有色骰(3個")),
    "white dice": (9, cite("fighter", 13, "白色骰(9個")),
    "gold coins": (30, cite("fighter", 15, "金幣(30枚)")),
    "hero pawns": (6, cite("fighter", 17, "英雄代表物(6個")),
    "monster pawn": (1, cite("fighter", 19, "怪物代表物(1個")),
    "hero cards": (9, cite("fighter", 21, "英雄卡(9張)")),
    "monster HP card": (1, cite("fighter", 23, "怪物血量卡(1張")),
    "dungeon map cards": (2, cite("fighter", 25, "地城地圖卡(2張")),
    "boss map cards": (4, cite("fighter", 27, "魔王地圖卡(4張")),
    "team marker": (1, cite("fighter", 29, "團隊指示物(1個")),
    "captain marker": (1, cite("fighter", 31, "隊長指示物(1個")),
    "chest marker": (1, cite("fighter", 33, "寶箱指示物(1個")),
    "special skill markers": (5, cite("fighter", 35, "特殊技能標記(5個")),
    "damage markers": (14, cite("fighter", 37, "傷害標記(14個")),
    "tower": (1, cite("fighter", 39, "塔樓板塊(1個)")),
    "floor tiles": (6, cite("fighter", 41, "樓層板塊(6個)")),
    "boss cards": (4, cite("fighter", 43, "魔王卡(4張)")),
    "equipment cards": (53, cite("fighter", 45, "裝備卡(53張")),
    "monster cards": (53, cite("fighter", 47, "怪物卡(53張")),
}

PLAYERS = (1, 6)
DIFFICULTY_POINTS = {"easy": 5, "normal": 10, "hard": 15}
TARGET_SCORES = (1, 2, 3, 4, 5, 6, 10)
BULLSEYE = 10
START_HP = 9  # hero pawns start on the IX circle (line 71)
REVIVE_HP_COST = 3  # a damage token covers 3 HP circles and 1 skill (line 145)
MAX_DAMAGE_TOKENS = 3  # the 3rd token puts the hero out of the game (line 145)
BOSS_BULLSEYE_EYE_DAMAGE = 10


@dataclass(frozen=True)
class Die:
    name: str
    faces: int
    eyes: int
    count: int
    source: Source

    @property
    def p_eye(self) -> Fraction:
        return Fraction(self.eyes, self.faces)


COLOURED = Die("coloured", 6, 3, 3, cite("fighter", 11, "3面眼睛圖案"))
WHITE = Die("white", 6, 1, 9, cite("fighter", 13, "1面眼睛圖案"))
DICE = {"coloured": COLOURED, "white": WHITE}

#: shop prices (gold)
SHOP = {
    "white die": (2, cite("fighter", 103, "每顆白色骰售價2枚金幣")),
    "1 HP for every hero": (1, cite("fighter", 103, "每1枚金幣可換回所有玩家各1滴血量")),
    "equipment": ("price printed on the card; players + 3 cards on offer",
                  cite("fighter", 101, "玩家人數+3")),
}

CITATIONS: dict[str, Source] = {
    "cooperative: all win or all lose": cite("fighter", 5, "所有玩家皆為輸家"),
    "players 1-6": cite("fighter", 51, "1~6人"),
    "three difficulty levels": cite("fighter", 75, "遊戲分成三個等級"),
    "start: 2 gold and 1 white die": cite("fighter", 81, "2枚金幣及1顆白色骰"),
    "hero HP IX": cite("fighter", 71, "Ⅸ的血量圓圈格"),
    "captain starts": cite("fighter", 85, "隊長同時為第一回合的起始玩家"),
    "round: three phases": cite("fighter", 89, "各回合包括下列三個階段"),
    "move: captain decides": cite("fighter", 93, "由隊長做最後決定"),
    "hot spring": cite("fighter", 107, "將血量補滿至上限"),
    "combat: start player picks a coloured die": cite("fighter", 121, "從三顆有色骰中挑選其中一顆"),
    "target scores": cite("fighter", 127, "標靶最中心為10分"),
    "bullseye + eye kills": cite("fighter", 127, "該怪物將立即死亡"),
    "miss: hero takes damage": cite("fighter", 129, "視為攻擊失敗"),
    "knocked out below 1 HP": cite("fighter", 129, "昏迷"),
    "second and third players": cite("fighter", 131, "第二位及第三位玩家依序"),
    "white die or retreat": cite("fighter", 135, "使用後將失去此白色骰"),
    "captain retreat retrieves the dice": cite("fighter", 137, "取回三顆有色骰"),
    "all knocked out: game lost": cite("fighter", 139, "所有玩家皆為輸家"),
    "dice pass left": cite("fighter", 143, "原起始玩家的左手邊玩家"),
    "revival costs a damage token": cite("fighter", 145, "須從公區拿取一個傷害標記"),
    "3 damage tokens: out": cite("fighter", 145, "累積領取3個傷害標記"),
    "bonus white die": cite("fighter", 147, "領取1個白色骰作為獎勵"),
    "boss: bullseye + eye only -10": cite("fighter", 151, "僅損失10滴血量"),
    "boss: no retrieving dice": cite("fighter", 153, "無法利用讓魔王對所有玩家造成傷害的方式"),
    "game end": cite("fighter", 157, "遊戲即將結束"),
    "mechanisms": cite("fighter", 213, "團隊合作"),
    "coloured die eyes": COLOURED.source,
    "white die eyes": WHITE.source,
}
for _name, (_n, _src) in COMPONENTS.items():
    CITATIONS[f"component: {_name}"] = _src
for _name, (_p, _src) in SHOP.items():
    CITATIONS[f"shop: {_name}"] = _src

# --------------------------------------------------------------------------------------------
# Throwing at the target
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Throw:
    """What one die landing does: ``damage`` to the monster, ``kill`` (instant death),
    ``skill`` (the eye triggers the hero's skill), ``miss`` (the thrower takes damage)."""

    damage: int
    kill: bool
    skill: bool
    miss: bool


def throw(zone: int | None, eye: bool, boss: bool = False) -> Throw:
    """Score one die. ``zone`` is 1-6 or 10 (bullseye), ``None`` for bone / hole / off target.

    Bullseye + eye: a monster dies at once (line 127), a boss loses 10 (line 151).
    """
    if zone is None:
        return Throw(0, False, False, True)
    if zone not in TARGET_SCORES:
        raise ValueError(f"the target scores {TARGET_SCORES}, not {zone}")
    if zone == BULLSEYE and eye:
        if boss:
            return Throw(BOSS_BULLSEYE_EYE_DAMAGE, False, True, False)
        return Throw(0, True, True, False)
    return Throw(zone, False, eye, False)


def eye_distribution(n: int, die: Die | str = COLOURED) -> dict[int, Fraction]:
    """Exact P(k eyes on top) for ``n`` dice of one kind (binomial)."""
    die = DICE[die] if isinstance(die, str) else die
    p = die.p_eye
    return {k: comb(n, k) * p**k * (1 - p) ** (n - k) for k in range(n + 1)}


def p_at_least_one_eye(n: int, die: Die | str = COLOURED) -> Fraction:
    die = DICE[die] if isinstance(die, str) else die
    return 1 - (1 - die.p_eye) ** n


def eye_table(die: Die | str = COLOURED, max_dice: int | None = None) -> list[dict]:
    """Rows ``{dice, P(0 eyes), P(1 eye), ..., P(at least 1)}`` up to the number in the box."""
    die = DICE[die] if isinstance(die, str) else die
    top = die.count if max_dice is None else max_dice
    rows = []
    for n in range(1, top + 1):
        dist = eye_distribution(n, die)
        row = {"dice": n}
        row.update({f"{k} eyes": dist.get(k, Fraction(0)) for k in range(top + 1)})
        row["at least 1"] = p_at_least_one_eye(n, die)
        rows.append(row)
    return rows


def instant_kill_chance(p_bullseye: Fraction, die: Die | str = COLOURED) -> Fraction:
    """P(one throw kills a monster at once) if the die lands in the bullseye with
    ``p_bullseye`` (the thrower's skill — not in the rules)."""
    die = DICE[die] if isinstance(die, str) else die
    return Fraction(p_bullseye) * die.p_eye


# --------------------------------------------------------------------------------------------
# Heroes: knocked out, revived, out
# --------------------------------------------------------------------------------------------


@dataclass
class Hero:
    """A hero's HP track and damage tokens (lines 71, 129, 145)."""

    hp: int = START_HP
    tokens: int = 0
    out: bool = False

    @property
    def max_hp(self) -> int:
        return START_HP - REVIVE_HP_COST * self.tokens

    @property
    def knocked_out(self) -> bool:
        return self.hp < 1

    def take(self, damage: int) -> None:
        self.hp = max(self.hp - damage, 0)

    def revive(self) -> bool:
        """At settlement a knocked-out hero takes a damage token (-3 max HP, -1 skill). The 3rd
        token means the hero cannot come back: out of the game. Returns ``True`` if revived."""
        if self.out or not self.knocked_out:
            return False
        self.tokens += 1
        if self.tokens >= MAX_DAMAGE_TOKENS:
            self.out = True
            return False
        self.hp = self.max_hp
        return True


# --------------------------------------------------------------------------------------------
# Final score and rating
# --------------------------------------------------------------------------------------------

SCORE_SOURCES = {
    "mission": cite("fighter", 165, "容易等級可獲得5分"),
    "survivors": cite("fighter", 167, "每有一位玩家生存"),
    "white dice": cite("fighter", 169, "每剩下一個白色骰"),
    "gold": cite("fighter", 171, "每擁有2枚金幣"),
    "no damage": cite("fighter", 173, "無任何玩家有傷害標記"),
    "damage tokens": cite("fighter", 175, "每拿取一個傷害標記"),
    "dead": cite("fighter", 177, "每有一位玩家死亡"),
}
CITATIONS.update({f"score: {k}": v for k, v in SCORE_SOURCES.items()})


@dataclass(frozen=True)
class Score:
    """The team's final score, line by line (the Dungeon Fighter overview, lines 165-177)."""

    parts: tuple[tuple[str, int], ...]

    @property
    def total(self) -> int:
        return sum(points for _, points in self.parts)

    @property
    def tier(self) -> "Tier":
        return rating(self.total)


def final_score(difficulty: str, boss_defeated: bool, survivors: int, dead: int,
                white_dice: int, gold: int, damage_tokens: int) -> Score:
    """Score = mission (5/10/15 if the boss died) + survivors + 2 x white dice + gold // 2
    + 5 if nobody took a damage token - damage tokens - 5 x dead."""
    if difficulty not in DIFFICULTY_POINTS:
        raise ValueError(f"difficulty is one of {sorted(DIFFICULTY_POINTS)}")
    for name, value in (("survivors", survivors), ("dead", dead), ("white dice", white_dice),
                        ("gold", gold), ("damage tokens", damage_tokens)):
        if value < 0:
            raise ValueError(f"{name} cannot be negative")
    if not 1 <= survivors + dead <= PLAYERS[1]:
        raise ValueError(f"a party has {PLAYERS[0]} to {PLAYERS[1]} heroes (survivors + dead)")
    if white_dice > WHITE.count:
        raise ValueError(f"the box holds only {WHITE.count} white dice")
    if gold > COMPONENTS["gold coins"][0]:
        raise ValueError(f"the box holds only {COMPONENTS['gold coins'][0]} gold coins")
    if dead * MAX_DAMAGE_TOKENS > damage_tokens:
        raise ValueError("every dead hero took 3 damage tokens")
    if damage_tokens > dead * MAX_DAMAGE_TOKENS + survivors * (MAX_DAMAGE_TOKENS - 1):
        raise ValueError("a surviving hero holds at most 2 damage tokens")
    parts = (
        ("mission", DIFFICULTY_POINTS[difficulty] if boss_defeated else 0),
        ("survivors", survivors),
        ("white dice", 2 * white_dice),
        ("gold", gold // 2),
        ("no damage", 5 if damage_tokens == 0 else 0),
        ("damage tokens", -damage_tokens),
        ("dead", -5 * dead),
    )
    return Score(parts)


@dataclass(frozen=True)
class Tier:
    low: int | None  # None: no lower bound
    high: int | None  # None: no upper bound
    name_zh: str
    name: str
    source: Source

    def contains(self, score: int) -> bool:
        return (self.low is None or score >= self.low) and (self.high is None or score <= self.high)

    @property
    def label(self) -> str:
        if self.low is None:
            return f"≤{self.high}"
        if self.high is None:
            return f"≥{self.low}"
        return f"{self.low}-{self.high}"


TIERS: tuple[Tier, ...] = (
    Tier(None, 0, "腦殘嗎？", "Brainless?", cite("fighter", 181, "0分以下")),
    Tier(1, 5, "別耍白癡了！", "Stop fooling around!", cite("fighter", 183, "1~5分")),
    Tier(6, 10, "有點弱喔！", "A bit weak!", cite("fighter", 185, "6~10分")),
    Tier(11, 15, "菜鳥終究是菜鳥！", "A rookie is still a rookie!", cite("fighter", 187, "11~15分")),
    Tier(16, 20, "只能算初階英雄！", "Just a novice hero!", cite("fighter", 189, "16~20分")),
    Tier(21, 25, "頂多是中階英雄！", "An intermediate hero at best!", cite("fighter", 191, "21~25分")),
    Tier(26, 30, "果然是高階英雄！", "A true high-level hero!", cite("fighter", 193, "26~30分")),
    Tier(31, 35, "真是攻略高手！", "A real expert!", cite("fighter", 195, "31~35分")),
    Tier(36, 40, "可出攻略書囉！", "Write the strategy guide!", cite("fighter", 197, "36~40分")),
    Tier(41, None, "已超出人類能力範圍了！", "Beyond human ability!", cite("fighter", 199, "40分以上")),
)
CITATIONS.update({f"tier {t.label}": t.source for t in TIERS})


def rating(score: int) -> Tier:
    """The team's rating for a final score (the Dungeon Fighter overview, lines 179-199)."""
    for tier in TIERS:
        if tier.contains(score):
            return tier
    raise AssertionError("the tiers cover every integer")


def best_possible_score(players: int, difficulty: str = "hard", white_dice: int = 9, gold: int = 30) -> int:
    """An upper bound: everyone alive, no damage, all white dice and coins in the box kept
    (6 heroes on hard: 15 + 6 + 18 + 15 + 5 = 59)."""
    return final_score(difficulty, True, players, 0, white_dice, gold, 0).total


class DungeonFighterGame(KernelGame):
    """Dungeon Fighter as a :class:`~dungeon_guilds.siblings.base.SiblingGame`."""

    key = "dungeon_fighter"
    module = __name__

    def turn_sequence(self, n_players: int, turns: int = 8) -> list[int]:
        """Three throwers per round with the shared coloured dice from the start player on, who
        changes each round (lines 121, 131, 143)."""
        seq, start = [], 0
        while len(seq) < turns:
            seq += [(start + i) % n_players for i in range(COLOURED.count)]
            start = (start + 1) % n_players
        return seq[:turns]

    def concepts(self, n_players: int) -> dict[str, str]:
        return {"first_turns": str(self.turn_sequence(n_players)),
                "rounds": "one per room until the boss",
                "dice": "1 (one die thrown at the target)",
                "key_chance": f"eye on top: coloured {COLOURED.p_eye}, white {WHITE.p_eye}",
                "worst": "3rd damage token: the hero is out (−3 −5 points)"}


GAME = DungeonFighterGame()
