"""A table's seats, the same for every table view: a person, a bot at a level, or a free seat;
and who plays a seat now (a person away for long enough is played by a bot until they are back).

A class table adds what proves a seat (``token_hash``, the SHA-256 of the token its browser
keeps) and counts the pages open on it (``connected``, not saved); pass-and-play's seats are all
people on one device; Learn and Play name each seat's controller (``HUMAN`` or a bot's name).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

OPEN, HUMAN, BOT = "open", "human", "bot"
AWAY_BOT = "greedy"  # plays an away person's turns (fast: it answers at once)
BOT_KIND = "greedy"  # a bot seat's level when none was picked (and in tables saved before levels)


@dataclass
class Seat:
    kind: str = OPEN
    name: str = ""
    token_hash: str = ""
    bot: str = ""  # a bot seat's level
    connected: int = 0  # pages open on this seat now (not saved)
    away_since: float | None = None  # when its last page went away (not saved)

    def to_dict(self) -> dict[str, Any]:
        out = {"kind": self.kind, "name": self.name, "token_hash": self.token_hash}
        if self.kind == BOT:
            out["bot"] = self.bot
        return out

    def plays_bot(self, now: float, away_s: float | None) -> bool:
        """Whether a bot plays this seat now: a bot's seat, or a person away over ``away_s``
        seconds (None: nobody is played for)."""
        if self.kind == BOT:
            return True
        return (away_s is not None and self.connected == 0 and self.away_since is not None
                and now - self.away_since >= away_s)

    def level(self) -> str:
        """The bot that plays this seat's turns: a bot seat's level, or :data:`AWAY_BOT`."""
        return (self.bot or BOT_KIND) if self.kind == BOT else AWAY_BOT

    def looking(self, everyone: bool = False) -> bool:
        """Whether a round shown resolving waits for this seat: a person with a page open (with
        ``everyone``, after a restart before any page is back: every person)."""
        return self.kind == HUMAN and (self.connected > 0 or everyone)


__all__ = ["AWAY_BOT", "BOT", "BOT_KIND", "HUMAN", "OPEN", "Seat"]
