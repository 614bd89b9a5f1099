"""Dungeon Guilds 地城聯盟 itself as a sibling game, so the comparison iterates over four alike.

The main game (docs/rules.md): a game lasts one round per player (§3). In dispatch the players
place adventurers in snake order (R4.1) into rooms whose fronts stay hidden (R1.2); in
resolution the rooms are revealed from the top down and a room that fails takes every room
below with it (R5.1); a cleared room's treasure is split between the owners of its two
adventurers (R5.2).

Nothing here restates a rule: the turn order is the engine's :func:`~dungeon_guilds.turn_order.snake_order`.
"""

from __future__ import annotations

from ..turn_order import snake_order
from .base import KernelGame


class GuildsGame(KernelGame):
    """Dungeon Guilds as a :class:`~dungeon_guilds.siblings.base.SiblingGame`."""

    key = "dungeon_guilds"
    module = __name__

    def turn_sequence(self, n_players: int, turns: int = 8) -> list[int]:
        """The engine's snake (R4.1)."""
        return snake_order(n_players, 0, turns)

    def concepts(self, n_players: int) -> dict[str, str]:
        return {"first_turns": str(self.turn_sequence(n_players)),
                "rounds": f"{n_players} (one per player)",
                "dice": "0 (placement is deterministic)",
                "key_chance": "— (no chance: room values are hidden, not random per action)",
                "worst": "a failed room fails every room below (R5.1)"}


GAME = GuildsGame()
