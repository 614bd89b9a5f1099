"""What every bot shares: a name, a sentence for learners, a seeded random stream, noise.

A bot is asked ``choose(state, player)`` only when ``player`` is to move. It may read what
``state.view(player)`` shows and the legal actions, and ask the engine about copies (a move
applied with resolution held back, or a determinized world: see
:mod:`dungeon_guilds.analysis.knowledge`). It never reads a room's front or the undealt deck.
"""

from __future__ import annotations

import random
from typing import Any, Sequence

from ...actions import Action
from ...game import rng as game_rng
from ...state import SETUP, State


class Bot:
    """Base class: handles noise (a random legal move with probability ``noise``), forced
    moves and the split between the setup exhaust choice and dispatch moves."""

    name = "bot"
    description = "A player that makes legal moves."

    def __init__(self, seed: int | str = 0, noise: float = 0.0, **options: Any):
        if not 0.0 <= noise <= 1.0:
            raise ValueError(f"noise is a probability between 0 and 1, got {noise!r}")
        if options:
            raise TypeError(f"{self.name} bot takes no option(s) {', '.join(sorted(options))}")
        self.seed = seed
        self.noise = noise
        self.rng: random.Random = game_rng(seed, f"bot/{self.name}")

    def __repr__(self) -> str:
        extra = f", noise={self.noise}" if self.noise else ""
        return f"{type(self).__name__}(seed={self.seed!r}{extra})"

    @property
    def label(self) -> str:
        """The name with its noise, e.g. ``greedy:0.1`` (what tables and charts show)."""
        return f"{self.name}:{self.noise:g}" if self.noise else self.name

    def choose(self, state: State, player: int, legal: Sequence[Action] | None = None) -> Action:
        """The action ``player`` (the player to move) takes now."""
        if player != state.current:
            raise ValueError(f"seat {player} is not to move (seat {state.current} is)")
        if legal is None:
            legal = state.legal_actions()
        if not legal:
            raise ValueError("there is no legal action: the game is over")
        if self.noise and self.rng.random() < self.noise:
            return self.rng.choice(legal)
        if len(legal) == 1:
            return legal[0]
        if state.phase == SETUP:
            return self.choose_exhaust(state, player, legal)
        return self.choose_move(state, player, legal)

    def fast_choose(self):
        """``choose`` for a simulator that only asks the player to move, with the legal
        actions it already has (the default: ``choose`` itself)."""
        return self.choose

    # -- what subclasses decide -------------------------------------------------------------
    def choose_exhaust(self, state: State, player: int, legal: Sequence[Action]) -> Action:
        """The setup choice (R2.4): which two adventurers to exhaust for round 1."""
        return self.rng.choice(legal)

    def choose_move(self, state: State, player: int, legal: Sequence[Action]) -> Action:
        """A dispatch move (R4.3-R4.5)."""
        return self.rng.choice(legal)

    # -- helpers ----------------------------------------------------------------------------
    @staticmethod
    def pick_exhaust(legal: Sequence[Action], a: int, b: int) -> Action:
        for action in legal:
            if action.strength == a and action.other == b:
                return action
        return legal[0]

    def best(self, scored: dict[Action, float], eps: float = 1e-9) -> Action:
        """The highest-scored action; ties broken by the bot's random stream."""
        top = max(scored.values())
        ties = [a for a, v in scored.items() if v >= top - eps]
        return ties[0] if len(ties) == 1 else self.rng.choice(ties)
