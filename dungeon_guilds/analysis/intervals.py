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
* ``balance`` (1 − the range of the seats' win rates) — a test inverted, no bootstrap: a
  true range r is in the interval when the observed range is not surprising for seats whose
  rates differ as the observed ones do, scaled to range r; the sample range's error is
  simulated from the normal approximation of the seats' mean win shares (their covariance
  from the games; 1,000 fixed Latin-hypercube draws, widened like Student's t), so the upward
  bias of a range near a fair game is in the test. The tails are equal unless that would put
  the estimate outside (near a fair game): then that end stops at the estimate and the other
  gets the whole 5 % (:func:`_error_bounds`). It always contains the estimate (the
  percentile bootstrap did not). Win rates step in 1/n, so the seats can come out exactly
  even (range 0), which the continuous model calls impossible at every true range: the far
  end is never below the range that makes an all-equal result 5 % as likely as a fair game
  does (:func:`_even_floor`), so "1.000 [1.000, 1.000]" cannot happen.

Differences between two arms (B − A): paired t on the per-game differences when the arms share
their deals (common random numbers), Welch's t otherwise; for ``clear_rate`` the same on the
linearised ratio; for ``balance`` the same test inverted for range(A) − range(B), both arms'
seat rates simulated jointly (correlated through the paired games), their true ranges' sum
held at the sum of each arm's *held* range — the range whose simulated 75 % point is the one
seen (see :func:`_balance_difference`, :func:`_held_range`).

:func:`estimate`, :func:`difference` and :func:`games_needed` are the API; ``verdicts`` puts
them into sentences.
"""

from __future__ import annotations

import bisect
import math
import operator
import random
from dataclasses import dataclass, replace
from functools import lru_cache
from statistics import NormalDist
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


# ---------------------------------------------------------------------- the balance: a range of means
#: Draws of the simulated sampling error of the seats' win rates: one fixed set of standard
#: normal draws, so the same games always give the same interval.
SIM_DRAWS = 1000
_TOL = 1e-4  # the bounds' precision (the screens show the balance to 3 decimals)


@lru_cache(maxsize=16)
def _std_normals(dim: int, draws: int = SIM_DRAWS) -> tuple[tuple[float, ...], ...]:
    """``draws`` standard normal vectors as ``dim`` columns, a Latin hypercube: each column
    holds the normal quantiles at (i + ½)/draws in a seeded random order, so every
    coordinate's tails are exact (1,000 plain random draws put the 97.5 % point anywhere in
    about 1.8–2.1)."""
    rng = random.Random(f"intervals/normals/{dim}/{draws}")
    dist = NormalDist()
    marks = [dist.inv_cdf((i + 0.5) / draws) for i in range(draws)]
    cols = []
    for _ in range(dim):
        col = marks[:]
        rng.shuffle(col)
        cols.append(tuple(col))
    return tuple(cols)


def _means_cov(rows: Sequence[Sequence[float]]) -> tuple[list[float], list[list[float]]]:
    """The column means of ``rows`` and their sample covariance matrix (divisor n − 1)."""
    n, k = len(rows), len(rows[0])
    means = [math.fsum(r[i] for r in rows) / n for i in range(k)]
    cov = [[0.0] * k for _ in range(k)]
    for r in rows:
        d = [r[i] - means[i] for i in range(k)]
        for i, di in enumerate(d):
            if di:
                row = cov[i]
                for j in range(i + 1):
                    row[j] += di * d[j]
    for i in range(k):
        for j in range(i + 1):
            cov[i][j] = cov[j][i] = cov[i][j] / (n - 1)
    return means, cov


def _factor(cov: Sequence[Sequence[float]], scale: float) -> list[list[float]]:
    """Lower-triangular L (row i has i + 1 entries) with L Lᵀ = ``scale`` · cov: Cholesky, a
    zero pivot giving a zero column (the seats' win shares add up to 1, so one direction of
    their means has no variance)."""
    k = len(cov)
    tol = 1e-12 * max([cov[i][i] for i in range(k)] + [1e-300])
    low = [[0.0] * (i + 1) for i in range(k)]
    for j in range(k):
        s = cov[j][j] - math.fsum(low[j][m] ** 2 for m in range(j))
        if s <= tol:
            continue
        low[j][j] = math.sqrt(s)
        for i in range(j + 1, k):
            low[i][j] = (cov[i][j] - math.fsum(low[i][m] * low[j][m] for m in range(j))) / low[j][j]
    root = math.sqrt(scale)
    return [[x * root for x in row] for row in low]


def _noise_scale(n: int, level: float = LEVEL) -> float:
    """The variance of a mean of ``n`` games per unit variance of one game, widened as
    Student's t widens a mean's interval (the spread is estimated): (t/z)² / n."""
    q = 0.5 + level / 2
    return (t_ppf(q, n - 1) / z_ppf(q)) ** 2 / n


def _noise(factor: Sequence[Sequence[float]]) -> list[list[float]]:
    """``SIM_DRAWS`` draws of L·g, g standard normal — the sampling errors of the means — as
    one column (list of draws) a mean."""
    g = _std_normals(len(factor))
    out = []
    for row in factor:
        col = [0.0] * SIM_DRAWS
        for x, gj in zip(row, g):
            if x:
                col = list(map(operator.add, col, [x * v for v in gj]))
        out.append(col)
    return out


def _block(first: list[list[float]], second: list[list[float]]) -> list[list[float]]:
    """The factor of two independent blocks (block-diagonal, rows still lower-triangular)."""
    return first + [[0.0] * len(first) + row for row in second]


def _spread(v: Sequence[float]) -> float:
    return max(v) - min(v)


def _shape(means: Sequence[float]) -> list[float]:
    """The seats' rates minus their average, scaled to a range of 1: the direction of the
    imbalance the data show (all equal: seat 1 above seat 2)."""
    k = len(means)
    centre = math.fsum(means) / k
    rng = _spread(means)
    if rng <= 0:
        return [0.5, -0.5] + [0.0] * (k - 2)
    return [(m - centre) / rng for m in means]


def _quantile(sorted_values: Sequence[float], q: float) -> float:
    i = min(len(sorted_values) - 1, max(0, math.ceil(q * len(sorted_values)) - 1))
    return sorted_values[i]


def _error_bounds(errors: Sequence[float], alpha: float) -> tuple[float, float]:
    """(q_lo, q_hi), q_lo ≤ 0 ≤ q_hi, from sorted simulated errors (estimate − truth): the
    interval estimate − q_hi … estimate − q_lo misses the truth with probability α. Equal
    tails, except that the interval must contain the estimate: when fewer than α/2 of the
    errors are below 0 (a nearly fair game: noise alone spreads the seats apart, so the
    estimate is almost always above the truth), that end stops at the estimate and the other
    end gets the rest of α (and the same the other way round)."""
    n = len(errors)
    below = bisect.bisect_left(errors, 0.0) / n
    above = (n - bisect.bisect_right(errors, 0.0)) / n
    half = alpha / 2
    if below < half and above < half:
        return (0.0, 0.0)
    if below < half:
        return (0.0, max(0.0, _quantile(errors, 1 - (alpha - below))))
    if above < half:
        return (min(0.0, _quantile(errors, alpha - above)), 0.0)
    return (min(0.0, _quantile(errors, half)), max(0.0, _quantile(errors, 1 - half)))


def _margin(errors: Sequence[float], alpha: float, miss: float) -> float:
    """How far a candidate true value is inside the interval (≥ 0: inside) when the estimate
    minus it is ``miss`` and ``errors`` are the sorted simulated errors at that value."""
    q_lo, q_hi = _error_bounds(errors, alpha)
    return q_hi - miss if miss >= 0 else miss - q_lo


def _edge(margin, inside: float, f_inside: float, outside: float) -> float:
    """The end of the interval between ``inside`` (margin ``f_inside`` ≥ 0) and ``outside``:
    the Illinois variant of regula falsi on the margin, to within ``_TOL``."""
    f_out = margin(outside)
    if f_out >= 0:
        return outside
    kept = 0
    while abs(outside - inside) > _TOL:
        x = outside - f_out * (outside - inside) / (f_out - f_inside)
        if not min(inside, outside) < x < max(inside, outside) or kept in (-3, 3):
            x = (inside + outside) / 2
        fx = margin(x)
        if fx >= 0:
            inside, f_inside = x, fx
            kept = kept + 1 if kept > 0 else 1
            f_out /= 2 if kept > 1 else 1
        else:
            outside, f_out = x, fx
            kept = kept - 1 if kept < 0 else -1
            f_inside /= 2 if kept < -1 else 1
    return inside


def _ranges(shape: Sequence[float], noise: Sequence[Sequence[float]], r0: float):
    """The simulated sample ranges (an iterator, one a draw) when the true rates are
    ``r0`` · shape (the rates' average does not change a range)."""
    cols = [[r0 * s + z for z in col] if s else col for s, col in zip(shape, noise)]
    return map(operator.sub, map(max, *cols), map(min, *cols))


def _range_errors(shape: Sequence[float], noise: Sequence[Sequence[float]], r0: float) -> list[float]:
    """Sorted simulated errors of the sample range when the true rates are ``r0`` · shape."""
    return sorted([x - r0 for x in _ranges(shape, noise, r0)])


def range_interval(rows: Sequence[Sequence[float]], level: float = LEVEL) -> tuple[float, float, float]:
    """(range, low, high): the range (largest − smallest) of the column means of ``rows``
    (games × seats) with its ``level`` interval, by inverting a test: a true range r is in
    the interval when the observed range is not surprising for seats whose true rates differ
    as the observed ones do, scaled to the range r — the sample range's error simulated from
    the normal approximation of the means (covariance from the games), tails as in
    :func:`_error_bounds`. Near a fair game the sample range is biased upwards (noise alone
    spreads the seats apart): the test knows it, so the interval reaches down to the truth."""
    n = len(rows)
    if n < 2 or not rows[0]:
        return (float("nan"), float("nan"), float("nan"))
    means, cov = _means_cov(rows)
    est = _spread(means)
    shape = _shape(means)
    noise = _noise(_factor(cov, _noise_scale(n, level)))
    alpha = 1.0 - level

    def margin(r0: float) -> float:
        return _margin(_range_errors(shape, noise, r0), alpha, est - r0)

    q_lo, q_hi = _error_bounds(_range_errors(shape, noise, est), alpha)
    high = max(_edge(margin, est, -q_lo, 1.0), _even_floor(cov, _noise_scale(n, level), alpha))
    return (est, _edge(margin, est, q_hi, 0.0), min(1.0, high))


def _even_floor(cov: Sequence[Sequence[float]], scale: float, alpha: float) -> float:
    """The far end of the interval when the seats' rates came out (almost) equal: the largest
    true range r at which seats i, j that far apart make an all-equal result at least ``alpha``
    as likely as a fair game does — the normal density of the means' difference at 0,
    exp(−r²/2V), V = Var(mean_i − mean_j) (``scale`` · the games' covariance), the pair with
    the largest V: r = √(2 ln(1/α) · V). Win rates step in 1/n, so a range of 0 is seen (about 1 %
    of 20 fair games), yet under the continuous model every true range, even 0, makes it
    impossible: the test alone gave "1.000 [1.000, 1.000]". This is the CLs rule (Read 2002)
    for a result below what noise alone gives; a larger observed range only raises that bound,
    so it is a floor of the far end. For four seats with multinomial winners the exact bound is
    (1 − 4r²)^(n/4) ≥ α; this one is beyond it by 26 % at 20 games, 9 % at 52, 2 % at 200
    (tests/analysis/test_intervals_coverage.py; docs/metrics.md, "An even result")."""
    k = len(cov)
    worst = max((cov[i][i] + cov[j][j] - 2 * cov[i][j] for i in range(k) for j in range(i)), default=0.0)
    return math.sqrt(2 * math.log(1 / alpha) * scale * max(0.0, worst))


def balance_interval(rows: Sequence[Sequence[float]], level: float = LEVEL) -> tuple[float, float, float]:
    """(balance, low, high): balance = 1 − the range of the seats' win rates (rows: one list
    of win shares a game)."""
    rng, lo, hi = range_interval(rows, level)
    return (1.0 - rng, 1.0 - hi, 1.0 - lo)


#: The quantile at which each arm's range is held in the A/B difference (:func:`_held_range`).
#: 0.5 (median-unbiased ranges) over-covered a nearly fair game (97.6–98.2 % at 200 games an
#: arm); 0.75 holds a range only as large as the data make likely: 95.7–96.4 % there, and every
#: cell of the coverage table in 93–97 % (docs/metrics.md, with what it costs elsewhere).
HELD_QUANTILE = 0.75


def _held_range(shape: Sequence[float], noise: Sequence[Sequence[float]], est: float,
                q: float | None = None) -> float:
    """The true range (along ``shape``) whose simulated sample range has its ``q`` quantile at
    ``est`` (0 if even a fair game's is above it). ``q`` = 0.5: the median-unbiased range, the
    bias removed; ``q`` > 0.5 a smaller one — near a fair game the sample range hardly grows
    with the true one (noise sets it), so the median-unbiased range magnifies the noise into
    a large true range, and the difference's test, held there, is too wide. ``q`` None:
    :data:`HELD_QUANTILE`."""
    q = HELD_QUANTILE if q is None else q

    def margin(r0: float) -> float:
        return -_quantile(_range_errors(shape, noise, r0), q) - r0 + est

    at_zero = margin(0.0)
    return _edge(margin, 0.0, at_zero, est) if at_zero >= 0 else 0.0


def _split(total: float, diff: float) -> tuple[float, float]:
    """Two ranges ≥ 0 with difference ``diff`` and, when possible, sum ``total``."""
    ra, rb = (total + diff) / 2, (total - diff) / 2
    if rb < 0:
        return (diff, 0.0)
    if ra < 0:
        return (0.0, -diff)
    return (ra, rb)


def _difference_errors(shapes, noise, k: int, ra: float, rb: float) -> list[float]:
    """Sorted simulated errors of range(A) − range(B) when the true ranges are ``ra``, ``rb``."""
    shift = ra - rb
    both = map(operator.sub, _ranges(shapes[0], noise[:k], ra), _ranges(shapes[1], noise[k:], rb))
    return sorted([x - shift for x in both])


def _difference_model(games_a, games_b, paired: bool, level: float = LEVEL):
    """(range(A) − range(B), the two arms' shapes, the means' noise draws, the sum of the two
    arms' held ranges, :func:`_held_range`): both arms' seat means jointly normal — correlated
    through the paired games when the arms share their deals, independent otherwise."""
    wa, wb = [g["win"] for g in games_a], [g["win"] for g in games_b]
    k = len(wa[0])
    if paired:
        means, cov = _means_cov([x + y for x, y in zip(wa, wb)])
        factor = _factor(cov, _noise_scale(len(wa), level))
    else:
        (ma, ca), (mb, cb) = _means_cov(wa), _means_cov(wb)
        means = ma + mb
        factor = _block(_factor(ca, _noise_scale(len(wa), level)), _factor(cb, _noise_scale(len(wb), level)))
    noise = _noise(factor)
    shapes = (_shape(means[:k]), _shape(means[k:]))
    ta, tb = _spread(means[:k]), _spread(means[k:])
    total = _held_range(shapes[0], noise[:k], ta) + _held_range(shapes[1], noise[k:], tb)
    return ta - tb, shapes, noise, total


def _balance_difference(games_a, games_b, level: float, paired: bool = True,
                        p_value: bool = True) -> tuple[float, float, float, float]:
    """(balance(B) − balance(A), low, high, p). balance(B) − balance(A) = range(A) − range(B);
    a true difference d is in the interval when the observed one is not surprising for arms
    whose true ranges differ by d (each along its observed shape; their sum kept at the sum
    of the arms' held ranges, :func:`_held_range`), the errors simulated
    jointly (:func:`_difference_model`), tails as in :func:`_error_bounds`; p: the smallest α
    at which the interval leaves out 0 (NaN when not ``p_value``)."""
    nan = float("nan")
    if min(len(games_a), len(games_b)) < 2:
        return (nan, nan, nan, nan)
    est, shapes, noise, total = _difference_model(games_a, games_b, paired, level)
    k = len(shapes[0])
    alpha = 1.0 - level

    def errors(d0: float) -> list[float]:
        return _difference_errors(shapes, noise, k, *_split(total, d0))

    def margin(d0: float) -> float:
        return _margin(errors(d0), alpha, est - d0)

    q_lo, q_hi = _error_bounds(errors(est), alpha)
    p = _balance_p(est, errors(0.0)) if p_value else nan
    return (est, _edge(margin, est, q_hi, -1.0), _edge(margin, est, -q_lo, 1.0), p)


def _balance_p(est: float, errors: Sequence[float]) -> float:
    """The smallest α at which a true difference of 0 is rejected: the p-value of the test
    the balance difference's interval inverts (bisection over α)."""

    def rejects(alpha: float) -> bool:
        q_lo, q_hi = _error_bounds(errors, alpha)
        return not q_lo <= est <= q_hi

    lo_a, hi_a = 1e-6, 1.0 - 1e-9
    if not rejects(hi_a):
        return 1.0
    if rejects(lo_a):
        return lo_a
    for _ in range(30):
        mid = math.sqrt(lo_a * hi_a)
        if rejects(mid):
            hi_a = mid
        else:
            lo_a = mid
    return hi_a


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
        method = "range_normal"
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
        v, lo, hi, p = _balance_difference(games_a, games_b, level, paired, p_value)
        enough = n >= min_games("balance_diff") and not math.isnan(lo)
        return Estimate(measure, group, v, lo, hi, n, "range_normal_paired" if paired else "range_normal_independent",
                        enough, p, unit)
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


__all__ = ["DEFAULT_MIN_GAMES", "Estimate", "HELD_QUANTILE", "LEVEL", "MEASURES", "MIN_GAMES", "Z95", "balance_interval",
           "betainc", "difference", "estimate", "game_dict", "games_needed", "holm", "mean_sd", "min_games",
           "paired_t", "range_interval", "ratio_interval", "seat_spread", "t_interval", "t_ppf", "t_sf2",
           "welch_t", "wilson", "with_holm", "z_ppf"]
