"""Exact probabilities from what a player knows: will a room clear, what is a move worth?

A room's back shows its level; its front (exact defence and treasure) stays hidden until
resolution (R1.2, R5.1). Every card nobody has seen yet is equally likely to be the front of a
room of its level, so the chance that a room clears is a count:

    P(clear) = (# unseen cards of the room's level whose defence, after the lord, is at most
                the room's total strength) / (# unseen cards of that level)

The lord's change to a room's defence is read from the engine (the lock threshold a player sees
moves with the defence, ruling R7.1); nothing here restates a rule the engine already has.

:func:`action_values` goes one step further: for each legal move of the player to move it
asks the engine for the dungeon the move would leave (fees paid, rooms locked, resolution held
back), then adds up, exactly over every way the hidden fronts can fall, the gold that player
would hold after this round's resolution and cleanup *if nobody moved again*: treasure shares
(R5.2, by the engine's :func:`~dungeon_guilds.payout.split`), the cascade of failures (R5.1),
heal costs (R6.1, never below $0) and lord bonuses. It is a myopic hint, the quantity the
``greedy`` bot maximises; later moves by anyone can change it.
"""

from __future__ import annotations

import itertools
from fractions import Fraction
from typing import Sequence

from ..actions import Action
from ..cards import RoomCard
from ..events import Bonus, resolution_events
from ..payout import EMPTY, split
from ..state import OVER, SETUP, State, beats
from .knowledge import pending_after

__all__ = ["action_values", "clear_probabilities", "clear_probability", "clear_table", "RoundModel"]

def _as_view(view_or_state, player: int | None = None):
    if isinstance(view_or_state, State):
        st = view_or_state
        return st.view(st.current if player is None else player)
    return view_or_state


def _room_total(room) -> int:
    return sum(slot[1] for slot in room.slots if slot is not None)


def clear_probability(view_or_state, room_index: int, total: int | None = None) -> Fraction:
    """The exact chance that room ``room_index`` (0-based: 0 is the top room) clears.

    ``view_or_state`` is a :class:`~dungeon_guilds.view.PlayerView` or a ``State`` (whose
    public part is used: every player knows the same unseen cards). ``total`` is the total
    strength to test; by default the strength now in the room (NPCs included). The lord's
    defence change is the engine's for the room as it stands; to ask about a room after a
    move, use :func:`clear_probability_after` (a conditional lord may then change it).
    """
    view = _as_view(view_or_state)
    room = view.rooms[room_index]
    if total is None:
        total = _room_total(room)
    delta = room.defence_change  # the engine's lord change (§7, R7.1)
    cards = [c for c in view.unseen if c.level == room.level]
    if not cards:
        raise ValueError(f"no unseen card of level {room.level}: the deck does not match the game")
    ok = sum(1 for c in cards if beats(total, c.defence + delta))  # the engine's R5.1
    return Fraction(ok, len(cards))


def clear_probability_after(state: State, player: int, action: Action) -> Fraction:
    """The chance that the room a move puts an adventurer into clears, as ``player`` sees it:
    the engine applies the move on a copy (:meth:`State.after`) and the room is read there."""
    return clear_probability(state.after(action).view(player), action.room - 1)


def _beats(state, i: int, defence: int) -> bool:
    """Whether room ``i`` as it stands beats a front of this printed ``defence`` (the engine's
    rule, :func:`~dungeon_guilds.state.beats`, after the lord's change)."""
    return beats(state.room_total(i), defence + state.lord_defence_change(i))


def _ways(allowed: Sequence[int]) -> int:
    ways = 1
    for q, a in enumerate(sorted(allowed)):
        if a - q <= 0:
            return 0
        ways *= a - q
    return ways


def _falling(m: int, j: int) -> int:
    out = 1
    for q in range(j):
        out *= m - q
    return out


def clear_probabilities(game_or_state) -> list[tuple[Fraction, Fraction]]:
    """Per room, top first: (P(the room beats its defence), P(the room is cleared)).

    A room's front is a uniformly random card among the unseen cards of its level, the rooms
    of one level drawing without replacement from the same pool; the defence is the engine's
    (printed defence plus the lord's change, R5.3) and a room is beaten when its strength
    reaches it (R5.1). For the rooms of one level each room ``r`` allows ``a_r`` cards; the
    sets are nested, so the ways to deal all of them allowed cards is the product of
    ``a_(q) - q`` over the rooms sorted by ``a``, out of ``m (m-1) ...``; levels draw from
    disjoint pools. The result is exact.

    After the game (the last rooms revealed) the fronts are known and the values are 0 or 1.
    """
    state = getattr(game_or_state, "state", game_or_state)
    k = len(state.rooms)
    if state.phase == OVER:
        alone = [Fraction(int(_beats(state, i, state.rooms[i].defence))) for i in range(k)]
        out, reach = [], Fraction(1)
        for a in alone:
            reach *= a
            out.append((a, reach))
        return out
    pools: dict[int, list] = {}
    for card in state.unseen_cards():
        pools.setdefault(card.level, []).append(card)
    allowed = []
    for i, room in enumerate(state.rooms):
        pool = pools.get(room.level, [])
        allowed.append(sum(1 for c in pool if _beats(state, i, c.defence)))
    out = []
    for i in range(k):
        m = len(pools.get(state.rooms[i].level, []))
        alone = Fraction(allowed[i], m) if m else Fraction(0)
        cleared = Fraction(1)
        for level, pool in pools.items():
            rooms = [j for j in range(i + 1) if state.rooms[j].level == level]
            if not rooms:
                continue
            total = _falling(len(pool), len(rooms))
            cleared *= Fraction(_ways([allowed[j] for j in rooms]), total) if total else 0
        if any(not pools.get(state.rooms[j].level) for j in range(i + 1)):
            cleared = Fraction(0)
        out.append((alone, cleared))
    return out


def clear_table(view_or_state, room_index: int, totals=range(0, 11)) -> dict[int, Fraction]:
    """``{total: P(clear)}`` for a room: how the chance grows with the strength put in it."""
    view = _as_view(view_or_state)
    return {t: clear_probability(view, room_index, t) for t in totals}


class RoundModel:
    """The hidden part of the current round as one player sees it, ready to value dungeons.

    Built once per round (:meth:`of` keeps the models of the last few rounds): the unseen
    cards by level (with counts), and for every room and every front its level could show, the
    room's defence and treasure after the lord as the engine gives them
    (:meth:`State.room_defence`, :meth:`State.room_treasure` on copies whose fronts are set by
    :meth:`State.with_fronts`). A lord whose change depends on the adventurers in a room
    (``state.cond_mods``, e.g. the Naughty Kid) is asked again for each dungeon valued.

    Valuing is incremental: a room's outcome row (does each front clear, the player's share of
    each treasure, the player's heal cost there) is worked out once per room content and
    player, and kept for the round. It is exact: a row is cached on every input it reads.
    """

    def __init__(self, state: State, view=None, unseen=None):
        # the public facts a view shows: the rooms' backs, the cards not seen, the deck left
        if view is not None:
            unseen, deck_left = view.unseen, view.deck_left
        else:
            unseen = state.unseen_cards() if unseen is None else unseen
            deck_left = len(state.deck) - state.deck_pos
        self.levels = [card.level for card in state.rooms]
        kinds: dict[int, dict[RoomCard, int]] = {}
        for card in unseen:
            d = kinds.setdefault(card.level, {})
            d[card] = d.get(card, 0) + 1
        self.kinds = {lv: list(d.items()) for lv, d in kinds.items()}
        self._filler = list(unseen)[:deck_left]
        self._fixed = None if state.cond_mods else self.room_values(state)
        self._rows: dict[tuple, tuple] = {}
        self._by_dungeon: dict[tuple, tuple] = {}
        k = len(self.levels)
        self._last_of_level = [lv not in self.levels[i + 1:] for i, lv in enumerate(self.levels)]
        self._fresh = [lv not in self.levels[:i] for i, lv in enumerate(self.levels)]
        # blocks: runs of rooms after which no level of the runs above comes again
        cuts = [i for i in range(k) if not set(self.levels[i:]) & set(self.levels[:i])] + [k]
        self._block_bounds = list(zip(cuts, cuts[1:]))
        self._block_of = [b for b, (lo, hi) in enumerate(self._block_bounds) for _ in range(lo, hi)]
        self._blocks: dict[tuple, tuple] = {}
        self._counts = {lv: [c for _, c in kl] for lv, kl in self.kinds.items()}
        self._sizes = {lv: sum(c) for lv, c in self._counts.items()}
        self._k = k
        # what a room's row reads besides its occupants, as one number per room: its level,
        # the numbers (defence, treasure) each unseen kind would give it and the kinds' counts.
        # Rows are shared by it across rounds and games (see _ROWS).
        self._sig = None if self._fixed is None else [
            _intern(_SIGS, (lv, tuple(self._fixed[0][i]), tuple(self._fixed[1][i]),
                            tuple(self._counts[lv])))
            for i, lv in enumerate(self.levels)]

    # ------------------------------------------------------------------ the cache of models
    @classmethod
    def of(cls, state: State, view=None) -> "RoundModel":
        """The model of ``state``'s round. A model depends only on public facts: the cards not
        seen yet, the rooms' levels, the lord and whether lord effects are on, the printed heal
        costs and the size of the deck left. The last few states' models are found by identity
        (same card list, same cards seen); otherwise a model with the same facts, from this
        game or another one, is reused (many games share their first round's facts)."""
        for fast, model in _RECENT:
            if _same_round(fast, state):
                return model
        unseen = tuple(state.unseen_cards())
        facts = _facts(state, unseen)
        model = _SHARED.get(facts)
        if model is None:
            model = cls(state, view, unseen)
            if len(_SHARED) >= _SHARED_KEPT:
                _SHARED.pop(next(iter(_SHARED)))  # the oldest
            _SHARED[facts] = model
        _RECENT.insert(0, (_fast_key(state), model))
        del _RECENT[_RECENT_KEPT:]
        return model

    # ------------------------------------------------------------------ per front
    def room_values(self, st: State) -> tuple[list[list[int]], list[list[int]]]:
        """``(defence, treasure)``: ``defence[i][t]`` is room ``i``'s defence after the lord if
        its front is the ``t``-th unseen kind of its level (likewise treasure), from the engine."""
        levels = self.levels
        defence = [[0] * len(self.kinds[lv]) for lv in levels]
        treasure = [[0] * len(self.kinds[lv]) for lv in levels]
        for j in range(max(len(self.kinds[lv]) for lv in levels)):
            fronts = [self.kinds[lv][min(j, len(self.kinds[lv]) - 1)][0] for lv in levels]
            probe = st.with_fronts(fronts, self._filler)
            for i, lv in enumerate(levels):
                if j < len(self.kinds[lv]):
                    defence[i][j] = probe.room_defence(i)
                    treasure[i][j] = probe.room_treasure(i)
        return defence, treasure

    def bonus(self, after: State) -> list[int]:
        """Gold each player gains as resolution starts (a lord's bonus), asked of the engine:
        its resolution runs on a copy and the bonus events of its log are read."""
        gains = [0] * after.n
        if not after.bonus:
            return gains
        fronts = [self.kinds[lv][0][0] for lv in self.levels]
        probe = after.with_fronts(fronts, self._filler)
        for event in resolution_events(probe.preview_resolution()):
            if isinstance(event, Bonus):
                gains[event.player] += event.gold
        return gains

    def _dungeon(self, after: State, dungeon: tuple) -> tuple:
        """What a dungeon (its slots) fixes for every player: the bonus gains and the per-front
        values (the latter only for a conditional lord). Cached per dungeon."""
        hit = self._by_dungeon.get(dungeon)
        if hit is None:
            values = self._fixed or self.room_values(after)
            hit = self._by_dungeon[dungeon] = (self.bonus(after), values)
        return hit

    def _row(self, after: State, i: int, player: int, values) -> tuple:
        """Room ``i``'s outcome row for ``player``: per unseen kind of its level, whether the
        room clears (the engine's R5.1) and the player's share of the treasure (R5.2, the
        engine's ``split``); the player's heal cost if it fails (R6.1); and, merged over the
        kinds, ``{share: cards}`` of the clearing fronts and the number of failing fronts.

        When the lord's numbers are fixed for the round, a row is found by what it reads: the
        room's signature (level, each kind's numbers there, the kinds' counts), its total, the
        player's place among its occupants and the player's heal cost there. Rounds and games
        with the same facts share it (:data:`_ROWS`)."""
        if self._fixed is None:
            return self._new_row(after, i, player, values)
        a = 2 * i
        owner, strength = after.slot_owner, after.slot_str
        o1, s1, o2, s2 = owner[a], strength[a], owner[a + 1], strength[a + 1]
        key = (i, player, o1, s1, o2, s2)
        row = self._rows.get(key)
        if row is None:
            if o1 != player != o2:
                # the engine's split pays only a room's occupants: a room without the player's
                # adventurers gives it nothing, and its row depends on its total alone
                shared = (self._sig[i], s1 + s2)
            else:
                shared = (self._sig[i], s1 + s2, o1 == player, s1, o2 == player, s2,
                          o1 == EMPTY, o2 == EMPTY,
                          sum(after.heal_cost(s) for o, s in after.occupants(i) if o == player))
            row = _ROWS.get(shared)
            if row is None:
                if len(_ROWS) >= _ROWS_KEPT:
                    _forget_rows()
                row = _ROWS[shared] = self._new_row(after, i, player, values)
            self._rows[key] = row
        return row

    def _new_row(self, after: State, i: int, player: int, values) -> tuple:
        """The row itself (see :meth:`_row`), interned by content when the lord's numbers
        are fixed for the round (with a serial number last, by which blocks are cached)."""
        a = 2 * i
        strength = after.slot_str
        total = strength[a] + strength[a + 1]  # as State.room_total
        occ = after.occupants(i)
        defence, treasure = values
        clears = [beats(total, d) for d in defence[i]]  # the engine's R5.1
        if occ:
            occ_key = tuple(occ)
            shares = []
            for t in treasure[i]:
                split_key = (t, occ_key)
                got = _SPLITS.get(split_key)
                if got is None:
                    got = _SPLITS[split_key] = split(t, occ)[0]
                shares.append(got.get(player, 0))
        else:
            shares = [0] * len(treasure[i])
        cost = sum(after.heal_cost(s) for o, s in occ if o == player)
        counts = self._counts[self.levels[i]]
        merged: dict[int, int] = {}
        fail = 0
        for t, c in enumerate(counts):
            if clears[t]:
                merged[shares[t]] = merged.get(shares[t], 0) + c
            else:
                fail += c
        if self._fixed is None:
            return (clears, shares, cost, tuple(merged.items()), fail)
        # rows with equal contents are one row (e.g. any room without the player's
        # adventurers and with the same total at a level): blocks are then cached by row ids
        content = (self.levels[i], tuple(counts), tuple(clears), tuple(shares), cost)
        row = _INTERNED.get(content)
        if row is None:
            row = _INTERNED[content] = (clears, shares, cost, tuple(merged.items()), fail,
                                        next(_SERIAL))
        return row

    # ------------------------------------------------------------------ the value
    def expected_gold(self, after: State, player: int) -> float:
        """The expected gold of ``player`` after this round's cleanup, if the dungeon stays as
        ``after`` has it (exact over the hidden fronts).

        Rooms of one level draw their fronts without replacement, so they form a block walked
        front by front (:meth:`_block`): the chance of each way the block ends (cleared with
        so much gained, or failed at a room with so much gained before it). Blocks of
        different levels are independent; they are chained here, top block first, each
        failure paying the heal costs of the failed rooms (R5.1, R6.1 never below $0)."""
        base = after.gold[player]
        fixed = values = self._fixed
        if values is None or after.bonus:  # the lord's numbers depend on the dungeon
            gains, values = self._dungeon(after, (tuple(after.slot_owner), tuple(after.slot_str)))
            base += gains[player]
        parts = [self._part(after, player, values, b) for b in range(len(self._block_bounds))]
        if values is not fixed:
            return self._chain(parts, base)
        # the blocks' outcomes are shared objects: equal parts and gold, equal value (a
        # decision's moves share all blocks but one, and many dungeons recur in a round)
        return _chained(self, parts, base)

    def _part(self, after: State, player: int, values, b: int) -> tuple:
        """Block ``b``'s outcomes for ``player``: (cleared: [(gained, chance)], failed:
        [(room, gained, chance)], the player's heal cost per room), cached by the block's slots
        and, through the rows, by its rooms' contents when the lord's numbers are fixed."""
        lo, hi = self._block_bounds[b]
        fixed = values is self._fixed
        owner, strength = after.slot_owner, after.slot_str
        key = (lo, player, *owner[2 * lo:2 * hi], *strength[2 * lo:2 * hi])
        part = self._blocks.get(key) if fixed else None
        if part is not None:
            return part
        rows: list = [None] * self._k
        for i in range(lo, hi):
            rows[i] = self._row(after, i, player, values)
        if not fixed:
            return self._walked(rows, lo, hi)
        part = self._blocks[key] = self._part_of_rows(rows, lo, hi)
        return part

    def _part_of_rows(self, rows: list, lo: int, hi: int) -> tuple:
        """A block's outcomes from its rooms' rows (fixed lord numbers): equal rows, equal
        outcomes, in any round or game (the rows carry the level and the kinds' counts the
        walk reads), so one walk per rows' serial numbers."""
        by_rows = (lo, *[rows[i][5] for i in range(lo, hi)])
        part = _BLOCKS.get(by_rows)
        if part is None:
            if len(_BLOCKS) >= _BLOCKS_KEPT:
                _forget_rows()
            part = _BLOCKS[by_rows] = self._walked(rows, lo, hi)
        return part

    def _walked(self, rows: list, lo: int, hi: int) -> tuple:
        """A block's outcomes, walked (:meth:`_block`), in the form the chaining reads."""
        outcomes = self._block(rows, lo, hi)
        return ([(gb, q) for (j, gb), q in outcomes if j == hi],  # the block cleared
                [(j, gb, q) for (j, gb), q in outcomes if j != hi],  # room j failed
                [rows[i][2] for i in range(lo, hi)],
                next(_SERIAL),  # what the chaining's cache knows the part by
                sum(rows[i][2] for i in range(lo, hi)))  # the player's heal costs in it

    def move_values(self, state: State, player: int, afters: list[State]) -> list[float]:
        """:meth:`expected_gold` of each of ``afters``, the dungeons one decision's moves
        leave (``state`` before the move). The moves share every block but the one whose slots
        they change: those blocks' outcomes are looked up once, from ``state``."""
        fixed = self._fixed
        if fixed is None or state.bonus:
            return [self.expected_gold(after, player) for after in afters]
        so, ss = state.slot_owner, state.slot_str
        k = self._k
        rows = [self._row(state, i, player, fixed) for i in range(k)]
        bounds = self._block_bounds
        before = [self._part_of_rows(rows, lo, hi) for lo, hi in bounds]
        block_of = self._block_of
        out = []
        for after in afters:
            if after.bonus:
                out.append(self.expected_gold(after, player))
                continue
            ao, as_ = after.slot_owner, after.slot_str
            parts = before
            if ao != so or as_ != ss:
                # only the rooms the move changed get new rows, only their blocks new parts
                parts = before[:]
                moved = rows[:]
                changed = set()
                for i in range(k):
                    a = 2 * i
                    if ao[a] != so[a] or as_[a] != ss[a] or ao[a + 1] != so[a + 1] \
                            or as_[a + 1] != ss[a + 1]:
                        moved[i] = self._row(after, i, player, fixed)
                        changed.add(block_of[i])
                for b in changed:
                    parts[b] = self._part_of_rows(moved, *bounds[b])
            out.append(_chained(self, parts, after.gold[player]))
        return out

    def _chain(self, parts: list, base: int) -> float:
        """The expected gold from the blocks' outcomes, top block first (R5.1 cascade, R6.1
        heal costs never taking gold below $0)."""
        return base + self._gain(parts, base)

    def _gain(self, parts: list, base: int) -> float:
        """:meth:`_chain` less ``base``: the expected change of the player's gold. ``base``
        matters only through R6.1's floor, so never once it covers every heal cost."""
        k = self._k
        cost = [0] * (k + 1)  # the player's heal costs from room i down (R6.1)
        i = k
        for _, _, costs, _, _ in reversed(parts):
            for c in reversed(costs):
                i -= 1
                cost[i] = c + cost[i + 1]
        alive = {0: 1.0}  # gold gained so far -> chance that every room so far cleared
        total = 0.0
        for cleared, failed, _, _, _ in parts:
            for g, p in alive.items():
                for j, gb, q in failed:
                    have = base + g + gb
                    pay = cost[j] if cost[j] <= have else have  # R6.1 never below $0
                    total += p * q * (g + gb - pay)
            if len(alive) == 1:
                (g, p), = alive.items()
                alive = {g + gb: p * q for gb, q in cleared}  # gb values differ within a block
            else:
                nxt: dict[int, float] = {}
                for g, p in alive.items():
                    for gb, q in cleared:
                        nxt[g + gb] = nxt.get(g + gb, 0.0) + p * q
                alive = nxt
        for g, p in alive.items():
            total += p * g
        return total

    def _room_alone(self, rows: list[tuple], lo: int) -> tuple:
        """:meth:`_block` of one room with no other room of its level."""
        n_left = self._sizes[self.levels[lo]]
        merged, fail = rows[lo][3], rows[lo][4]
        out = [((lo + 1, share), c / n_left) for share, c in merged]
        if fail:
            out.append(((lo, 0), fail / n_left))
        return tuple(out)

    def _block(self, rows: list[tuple], lo: int, hi: int) -> tuple:
        """How rooms ``lo``..``hi``-1 (a block: no level shared with the rest) can end, over
        every way the unseen fronts fall on them: ``((room, gained), chance)`` pairs, ``room``
        the first room that fails (``hi``: none) and ``gained`` the player's shares of the
        rooms cleared before it. A room with no later room of its level merges the fronts that
        give the same share."""
        levels = self.levels
        if hi == lo + 1:  # a room alone at its level: its merged row is the answer
            return self._room_alone(rows, lo)
        last_of_level = self._last_of_level
        fresh = self._fresh
        counts = {lv: self._counts[lv][:] for lv in set(levels[lo:hi])}
        left = {lv: self._sizes[lv] for lv in counts}
        out: dict[tuple[int, int], float] = {}

        def walk(i: int, prob: float, gained: int) -> None:
            if i == hi:
                out[(hi, gained)] = out.get((hi, gained), 0.0) + prob
                return
            lv = levels[i]
            n_left = left[lv]
            row = rows[i]
            fail = 0
            if last_of_level[i]:  # no later room of this level: merge equal outcomes
                if fresh[i]:  # nor an earlier one: the merged row holds
                    merged, fail = row[3], row[4]
                else:
                    row_c, row_s = row[0], row[1]
                    m: dict[int, int] = {}
                    for t, c in enumerate(counts[lv]):
                        if c:
                            if row_c[t]:
                                m[row_s[t]] = m.get(row_s[t], 0) + c
                            else:
                                fail += c
                    merged = m.items()
                for share, c in merged:
                    walk(i + 1, prob * c / n_left, gained + share)
            else:
                cnt = counts[lv]
                row_c, row_s = row[0], row[1]
                left[lv] = n_left - 1
                for t, c in enumerate(cnt):
                    if not c:
                        continue
                    if row_c[t]:
                        cnt[t] = c - 1
                        walk(i + 1, prob * c / n_left, gained + row_s[t])
                        cnt[t] = c
                    else:
                        fail += c
                left[lv] = n_left
            if fail:
                out[(i, gained)] = out.get((i, gained), 0.0) + prob * fail / n_left

        walk(lo, 1.0, 0)
        return tuple(out.items())


def _intern(table: dict, value) -> int:
    """A serial number for ``value``, the same for equal values while ``table`` keeps it."""
    got = table.get(value)
    if got is None:
        got = table[value] = next(_SERIAL)
    return got


def _chained(model: RoundModel, parts: list, base: int) -> float:
    """:meth:`RoundModel._chain`, cached by the blocks' outcomes (their serial numbers) and the
    gold, in any round or game (a decision's moves share all blocks but one, and many dungeons
    recur). The gold counts only up to the player's heal costs in the dungeon: with at least
    that much, R6.1's floor never binds (shares are never negative), so the gain is the same."""
    costs = 0
    for part in parts:
        costs += part[4]
    floor = base if base < costs else costs
    key = (floor, *[part[3] for part in parts])
    gain = _CHAINS.get(key)
    if gain is None:
        if len(_CHAINS) >= _CHAINS_KEPT:
            _CHAINS.clear()
        gain = _CHAINS[key] = model._gain(parts, floor)
    return base + gain


def clear_caches() -> None:
    """Forget every cached round model, row, block and chain value of this process (to free
    memory, or to value a state cold in a test); answers do not change, only their speed."""
    _forget_rows()
    _CHAINS.clear()
    _SPLITS.clear()
    _RECENT.clear()
    _SHARED.clear()


def _forget_rows() -> None:
    """Empty the shared row and block caches (serial numbers are never reused, so what models
    still hold stays valid; they are only not found again by content)."""
    _ROWS.clear()
    _INTERNED.clear()
    _BLOCKS.clear()
    _SIGS.clear()


# Caches shared by every round model of the process (rows, blocks and chains are pure
# functions of their keys; serial numbers from one counter identify rows, blocks and rooms'
# signatures). Sizes are capped: a long run forgets and rebuilds.
_SERIAL = itertools.count()
_SIGS: dict[tuple, int] = {}  # a room's (level, numbers per kind, kinds' counts) -> serial
_ROWS: dict[tuple, tuple] = {}  # (signature, total, the player's place, heal cost) -> row
_INTERNED: dict[tuple, tuple] = {}  # row contents -> the row (serial last)
_BLOCKS: dict[tuple, tuple] = {}  # (first room, rows' serials) -> the block's outcomes
_CHAINS: dict[tuple, float] = {}  # (gold, blocks' serials) -> expected gold
# about 100 MB at most together (measured: 2,000 four-greedy games left 263,000 chain values,
# 74,000 blocks and 26,000 rows, 107 MB); a dashboard kernel's Lab stays well inside that
_ROWS_KEPT = 100_000
_BLOCKS_KEPT = 100_000
_CHAINS_KEPT = 200_000

_RECENT: list[tuple[tuple, RoundModel]] = []  # (fast key, model) of the last states seen
_RECENT_KEPT = 8
_SHARED: dict[tuple, RoundModel] = {}  # public facts -> model, across games
_SHARED_KEPT = 256
_SPLITS: dict[tuple, dict[int, int]] = {}  # (treasure, occupants) -> the engine's split (R5.2)


def _fast_key(st: State) -> tuple:
    """What identifies a round cheaply: the same card-list object and the same cards seen."""
    return (st.cards, list(st.seen), st.lord, st.effects_on, st.base_heal,
            len(st.deck) - st.deck_pos, [c.level for c in st.rooms])


def _same_round(key: tuple, st: State) -> bool:
    cards, seen, lord, effects_on, base_heal, deck_left, room_levels = key
    return (st.cards is cards and st.lord is lord and st.effects_on == effects_on
            and st.base_heal is base_heal and len(st.deck) - st.deck_pos == deck_left
            and st.seen == seen and [c.level for c in st.rooms] == room_levels)


def _facts(st: State, unseen: tuple) -> tuple:
    """Every public fact a round model reads, by value."""
    return (unseen, st.lord, st.effects_on, tuple(st.base_heal),
            len(st.deck) - st.deck_pos, tuple(c.level for c in st.rooms))


def action_values(state: State, player: int | None = None, view=None,
                  legal=None) -> dict[Action, float]:
    """Expected gold this round of each legal action of the player to move, from that player's
    knowledge: the gold the player would gain (or lose) by the end of this round's cleanup if
    nobody moved after this action. At setup it is the exhaust pair's gold (R2.4). ``legal``:
    the legal actions, if the caller has them already."""
    p = state.current if player is None else player
    if p != state.current:
        raise ValueError(f"seat {p} is not to move (seat {state.current} is)")
    if legal is None:
        legal = state.legal_actions()
    if state.phase == SETUP:
        return {a: float(pending_after(state, a).gold[p] - state.gold[p]) for a in legal}
    if not legal:
        return {}
    model = RoundModel.of(state, view)
    now = state.gold[p]
    values = model.move_values(state, p, [pending_after(state, a) for a in legal])
    return {a: v - now for a, v in zip(legal, values)}
