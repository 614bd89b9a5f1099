"""The live examples of the rule cards, worked out by the engine (issue 19).

Each example sets up a small, fully known table with :meth:`State.new` (the reference deck's
heal costs and level ranges, room fronts inside those ranges), plays legal moves with
:meth:`State.apply_action` and reads the numbers back from the state, its event log,
:func:`~dungeon_guilds.payout.split`, :func:`~dungeon_guilds.scoring.result` or
:func:`~dungeon_guilds.turn_order.snake_order`. No number here is written by hand: change a
rule in the engine and the examples change with it. Seats are 0-based (the tab shows them from
1); players are called Ann, Bo, Cy.
"""

from __future__ import annotations

from typing import Any, Sequence

from .actions import Action, bump, exhaust, place, swap
from .cards import STRENGTHS, RoomCard, reference_deck
from .events import Bonus, Heal, RoomOutcome, entries, money_flows, npc_moves, resolution_events
from .lords import Lord, get_lord
from .payout import EMPTY, NPC, split
from .rules import Rules
from .scoring import result
from .state import BUMP_FEES, DISPATCH, State, lord_numbers, strengths_of
from .turn_order import snake_order

NAMES = ("Ann", "Bo", "Cy")
NO_LORDS = Rules(lords="none")
FILLER_LORDS = ("beholder", "red_dragon", "vampire_lord", "lich_king", "guardian")


def room(level: int, which: str = "low") -> RoomCard:
    """A room card of ``level`` whose front is the low (or high) end of the ranges on its back."""
    info = reference_deck().levels[level]
    k = 0 if which == "low" else 1
    return RoomCard(level, info.defence[k], info.treasure[k])


def _lords(first: str | Sequence[str] | None, n: int) -> list:
    ids = [first] if isinstance(first, str) else list(first or ())
    ids += [x for x in FILLER_LORDS if x not in ids]
    return [get_lord(x) for x in ids[:n]]


def table(rooms: Sequence[RoomCard], needs: dict[int, Sequence[int]] | None = None, *,
          rules: Rules = NO_LORDS, lord: str | Sequence[str] | None = None,
          exhausts: dict[int, tuple[int, int]] | None = None) -> State:
    """A 3-player game after setup: ``rooms`` are the first round's rooms (the deck repeats
    them for the later rounds); ``lord`` is round 1's lord (or the lords of the rounds, in
    order); each seat exhausts ``exhausts[seat]``, else the two weakest
    adventurers not in ``needs[seat]`` (the strengths it will play in round 1)."""
    deck = reference_deck()
    per_round = rules.rooms_per_round(3)
    dealt = list(rooms)[:per_round]
    st = State.new(NAMES, dealt * 3, _lords(lord, 3), deck.levels, deck.heal_costs, rules=rules)
    needs, exhausts = needs or {}, exhausts or {}
    while st.phase != DISPATCH:
        p = st.current
        pair = exhausts.get(p) or tuple([s for s in STRENGTHS if s not in needs.get(p, ())][:2])
        st.apply_action(exhaust(*pair))
    return st


def refusal(st: State, action: Action):
    """The engine's refusal of ``action`` for the player to move (``State.refusal``: an
    ``IllegalAction`` value with its code, rule and params; ``str()`` is the English sentence),
    or None when it is legal."""
    return st.refusal(action)


def play(st: State, moves: Sequence[Action]) -> State:
    """Apply ``moves`` in turn (each for the player to move); an illegal one raises."""
    for a in moves:
        st.apply_action(a)
    return st


def play_round(st: State, picks: dict[int, tuple[int, int]]) -> None:
    """Play one dispatch: on each turn the player to move places the weaker of their two
    ``picks`` still in hand into the top room with a free slot."""
    rnd = st.round
    while st.phase == DISPATCH and st.round == rnd:
        p = st.current
        left = [s for s in sorted(picks[p]) if st.active[p] >> s & 1]
        target = next(i for i in range(st.n_rooms) if EMPTY in (st.slot(i, 0)[0], st.slot(i, 1)[0]))
        st.apply_action(place(left[0], target + 1))


# The dungeon where every room fails (R5.1): three Lv3 rooms at the top of the defence range;
# play_round puts each player's weaker pick first, so room 1 holds two adventurers of at most 4.
FAILING = (room(3, "high"),) * 3


def _gold_change(before: State, after: State) -> dict[str, int]:
    out = {NAMES[p]: after.gold[p] - before.gold[p] for p in range(3)}
    out["bank"] = after.bank_in - before.bank_in
    return out


# ---------------------------------------------------------------------- R4.4 / R4.5 / R10.2
def bump_cost(level: int) -> dict[str, Any]:
    """R4.4: Ann places 1 and Bo 2 in a Lv``level`` room; Cy replaces Bo's 2 with her 3."""
    st = play(table([room(level)] * 3, {0: (1,), 1: (2,), 2: (3,)}), [place(1, 1), place(2, 1)])
    after = play(st.copy(keep_log=False), [bump(3, 1, "b")])
    change = _gold_change(st, after)
    return {"level": level, "payer": -change["Cy"], "bank": change["bank"], "victim": change["Bo"],
            "returned_active": bool(after.active[1] >> 2 & 1)}


def swap_cost(level: int) -> dict[str, Any]:
    """R4.5: Ann places 2 in a Lv``level`` room and later replaces it with her 3."""
    st = play(table([room(level)] * 3, {0: (2, 3), 1: (1, 3), 2: (1, 2)}),
              [place(2, 1), place(1, 1), place(1, 2), place(2, 2), place(3, 3)])
    after = play(st.copy(), [swap(3, 1, "a")])
    change = _gold_change(st, after)
    return {"level": level, "payer": -change["Ann"], "bank": change["bank"], "victim": 0,
            "returned_active": bool(after.active[0] >> 2 & 1)}


def npc_cost(level: int) -> dict[str, Any]:
    """R10.2: with NPCs, Ann places 1 next to the NPC in a Lv``level`` room; Bo replaces the
    NPC with an adventurer one stronger than it."""
    st = table([room(level)] * 4, {0: (1,), 1: (level + 1,)}, rules=Rules(lords="none", npc=True))
    play(st, [place(1, 1)])
    after = play(st.copy(), [bump(level + 1, 1, "a")])
    change = _gold_change(st, after)
    return {"level": level, "payer": -change["Bo"], "bank": change["bank"], "victim": 0,
            "returned_active": False}


def replace_costs() -> dict[str, list[dict[str, Any]]]:
    """Every replacement's cost at Lv1, Lv2 and Lv3: another player's adventurer (R4.4), your
    own (R4.5), an NPC (R10.2)."""
    return {"other": [bump_cost(lv) for lv in (1, 2, 3)],
            "own": [swap_cost(lv) for lv in (1, 2, 3)],
            "npc": [npc_cost(lv) for lv in (1, 2, 3)]}


SWAP_CASES = ("stronger", "not_stronger", "locked", "not_full")


def swap_check(case: str, edition: str):
    """R4.5 / R9.1: may Ann replace her own adventurer in room 1? The engine's refusal
    (:func:`refusal`), or
    None when it is legal. ``case``: ``stronger`` (her 2 by her 3 in a full unlocked room),
    ``not_stronger`` (her 2 by her 1), ``locked`` (her 3 in a room Bo's 2 has locked, by her 4),
    ``not_full`` (her 2 alone in room 1, by her 3)."""
    rules = Rules(lords="none", edition=edition)
    if case == "locked":
        st = table([room(1)] * 3, {0: (3, 4), 1: (2, 1), 2: (1, 2)}, rules=rules)
        play(st, [place(3, 1), place(2, 1), place(1, 2), place(2, 2), place(1, 3)])
        return refusal(st, swap(4, 1, "a"))
    st = table([room(1)] * 3, {0: (1, 2, 3), 1: (1, 3), 2: (1, 2)}, rules=rules)
    if case == "not_full":  # Bo and Cy leave Ann's 2 alone in room 1
        play(st, [place(2, 1), place(1, 2), place(1, 3), place(2, 3), place(3, 2)])
    else:  # Bo's 1 beside Ann's 2: room 1 full, total 3, unlocked
        play(st, [place(2, 1), place(1, 1), place(1, 2), place(2, 2), place(3, 3)])
    if case == "not_stronger":
        return refusal(st, swap(1, 1, "a"))
    return refusal(st, swap(3, 1, "a"))


# ---------------------------------------------------------------------- R4.1 / R4.3 / R7.1
def snake(n_players: int, start: int = 0) -> list[int]:
    """R4.1: the seats of one snake cycle (0-based)."""
    return snake_order(n_players, start)


def lock(level: int, a: int, b: int, lord: str | None = None) -> dict[str, Any]:
    """R4.3 (and R7.1 with a lord): rooms Lv1, Lv2, Lv3; Ann places ``a`` in the Lv``level``
    room; if it is not locked then, Bo places ``b`` beside it; else Bo is asked whether he may
    still place in the free slot (ruling R4.3)."""
    rules = Rules(lords="all") if lord else NO_LORDS
    st = table([room(1), room(2), room(3)], {0: (a,), 1: (b,)}, rules=rules, lord=lord)
    thresholds = [st.lock_threshold(i) for i in range(3)]
    r = level  # rooms are sorted Lv1, Lv2, Lv3
    play(st, [place(a, r)])
    locked_alone = st.locked[r - 1]
    free_slot_ok = st.why_illegal(place(b, r)) is None
    play(st, [place(b, r)])
    return {"thresholds": thresholds, "threshold": st.lock_threshold(r - 1), "total": st.room_total(r - 1),
            "locked_alone": locked_alone, "locked": st.locked[r - 1], "free_slot_ok": free_slot_ok,
            "defence_change": [st.lord_defence_change(i) for i in range(3)], "levels": [c.level for c in st.rooms]}


# ---------------------------------------------------------------------- R5.2
def split_example(treasure: int, strength_a: int, strength_b: int, owner_b: str = "other"
                  ) -> dict[str, Any]:
    """R5.2 / R10.2: ``treasure`` split between Ann's ``strength_a`` and the adventurer
    ``strength_b`` of Bo (``other``), of Ann (``same``) or of an NPC (``npc``)."""
    owner = {"other": 1, "same": 0, "npc": NPC}[owner_b]
    shares, to_bank = split(treasure, [(0, strength_a), (owner, strength_b)])
    half, rest = divmod(treasure, 2)
    return {"shares": {NAMES[p]: v for p, v in shares.items()}, "bank": to_bank,
            "half": half, "remainder": rest}


def floor(level: int, which: str = "low") -> dict[str, Any]:
    """R5.3: Bigfun King (last room: defence −3, treasure −$5) over three rooms of ``level``
    whose fronts are the ``low`` or ``high`` end of the ranges: the last room's printed values
    and the values after the lord, never below 0."""
    card = room(level, which)
    st = table([card] * 3, rules=Rules(lords="all"), lord="bigfun_king")
    return {"printed": (card.defence, card.treasure), "after": (st.room_defence(2), st.room_treasure(2)),
            "change": (st.lord_defence_change(2), lord_numbers(st.lord, 3)[1][2])}


# ---------------------------------------------------------------------- R10.2 NPC moves
NPC_SCENARIOS = ("next_room", "other_level", "from_top")


def npc_move(scenario: str) -> dict[str, Any]:
    """R10.2: where a replaced NPC goes and its new strength. Rooms Lv1, Lv2, Lv3, Lv3 with
    NPCs in rooms 1 and 2. ``next_room``: the NPC of room 1 is replaced and moves down to room 2;
    ``other_level``: the NPC of room 2 moves to room 3 (a Lv3 room: strength 3);
    ``from_top``: rooms 3 and 4 are full, so the NPC of room 2 searches again from room 1."""
    rules = Rules(lords="none", npc=True)
    rooms = [room(1), room(2), room(3), room(3)]
    if scenario == "next_room":
        st = table(rooms, {0: (3,), 1: (2,)}, rules=rules)
        moves = [place(3, 1)]
        replace = bump(2, 1, "a")
    elif scenario == "other_level":
        st = table(rooms, {0: (1,), 1: (3,)}, rules=rules)
        moves = [place(1, 2)]
        replace = bump(3, 2, "a")
    elif scenario == "from_top":
        st = table(rooms, {0: (1, 4), 1: (1, 2), 2: (1, 2)}, rules=rules)
        moves = [place(1, 3), place(1, 3), place(1, 4), place(2, 4), place(2, 2)]
        replace = bump(4, 2, "a")
    else:
        raise ValueError(f"no NPC scenario {scenario!r} (scenarios: {', '.join(NPC_SCENARIOS)})")
    st.hold_resolution = True  # keep the dungeon in view after the last placement (no resolution)
    play(st, moves)
    before = [st.occupants(i) for i in range(st.n_rooms)]
    n_events = len(st.log)
    play(st, [replace])
    moved = npc_moves(st.log[n_events:])[0]
    fee = next((f.amount for f in money_flows(st.log[n_events:]) if f.kind in ("bump_fee", "swap_fee")), 0)
    return {"before": before, "after": [st.occupants(i) for i in range(st.n_rooms)],
            "levels": [c.level for c in st.rooms], "move": replace, "from_room": moved.from_room,
            "to_room": moved.to_room, "strength": moved.strength, "fee": fee}


def npc_lock() -> dict[str, Any]:
    """R10.2 + R4.3: an NPC that moves in can lock a room. Four Lv1 rooms and a Lv3 room at the
    bottom (3 players + 1, R10.2), NPCs in rooms 1 and 2. Ann's 4 waits in room 3, Bo fills
    room 2, Cy puts her 2 beside room 1's NPC, then replaces that NPC with her 3: room 1 locks
    (2 + 3), and the NPC, which moves to room 3 (room 2 is full), locks room 3 (4 + 1)."""
    rules = Rules(lords="none", npc=True)
    st = table([room(1), room(1), room(1), room(3)], {0: (4,), 1: (3,), 2: (2, 3)}, rules=rules)
    st.hold_resolution = True
    play(st, [place(4, 3), place(3, 2), place(2, 1)])
    n_events = len(st.log)
    play(st, [bump(3, 1, "a")])
    moved = npc_moves(st.log[n_events:])[0]
    locked = [e.event["room"] for e in entries(st.log, n_events) if e.kind == "locked"]
    return {"levels": [c.level for c in st.rooms], "to_room": moved.to_room, "strength": moved.strength,
            "total": st.room_total(moved.to_room - 1), "threshold": st.lock_threshold(moved.to_room - 1),
            "locked": locked, "rooms": st.n_rooms}


def npc_succubus() -> dict[str, Any]:
    """R10.2 + R7.5: under the Succubus, the NPC of the Lv1 room 1 has strength 1 and stays
    (her ban stops players placing or replacing with a 1, not an NPC); Ann's own 1 is refused."""
    st = table([room(1), room(1), room(2), room(3)], {0: (1, 2)}, rules=Rules(lords="base", npc=True),
               lord="succubus", exhausts={0: (4, 5)})
    return {"room_1": st.occupants(0), "npc_strength": st.occupants(0)[0][1] if st.occupants(0) else None,
            "ann_places_1": refusal(st, place(1, 3)), "rooms": st.n_rooms,
            "npc_rooms": [i + 1 for i in range(st.n_rooms) if any(o == NPC for o, _ in st.occupants(i))]}


# ---------------------------------------------------------------------- R10.1 teams
TEAM_NAMES = ("Ann", "Bo", "Cy", "Di")  # 2v2: Ann + Cy against Bo + Di (partners opposite)
# a whole 2v2 game in a dungeon where every room fails: the picks of each round, seat by seat
TEAM_GAME = ({0: (3, 5), 1: (4, 5), 2: (3, 5), 3: (3, 5)}, {0: (2, 4), 1: (1, 3), 2: (1, 2), 3: (2, 4)},
             {0: (1, 3), 1: (2, 5), 2: (4, 5), 3: (1, 5)}, {0: (2, 5), 1: (1, 4), 2: (1, 2), 3: (3, 4)})


def _team_table(rooms: Sequence[RoomCard], exhausts: dict[int, tuple[int, int]]) -> State:
    deck = reference_deck()
    st = State.new(TEAM_NAMES, list(rooms) * 4, _lords(None, 4), deck.levels, deck.heal_costs,
                   rules=Rules(lords="none", teams="2v2"))
    while st.phase != DISPATCH:
        st.apply_action(exhaust(*exhausts[st.current]))
    return st


def team_partner_bump() -> dict[str, Any]:
    """R10.1 + R4.4: in a Lv2 room Ann's 4 replaces her partner Cy's 3. Ann pays $1 to the bank
    and $1 to Cy: Ann −$2, Cy +$1, the team −$1 (the bank's dollar)."""
    st = _team_table([room(2)] * 4, {0: (2, 3), 1: (4, 5), 2: (1, 2), 3: (3, 4)})
    st.hold_resolution = True
    play(st, [place(1, 1), place(2, 2), place(3, 2), place(1, 3), place(2, 3), place(4, 4), place(3, 1)])
    before = st.gold[:]
    play(st, [bump(4, 2, "b")])
    change = [after - b for b, after in zip(before, st.gold)]
    return {"team": list(st.team), "change": change, "team_change": change[0] + change[2],
            "bank": BUMP_FEES[2][0], "partner": BUMP_FEES[2][1]}


def team_result() -> dict[str, Any]:
    """R10.1 + R8.1: :data:`TEAM_GAME` played to the end: the teams' summed gold ties, so the
    teams' summed strengths of active adventurers not played in the last round decide."""
    st = _team_table(FAILING + (room(3, "high"),), {p: (1, 2) for p in range(4)})
    for picks in TEAM_GAME:
        play_round(st, picks)
    res = result(st)
    return {"gold": list(res.gold), "team_gold": list(res.team_gold), "unplayed": [strengths_of(m) for m in st.unplayed],
            "team_tiebreak": list(res.team_tiebreak), "winners": [TEAM_NAMES[s] for s in res.winners]}


# ---------------------------------------------------------------------- R2.4 / R6.1 / R8.1
def setup_gold(pair: tuple[int, int], guardian: bool = False) -> dict[str, Any]:
    """R2.4: Ann exhausts ``pair`` at setup (the Guardian as round 1's lord or no lord)."""
    rules = Rules(lords="base") if guardian else NO_LORDS
    st = table(FAILING, rules=rules, lord="guardian", exhausts={0: tuple(sorted(pair))})
    gain = next(f.amount for f in money_flows(st.log) if f.kind == "exhaust" and f.target == 0)
    return {"gain": gain, "gold": st.gold[0], "printed": [st.base_heal[s] for s in pair],
            "round_heal": [st.heal_cost(s) for s in pair]}


def heal(exhausted: tuple[int, int], placed: tuple[int, int], guardian: bool = False) -> dict[str, Any]:
    """R6.1: Ann exhausts ``exhausted`` at setup and places ``placed``; every room fails
    (room 1 is too hard), so she pays the heal costs of both, never going below $0."""
    rules = Rules(lords="base") if guardian else NO_LORDS
    st = table(FAILING, rules=rules, lord="guardian", exhausts={0: tuple(sorted(exhausted)),
                                                                1: (4, 5), 2: (4, 5)})
    gold_before = st.gold[0]
    costs = {s: st.heal_cost(s) for s in placed}  # this round's heal costs (the lord's change in)
    n = len(st.log)
    play_round(st, {0: placed, 1: (1, 2), 2: (1, 3)})
    events = resolution_events(st.log[n:])
    healed = [e for e in events if isinstance(e, Heal) and e.player == 0]
    cost = healed[0].cost if healed else 0
    paid = healed[0].paid if healed else 0
    return {"gold_before": gold_before, "cost": cost, "paid": paid, "dropped": cost - paid,
            "gold_after": st.gold[0], "costs": costs,
            "failed": [e.room for e in events if isinstance(e, RoomOutcome) and not e.cleared]}


def tiebreak(kept: Sequence[int]) -> dict[str, Any]:
    """R8.1: a whole 3-player game in a dungeon where every room fails, so everyone ends with
    the same gold; in the last round player ``p`` keeps ``kept[p]`` (3, 4 or 5) in hand."""
    st = table(FAILING, exhausts={0: (1, 2), 1: (1, 2), 2: (1, 2)})
    play_round(st, {p: (3, 4) for p in range(3)})
    play_round(st, {p: (1, 2) for p in range(3)})
    play_round(st, {p: tuple(s for s in (3, 4, 5) if s != kept[p]) for p in range(3)})
    res = result(st)
    return {"gold": list(res.gold), "unplayed": [strengths_of(m) for m in st.unplayed],
            "tiebreak": list(res.tiebreak), "winners": [NAMES[s] for s in res.winners]}


# ---------------------------------------------------------------------- lords
def boardgame(picks: dict[int, tuple[int, int]]) -> dict[str, Any]:
    """R7.3: the Boardgame Lord; each player places ``picks[p]``; the events of resolution in
    order (the bonus comes first, as resolution starts)."""
    st = table(FAILING, rules=Rules(lords="all"), lord="boardgame_lord",
               exhausts={p: tuple(s for s in STRENGTHS if s not in picks[p])[:2] for p in range(3)})
    gold = st.gold[:]
    n = len(st.log)
    play_round(st, picks)
    events = [e for e in entries(st.log, n) if e.kind in ("bonus", "revealed", "cleared", "failed", "healed")]
    return {"totals": [sum(picks[p]) for p in range(3)], "gold_before": gold,
            "bonus": {NAMES[e.player]: e.gold for e in resolution_events(st.log[n:]) if isinstance(e, Bonus)},
            "events": events, "names": NAMES}


def caveman(picks: dict[int, tuple[int, int]]) -> dict[str, Any]:
    """R7.2: the Caveman is round 2's lord. Round 1 is played with ``picks``; the hands at the
    start of round 2 with the lord's effects on and with them off."""
    hands = {}
    for on in (True, False):
        rules = Rules(lords="all") if on else NO_LORDS
        st = table(FAILING, rules=rules, lord=("beholder", "caveman", "red_dragon"),
                   exhausts={p: (1, 2) for p in range(3)})
        play_round(st, picks)
        hands[on] = ([strengths_of(m) for m in st.active], [strengths_of(m) for m in st.exhausted])
    return {"with": hands[True], "without": hands[False]}


def succubus() -> dict[str, Any]:
    """R7.5: the Succubus is the lord; Ann tries to place her 1, and to place her 2."""
    st = table([room(1)] * 3, {0: (1, 2)}, rules=Rules(lords="base"), lord="succubus",
               exhausts={0: (4, 5)})
    return {"place_1": refusal(st, place(1, 1)), "place_2": refusal(st, place(2, 1))}


def lord_rooms(lord: Lord | str, n_rooms: int) -> dict[str, Any]:
    """A lord's numbers (a :class:`Lord`, or a printed lord's id) in a dungeon of ``n_rooms``
    rooms (the engine's ``lord_numbers``)."""
    d_def, d_tr, cond, ban, heal_delta, bonus = lord_numbers(
        lord if isinstance(lord, Lord) else get_lord(lord), n_rooms)
    return {"defence": list(d_def), "treasure": list(d_tr),
            "equal": [(i + 1, d, t) for i, d, t in cond], "ban": strengths_of(ban),
            "heal": {s: heal_delta[s] for s in STRENGTHS if heal_delta[s]}, "bonus": bonus}


__all__ = ["NAMES", "NPC_SCENARIOS", "SWAP_CASES", "boardgame", "bump_cost", "caveman", "floor", "heal", "lock",
           "lord_rooms", "npc_cost", "npc_lock", "npc_move", "npc_succubus", "play", "play_round", "refusal", "replace_costs", "room", "setup_gold",
           "snake", "split_example", "succubus", "swap_check", "swap_cost", "table", "team_partner_bump", "team_result",
           "tiebreak"]
