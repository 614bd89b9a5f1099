"""Confidence intervals and sample sizes, standard library only (issue 27).

One module for every interval the Lab and the A/B experiment show, so that the browser build
(no numpy, no pandas) and the CLI compute the same numbers. Every interval here contains its
own estimate, and how often each covers the truth is measured, not assumed:
``benchmarks/bench_coverage.py`` (the table is in ``docs/metrics.md``).

The input is plain data: a list of *per-game results*, one dict a game (see :func:`game_dict`
for the keys; ``analysis.metrics.per_game`` builds them from a simulation's tables)::

    {"win": [0.0, 1.0, 0.0, 0.0],   # each seat's share of the victory (1/k for k winners)
     "gold": [12, 31, 8, 20],       # each seat's final gold
     "length": 118,                 # actions in the game
     "lead_changes": 2, "paid_out": 40, "paid_in": 22,
     "rooms": {1: (3, 4), 2: (1, 4), 3: (0, 4)},   # level -> (rooms cleared, rooms dealt)
     "bots": ["greedy", "random", "bully", "random"]}  # optional: the bot of each seat

The measures (``MEASURES``) and their methods:

* ``win_rate`` (a seat) — Wilson score interval of the seat's summed win shares;
  ``bot_win_rate`` (a bot) the same over the seats the bot played;
* ``gold`` (a seat), ``gold_all``, ``gold_gap``, ``length``, ``lead_changes``, ``paid_out``,
  ``paid_in``, ``rooms_cleared`` — mean of per-game values, Student-t interval;
* ``clear_rate`` (a level) — a ratio of sums over games: Wilson interval on the *effective*
  number of rooms (rooms of one game are not independent; the design effect is measured from
  the games), so it never leaves [0, 1] and never collapses at 0 % or 100 %;
* ``balance`` (1 − the range of the seats' win rates) — no bootstrap: the upper bound of the
  range is the largest one-sided upper bound of a pairwise seat difference (one pair is the
  true extreme pair: no multiplicity), the lower bound the largest Bonferroni lower bound over
  the pairs. It always contains the estimate (the percentile bootstrap did not).

Differences between two arms (B − A): paired t on the per-game differences when the arms share
their deals (common random numbers), Welch's t otherwise; for ``clear_rate`` the same on the
linearised ratio; for ``balance`` the extreme one-sided bounds of the pairwise seat differences
of the two arms (see :func:`_balance_difference`: no multiplicity, and it uses the pairing).

:func:`estimate`, :func:`difference` and :func:`games_needed` are the API; ``verdicts`` puts
them into sentences.
"""

from __future__ import annotations

import math
import operator
from dataclasses import dataclass, replace
from functools import lru_cache
from statistics import NormalDist  # noqa: F401 - verdicts uses iv.NormalDist
from typing import Any, Mapping, Sequence

Z95 = 1.959963984540054
LEVEL = 0.95

#: Fewer games than this and the interval is not shown ("too few games for this measure"):
#: below it the measured coverage (docs/metrics.md) falls short of 93 %.
MIN_GAMES: dict[str, int] = {"balance": 50, "clear_rate": 20, "balance_diff": 50}
DEFAULT_MIN_GAMES = 20


# ---------------------------------------------------------------------- distributions
def _betacf(a: float, b: float, x: float) -> float:
    """Continued fraction of the incomplete beta function (modified Lentz)."""
    tiny = 1e-300
    qab, qap, qam = a + b, a + 1.0, a - 1.0
    c, d = 1.0, 1.0 - qab * x / qap
    d = 1.0 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 100000):
        m2 = 2 * m
        aa = m * (b - m) * x / ((qam + m2) * (a + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + aa / c
        c = c if abs(c) > tiny else tiny
        h *= d * c
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + aa / c
        c = c if abs(c) > tiny else tiny
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < 1e-15:
            break
    return h


def betainc(a: float, b: float, x: float) -> float:
    """The regularized incomplete beta function I_x(a, b)."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    ln = (math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x))
    front = math.exp(ln)
    if x < (a + 1.0) / (a + b + 2.0):
        return front * _betacf(a, b, x) / a
    return 1.0 - front * _betacf(b, a, 1.0 - x) / b


def t_sf2(t: float, df: float) -> float:
    """Two-sided tail probability P(|T| >= |t|) of Student's t with ``df`` degrees of freedom."""
    if math.isinf(t):
        return 0.0
    return betainc(df / 2.0, 0.5, df / (df + t * t))


@lru_cache(maxsize=4096)
def t_ppf(q: float, df: float) -> float:
    """The ``q`` quantile (0.5 < q < 1) of Student's t: bisection on the exact tail, or for
    ``df`` > 200 the Cornish–Fisher expansion (Abramowitz & Stegun 26.7.5; error < 1e-7 there)."""
    if df > 200:
        z = z_ppf(q)
        z2 = z * z
        return (z + z * (z2 + 1) / (4 * df) + z * ((5 * z2 + 16) * z2 + 3) / (96 * df * df)
                + z * (((3 * z2 + 19) * z2 + 17) * z2 - 15) / (384 * df ** 3))
    target = 2.0 * (1.0 - q)  # two-sided tail at the quantile
    lo, hi = 0.0, 1.0
    while t_sf2(hi, df) > target:
        hi *= 2.0
    for _ in range(100):
        mid = (lo + hi) / 2.0
        if t_sf2(mid, df) > target:
            lo = mid
        else:
            hi = mid
        if hi - lo < 1e-12 * hi:
            break
    return (lo + hi) / 2.0


def z_ppf(q: float) -> float:
    """The ``q`` quantile of the standard normal distribution."""
    return NormalDist().inv_cdf(q)


# ---------------------------------------------------------------------- one-sample intervals
def wilson(successes: float, n: float, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a rate ``successes / n`` (works for shared wins too). It
    contains ``successes / n``."""
    if n <= 0:
        return (float("nan"), float("nan"))
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(max(0.0, p * (1 - p)) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, min(p, centre - half)), min(1.0, max(p, centre + half)))


def mean_sd(values: Sequence[float]) -> tuple[float, float]:
    """(mean, sample standard deviation); n = 1: sd NaN."""
    n = len(values)
    if n == 0:
        return (float("nan"), float("nan"))
    m = sum(values) / n
    if n == 1:
        return (m, float("nan"))
    ss = sum(map(operator.mul, values, values)) - n * m * m  # values here are small: no cancellation
    return (m, math.sqrt(max(0.0, ss) / (n - 1)))


def t_interval(values: Sequence[float], level: float = LEVEL) -> tuple[float, float, float]:
    """(mean, low, high): the Student-t interval of a mean (n < 2: no interval)."""
    m, sd = mean_sd(values)
    n = len(values)
    if n < 2:
        return (m, float("nan"), float("nan"))
    half = t_ppf(0.5 + level / 2.0, n - 1) * sd / math.sqrt(n)
    return (m, m - half, m + half)


def ratio_interval(num: Sequence[float], den: Sequence[float],
                   level: float = LEVEL) -> tuple[float, float, float]:
    """(ratio, low, high) of ``sum(num) / sum(den)`` over games (e.g. rooms cleared / rooms
    dealt): a Wilson interval on the effective number of trials ``r(1−r) / se²`` (se from the
    linearised ratio over games; never more than the trials themselves)."""
    total = math.fsum(den)
    n = len(num)
    if total <= 0 or n < 2:
        return (float("nan"), float("nan"), float("nan"))
    r = math.fsum(num) / total
    mbar = total / n
    z = [(x - r * d) / mbar for x, d in zip(num, den)]
    var = math.fsum(v * v for v in z) / (n * (n - 1))
    eff = total if var <= 0 or r in (0.0, 1.0) else min(total, r * (1 - r) / var)
    q = t_ppf(0.5 + level / 2.0, n - 1)
    lo, hi = wilson(r * eff, eff, q)
    return (r, lo, hi)


def _pair_bounds(rows: Sequence[Sequence[float]], q_up: float, q_low: float) -> tuple[float, float, float]:
    """(range, lower, upper) of the columns' means from the pairwise differences."""
    n = len(rows)
    k = len(rows[0])
    cols = [[r[i] for r in rows] for i in range(k)]
    means = [math.fsum(c) / n for c in cols]
    upper, lower = 0.0, 0.0
    for i in range(k):
        for j in range(k):
            if i == j:
                continue
            d = [a - b for a, b in zip(cols[i], cols[j])]
            m, sd = mean_sd(d)
            se = sd / math.sqrt(n)
            upper = max(upper, m + q_up * se)
            lower = max(lower, m - q_low * se)
    rng = max(means) - min(means)
    return (rng, min(lower, rng), max(upper, rng))


def range_interval(rows: Sequence[Sequence[float]], level: float = LEVEL) -> tuple[float, float, float]:
    """(range, low, high): the range (largest − smallest) of the column means of ``rows``
    (games × seats), with its interval. Upper bound: one-sided (1 − α/2) t bound of each
    pairwise difference, the largest; lower bound: the largest Bonferroni (α/2 over the pairs)
    lower bound, at least 0."""
    n = len(rows)
    if n < 2 or not rows[0]:
        return (float("nan"), float("nan"), float("nan"))
    k = len(rows[0])
    alpha = 1.0 - level
    pairs = max(1, k * (k - 1) // 2)
    return _pair_bounds(rows, t_ppf(1 - alpha / 2, n - 1), t_ppf(1 - alpha / 2 / pairs, n - 1))


def balance_interval(rows: Sequence[Sequence[float]], level: float = LEVEL) -> tuple[float, float, float]:
    """(balance, low, high): balance = 1 − the range of the seats' win rates (rows: one list
    of win shares a game)."""
    rng, lo, hi = range_interval(rows, level)
    return (1.0 - rng, max(0.0, 1.0 - hi), 1.0 - lo)


# ---------------------------------------------------------------------- two-sample intervals
def paired_t(diffs: Sequence[float], level: float = LEVEL, p_value: bool = True) -> dict[str, float]:
    """Mean paired difference, sd, a Student-t ``level`` interval and the paired t-test p-value.

    All differences equal: the interval is that value and p is 1 if it is 0, else 0 (a certain
    shift that the t-test cannot measure)."""
    n = len(diffs)
    nan = float("nan")
    if n == 0:
        return {"n": 0, "mean": nan, "sd": nan, "ci_low": nan, "ci_high": nan, "p": nan}
    mean, sd = mean_sd(diffs)
    if n == 1:
        return {"n": 1, "mean": mean, "sd": nan, "ci_low": nan, "ci_high": nan, "p": nan}
    if all(d == diffs[0] for d in diffs):
        return {"n": n, "mean": float(diffs[0]), "sd": 0.0, "ci_low": float(diffs[0]),
                "ci_high": float(diffs[0]), "p": 1.0 if diffs[0] == 0 else 0.0}
    se = sd / math.sqrt(n)
    half = t_ppf(0.5 + level / 2.0, n - 1) * se
    p = t_sf2(mean / se, n - 1) if p_value else nan
    return {"n": n, "mean": mean, "sd": sd, "ci_low": mean - half, "ci_high": mean + half,
            "p": min(1.0, p) if p == p else p}


def welch_t(a: Sequence[float], b: Sequence[float], level: float = LEVEL, p_value: bool = True) -> dict[str, float]:
    """mean(b) − mean(a) of two independent samples: Welch's t interval and p-value."""
    nan = float("nan")
    ma, sa = mean_sd(a)
    mb, sb = mean_sd(b)
    if len(a) < 2 or len(b) < 2:
        return {"n": min(len(a), len(b)), "mean": mb - ma, "ci_low": nan, "ci_high": nan, "p": nan}
    va, vb = sa * sa / len(a), sb * sb / len(b)
    se = math.sqrt(va + vb)
    diff = mb - ma
    if se == 0:
        return {"n": min(len(a), len(b)), "mean": diff, "ci_low": diff, "ci_high": diff,
                "p": 1.0 if diff == 0 else 0.0}
    df = (va + vb) ** 2 / ((va * va / (len(a) - 1) if va else 0) + (vb * vb / (len(b) - 1) if vb else 0))
    half = t_ppf(0.5 + level / 2.0, df) * se
    return {"n": min(len(a), len(b)), "mean": diff, "ci_low": diff - half, "ci_high": diff + half,
            "p": min(1.0, t_sf2(diff / se, df)) if p_value else nan}


def holm(pvalues: Sequence[float]) -> list[float]:
    """Holm's step-down adjusted p-values (NaN stays NaN): reject where adjusted p < alpha
    keeps the chance of any false alarm in the family below alpha."""
    idx = [i for i, p in enumerate(pvalues) if not math.isnan(p)]
    m = len(idx)
    out = [float("nan")] * len(pvalues)
    running = 0.0
    for rank, i in enumerate(sorted(idx, key=lambda i: pvalues[i])):
        running = max(running, min(1.0, (m - rank) * pvalues[i]))
        out[i] = running
    return out


# ---------------------------------------------------------------------- measures
@dataclass(frozen=True)
class Estimate:
    """A measure with its interval. ``value`` is always inside [``low``, ``high``] (when they
    are numbers); ``enough`` False: fewer games than ``MIN_GAMES`` for this measure, the
    interval is not to be shown. For a difference (B − A) ``p`` is its two-sided p-value."""

    measure: str
    group: Any
    value: float
    low: float
    high: float
    n: int
    method: str
    enough: bool = True
    p: float = float("nan")
    unit: str = "rate"

    @property
    def excludes_zero(self) -> bool:
        return self.enough and (self.low > 0 or self.high < 0)


MEASURES: dict[str, tuple[str, str]] = {  # name -> (unit, what its group is)
    "win_rate": ("rate", "seat"), "gold": ("gold", "seat"), "balance": ("index", ""),
    "clear_rate": ("rate", "level"), "gold_all": ("gold", ""), "gold_gap": ("gold", ""),
    "length": ("actions", ""), "lead_changes": ("count", ""), "paid_out": ("gold", ""),
    "paid_in": ("gold", ""), "rooms_cleared": ("rate", ""), "bot_win_rate": ("rate", "bot"),
}


def _values(games: Sequence[Mapping[str, Any]], measure: str, group: Any) -> list[float]:
    """The per-game values of a mean-type measure."""
    if measure == "win_rate":
        return [float(g["win"][group]) for g in games]
    if measure == "gold":
        return [float(g["gold"][group]) for g in games]
    if measure == "gold_all":
        return [math.fsum(g["gold"]) / len(g["gold"]) for g in games]
    if measure == "gold_gap":
        return [float(max(g["gold"]) - min(g["gold"])) for g in games]
    if measure == "bot_win_rate":  # only games the bot plays in
        return [_bot_share(g, group) for g in games]
    if measure == "rooms_cleared":
        return [_share_cleared(g) for g in games]
    if measure in ("length", "lead_changes", "paid_out", "paid_in"):
        return [float(g[measure]) for g in games]
    raise ValueError(f"unknown measure {measure!r} (known: {', '.join(MEASURES)})")


def _bot_share(g: Mapping[str, Any], bot: str) -> float:
    seats = [s for s, b in enumerate(g["bots"]) if b == bot]
    return math.fsum(g["win"][s] for s in seats) / len(seats)


def _share_cleared(g: Mapping[str, Any]) -> float:
    cleared = sum(c for c, _ in g["rooms"].values())
    dealt = sum(d for _, d in g["rooms"].values())
    return cleared / dealt if dealt else float("nan")


def _level_counts(games, level) -> tuple[list[float], list[float]]:
    pairs = [g["rooms"].get(level, (0, 0)) for g in games]
    return [float(c) for c, _ in pairs], [float(d) for _, d in pairs]


def min_games(measure: str) -> int:
    return MIN_GAMES.get(measure, DEFAULT_MIN_GAMES)


def estimate(games: Sequence[Mapping[str, Any]], measure: str, group: Any = None,
             level: float = LEVEL) -> Estimate:
    """One arm's measure with its ``level`` interval (see the module's list of methods)."""
    n = len(games)
    unit = MEASURES.get(measure, ("", ""))[0]
    if measure == "balance":
        v, lo, hi = balance_interval([g["win"] for g in games], level)
        method = "pairwise_range"
    elif measure == "clear_rate":
        v, lo, hi = ratio_interval(*_level_counts(games, group), level=level)
        method = "ratio_wilson"
    elif measure == "win_rate":
        vals = _values(games, measure, group)
        v = math.fsum(vals) / n if n else float("nan")
        lo, hi = wilson(math.fsum(vals), n, z_ppf(0.5 + level / 2))
        method = "wilson"
    elif measure == "bot_win_rate":
        seats = [(g["win"][s]) for g in games for s, b in enumerate(g["bots"]) if b == group]
        v = math.fsum(seats) / len(seats) if seats else float("nan")
        lo, hi = wilson(math.fsum(seats), len(seats), z_ppf(0.5 + level / 2))
        method = "wilson"
    else:
        v, lo, hi = t_interval(_values(games, measure, group), level)
        method = "t"
    enough = n >= min_games(measure) and not math.isnan(lo)
    return Estimate(measure, group, v, lo, hi, n, method, enough, unit=unit)


def _pair_difference_bound(xs, ys, paired: bool, alpha: float) -> tuple[float, float, float]:
    """(mean, lower, upper) one-sided (1 − α) bounds of mean(xs) − mean(ys): paired t on the
    per-game differences, or Welch's t for independent games."""
    if paired:
        m, sd = mean_sd([x - y for x, y in zip(xs, ys)])
        n = len(xs)
        half = t_ppf(1 - alpha, n - 1) * sd / math.sqrt(n) if sd > 0 else 0.0
        return (m, m - half, m + half)
    mx, sx = mean_sd(xs)
    my, sy = mean_sd(ys)
    vx, vy = sx * sx / len(xs), sy * sy / len(ys)
    if vx + vy == 0:
        return (mx - my, mx - my, mx - my)
    df = (vx + vy) ** 2 / ((vx * vx / (len(xs) - 1)) + (vy * vy / (len(ys) - 1)))
    half = t_ppf(1 - alpha, df) * math.sqrt(vx + vy)
    return (mx - my, mx - my - half, mx - my + half)


def _balance_difference(games_a, games_b, level: float, paired: bool = True) -> tuple[float, float, float]:
    """balance(B) − balance(A) = range(A) − range(B), with its interval. For seats i, j let
    D_ij = (A's rate i − rate j) − (B's rate i − rate j). range(A) − range(B) ≤ D_ab for A's
    true extreme pair (a, b) and ≥ D_cd for B's (c, d): the largest one-sided (1 − α/2)
    upper bound of the D_ij and the smallest lower bound cover it with at least ``level``, with
    no correction for the number of pairs; paired games give the D_ij by paired t."""
    alpha = (1.0 - level) / 2
    wa, wb = [g["win"] for g in games_a], [g["win"] for g in games_b]
    k = len(wa[0])
    est = range_interval(wa, level)[0] - range_interval(wb, level)[0]
    lower, upper = est, est
    for i in range(k):
        for j in range(k):
            if i != j:
                _, lo, hi = _pair_difference_bound([x[i] - x[j] for x in wa], [y[i] - y[j] for y in wb], paired, alpha)
                lower, upper = min(lower, lo), max(upper, hi)
    return (est, lower, upper)


def _ratio_linear(games, level_key) -> list[float]:
    num, den = _level_counts(games, level_key)
    total = math.fsum(den)
    if total <= 0:
        return [float("nan")] * len(games)
    r, mbar = math.fsum(num) / total, total / len(games)
    return [r + (x - r * d) / mbar for x, d in zip(num, den)]  # mean of these = r


def difference(games_a: Sequence[Mapping[str, Any]], games_b: Sequence[Mapping[str, Any]], measure: str,
               group: Any = None, paired: bool = True, level: float = LEVEL, p_value: bool = True) -> Estimate:
    """B − A for a measure, with its ``level`` interval and p-value. ``paired``: game *g* of
    both arms was dealt from the same seed (common random numbers), so the per-game differences
    are used; otherwise the arms are independent samples (Welch). ``p_value`` False: the
    balance's p (a search over levels) is skipped (NaN) — the coverage benchmark needs none."""
    if paired and len(games_a) != len(games_b):
        raise ValueError("paired arms need the same number of games")
    n = min(len(games_a), len(games_b))
    unit = MEASURES.get(measure, ("", ""))[0]
    if measure == "balance" and paired and all(x["win"] == y["win"] for x, y in zip(games_a, games_b)):
        return Estimate(measure, group, 0.0, 0.0, 0.0, n, "paired_identical", n >= min_games("balance_diff"),
                        1.0, unit)  # the same games: the difference is known exactly
    if measure == "balance":
        v, lo, hi = _balance_difference(games_a, games_b, level, paired)
        p = _balance_p(games_a, games_b, paired) if p_value and not math.isnan(lo) else float("nan")
        enough = n >= min_games("balance_diff") and not math.isnan(lo)
        return Estimate(measure, group, v, min(lo, v), max(hi, v), n,
                        "pairwise_range_paired" if paired else "pairwise_range_welch", enough, p, unit)
    if measure == "clear_rate":
        va, vb = _ratio_linear(games_a, group), _ratio_linear(games_b, group)
    elif measure == "bot_win_rate":  # games where the bot plays in both arms
        keep = [(x, y) for x, y in zip(games_a, games_b) if group in x.get("bots", ()) and group in y.get("bots", ())]
        va, vb = _values([x for x, _ in keep], measure, group), _values([y for _, y in keep], measure, group)
        n = len(keep)
    else:
        va, vb = _values(games_a, measure, group), _values(games_b, measure, group)
    res = (paired_t([y - x for x, y in zip(va, vb)], level, p_value) if paired
           else welch_t(va, vb, level, p_value))
    method = "paired_t" if paired else "welch_t"
    enough = n >= min_games(measure) and not math.isnan(res["ci_low"])
    return Estimate(measure, group, res["mean"], res["ci_low"], res["ci_high"], n, method, enough,
                    res["p"], unit)


def _balance_p(games_a, games_b, paired: bool = True) -> float:
    """The smallest α at which the balance difference's interval leaves out 0 (bisection)."""
    lo_a, hi_a = 1e-6, 1.0 - 1e-9

    def excludes(alpha: float) -> bool:
        _, low, high = _balance_difference(games_a, games_b, 1.0 - alpha, paired)
        return low > 0 or high < 0

    if not excludes(hi_a):
        return 1.0
    if excludes(lo_a):
        return lo_a
    for _ in range(18):
        mid = math.sqrt(lo_a * hi_a)
        if excludes(mid):
            hi_a = mid
        else:
            lo_a = mid
    return hi_a


def with_holm(estimates: Sequence[Estimate]) -> list[Estimate]:
    """The same estimates, their ``p`` replaced by Holm's adjusted p over the family."""
    adjusted = holm([e.p for e in estimates])
    return [replace(e, p=p) for e, p in zip(estimates, adjusted)]


# ---------------------------------------------------------------------- sample sizes
def games_needed(delta: float, *, sd: float | None = None, rate: float | None = None, arms: int = 2,
                 paired_sd: float | None = None, tests: int = 1, power: float = 0.8,
                 level: float = LEVEL) -> int:
    """Games (an arm) needed to detect a true difference ``delta`` with probability ``power``
    at the two-sided ``level``, Bonferroni over ``tests`` measures checked together (Holm is
    never stricter). The spread of one game's value: ``sd``, or ``rate`` for a 0/1 outcome
    (sd = √(r(1−r))). ``arms=1``: one arm against a fixed value (a seat against its fair
    share); ``arms=2``: two independent arms; ``paired_sd``: the sd of the per-game difference
    of two arms with shared deals (from an earlier run), which replaces both."""
    if delta <= 0:
        raise ValueError("the difference to detect must be positive")
    if paired_sd is not None:
        var = paired_sd ** 2
    else:
        if sd is None:
            if rate is None or not 0 < rate < 1:
                raise ValueError("give the spread: sd, or a rate between 0 and 1")
            sd = math.sqrt(rate * (1 - rate))
        var = sd * sd * (2 if arms == 2 else 1)
    alpha = (1.0 - level) / max(1, tests)
    zsum = z_ppf(1 - alpha / 2) + z_ppf(power)
    return max(2, math.ceil(zsum * zsum * var / (delta * delta)))


def seat_spread(games: Sequence[Mapping[str, Any]], seat: int, measure: str = "win_rate") -> float:
    """The sd of one game's value of a seat measure (for :func:`games_needed` after a pilot)."""
    return mean_sd(_values(games, measure, seat))[1]


def game_dict(win: Sequence[float], gold: Sequence[float], length: int, rooms: Mapping[int, tuple[int, int]],
              lead_changes: int = 0, paid_out: float = 0, paid_in: float = 0) -> dict[str, Any]:
    """One game's results in the form every function here reads."""
    return {"win": list(win), "gold": list(gold), "length": length, "rooms": dict(rooms),
            "lead_changes": lead_changes, "paid_out": paid_out, "paid_in": paid_in}


__all__ = ["DEFAULT_MIN_GAMES", "Estimate", "LEVEL", "MEASURES", "MIN_GAMES", "Z95", "balance_interval",
           "betainc", "difference", "estimate", "game_dict", "games_needed", "holm", "mean_sd", "min_games",
           "paired_t", "range_interval", "ratio_interval", "seat_spread", "t_interval", "t_ppf", "t_sf2",
           "welch_t", "wilson", "with_holm", "z_ppf"]
