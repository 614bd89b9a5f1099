"""The secret simultaneous setup choice (R2.4), the same for every table view.

Every seat chooses its two exhausted adventurers at the same time. The engine takes setup
choices one seat after another (its ``setup_left`` order) and pays each choice's heal costs at
once (public gold), so :class:`SecretSetup` holds each seat's choice to itself and hands all of
them to the engine, in the engine's order, when the last seat has chosen: nobody can learn
another seat's choice before round 1 is played. The engine judges every choice.

:func:`choosing_state` is the one state drawn for, or asked of, a seat while every seat
chooses: outside the engine, no other code says whose choice it is (``tests/test_current_is_the_engines.py``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..actions import EXHAUST, Action
from ..errors import IllegalAction

SETUP = "setup"


def choosing_state(state, seat: int):
    """A copy of the engine's setup ``state`` with ``seat`` the one choosing (R2.4: every seat
    chooses now, nobody's choice is in it yet): what that seat's board shows and its bot is asked."""
    st = state.copy()
    st.current = seat
    return st


@dataclass
class SecretSetup:
    """The setup choices made and not yet revealed: seat -> (strength, strength), sorted."""

    pending: dict[int, tuple[int, int]] = field(default_factory=dict)

    def still_choosing(self, seats: int) -> list[int]:
        """The seats (of ``seats``) that have not chosen yet, in seat order."""
        return [s for s in range(seats) if s not in self.pending]

    def refusal(self, game, seat: int, action: Action) -> IllegalAction | None:
        """The engine's refusal of ``action`` as ``seat``'s setup choice (None: allowed). A
        choice is judged alike for every seat; a move that is no choice is worded for ``seat``
        (the engine's own words would name its current seat)."""
        if action.kind != EXHAUST:
            return IllegalAction("exhaust_first", {"player": seat, "name": game.names[seat]}, action)
        if seat in self.pending:  # one choice a seat: a second one would replace a secret already held
            return IllegalAction("exhaust_chosen", {"player": seat, "name": game.names[seat]}, action)
        return game.state.refusal(action)

    def choose(self, game, seat: int, action: Action) -> bool:
        """Hold ``seat``'s choice (the engine's refusal raised, nothing changed); reveal every
        choice once all have chosen. True if they were revealed."""
        err = self.refusal(game, seat, action)
        if err is not None:
            raise err
        self.pending[seat] = tuple(sorted((action.strength, action.other)))
        return self.reveal(game)

    def reveal(self, game) -> bool:
        """When every seat has chosen: all the choices to the engine, in its order (R2.4)."""
        if game.phase != SETUP or len(self.pending) < len(game.names):
            return False
        while game.phase == SETUP:
            a, b = self.pending[game.current]
            game.push(Action(EXHAUST, a, other=b))
        self.pending.clear()
        return True


__all__ = ["SecretSetup", "choosing_state"]
