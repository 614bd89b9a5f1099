"""Dungeon Lords 地城領主 — the building phase as the Dungeon Lords building notes describe it.

Every lord holds eight order cards. Each round the lords *secretly* pick three of the six they
may use and lay them out left to right (the Dungeon Lords building notes, lines 40-42); then everyone reveals the first
card and, from the start player on, puts a minion on that order's board space — top slot
first; if all three slots are taken the minion sits on the order card instead and the order
fails (lines 46-49). Then the second card, then the third. In 2- and 3-player games NPC lords
place before anyone chooses (lines 59-71).

What this module gives you:

* the round structure (:func:`round_phases`, :data:`SEASONS`) and start-player passing
  (:func:`start_players`), the year-two changes (:data:`YEAR_TWO_CHANGES`);
* the order board (:class:`OrderBoard`) with top-down placement, the NPC placement for 2 and 3
  players *exactly as written* (:func:`place_npcs_3p`, :func:`place_npcs_2p`), the NPC deck
  cycle (:class:`NpcDeck`) and a player's unavailable-cards cycle (:func:`retrieve_orders`);
* tax (:func:`tax_due`, :func:`pay_tax`), adventurer dealing (:func:`deal_adventurers`) and the
  warrior pushing to the front (:func:`join_party`);
* :func:`simulate_order_contention`: how often a chosen order finds no slot, by seat position.

Decisions where the Dungeon Lords building notes are silent (also in docs/siblings.md):

* The order *names* are an outside fact (the document defers them to "another post", line 76); they
  are labels only. Board rows: the first four are the top row (resolution order, lines 54-55).
* Which cards start unavailable (2 per player, line 40-41; 3 per NPC, "the remaining five",
  line 64) is not said: they are drawn at random.
* 2-player NPCs: when both NPCs draw the same order, NPC A takes the upper of the two slots.
* Retrieval when *both* the 2nd and 3rd cards failed: the lord may take back any one of the
  three played cards (the document's "the card with the minion" is singular, line 91).
* The start player is not passed at the end of round 4 (the document lists no end-of-round phase
  for round 4, lines 145-160); year two's first start player is passed from round 4's (lines
  178-181), then passes left each round.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from fractions import Fraction
from math import comb
from typing import Callable, Iterable, Mapping, Sequence

from . import Source, cite, outside_fact
from .base import KernelGame

ORDERS_ORIGIN = ("Dungeon Lords rulebook (Czech Games Edition, 2009), as summarised at "
                 "https://www.boardgamebriefs.com/dungeon-lords")

#: The eight order types (names: outside fact). The first four form the board's top row.
ORDER_TYPES: tuple[str, ...] = (
    "food", "reputation", "tunnels", "gold",
    "imps", "traps", "monster", "room",
)
ORDER_NAMES = {
    "food": "Get Food", "reputation": "Improve Reputation", "tunnels": "Dig Tunnels",
    "gold": "Mine Gold", "imps": "Recruit Imps", "traps": "Buy Traps",
    "monster": "Hire Monster", "room": "Build Room",
}
SLOTS = 3  # every order type has three slots (line 43)
ORDERS_PER_ROUND = 3  # choose three cards (line 41)
UNAVAILABLE = 2  # a lord's unavailable cards (line 40-41)
NPC_UNAVAILABLE = 3  # "the remaining five" of eight (line 64)
ROUNDS_PER_YEAR = 4
YEARS = 2
SEASONS = ("winter", "spring", "summer", "autumn")  # as the Dungeon Lords building notes name them (lines 9, 99, 126, 145)
NPC = "NPC"

CITATIONS: dict[str, Source] = {
    "eight order types": cite("lords", 40, "八類工作格"),
    "two unavailable, six to choose": cite("lords", 41, "你還有六張可以自由選擇"),
    "choose three, left to right": cite("lords", 42, "由左至右"),
    "three slots, four lords": cite("lords", 43, "只有三個位置"),
    "reveal together, start player first": cite("lords", 46, "由起始玩家開始放他的"),
    "top-down placement": cite("lords", 47, "必需由上往下放"),
    "no room -> minion on the card": cite("lords", 49, "將你的小頭放到你這次的命令卡上"),
    "resolve top row then next": cite("lords", 54, "從上面那一行由左至右結算"),
    "NPCs place first": cite("lords", 60, "NPC會比所有玩家先放小頭"),
    "3p NPC: 3 of 5, second slot": cite("lords", 64, "隨機抽三張"),
    "3p NPC second slot": cite("lords", 65, "第二格卡位"),
    "2p NPCs: 2 of 5 on second slot": cite("lords", 68, "隨機抽兩張"),
    "2p NPCs: same order -> slots 2 and 3": cite("lords", 69, "就放二三格"),
    "2p NPCs: 1 of 3 on first slot": cite("lords", 70, "隨機抽一張"),
    "2p NPCs: same order -> slots 1 and 2": cite("lords", 71, "就放一二格"),
    "NPC card cycle": cite("lords", 73, "收回牌堆"),
    "order names (outside)": outside_fact(ORDERS_ORIGIN),
    "retrieval: first card back": cite("lords", 88, "將命令卡左邊第一張拿回手"),
    "retrieval: 2nd and 3rd up": cite("lords", 89, "往上移一格到無法使用上"),
    "retrieval: failed card may return": cite("lords", 91, "有小頭的那張選一張回手"),
    "tax: 1 gold per 2 tiles, rounded up": cite("lords", 21, "無條件進位"),
    "tax: conquered tiles pay": cite("lords", 23, "還是要收稅"),
    "tax: damage per unpaid gold": cite("lords", 24, "每少付一個黃金就會得到一個傷害指示物"),
    "damage: -3 points": cite("lords", 25, "扣三分"),
    "events: three cards": cite("lords", 19, "事件卡只有三張"),
    "adventurers: 4, or 3 for 2-3 players": cite("lords", 29, "2~3人遊戲為3張"),
    "adventurers: weak left": cite("lords", 30, "弱的放左邊"),
    "adventurers: redraw if all equal": cite("lords", 33, "棄掉最後一張再翻一張新的"),
    "adventurers: least evil first": cite("lords", 114, "邪惡計量條位置最低的"),
    "adventurers: 2p NPC's card discarded": cite("lords", 117, "分給NPC的那張會進入棄牌堆"),
    "adventurers: tie -> order of play": cite("lords", 118, "執行順位"),
    "adventurers: 2p NPC evil +1": cite("lords", 121, "NPC的邪惡值加1"),
    "adventurers: 2p NPC nicer on ties": cite("lords", 122, "NPC算比較nice"),
    "warrior pushes to the front": cite("lords", 141, "擠到後邊去"),
    "start player passes left": cite("lords", 97, "起始玩家標示物傳給你的左手邊玩家"),
    "round 4: no event, no adventurers": cite("lords", 148, "沒有事件卡也沒有新冒險者"),
    "year 2: gold-backed cards": cite("lords", 164, "第二年用的金背卡"),
    "year 2: produce twice": cite("lords", 167, "可以被生產兩次"),
    "year 2: draw one extra trap": cite("lords", 172, "可以多抽一張來看"),
    "year 2: 2p NPC evil -2": cite("lords", 176, "往下兩格"),
    "year 2 start player: 4p right": cite("lords", 179, "4人:傳給右手邊"),
    "year 2 start player: 3p left": cite("lords", 180, "3人:傳給左手邊"),
    "year 2 start player: 2p stays": cite("lords", 181, "2人:不傳"),
    "game ends after year 2": cite("lords", 184, "第二年結束後就call game算分"),
}

# --------------------------------------------------------------------------------------------
# Round structure
# --------------------------------------------------------------------------------------------

PHASES = {
    "new_round": ("New round", cite("lords", 11, "New Round Phase")),
    "orders": ("Orders", cite("lords", 39, "Order Phase")),
    "production": ("Production and order retrieval", cite("lords", 78, "Production and Orders Retrieval")),
    "event": ("Event", cite("lords", 109, "Event Phase")),
    "adventurers": ("Adventurers", cite("lords", 112, "Adventures Phase")),
    "end_of_round": ("End of round", cite("lords", 96, "End of round")),
    "combat": ("Combat (not in the document)", cite("lords", 160, "戰鬥進度板")),
}


def round_phases(round_no: int) -> list[str]:
    """The phases of building round 1..4 of a year (the Dungeon Lords building notes, lines 9-160).

    Round 1 has no event and no adventurers phase; rounds 2-4 resolve the event revealed a
    round earlier and deal the adventurers revealed a round earlier; round 4 reveals none and
    ends the building, so combat follows (decision: no end-of-round phase there).
    """
    if round_no == 1:
        return ["new_round", "orders", "production", "end_of_round"]
    if round_no in (2, 3):
        return ["new_round", "orders", "production", "event", "adventurers", "end_of_round"]
    if round_no == 4:
        return ["new_round", "orders", "production", "event", "adventurers", "combat"]
    raise ValueError("a year has building rounds 1..4")


def start_players(n_players: int, first: int = 0) -> list[int]:
    """The start player of each of the 8 building rounds (two years), seats 0..n-1 clockwise.

    The marker passes left (next seat) at each end of round (line 97). Year two begins by
    passing it right in a 4-player game, left with 3, not at all with 2 (lines 178-182).
    """
    if n_players not in (2, 3, 4):
        raise ValueError("Dungeon Lords is for 2-4 lords")
    seats = [first]
    for _ in range(ROUNDS_PER_YEAR - 1):
        seats.append((seats[-1] + 1) % n_players)
    step = {4: -1, 3: 1, 2: 0}[n_players]
    seats.append((seats[-1] + step) % n_players)
    for _ in range(ROUNDS_PER_YEAR - 1):
        seats.append((seats[-1] + 1) % n_players)
    return seats


YEAR_TWO_CHANGES: tuple[tuple[str, Source], ...] = (
    ("monster, room and adventurer cards switch to the gold-backed year-two decks", CITATIONS["year 2: gold-backed cards"]),
    ("four year-two combat cards go on the central board", cite("lords", 165, "戰鬥卡4張")),
    ("an undefeated paladin is swapped for the year-two paladin", cite("lords", 165, "第二年的聖騎士")),
    ("every room can produce twice", CITATIONS["year 2: produce twice"]),
    ("the Buy Traps order draws one extra card and discards one (production does not)", CITATIONS["year 2: draw one extra trap"]),
    ("2 players: the NPC's evil marker moves down two", CITATIONS["year 2: 2p NPC evil -2"]),
    ("first start player: 4p passes right, 3p passes left, 2p keeps it", CITATIONS["year 2 start player: 4p right"]),
)


def productions_per_room(year: int) -> int:
    """Year one: a room produces once; year two: twice (line 167)."""
    return 1 if year == 1 else 2


def trap_cards_drawn(bought: int, year: int) -> int:
    """Cards drawn by the Buy Traps order: year two draws one extra to discard (lines 172-174)."""
    return bought + (1 if year == 2 else 0)


# --------------------------------------------------------------------------------------------
# Tax
# --------------------------------------------------------------------------------------------


def tax_due(tiles: int) -> int:
    """One gold per two dungeon tiles (rooms or tunnels), rounded up (lines 21-22).
    Conquered tiles count too (line 23)."""
    if tiles < 0:
        raise ValueError("tiles cannot be negative")
    return (tiles + 1) // 2


@dataclass(frozen=True)
class TaxResult:
    due: int
    paid: int
    damage: int

    @property
    def points(self) -> int:
        """End-of-game points from this tax: -3 per damage token (line 25)."""
        return -3 * self.damage


def pay_tax(tiles: int, gold: int) -> TaxResult:
    """Pay what you can; every unpaid gold is a damage token (line 24)."""
    due = tax_due(tiles)
    paid = min(due, max(gold, 0))
    return TaxResult(due, paid, due - paid)


# --------------------------------------------------------------------------------------------
# The order board
# --------------------------------------------------------------------------------------------


@dataclass
class OrderBoard:
    """Three slots per order type; ``slots[order][0]`` is the top slot."""

    slots: dict[str, list[str | None]] = field(
        default_factory=lambda: {o: [None] * SLOTS for o in ORDER_TYPES})

    def free(self, order: str) -> int:
        return sum(s is None for s in self.slots[order])

    def put(self, order: str, slot: int, who: str) -> None:
        """Put a minion on a given slot (NPC placement names its slot)."""
        if self.slots[order][slot] is not None:
            raise ValueError(f"slot {slot + 1} of {order} is taken")
        self.slots[order][slot] = who

    def place(self, order: str, who: str) -> int | None:
        """Top-down placement (line 47): the highest free slot, or ``None`` — the order finds
        no slot and the minion goes on the order card (line 49)."""
        for i, s in enumerate(self.slots[order]):
            if s is None:
                self.slots[order][i] = who
                return i
        return None

    def resolution_order(self) -> list[tuple[str, int, str]]:
        """``(order, slot, who)`` in resolution order: top row left to right, then the next
        row (lines 54-55); within an order, slot by slot."""
        return [(o, i, w) for o in ORDER_TYPES for i, w in enumerate(self.slots[o]) if w is not None]


@dataclass
class NpcDeck:
    """An NPC's eight cards; three are unavailable. After placing, the unavailable cards return
    and the three just used become unavailable (lines 73-74)."""

    unavailable: frozenset[str]

    @classmethod
    def random(cls, rng: random.Random) -> "NpcDeck":
        return cls(frozenset(rng.sample(ORDER_TYPES, NPC_UNAVAILABLE)))

    def available(self) -> list[str]:
        return [o for o in ORDER_TYPES if o not in self.unavailable]

    def cycle(self, used: Iterable[str]) -> None:
        used = frozenset(used)
        if len(used) != NPC_UNAVAILABLE:
            raise ValueError("an NPC uses three cards a round")
        self.unavailable = used


def place_npcs_3p(board: OrderBoard, deck: NpcDeck, rng: random.Random) -> list[str]:
    """3 players: the NPC draws 3 of its 5 available cards at random and puts a minion on the
    *second* slot of each (lines 63-65). Returns the orders drawn."""
    drawn = rng.sample(deck.available(), 3)
    for order in drawn:
        board.put(order, 1, NPC)
    deck.cycle(drawn)
    return drawn


def place_npcs_2p(board: OrderBoard, decks: tuple[NpcDeck, NpcDeck], rng: random.Random
                  ) -> tuple[list[str], list[str]]:
    """2 players: two NPCs (lines 67-71).

    Step 1: each draws 2 of its 5 available cards -> second slot; an order both drew gets
    slots 2 and 3. Step 2: each draws 1 of its remaining 3 -> first slot; an order both drew
    gets slots 1 and 2. (These never collide: an NPC cannot draw a card twice.)
    """
    a, b = decks
    a_left, b_left = a.available(), b.available()
    a2, b2 = rng.sample(a_left, 2), rng.sample(b_left, 2)
    for order in a2:
        board.put(order, 1, "NPC A")
    for order in b2:
        board.put(order, 2 if order in a2 else 1, "NPC B")
    a1 = rng.choice([o for o in a_left if o not in a2])
    b1 = rng.choice([o for o in b_left if o not in b2])
    board.put(a1, 0, "NPC A")
    board.put(b1, 1 if b1 == a1 else 0, "NPC B")
    a.cycle(a2 + [a1])
    b.cycle(b2 + [b1])
    return a2 + [a1], b2 + [b1]


def retrieve_orders(played: Sequence[str], failed: Iterable[int] = (), keep: int = 0) -> frozenset[str]:
    """The new unavailable pair after production (lines 87-92).

    ``played`` are the three cards left to right; ``failed`` holds the indices (0..2) of the
    cards that found no slot. Normally the first card returns to hand with the two old
    unavailable cards, and the 2nd and 3rd become unavailable. If the 2nd or 3rd failed, the
    lord may return that card instead (``keep`` = its index); the rest become unavailable.
    """
    if len(played) != ORDERS_PER_ROUND:
        raise ValueError("three cards are played each round")
    allowed = {0} | {i for i in failed if i in (1, 2)}
    if keep not in allowed:
        raise ValueError(f"card {keep + 1} may not return to hand (allowed: {sorted(i + 1 for i in allowed)})")
    return frozenset(o for i, o in enumerate(played) if i != keep)


# --------------------------------------------------------------------------------------------
# Adventurers
# --------------------------------------------------------------------------------------------


def adventurers_per_round(n_players: int) -> int:
    """Four adventurers a round; three in 2- and 3-player games (line 29)."""
    return 4 if n_players == 4 else 3


def reveal_adventurers(deck: Iterable[int], count: int) -> list[int]:
    """Reveal ``count`` adventurer strengths; while all are equal, discard the last and reveal
    another (lines 33-34). Returns them sorted weak (left) to strong (line 30)."""
    it = iter(deck)
    shown = [next(it) for _ in range(count)]
    while count > 1 and len(set(shown)) == 1:
        shown[-1] = next(it)
    return sorted(shown)


@dataclass(frozen=True)
class DungeonLordsPlayer:
    """A player (a dungeon lord of that game, or its NPC) as the adventurer deal sees them: not
    a lord card of Dungeon Guilds (``dungeon_guilds.lords.Lord``)."""

    name: str
    evil: int
    order_position: int  # position in this round's order of play (0 = first)
    npc: bool = False


def deal_adventurers(adventurers: Sequence, lords: Sequence[DungeonLordsPlayer]) -> dict[str, object]:
    """Deal the round's adventurers, weakest first, to the least evil lord first (line 114).

    Ties: the earlier lord in the round's order of play gets the weaker adventurer (line 118);
    an NPC counts as nicer than a tied player (2 players, line 122). The caller raises the
    2-player NPC's evil by one *before* dealing (line 121; :func:`npc_evil_before_dealing`).
    An NPC's adventurer is discarded (line 117): it is returned under the NPC's name.
    """
    ranked = sorted(lords, key=lambda l: (l.evil, not l.npc, l.order_position))
    if len(adventurers) != len(ranked):
        raise ValueError("one adventurer per lord")
    return {lord.name: adv for lord, adv in zip(ranked, adventurers)}


def npc_evil_before_dealing(evil: int) -> int:
    """2 players: the NPC's evil goes up one before each dealing (line 121)."""
    return evil + 1


def join_party(party: Sequence[str], adventurer: str, warrior: bool = False) -> list[str]:
    """Add an adventurer to a dungeon's party, front first (``party[0]`` stands in front).

    A new adventurer takes the next slot behind the others (lines 115, 139, 157); a warrior
    pushes everyone back and stands in front, even before another warrior (lines 140-141, 158).
    """
    return [adventurer, *party] if warrior else [*party, adventurer]


# --------------------------------------------------------------------------------------------
# Order-phase simulation
# --------------------------------------------------------------------------------------------

Policy = Callable[[random.Random, list[str], OrderBoard], list[str]]


def random_policy(rng: random.Random, available: list[str], board: OrderBoard) -> list[str]:
    """Pick 3 of the available orders uniformly, in random order."""
    return rng.sample(available, ORDERS_PER_ROUND)


def weighted_policy(weights: Mapping[str, float]) -> Policy:
    """Pick 3 distinct orders, each draw proportional to ``weights`` (popular orders)."""
    def policy(rng: random.Random, available: list[str], board: OrderBoard) -> list[str]:
        pool, picks = list(available), []
        for _ in range(ORDERS_PER_ROUND):
            w = [max(float(weights.get(o, 1.0)), 0.0) for o in pool]
            choice = rng.choices(pool, weights=w)[0] if sum(w) > 0 else rng.choice(pool)
            picks.append(choice)
            pool.remove(choice)
        return picks
    return policy


def npc_aware_policy(rng: random.Random, available: list[str], board: OrderBoard) -> list[str]:
    """Like :func:`weighted_policy`, weighting each order by its free slots after the NPCs
    placed (players choose after seeing them, line 60)."""
    return weighted_policy({o: board.free(o) for o in ORDER_TYPES})(rng, available, board)


#: Illustrative only (not from any source): every lord prefers the same four orders, 3 to 1.
CLUSTERED_WEIGHTS = {"food": 3, "gold": 3, "imps": 3, "monster": 3}

POLICIES: dict[str, Policy] = {
    "random": random_policy,
    "npc-aware": npc_aware_policy,
    "clustered": weighted_policy(CLUSTERED_WEIGHTS),
}


@dataclass
class ContentionResult:
    """Counts from :func:`simulate_order_contention`. Positions are places in the round's order
    of play (0 = start player); ``card`` is the order card 0..2."""

    n_players: int
    rounds: int
    chosen: dict[tuple[int, int], int] = field(default_factory=dict)
    no_slot: dict[tuple[int, int], int] = field(default_factory=dict)

    def rate(self, position: int | None = None, card: int | None = None) -> float:
        keys = [k for k in self.chosen
                if (position is None or k[0] == position) and (card is None or k[1] == card)]
        chosen = sum(self.chosen[k] for k in keys)
        return sum(self.no_slot.get(k, 0) for k in keys) / chosen if chosen else 0.0

    def by_position(self) -> dict[int, float]:
        return {p: self.rate(position=p) for p in range(self.n_players)}


def order_round(n_players: int, unavailable: list[frozenset[str]], start: int,
                rng: random.Random, policy: Policy = random_policy,
                npc_decks: Sequence[NpcDeck] = ()) -> tuple[OrderBoard, list[list[str]], list[set[int]]]:
    """Play one order phase. Returns the board, each seat's three cards and the indices of the
    cards that found no slot."""
    board = OrderBoard()
    if n_players == 3:
        place_npcs_3p(board, npc_decks[0], rng)
    elif n_players == 2:
        place_npcs_2p(board, (npc_decks[0], npc_decks[1]), rng)
    cards = []
    for seat in range(n_players):
        available = [o for o in ORDER_TYPES if o not in unavailable[seat]]
        cards.append(list(policy(rng, available, board)))
    failed: list[set[int]] = [set() for _ in range(n_players)]
    for k in range(ORDERS_PER_ROUND):
        for pos in range(n_players):
            seat = (start + pos) % n_players
            if board.place(cards[seat][k], f"seat {seat}") is None:
                failed[seat].add(k)
    return board, cards, failed


def simulate_order_contention(n_players: int, *, years: int = 100, seed: int = 0,
                              policy: Policy | str = "random", retry_failed: bool = False
                              ) -> ContentionResult:
    """Play ``years`` years of four order phases with the card cycles and start-player
    passing, and count, by position in the order of play and by card, how often a chosen
    order finds no slot. ``retry_failed`` returns a failed 2nd/3rd card to hand (line 91)."""
    if isinstance(policy, str):
        policy = POLICIES[policy]
    rng = random.Random(seed)
    result = ContentionResult(n_players, years * ROUNDS_PER_YEAR)
    n_npcs = {2: 2, 3: 1, 4: 0}[n_players]
    for _ in range(years):
        unavailable = [frozenset(rng.sample(ORDER_TYPES, UNAVAILABLE)) for _ in range(n_players)]
        npcs = [NpcDeck.random(rng) for _ in range(n_npcs)]
        for start in start_players(n_players, rng.randrange(n_players))[:ROUNDS_PER_YEAR]:
            board, cards, failed = order_round(n_players, unavailable, start, rng, policy, npcs)
            for seat in range(n_players):
                pos = (seat - start) % n_players
                for k in range(ORDERS_PER_ROUND):
                    result.chosen[pos, k] = result.chosen.get((pos, k), 0) + 1
                    if k in failed[seat]:
                        result.no_slot[pos, k] = result.no_slot.get((pos, k), 0) + 1
                retry = [i for i in sorted(failed[seat]) if i > 0]
                keep = retry[0] if retry_failed and retry else 0
                unavailable[seat] = retrieve_orders(cards[seat], failed[seat], keep)
    return result


def npc_workers_distribution(n_players: int) -> dict[int, Fraction]:
    """Exact distribution of the number of NPC minions on one given order type, when every
    NPC's three cards are a uniformly random 3 of 8 (as in :func:`simulate_order_contention`).

    3 players: one NPC, on the order with chance 3/8. 2 players: each NPC independently with
    chance 3/8 (an order both NPCs chose holds two NPC minions, lines 69 and 71).
    """
    p = Fraction(NPC_UNAVAILABLE, len(ORDER_TYPES))
    if n_players == 4:
        return {0: Fraction(1)}
    if n_players == 3:
        return {0: 1 - p, 1: p}
    if n_players == 2:
        return {0: (1 - p) ** 2, 1: 2 * p * (1 - p), 2: p**2}
    raise ValueError("Dungeon Lords is for 2-4 lords")


def first_card_no_slot_exact(n_players: int) -> dict[int, Fraction]:
    """Exact P(the first order card finds no slot) for each position in the order of play,
    with the random policy: each lord's first card is uniform over the 8 orders (a random 6 of
    8 are available, then a random one is picked), independently of the others.

    The lord at position ``k`` fails when the NPC minions ``c`` on their order plus the earlier
    lords who picked the same order fill all three slots: ``c + Binomial(k, 1/8) >= 3``.
    """
    q = Fraction(1, len(ORDER_TYPES))
    out = {}
    for k in range(n_players):
        total = Fraction(0)
        for c, pc in npc_workers_distribution(n_players).items():
            need = SLOTS - c
            total += pc * sum((comb(k, j) * q**j * (1 - q) ** (k - j) for j in range(need, k + 1)),
                              Fraction(0))
        out[k] = total
    return out


class DungeonLordsGame(KernelGame):
    """Dungeon Lords as a :class:`~dungeon_guilds.siblings.base.SiblingGame`."""

    key = "dungeon_lords"
    module = __name__

    # turn_sequence: KernelGame's seat order from the start player; each order card is placed
    # that way (the Dungeon Lords building notes, line 46)

    def concepts(self, n_players: int) -> dict[str, str]:
        return {"first_turns": str(self.turn_sequence(n_players)) + " (after secret orders)",
                "rounds": f"{ROUNDS_PER_YEAR * YEARS} building rounds",
                "dice": "0 (order placement)",
                "key_chance": "order finds no slot: see simulate_order_contention",
                "worst": "−3 points per unpaid tax gold"}


GAME = DungeonLordsGame()
