"""Named strategies a learner can watch and beat.

======================  ======================================================================
``random``              uniformly random legal moves (the baseline)
``cooperator``          fills rooms from the top so they clear; never bumps
``greedy``              the best expected gold this round, from the exact clear probabilities
``bully``               bumps whenever it can afford to; happy to make rooms fail
``mcts``                information-set Monte Carlo tree search over the hidden fronts
``beginner``            levels for learners (``levels.py``): greedy half the time, else random;
``intermediate``        greedy with one move in ten random;
``strong``              mcts with 200 iterations a decision (measured in ``docs/bots.md``)
``judge``               the review's judge (``analysis/judge.py``): every move played out in many
                        worlds the seat cannot rule out, greedy's rule after it; the best win chance
======================  ======================================================================

``make_bot("greedy", seed=1, noise=0.1)`` builds one; every bot has ``.name``,
``.description`` (one sentence for a notebook) and ``choose(state, player) -> Action``. With
probability ``noise`` a bot plays a random legal move instead. Bots also choose the setup
exhaust pair. A bot only uses what ``state.view(player)`` shows, plus the engine's answers on
copies (a move with resolution held back, or a determinized world).

A bot spec string, as the CLI and :func:`~dungeon_guilds.analysis.simulate.simulate` take it,
is ``name`` or ``name:noise`` (``greedy:0.1``).
"""

from __future__ import annotations

from typing import Any

from .base import Bot
from .bully import BullyBot
from .cooperator import CooperatorBot
from .greedy import GreedyBot
from .judge import JudgeBot
from .levels import LEVELS, BeginnerBot, IntermediateBot, StrongBot
from .mcts import MCTSBot
from .random import RandomBot

BOTS: dict[str, type[Bot]] = {
    cls.name: cls for cls in (RandomBot, CooperatorBot, GreedyBot, BullyBot, MCTSBot,
                              BeginnerBot, IntermediateBot, StrongBot, JudgeBot)
}


def make_bot(name: str, seed: int | str = 0, noise: float = 0.0, **kw: Any) -> Bot:
    """A bot by name (see :data:`BOTS`); ``name`` may carry its noise as ``name:noise``."""
    base, spec_noise = parse_spec(name)
    if spec_noise is not None:
        noise = spec_noise
    try:
        cls = BOTS[base]
    except KeyError:
        raise ValueError(f"unknown bot {base!r} (known: {', '.join(BOTS)})") from None
    return cls(seed=seed, noise=noise, **kw)


def parse_spec(spec: str) -> tuple[str, float | None]:
    """``"greedy:0.1"`` -> ("greedy", 0.1); ``"greedy"`` -> ("greedy", None)."""
    name, sep, noise = spec.strip().partition(":")
    if not sep:
        return name, None
    try:
        value = float(noise)
    except ValueError:
        raise ValueError(f"bad bot spec {spec!r}: write name or name:noise, e.g. greedy:0.1") from None
    if not 0.0 <= value <= 1.0:
        raise ValueError(f"bad bot spec {spec!r}: noise is between 0 and 1")
    return name, value


def describe() -> dict[str, str]:
    """{name: one-sentence description} of every bot, for a notebook table."""
    return {name: cls.description for name, cls in BOTS.items()}


__all__ = ["BOTS", "LEVELS", "BeginnerBot", "IntermediateBot", "StrongBot", "Bot", "BullyBot", "CooperatorBot", "GreedyBot", "JudgeBot", "MCTSBot", "RandomBot",
           "describe", "make_bot", "parse_spec"]
