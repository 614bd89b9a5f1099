"""The random bot: the baseline every other strategy must beat."""

from __future__ import annotations

from .base import Bot


class RandomBot(Bot):
    name = "random"
    description = "Picks uniformly at random among the legal moves, exhaust choice included."

    def choose(self, state, player, legal=None):  # the hot path of big simulations
        if player != state.current:
            raise ValueError(f"seat {player} is not to move (seat {state.current} is)")
        if legal is None:
            legal = state.legal_actions()
        return self.rng.choice(legal)

    def fast_choose(self):
        choice = self.rng.choice

        def choose(state, player, legal):  # the simulator asks the player to move, legal given
            return choice(legal)
        return choose
