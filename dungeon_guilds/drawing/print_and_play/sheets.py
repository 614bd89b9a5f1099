"""The player aid (a card, one per seat) and the one-page rules sheet.

The player aid's front: the snake turn order for the number of players (R4.1, from
:func:`~dungeon_guilds.turn_order.snake_order`), the three actions with their costs by level
(the engine's fee tables ``BUMP_FEES``, ``SWAP_FEE``, ``NPC_BUMP_FEE``: R4.3–R4.5, R10.2) and the
deck's lock thresholds; its back: resolution step by step and cleanup, in the rule cards' words
(R5.1–R5.3, R6.1–R6.4) with the deck's heal costs. The rules sheet lists every rule card
(``dungeon_guilds.rule_cards.CARDS``: every R-number of docs/rules.md) by group, with its
ruling, and the deck's numbers.
"""

from __future__ import annotations

from html import escape

from ...cards import STRENGTHS, Deck
from ...rule_cards import GROUPS, card, cards_in, group_title
from ...state import BUMP_FEES, NPC_BUMP_FEE, SWAP_FEE
from ...turn_order import snake_order
from .cards import Card, Face, field, frame, t

RESOLUTION = ("R5.1", "R5.2", "R5.3")
CLEANUP = ("R6.1", "R6.2", "R6.3", "R6.4")


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


def aid_front(players: int, deck: Deck, variant: str, lang: str) -> str:
    order = "-".join(str(s + 1) for s in snake_order(players, 0, 2 * players + 1))
    thresholds = ", ".join(f"Lv{lv} {deck.levels[lv].lock_threshold}" for lv in sorted(deck.levels))
    place, bump, swap = card("R4.3"), card("R4.4"), card("R4.5")
    bump_costs = "".join(f"<li>{field('bump-cost', c)}</li>" for c in _costs(lang))
    body = (f'<h4>{escape(t("aid_turns", lang))} <span class="rid">R4.1</span></h4>'
            f'{field("snake", t("aid_snake", lang, players=players, order=order), "div")}'
            f'<h4>{escape(t("aid_actions", lang))}</h4><ol class="actions">'
            f'<li><span class="rid">R4.3</span> <b>{escape(place.title(lang))}</b> {escape(t("aid_free", lang))} '
            f'{field("lock-thresholds", t("aid_lock", lang, thresholds=thresholds))}</li>'
            f'<li><span class="rid">R4.4</span> <b>{escape(bump.title(lang))}</b><ul>{bump_costs}</ul>'
            f'{field("npc-cost", t("aid_npc", lang, fee=NPC_BUMP_FEE), "div", "small")}</li>'
            f'<li><span class="rid">R4.5</span> <b>{escape(swap.title(lang))}</b> '
            f'{field("swap-cost", t("aid_swap_cost", lang, fee=SWAP_FEE))}</li></ol>')
    return frame("kind_aid", body, variant, lang)


def aid_back(deck: Deck, variant: str, lang: str) -> str:
    heal = ", ".join(f"{s}: ${deck.heal_cost(s)}" for s in STRENGTHS)
    body = (f'<h4>{escape(t("aid_resolution", lang))}</h4>'
            f'<ol class="steps">{"".join(_rule(r, lang, title=False) for r in RESOLUTION)}</ol>'
            f'<h4>{escape(t("aid_cleanup", lang))}</h4>'
            f'<ol class="steps">{"".join(_rule(r, lang, title=False) for r in CLEANUP)}</ol>'
            f'{field("heal-costs", t("aid_heal", lang, costs=heal), "div", "small")}')
    return frame("kind_aid", body, variant, lang)


def aid_cards(players: int, deck: Deck, variant: str, lang: str) -> list[Card]:
    """One player aid per seat."""
    front = Face("aid aid-front", aid_front(players, deck, variant, lang))
    back = Face("aid aid-back", aid_back(deck, variant, lang))
    return [Card("aid", front, back) for _ in range(players)]


def _deck_box(deck: Deck, n_lords: int, players: int, lang: str) -> str:
    heal = ", ".join(f"{s}: ${deck.heal_cost(s)}" for s in STRENGTHS)
    levels = []
    for lv, info in sorted(deck.levels.items()):
        n = sum(1 for c in deck.rooms if c.level == lv)
        levels.append(t("deck_level", lang, level=lv, defence=f"{info.defence[0]}–{info.defence[1]}",
                        treasure=f"${info.treasure[0]}–${info.treasure[1]}", cards=n))
    items = [t("deck_cards", lang, rooms=len(deck.rooms), lords=n_lords, players=players),
             t("deck_heal", lang, costs=heal)] + levels
    return (f'<div class="deckbox"><b>{escape(t("deck_box", lang))}</b><ul>'
            + "".join(f"<li>{escape(x)}</li>" for x in items) + "</ul></div>")


def rules_sheet(deck: Deck, n_lords: int, players: int, variant: str, lang: str) -> str:
    """The one-page rules sheet: every rule card by group, R-number, title, line and ruling."""
    groups = []
    for g in GROUPS:
        items = []
        for c in cards_in(g):
            ruling = (f' <span class="ruling"><b>{escape(t("ruling", lang))}</b> '
                      f'{field("rule-ruling", c.ruling_text(lang))}</span>') if c.ruling else ""
            items.append(f'<li data-rule="{c.id}"><span class="rid">{c.id}</span> <b>{escape(c.title(lang))}.</b> '
                         f'{field("rule-line", c.line(lang))}{ruling}</li>')
        groups.append(f'<section class="group"><h3>{escape(group_title(g, lang))}</h3>'
                      f'<ul>{"".join(items)}</ul></section>')
    return (f'<div class="rules"><h2>{escape(t("rules_title", lang))}</h2>'
            f'<p class="intro">{field("variant", variant)} — {escape(t("rules_intro", lang))}</p>'
            f'<div class="cols">{"".join(groups)}{_deck_box(deck, n_lords, players, lang)}</div></div>')


__all__ = ["CLEANUP", "RESOLUTION", "aid_cards", "rules_sheet"]
