"""Seeded positions for worksheets: a real game set up and played by the engine.

A :class:`Setup` is everything needed to rebuild a position: the number of players, the game
seed (the room shuffle and the exhaust choices come from it, :mod:`dungeon_guilds.game`), the
lords of the rounds, whether lord effects are on, and the moves played in round 1's dispatch.
:meth:`Setup.state` replays it with :meth:`State.apply_action` (so every move is legal), with
the end of dispatch held back (nothing resolved) unless asked. The moves are chosen at random
among the engine's legal actions from a worksheet's own random stream, so the same worksheet
seed gives the same positions and a new seed a new version.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Callable

from ..actions import BUMP, PLACE, SWAP, Action, exhaust
from ..cards import reference_deck
from ..game import random_exhaust, shuffled_rooms
from ..lords import get_lord
from ..rules import Rules
from ..state import DISPATCH, SETUP, State

NAMES = ("P1", "P2", "P3", "P4", "P5", "P6")  # internal; the page says "Player 1" (from 1)
TRIES = 200  # positions tried before a generator gives up (never reached in the tests' seeds)


@dataclass(frozen=True)
class Setup:
    """A reproducible position (see the module's docstring). ``lords``: one lord id a round."""

    players: int
    seed: str
    lords: tuple[str, ...]
    effects: bool = False
    moves: tuple[Action, ...] = ()

    @property
    def rules(self) -> Rules:
        return Rules(lords="base" if self.effects else "none")

    def state(self, hold: bool = True, log: bool = False) -> State:
        """The position: set up (R2), exhaust choices from the seed (R2.4), ``moves`` played.
        ``hold``: the end of dispatch is held back (the rooms are not resolved)."""
        deck = reference_deck()
        st = State.new(NAMES[:self.players], shuffled_rooms(deck, self.seed),
                       [get_lord(x) for x in self.lords], deck.levels, deck.heal_costs,
                       rules=self.rules, start=0, log=log)
        while st.phase == SETUP:
            st.apply_action(exhaust(*random_exhaust(self.seed, st.current)))
        st.hold_resolution = hold
        for move in self.moves:
            st.apply_action(move)
        return st

    def with_moves(self, moves) -> "Setup":
        return Setup(self.players, self.seed, self.lords, self.effects, tuple(moves))


def dispatch_done(st: State) -> bool:
    """Every player has two adventurers in the dungeon (R4.8)."""
    return min(st.placed) >= 2


def random_move(st: State, rnd: random.Random, place_weight: float = 0.75) -> Action:
    """A legal move of the player to move: a placement with chance ``place_weight`` when one
    is legal, else any legal move."""
    legal = st.legal_actions()
    places = [a for a in legal if a.kind == PLACE]
    if places and rnd.random() < place_weight:
        return rnd.choice(places)
    return rnd.choice(legal)


def play_until(setup: Setup, rnd: random.Random, stop: Callable[[State], bool],
               place_weight: float = 0.75) -> Setup | None:
    """Play random legal moves from ``setup`` until ``stop(state)`` is true (then the setup
    with those moves) or the dispatch ends without it (None)."""
    st = setup.state()
    moves = list(setup.moves)
    while st.phase == DISPATCH and not dispatch_done(st):
        if stop(st):
            return setup.with_moves(moves)
        move = random_move(st, rnd, place_weight)
        st.apply_action(move)
        moves.append(move)
    return setup.with_moves(moves) if stop(st) else None


def replacements(st: State) -> list[Action]:
    """The legal replacements (R4.4, R4.5) of the player to move."""
    return [a for a in st.legal_actions() if a.kind in (BUMP, SWAP)]


def new_setup(rnd: random.Random, players: int, lords: tuple[str, ...] | None = None,
              effects: bool = False) -> Setup:
    """A fresh set-up: a seed drawn from ``rnd``; ``lords`` (default: base lords drawn)."""
    seed = f"ws{rnd.randrange(10 ** 9)}"
    if lords is None:
        from ..lords import BASE_LORDS

        lords = tuple(rnd.sample([x.id for x in BASE_LORDS], players))
    return Setup(players, seed, tuple(lords), effects)


__all__ = ["NAMES", "Setup", "TRIES", "dispatch_done", "new_setup", "play_until", "random_move",
           "replacements"]
