"""The greedy bot: plays the move with the best expected gold this round."""

from __future__ import annotations

from ..probability import action_values
from .base import Bot


class GreedyBot(Bot):
    name = "greedy"
    description = ("Plays the move with the highest expected gold this round, worked out exactly "
                   "from the cards nobody has seen yet, as if no one moved after it.")

    def choose_exhaust(self, state, player, legal):
        return self.best(action_values(state, player, legal=legal))  # the most gold now: exhaust 4 and 5

    def choose_move(self, state, player, legal):
        return self.best(action_values(state, player, legal=legal))
