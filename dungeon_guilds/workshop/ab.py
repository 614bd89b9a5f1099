"""A/B experiments: two rule sets, the same bots, the same seeds — what did the change do?

An :class:`Arm` is a rule set: the options (:class:`~dungeon_guilds.rules.Rules`), a deck
(:class:`~dungeon_guilds.cards.Deck`, e.g. from the deck editor) and a lord pool (printed and
workshop lords; by default the pool the ``lords`` option allows). :func:`run_ab` plays
``n_games`` games of each arm with :func:`~dungeon_guilds.analysis.simulate.simulate` and the
**same seed**: game *g* of arm A and game *g* of arm B get the same game seed, so the same room
shuffle (with the same deck), the same lord draws (with pools of the same size: replace a lord
in place with :func:`~dungeon_guilds.workshop.lord_edit.replace_in_pool`), the same exhaust
choices and bots with the same random streams. These are *common random numbers*: the two
games of a pair differ only where the rule change makes them differ, so the difference is
measured game by game, with far less noise than two independent samples.

:func:`compare` reads the balance metrics of both arms side by side, each with a 95 %
interval, and every paired difference B − A with its 95 % interval and p-value; the methods are
those of :mod:`dungeon_guilds.analysis.intervals` (their coverage is measured by
``benchmarks/bench_coverage.py``; the table is in ``docs/metrics.md``):

* win rate per seat and per bot — Wilson per arm; the difference: **paired t** on the per-game
  win-share differences (a shared victory counts as a share);
* means per game (gold per seat and of all players, the gap richest − poorest, the bank's
  flows, game length, rooms cleared, lead changes) — t per arm, **paired t** for the difference;
* clear rate by level (a ratio of sums over games) — Wilson on the effective number of rooms,
  paired t on the linearised ratio for the difference;
* the balance of seat win rates — a test of the range inverted, its error simulated (the
  difference: both arms' seat rates simulated jointly, paired; ``intervals._balance_difference``).

A measure with too few games for its interval to be trusted (``intervals.MIN_GAMES``) shows no
interval and is left out of the tests. The p-values are adjusted with **Holm's method** for the
number of tests, and a difference is called significant when its adjusted p is below 0.05.
Identical rule sets with the same seeds play identical games: every difference is exactly 0,
every p is 1, and the verdict says so.

Nothing here needs pandas: the comparison is a list of row dicts (:func:`compare_rows`,
:attr:`ABResult.comparison_rows`), and :func:`compare` / :attr:`ABResult.comparison` build a
pandas DataFrame from those rows where pandas is installed (notebooks). :class:`ABRun` plays an
experiment a chunk at a time, both arms in step, so an app can show progress and stop it; the
pairs played so far are always an exact experiment of that many games.
"""

from __future__ import annotations

import math
import threading
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

from ..cards import Deck, parse_deck_text, reference_deck
from ..lords import LORDS_BY_ID, Lord, get_lord, lord_from_dict, lord_pool
from ..rules import Rules
from . import stats
from .strings import wt

__all__ = ["Arm", "ABResult", "ABRun", "COMPARISON_COLUMNS", "compare", "compare_rows", "run_ab", "verdict"]

COMPARISON_COLUMNS = ("metric", "group", "label", "unit", "a", "a_low", "a_high", "b", "b_low", "b_high",
                      "diff", "diff_low", "diff_high", "p", "p_holm", "significant", "method", "n", "enough",
                      "width_independent")
ALPHA = 0.05


# ---------------------------------------------------------------------- arms
@dataclass(frozen=True, eq=True)
class Arm:
    """One rule set of an experiment. ``deck`` None: the reference deck; ``lords`` None: the pool
    the ``rules.lords`` option allows (R7.4)."""

    name: str = "A"
    rules: Rules = field(default_factory=Rules)
    deck: Deck | None = None
    lords: tuple[Lord, ...] | None = None

    __hash__ = None  # a Deck holds a dict

    def __post_init__(self) -> None:
        if self.lords is not None:
            object.__setattr__(self, "lords", tuple(get_lord(x) if isinstance(x, str) else x
                                                    for x in self.lords))

    @property
    def the_deck(self) -> Deck:
        return self.deck if self.deck is not None else reference_deck()

    @property
    def pool(self) -> tuple[Lord, ...]:
        return self.lords if self.lords is not None else lord_pool(self.rules.lords)

    def same_rules_as(self, other: "Arm") -> bool:
        """Same options, same deck contents, same lord pool (the names may differ)."""
        a, b = self.the_deck, other.the_deck
        same_deck = (a.heal_costs, dict(a.levels), a.rooms) == (b.heal_costs, dict(b.levels), b.rooms)
        return self.rules == other.rules and same_deck and self.pool == other.pool

    def shares_deals_with(self, other: "Arm") -> bool:
        """Whether the two arms can be dealt the same rooms and lords game by game (common
        random numbers): as many room cards and a lord pool of the same size (a lord replaced
        in place keeps every draw). :meth:`ABResult.deals_shared` checks the games themselves."""
        return len(self.the_deck.rooms) == len(other.the_deck.rooms) and len(self.pool) == len(other.pool)

    def describe(self, lang: str = "en") -> list[str]:
        """The arm in a few lines of words (options, deck, lords)."""
        from ..rules import describe_value
        from .deck_edit import deck_changes, shown_deck_name
        from .lord_edit import describe_lord

        from .. import i18n

        def words(option: str, value: Any) -> str:  # the rules explorer's words for a value
            key = f"rules.value_{option}_{'none' if value is None else str(value).lower()}"
            return i18n.t(key, lang) if i18n.has(key, lang) else describe_value(option, value)

        lines = [wt("arm_rules", lang, text=i18n.join_list((words(k, v) for k, v in self.rules.to_dict().items()), lang))]
        deck = self.the_deck
        changes = deck_changes(deck, lang=lang)
        lines.append(wt("arm_deck", lang, name=shown_deck_name(deck.name, lang), cards=len(deck.rooms),
                        changes="; ".join(changes) if changes else wt("same_as_reference", lang)))
        names = [lord.name(lang) for lord in self.pool]
        lines.append(wt("arm_lords", lang, ids=i18n.join_list(names, lang),
                        default=wt("pool_default", lang) if self.lords is None else ""))
        if not self.rules.lord_effects:
            lines.append(wt("arm_no_effects", lang))
        for lord in self.pool:
            if LORDS_BY_ID.get(lord.id) != lord:
                lines.append(wt("arm_custom_lord", lang, id=lord.id, name=lord.name(lang),
                                text=describe_lord(lord, lang)))
        return lines

    def to_dict(self) -> dict[str, Any]:
        """JSON-able: the rules, the deck as TOML text, the lords as ids or custom dicts."""
        return {
            "name": self.name,
            "rules": self.rules.to_dict(),
            "deck": None if self.deck is None else self.deck.to_toml(),
            "lords": None if self.lords is None else [
                lord.id if LORDS_BY_ID.get(lord.id) == lord else lord.to_dict() for lord in self.lords],
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "Arm":
        deck = None if data.get("deck") is None else parse_deck_text(data["deck"], "toml")
        lords = data.get("lords")
        pool = None if lords is None else tuple(
            get_lord(x) if isinstance(x, str) else lord_from_dict(x, f"lords[{i}]") for i, x in enumerate(lords))
        return cls(str(data.get("name", "A")), Rules.from_dict(data.get("rules")), deck, pool)


# ---------------------------------------------------------------------- running
@dataclass
class ABResult:
    """Both arms' runs (:class:`~dungeon_guilds.analysis.simulate.SimResult`), the settings, and
    the comparison (``comparison_rows``: dicts; ``comparison``: the same as a DataFrame)."""

    a: Arm
    b: Arm
    sim_a: Any  # SimResult
    sim_b: Any
    settings: dict[str, Any]
    _rows: Any = None

    @property
    def comparison_rows(self) -> list[dict[str, Any]]:
        """The comparison, one dict per row (see :func:`compare_rows`; no pandas)."""
        if self._rows is None:
            self._rows = compare_rows(self.sim_a, self.sim_b)
        return self._rows

    @property
    def comparison(self):
        """The comparison table as a pandas DataFrame (see :func:`compare`)."""
        return _table(self.comparison_rows)

    def verdict(self, lang: str = "en") -> str:
        return "\n".join(self.verdict_lines(lang))

    def verdict_lines(self, lang: str = "en") -> list[str]:
        return verdict_lines(self.comparison_rows, self.a.name, self.b.name, lang,
                             identical_rules=self.a.same_rules_as(self.b),
                             shared_deals=self.deals_shared())

    def deals_shared(self) -> bool:
        """Both arms were dealt the same room levels in every round of every game and their
        arms allow the same lord draws (:meth:`Arm.shares_deals_with`)."""
        if not self.a.shares_deals_with(self.b):
            return False

        def deals(sim) -> list[tuple]:
            return sorted(zip(*(sim.column("rooms", c) for c in ("game", "round", "room", "level"))))
        return deals(self.sim_a) == deals(self.sim_b)


class ABRun:
    """An experiment played a chunk at a time, in this process: :meth:`step` plays the next
    chunk of arm A (sized to take about ``seconds``) and the same games of arm B, and returns
    how many pairs it played (0: done); :meth:`result` is the :class:`ABResult` of the pairs
    played so far. The arguments are those of :func:`run_ab`; nothing needs pandas."""

    def __init__(self, a: Arm, b: Arm, n_games: int, bots: Sequence[str], players: int, seed: int | str = 0, *,
                 rotate: bool = True, bot_options: dict | None = None, seconds: float = 0.1,
                 max_chunk: int | None = None):
        from ..analysis.simulate import ChunkedRun

        _check_arms(a, b, n_games, players)
        self.a, self.b, self.total = a, b, n_games
        self._settings = {"games": n_games, "bots": list(bots), "players": players, "seed": seed, "rotate": rotate}
        self.runs = [ChunkedRun(n_games, list(bots), players, seed, arm.rules, rotate=rotate, deck=arm.deck,
                                lords=arm.lords, bot_options=bot_options, seconds=seconds, max_chunk=max_chunk)
                     for arm in (a, b)]
        self._t0 = time.perf_counter()

    @property
    def done(self) -> int:
        """Pairs of games played (both arms)."""
        return self.runs[1].done

    @property
    def finished(self) -> bool:
        return self.done >= self.total

    def step(self) -> int:
        """Play the next chunk of pairs; how many pairs (0 once done)."""
        size = self.runs[0].step()
        if size:
            self.runs[1].step(size)
        return size

    def result(self) -> ABResult:
        settings = dict(self._settings, games=self.done, seconds=time.perf_counter() - self._t0)
        return ABResult(self.a, self.b, self.runs[0].result(), self.runs[1].result(), settings)


def _check_arms(a: Arm, b: Arm, n_games: int, players: int) -> None:
    """Refuse a bad experiment before playing anything."""
    if n_games < 2:
        raise ValueError("an A/B experiment needs at least 2 games per arm")
    for arm in (a, b):
        arm.rules.check_players(players)


def _table(rows: list[dict]):
    """Comparison rows as a pandas DataFrame (columns ``COMPARISON_COLUMNS``)."""
    from ..extras import require

    require("the A/B comparison as a table", "analysis", "pandas")
    import pandas as pd

    return pd.DataFrame(rows, columns=list(COMPARISON_COLUMNS))


def _records(table) -> list[dict]:
    """A comparison as row dicts, given its rows or its DataFrame."""
    if hasattr(table, "to_dict") and hasattr(table, "columns"):
        return table.to_dict(orient="records")
    return list(table)


def run_ab(a: Arm, b: Arm, n_games: int, bots: Sequence[str], players: int, seed: int | str = 0, *,
           progress: Callable[[int, int], None] | None = None, rotate: bool = True, jobs: int = 1,
           executor=None, bot_options: dict | None = None) -> ABResult:
    """Play ``n_games`` games of each arm with the same ``seed`` (common random numbers) and the
    same ``bots`` (one spec per seat, or one for all); ``progress(done, total)`` is called as
    games finish (total = 2 × n_games, both arms together). In this process (``jobs`` 1, no
    ``executor``) the arms are played in step, a chunk of pairs at a time (:class:`ABRun`);
    with a pool of workers both arms are played at once, so no worker waits for the other arm."""
    _check_arms(a, b, n_games, players)
    if executor is None and jobs <= 1:
        run = ABRun(a, b, n_games, bots, players, seed, rotate=rotate, bot_options=bot_options,
                    max_chunk=max(1, math.ceil(n_games / 50)))
        while run.step():
            if progress is not None:
                progress(2 * run.done, 2 * n_games)
        return run.result()
    return _run_ab_on_workers(a, b, n_games, bots, players, seed, progress, rotate, jobs, executor, bot_options)


def _run_ab_on_workers(a: Arm, b: Arm, n_games: int, bots, players: int, seed, progress, rotate: bool,
                       jobs: int, executor, bot_options) -> ABResult:
    """:func:`run_ab` on ``executor`` or a pool of ``jobs`` processes (started and stopped here)."""
    from concurrent.futures import ThreadPoolExecutor

    from ..analysis.simulate import simulate

    done = [0, 0]
    lock = threading.Lock()

    def part(k: int):
        if progress is None:
            return None

        def update(finished: int, total: int) -> None:
            with lock:
                done[k] = finished
                progress(done[0] + done[1], 2 * n_games)
        return update

    own_pool = None
    if executor is None:  # one pool of workers for both arms (started once)
        from concurrent.futures import ProcessPoolExecutor

        own_pool = executor = ProcessPoolExecutor(max_workers=jobs)
    common = dict(players=players, seed=seed, rotate=rotate, jobs=jobs, executor=executor,
                  bot_options=bot_options, chunk_size=max(1, math.ceil(n_games / 50)), need_pandas=False)

    def play(k: int, arm: Arm):
        return simulate(n_games, list(bots), rules=arm.rules, deck=arm.deck, lords=arm.lords,
                        progress=part(k), **common)

    t0 = time.perf_counter()
    try:  # arm B's games are queued while arm A's play (a thread here only waits for the workers)
        with ThreadPoolExecutor(max_workers=1) as other:
            later = other.submit(play, 1, b)
            sim_a = play(0, a)
            sim_b = later.result()
    finally:
        if own_pool is not None:
            own_pool.shutdown()
    settings = {"games": n_games, "bots": list(bots), "players": players, "seed": seed, "rotate": rotate,
                "seconds": time.perf_counter() - t0}  # both arms, wall
    return ABResult(a, b, sim_a, sim_b, settings)


# ---------------------------------------------------------------------- comparing
def _paired_games(sim_a, sim_b) -> None:
    """Refuse two runs that are not paired game by game (same games, seats and bots)."""
    def seats(sim) -> list[tuple]:
        return sorted(zip(*(sim.column("games", c) for c in ("game", "seat", "bot"))))
    if seats(sim_a) != seats(sim_b):
        raise ValueError("the two runs are not paired: play both arms with the same number of games, "
                         "players, bots and seat rotation (run_ab does)")


def _rows_wanted(games: list) -> list[tuple[str, str, str, str, Any]]:
    """(table metric, table group, label, intervals measure, its group) for every row."""
    seats = range(len(games[0]["win"])) if games else ()
    rows = [("win_rate_seat", f"seat {s}", "win rate", "win_rate", s) for s in seats]
    bots = sorted({b for g in games for b in g["bots"]})
    if len(bots) > 1:
        rows += [("win_rate_bot", b, "win rate", "bot_win_rate", b) for b in bots]
    rows.append(("balance", "", "balance", "balance", None))
    rows += [("gold_seat", f"seat {s}", "final gold", "gold", s) for s in seats]
    rows += [(metric, "", label, measure, None) for metric, label, measure in (
        ("gold_mean", "final gold (mean of all players)", "gold_all"),
        ("gold_gap", "gold gap, richest − poorest", "gold_gap"),
        ("paid_out", "gold the bank pays out per game (treasure, bonuses)", "paid_out"),
        ("paid_in", "gold paid to the bank per game (fees, heal costs)", "paid_in"),
        ("game_length", "game length (actions)", "length"),
        ("lead_changes", "lead changes per game", "lead_changes"),
        ("rooms_cleared", "share of rooms cleared per game", "rooms_cleared"))]
    levels = sorted({level for g in games for level in g["rooms"]})
    rows += [("clear_rate_level", f"Lv{level}", "clear rate", "clear_rate", level) for level in levels]
    return rows


METHOD_WORDS = {"wilson": "Wilson", "t": "t", "ratio_wilson": "Wilson (effective n)",
                "range_normal": "range test (simulated)", "paired_t": "paired t-test",
                "welch_t": "Welch t-test", "range_normal_paired": "range test (simulated, paired)",
                "range_normal_independent": "range test (simulated, independent)",
                "paired_identical": "identical games"}


def _nan_unless(ok: bool, value: float) -> float:
    return value if ok else float("nan")


def _comparison_row(games_a, games_b, spec) -> dict[str, Any]:
    from ..analysis import intervals as iv

    metric, group, label, measure, key = spec
    ea, eb = iv.estimate(games_a, measure, key), iv.estimate(games_b, measure, key)
    d = iv.difference(games_a, games_b, measure, key, paired=True)
    ind = iv.difference(games_a, games_b, measure, key, paired=False, p_value=False)
    return {"metric": metric, "group": group, "label": label, "unit": ea.unit,
            "a": ea.value, "a_low": _nan_unless(ea.enough, ea.low), "a_high": _nan_unless(ea.enough, ea.high),
            "b": eb.value, "b_low": _nan_unless(eb.enough, eb.low), "b_high": _nan_unless(eb.enough, eb.high),
            "diff": d.value, "diff_low": _nan_unless(d.enough, d.low), "diff_high": _nan_unless(d.enough, d.high),
            "p": _nan_unless(d.enough, d.p),
            "method": f"{METHOD_WORDS[ea.method]} per arm; B − A: {METHOD_WORDS[d.method]}",
            "n": d.n, "enough": bool(d.enough and ea.enough and eb.enough),
            "width_independent": _nan_unless(d.enough, ind.high - ind.low)}


def compare_rows(sim_a, sim_b, *, alpha: float = ALPHA) -> list[dict[str, Any]]:
    """The comparison of two paired runs, one dict a row (keys ``COMPARISON_COLUMNS``), computed
    from the runs' per-game dicts (:func:`~dungeon_guilds.analysis.per_game.per_game`) with
    :mod:`~dungeon_guilds.analysis.intervals` and Holm's adjustment (standard library only).
    The columns are those of :func:`compare`."""
    from ..analysis.per_game import per_game

    _paired_games(sim_a, sim_b)
    games_a, games_b = per_game(sim_a), per_game(sim_b)
    rows = [_comparison_row(games_a, games_b, spec) for spec in _rows_wanted(games_a)]
    for row, adjusted in zip(rows, stats.holm([float(r["p"]) for r in rows])):
        row["p_holm"] = adjusted
        row["significant"] = bool(not math.isnan(adjusted) and adjusted < alpha)
    return [{k: row[k] for k in COMPARISON_COLUMNS} for row in rows]


def compare(sim_a, sim_b, *, alpha: float = ALPHA):
    """The comparison table of two paired runs (a pandas DataFrame of :func:`compare_rows`):
    one row per metric (and seat, bot or level),
    columns ``COMPARISON_COLUMNS``: each arm's value with its 95 % interval (``a``, ``a_low``,
    ``a_high``; ``b``...), the paired difference B − A with its 95 % interval, the test's p,
    Holm's adjusted p over all rows, ``significant`` (adjusted p < ``alpha``), the ``method``,
    ``n`` (pairs), ``enough`` (False: too few games for this measure — its intervals are NaN,
    not shown, and it is left out of the tests) and ``width_independent`` (the width the
    difference's interval would have had with independent deals: Welch's t on the same games).
    Rates are fractions (0.25 = 25 %). The intervals: :mod:`dungeon_guilds.analysis.intervals`."""
    return _table(compare_rows(sim_a, sim_b, alpha=alpha))


def _nan(value) -> bool:
    return value is None or (isinstance(value, float) and math.isnan(value))


def narrowing(table) -> float:
    """How much narrower the shown differences' intervals are than with independent deals
    (1 − paired width / independent width, over the rows with both; NaN if none). ``table``:
    the comparison's rows (or its DataFrame)."""
    ok = [r for r in _records(table) if not _nan(r["diff_low"]) and not _nan(r["width_independent"])
          and r["width_independent"] > 0]
    if not ok:
        return float("nan")
    width = sum(r["diff_high"] - r["diff_low"] for r in ok)
    return float(1.0 - width / sum(r["width_independent"] for r in ok))


# ---------------------------------------------------------------------- words
def fmt_value(value: float, unit: str, diff: bool = False) -> str:
    """A value for people: rates in %, differences of rates in percentage points, gold in $
    (differences signed, with a true minus sign)."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "—"
    sign = ("+" if value >= 0 else "−") if diff else ("−" if value < 0 else "")
    mag = abs(value)
    if unit == "rate":
        return f"{sign}{mag * 100:.1f}\u00a0pp" if diff else f"{sign}{mag * 100:.1f}\u00a0%"
    if unit == "index":
        return f"{sign}{mag:.3f}"
    if unit == "gold":
        return f"{sign}${mag:.2f}"
    return f"{sign}{mag:.2f}"


def fmt_p(p: float) -> str:
    if p is None or math.isnan(p):
        return "—"
    if p < 0.001:
        return "< 0.001"
    return f"{p:.3f}"


def row_label(row, lang: str = "en") -> str:
    label = wt(f"metric_{row['metric']}", lang)
    group = row["group"]
    if row["metric"] == "win_rate_bot":
        from .. import i18n

        bot = i18n.t(f"bot.{group}", lang) if i18n.has(f"bot.{group}", lang) else group
        return f"{label} {bot}" if lang != "zh" else f"{label}{bot}"
    if isinstance(group, str) and group.startswith("seat "):
        group = wt("seat_n", lang, seat=int(group[5:]) + 1)  # seats are numbered from 1 for people
    return f"{label} ({group})" if group else label


_MEASURE_OF = {"win_rate_seat": "win_rate", "win_rate_bot": "bot_win_rate", "gold_seat": "gold",
               "gold_mean": "gold_all", "game_length": "length", "clear_rate_level": "clear_rate"}


def row_estimate(row):
    """A comparison row's difference as an :class:`~dungeon_guilds.analysis.intervals.Estimate`
    (for the sentences of :mod:`~dungeon_guilds.analysis.verdicts`)."""
    from ..analysis.intervals import Estimate

    measure = _MEASURE_OF.get(row["metric"], row["metric"])
    group = row["group"]
    if isinstance(group, str) and group.startswith("seat "):
        group = int(group[5:])
    elif isinstance(group, str) and group.startswith("Lv"):
        group = int(group[2:])
    method = "paired_identical" if "identical" in str(row["method"]) else (
        "range_normal_paired" if measure == "balance" else "paired_t")
    return Estimate(measure, group or None if measure not in ("win_rate", "gold") else group, float(row["diff"]),
                    float(row["diff_low"]), float(row["diff_high"]), int(row["n"]), method,
                    bool(row.get("enough", True)), float(row["p"]), row["unit"])


def _row_sentence(row, lang, name_a, name_b) -> str:
    from ..analysis.verdicts import difference_sentence

    return "• " + difference_sentence(row_estimate(row), lang, name_a, name_b, float(row["p_holm"]))


def verdict_lines(table, name_a: str = "A", name_b: str = "B", lang: str = "en",
                  identical_rules: bool = False, shared_deals: bool = True) -> list[str]:
    """The verdict in plain words, one sentence a line: the headline, each clear change, the
    hints, the measures with too few games, what the correction for many tests does, and
    whether both arms played the same deals. (The precise terms: ``stats.precise_ab``.)"""
    from ..analysis.verdicts import words

    table = _records(table)
    tested = [r for r in table if not _nan(r["p"])]
    m = len(tested)
    sig = [r for r in table if r["significant"]]
    lines = []
    all_zero = all((0 if _nan(r[k]) else r[k]) == 0 for r in table for k in ("diff", "diff_low", "diff_high"))
    if all_zero:
        lines.append(wt("verdict_identical", lang))
    if m:
        lines.append(words("some_changed", lang, k=len(sig), m=m) if len(sig) else words("none_changed", lang, m=m))
    lines += [_row_sentence(r, lang, name_a, name_b) for r in sig]
    hints = [r for r in tested if not r["significant"] and (r["diff_low"] > 0 or r["diff_high"] < 0)]
    lines += [_row_sentence(r, lang, name_a, name_b) for r in hints]
    lines += _too_few_lines(table, lang, name_a, name_b)
    if identical_rules and not all_zero:
        lines.append(wt("verdict_same_rules_noise", lang))
    if m:
        lines.append(words("family", lang, m=m))
    lines.append(_deals_line(table, name_a, name_b, lang, shared_deals, with_figure=not all_zero))
    return lines


def _too_few_lines(table, lang, name_a, name_b) -> list[str]:
    """A sentence for each measure with too few games, or one for all when there are many."""
    from ..analysis.intervals import min_games
    from ..analysis.verdicts import words

    few = [r for r in table if not bool(r["enough"])]
    if len(few) <= 3:
        return [_row_sentence(r, lang, name_a, name_b) for r in few]
    need = min(min_games("balance_diff" if r["metric"] == "balance" else _MEASURE_OF.get(r["metric"], r["metric"]))
               for r in few)
    return [words("too_few_many", lang, k=len(few), m=len(table), min=need)]


def _deals_line(table, name_a, name_b, lang, shared_deals, with_figure: bool = True) -> str:
    """Whether both arms played the same deals, and how much narrower that made the ranges
    (estimated from this run: paired widths against Welch's on the same games)."""
    from ..analysis.verdicts import words

    if not shared_deals:
        return words("not_shared", lang)
    n = max((int(r["n"]) for r in table), default=0)
    narrow = narrowing(table) if with_figure else float("nan")
    if math.isnan(narrow) or narrow <= 0.005:
        return words("shared_deals_no_gain", lang, n=n, a=name_a, b=name_b)
    return words("shared_deals", lang, n=n, a=name_a, b=name_b, narrow=f"{100 * narrow:.0f}\u00a0%")


def precise_text(table, lang: str = "en") -> str:
    """The methods in precise terms (shown one click away from the verdict)."""
    from ..analysis.verdicts import words

    table = _records(table)
    n = max((int(r["n"]) for r in table), default=0)
    return words("precise_ab", lang, n=n, m=sum(1 for r in table if not _nan(r["p"])))


def verdict(table, name_a: str = "A", name_b: str = "B", lang: str = "en", identical_rules: bool = False,
            shared_deals: bool = True) -> str:
    return "\n".join(verdict_lines(table, name_a, name_b, lang, identical_rules, shared_deals))
