"""Small, exact-enough statistics for paired (common-random-number) comparisons.

Standard library only (no scipy needed); the tests check these against scipy where it is
installed.

* :func:`paired_t` — mean of paired differences with a Student-t 95 % interval and the paired
  t-test's two-sided p-value;
* :func:`sign_test` — the exact two-sided sign test on paired differences (McNemar's exact test
  when every value is 0 or 1): how many pairs went up against how many went down;
* :func:`holm` — Holm's step-down adjustment of several p-values (a family of tests);
* :func:`paired_bootstrap` — a seeded percentile bootstrap over paired units, for statistics
  that are not means of per-game values (e.g. the balance of seat win rates).

Identical samples give a difference of exactly 0, an interval [0, 0] and p = 1.
"""

from __future__ import annotations

import math
from typing import Callable, Sequence

Z95 = 1.959963984540054


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


def t_ppf(q: float, df: float) -> float:
    """The ``q`` quantile (0.5 < q < 1) of Student's t (bisection on the exact tail)."""
    target = 2.0 * (1.0 - q)  # two-sided tail at the quantile
    lo, hi = 0.0, 1.0
    while t_sf2(hi, df) > target:
        hi *= 2.0
    for _ in range(200):
        mid = (lo + hi) / 2.0
        if t_sf2(mid, df) > target:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2.0


def paired_t(diffs: Sequence[float], level: float = 0.95) -> dict[str, float]:
    """Mean paired difference, sd, a Student-t ``level`` interval and the paired t-test p-value.

    All differences equal: the interval is that value and p is 1 if it is 0, else 0 (a certain
    shift that the t-test cannot measure)."""
    n = len(diffs)
    nan = float("nan")
    if n == 0:
        return {"n": 0, "mean": nan, "sd": nan, "ci_low": nan, "ci_high": nan, "p": nan}
    mean = math.fsum(diffs) / n
    if n == 1:
        return {"n": 1, "mean": mean, "sd": nan, "ci_low": nan, "ci_high": nan, "p": nan}
    if all(d == diffs[0] for d in diffs):
        return {"n": n, "mean": float(diffs[0]), "sd": 0.0, "ci_low": float(diffs[0]),
                "ci_high": float(diffs[0]), "p": 1.0 if diffs[0] == 0 else 0.0}
    sd = math.sqrt(math.fsum((d - mean) ** 2 for d in diffs) / (n - 1))
    se = sd / math.sqrt(n)
    half = t_ppf(0.5 + level / 2.0, n - 1) * se
    p = t_sf2(mean / se, n - 1) if se > 0 else (1.0 if mean == 0 else 0.0)
    return {"n": n, "mean": mean, "sd": sd, "ci_low": mean - half, "ci_high": mean + half, "p": min(1.0, p)}


def binom_cdf_half(k: int, n: int) -> float:
    """P(X <= k) for X ~ Binomial(n, 1/2)."""
    if k < 0:
        return 0.0
    if k >= n:
        return 1.0
    if n <= 2000:  # exact, in whole numbers
        return sum(math.comb(n, i) for i in range(k + 1)) / 2 ** n
    return betainc(n - k, k + 1, 0.5)


def sign_test(diffs: Sequence[float]) -> dict[str, float]:
    """The exact two-sided sign test: ``up`` pairs with a positive difference against ``down``
    with a negative one (ties, difference 0, carry no information and are left out). For 0/1
    outcomes this is McNemar's exact test. No pair differs: p = 1."""
    up = sum(1 for d in diffs if d > 0)
    down = sum(1 for d in diffs if d < 0)
    m = up + down
    if m == 0:
        return {"up": 0, "down": 0, "p": 1.0}
    p = 2.0 * binom_cdf_half(min(up, down), m)
    return {"up": up, "down": down, "p": min(1.0, p)}


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


def paired_bootstrap(stat: Callable, weights_dim: int, *, resamples: int = 2000, seed: int = 0,
                     level: float = 0.95) -> dict[str, float]:
    """Percentile bootstrap of a paired statistic. ``stat(counts)`` gets a (k × n) array of
    resampling counts over the ``n = weights_dim`` paired units (games) and returns k values of
    the difference B − A (``counts`` of all ones is the observed sample). Returns the observed
    difference, the ``level`` interval and a two-sided bootstrap p-value
    ``min(1, 2·min(P(d* ≤ 0), P(d* ≥ 0)))``; identical arms give exactly 0, [0, 0], p = 1."""
    import numpy as np

    n = weights_dim
    nan = float("nan")
    if n == 0:
        return {"diff": nan, "ci_low": nan, "ci_high": nan, "p": nan}
    observed = float(stat(np.ones((1, n)))[0])
    gen = np.random.default_rng(seed)
    values = []
    step = max(1, min(resamples, 2_000_000 // max(n, 1)))
    done = 0
    while done < resamples:
        k = min(step, resamples - done)
        counts = gen.multinomial(n, np.full(n, 1.0 / n), size=k)
        values.append(np.asarray(stat(counts), dtype=float))
        done += k
    boot = np.concatenate(values)
    boot = boot[~np.isnan(boot)]
    if len(boot) == 0:
        return {"diff": observed, "ci_low": nan, "ci_high": nan, "p": nan}
    alpha = 1.0 - level
    lo, hi = np.quantile(boot, [alpha / 2, 1 - alpha / 2])
    p = min(1.0, 2.0 * min(float(np.mean(boot <= 0)), float(np.mean(boot >= 0))))
    return {"diff": observed, "ci_low": float(lo), "ci_high": float(hi), "p": p}


__all__ = ["Z95", "betainc", "binom_cdf_half", "holm", "paired_bootstrap", "paired_t", "sign_test",
           "t_ppf", "t_sf2"]
