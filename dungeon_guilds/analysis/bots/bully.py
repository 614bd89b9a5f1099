"""The bully: bumps whenever it can pay, and does not mind rooms failing."""

from __future__ import annotations

from ...actions import BUMP, PLACE
from ...payout import NPC
from ..probability import clear_probability_after
from .base import Bot


class BullyBot(Bot):
    name = "bully"
    description = ("Bumps another player's adventurer whenever it can afford to, richest victim "
                   "first, and otherwise drops its weakest adventurer where a room is most likely "
                   "to fail.")

    def choose_exhaust(self, state, player, legal):
        return self.pick_exhaust(legal, 2, 3)  # keep 4 and 5 to bump with, and 1 to spoil with

    def choose_move(self, state, player, legal):
        view = state.view(player)
        bumps = [a for a in legal if a.kind == BUMP]
        if bumps:
            def key(a):
                owner, strength = view.rooms[a.room - 1].slots[a.slot]
                victim_gold = -1 if owner == NPC else view.gold[owner]
                return (-victim_gold, view.rooms[a.room - 1].level, a.strength, a.room, a.slot)
            return min(bumps, key=key)
        places = [a for a in legal if a.kind == PLACE]
        if places:
            weakest = min(a.strength for a in places)
            options = [a for a in places if a.strength == weakest]

            def spoil(a):
                room = view.rooms[a.room - 1]
                others = any(slot is not None and slot[0] not in (player, NPC) for slot in room.slots)
                return (not others, clear_probability_after(state, player, a), a.room)
            return min(options, key=spoil)
        return min(legal, key=lambda a: (a.strength, a.room))
