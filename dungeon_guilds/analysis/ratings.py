"""Ratings from many-player games: Bradley-Terry strengths on the Elo scale, with intervals.

A game of several bots is read as one comparison per pair of seats held by different bots: the
seat ahead by the game's result (more gold, then the R8.1 tie-break) wins the pair; a dead heat
counts half to each. Bradley-Terry: ``P(i beats j) = p_i / (p_i + p_j)``, fitted by Hunter's
(2004) minorisation-maximisation iteration; a rating is ``400 log10(p_i / p_anchor)`` (the Elo
scale: +400 means ten-to-one odds in a pair). Pairs from one game are not independent, so the
95 % intervals come from a bootstrap that resamples whole games (percentile intervals, a
seeded stream); ``tests/analysis/test_ratings.py`` measures their coverage on games drawn from
known strengths. Pure Python.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Sequence

__all__ = ["GameResult", "Rating", "bradley_terry", "pair_counts", "rate"]

#: one game: the bot at each seat and each seat's standing key (larger is better)
GameResult = tuple[tuple[str, ...], tuple[tuple[float, ...], ...]]


@dataclass(frozen=True)
class Rating:
    name: str
    elo: float  # relative to the anchor (the anchor is 0)
    low: float  # 95 % bootstrap interval
    high: float
    games: int


def pair_counts(games: Sequence[GameResult]) -> tuple[dict[tuple[str, str], float], dict[tuple[str, str], int]]:
    """``(wins, meetings)``: wins[(a, b)] how often a finished ahead of b (halves for a dead
    heat), meetings[(a, b)] how many pairs a and b formed (both orders)."""
    wins: dict[tuple[str, str], float] = {}
    meets: dict[tuple[str, str], int] = {}
    for names, keys in games:
        for i in range(len(names)):
            for j in range(i + 1, len(names)):
                a, b = names[i], names[j]
                if a == b:
                    continue
                w = 1.0 if keys[i] > keys[j] else 0.0 if keys[i] < keys[j] else 0.5
                wins[(a, b)] = wins.get((a, b), 0.0) + w
                wins[(b, a)] = wins.get((b, a), 0.0) + 1 - w
                meets[(a, b)] = meets.get((a, b), 0) + 1
                meets[(b, a)] = meets.get((b, a), 0) + 1
    return wins, meets


def bradley_terry(wins: dict, meets: dict, names: Sequence[str], iterations: int = 500,
                  tol: float = 1e-10) -> dict[str, float]:
    """The Bradley-Terry strengths (geometric mean 1) by minorisation-maximisation. A bot that
    never lost or never won has no finite strength: a quarter of a win and a loss against every
    bot it met is added (a weak prior), so every rating is finite."""
    p = {n: 1.0 for n in names}
    w_tot = {n: sum(wins.get((n, m), 0.0) for m in names if m != n) for n in names}
    prior = 0.25
    for _ in range(iterations):
        new = {}
        for n in names:
            denom = 0.0
            met = 0
            for m in names:
                k = meets.get((n, m), 0)
                if k:
                    denom += (k + 2 * prior) / (p[n] + p[m])
                    met += 1
            new[n] = (w_tot[n] + prior * met) / denom if denom else 1.0
        g = math.exp(sum(math.log(v) for v in new.values()) / len(new))
        new = {n: v / g for n, v in new.items()}
        done = max(abs(math.log(new[n] / p[n])) for n in names) < tol
        p = new
        if done:
            break
    return p


def _elo(p: dict[str, float], anchor: str) -> dict[str, float]:
    return {n: 400 * math.log10(v / p[anchor]) for n, v in p.items()}


def rate(games: Sequence[GameResult], anchor: str, boot: int = 200, seed: int | str = 0,
         level: float = 0.95) -> list[Rating]:
    """Each bot's rating (the anchor at 0) with its percentile bootstrap interval over games,
    best first."""
    names = sorted({n for g in games for n in g[0]})
    if anchor not in names:
        raise ValueError(f"the anchor {anchor!r} played no game")
    wins, meets = pair_counts(games)
    est = _elo(bradley_terry(wins, meets, names), anchor)
    rng = random.Random(f"ratings/{seed}")
    draws: dict[str, list[float]] = {n: [] for n in names}
    for _ in range(boot):
        sample = [games[rng.randrange(len(games))] for _ in games]
        w, m = pair_counts(sample)
        present = sorted({n for g in sample for n in g[0]})
        if anchor not in present:
            continue
        r = _elo(bradley_terry(w, m, present, iterations=200, tol=1e-8), anchor)
        for n in present:
            draws[n].append(r[n])
    played = {n: sum(1 for g in games if n in g[0]) for n in names}
    out = []
    tail = (1 - level) / 2
    for n in names:
        d = sorted(draws[n]) or [est[n]]
        low, high = d[int(tail * (len(d) - 1))], d[int(math.ceil((1 - tail) * (len(d) - 1)))]
        # an interval shown always holds its estimate (a skewed bootstrap can miss it by a hair)
        out.append(Rating(n, est[n], min(low, est[n]), max(high, est[n]), played[n]))
    return sorted(out, key=lambda r: -r.elo)
