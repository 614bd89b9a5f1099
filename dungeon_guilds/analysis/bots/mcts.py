"""The mcts bot: information-set Monte Carlo tree search over the hidden room fronts.

Each iteration imagines one world the player cannot rule out (fronts for the current rooms, an
order for the undealt deck, other players' secret exhaust pairs in round 1 that fit the public
gold, the lords not yet revealed: see :func:`~dungeon_guilds.analysis.knowledge.determinize`), walks down one shared tree of moves
(single-observer ISMCTS: a child's UCB uses how often it was *available*), adds one node, plays
the game out with a fast rollout policy, and backs up each player's result. The move played is
the root's most visited child. ``iterations`` is the budget.
"""

from __future__ import annotations

import math
from typing import Any

from ...actions import PLACE
from ...scoring import result
from ...state import OVER
from ..knowledge import determinize
from .base import Bot


class _Node:
    __slots__ = ("children", "visits", "avail", "reward")

    def __init__(self) -> None:
        self.children: dict = {}
        self.visits = 0
        self.avail = 1
        self.reward = 0.0  # summed reward of the player who chose the move into this node


def rewards(state, gold_weight: float) -> list[float]:
    """Each player's reward in [0, 1] at the end of a game: a share of victory (R8.1, teams
    R10.1), plus a little for gold relative to the richest player (a denser signal)."""
    res = result(state)
    n = len(res.gold)
    top = max(res.gold) or 1
    share = 1.0 / len(res.winners) if res.winners else 0.0
    win = [share if p in res.winners else 0.0 for p in range(n)]
    return [(1 - gold_weight) * w + gold_weight * g / top for w, g in zip(win, res.gold)]


class MCTSBot(Bot):
    name = "mcts"
    description = ("Looks ahead by imagining many possible hidden room fronts and playing each "
                   "game out, then picks the move that worked best (information-set Monte Carlo "
                   "tree search).")

    def __init__(self, seed: int | str = 0, noise: float = 0.0, iterations: int = 1000,
                 exploration: float = 0.7, gold_weight: float = 0.25, rollout: str = "place",
                 **options: Any):
        super().__init__(seed, noise, **options)
        if iterations < 1:
            raise ValueError("mcts needs at least one iteration")
        if rollout not in ("random", "place"):
            raise ValueError("rollout is 'random' or 'place'")
        self.iterations = iterations
        self.exploration = exploration
        self.gold_weight = gold_weight
        self.rollout = rollout
        self.last_visits: dict = {}

    def choose_exhaust(self, state, player, legal):
        return self.search(state, player, legal)

    def choose_move(self, state, player, legal):
        return self.search(state, player, legal)

    # ------------------------------------------------------------------ search
    def _rollout(self, det) -> None:
        choice = self.rng.choice
        if self.rollout == "random":
            while det.phase != OVER:
                det.apply_unchecked(choice(det.legal_actions()))
            return
        # "place": random moves, but placing whenever a placement is legal (random players who
        # bump at random waste gold no real player would)
        while det.phase != OVER:
            legal = det.legal_actions()
            places = [a for a in legal if a.kind == PLACE]
            det.apply_unchecked(choice(places or legal))

    def search(self, state, player, legal):
        view = state.view(player)
        root = _Node()
        rng = self.rng
        c = self.exploration
        log = math.log
        sqrt = math.sqrt
        gw = self.gold_weight
        for _ in range(self.iterations):
            det = determinize(state, player, rng, view)
            node = root
            path = []
            while det.phase != OVER:
                moves = det.legal_actions()
                mover = det.current
                children = node.children
                untried = [a for a in moves if a not in children]
                if untried:
                    a = untried[0] if len(untried) == 1 else rng.choice(untried)
                    child = children[a] = _Node()
                    for b in moves:
                        if b in children and b is not a:
                            children[b].avail += 1
                    det.apply_unchecked(a)
                    path.append((child, mover))
                    break
                best, best_v = None, -1.0
                for b in moves:
                    ch = children[b]
                    ch.avail += 1
                    v = ch.reward / ch.visits + c * sqrt(log(ch.avail) / ch.visits)
                    if v > best_v:
                        best, best_v = b, v
                det.apply_unchecked(best)
                node = children[best]
                path.append((node, mover))
            if det.phase != OVER:
                self._rollout(det)
            r = rewards(det, gw)
            for n, mover in path:
                n.visits += 1
                n.reward += r[mover]
        legal_set = set(legal)
        scored = {a: ch.visits for a, ch in root.children.items() if a in legal_set}
        self.last_visits = scored  # the root's visit counts (the twin test compares them)
        return self.best(scored) if scored else rng.choice(legal)
