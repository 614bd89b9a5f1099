"""Bots of named strength for learners: beginner, intermediate, strong (issue 30).

=================  ===============================================================================
``beginner``       the greedy bot's move half the time, a random legal move otherwise
``intermediate``   the greedy bot's move, but one move in ten a random legal one
``strong``         information-set Monte Carlo tree search (the ``mcts`` bot) with 200 iterations
                   a decision: it looks past this round and past the others' replies
=================  ===============================================================================

Their measured strength (a round robin of 700 four-player games, issue 48, Bradley-Terry ratings with
95 % intervals) is in ``docs/bots.md``; ``tools/bot_ratings.py`` measures it again.
"""

from __future__ import annotations

from typing import Any

from .greedy import GreedyBot
from .mcts import MCTSBot


class _Slipping(GreedyBot):
    """Greedy, but with chance ``slip`` a random legal move (set-up choice included)."""

    slip = 0.0

    def choose_exhaust(self, state, player, legal):
        if self.rng.random() < self.slip:
            return self.rng.choice(legal)
        return super().choose_exhaust(state, player, legal)

    def choose_move(self, state, player, legal):
        if self.rng.random() < self.slip:
            return self.rng.choice(legal)
        return super().choose_move(state, player, legal)


class BeginnerBot(_Slipping):
    name = "beginner"
    slip = 0.5
    description = ("A beginner: plays the move with the best expected gold this round half the "
                   "time, and any legal move the other half.")


class IntermediateBot(_Slipping):
    name = "intermediate"
    slip = 0.1
    description = ("An intermediate player: plays the move with the best expected gold this round, "
                   "but one move in ten is any legal move.")


class StrongBot(MCTSBot):
    name = "strong"
    description = ("A strong player: imagines possible hidden room fronts, plays each game out 200 "
                   "times a decision and keeps the move that did best (Monte Carlo tree search).")

    def __init__(self, seed: int | str = 0, noise: float = 0.0, iterations: int = 200, **options: Any):
        super().__init__(seed, noise, iterations=iterations, **options)


LEVELS = ("beginner", "intermediate", "strong")

__all__ = ["BeginnerBot", "IntermediateBot", "LEVELS", "StrongBot"]
