"""The workshop's decks and lords offered in a game set-up (issue 26, item 1): a deck from the
deck editor (or the reference deck) and a lord from the lord builder in play in round 1 (or the
lords drawn as usual). The choices follow the shared
:class:`~dungeon_guilds.workshop.session.WorkshopSession`: a deck or lord added in the Lab
appears here at once."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import ipywidgets as W

from .. import i18n
from ..game import rng
from ..lords import lord_pool
from ..rules import Rules
from .common import set_options
from .labels import label_all

if TYPE_CHECKING:  # the workshop needs pandas, which the static site's browsers lack
    from ..workshop.session import WorkshopSession

DRAWN = ""  # the first-lord choice that draws every lord as usual (R2.2)


class WorkshopChoice(W.HBox):
    """``deck_dropdown`` and ``lord_dropdown``; :meth:`game_kwargs` gives a game's ``deck`` and
    ``lords``."""

    LABELS = {"deck_dropdown": "workshop_deck", "lord_dropdown": "workshop_lord"}  # play.*

    def __init__(self, session: "WorkshopSession", lang: str = "en"):
        self.session = session
        self.deck_dropdown = W.Dropdown(layout=W.Layout(width="auto")).add_class("dg-deck-choice")
        self.lord_dropdown = W.Dropdown(layout=W.Layout(width="auto")).add_class("dg-lord-choice")
        super().__init__([self.deck_dropdown, self.lord_dropdown])
        self.add_class("dg-workshop-choice")
        self.lang = lang
        session.observe(lambda _c: self.relabel(self.lang), ["decks", "lords"])
        self.relabel(lang)

    def relabel(self, lang: str) -> None:
        self.lang = lang
        t = lambda key: i18n.t(f"play.{key}", lang)  # noqa: E731
        label_all(self, self.LABELS, t)
        set_options(self.deck_dropdown, [(t("deck_reference") if name == "reference" else name, name)
                                         for name in self.session.decks])
        set_options(self.lord_dropdown, [(t("lord_drawn"), DRAWN)]
                    + [(f"{i18n.lord_name(x, lang)} ({x.id})", x.id) for x in self.session.lords])
        for w in (self.deck_dropdown, self.lord_dropdown):
            w.style = {"description_width": "initial"}

    def game_kwargs(self, rules: Rules, players: int, seed: int | str) -> dict[str, Any]:
        """``deck`` and ``lords`` for :class:`~dungeon_guilds.Game`: the chosen lord in round 1,
        the other rounds' lords drawn by the seed from the ``lords`` option's pool (as the lord
        builder's test game and the class tables do)."""
        out: dict[str, Any] = {"deck": self.session.decks.get(self.deck_dropdown.value)}
        if self.lord_dropdown.value:
            lord = self.session.lord(self.lord_dropdown.value)
            pool = [x for x in lord_pool(rules.lords) if x.id != lord.id]
            out["lords"] = [lord] + rng(seed, "table-lords").sample(pool, players - 1)
        return out


__all__ = ["DRAWN", "WorkshopChoice"]
