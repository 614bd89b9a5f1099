"""A round's resolution shown step by step (issue 24), the same for every table view.

The engine resolves a round in the same step as the move that ends its dispatch. A table then
shows that round resolving — its rooms as the dispatch left them (:meth:`Game.dispatch_end`),
revealed room by room — and the next round waits until the people looking have stepped on
(pressed *Continue*, or *Next round* in Learn and Play). :class:`Resolution` holds which round is
shown, since when, who has stepped on, and decides when the wait is over; each view steps its
own pages through the story and draws the frames.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable

from ..events import resolved_rounds


@dataclass
class Resolution:
    """The round shown resolving (``round``; None: the game as it is now), shown since
    ``since``, the seats that have stepped on (``ready``); ``resumed``: shown again after a
    restart, so every person is waited for (nobody's page is open yet)."""

    round: int | None = None
    since: float = 0.0
    ready: set[int] = field(default_factory=set)
    resumed: bool = False
    end: Any = field(default=None, repr=False, compare=False)  # the round's dispatch_end, once asked

    @property
    def showing(self) -> bool:
        return self.round is not None

    def watch(self, game, log_len: int, now: float = 0.0) -> bool:
        """After moves that logged from ``log_len`` on: if they resolved a round, show it (the
        latest such round). True if one did."""
        rounds = resolved_rounds(game.log[log_len:])
        if not rounds:
            return False
        self.show(rounds[-1], now)
        return True

    def show(self, round_no: int, now: float = 0.0, ready: Iterable[int] = (), resumed: bool = False) -> None:
        """Show round ``round_no`` resolving from ``now`` (nobody has stepped on yet)."""
        self.round, self.since, self.ready, self.resumed, self.end = round_no, now, set(ready), resumed, None

    def stop(self) -> None:
        """Back to the game as it is now."""
        self.round, self.ready, self.resumed, self.end = None, set(), False, None

    def dispatch_end(self, game):
        """The shown round's dungeon as its dispatch left it (asked of the engine once); None
        when no round is shown or the engine has no such round on this line."""
        if self.round is None:
            return None
        if self.end is None:
            self.end = game.dispatch_end(self.round)
        return self.end

    def waiting_for(self, people: Iterable[int]) -> list[int]:
        """Of the seats ``people`` looking at the table, those that have not stepped on."""
        return [i for i in people if i not in self.ready]

    def step_on(self, seat: int) -> bool:
        """``seat`` has seen the resolution; False (nothing changed) if it had said so already."""
        if seat in self.ready:
            return False
        self.ready.add(seat)
        return True

    def expired(self, now: float, limit: float, people: Iterable[int]) -> bool:
        """End a resolution shown for ``limit`` seconds or more, or waiting for nobody of
        ``people``; True if it ended (so one absent-minded page cannot stall a class)."""
        if self.round is None or (now - self.since < limit and self.waiting_for(people)):
            return False
        self.stop()
        return True


__all__ = ["Resolution"]
