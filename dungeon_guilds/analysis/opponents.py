"""Who plays the rest of a game in the judge's play-outs: one model a seat (issue 48, item 3).

The judge values a move by playing the game on to its end many times. Its marks are only true
for the opponents the learner really faces, so each seat is continued as the table would
continue it, and the review says whom it assumed (``strings/<lang>/review.toml``,
``judge.assumed``):

==================  ============================================================================
model               how the play-outs continue that seat
==================  ============================================================================
``greedy``          exactly ``GreedyBot``: the move of the most expected gold this round, ties
                    broken at random (the play-out's own stream)
``intermediate``    exactly ``IntermediateBot``: greedy, but one move in ten any legal move
``beginner``        exactly ``BeginnerBot``: greedy half the time, any legal move otherwise
``random``          exactly ``RandomBot``: any legal move
``name:noise``      the bot ``name`` with that chance of any legal move (``greedy:0.1``)
``cooperator`` …    the other cheap bots (cooperator, bully, random's kin, the apps' ``first``) by
                    their own code
``strong`` …        the expensive levels (strong, mcts, judge) by greedy's rule, a stand-in:
                    a tree search inside every play-out would cost hundreds of times more;
                    how often greedy makes the strong bot's choice is measured (docs/review.md)
``person``          a person: played on as :data:`PERSON` (the review says so)
==================  ============================================================================
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from ..actions import Action
from .bots import BOTS, make_bot, parse_spec
from .bots.base import Bot
from .bots.first import FALLBACK_BOT, FirstLegalBot
from .judge_worlds import Playout

__all__ = ["Model", "PERSON", "STAND_IN", "model_of", "models_for", "playout_for"]

PERSON = "intermediate"  # how a person's seat is continued: a stated model, not a guess
GREEDY_SLIP = {"greedy": 0.0, "intermediate": 0.1, "beginner": 0.5, "random": 1.0}
STAND_IN = ("strong", "mcts", "judge")  # played on by greedy's rule (too costly in a play-out)


@dataclass(frozen=True)
class Model:
    """A seat's model: ``name`` as asked, ``plays_as`` what really plays in the play-outs (a
    greedy-family level, or a bot's name), its chance ``slip`` of any legal move, and for a
    bot played by its own code, the bot (its random stream is the play-out's)."""

    name: str
    plays_as: str
    slip: float = 0.0
    bot: Bot | None = None

    @property
    def stand_in(self) -> bool:
        """True when a cheaper policy stands in for the named one (see the module table)."""
        return self.plays_as != parse_spec(self.name)[0] and self.name != "person"

    def move(self, playout, det, rng: random.Random, gk: tuple) -> Action:
        legal = det.legal_actions()
        if len(legal) == 1:
            return legal[0]
        if self.slip and rng.random() < self.slip:
            return rng.choice(legal)
        if self.bot is not None:
            self.bot.rng = rng
            return self.bot.choose(det, det.current)
        best = playout.best_moves(det, legal, gk)
        return best[0] if len(best) == 1 else rng.choice(best)


def model_of(name: str, seat: int = 0) -> Model:
    """The model of a seat from its name (a bot spec, or ``"person"``; module docstring)."""
    if name == "person":
        return Model(name, PERSON, GREEDY_SLIP[PERSON])
    base, noise = parse_spec(name)
    if base == FALLBACK_BOT:  # the apps' stand-in bot: the engine's first legal move
        return Model(name, base, noise or 0.0, FirstLegalBot())
    if base not in BOTS:
        raise ValueError(f"unknown model {name!r} (a bot's name, or 'person')")
    if base in STAND_IN:
        return Model(name, "greedy", noise or 0.0)
    if base in GREEDY_SLIP:
        slip = GREEDY_SLIP[base]
        if noise:  # the bot's own noise first, then its level's slip
            slip = noise + (1 - noise) * slip
        return Model(name, base, slip)
    return Model(name, base, noise or 0.0, make_bot(base, seed=f"model/{seat}"))


def models_for(players: dict[int, str], n: int) -> tuple[str, ...]:
    """One model name a seat: the bots' names given in ``players`` ({seat: bot spec}), every
    other seat a person."""
    return tuple(players.get(q, "person") for q in range(n))


def playout_for(names) -> Playout:
    """A :class:`~dungeon_guilds.analysis.judge_worlds.Playout` continuing each seat by the
    model named (None: greedy for every seat)."""
    if names is None:
        return Playout()
    return Playout(models=[model_of(name, q) for q, name in enumerate(names)])
