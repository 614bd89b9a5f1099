"""The "Print and play" control of the deck editor, the lord builder and the Rules tab (issue 29).

A paper choice (A4 or US Letter), the number of seats to print adventurers for, which cards
(all, only the ones that differ from the reference — a playtest's reprint — or one kind), and a
button;
the button makes the printable document (:mod:`dungeon_guilds.drawing.print_and_play`) in memory
and offers it as a browser download — nothing is written on the server, and it works the same in
the static site (pure Python). Its owner says what to print: ``PrintPanel(source)`` where
``source()`` returns ``(deck, lords)``; the owner wraps the click in its error policy
(``widgets.common.safe``), so a deck with bad cells is explained, not printed.
"""

from __future__ import annotations

from html import escape
from typing import Callable, Sequence

import ipywidgets as W

from .. import i18n
from ..cards import Deck
from ..drawing.print_and_play import PLAYERS, PrintSet, print_set
from ..lords import Lord
from .downloads import download_link
from .labels import label_all

# what the panel offers to print (issue 40): its words in print_and_play.selection
ONLY = {"all": "all", "changed": "changed", "rooms": "rooms", "lords": "lords",
        "adventurers": "adventurers,marker,aids"}
Source = Callable[[], tuple[Deck | None, Sequence[Lord] | None]]


class PrintPanel(W.VBox):
    """``paper`` (a4 / letter), ``players`` (3–6), ``button``, ``link_html`` (the download, with
    what it holds); :meth:`prepare` makes it (tests call it directly); ``last`` is the last
    :class:`PrintSet` made."""

    # every control's words (labels.py)
    LABELS = {"button": "pnp.button", "button.tooltip": "pnp.panel_intro", "paper.tooltip": "pnp.paper",
              "players": "pnp.players"}

    def __init__(self, source: Source, lang: str = "en"):
        super().__init__()
        self.source = source
        self.lang = lang
        self.last: PrintSet | None = None
        self.paper = W.ToggleButtons(options=[("A4", "a4"), ("Letter", "letter")], value="a4",
                                     style={"button_width": "auto"}).add_class("dg-pnp-paper")
        self.players = W.Dropdown(options=list(PLAYERS), value=PLAYERS[-1],
                                  layout=W.Layout(width="auto")).add_class("dg-pnp-players")
        self.only = W.Dropdown(options=[(k, k) for k in ONLY], value="all",
                               layout=W.Layout(width="auto")).add_class("dg-pnp-only")
        self.button = W.Button(icon="print", layout=W.Layout(width="max-content")).add_class("dg-pnp-button")
        self.link_html = W.HTML().add_class("dg-pnp-link")
        self.title_html = W.HTML()
        self.children = [self.title_html, W.HBox([self.paper, self.players, self.only, self.button],
                                                 layout=W.Layout(flex_flow="row wrap", align_items="center")),
                         self.link_html]
        self.add_class("dg-print-panel")
        self.relabel(lang)

    def relabel(self, lang: str) -> None:
        self.lang = lang
        t = lambda key, **v: i18n.t(f"pnp.{key}", lang, **v)  # noqa: E731
        self.title_html.value = f"<b>{escape(t('button'))}</b> — {escape(t('panel_intro'))}"
        paper = self.paper.value
        self.paper.options = [(t("paper_a4"), "a4"), (t("paper_letter"), "letter")]
        self.paper.value = paper
        label_all(self, self.LABELS, lambda key: i18n.t(key, lang))
        self.players.style = {"description_width": "initial"}
        only = self.only.value
        self.only.options = [(t(f"only_{k}"), k) for k in ONLY]
        self.only.value = only
        self.only.description = t("only")
        self.only.style = {"description_width": "initial"}
        self.link_html.value = ""  # a download made in the other language: press again
        self.last = None

    def prepare(self) -> PrintSet:
        """Make the document from the owner's deck and lords and offer it as a download."""
        deck, lords = self.source()
        ps = print_set(deck, lords, players=int(self.players.value), lang=self.lang, paper=self.paper.value,
                       cards=ONLY[self.only.value])
        self.last = ps
        label = i18n.t("pnp.download", self.lang, file=ps.filename(), cards=len(ps.cards), pages=ps.pages)
        self.link_html.value = download_link(ps.html(), ps.filename(), label, "text/html")
        return ps


__all__ = ["PrintPanel"]
