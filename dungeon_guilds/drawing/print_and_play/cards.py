"""The printed cards, each a front and a back, from the engine's data (never retyped).

* rooms (R1.2): the back shows the level and its ranges (the top of the defence range is the
  lock threshold, R4.3), the front the exact defence and treasure — one card per card of the deck;
* Dungeon Lords (R1.3, §7): the name in both languages, the effect in words and the rules that
  touch it (:func:`dungeon_guilds.rule_cards.lord_card`); one back for all;
* adventurers (R1.1): five per seat, strengths 1–5 with the deck's heal cost, in the seat's
  colour *and* pattern and with its number (colour is never the only cue); the back is the
  exhausted side (R2.4, R6.2) and shows the seat, not the strength;
* the start-player marker (R2.5, R6.3).

Every value a test compares with the engine sits in an element with a ``data-field`` attribute
(``defence``, ``treasure``, ``lord-effect`` …), so the printed text can be read back from the HTML.
The player aid is in :mod:`.sheets`.
"""

from __future__ import annotations

from dataclasses import dataclass
from html import escape
from typing import Sequence

from ... import i18n
from ..colours import COLOURS, PATTERNS
from ...cards import Deck, RoomCard
from ...lords import Lord
from ...rule_cards import card as rule_card
from ...rule_cards import lord_card


@dataclass(frozen=True)
class Face:
    """One side of a card: its kind (a CSS class) and its inner HTML."""

    kind: str
    html: str
    attrs: str = ""  # data attributes of the card element


@dataclass(frozen=True)
class Card:
    kind: str  # room, lord, adventurer, marker, aid
    front: Face
    back: Face


def t(key: str, lang: str, **values) -> str:
    return i18n.t(f"pnp.{key}", lang, **values)


def field(name: str, value, tag: str = "span", cls: str = "") -> str:
    """A value a reader (or a test) can find: ``<span class="f-defence" data-field="defence">6</span>``."""
    classes = f"f-{name} {cls}".strip()
    return f'<{tag} class="{classes}" data-field="{name}">{escape(str(value))}</{tag}>'


def frame(kind_key: str, body: str, variant: str, lang: str, extra: str = "") -> str:
    """A card's inside: the kind at the top, the body, the variant's name at the foot."""
    return (f'<div class="head">{escape(t(kind_key, lang))}{extra}</div>'
            f'<div class="body">{body}</div>'
            f'<div class="foot">{field("variant", variant)}</div>')


# ---------------------------------------------------------------------- rooms
def _pips(level: int) -> str:
    """The level as pips as well as a number (readable in black and white)."""
    return f'<span class="pips" aria-hidden="true">{"◆" * level}{"◇" * (3 - level)}</span>'


def room_back(level: int, deck: Deck, variant: str, lang: str) -> Face:
    info = deck.levels[level]
    body = (f'<div class="level">{field("level", t("level", lang, level=level))}{_pips(level)}</div>'
            f'<div class="range"><b>{escape(t("defence", lang))}</b> '
            f'{field("defence-range", t("range", lang, low=info.defence[0], high=info.defence[1]))}</div>'
            f'<div class="lock">{field("lock", t("lock", lang, n=info.lock_threshold))}</div>'
            f'<div class="range"><b>{escape(t("treasure", lang))}</b> '
            f'{field("treasure-range", t("money_range", lang, low=info.treasure[0], high=info.treasure[1]))}</div>')
    return Face(f"room-back lv{level}", frame("kind_room", body, variant, lang), f'data-level="{level}"')


def room_front(card: RoomCard, variant: str, lang: str) -> Face:
    body = (f'<div class="level">{field("level", t("level", lang, level=card.level))}{_pips(card.level)}</div>'
            f'<div class="big"><span class="label">{escape(t("defence", lang))}</span>'
            f'{field("defence", card.defence, cls="num")}</div>'
            f'<div class="big"><span class="label">{escape(t("treasure", lang))}</span>'
            f'<span class="num">$</span>{field("treasure", card.treasure, cls="num")}</div>')
    return Face(f"room-front lv{card.level}", frame("kind_room", body, variant, lang),
                f'data-level="{card.level}"')


def room_cards(deck: Deck, variant: str, lang: str) -> list[Card]:
    """One card per room card of the deck, in the deck's order by level."""
    rooms = sorted(deck.rooms, key=lambda c: (c.level, c.defence, c.treasure))
    return [Card("room", room_front(c, variant, lang), room_back(c.level, deck, variant, lang)) for c in rooms]


# ---------------------------------------------------------------------- lords
# A card holds about this many characters of effect and rulings at full size (measured in
# Chromium); a lord with more (a busy workshop lord) prints its rules by title, the rules sheet
# has their words.
CARD_TEXT_BUDGET = {"zh": 230}
CARD_TEXT_BUDGET_DEFAULT = 520


def _ruling_texts(lc, lang: str) -> list[tuple[str, str]]:
    """The rules touching a lord, in full, or by their titles if the card cannot hold them."""
    size = len(lc.effect) + sum(len(text) for _, text in lc.rulings)
    if size <= CARD_TEXT_BUDGET.get(lang, CARD_TEXT_BUDGET_DEFAULT):
        return list(lc.rulings)
    return [(rid, rule_card(rid).title(lang)) for rid, _ in lc.rulings]


def lord_front(lord: Lord, variant: str, lang: str) -> Face:
    lc = lord_card(lord, lang)
    other = "en" if lang == "zh" else "zh"
    effect = lc.effect or ("；" if lang == "zh" else "; ").join(lc.numbers)  # a lord without words
    rulings = "".join(f'<li data-rule="{rid}"><b>{rid}</b> {field("lord-ruling", text)}</li>'
                      for rid, text in _ruling_texts(lc, lang))
    kind = t("promo", lang) if lc.promo else t("base", lang)
    body = (f'<div class="names">{field("lord-name", lc.name, "div", "name")}'
            f'{field("lord-name-other", i18n.lord_name(lord, other), "div", "name2")}</div>'
            f'{field("lord-effect", effect, "div", "effect")}'
            + (f'<div class="rulings"><b>{escape(t("lord_rulings", lang))}</b><ul>{rulings}</ul></div>'
               if rulings else ""))
    return Face("lord-front", frame("kind_lord", body, variant, lang, f' · {escape(kind)}'),
                f'data-lord="{escape(lord.id)}"')


def lord_back(variant: str, lang: str) -> Face:
    body = (f'<div class="names"><div class="name">{escape(i18n.t("pnp.kind_lord", "en"))}</div>'
            f'<div class="name">{escape(i18n.t("pnp.kind_lord", "zh"))}</div></div>'
            f'<div class="crest" aria-hidden="true">♛</div><div class="note">{escape(t("lord_back", lang))}</div>')
    return Face("lord-back", frame("kind_lord", body, variant, lang))


def lord_cards(lords: Sequence[Lord], variant: str, lang: str) -> list[Card]:
    back = lord_back(variant, lang)
    return [Card("lord", lord_front(lord, variant, lang), back) for lord in lords]


# ---------------------------------------------------------------------- adventurers
def seat_band(seat: int, lang: str, tall: bool = False) -> str:
    """The seat's colour with its pattern (black lines: readable in black and white) and its
    number, as an inline SVG (SVG fills print whatever the browser's background setting)."""
    colour = COLOURS[seat % len(COLOURS)]
    pattern = PATTERNS[seat % len(PATTERNS)]
    h = 40 if tall else 14
    fill = f'<rect width="100" height="{h}" fill="url(#pnp-{pattern})"/>' if pattern != "none" else ""
    return (f'<svg class="band" viewBox="0 0 100 {h}" preserveAspectRatio="none" role="img" '
            f'aria-label="{escape(t("seat", lang, seat=seat + 1))}" data-pattern="{pattern}">'
            f'<rect width="100" height="{h}" fill="{colour}"/>{fill}</svg>')


def adventurer_front(seat: int, strength: int, deck: Deck, variant: str, lang: str) -> Face:
    body = (f'<div class="seatrow">{seat_band(seat, lang)}{field("seat", t("seat", lang, seat=seat + 1), "div", "seat")}</div>'
            f'<div class="big"><span class="label">{escape(t("strength", lang))}</span>'
            f'{field("strength", strength, cls="num huge")}</div>'
            f'<div class="heal"><span class="label">{escape(t("heal", lang))}</span> '
            f'<span class="num">$</span>{field("heal", deck.heal_cost(strength), cls="num")}</div>')
    return Face(f"adventurer-front seat{seat + 1}", frame("kind_adventurer", body, variant, lang),
                f'data-seat="{seat + 1}" data-strength="{strength}"')


def adventurer_back(seat: int, variant: str, lang: str) -> Face:
    body = (f'<div class="seatrow tall">{seat_band(seat, lang, tall=True)}</div>'
            f'{field("seat", t("seat", lang, seat=seat + 1), "div", "seat bigseat")}'
            f'<div class="exhausted">{escape(t("exhausted", lang))}</div>'
            f'<div class="note">{escape(t("exhausted_note", lang))}</div>')
    return Face(f"adventurer-back seat{seat + 1}", frame("kind_adventurer", body, variant, lang),
                f'data-seat="{seat + 1}"')


def adventurer_cards(players: int, deck: Deck, variant: str, lang: str) -> list[Card]:
    """Five adventurers per seat (R1.1)."""
    return [Card("adventurer", adventurer_front(seat, s, deck, variant, lang), adventurer_back(seat, variant, lang))
            for seat in range(players) for s in (1, 2, 3, 4, 5)]


# ---------------------------------------------------------------------- the start-player marker
def marker_card(variant: str, lang: str) -> Card:
    body = (f'<div class="crest" aria-hidden="true">★</div>'
            f'{field("marker", t("marker_title", lang), "div", "name")}'
            f'<div class="note">{escape(t("marker_note", lang))}</div>')
    face = Face("marker", frame("kind_marker", body, variant, lang))
    return Card("marker", face, face)


__all__ = ["Card", "Face", "adventurer_cards", "field", "frame", "lord_cards", "marker_card", "room_cards", "t"]
