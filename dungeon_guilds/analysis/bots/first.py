"""The first-legal-action bot (``"first"``): deterministic and fast, the apps' stand-in when no
other bot is asked for (handy in tests). Not in :data:`~dungeon_guilds.analysis.bots.BOTS`: it is
no strategy to compare."""

from __future__ import annotations

import random

from ...actions import Action

FALLBACK_BOT = "first"


class FirstLegalBot:
    """Plays the engine's first legal action."""

    name = FALLBACK_BOT

    def __init__(self, seed: int = 0, noise: float = 0.0):
        self.rng = random.Random(seed)

    def choose(self, state, player: int) -> Action:
        return state.legal_actions()[0]


__all__ = ["FALLBACK_BOT", "FirstLegalBot"]
