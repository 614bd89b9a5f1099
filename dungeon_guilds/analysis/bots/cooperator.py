"""The cooperator: a helpful dungeon partner who never bumps anyone."""

from __future__ import annotations

from ...actions import BUMP, PLACE, SWAP
from ..probability import clear_probability, clear_probability_after
from .base import Bot


class CooperatorBot(Bot):
    name = "cooperator"
    description = ("Fills rooms from the top so they clear, using the weakest adventurer that "
                   "makes a room safe, and never bumps anyone.")

    def choose_exhaust(self, state, player, legal):
        return self.pick_exhaust(legal, 1, 2)  # keep the strong adventurers for the dungeon

    def choose_move(self, state, player, legal):
        view = state.view(player)
        places = [a for a in legal if a.kind == PLACE]
        if places:
            by_room: dict[int, list] = {}
            for a in places:
                by_room.setdefault(a.room - 1, []).append(a)
            for i in sorted(by_room):  # top room first: a failure there fails every room below
                total = sum(slot[1] for slot in view.rooms[i].slots if slot is not None)
                if clear_probability(view, i, total) == 1:
                    continue
                options = sorted(by_room[i], key=lambda a: a.strength)
                chance = {a: clear_probability_after(state, player, a) for a in options}
                sure = [a for a in options if chance[a] == 1]
                if sure:
                    return sure[0]
                best = max(chance.values())
                return next(a for a in options if chance[a] == best)
            top = min(by_room)
            return min(by_room[top], key=lambda a: a.strength)
        swaps = [a for a in legal if a.kind == SWAP]
        if swaps:  # make an own room stronger
            return max(swaps, key=lambda a: (a.strength, -a.room))
        bumps = [a for a in legal if a.kind == BUMP]  # only when nothing else is legal
        return min(bumps, key=lambda a: (a.room, a.strength)) if bumps else legal[0]
