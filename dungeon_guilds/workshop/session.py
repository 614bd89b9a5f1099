"""What one workshop session shares between its widgets: the decks and the lords made so far.

The deck editor adds decks, the lord builder adds lords, and the A/B experiment offers both in
its rule sets. Give the three widgets the same :class:`WorkshopSession` (the dashboard's Lab tab
and notebook 09 do) and a deck saved in one appears in the others at once.
"""

from __future__ import annotations

from typing import Iterable

import traitlets

from ..cards import Deck, reference_deck
from ..lords import Lord


class WorkshopSession(traitlets.HasTraits):
    """``decks``: {name: Deck} (the reference deck always first); ``lords``: the workshop lords
    (custom :class:`Lord` objects, one per id). Both are replaced, never changed in place, so
    observers (``session.observe(fn, "decks")``) see every change."""

    decks = traitlets.Dict()
    lords = traitlets.Tuple()

    def __init__(self, decks: Iterable[Deck] = (), lords: Iterable[Lord] = (), **kwargs):
        super().__init__(**kwargs)
        self.decks = {"reference": reference_deck()}
        for deck in decks:
            self.add_deck(deck)
        for lord in lords:
            self.add_lord(lord)

    def add_deck(self, deck: Deck) -> None:
        """Add (or replace, by name) a deck."""
        new = dict(self.decks)
        new[deck.name] = deck
        self.decks = new

    def add_lord(self, lord: Lord) -> None:
        """Add (or replace, by id) a workshop lord."""
        others = tuple(x for x in self.lords if x.id != lord.id)
        self.lords = others + (lord,)

    def lord(self, lord_id: str) -> Lord:
        for x in self.lords:
            if x.id == lord_id:
                return x
        raise KeyError(lord_id)


__all__ = ["WorkshopSession"]
