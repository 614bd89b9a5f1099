"""The judge's win chances, recalibrated: a map fitted on one set of seeded positions, measured on
another (issue 38, item 2).

The judge's play-outs are a model of the players to come, not the players: over positions of
games between mixed bots its raw win share was over-confident above 40 % (docs/review.md,
"Measured"). :func:`calibrated` maps a raw share to the win rate observed in such games, by a
logistic map of the share's log-odds (Platt scaling: two numbers, so little to over-fit):

    chance = 1 / (1 + exp(-(A + B * logit(p')))),   p' = (p * n + 1/2) / (n + 1)

``p'`` pulls a share of ``n`` play-outs off 0 and 1 by half a play-out (a share of 0 out of 16
worlds is not a certain loss). :data:`A` and :data:`B` were fitted by :func:`fit` on the
positions that :data:`FITTED_ON` reproduces (every decision, all seats, of games between the
bots of ``benchmarks/bench_review.py``'s ``MIXED``, seeded), and measured on *other* positions
(another seed): ``bench_review.py --only calib`` prints both the raw and the mapped reliability.
The map changes no decision of the judge: it is increasing, so the order of the moves, which
move is best and whether a loss is beyond its noise stay the same.
"""

from __future__ import annotations

import math
from typing import Iterable

__all__ = ["A", "B", "FITTED_ON", "calibrated", "fit", "logit"]

FITTED_ON = ("PYTHONPATH=. nice -n 19 python benchmarks/bench_review.py --only calibfit "
             "--positions 2000 --worlds 32 --seed 38  (positions of seed '38/fit')")
A = -0.2893
B = 0.7095


def logit(p: float, n: int) -> float:
    """The log-odds of a share ``p`` of ``n`` play-outs, pulled off 0 and 1 by half a play-out."""
    q = (p * n + 0.5) / (n + 1)
    return math.log(q / (1 - q))


def calibrated(p: float, n: int, a: float | None = None, b: float | None = None) -> float:
    """The win chance a raw play-out share ``p`` of ``n`` worlds stands for (module docstring)."""
    a = A if a is None else a
    b = B if b is None else b
    x = a + b * logit(p, max(1, n))
    return 1.0 / (1.0 + math.exp(-x)) if x > -700 else 0.0


def fit(rows: Iterable[tuple[float, int, float]], steps: int = 50) -> tuple[float, float]:
    """``(A, B)`` of the logistic map that best predicts ``won`` (a share of victory, R8.1) from
    rows ``(p, n, won)``: maximum likelihood by Newton's method."""
    data = [(logit(p, n), y) for p, n, y in rows]
    a, b = 0.0, 1.0
    for _ in range(steps):
        ga = gb = haa = hab = hbb = 0.0
        for x, y in data:
            q = 1.0 / (1.0 + math.exp(-(a + b * x)))
            w = q * (1 - q)
            ga += y - q
            gb += (y - q) * x
            haa += w
            hab += w * x
            hbb += w * x * x
        det = haa * hbb - hab * hab
        if det <= 0:
            break
        da = (hbb * ga - hab * gb) / det
        db = (haa * gb - hab * ga) / det
        a, b = a + da, b + db
        if abs(da) + abs(db) < 1e-10:
            break
    return a, b
