"""One game at one table, whatever view plays it (issue 39): the :class:`Session` holds the
engine's :class:`~dungeon_guilds.Game`, the seats (a person, a bot at a level, free), the secret
setup choices (R2.4) and the round shown resolving (issue 24). Learn, Play, pass-and-play and the
class tables each hold one and only translate clicks into its calls and its state into pictures:

* :meth:`Session.refusal` and :meth:`Session.move` — a seat's move judged by the engine and
  played (at a secret setup, held until every seat has chosen, then revealed in the engine's
  order); a move that ends a round's dispatch shows that round resolving;
* :meth:`Session.bot_turn` and :meth:`Session.take` — which seat a bot decides for now and its
  decision played like anyone's (the bots themselves are the views': Learn's and Play's bots
  live with the page, a class table's may think in another process);
* :meth:`Session.step_on`, :meth:`Session.waiting_for` and :meth:`Session.resolution_over` — who
  has seen the round resolving, and when the next round may start.

Nothing here decides a rule: the engine judges every move and says whose move it is.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable

from ..actions import Action
from ..errors import IllegalAction
from .bots import BotTurn, bot_turn
from .resolution import Resolution
from .seats import Seat
from .setup import SETUP, SecretSetup, choosing_state


@dataclass
class Session:
    """``seats``: who plays each seat; ``game``: the engine's game (None until every seat is
    taken); ``secret``: the setup choices held (R2.4); ``shown``: the round shown resolving.
    ``secret_setup``: the seats choose their exhausted pair at once and in secret (Play,
    pass-and-play, class tables); False: one after another in the engine's order (Learn, where
    one student sets every seat's choice and watches the engine take them)."""

    seats: list[Seat]
    game: object | None = None
    secret: SecretSetup = field(default_factory=SecretSetup)
    shown: Resolution = field(default_factory=Resolution)
    secret_setup: bool = True

    @property
    def is_over(self) -> bool:
        return self.game is not None and self.game.is_over

    @property
    def in_setup(self) -> bool:
        return self.game is not None and self.game.phase == SETUP

    def seen_by(self, seat: int):
        """The state ``seat``'s screen shows and asks: while every seat chooses in secret, the
        engine's with that seat the one choosing and nobody's choice in it; else the engine's."""
        state = self.game.state
        return choosing_state(state, seat) if self.secret_setup and self.in_setup else state

    def refusal(self, seat: int | None, action: Action) -> IllegalAction | None:
        """The engine's refusal of ``action`` as ``seat``'s move now (None: allowed; ``seat``
        None: the seat to move). At a secret setup, judged as that seat's choice."""
        if self.secret_setup and self.in_setup and seat is not None:
            return self.secret.refusal(self.game, seat, action)
        return self.game.state.refusal(action, seat)

    def move(self, seat: int | None, action: Action, now: float = 0.0) -> bool:
        """Play ``seat``'s move (the engine's refusal raised, nothing changed). At a secret
        setup it is held until every seat has chosen, then every choice goes to the engine in
        its order. True if the move ended a round's dispatch: that round is shown resolving."""
        err = self.refusal(seat, action)
        if err is not None:
            raise err
        if self.secret_setup and self.in_setup and seat is not None:
            self.secret.choose(self.game, seat, action)  # R2.4: held in secret, revealed when all have chosen
            return False
        log_len = len(self.game.log)
        self.game.push(action)
        return self.shown.watch(self.game, log_len, now)

    # ------------------------------------------------------------------ bots
    def bot_seat(self, seat: int, now: float = 0.0, away_s: float | None = None) -> bool:
        """Whether a bot plays ``seat`` now: a bot's seat, or a person away over ``away_s``."""
        return self.seats[seat].plays_bot(now, away_s)

    def bot_turn(self, now: float = 0.0, away_s: float | None = None,
                 order: Iterable[int] | None = None) -> BotTurn | None:
        """The next decision a bot makes (None: none is due, or a round is shown resolving: the
        next round waits for the people looking). At a secret setup, the first bot seat of
        ``order`` still to choose, asked as if it were its turn; else the bot to move."""
        if self.game is None or self.is_over or self.shown.showing:
            return None
        pending = self.secret.pending if self.secret_setup else None
        return bot_turn(self.game, lambda seat: self.bot_seat(seat, now, away_s), pending, order)

    def take(self, turn: BotTurn, action: Action, now: float = 0.0) -> bool:
        """A bot's decision for ``turn`` played (the engine refuses an illegal one, nothing
        changed). True if it ended a round's dispatch."""
        return self.move(turn.seat if turn.setup else None, action, now)

    # ------------------------------------------------------------------ a round shown resolving
    def watching(self) -> list[int]:
        """The people a round shown resolving waits for: a page open (every person after a
        restart, before any page is back)."""
        return [i for i, s in enumerate(self.seats) if s.looking(self.shown.resumed)]

    def waiting_for(self) -> list[int]:
        """The people looking who have not stepped on yet."""
        return self.shown.waiting_for(self.watching())

    def step_on(self, seat: int) -> bool:
        """``seat`` has seen the round resolving (False: it had said so already); the round's
        showing ends once nobody is waited for."""
        if not self.shown.step_on(seat):
            return False
        if not self.waiting_for():
            self.shown.stop()
        return True

    def resolution_over(self, now: float, limit: float) -> bool:
        """End a round shown for ``limit`` seconds or more, or waiting for nobody (so one
        absent-minded page cannot stall a class); True if it ended."""
        return self.shown.expired(now, limit, self.watching())


__all__ = ["Session"]
