"""Dungeon! 勇闖地下城 — the rule kernel for what the Dungeon! rules post specifies, and the numbers it implies.

The game in one paragraph (the Dungeon! rules post, lines 4-5, 38): each player is a hero who walks into a
six-level dungeon, fights monsters with two dice, collects treasure and wins by walking out
alive with enough gold for their class. Turns go clockwise; a turn is *move, encounter,
combat, loot*.

What this module gives you:

* the facts: :data:`CLASSES` (treasure target, suited levels, secret-door roll),
  :data:`LEVEL_COLOURS`, :data:`COUNTER_ATTACK` (the monster's table), rooms vs chambers;
* exact probabilities with :class:`fractions.Fraction`: :func:`hero_win_chance`,
  :func:`counter_attack_distribution`, :func:`expected_cards_lost`, :func:`expected_gold_lost`,
  :func:`spell_count_distribution`, :func:`secret_door_chance`;
* a tiny movement rule (:func:`legal_destinations`) and clearing markers (:class:`Space`);
* a seeded Monte Carlo of "attacks until the monster falls" (:func:`simulate_duels`) with the
  exact answer next to it (:func:`exact_duel`).

Decisions where the Dungeon! rules post is silent (also in docs/siblings.md):

* **Monster numbers.** The document says a monster card has a number per class (lines 26-27, 60-61)
  but lists no cards. :data:`EXAMPLE_MONSTER` is an *illustrative* monster, not a real card.
* **"Half, rounded" (line 72, 四捨五入)** is read as round-half-up: with 5 cards you lose 3.
* **"Scared" (6-7, line 78)** says "discard 1 treasure card" without "random" (lines 72 and 75
  say 隨機); we read it as the hero's choice, so :func:`expected_gold_lost` drops the cheapest
  card by default (``scared="random"`` switches to a random card).
* **A duel** is the hero attacking the same monster until it falls or the hero is killed (12);
  after 11 (sent back to the start hall) or 8-10 (step back, lose a turn) the hero is assumed to
  come back and attack again. The treasure hand does not grow during a duel.
* **The wizard's spells** (1d6 + 6, lines 29-31) are all taken as Fireball / Lightning Bolt in
  a duel: a spell attack rolls like a normal attack and a miss brings no counter-attack (line 87).
  One spell per turn (line 86), so the wizard casts while spells last, then fights normally.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import product
from typing import Iterable, Mapping

from . import Source, cite
from .base import KernelGame

# --------------------------------------------------------------------------------------------
# Facts
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class HeroClass:
    """A hero class: its treasure target (gp), the levels it suits and its secret-door roll."""

    key: str
    name: str
    name_zh: str
    target_gp: int
    levels: tuple[int, int]
    secret_door_min: int
    casts_spells: bool
    magic_sword: bool
    source: Source
    levels_source: Source


CLASSES: dict[str, HeroClass] = {
    "rogue": HeroClass("rogue", "Rogue", "盜賊", 10_000, (1, 3), 3, False, True,
                       cite("dungeon", 8, "盜賊：10,000 gp"), cite("dungeon", 11, "等級 1-3")),
    "cleric": HeroClass("cleric", "Cleric", "牧師", 10_000, (2, 4), 5, False, True,
                        cite("dungeon", 7, "牧師：10,000 gp"), cite("dungeon", 13, "等級 2-4")),
    "fighter": HeroClass("fighter", "Fighter", "戰士", 20_000, (3, 5), 5, False, True,
                         cite("dungeon", 9, "戰士：20,000 gp"), cite("dungeon", 14, "等級 3-5")),
    "wizard": HeroClass("wizard", "Wizard", "法師", 30_000, (4, 6), 5, True, False,
                        cite("dungeon", 10, "法師：30,000 gp"), cite("dungeon", 16, "等級 4-6")),
}

#: level -> (English colour, Chinese colour, source)
LEVEL_COLOURS: dict[int, tuple[str, str, Source]] = {
    1: ("yellow", "黃", cite("dungeon", 18, "等級1（黃）")),
    2: ("orange", "橘", cite("dungeon", 19, "等級2（橘）")),
    3: ("red", "紅", cite("dungeon", 20, "等級3（紅）")),
    4: ("purple", "紫", cite("dungeon", 21, "等級4（紫）")),
    5: ("blue", "藍", cite("dungeon", 22, "等級5（藍）")),
    6: ("green", "綠", cite("dungeon", 23, "等級6（綠）")),
}

MOVE_LIMIT = 5  # spaces per turn
SECRET_DOOR_MIN = 5  # everyone but the rogue opens a secret door on 5-6
SPELLS = ("Fireball 火球術", "Lightning Bolt 閃電束", "Teleport 傳送術")
CLEAR_MARKERS = {"room": 1, "chamber": 3}  # markers needed to clear a space

CITATIONS: dict[str, Source] = {
    "goal": cite("dungeon", 4, "搜集夠多的寶物"),
    "components": cite("dungeon", 24, "2 顆骰子"),
    "clockwise": cite("dungeon", 38, "順時針"),
    "four steps": cite("dungeon", 39, "四個"),
    "move limit": cite("dungeon", 41, "最多走 5 格"),
    "stop at uncleared room": cite("dungeon", 42, "未清空的房間時必須停止"),
    "no sharing a room": cite("dungeon", 43, "不可停在相同房間"),
    "secret door": cite("dungeon", 45, "擲出 5 或 6；盜賊擲出 3-6"),
    "one monster per room": cite("dungeon", 48, "只會有 1 個怪物"),
    "trap only in rooms": cite("dungeon", 51, "廳室不可抽取"),
    "cage trap": cite("dungeon", 54, "擲出 1-3：拿 1 個"),
    "hero attacks first": cite("dungeon", 58, "由英雄先攻擊"),
    "2d6 >= number": cite("dungeon", 60, "大於等於怪物卡上相應"),
    "dash needs magic sword": cite("dungeon", 61, "「—」"),
    "counter-attack 2d6": cite("dungeon", 66, "同樣擲 2 顆骰子"),
    "dropped treasure on monster": cite("dungeon", 80, "放在打你的怪物身上"),
    "room loot": cite("dungeon", 82, "相應等級的寶藏卡堆中抽 1 張"),
    "chamber loot": cite("dungeon", 84, "只能獲得怪物從其他人身上取得的寶藏"),
    "spell count": cite("dungeon", 30, "所得數值加 6"),
    "spell types": cite("dungeon", 29, "火球術"),
    "one spell per turn": cite("dungeon", 86, "每 1 輪只能施展 1 次法術"),
    "spell miss is safe": cite("dungeon", 87, "也不會遭怪物反擊"),
    "room: 1 marker": cite("dungeon", 36, "放置 1 個清空標誌"),
    "chamber: 3 markers": cite("dungeon", 37, "需 3 個清空標誌"),
    "magic sword bonus": cite("dungeon", 99, "攻擊加值"),
}
for _cls in CLASSES.values():
    CITATIONS[f"{_cls.key} target"] = _cls.source
    CITATIONS[f"{_cls.key} levels"] = _cls.levels_source
for _lvl, (_, _, _src) in LEVEL_COLOURS.items():
    CITATIONS[f"level {_lvl} colour"] = _src


@dataclass(frozen=True)
class CounterBand:
    """One row of the monster's counter-attack table (the Dungeon! rules post, lines 68-80)."""

    key: str
    low: int
    high: int
    name: str
    name_zh: str
    effect: str
    source: Source

    def covers(self, roll: int) -> bool:
        return self.low <= roll <= self.high

    @property
    def label(self) -> str:
        if self.low == self.high:
            return str(self.low)
        return f"≤{self.high}" if self.low <= 2 else f"{self.low}-{self.high}"


COUNTER_ATTACK: tuple[CounterBand, ...] = (
    CounterBand("killed", 12, 12, "The monster kills you", "怪物殺了你！",
                "discard all treasure cards; start again with another hero",
                cite("dungeon", 69, "怪物殺了你")),
    CounterBand("badly_wounded", 11, 11, "Badly wounded", "你受了重傷！",
                "discard half your treasure cards at random (rounded); back to the start hall",
                cite("dungeon", 71, "你受了重傷")),
    CounterBand("wounded", 8, 10, "Wounded", "你受傷了！",
                "discard 1 treasure card at random, step back 1 space, lose 1 turn",
                cite("dungeon", 74, "8-10 你受傷了")),
    CounterBand("scared", 6, 7, "Scared", "你嚇傻了！", "discard 1 treasure card",
                cite("dungeon", 77, "6-7 你嚇傻了")),
    CounterBand("missed", 2, 5, "The monster misses", "怪物失手！", "nothing happens",
                cite("dungeon", 79, "5以下 怪物失手")),
)
for _band in COUNTER_ATTACK:
    CITATIONS[f"counter-attack {_band.label}"] = _band.source

#: An illustrative monster (NOT a real card): the 2d6 total each class needs to defeat it.
EXAMPLE_MONSTER: dict[str, int] = {"rogue": 9, "cleric": 8, "fighter": 7, "wizard": 8}

# --------------------------------------------------------------------------------------------
# Dice
# --------------------------------------------------------------------------------------------


def two_dice() -> dict[int, Fraction]:
    """The exact distribution of the sum of two six-sided dice (the Dungeon! rules post, line 24: two dice)."""
    counts = Counter(a + b for a, b in product(range(1, 7), repeat=2))
    return {total: Fraction(n, 36) for total, n in sorted(counts.items())}


def hero_win_chance(needed: int, bonus: int = 0) -> Fraction:
    """P(2d6 + bonus >= needed): the hero defeats the monster (the Dungeon! rules post, line 60; a magic
    sword adds its bonus to the roll, line 99)."""
    return sum((p for total, p in two_dice().items() if total + bonus >= needed), Fraction(0))


def can_attack(needed: int | None, has_magic_sword: bool) -> bool:
    """A "—" on the monster card (``needed=None``) can only be fought with a magic sword
    (the Dungeon! rules post, line 61). The wizard never uses magic swords (line 15)."""
    return needed is not None or has_magic_sword


def win_chance_table(bonus: int = 0, needed: Iterable[int] = range(2, 14)) -> list[tuple[int, Fraction]]:
    """``[(needed number, P(hero wins)), ...]`` for each monster number."""
    return [(n, hero_win_chance(n, bonus)) for n in needed]


def counter_attack(roll: int) -> CounterBand:
    """The row of the counter-attack table for a 2d6 roll (the Dungeon! rules post, lines 68-79)."""
    for band in COUNTER_ATTACK:
        if band.covers(roll):
            return band
    raise ValueError(f"2d6 cannot roll {roll}")


def counter_attack_distribution() -> dict[str, Fraction]:
    """Exact probability of each counter-attack outcome, table order (12 first)."""
    dist = {band.key: Fraction(0) for band in COUNTER_ATTACK}
    for total, p in two_dice().items():
        dist[counter_attack(total).key] += p
    return dist


# --------------------------------------------------------------------------------------------
# What a failed attack costs
# --------------------------------------------------------------------------------------------


def half_rounded(n: int) -> int:
    """Half of ``n`` rounded half up (四捨五入, the Dungeon! rules post, line 72): 5 -> 3, 4 -> 2."""
    return (n + 1) // 2


def cards_lost(outcome: str, hand: int) -> int:
    """How many treasure cards a counter-attack outcome costs a hero holding ``hand`` cards."""
    if outcome == "killed":
        return hand
    if outcome == "badly_wounded":
        return half_rounded(hand)
    if outcome in ("wounded", "scared"):
        return min(1, hand)
    if outcome == "missed":
        return 0
    raise ValueError(f"unknown outcome {outcome!r}")


def expected_cards_lost(hand: int) -> Fraction:
    """Expected treasure cards lost per failed attack (= per counter-attack) with ``hand`` cards."""
    dist = counter_attack_distribution()
    return sum((p * cards_lost(key, hand) for key, p in dist.items()), Fraction(0))


def expected_gold_lost(values: Iterable[int], scared: str = "choice") -> Fraction:
    """Expected gp of treasure lost per failed attack for a hand with these card values.

    A random discard of ``k`` of ``h`` cards loses ``k/h`` of the hand's value on average.
    ``scared="choice"`` (default, see the module notes) drops the cheapest card on 6-7;
    ``scared="random"`` drops a random one.
    """
    values = list(values)
    if scared not in ("choice", "random"):
        raise ValueError("scared must be 'choice' or 'random'")
    h, total = len(values), sum(values)
    if h == 0:
        return Fraction(0)
    dist = counter_attack_distribution()
    lost = {
        "killed": Fraction(total),
        "badly_wounded": Fraction(half_rounded(h) * total, h),
        "wounded": Fraction(total, h),
        "scared": Fraction(min(values)) if scared == "choice" else Fraction(total, h),
        "missed": Fraction(0),
    }
    return sum((dist[k] * lost[k] for k in dist), Fraction(0))


# --------------------------------------------------------------------------------------------
# Other dice rules
# --------------------------------------------------------------------------------------------


def secret_door_chance(hero: str) -> Fraction:
    """P(opening a secret door in one try): 5-6, the rogue 3-6 (the Dungeon! rules post, line 45)."""
    low = CLASSES[hero].secret_door_min
    return Fraction(7 - low, 6)


def spell_count_distribution() -> dict[int, Fraction]:
    """The wizard's spells: one die + 6 (the Dungeon! rules post, line 30) -> uniform on 7..12."""
    return {d + 6: Fraction(1, 6) for d in range(1, 7)}


def cage_trap_distribution() -> dict[int, Fraction]:
    """Lose-a-turn tokens from a cage trap: 1-3 -> 1, 4-6 -> 2 (the Dungeon! rules post, lines 54-55)."""
    return {1: Fraction(1, 2), 2: Fraction(1, 2)}


# --------------------------------------------------------------------------------------------
# Spaces and movement
# --------------------------------------------------------------------------------------------


@dataclass
class Space:
    """A room (colour-coded, 1 clear marker) or chamber (named, 3 markers) — lines 36-37."""

    kind: str  # "room" or "chamber"
    level: int
    markers: int = 0

    def __post_init__(self) -> None:
        if self.kind not in CLEAR_MARKERS:
            raise ValueError("a space is a 'room' or a 'chamber'")
        if self.level not in LEVEL_COLOURS:
            raise ValueError("levels run 1..6")

    @property
    def cleared(self) -> bool:
        return self.markers >= CLEAR_MARKERS[self.kind]

    def defeat_monster(self) -> None:
        """A defeated monster (or a room's trap) leaves one clear marker (lines 52, 62)."""
        self.markers += 1

    @property
    def traps_give_treasure(self) -> bool:
        """A trap in a room draws a treasure card; in a chamber it does not (line 51)."""
        return self.kind == "room"

    def loot(self) -> str:
        """What beating this space's monster earns (lines 82-84)."""
        if self.kind == "room":
            return "draw 1 treasure of this level + all treasure the monster holds"
        return "only the treasure the monster took from other heroes"


def legal_destinations(
    adjacency: Mapping[str, Iterable[str]],
    start: str,
    *,
    uncleared: Iterable[str] = (),
    occupied: Iterable[str] = (),
    chambers: Iterable[str] = (),
    limit: int = MOVE_LIMIT,
) -> set[str]:
    """Spaces a hero can end a move on (the Dungeon! rules post, lines 41-43).

    Up to ``limit`` steps along ``adjacency`` (walls are missing edges, closed secret doors
    too; doors take no space). Entering an uncleared space ends the move there. A hero may
    pass through spaces with other heroes but not stop there, except in chambers.
    """
    uncleared, occupied, chambers = set(uncleared), set(occupied), set(chambers)
    frontier, seen, ends = [start], {start}, set()
    for _ in range(limit):
        nxt = []
        for here in frontier:
            for there in adjacency.get(here, ()):
                if there in seen:
                    continue
                seen.add(there)
                if there not in occupied or there in chambers:
                    ends.add(there)
                if there not in uncleared:
                    nxt.append(there)  # the move may continue past a cleared space
        frontier = nxt
    return ends


# --------------------------------------------------------------------------------------------
# Duels: attacks until the monster falls
# --------------------------------------------------------------------------------------------


@dataclass
class DuelResult:
    """One hero against one monster, attack after attack."""

    attacks: int = 0
    monster_fell: bool = False
    spells_cast: int = 0
    outcomes: Counter = field(default_factory=Counter)
    cards_lost: int = 0
    turns_lost: int = 0


def _roll(rng: random.Random) -> int:
    return rng.randint(1, 6) + rng.randint(1, 6)


def duel(needed: int, rng: random.Random, *, spells: int = 0, hand: int = 0,
         max_attacks: int = 10_000) -> DuelResult:
    """Attack one monster until it falls or the hero is killed (see the module's decisions).

    ``spells`` attack spells are cast first, one per attack; a missed spell brings no
    counter-attack. ``hand`` is the number of treasure cards the hero carries.
    """
    result = DuelResult()
    while result.attacks < max_attacks:
        result.attacks += 1
        casting = result.spells_cast < spells
        if casting:
            result.spells_cast += 1
        if _roll(rng) >= needed:
            result.monster_fell = True
            return result
        if casting:
            continue
        band = counter_attack(_roll(rng))
        result.outcomes[band.key] += 1
        lost = cards_lost(band.key, hand)
        result.cards_lost += lost
        hand -= lost
        if band.key == "wounded":
            result.turns_lost += 1
        if band.key == "killed":
            return result
    return result


@dataclass(frozen=True)
class DuelSummary:
    hero: str
    needed: int
    trials: int
    mean_attacks: float
    monster_fell: float
    hero_killed: float
    mean_cards_lost: float
    mean_turns_lost: float


def simulate_duels(needs: Mapping[str, int] = EXAMPLE_MONSTER, *, trials: int = 2000,
                   seed: int = 0, hand: int = 3) -> list[DuelSummary]:
    """Monte Carlo of duels per class (same seed -> same numbers). The wizard rolls 1d6 + 6
    attack spells for each duel (line 30)."""
    rng = random.Random(seed)
    rows = []
    for hero, needed in needs.items():
        results = []
        for _ in range(trials):
            spells = rng.randint(1, 6) + 6 if CLASSES[hero].casts_spells else 0
            results.append(duel(needed, rng, spells=spells, hand=hand))
        rows.append(DuelSummary(
            hero, needed, trials,
            mean_attacks=sum(r.attacks for r in results) / trials,
            monster_fell=sum(r.monster_fell for r in results) / trials,
            hero_killed=sum(not r.monster_fell for r in results) / trials,
            mean_cards_lost=sum(r.cards_lost for r in results) / trials,
            mean_turns_lost=sum(r.turns_lost for r in results) / trials,
        ))
    return rows


def exact_duel(needed: int, spells: int | Mapping[int, Fraction] = 0) -> tuple[Fraction, Fraction]:
    """Exact ``(P(monster falls), expected attacks)`` of :func:`duel` (no attack cap).

    Each normal attack wins with ``p``, gets the hero killed with ``q = (1 - p)/36`` and
    otherwise goes on; the first ``s`` spell attacks can only win. ``spells`` may be a count
    or a distribution of counts (e.g. :func:`spell_count_distribution`).
    """
    if isinstance(spells, int):
        spells = {spells: Fraction(1)}
    p = hero_win_chance(needed)
    q = (1 - p) * Fraction(1, 36)
    if p + q == 0:
        raise ValueError("this monster can never be hit")
    fall = attacks = Fraction(0)
    for s, weight in spells.items():
        survive_spells = (1 - p) ** s
        spell_attacks = (1 - survive_spells) / p if p else Fraction(s)
        fall += weight * (1 - survive_spells + survive_spells * p / (p + q))
        attacks += weight * (spell_attacks + survive_spells / (p + q))
    return fall, attacks


class DungeonGame(KernelGame):
    """Dungeon! as a :class:`~dungeon_guilds.siblings.base.SiblingGame`."""

    key = "dungeon"
    module = __name__

    # turn_sequence: KernelGame's clockwise whole turns (the Dungeon! rules post, line 38)

    def concepts(self, n_players: int) -> dict[str, str]:
        p7 = hero_win_chance(7)
        killed = counter_attack_distribution()["killed"]
        return {"first_turns": str(self.turn_sequence(n_players)),
                "rounds": "open-ended (until a hero wins)",
                "dice": "2 (2d6 attack)",
                "key_chance": f"hit a 7-monster: {p7} ≈ {float(p7):.3f}",
                "worst": f"killed by the counter-attack: {killed} per failed attack"}


GAME = DungeonGame()
