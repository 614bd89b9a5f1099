"""Which cards to print (issue 40): a 15-minute playtest reprints only what changed.

A selection is a list of words: ``all``; ``changed`` — the cards that differ from the reference
deck's and the official lords' (a card printed exactly as one of theirs, in the same language
and paper, is not printed again: a changed room range changes that level's backs too, a changed
heal cost the adventurers and player aids); a kind — ``rooms``, ``lords``, ``adventurers``,
``marker``, ``aids``; ``level1`` … ``level3`` (the rooms of a level); a lord's id
(``red_dragon``); ``rules`` (the rules sheet). A card matching any word is printed; the rules
sheet is printed with ``all`` or ``rules``.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Iterable, Sequence

from .cards import Card

KINDS = {"rooms": "room", "lords": "lord", "adventurers": "adventurer", "marker": "marker", "aids": "aid"}
WORDS = ("all", "changed", *KINDS, "level1", "level2", "level3", "rules")
_LEVEL = re.compile(r'data-level="(\d)"')
_LORD = re.compile(r'data-lord="([^"]+)"')


def parse(spec: str | Iterable[str], lord_ids: Iterable[str]) -> tuple[str, ...]:
    """The words of a selection (``"changed,lords"`` or a list); ValueError naming a word that
    is neither one of :data:`WORDS` nor a lord's id."""
    words = [w.strip() for w in (spec.split(",") if isinstance(spec, str) else spec) if w.strip()]
    known = set(WORDS) | set(lord_ids)
    for word in words:
        if word not in known:
            raise ValueError(f"cards to print: {word!r} is not one of {', '.join(WORDS)} or a lord's id")
    return tuple(words) or ("all",)


def _key(card: Card) -> tuple[str, str, str, str]:
    return (card.kind, card.front.html, card.front.attrs, card.back.html)


def changed(cards: Sequence[Card], reference: Sequence[Card]) -> list[bool]:
    """For each card, whether it differs from every card left in ``reference`` (a multiset:
    three equal reference cards cover three equal cards)."""
    left = Counter(_key(c) for c in reference)
    out = []
    for card in cards:
        key = _key(card)
        out.append(left[key] == 0)
        if left[key]:
            left[key] -= 1
    return out


def matches(card: Card, words: Sequence[str]) -> bool:
    """Whether a word other than ``changed`` chooses ``card``."""
    for word in words:
        if word == "all" or KINDS.get(word) == card.kind:
            return True
        level = _LEVEL.search(card.front.attrs)
        if card.kind == "room" and level and word == f"level{level.group(1)}":
            return True
        lord = _LORD.search(card.front.attrs)
        if card.kind == "lord" and lord and word == lord.group(1):
            return True
    return False


def select(cards: Sequence[Card], words: Sequence[str], reference: Sequence[Card] | None) -> tuple[Card, ...]:
    """The cards ``words`` choose (``reference``: the reference's cards, for ``changed``)."""
    differs = changed(cards, reference) if "changed" in words and reference is not None else [False] * len(cards)
    return tuple(c for c, d in zip(cards, differs) if d or matches(c, words))


__all__ = ["KINDS", "WORDS", "changed", "matches", "parse", "select"]
