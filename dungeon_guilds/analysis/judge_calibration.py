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
from dataclasses import dataclass
from typing import Hashable, Iterable, Sequence

from .intervals import wilson

__all__ = ["A", "B", "FITTED_ON", "Decile", "calibrated", "deciles", "fit", "logit"]

# stop 49: refitted on 20,021 positions of 522 games (seeds 51 and 52; until then A = -0.2893,
# B = 0.7095 from 2,000 positions of seed '38/fit'), measured on seeds 53 and 54
FITTED_ON = ("for s in 51 52; do PYTHONPATH=. python benchmarks/bench_review.py --only calib --positions 10000 "
             "--worlds 32 --seed $s --save-rows rows$s.json; done; PYTHONPATH=. python benchmarks/bench_review.py "
             "--only calibfit --rows-from rows51.json,rows52.json")
A = -0.3056
B = 0.6862


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


@dataclass(frozen=True)
class Decile:
    """One group of a reliability table: ``n`` positions, their mean predicted chance and observed
    rate, and the 95 % interval of ``gap`` (observed − predicted) (:func:`deciles`)."""

    n: int
    predicted: float
    observed: float
    low: float
    high: float

    @property
    def gap(self) -> float:
        return self.observed - self.predicted

    def shown_within(self, points: float) -> bool:
        """The whole interval of the gap is within ``points`` (a share: 0.03 is 3 points)."""
        return -points <= self.low and self.high <= points


def deciles(pairs: Sequence[tuple[float, float]], results: Sequence[Hashable], groups: int = 10,
            z: float = 1.96) -> list[Decile]:
    """The reliability of predictions ``pairs`` (predicted chance, observed share of victory) by
    *deciles of risk*: ``groups`` groups of equal count in the order of the prediction, as
    Hosmer and Lemeshow group.

    Each observed rate gets a Wilson 95 % interval on its *effective* number of positions. The
    positions of one seat in one game (``results[i]`` names position ``i``'s: e.g. ``(game,
    seat)``) share one result, so a group's count is divided by its design effect: the variance
    those shared results give a calibrated judge (each seat-game's positions one draw, of their
    mean chance) over the variance of independent positions with those chances; at least 1.
    Wilson's interval stays honest near 0 and 1, where a bootstrap of games (tried first) held a
    true gap of 0 in only a third of the lowest deciles, and a cluster-robust variance from the
    results seen (tried next) misses a decile with no win at all. The gap's interval is the
    observed rate's less the group's mean predicted chance; its coverage (about 96 %) is
    measured in ``tests/analysis/test_judge_calibration.py``."""
    order = sorted(range(len(pairs)), key=lambda i: pairs[i][0])
    group = [0] * len(pairs)
    for rank, i in enumerate(order):
        group[i] = min(groups - 1, rank * groups // len(pairs))
    per: list[dict[Hashable, list[float]]] = [{} for _ in range(groups)]
    bern = [0.0] * groups
    for (p, y), r, b in zip(pairs, results, group):
        acc = per[b].setdefault(r, [0, 0.0, 0.0])
        acc[0] += 1
        acc[1] += p
        acc[2] += y
        bern[b] += p * (1 - p)
    out = []
    for b, clusters in enumerate(per):
        n = sum(k for k, _, _ in clusters.values())
        if not n:
            continue
        pred = sum(sp for _, sp, _ in clusters.values()) / n
        obs = sum(sy for _, _, sy in clusters.values()) / n
        shared = sum(k * k * (sp / k) * (1 - sp / k) for k, sp, _ in clusters.values())
        deff = max(1.0, shared / bern[b]) if bern[b] > 0 else 1.0
        low, high = wilson(obs * n / deff, n / deff, z)  # it contains obs
        out.append(Decile(n, pred, obs, low - pred, high - pred))
    return out

