"""The expected-gold computation as it stood before it was made incremental (issue 18), kept
verbatim as the reference the fast path must match exactly: it rebuilds everything from the
view and the engine for every decision and every move."""

from __future__ import annotations

from dungeon_guilds.actions import Action
from dungeon_guilds.analysis.knowledge import pending_after
from dungeon_guilds.cards import RoomCard
from dungeon_guilds.payout import split
from dungeon_guilds.state import SETUP, State, beats


class ReferenceRoundModel:
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


def reference_action_values(state: State, player: int | None = None, view=None) -> dict[Action, float]:
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
    model = ReferenceRoundModel(state, view if view is not None else state.view(p))
    now = state.gold[p]
    return {a: model.expected_gold(pending_after(state, a), p) - now for a in legal}
