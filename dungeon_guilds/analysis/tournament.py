"""Tournaments and evolution: which strategy survives among the others?

:func:`round_robin` pits every pair of named strategies against each other (and, by default,
each against itself) in games where their seats alternate (A, B, A, B...). Both line-ups
(A first and B first) are played, half the games each, with seats rotated, so a pair's result
does not depend on who sits where. It returns every game, the payoff matrix (A's mean win share
or gold per seat against B) and the standings.

:func:`evolve` then plays The Evolution of Trust's game with that matrix: a population of
individuals (so many of each strategy) meets; each individual's fitness is its mean payoff
against every other individual of the population; the ``replace`` weakest individuals are
removed and the ``replace`` strongest get one copy each; repeat. The result is one row per
generation and strategy, ready for a stacked area chart.
"""

from __future__ import annotations

import math
import random
from concurrent.futures import Executor  # ProcessPoolExecutor: imported where a sweep runs (none in a browser)
from dataclasses import dataclass
from itertools import combinations_with_replacement
from typing import Any, Mapping, Sequence

from ..extras import require

require("dungeon_guilds.analysis.tournament", "analysis", "pandas")

import pandas as pd

from ..game import rng as game_rng
from ..rules import Rules
from .simulate import simulate

__all__ = ["Tournament", "evolve", "round_robin", "fitness"]


@dataclass
class Tournament:
    games: pd.DataFrame  # every game: SimResult.games rows (game numbers unique across the
    # tournament) + match_game, match ("A vs B"), a, b, lineup (0: A in seat 0, 1: B in seat 0)
    matrix: pd.DataFrame  # payoff[A][B]: A's mean value per seat when A meets B
    standings: pd.DataFrame  # strategy, mean payoff over opponents, rank
    value: str  # "win" or "gold"


def _lineups(a: str, b: str, players: int) -> list[list[str]]:
    first = [a if k % 2 == 0 else b for k in range(players)]
    second = [b if k % 2 == 0 else a for k in range(players)]
    return [first] if a == b else [first, second]


def _play_matches(names: Sequence[str], players: int, games: int, seed: int | str, rules: Rules,
                  executor: Executor | None, progress: Any, include_self: bool,
                  bot_options: dict[str, dict] | None) -> pd.DataFrame:
    """Every pair's games (both line-ups), one table; game numbers unique across the tournament."""
    frames = []
    offset = 0
    for a, b in combinations_with_replacement(names, 2):
        if a == b and not include_self:
            continue
        ups = _lineups(a, b, players)
        per = [games // len(ups) + (1 if k < games % len(ups) else 0) for k in range(len(ups))]
        for k, (lineup, count) in enumerate(zip(ups, per)):
            if not count:
                continue
            res = simulate(count, lineup, players, seed=f"{seed}/{a}-{b}/{k}", rules=rules,
                           executor=executor, jobs=1, progress=progress,
                           bot_options=bot_options)
            df = res.games.copy()
            df["match_game"] = df["game"]
            df["game"] = df["game"] + offset  # game numbers unique across the tournament
            offset += count
            df["match"] = f"{a} vs {b}"
            df["a"], df["b"] = a, b
            df["lineup"] = k
            frames.append(df)
    return pd.concat(frames, ignore_index=True)


def _payoffs(allgames: pd.DataFrame, names: Sequence[str], value: str) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The payoff matrix (strategy against opponent) and the standings (mean payoff against the
    others, ranked)."""
    mat = pd.DataFrame(float("nan"), index=pd.Index(names, name="strategy"),
                       columns=pd.Index(names, name="opponent"))
    for (a, b), grp in allgames.groupby(["a", "b"], sort=False):
        for x, y in ((a, b), (b, a)):
            rows = grp[grp["bot"] == x]
            if len(rows):
                mat.loc[x, y] = float(rows[value].mean())
    off = [mat.loc[x, [y for y in names if y != x]].mean() for x in names]
    standings = pd.DataFrame({"strategy": names, "payoff": off})
    standings["rank"] = standings["payoff"].rank(ascending=False, method="min").astype(int)
    standings = standings.sort_values(["rank", "strategy"]).reset_index(drop=True)
    return mat, standings


def round_robin(
    strategies: Sequence[str],
    players: int = 4,
    games: int = 100,
    seed: int | str = 0,
    rules: Rules = Rules(),
    executor: Executor | None = None,
    jobs: int = 1,
    progress: Any = None,
    value: str = "win",
    include_self: bool = True,
    bot_options: dict[str, dict] | None = None,
) -> Tournament:
    """Every pair of ``strategies`` plays ``games`` games (split between the two line-ups).

    ``value``: the payoff, ``"win"`` (win share per seat; fair share is 1/players) or
    ``"gold"`` (mean final gold per seat). Reproducible per ``seed``.
    """
    if value not in ("win", "gold"):
        raise ValueError("value is 'win' or 'gold'")
    names = list(dict.fromkeys(strategies))
    if len(names) < 2:
        raise ValueError("a round robin needs at least two strategies")
    own = None
    if executor is None and jobs > 1:
        from concurrent.futures import ProcessPoolExecutor

        own = executor = ProcessPoolExecutor(max_workers=jobs)
    try:
        allgames = _play_matches(names, players, games, seed, rules, executor, progress, include_self,
                                 bot_options)
    finally:
        if own is not None:
            own.shutdown()
    mat, standings = _payoffs(allgames, names, value)
    return Tournament(allgames, mat, standings, value)


def fitness(matrix: pd.DataFrame, counts: Mapping[str, int]) -> dict[str, float]:
    """Mean payoff of one individual of each strategy against every *other* individual of the
    population ``counts`` (strategy -> how many), read from the payoff ``matrix``."""
    total = sum(counts.values())
    out = {}
    for a, na in counts.items():
        if na <= 0:
            continue
        others = total - 1
        if others <= 0:
            out[a] = float(matrix.loc[a, a])
            continue
        s = 0.0
        for b, nb in counts.items():
            k = nb - (1 if a == b else 0)
            if k > 0:
                v = matrix.loc[a, b]
                s += k * (0.0 if pd.isna(v) else float(v))
        out[a] = s / others
    return out


def evolve(
    source: Tournament | pd.DataFrame,
    population: Mapping[str, int] | None = None,
    generations: int = 20,
    replace: int = 5,
    seed: int | str = 0,
) -> pd.DataFrame:
    """The Evolution of Trust's loop on a payoff matrix (or a :class:`Tournament`'s).

    ``population``: strategy -> count (default: 5 of each). Each generation: compute every
    individual's fitness (:func:`fitness`), remove the ``replace`` weakest individuals and copy
    each of the ``replace`` strongest once (ties broken by a random stream seeded ``seed``).
    Returns rows (generation, strategy, count, share, fitness); generation 0 is the start.
    """
    matrix = source.matrix if isinstance(source, Tournament) else source
    names = list(matrix.index)
    counts = {name: 5 for name in names} if population is None else {k: int(v) for k, v in population.items()}
    for name in counts:
        if name not in matrix.index:
            raise ValueError(f"{name!r} is not in the payoff matrix ({', '.join(names)})")
    total = sum(counts.values())
    if not 0 < replace < total:
        raise ValueError(f"replace must be between 1 and the population size - 1 ({total - 1})")
    rng: random.Random = game_rng(seed, "evolve")
    rows = []

    def record(gen: int, fit: dict[str, float]) -> None:
        for name in names:
            c = counts.get(name, 0)
            rows.append({"generation": gen, "strategy": name, "count": c, "share": c / total,
                         "fitness": fit.get(name, math.nan)})

    for gen in range(generations + 1):
        fit = fitness(matrix, counts)
        record(gen, fit)
        if gen == generations or sum(1 for c in counts.values() if c) == 1:
            if gen < generations:  # one strategy left: the population is stable
                for g in range(gen + 1, generations + 1):
                    record(g, fit)
            break
        individuals = [name for name in names for _ in range(counts.get(name, 0))]
        rng.shuffle(individuals)  # random order among equals, then a stable sort
        individuals.sort(key=lambda name: fit[name])
        survivors = individuals[replace:]
        parents = individuals[-replace:]
        new = survivors + parents
        counts = {name: new.count(name) for name in names}
    return pd.DataFrame(rows, columns=["generation", "strategy", "count", "share", "fitness"])
