"""The numbers of :mod:`~dungeon_guilds.analysis.intervals` in sentences a student reads (issue 27).

Plain words first ("With B, seat 4's final gold goes up: +$1.30 (+$0.90 to +$1.70) a game. This
is unlikely to be chance."); the precise terms (confidence interval, paired t-test, Holm) are
in the ``stats.precise_*`` texts the screens put one click away. Words: ``[stats]`` in
``dungeon_guilds/strings/<lang>/stats.toml`` (English and 繁體中文). Standard library only.

The API another screen calls:

* :func:`compare_arms` — two arms' per-game results and a measure → the estimate B − A, its
  interval, the method, whether it is clear, and the verdict sentence in every language;
* :func:`difference_sentence`, :func:`seat_sentences` — the sentences themselves;
* :func:`plan_games` — how many games to play to see a difference of a given size.
"""

from __future__ import annotations

import math
from typing import Any, Mapping, Sequence

from .. import i18n
from . import intervals as iv

ALPHA = 0.05
LANGS = ("en", "zh")


def words(key: str, lang: str, **values: Any) -> str:
    return i18n.t(f"stats.{key}", lang, **values)


def fmt(value: float, unit: str, lang: str = "en", diff: bool = False, bare: bool = False) -> str:
    """A number for people: rates in % (a difference of rates in points; ``bare``: without
    the word, for the ends of a range), gold in $, differences signed with a true minus sign."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "—"
    sign = ("+" if value >= 0 else "−") if diff else ("−" if value < 0 else "")
    mag = abs(value)
    if unit == "rate":
        if diff:
            return f"{sign}{mag * 100:.1f}" if bare else words("points", lang, sign=sign, value=f"{mag * 100:.1f}")
        return f"{sign}{mag * 100:.1f}\u00a0%"
    if unit == "gold":
        return f"{sign}${mag:.2f}"
    if unit == "index":
        return f"{sign}{mag:.3f}"
    return f"{sign}{mag:.2f}"


def what(measure: str, group: Any, lang: str = "en") -> str:
    """The measure in words: ``seat 4's win rate`` (seats numbered from 1)."""
    if measure in ("win_rate", "gold"):
        return words(f"what_{measure}", lang, seat=int(group) + 1)
    if measure == "clear_rate":
        return words("what_clear_rate", lang, level=group)
    if measure == "bot_win_rate":
        bot = i18n.t(f"bot.{group}", lang) if i18n.has(f"bot.{group}", lang) else str(group)
        return words("what_bot_win_rate", lang, bot=bot)
    return words(f"what_{measure}", lang)


def _sentence_start(text: str) -> str:
    return text[:1].upper() + text[1:] if text else text


def difference_sentence(est: iv.Estimate, lang: str = "en", a: str = "A", b: str = "B",
                        p_adjusted: float | None = None) -> str:
    """One sentence for a difference B − A: clear (adjusted p < 0.05), a hint (the 95 %
    interval leaves out 0 but the adjustment for many tests does not allow it), no clear change,
    identical games, or too few games for this measure."""
    thing = what(est.measure, est.group, lang)
    if not est.enough:
        return _sentence_start(words("too_few", lang, what=thing, min=iv.min_games(_min_key(est))))
    if est.method == "paired_identical" or (est.low == est.high == est.value == 0 and est.p == 1.0):
        return _sentence_start(words("identical", lang, what=thing))
    p = est.p if p_adjusted is None else p_adjusted
    per = words("per_game", lang) if est.unit in ("gold", "actions", "count") else ""
    values = {"what": thing, "b": b, "a": a, "per": per, "diff": fmt(est.value, est.unit, lang, True),
              "lo": fmt(est.low, est.unit, lang, True, True), "hi": fmt(est.high, est.unit, lang, True, True)}
    if p < ALPHA and est.excludes_zero:
        key = "up" if est.value > 0 else "down"
    elif est.excludes_zero:
        key = "hint_up" if est.value > 0 else "hint_down"
    else:
        return _sentence_start(words("same", lang, **values))
    return _sentence_start(words(key, lang, **values))


def _min_key(est: iv.Estimate) -> str:
    return "balance_diff" if est.measure == "balance" and est.method != "range_normal" else est.measure


def compare_arms(games_a: Sequence[Mapping[str, Any]], games_b: Sequence[Mapping[str, Any]], measure: str,
                 group: Any = None, *, paired: bool = True, names: tuple[str, str] = ("A", "B"),
                 tests: int = 1) -> dict[str, Any]:
    """Compare two arms on one measure (B − A) and say it in words.

    ``games_a``/``games_b``: per-game results (:func:`intervals.game_dict`;
    ``analysis.metrics.per_game`` makes them from a simulation); ``paired``: the arms played
    the same deals, game by game (common random numbers); ``tests``: how many measures the
    caller checks together (the p-value is Bonferroni-adjusted for them — use
    :func:`intervals.with_holm` over a whole family instead when all are at hand).

    Returns ``{"estimate": Estimate, "value", "low", "high", "method", "enough", "p",
    "p_adjusted", "clear", "verdict": {"en": ..., "zh": ...}}``."""
    est = iv.difference(games_a, games_b, measure, group, paired=paired)
    p_adj = min(1.0, est.p * max(1, tests)) if not math.isnan(est.p) else float("nan")
    clear = bool(est.enough and p_adj < ALPHA and est.excludes_zero)
    return {"estimate": est, "value": est.value, "low": est.low, "high": est.high, "method": est.method,
            "enough": est.enough, "p": est.p, "p_adjusted": p_adj, "clear": clear,
            "verdict": {lang: difference_sentence(est, lang, names[0], names[1], p_adj) for lang in LANGS}}


# ---------------------------------------------------------------------- one arm (the Lab)
def seat_tests(games: Sequence[Mapping[str, Any]], fair: float) -> list[tuple[iv.Estimate, float]]:
    """Each seat's win rate with its interval and Holm-adjusted score-test p against ``fair``."""
    ests = [iv.estimate(games, "win_rate", s) for s in range(len(games[0]["win"]))] if games else []
    ps = []
    for e in ests:
        se = math.sqrt(fair * (1 - fair) / e.n) if e.n else float("nan")
        ps.append(2 * (1 - iv.NormalDist().cdf(abs(e.value - fair) / se)) if se and se > 0 else float("nan"))
    return list(zip(ests, iv.holm(ps)))


def seat_sentences(games: Sequence[Mapping[str, Any]], fair: float, lang: str = "en") -> list[str]:
    """One sentence a seat: more often / less often than its fair share (clear after Holm), or
    no clear advantage; "too few games" below the measure's minimum."""
    out = []
    for est, p in seat_tests(games, fair):
        seat = int(est.group) + 1
        if not est.enough:
            out.append(_sentence_start(words("too_few", lang, what=what("win_rate", est.group, lang),
                                             min=iv.min_games("win_rate"))))
            continue
        values = {"seat": seat, "rate": fmt(est.value, "rate", lang), "lo": fmt(est.low, "rate", lang),
                  "hi": fmt(est.high, "rate", lang), "fair": fmt(fair, "rate", lang)}
        clear = p < ALPHA and (est.low > fair or est.high < fair)
        key = ("seat_above" if est.value > fair else "seat_below") if clear else "seat_fair"
        out.append(words(key, lang, **values))
    return out


def plan_games(delta_points: float, players: int, kind: str = "lab") -> int:
    """Games to play (an arm, for ``kind="ab"``) to see a ``delta_points`` change of a seat's
    win rate (near the fair share 1/players) with 80 % power, Bonferroni over the seats."""
    fair = 1.0 / players
    return iv.games_needed(delta_points / 100.0, rate=fair, arms=1 if kind == "lab" else 2, tests=players)


__all__ = ["ALPHA", "compare_arms", "difference_sentence", "fmt", "plan_games", "seat_sentences", "seat_tests",
           "what", "words"]
