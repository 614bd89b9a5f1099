"""A design challenge's verdict in words, English or 繁體中文 (``strings/<lang>/challenges.toml``):
whether the goal is met, the measure with its 95 % interval, how sure, how many games, and what
the student changed. Standard library only (the static site shows it too)."""

from __future__ import annotations

import math

from .. import i18n
from .challenges import Challenge, ChallengeError, CheckResult, baseline
from .lord_edit import describe_lord


def ct(key: str, lang: str, **values) -> str:
    """A challenge string (``challenge.<key>``) in ``lang``."""
    return i18n.t(f"challenge.{key}", lang, **values)


def fmt(value: float, unit: str, lang: str, signed: bool = False) -> str:
    """Gold as $1.25 (a change signed: +$1.25, −$0.50); a rate as 18.0 %, its change in
    percentage points."""
    if value is None or math.isnan(value):
        return "—"
    sign = ("+" if value >= 0 else "−") if signed else ("−" if value < 0 else "")
    mag = abs(value)
    if unit == "gold":
        return f"{sign}${mag:.2f}"
    if signed:
        return f"{sign}{mag * 100:.1f}{ct('pp', lang)}"
    return f"{sign}{mag * 100:.1f} %"


def metric_words(ch: Challenge, lang: str) -> str:
    return ct(f"metric_{ch.metric}", lang, a=ch.seats[0], b=ch.seats[1], level=ch.level,
              lord=i18n.lord_name(ch.lord, lang) if ch.lord else "")


def baseline_line(ch: Challenge, lang: str) -> str:
    """The reference game's value of the measure, shown before the Check (issue 40)."""
    value, low, high, games = baseline(ch)
    return ct("baseline", lang, metric=metric_words(ch, lang), value=fmt(value, ch.unit, lang),
              low=fmt(low, ch.unit, lang), high=fmt(high, ch.unit, lang), games=games)


def change_words(result: CheckResult, lang: str) -> str:
    """What the student changed, in words."""
    change = result.change
    if change is None:
        return ct("no_change", lang)
    if isinstance(change, tuple):
        old, new, copies = change
        return ct("changed_card", lang, copies=copies, old_level=old.level, old_defence=old.defence,
                  old_treasure=old.treasure, level=new.level, defence=new.defence, treasure=new.treasure)
    return ct("changed_lord", lang, lord=i18n.lord_name(result.challenge.lord, lang),
              text=describe_lord(change, lang))


def measure_line(result: CheckResult, lang: str) -> str:
    ch = result.challenge
    unit, change = ch.unit, ch.compare == "change"
    words = {"metric": metric_words(ch, lang), "goal": ct(f"goal_{ch.goal}", lang),
             "target": fmt(ch.target, unit, lang, signed=change),
             "value": fmt(result.estimate, unit, lang, signed=change),
             "low": fmt(result.low, unit, lang, signed=change), "high": fmt(result.high, unit, lang, signed=change),
             "start": fmt(baseline(ch)[0], unit, lang)}
    # one reference figure per challenge (issue 53): the starting value the tab showed before
    # the Check, not this Check's own mean of the reference game (another figure on more games)
    return ct("measure_change_start" if change else "measure_value_start", lang, **words)


def sample_line(result: CheckResult, lang: str) -> str:
    ch = result.challenge
    seconds = f"{result.seconds:.0f}"

    def width(value: float) -> str:  # a change of a rate in percentage points, unsigned
        return fmt(value, ch.unit, lang, signed=ch.compare == "change").lstrip("+")
    half = width((result.high - result.low) / 2)
    if result.capped and not result.precise:
        return ct("sample_capped", lang, games=result.games, seconds=seconds, half=half)
    return ct("sample", lang, games=result.games, pilot=result.pilot, seconds=seconds,
              margin=width(ch.margin), half=half)


def verdict_lines(result: CheckResult, lang: str = "en") -> list[str]:
    """The verdict, one sentence a line: the status first, then the measure with its interval,
    how sure, the sample, and the change."""
    return [ct(f"status_{result.status}", lang), measure_line(result, lang),
            ct(f"sure_{result.status}", lang), sample_line(result, lang), change_words(result, lang)]


def error_words(err: ChallengeError, lang: str) -> str:
    """A student's change the challenge does not allow, in words (a code from
    :mod:`.challenges`), or the error's own message (a challenge file's field)."""
    key = f"challenge.error_{err.code}"
    return i18n.t(key, lang, **err.params) if i18n.has(key, lang) else str(err)


__all__ = ["baseline_line", "change_words", "ct", "error_words", "fmt", "measure_line", "metric_words", "sample_line",
           "verdict_lines"]
