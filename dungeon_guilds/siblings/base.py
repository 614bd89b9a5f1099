"""The common shape of a sibling game: what :mod:`~dungeon_guilds.siblings.comparison` asks of
each rule kernel (standard library only).

A :class:`SiblingGame` has an id (``key``, one of ``siblings.GAMES``), its names, its player
count and a one-paragraph ``rules()`` summary (both read from the package's sourced data and
the kernel's own docstring), its turn sequence and the computed comparison facts
(:data:`CONCEPTS`). Each kernel module (``dungeon``, ``dungeon_lords``, ``dungeon_fighter``)
and ``siblings.guilds`` (the main game, from the engine) defines one as ``GAME``;
``comparison.SIBLINGS`` lists them in table order and iterates over them.
"""

from __future__ import annotations

import sys
import tomllib
from functools import lru_cache
from importlib import resources
from typing import Protocol, runtime_checkable

from . import GAMES

#: the computed comparison facts every sibling gives, in row order
CONCEPTS = ("first_turns", "rounds", "dice", "key_chance", "worst")


@lru_cache(maxsize=1)
def comparison_data() -> dict:
    """``data/comparison.toml``: the sourced facts of every game."""
    text = resources.files(__package__).joinpath("data", "comparison.toml").read_text(encoding="utf-8")
    return tomllib.loads(text)


@runtime_checkable
class SiblingGame(Protocol):
    """What the comparison needs from a game's kernel."""

    key: str

    @property
    def name(self) -> str: ...

    @property
    def name_zh(self) -> str: ...

    def players(self) -> str: ...

    def rules(self) -> str: ...

    def turn_sequence(self, n_players: int, turns: int = 8) -> list[int]: ...

    def concepts(self, n_players: int) -> dict[str, str]: ...


class KernelGame:
    """Names, players and rules summary from the shared data, clockwise turns by default; a
    kernel adds ``key``, ``module`` (its module's name) and :meth:`concepts`."""

    key = ""
    module = ""

    @property
    def name(self) -> str:
        return GAMES[self.key][0]

    @property
    def name_zh(self) -> str:
        return GAMES[self.key][1]

    def players(self) -> str:
        """The player count as the sourced facts state it (``comparison.toml``)."""
        for cell in comparison_data()["cell"]:
            if cell["game"] == self.key and cell["attribute"] == "players":
                return cell["value"]
        raise KeyError(f"no players fact for {self.key}")

    def turn_sequence(self, n_players: int, turns: int = 8) -> list[int]:
        """The first ``turns`` seats to act, start player 0: by default clockwise, one seat
        after the other (a kernel whose order differs overrides it)."""
        return [t % n_players for t in range(turns)]

    def rules(self) -> str:
        """The kernel's rules in one paragraph: the second paragraph of its module docstring."""
        doc = sys.modules[self.module].__doc__ or ""
        paragraphs = [p.strip() for p in doc.split("\n\n") if p.strip()]
        return " ".join(paragraphs[1].split()) if len(paragraphs) > 1 else " ".join(doc.split())

    def __repr__(self) -> str:
        return f"<sibling {self.key}>"


__all__ = ["CONCEPTS", "KernelGame", "SiblingGame", "comparison_data"]
