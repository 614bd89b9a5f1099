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

from fractions import Fraction
from typing import Sequence

from ..actions import Action
from ..cards import RoomCard
from ..payout import split
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

    Built once per decision: the unseen cards by level (with counts), and for every room and
    every front its level could show, the room's defence and treasure after the lord as the
    engine gives them (:meth:`State.room_defence`, :meth:`State.room_treasure` on copies whose
    fronts are set by :meth:`State.with_fronts`). A lord whose change depends on the
    adventurers in a room (``state.cond_mods``, e.g. the Naughty Kid) is asked again for each
    dungeon valued.
    """

    def __init__(self, state: State, view=None):
        if view is None:
            view = state.view(state.current)
        self.view = view
        self.levels = [room.level for room in view.rooms]
        kinds: dict[int, dict[RoomCard, int]] = {}
        for card in view.unseen:
            d = kinds.setdefault(card.level, {})
            d[card] = d.get(card, 0) + 1
        self.kinds = {lv: list(d.items()) for lv, d in kinds.items()}
        self._filler = list(view.unseen)[: view.deck_left]
        self._fixed = None if state.cond_mods else self.room_values(state)

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
        for event in probe.preview_resolution():
            if event["kind"] == "bonus":
                gains[event["player"]] += event["gold"]
        return gains

    def expected_gold(self, after: State, player: int) -> float:
        """The expected gold of ``player`` after this round's cleanup, if the dungeon stays as
        ``after`` has it (exact over the hidden fronts)."""
        k = len(self.levels)
        base = after.gold[player] + self.bonus(after)[player]
        levels = self.levels
        defence, treasure = self._fixed or self.room_values(after)
        clears: list[list[bool]] = []
        shares: list[list[int]] = []
        cost = [0] * (k + 1)
        for i in range(k):
            total = after.room_total(i)
            occ = after.occupants(i)
            clears.append([beats(total, d) for d in defence[i]])  # the engine's R5.1
            shares.append([split(t, occ)[0].get(player, 0) if occ else 0 for t in treasure[i]])
            cost[i] = sum(after.heal_cost(s) for o, s in occ if o == player)
        for i in range(k - 1, -1, -1):
            cost[i] += cost[i + 1]
        last_of_level = {lv: i for i, lv in enumerate(levels)}
        counts = {lv: [c for _, c in kl] for lv, kl in self.kinds.items()}
        left = {lv: sum(c) for lv, c in counts.items()}

        def walk(i: int, prob: float, gained: int) -> float:
            if i == k:
                return prob * gained
            lv = levels[i]
            cnt = counts[lv]
            n_left = left[lv]
            row_c, row_s = clears[i], shares[i]
            out = 0.0
            fail = 0
            if last_of_level[lv] == i:  # no later room of this level: merge equal outcomes
                merged: dict[int, int] = {}
                for t, c in enumerate(cnt):
                    if c:
                        if row_c[t]:
                            merged[row_s[t]] = merged.get(row_s[t], 0) + c
                        else:
                            fail += c
                for share, c in merged.items():
                    out += walk(i + 1, prob * c / n_left, gained + share)
            else:
                for t, c in enumerate(cnt):
                    if not c:
                        continue
                    if row_c[t]:
                        cnt[t] = c - 1
                        left[lv] = n_left - 1
                        out += walk(i + 1, prob * c / n_left, gained + row_s[t])
                        cnt[t] = c
                        left[lv] = n_left
                    else:
                        fail += c
            if fail:
                pay = cost[i] if cost[i] <= base + gained else base + gained  # R6.1 not below $0
                out += prob * fail / n_left * (gained - pay)
            return out

        return base + walk(0, 1.0, 0)


def action_values(state: State, player: int | None = None, view=None) -> dict[Action, float]:
    """Expected gold this round of each legal action of the player to move, from that player's
    knowledge: the gold the player would gain (or lose) by the end of this round's cleanup if
    nobody moved after this action. At setup it is the exhaust pair's gold (R2.4)."""
    p = state.current if player is None else player
    if p != state.current:
        raise ValueError(f"seat {p} is not to move (seat {state.current} is)")
    legal = state.legal_actions()
    if state.phase == SETUP:
        return {a: float(pending_after(state, a).gold[p] - state.gold[p]) for a in legal}
    if not legal:
        return {}
    model = RoundModel(state, view if view is not None else state.view(p))
    now = state.gold[p]
    return {a: model.expected_gold(pending_after(state, a), p) - now for a in legal}
