"""The judge bot: plays the move the review's judge values best (issue 38).

Each decision is :func:`~dungeon_guilds.analysis.judge.judge` from the bot's seat: worlds its
seat cannot rule out, every legal move played in each and the game played to its end by the
greedy bot's rule, the moves raced until one is ahead beyond the noise or the budget is spent.
It reads only what its seat may know (the worlds are drawn from its view). Measured strength:
``docs/bots.md``.
"""

from __future__ import annotations

from typing import Any

from ..judge import Budget, judge
from ..judge_worlds import Playout
from .base import Bot


class JudgeBot(Bot):
    name = "judge"
    description = ("Plays the move the game review's judge values best: it imagines many possible "
                   "hidden room fronts, plays every move in each and the game to its end, and keeps "
                   "the move with the best chance of winning.")

    def __init__(self, seed: int | str = 0, noise: float = 0.0, worlds: int = 48, **options: Any):
        super().__init__(seed, noise, **options)
        if worlds < 4:
            raise ValueError("the judge needs at least 4 worlds a move")
        self.budget = Budget(worlds=worlds, min_worlds=min(16, worlds), batch=min(8, worlds), check=0)
        self.playout = Playout()  # greedy choices reused between this bot's decisions

    def _best(self, state, player, legal):
        return judge(state, player, self.budget, seed=self.seed, playout=self.playout, legal=legal).best.action

    def choose_exhaust(self, state, player, legal):
        return self._best(state, player, legal)

    def choose_move(self, state, player, legal):
        return self._best(state, player, legal)
