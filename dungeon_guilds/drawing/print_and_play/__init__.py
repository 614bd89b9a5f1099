"""Print and play (issue 29): the cards of any deck and lords, a player aid and a one-page rules
sheet, as one HTML document a browser prints (English or 繁體中文, A4 or US Letter).

Why HTML with print CSS: it is pure Python and the standard library to make (it runs unchanged
in the static site's Pyodide, where a PDF library with font subsetting would have to ship as a
wheel and carry a 10–20 MB CJK font), the browser that shows the dashboard also prints it, and
Chromium turns it into exactly the pages laid out here (``@page`` size, millimetre geometry);
the fonts are the reader's own, and a PDF printed from it embeds only the glyphs used.

::

    from dungeon_guilds.drawing.print_and_play import print_set
    ps = print_set(deck, lords, players=6, lang="zh", paper="a4")
    ps.pages, ps.html()          # 2 × sheets of cards + 1 rules sheet; the document

What is printed comes from the engine's data: :mod:`.cards` (rooms, lords, adventurers, the
start-player marker), :mod:`.sheets` (player aid, rules sheet), laid out by :mod:`.layout`.
The variant's name (the deck's name and the lords') is at the foot of every card.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable, Sequence

from ... import i18n
from ...cards import Deck, reference_deck
from ...lords import ALL_LORDS, BASE_LORDS, LORDS_BY_ID, Lord, LordError, get_lord, lord_from_dict
from .cards import Card, adventurer_cards, lord_cards, marker_card, room_cards, t
from .layout import PAPER, PER_SHEET, document
from .sheets import aid_cards, rules_sheet
from . import selection

PLAYERS = (3, 4, 5, 6)  # the game's player counts; the box has six colours


def variant_name(deck: Deck, lords: Sequence[Lord], lang: str = "en") -> str:
    """The deck's name and the lords' (``reference deck · base lords``; workshop lords by name)."""
    deck_name = t("reference_deck", lang) if deck.name == "reference" else deck.name
    lords = tuple(lords)
    if lords == BASE_LORDS:
        part = t("lords_base", lang)
    elif lords == ALL_LORDS:
        part = t("lords_all", lang)
    else:
        custom = [i18n.lord_name(x, lang) for x in lords if LORDS_BY_ID.get(x.id) != x]
        part = t("lords_some", lang, n=len(lords)) + (" (" + i18n.join_list(custom, lang) + ")" if custom else "")
    return t("variant", lang, deck=deck_name, lords=part)


@dataclass(frozen=True)
class PrintSet:
    """What is printed for one variant: the cards (rooms, lords, adventurers, marker, player aids)
    and the rules sheet. ``sheets`` of nine cards, each printed front and back, then the rules
    sheet: ``pages = 2 × sheets + 1``."""

    deck: Deck
    lords: tuple[Lord, ...]
    players: int
    lang: str
    paper: str
    variant: str
    cards: tuple[Card, ...]
    rules: bool = True  # the rules sheet is printed
    chosen: tuple[str, ...] = ("all",)  # the selection (:mod:`.selection`)

    @property
    def sheets(self) -> int:
        return -(-len(self.cards) // PER_SHEET)

    @property
    def pages(self) -> int:
        return 2 * self.sheets + int(self.rules)

    def count(self, kind: str) -> int:
        return sum(1 for c in self.cards if c.kind == kind)

    def html(self) -> str:
        rules = rules_sheet(self.deck, self.lords, self.players, self.variant, self.lang) if self.rules else None
        return document(self.cards, rules, self.paper, self.lang, self.variant)

    def filename(self) -> str:
        stem = "".join(ch if ch.isalnum() or ch in "-_" else "_" for ch in self.deck.name) or "deck"
        part = "" if self.chosen == ("all",) else "_" + "-".join(self.chosen)
        return f"print-and-play_{stem}{part}_{self.lang}_{self.paper}.html"


def _cards(deck: Deck, lords: Sequence[Lord], players: int, lang: str, name: str) -> list[Card]:
    return (room_cards(deck, name, lang) + lord_cards(lords, name, lang)
            + adventurer_cards(players, deck, name, lang) + [marker_card(name, lang)]
            + aid_cards(players, deck, name, lang))


def print_set(deck: Deck | None = None, lords: Iterable[Lord] | None = None, players: int = 6,
              lang: str = "en", paper: str = "a4", variant: str | None = None,
              cards: str | Sequence[str] = "all") -> PrintSet:
    """The cards of ``deck`` (the reference deck) and ``lords`` (the base lords) for ``players``
    seats, in ``lang``, on ``paper`` (``a4`` or ``letter``); ``cards`` chooses which
    (:mod:`.selection`: ``changed``, kinds, levels, lord ids; default ``all``). Refuses, with a
    sentence, a paper, player count, language or selection word it does not know, fewer lords
    than players (R2.2), and a selection that chooses no card."""
    deck = deck or reference_deck()
    lords = tuple(BASE_LORDS if lords is None else lords)
    if paper not in PAPER:
        raise ValueError(f"paper: expected one of {', '.join(PAPER)}, got {paper!r}")
    if players not in PLAYERS:
        raise ValueError(f"players: expected 3 to 6, got {players!r}")
    if lang not in i18n.languages():
        raise ValueError(f"lang: expected one of {', '.join(i18n.languages())}, got {lang!r}")
    if len(lords) < players:
        raise ValueError(f"lords: a {players}-player game draws {players} lords (R2.2); "
                         f"only {len(lords)} given")
    name = variant or variant_name(deck, lords, lang)
    chosen = selection.parse(cards, [lord.id for lord in lords])
    every = _cards(deck, lords, players, lang, name)
    reference = _cards(reference_deck(), ALL_LORDS, players, lang, name) if "changed" in chosen else None
    picked = selection.select(every, chosen, reference)
    rules = "all" in chosen or "rules" in chosen
    if not picked and not rules:
        raise ValueError(t("nothing_chosen", lang))
    return PrintSet(deck, lords, players, lang, paper, name, picked, rules, chosen)


def print_summary(ps: PrintSet, out: str) -> str:
    """What ``dungeon-guilds print-and-play`` says it wrote, in the print's language: the cards
    by kind, sheets and pages, and how to print — one page, one-sided, for a rules sheet alone
    (issue 53: it said "0 cards … on 0 sheets, fronts and backs … print it double-sided")."""
    if not ps.cards:
        return t("kit.summary_rules_only", ps.lang, out=out, paper=t(f"paper_{ps.paper}", ps.lang))
    return t("kit.summary_cards", ps.lang, out=out, cards=len(ps.cards), rooms=ps.count("room"),
             lords=ps.count("lord"), adventurers=ps.count("adventurer"), marker=ps.count("marker"),
             aids=ps.count("aid"), sheets=ps.sheets, rules=t("kit.summary_rules_after", ps.lang) if ps.rules else "",
             pages=ps.pages, paper=t(f"paper_{ps.paper}", ps.lang))


def print_and_play_html(deck: Deck | None = None, lords: Iterable[Lord] | None = None, players: int = 6,
                        lang: str = "en", paper: str = "a4", variant: str | None = None) -> str:
    """The printable HTML document of :func:`print_set`."""
    return print_set(deck, lords, players, lang, paper, variant).html()


def _lord_entry(entry: Any, where: str) -> Lord:
    if isinstance(entry, str):
        return get_lord(entry)
    return lord_from_dict(entry, where)


def parse_lords(spec: str) -> tuple[Lord, ...]:
    """The lords a command line names: ``base``, ``all``, ids separated by commas
    (``beholder,red_dragon``), or a JSON file: a list of lords (printed ids or lord objects as
    ``Lord.to_dict`` writes them), one lord object, or anything with a ``lords`` list — a game
    record works. A bad entry raises :class:`~dungeon_guilds.lords.LordError` naming it."""
    spec = spec.strip()
    if spec in ("base", "all"):
        return BASE_LORDS if spec == "base" else ALL_LORDS
    if spec.lower().endswith(".json") or Path(spec).is_file():
        try:
            data = json.loads(Path(spec).read_text(encoding="utf-8"))
        except OSError as err:
            raise LordError(f"{spec}: cannot read the lords file ({err.strerror})") from None
        except json.JSONDecodeError as err:
            raise LordError(f"{spec}: not JSON ({err.msg}, line {err.lineno})") from None
        if isinstance(data, dict):
            data = data["lords"] if "lords" in data else [data]
        if not isinstance(data, list) or not data:
            raise LordError(f"{spec}: expected a list of lords")
        return tuple(_lord_entry(e, f"{spec}: lords[{i}]") for i, e in enumerate(data))
    ids = [x.strip() for x in spec.split(",") if x.strip()]
    if not ids:
        raise LordError("--lords: name base, all, lord ids or a JSON file")
    return tuple(get_lord(x) for x in ids)


__all__ = ["PLAYERS", "PrintSet", "parse_lords", "print_and_play_html", "print_set", "print_summary", "variant_name"]
