"""The player aid (a card, one per seat) and the one-page rules sheet.

The player aid's front: the snake turn order for 3 to 6 players (R4.1, from
:func:`~dungeon_guilds.turn_order.snake_order`) and who is skipped (R4.2), the three actions
with their costs by level (the engine's fee tables ``BUMP_FEES``, ``SWAP_FEE``,
``NPC_BUMP_FEE``: R4.3–R4.5, R10.2) and the deck's lock thresholds; its back: resolution step
by step and cleanup, in the rule cards' words (R5.1–R5.3, R6.1–R6.4) with the deck's heal
costs. The rules sheet lists every rule card (``dungeon_guilds.rule_cards.CARDS``: every
R-number of the rules reference) by group, with its ruling, this deck's lock thresholds beside
R4.3 and the kit's lords beside R1.3, then :data:`ASKED` (what the one-line rules leave open,
in the engine's reading: issue 53), then the deck's numbers. A printed sheet names no file.
"""

from __future__ import annotations

from html import escape
from typing import Sequence

from ... import i18n
from ...cards import STRENGTHS, Deck
from ...lords import LORDS_BY_ID, PROMO_LORDS, Lord
from ...rule_cards import GROUPS, card, cards_in, group_title
from ...state import BUMP_FEES, NPC_BUMP_FEE, SWAP_FEE
from ...turn_order import snake_order
from .cards import Card, Face, field, frame, t

RESOLUTION = ("R5.1", "R5.2", "R5.3")
CLEANUP = ("R6.1", "R6.2", "R6.3", "R6.4")
PLAYER_COUNTS = (3, 4, 5, 6)
# What a reader of the one-line rules asks (issue 53), each under its rule's number, in the
# words of ``pnp.kit.<key>``; the engine plays each so: R4.4 ``State._bump`` gives the
# adventurer back active; R4.2 ``State._advance`` passes a seat with two placed; R10.2
# ``State._npc_move`` / ``_npc_enter`` (strength = the new room's level); R5.2
# ``payout.split`` (one occupant takes it all); R6.2 ``State._cleanup`` exhausts only those in
# the dungeon, R8.1 ``unplayed`` = active when dispatch ends; R10.1 ``scoring.result`` sums
# the partners' tie-breaks.
ASKED = (("R4.4", "bumped"), ("R4.2", "skipped"), ("R10.2", "npc_moves"), ("R5.2", "one_adventurer"),
         ("R6.2", "placed_means"), ("R10.1", "team_tie"))


def kit(key: str, lang: str, **values) -> str:
    return t(f"kit.{key}", lang, **values)


def _rule(rid: str, lang: str, title: bool = True) -> str:
    c = card(rid)
    head = f"<b>{escape(c.title(lang))}</b> " if title else ""
    return f'<li data-rule="{rid}"><span class="rid">{rid}</span> {head}{field("rule-line", c.line(lang))}</li>'


def _costs(lang: str) -> list[str]:
    """Replacing another player's adventurer, by level (R4.4): the engine's fee table."""
    out = []
    for level, (bank, them) in sorted(BUMP_FEES.items()):
        key = "aid_bump_cost_them" if them else "aid_bump_cost"
        out.append(t(key, lang, level=level, bank=bank, them=them))
    return out


def thresholds(deck: Deck, lang: str) -> str:
    """The deck's lock thresholds by level (R1.2, R4.3): ``Lv1 5, Lv2 9, Lv3 13`` (、 in 繁體中文)."""
    return i18n.join_list((kit("threshold", lang, level=lv, n=deck.levels[lv].lock_threshold)
                           for lv in sorted(deck.levels)), lang)


def heal_costs(deck: Deck, lang: str) -> str:
    """The deck's printed heal cost of each strength (R1.1)."""
    return i18n.join_list((kit("heal_cost", lang, strength=s, cost=deck.heal_cost(s)) for s in STRENGTHS), lang)


def _turn_orders(lang: str) -> str:
    """The snake for 3 to 6 players, one row each, never broken before its "…" (R4.1)."""
    rows = "".join(
        f'<tr data-players="{n}"><th>{escape(kit("aid_row", lang, players=n))}</th>'
        f'<td>{field("snake", kit("aid_order", lang, order="-".join(str(s + 1) for s in snake_order(n, 0, 2 * n + 1))))}'
        f'</td></tr>' for n in PLAYER_COUNTS)
    return f'<table class="snake">{rows}</table>'


def aid_front(players: int, deck: Deck, variant: str, lang: str) -> str:
    place, bump, swap = card("R4.3"), card("R4.4"), card("R4.5")
    bump_costs = "".join(f"<li>{field('bump-cost', c)}</li>" for c in _costs(lang))
    body = (f'<h4>{escape(t("aid_turns", lang))} <span class="rid">R4.1</span></h4>{_turn_orders(lang)}'
            f'{field("skip", kit("aid_skip", lang), "div", "small")}'
            f'<h4>{escape(t("aid_actions", lang))}</h4><ol class="actions">'
            f'<li><span class="rid">R4.3</span> <b>{escape(place.title(lang))}</b> {escape(t("aid_free", lang))} '
            f'{field("lock-thresholds", t("aid_lock", lang, thresholds=thresholds(deck, lang)))}</li>'
            f'<li><span class="rid">R4.4</span> <b>{escape(bump.title(lang))}</b><ul>{bump_costs}</ul>'
            f'{field("npc-cost", t("aid_npc", lang, fee=NPC_BUMP_FEE), "div", "small")}</li>'
            f'<li><span class="rid">R4.5</span> <b>{escape(swap.title(lang))}</b> '
            f'{field("swap-cost", t("aid_swap_cost", lang, fee=SWAP_FEE))}</li></ol>')
    return frame("kind_aid", body, variant, lang)


def aid_back(deck: Deck, variant: str, lang: str) -> str:
    body = (f'<h4>{escape(t("aid_resolution", lang))}</h4>'
            f'<ol class="steps">{"".join(_rule(r, lang, title=False) for r in RESOLUTION)}</ol>'
            f'{field("one-adventurer", kit("aid_one", lang), "div", "small")}'
            f'<h4>{escape(t("aid_cleanup", lang))}</h4>'
            f'<ol class="steps">{"".join(_rule(r, lang, title=False) for r in CLEANUP)}</ol>'
            f'{field("heal-costs", kit("aid_heal", lang, costs=heal_costs(deck, lang)), "div", "small")}')
    return frame("kind_aid", body, variant, lang)


def aid_cards(players: int, deck: Deck, variant: str, lang: str) -> list[Card]:
    """One player aid per seat."""
    front = Face("aid aid-front", aid_front(players, deck, variant, lang))
    back = Face("aid aid-back", aid_back(deck, variant, lang))
    return [Card("aid", front, back) for _ in range(players)]


def _lord_counts(lords: Sequence[Lord]) -> tuple[str, dict[str, int]]:
    """Which words name the kit's lords and their counts: ``all`` (official lords, promo among
    them: "6 base + 5 promo"), ``base`` (official base lords only), ``some`` (a workshop lord)."""
    promo = sum(1 for lord in lords if lord.promo)
    counts = {"n": len(lords), "base": len(lords) - promo, "promo": promo}
    if not all(LORDS_BY_ID.get(lord.id) == lord for lord in lords):
        return "some", counts
    return ("all" if promo else "base"), counts


def _deck_box(deck: Deck, lords: Sequence[Lord], players: int, lang: str) -> str:
    levels = []
    for lv, info in sorted(deck.levels.items()):
        n = sum(1 for c in deck.rooms if c.level == lv)
        levels.append(t("deck_level", lang, level=lv, defence=f"{info.defence[0]}–{info.defence[1]}",
                        treasure=f"${info.treasure[0]}–${info.treasure[1]}", cards=n))
    which, counts = _lord_counts(lords)
    items = [kit("deck_cards", lang, rooms=len(deck.rooms), lords=kit(f"deck_lords_{which}", lang, **counts),
                 players=players),
             t("deck_heal", lang, costs=heal_costs(deck, lang))] + levels
    return (f'<div class="deckbox"><b>{escape(t("deck_box", lang))}</b><ul>'
            + "".join(f"<li>{escape(x)}</li>" for x in items) + "</ul></div>")


def _beside(rid: str, deck: Deck, lords: Sequence[Lord], lang: str) -> str:
    """What this print adds to a rule's line: the deck's lock thresholds beside R4.3, the kit's
    lords beside R1.3 (the 5 promo lords of R1.3 are optional, R7.4)."""
    if rid == "R4.3":
        return " " + field("lock-here", kit("lock_here", lang, thresholds=thresholds(deck, lang)), cls="here")
    if rid == "R1.3":
        which, counts = _lord_counts(lords)
        if which == "base":
            counts["promo"] = len(PROMO_LORDS)  # the ones not printed
        return " " + field("lords-here", kit(f"lords_here_{which}", lang, **counts), cls="here")
    return ""


def _asked(lang: str) -> str:
    items = "".join(f'<li data-asked="{key}" data-asked-rule="{rid}"><span class="rid">{rid}</span> '
                    f'{field("asked", kit(key, lang))}</li>' for rid, key in ASKED)
    return f'<section class="group asked"><h3>{escape(kit("asked_title", lang))}</h3><ul>{items}</ul></section>'


def rules_sheet(deck: Deck, lords: Sequence[Lord], players: int, variant: str, lang: str) -> str:
    """The one-page rules sheet: every rule card by group, R-number, title, line and ruling,
    what this print adds beside R1.3 and R4.3, the points players ask about, the deck's box."""
    groups = []
    for g in GROUPS:
        items = []
        for c in cards_in(g):
            ruling = (f' <span class="ruling"><b>{escape(t("ruling", lang))}</b> '
                      f'{field("rule-ruling", c.ruling_text(lang))}</span>') if c.ruling else ""
            items.append(f'<li data-rule="{c.id}"><span class="rid">{c.id}</span> <b>{escape(c.title(lang))}.</b> '
                         f'{field("rule-line", c.line(lang))}{_beside(c.id, deck, lords, lang)}{ruling}</li>')
        groups.append(f'<section class="group"><h3>{escape(group_title(g, lang))}</h3>'
                      f'<ul>{"".join(items)}</ul></section>')
    return (f'<div class="rules"><h2>{escape(t("rules_title", lang))}</h2>'
            f'<p class="intro">{field("variant", variant)} — {escape(kit("rules_intro", lang))}</p>'
            f'<div class="cols">{"".join(groups)}{_asked(lang)}{_deck_box(deck, lords, players, lang)}</div></div>')


__all__ = ["ASKED", "CLEANUP", "PLAYER_COUNTS", "RESOLUTION", "aid_cards", "heal_costs", "rules_sheet", "thresholds"]
