"""Exact tests for paired (common-random-number) comparisons, standard library only.

The intervals, the t distribution, the paired t-test and Holm's adjustment live in
:mod:`dungeon_guilds.analysis.intervals` (one module for every interval the Lab and the A/B
experiment show); they are re-exported here. This module adds:

* :func:`sign_test` — the exact two-sided sign test on paired differences (McNemar's exact test
  when every value is 0 or 1): how many pairs went up against how many went down.

Identical samples give a difference of exactly 0, an interval [0, 0] and p = 1.
"""

from __future__ import annotations

import math
from typing import Sequence

from ..analysis.intervals import Z95, betainc, holm, paired_t, t_ppf, t_sf2


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


__all__ = ["Z95", "betainc", "binom_cdf_half", "holm", "paired_t", "sign_test", "t_ppf", "t_sf2"]
