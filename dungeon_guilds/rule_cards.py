"""The rule cards: every rule of the rules reference (``docs/rules.md``) as a short card in plain
words, grouped as the game flows, and the Dungeon Lord cards (issue 19).

A :class:`RuleCard` is data: its R-number, its group, whether it holds a project **ruling**
(``docs/rules.md`` marks them "Ruling") and the name of its live example, if a number is
involved (the examples are worked out by the engine in :mod:`dungeon_guilds.rule_examples`).
Its words live in ``strings/<lang>/rule_cards.toml`` under ``[rulecard.R4_4]``: ``title``,
``line`` (one line, shown under a refused move), ``body`` (a few plain words) and, for a card
holding a ruling, ``ruling`` (the ruling in words). This module never reads the rules reference
itself; a test checks that every R-number of ``docs/rules.md`` has a card.

Public: :data:`CARDS`, :data:`GROUPS`, :func:`card`, :func:`rule_line`, :func:`cited_rules`,
:func:`rule_lines_for` (the lines of the rules a refusal cites), :func:`lord_card` (a lord's
name, effect, numbers and the rulings touching it).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterable

from . import i18n
from .effect_words import effect_words, money, signed
from .lords import ALL_LORDS, LORDS_BY_ID, Lord, LordError

# The game's flow, in the order the Rules tab shows it.
GROUPS = ("setup", "placement", "resolution", "cleanup", "end", "lords", "variants", "editions")


@dataclass(frozen=True, slots=True)
class RuleCard:
    id: str  # "R4.4"
    group: str  # one of GROUPS
    ruling: bool = False  # the rule is, or holds, a project ruling
    example: str | None = None  # the name of its live example (rule_examples.EXAMPLES)

    @property
    def key(self) -> str:
        """The strings section of the card: ``rulecard.R4_4``."""
        return "rulecard." + self.id.replace(".", "_")

    def title(self, lang: str | None = None) -> str:
        return i18n.t(f"{self.key}.title", lang)

    def line(self, lang: str | None = None) -> str:
        return i18n.t(f"{self.key}.line", lang)

    def body(self, lang: str | None = None) -> str:
        return i18n.t(f"{self.key}.body", lang)

    def ruling_text(self, lang: str | None = None) -> str:
        """The ruling in words ("" for a card without a ruling)."""
        return i18n.t(f"{self.key}.ruling", lang) if self.ruling else ""


def _c(rule: str, group: str, ruling: bool = False, example: str | None = None) -> RuleCard:
    return RuleCard(rule, group, ruling, example)


CARDS: tuple[RuleCard, ...] = (
    # setup: the components (§1), setup (§2) and the start phase of a round (§3)
    _c("R1.1", "setup"), _c("R1.2", "setup"), _c("R1.3", "setup"), _c("R1.4", "setup"),
    _c("R2.1", "setup"), _c("R2.2", "setup"), _c("R2.3", "setup"),
    _c("R2.4", "setup", True, "setup_gold"), _c("R2.5", "setup"), _c("R3.1", "setup"),
    # placement: the dispatch phase (§4)
    _c("R4.1", "placement", example="snake"), _c("R4.2", "placement"),
    _c("R4.3", "placement", True, "lock"), _c("R4.4", "placement", example="replace_costs"),
    _c("R4.5", "placement", True, "swap_own"), _c("R4.6", "placement", True),
    _c("R4.7", "placement", True), _c("R4.8", "placement"),
    # resolution (§5)
    _c("R5.1", "resolution"), _c("R5.2", "resolution", example="split"), _c("R5.3", "resolution", True, "floor"),
    # cleanup (§6)
    _c("R6.1", "cleanup", example="heal"), _c("R6.2", "cleanup"), _c("R6.3", "cleanup"),
    _c("R6.4", "cleanup"),
    # the end (§8)
    _c("R8.1", "end", True, "tiebreak"),
    # the Dungeon Lords (§7)
    _c("R7.1", "lords", True, "lord_lock"), _c("R7.2", "lords", True, "caveman"),
    _c("R7.3", "lords", True, "boardgame"), _c("R7.4", "lords"), _c("R7.5", "lords", True, "succubus"),
    # variants (§10)
    _c("R10.1", "variants"), _c("R10.2", "variants", True, "npc"),
    # editions (§9)
    _c("R9.1", "editions", example="swap_own"), _c("R9.2", "editions", True),
    _c("R9.3", "editions", True), _c("R9.4", "editions", True), _c("R9.5", "editions", True),
)
CARDS_BY_ID: dict[str, RuleCard] = {c.id: c for c in CARDS}

_RULE_ID = re.compile(r"R\d+\.\d+")


def card(rule_id: str) -> RuleCard:
    """The card of ``rule_id`` (``"R4.4"``; ``"4.4"`` is read as ``"R4.4"``). An unknown
    number is refused with a ValueError naming it."""
    rid = rule_id.strip()
    if not rid.startswith("R"):
        rid = "R" + rid
    try:
        return CARDS_BY_ID[rid]
    except KeyError:
        raise ValueError(f"no rule card {rule_id!r} (rules run from R1.1 to R10.2)") from None


def rule_line(rule_id: str, lang: str | None = None) -> str:
    """The one-line text of rule ``rule_id`` in ``lang`` (the board shows it under a refused
    move): ``rule_line("R4.4")`` -> ``"R4.4 Replacing another player's adventurer: …"``."""
    c = card(rule_id)
    return f"{c.id} {c.line(lang)}"


def cited_rules(text: str) -> list[str]:
    """The R-numbers with a card that ``text`` cites (an engine refusal such as ``"… (R4.4)"``),
    in order, each once."""
    out: list[str] = []
    for rid in _RULE_ID.findall(text or ""):
        if rid in CARDS_BY_ID and rid not in out:
            out.append(rid)
    return out


def rule_lines_for(reason, lang: str | None = None) -> list[str]:
    """The one-line text of every rule a refusal cites, to show under a refused move: for an
    ``IllegalAction`` value its ``rule``, for text every R-number it names (:func:`cited_rules`)."""
    rule = getattr(reason, "rule", None)
    rids = cited_rules(rule) if isinstance(rule, str) else cited_rules(str(reason))
    return [rule_line(rid, lang) for rid in rids]


def cards_in(group: str) -> list[RuleCard]:
    if group not in GROUPS:
        raise ValueError(f"no group {group!r} (groups: {', '.join(GROUPS)})")
    return [c for c in CARDS if c.group == group]


def group_title(group: str, lang: str | None = None) -> str:
    """A group's heading with the sections of docs/rules.md it holds: "Setup and the start of a
    round (R1–R3)" (issue 40: the tab numbered its groups 1–8 while the rules number R1–R10)."""
    sections = sorted({int(c.id[1:].split(".")[0]) for c in cards_in(group)})
    first, last = sections[0], sections[-1]
    assert sections == list(range(first, last + 1)), (group, sections)  # a group holds whole sections, in a run
    key = "group_title_one" if first == last else "group_title"
    return i18n.t(f"rulecard.ui.{key}", lang, name=i18n.t(f"rulecard.group.{group}", lang), first=first, last=last)


# ---------------------------------------------------------------------- lord cards
@dataclass(frozen=True, slots=True)
class LordCard:
    """A Dungeon Lord in words: ``numbers`` are its effects one by one (from its effect data),
    ``rulings`` the ``(R-number, text)`` of every rule card touching it (the card's one-line
    text, and its ruling if it holds one)."""

    id: str
    name: str
    effect: str
    promo: bool
    numbers: tuple[str, ...]
    rulings: tuple[tuple[str, str], ...]


def lord_rules(lord: Lord) -> list[str]:
    """The R-numbers of the rule cards that touch ``lord``, found from its effects (so a
    workshop lord gets them too): :meth:`Lord.rules`, declared by each effect class."""
    return lord.rules()


def _ruling_or_line(c: RuleCard, lang: str | None) -> str:
    """The card's one-line text, and its ruling after it if it holds one."""
    if not c.ruling:
        return c.line(lang)
    return i18n.t("rulecard.ui.line_and_ruling", lang, line=c.line(lang), ruling=c.ruling_text(lang))


def lord_card(lord_or_id: Lord | str, lang: str | None = None) -> LordCard:
    """Lord ``lord_or_id`` (a :class:`Lord` or a printed lord's id) as a card in ``lang``."""
    if isinstance(lord_or_id, Lord):
        lord = lord_or_id
    else:
        lord = LORDS_BY_ID.get(str(lord_or_id))
        if lord is None:
            raise LordError(f"unknown lord id {lord_or_id!r} (known: {', '.join(LORDS_BY_ID)})")
    return LordCard(
        id=lord.id, name=i18n.lord_name(lord, lang), effect=i18n.lord_text(lord, lang),
        promo=lord.promo, numbers=tuple(effect_words(e, lang) for e in lord.effects),
        rulings=tuple((rid, _ruling_or_line(card(rid), lang)) for rid in lord_rules(lord)),
    )


def lord_cards(lang: str | None = None) -> list[LordCard]:
    """All 11 printed lords (6 base, 5 promo) as cards."""
    return [lord_card(lord, lang) for lord in ALL_LORDS]


__all__ = ["CARDS", "CARDS_BY_ID", "GROUPS", "LordCard", "RuleCard", "card", "cards_in", "cited_rules", "group_title",
           "effect_words", "lord_card", "money", "signed", "lord_cards", "lord_rules", "rule_line", "rule_lines_for"]
