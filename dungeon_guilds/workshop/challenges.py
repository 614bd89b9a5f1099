"""Design challenges (issue 28): a goal, the student's change, and a check that says whether
the goal is met — with a 95 % interval and a sample size chosen to make that verdict reliable.

The challenges are data: ``workshop/data/challenges.toml`` (the format is documented in that
file and in ``dungeon_guilds/teaching/lessons/challenges.md``); a teacher adds one by adding a ``[[challenge]]``
table, or loads their own file with :func:`load`.

:func:`check` plays the reference game (arm A) and the student's version (arm B) with the same
seeds — game *g* of both arms deals the same rooms and draws the same lord positions, the bots
use the same random streams (common random numbers, as the workshop's A/B experiment) — and
measures the challenge's metric on every game. The sample size is chosen in two stages: a
pilot of ``min_games`` games estimates the spread, and the run grows to the number of games
whose 95 % interval is about ``margin`` wide (half-width), capped at ``max_games``. The
verdict is then *met* (the whole interval is on the goal's side of the target), *not met* (the
whole interval is on the other side) or *too close to tell* (the interval holds the target).

Standard library only (the engine, the bots, :func:`~dungeon_guilds.analysis.play.play_game`
and :mod:`.stats`): the static site checks challenges in the browser.
"""

from __future__ import annotations

import math
import time
import tomllib
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any, Callable, Sequence

from ..analysis.play import _empty, lineup_for, play_game
from ..cards import Deck, RoomCard, reference_deck
from ..lords import Lord, get_lord
from ..rules import Rules
from . import stats

CHANGES = ("room_card", "lord")
COMPARES = ("value", "change")
GOALS = ("at_least", "at_most")
UNITS = {"seat_gold_difference": "gold", "gold_gap": "gold", "lord_round_spread": "gold",
         "comeback": "rate", "clear_rate": "rate"}
STATUSES = ("met", "not_met", "unclear")


class ChallengeError(ValueError):
    """A challenge file or a student's change that cannot be checked. A file's error is a
    sentence naming the field; a student's is a ``code`` (with ``params``) worded in their
    language from ``strings/<lang>/challenges.toml`` (``challenge.error_<code>``)."""

    def __init__(self, code: str, **params):
        self.code, self.params = code, params
        super().__init__(code)


# ---------------------------------------------------------------------- the data
@dataclass(frozen=True)
class Challenge:
    """One challenge (see ``data/challenges.toml`` for what each field means)."""

    id: str
    title: dict
    goal_text: dict
    hint: dict
    change: str
    metric: str
    compare: str
    goal: str
    target: float
    margin: float
    players: int = 4
    bots: tuple[str, ...] = ("greedy",)
    lords: tuple[str, ...] = ()
    lord: str = ""
    seats: tuple[int, int] = (1, 4)
    level: int = 3
    min_games: int = 100
    max_games: int = 800
    seed: int = 1

    @property
    def unit(self) -> str:
        return UNITS[self.metric]

    def words(self, what: str, lang: str) -> str:
        """``title``, ``goal_text`` or ``hint`` in ``lang`` (English if the file has none)."""
        table = getattr(self, what)
        return table.get(lang) or table.get("en", "")

    def pool(self) -> tuple[Lord, ...] | None:
        return tuple(get_lord(x) for x in self.lords) if self.lords else None


def _need(raw: dict, key: str, where: str, kind=str):
    if key not in raw:
        raise ChallengeError(f"{where}.{key}: missing")
    value = raw[key]
    if kind is float and isinstance(value, int) and not isinstance(value, bool):
        value = float(value)
    if not isinstance(value, kind) or isinstance(value, bool):
        raise ChallengeError(f"{where}.{key}: expected {kind.__name__}, got {value!r}")
    return value


def _one_of(value: str, allowed: Sequence[str], where: str) -> str:
    if value not in allowed:
        raise ChallengeError(f"{where}: {value!r} is not one of {', '.join(allowed)}")
    return value


def parse(raw: dict, where: str) -> Challenge:
    """One ``[[challenge]]`` table; a wrong or missing field raises naming it."""
    words = {what: {lang: raw.get(f"{what}_{lang}", "") for lang in ("en", "zh")}
             for what in ("title", "goal", "hint")}
    for what in ("title", "goal"):
        _need(raw, f"{what}_en", where)
    extra = {}
    for key, kind in (("players", int), ("min_games", int), ("max_games", int), ("seed", int),
                      ("level", int), ("lord", str)):
        if key in raw:
            extra[key] = _need(raw, key, where, kind)
    for key in ("bots", "lords", "seats"):
        if key in raw:
            if not isinstance(raw[key], list):
                raise ChallengeError(f"{where}.{key}: expected a list")
            extra[key] = tuple(raw[key])
    ch = Challenge(
        id=_need(raw, "id", where), title=words["title"], goal_text=words["goal"], hint=words["hint"],
        change=_one_of(_need(raw, "change", where), CHANGES, f"{where}.change"),
        metric=_one_of(_need(raw, "metric", where), tuple(UNITS), f"{where}.metric"),
        compare=_one_of(_need(raw, "compare", where), COMPARES, f"{where}.compare"),
        goal=_one_of(_need(raw, "goal", where), GOALS, f"{where}.goal"),
        target=_need(raw, "target", where, float), margin=_need(raw, "margin", where, float), **extra)
    _check_values(ch, where)
    return ch


def _check_values(ch: Challenge, where: str) -> None:
    Rules().check_players(ch.players)
    if ch.margin <= 0:
        raise ChallengeError(f"{where}.margin: must be above 0")
    if not 2 <= ch.min_games <= ch.max_games:
        raise ChallengeError(f"{where}.min_games: must be at least 2 and at most max_games")
    if ch.change == "lord":
        get_lord(ch.lord)  # an unknown id raises naming it
        if ch.lord not in ch.lords:
            raise ChallengeError(f"{where}.lord: {ch.lord!r} must be in the challenge's lords")
    for x in ch.lords:
        get_lord(x)
    if ch.lords and len(ch.lords) < ch.players:
        raise ChallengeError(f"{where}.lords: a {ch.players}-player game draws {ch.players} lords")
    if any(not 1 <= s <= ch.players for s in ch.seats) or len(ch.seats) != 2:
        raise ChallengeError(f"{where}.seats: two seats between 1 and {ch.players}")


def load(path: str | Path | None = None) -> list[Challenge]:
    """The challenges of ``path`` (a teacher's file) or of the package's ``challenges.toml``."""
    if path is None:
        text = resources.files(__package__).joinpath("data", "challenges.toml").read_text("utf-8")
        source = "challenges.toml"
    else:
        text, source = Path(path).read_text("utf-8"), str(path)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise ChallengeError(f"{source}: not valid TOML ({err})") from None
    out = [parse(raw, f"{source}: challenge[{k}]") for k, raw in enumerate(data.get("challenge", []))]
    ids = [c.id for c in out]
    if len(set(ids)) != len(ids):
        raise ChallengeError(f"{source}: two challenges have the same id")
    return out


# ---------------------------------------------------------------------- the student's change
def one_kind_changed(deck: Deck, base: Deck | None = None) -> tuple[RoomCard, RoomCard, int] | None:
    """``(old card, new card, copies)`` if ``deck`` is ``base`` with copies of one kind of room
    card given new values; None if nothing changed. Anything else (two kinds, heal costs, level
    ranges, cards added or taken away) raises :class:`ChallengeError` (``one_kind_only``)."""
    base = base or reference_deck()
    if deck.heal_costs != base.heal_costs or dict(deck.levels) != dict(base.levels):
        raise ChallengeError("one_kind_only")
    gone = list(base.rooms)
    new = []
    for card in deck.rooms:
        if card in gone:
            gone.remove(card)
        else:
            new.append(card)
    if not gone and not new:
        return None
    if len(set(gone)) != 1 or len(set(new)) != 1 or len(gone) != len(new):
        raise ChallengeError("one_kind_only")
    return gone[0], new[0], len(new)


def with_kind_changed(old: RoomCard, new: RoomCard, base: Deck | None = None) -> Deck:
    """``base`` (the reference deck) with every copy of ``old`` given the values of ``new``
    (checked against the level's ranges on the card's back, R1.2)."""
    base = base or reference_deck()
    if old not in base.rooms or new.level not in base.levels:
        raise ChallengeError("one_kind_only")
    info = base.levels[new.level]
    for what, value, (low, high) in (("defence", new.defence, info.defence), ("treasure", new.treasure, info.treasure)):
        if not low <= value <= high:
            raise ChallengeError(f"{what}_out_of_range", value=value, level=new.level, low=low, high=high)
    return base.with_values(rooms=[new if c == old else c for c in base.rooms])


def variant_pool(ch: Challenge, lord: Lord | None) -> tuple[Lord, ...] | None:
    """The challenge's lord pool with ``lord`` in the place of the challenge's lord."""
    pool = ch.pool()
    if lord is None or ch.change != "lord":
        return pool
    return tuple(lord if x.id == ch.lord else x for x in pool)


# ---------------------------------------------------------------------- one game's measure
def measure(ch: Challenge, out: dict, lord_id: str | None = None) -> float | None:
    """The challenge's metric on one game's rows (``play_game``'s ``out``); None when the game
    has nothing to measure (the lord was not drawn, no room of the level was dealt).
    ``lord_id``: the id the challenge's lord has in this version (the student's lord's)."""
    gold = {row[1]: row[4] for row in out["games"]}
    if ch.metric == "seat_gold_difference":
        a, b = ch.seats
        return float(gold[a - 1] - gold[b - 1])
    if ch.metric == "gold_gap":
        return float(max(gold.values()) - min(gold.values()))
    if ch.metric == "lord_round_spread":
        gains = [row[6] for row in out["rounds"] if row[4] == (lord_id or ch.lord)]
        return float(max(gains) - min(gains)) if gains else None
    if ch.metric == "comeback":
        after_one = {row[2]: row[5] for row in out["rounds"] if row[1] == 1}
        low = min(after_one.values())
        return float(sum(row[8] for row in out["games"] if after_one[row[1]] == low))
    rooms = [row[4] for row in out["rooms"] if row[3] == ch.level]  # clear_rate
    return sum(rooms) / len(rooms) if rooms else None


def interval(values: Sequence[float]) -> tuple[float, float, float]:
    """The mean of ``values`` and its 95 % interval: the one place the challenges ask the
    workshop's statistics (:func:`.stats.paired_t`) for an interval."""
    r = stats.paired_t(list(values))
    return r["mean"], r["ci_low"], r["ci_high"]


def games_needed(values: Sequence[float], played: int, margin: float, cap: int) -> int:
    """How many games make the interval of ``values`` (from ``played`` games) about ``margin``
    wide on each side: the half-width shrinks as 1/√games. At least ``played``, at most ``cap``."""
    _, low, high = interval(values)
    half = (high - low) / 2
    if math.isnan(half):
        return cap
    return max(played, min(cap, math.ceil(played * (half / margin) ** 2)))


# ---------------------------------------------------------------------- the check
@dataclass
class CheckResult:
    """What :func:`check` found; ``status`` is one of ``STATUSES``. ``estimate``, ``low``,
    ``high``: the goal's measure (the variant's value or its change from the reference) and
    its 95 % interval; ``reference`` and ``variant``: each version's mean and interval."""

    challenge: Challenge
    status: str
    estimate: float
    low: float
    high: float
    reference: tuple[float, float, float]
    variant: tuple[float, float, float]
    games: int
    pilot: int
    measured: int
    precise: bool
    change: Any = None
    capped: bool = False  # the check played its max_games
    seconds: float = 0.0
    values: dict = field(default_factory=dict)


def verdict_status(goal: str, target: float, low: float, high: float) -> str:
    """met: the whole interval is on the goal's side of ``target``; not_met: the whole interval
    is on the other side; unclear: it holds the target."""
    if math.isnan(low) or math.isnan(high):
        return "unclear"
    if goal == "at_least":
        return "met" if low >= target else "not_met" if high < target else "unclear"
    return "met" if high <= target else "not_met" if low > target else "unclear"


def _student_change(ch: Challenge, deck: Deck | None, lord: Lord | None):
    """The change the challenge allows, or a ChallengeError naming what it allows."""
    if ch.change == "room_card":
        if lord is not None:
            raise ChallengeError("card_not_lord")
        return None if deck is None else one_kind_changed(deck)
    if deck is not None and not deck.is_reference:
        raise ChallengeError("lord_not_deck")
    if lord is None or lord.effects == get_lord(ch.lord).effects:
        return None
    return lord


def _play(ch: Challenge, arms, games: range, store, progress, total: int) -> None:
    rules = Rules(lords="all")  # the pool is the challenge's: printed promo lords allowed
    for g in games:
        lineup = lineup_for(list(ch.bots), ch.players, g, True)
        for (deck, pool, lord_id), values in zip(arms, store):
            out = _empty()
            play_game(g, ch.seed, lineup, rules, deck, None, out, pool)
            values.append(measure(ch, out, lord_id))
        if progress is not None:
            progress(g + 1, total)


def check(ch: Challenge, deck: Deck | None = None, lord: Lord | None = None, *,
          games: tuple[int, int] | None = None,
          progress: Callable[[int, int], None] | None = None) -> CheckResult:
    """Check the student's change against challenge ``ch``: ``deck`` (a deck with one room card
    changed) or ``lord`` (a lord in the place of the challenge's lord). ``games``: (pilot, cap),
    by default the challenge's ``min_games`` and ``max_games``. ``progress(done, total)``."""
    change = _student_change(ch, deck, lord)
    pilot, cap = games or (ch.min_games, ch.max_games)
    reference = reference_deck()
    new_lord = change if ch.change == "lord" else None
    arms = ((reference, ch.pool(), ch.lord),
            (deck or reference, variant_pool(ch, new_lord), new_lord.id if new_lord else ch.lord))
    a, b = [], []
    t0 = time.perf_counter()
    _play(ch, arms, range(pilot), (a, b), progress, cap)
    n = games_needed(_goal_values(ch, a, b), pilot, ch.margin, cap)
    _play(ch, arms, range(pilot, n), (a, b), progress, n)
    goal_values = _goal_values(ch, a, b)
    est, low, high = interval(goal_values)
    return CheckResult(
        ch, verdict_status(ch.goal, ch.target, low, high), est, low, high,
        interval([x for x in a if x is not None]), interval([x for x in b if x is not None]),
        n, pilot, len(goal_values), (high - low) / 2 <= ch.margin * 1.05, change,
        n >= cap, time.perf_counter() - t0, {"reference": a, "variant": b})


_BASELINES: dict[str, tuple[float, float, float, int]] = {}


def baseline(ch: Challenge) -> tuple[float, float, float, int]:
    """The reference game's value of the challenge's measure before any change (issue 40): its
    mean and 95 % interval over the Check's first ``min_games`` games (the very games the Check
    plays first, same seeds), and how many games were measured. Computed once per challenge
    (about a second of one CPU)."""
    key = repr(ch)
    if key not in _BASELINES:
        values: list = []
        _play(ch, ((reference_deck(), ch.pool(), ch.lord),), range(ch.min_games), (values,), None, 0)
        measured = [x for x in values if x is not None]
        _BASELINES[key] = (*interval(measured), len(measured))
    return _BASELINES[key]


def _goal_values(ch: Challenge, a: list, b: list) -> list[float]:
    """The per-game values the goal is about: the variant's, or its paired change from the
    reference (games measured in both versions only)."""
    if ch.compare == "value":
        return [y for y in b if y is not None]
    return [y - x for x, y in zip(a, b) if x is not None and y is not None]


__all__ = ["CHANGES", "COMPARES", "Challenge", "ChallengeError", "CheckResult", "GOALS", "STATUSES",
           "UNITS", "baseline", "check", "games_needed", "interval", "load", "measure", "one_kind_changed", "parse", "with_kind_changed",
           "verdict_status", "variant_pool"]
