"""The design explorer in words, English or 繁體中文 (``strings/<lang>/explorer.toml``): measure
and knob names, a change with the reason it works, and a proposal's search estimate and
fresh-seed verdict. Standard library only."""

from __future__ import annotations

import math
from typing import Sequence

from .. import i18n
from .challenge_words import fmt as challenge_fmt
from .challenge_words import metric_words
from .explorer import MEASURES
from .knobs import Knob, all_knobs, turned_many


def et(key: str, lang: str, **values) -> str:
    """An explorer string (``explorer.<key>``) in ``lang``."""
    return i18n.t(f"explorer.{key}", lang, **values)


def fmt(value: float, unit: str, lang: str, signed: bool = False) -> str:
    """Gold and rates as the challenges write them; counts, actions and indices to 2 decimals."""
    if unit in ("gold", "rate"):
        return challenge_fmt(value, unit, lang, signed)
    if value is None or math.isnan(value):
        return "—"
    sign = ("+" if value >= 0 else "−") if signed else ("−" if value < 0 else "")
    return f"{sign}{abs(value):.2f}"


def measure_name(measure: str, lang: str, challenge=None) -> str:
    if measure == "challenge" and challenge is not None:
        return metric_words(challenge, lang)
    return et(f"measure_{measure}", lang)


def measure_unit(measure: str, goal=None) -> str:
    return goal.unit if measure == "challenge" and goal is not None else MEASURES.get(measure, "")


def knob_name(knob: Knob | dict, lang: str) -> str:
    k = knob if isinstance(knob, Knob) else Knob(**knob)
    if k.kind == "lord":
        return et("knob_lord", lang, lord=i18n.lord_name(k.lord, lang), field=et(f"field_{k.field}", lang))
    return et(f"knob_{k.kind}", lang, **k.params())


def number(value: int) -> str:
    """A whole number as a page shows it: a negative one with the minus sign (U+2212), not a
    hyphen (a lord's defence change −1 → −2)."""
    return f"−{-value}" if value < 0 else str(value)


def turn_words(knob: Knob, step: int, lang: str) -> str:
    """``defence of the Lv3 card 9/12 (× 2) 9 → 8``."""
    key = "turn_set" if knob.end else "turn"
    return et(key, lang, knob=knob_name(knob, lang), old=number(knob.value), new=number(knob.value + step))


def why_words(changes: Sequence[tuple[Knob, int]], deck, lords, lang: str) -> str:
    """Why each change moves the game, joined in ``lang``'s list style."""
    out = []
    for knob, step in changes:
        if knob.kind == "lord":
            _, new_lords = turned_many([(knob, step)], deck, lords)
            lord = next(x for x in new_lords if x.id == knob.lord)
            out.append(et("why_lord", lang, text=lord.text(lang)))
        else:
            out.append(et(f"why_{knob.kind}_{'up' if step > 0 else 'down'}", lang))
    out = list(dict.fromkeys(out))  # two cards made easier: one reason
    return "；".join(out) if lang == "zh" else "; ".join(out)


def proposal_lines(goal, proposal, lang: str) -> list[str]:
    """What the proposal changes and why, the estimate its claim rests on (the search's, or
    the confirmation's games when it was measured again), and (once checked) the verdict on
    fresh seeds."""
    unit, signed = measure_unit(goal.measure, goal), goal.compare == "change"
    est = proposal.best
    changes = i18n.join_list([turn_words(k, s, lang) for k, s in proposal.changes], lang)
    key = "proposal_line" if proposal.confirm is None else "proposal_line_confirmed"
    lines = [et(key, lang, changes=changes,
                why=why_words(proposal.changes, goal.base_deck(), goal.settings.pool(), lang),
                search=goal.search_games, confirm=len(goal.confirmation()),
                measure=measure_name(goal.measure, lang, goal.challenge),
                value=fmt(est.value, unit, lang, signed), low=fmt(est.low, unit, lang, signed),
                high=fmt(est.high, unit, lang, signed))]
    if proposal.check is not None:
        c = proposal.check
        lines.append(et("checked_line", lang, games=c["games"], seed=c["seed"], value=fmt(c["value"], unit, lang, signed),
                        low=fmt(c["low"], unit, lang, signed), high=fmt(c["high"], unit, lang, signed),
                        status=et(f"status_{c['status']}", lang)))
    return lines


def no_proposal_lines(goal, result, lang: str) -> list[str]:
    """Why a search found no change that meets the goal (issue 53), in plain words: how much of
    the knobs' range it played (every change of up to ``result.size`` knobs, the most promising
    of them, or — with no range stage — the small changes of the first stages), and the nearest change with its estimate (on games that did not pick
    it, when it was measured again) and the reason it falls short — short of the target, or past
    it by less than a Check's margin, with the chance a Check says met (:func:`.goals.check_chance`);
    a lord's numbers are not every rewrite of that lord (a last line says so). Only for a search
    that found none: a result with proposals raises ``ValueError``."""
    if result.proposals:
        raise ValueError("the search found changes that meet the goal: no 'none meets it' statement")
    key = "none_exhausted" if result.exhausted else "none_partial" if result.space else "none_stages"
    lines = [et(key, lang, size=result.size, space=result.space, tried=result.tried)]
    lines.append(_why_none(goal, result.nearest, lang))
    if any(k.kind == "lord" for k in all_knobs(goal.base_deck(), goal.settings.pool())
           if not goal.knobs or k.id in goal.knobs):
        lines.append(et("none_lord", lang))
    return lines


def _why_none(goal, p, lang: str) -> str:
    """The reason line of :func:`no_proposal_lines` for the nearest change ``p`` (None: none
    moved toward the goal)."""
    from .goals import check_chance, room

    unit, signed = measure_unit(goal.measure, goal), goal.compare == "change"
    measure, target = measure_name(goal.measure, lang, goal.challenge), fmt(goal.target, unit, lang, signed)
    if p is None:
        return et("none_nothing", lang, measure=measure, target=target)
    est = p.best
    games = len(goal.confirmation()) if p.confirm is not None else goal.search_games
    words = dict(changes=i18n.join_list([turn_words(k, s, lang) for k, s in p.changes], lang), measure=measure,
                 value=fmt(est.value, unit, lang, signed), low=fmt(est.low, unit, lang, signed),
                 high=fmt(est.high, unit, lang, signed), target=target,
                 games=et("games_other" if p.confirm is not None else "games_search", lang, games=games))
    chance = round(100 * check_chance(goal, est, games))
    if room(goal, est.value) <= 0:
        return et("none_short", lang, chance=chance, **words)
    return et("none_margin", lang, margin=fmt(goal.margin, unit, lang, signed).lstrip("+"), chance=chance, **words)


__all__ = ["et", "fmt", "knob_name", "measure_name", "measure_unit", "no_proposal_lines", "number", "proposal_lines",
           "turn_words", "why_words"]
