"""The rules reference as data, for the CLI (``rules``, ``lords``) and the rules explorer.

Standard library only. It reads the engine's own tables — :data:`~dungeon_guilds.rules.OPTIONS`,
:data:`~dungeon_guilds.rules.RULINGS`, :data:`~dungeon_guilds.rules.EDITION_SILENCES` and the
lord cards — and words them in a language through the strings tables (docs/rules.md is the text
they cite):

* :func:`ruling_keys` / :func:`silence_keys`: the strings key of each ruling / French-summary
  point (``rules.ruling_R4_7``; an R-number met again gets ``_2``, ``_3`` …);
* :func:`lord_rulings`: the rulings that touch a lord, found from its effects (a defence change
  R7.1, a start-phase flip R7.2, a bonus to the lowest total R7.3, a placement ban R7.5, a
  heal-cost change R2.4, a treasure cut R5.3);
* :func:`lords_listing` and :func:`rules_listing`: what ``dungeon-guilds lords --json`` and
  ``dungeon-guilds rules --json`` print.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any, Iterable

from . import i18n
from .effect_words import effect_words
from .lords import ALL_LORDS, Lord
from .rules import EDITION_SILENCES, OPTIONS, RULINGS, UNSTATED_FR, unstated_in_fr

__all__ = ["lord_rulings", "lords_listing", "ruling_keys", "ruling_text", "rules_listing",
           "silence_keys", "silence_text"]


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9]+", "_", text).strip("_")


def _numbered_keys(prefix: str, entries: Iterable[tuple[str, str]]) -> list[str]:
    seen: Counter[str] = Counter()
    keys = []
    for rule, _text in entries:
        seen[rule] += 1
        base = f"rules.{prefix}_{_slug(rule)}"
        keys.append(base if seen[rule] == 1 else f"{base}_{seen[rule]}")
    return keys


def ruling_keys() -> list[str]:
    """The strings key of each entry of ``RULINGS``, in order (two R4.3 rulings: ``_2``)."""
    return _numbered_keys("ruling", RULINGS)


def silence_keys() -> list[str]:
    """The strings key of each entry of ``EDITION_SILENCES`` (R9.5 lists five points)."""
    return _numbered_keys("silence", EDITION_SILENCES)


def _word(key: str, english: str, lang: str) -> str:
    """The engine's English in English; else the language's ``key`` (English if it has none)."""
    if lang == i18n.FALLBACK or not i18n.has(key, lang):
        return english
    return i18n.t(key, lang)


def ruling_text(index: int, lang: str = "en") -> str:
    """The text of ``RULINGS[index]`` in ``lang``."""
    return _word(ruling_keys()[index], RULINGS[index][1], lang)


def silence_text(rule: str, text: str, lang: str = "en") -> str:
    """A point of ``EDITION_SILENCES`` in ``lang`` (its English when it is not listed there)."""
    try:
        key = silence_keys()[EDITION_SILENCES.index((rule, text))]
    except ValueError:
        key = f"rules.silence_{_slug(rule)}"
    return _word(key, text, lang)


def lord_rulings(lord: Lord, lang: str = "en") -> list[dict[str, str]]:
    """The project rulings that touch ``lord``, in ``RULINGS`` order: ``[{"rule", "text"}]``."""
    wanted = set(lord.rules())
    return [{"rule": rule, "text": ruling_text(i, lang)}
            for i, (rule, _text) in enumerate(RULINGS) if rule in wanted]


def lords_listing(lang: str = "en", lords: Iterable[Lord] = ALL_LORDS) -> list[dict[str, Any]]:
    """One entry a lord: id, names in English and Chinese, ``kind`` base or promo (R7.4), the
    printed effect text in ``lang`` (``effect``), the rulings that touch it, each effect with
    its numbers (``numbers``: the words of the Rules tab's lord card and the lord builder) and
    the rules it touches (``rules``, as the lord card lists them)."""
    return [{
        "id": lord.id, "name_en": lord.name_en, "name_zh": lord.name_zh,
        "kind": "promo" if lord.promo else "base", "promo": lord.promo,
        "effect": i18n.lord_text(lord, lang), "rulings": lord_rulings(lord, lang),
        "numbers": [effect_words(e, lang) for e in lord.effects], "rules": lord.rules(),
    } for lord in lords]


def rules_listing(lang: str = "en") -> dict[str, Any]:
    """What ``dungeon-guilds rules --json`` prints: the options, the rulings, the points the
    French summary leaves unstated (R9.5) and the lords (§7)."""
    return {
        "reference": "docs/rules.md",
        "options": [
            {"name": o.name, "values": list(o.values), "default": o.default,
             "description": o.description, "source": o.source, "ruling": o.ruling}
            for o in OPTIONS
        ],
        "rulings": [{"rule": r, "text": ruling_text(i, lang)} for i, (r, _t) in enumerate(RULINGS)],
        "unstated_in_fr": [{"rule": r, "point": silence_text(r, t, lang), "status": UNSTATED_FR}
                           for r, t in unstated_in_fr()],
        "lords": lords_listing(lang),
    }
