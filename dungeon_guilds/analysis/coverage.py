"""How often the intervals of :mod:`~dungeon_guilds.analysis.intervals` cover the truth (issue 27).

The design (``benchmarks/bench_coverage.py`` runs it at full size, a test at a small one):

1. a *population*: a very large run of paired games — arm A and arm B play the same game
   seeds (common random numbers), B with one rule changed. Each measure's true value is its
   value on the whole population (for a difference: B's minus A's);
2. *experiments*: ``reps`` times for each ``n``, draw ``n`` games at random (with replacement)
   from the population — an experiment of ``n`` games an arm, exactly as likely as one drawn
   from a game population that *is* this run — compute every interval the Lab and the A/B
   experiment show, and count how often it contains the truth;
3. for each difference, the same ``n`` games of B drawn *independently* of A's (other seeds)
   give the width of the interval without common random numbers: the ratio of mean widths is
   how much narrower the shared deals make it.

Every interval is also checked to contain its estimate (``outside`` counts any that do not).
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

from . import intervals as iv

LAB_MEASURES = ("win_rate", "gold", "balance", "clear_rate", "length", "lead_changes")
AB_MEASURES = ("win_rate", "gold", "balance", "clear_rate", "gold_all", "gold_gap", "paid_out", "paid_in",
               "length", "lead_changes", "rooms_cleared")


def groups(measure: str, games: Sequence[Mapping[str, Any]]) -> list[Any]:
    """The seats or levels a measure is shown for (``[None]`` for a single number)."""
    kind = iv.MEASURES[measure][1]
    if kind == "seat":
        return list(range(len(games[0]["win"])))
    if kind == "level":
        return sorted({level for g in games for level in g["rooms"]})
    return [None]


@dataclass
class Tally:
    """Counts for one measure (all its seats or levels pooled) at one ``n``."""

    shown: int = 0  # intervals shown (enough games)
    covered: int = 0
    outside: int = 0  # estimate outside its own interval (must stay 0)
    hidden: int = 0  # "too few games for this measure"
    hidden_covered: int = 0  # of those, how many would have covered the truth had they been shown
    per_group: dict = field(default_factory=dict)  # group -> [shown, covered]
    width: float = 0.0  # sum of widths (shown)
    width_independent: float = 0.0  # sum of widths without common random numbers

    def add(self, est: iv.Estimate, truth: float, group: Any) -> None:
        lo, hi, v = est.low, est.high, est.value
        if not (lo <= v + 1e-12 and v <= hi + 1e-12):
            self.outside += 1
        hit = lo - 1e-12 <= truth <= hi + 1e-12
        if not est.enough:
            self.hidden += 1
            self.hidden_covered += hit
            return
        self.shown += 1
        self.covered += hit
        g = self.per_group.setdefault(group, [0, 0])
        g[0] += 1
        g[1] += hit
        self.width += hi - lo

    @property
    def coverage(self) -> float:
        return self.covered / self.shown if self.shown else float("nan")

    @property
    def worst_group(self) -> float:
        rates = [c / s for s, c in self.per_group.values() if s]
        return min(rates) if rates else float("nan")


def truths(pop_a, pop_b) -> dict[tuple[str, str, Any], float]:
    """The true value of every measure: ``("lab", measure, group)`` on arm A's population and
    ``("ab", measure, group)`` for B − A."""
    out = {}
    for m in LAB_MEASURES:
        for g in groups(m, pop_a):
            out[("lab", m, g)] = iv.estimate(pop_a, m, g).value
    for m in AB_MEASURES:
        for g in groups(m, pop_a):
            out[("ab", m, g)] = iv.estimate(pop_b, m, g).value - iv.estimate(pop_a, m, g).value
    return out


def _point(games, measure, group) -> float:
    return iv.estimate(games, measure, group).value


def run(pop_a, pop_b, ns: Sequence[int], reps: int, seed: int = 0,
        measures: Sequence[str] | None = None, widths: bool = True) -> dict[int, dict[tuple[str, str], Tally]]:
    """The tallies ``{n: {("lab" | "ab", measure): Tally}}`` (see the module's design);
    ``measures``: only these (default: all); ``widths`` False: no independent arms (no
    narrowing figure, half the work)."""
    truth = {k: v for k, v in truths(pop_a, pop_b).items() if measures is None or k[1] in measures}
    rng = random.Random(seed)
    size = len(pop_a)
    out: dict[int, dict[tuple[str, str], Tally]] = {}
    for n in ns:
        tallies: dict[tuple[str, str], Tally] = {}
        for _ in range(reps):
            idx = [rng.randrange(size) for _ in range(n)]
            other = [rng.randrange(size) for _ in range(n)]
            a = [pop_a[i] for i in idx]
            b = [pop_b[i] for i in idx]
            b_indep = [pop_b[i] for i in other]
            _one_experiment(tallies, truth, a, b, b_indep if widths else None)
        out[n] = tallies
    return out


def _one_experiment(tallies, truth, a, b, b_indep) -> None:
    for m in LAB_MEASURES:
        for g in groups(m, a):
            if ("lab", m, g) not in truth:
                continue
            tallies.setdefault(("lab", m), Tally()).add(iv.estimate(a, m, g), truth[("lab", m, g)], g)
    for m in AB_MEASURES:
        for g in groups(m, a):
            if ("ab", m, g) not in truth:
                continue
            t = tallies.setdefault(("ab", m), Tally())
            est = iv.difference(a, b, m, g, paired=True, p_value=False)
            t.add(est, truth[("ab", m, g)], g)
            if est.enough and b_indep is not None:
                ind = iv.difference(a, b_indep, m, g, paired=False, p_value=False)
                t.width_independent += ind.high - ind.low


def table_rows(result: dict[int, dict[tuple[str, str], Tally]]) -> list[dict[str, Any]]:
    """One row per measure: coverage (all groups pooled, and the worst seat/level) at each n."""
    keys = list(dict.fromkeys(k for tallies in result.values() for k in tallies))
    rows = []
    for key in keys:
        row: dict[str, Any] = {"screen": key[0], "measure": key[1]}
        for n, tallies in result.items():
            t = tallies.get(key)
            if t is None:
                continue
            row[n] = {"coverage": t.coverage, "worst_group": t.worst_group, "shown": t.shown,
                      "hidden": t.hidden, "outside": t.outside,
                      "hidden_coverage": t.hidden_covered / t.hidden if t.hidden else None,
                      "narrowing": (1 - t.width / t.width_independent) if t.width_independent else None}
        rows.append(row)
    return rows


def markdown(rows: list[dict[str, Any]], ns: Sequence[int]) -> str:
    """The coverage table as Markdown (cells: pooled % / worst seat or level %; — hidden)."""
    head = "| where | measure | " + " | ".join(f"n = {n}" for n in ns) + " |"
    lines = [head, "|" + " --- |" * (2 + len(ns))]
    for r in rows:
        cells = []
        for n in ns:
            c = r.get(n)
            if c is None or not c["shown"]:
                cells.append("too few games")
            else:
                cells.append(f"{100 * c['coverage']:.1f} (worst {100 * c['worst_group']:.1f})")
        where = "Lab" if r["screen"] == "lab" else "A/B B − A"
        lines.append(f"| {where} | {r['measure']} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def narrowing_markdown(rows: list[dict[str, Any]], ns: Sequence[int]) -> str:
    """How much narrower the A/B intervals are with shared deals than with independent ones."""
    lines = ["| measure (B − A) | " + " | ".join(f"n = {n}" for n in ns) + " |", "|" + " --- |" * (1 + len(ns))]
    for r in rows:
        if r["screen"] != "ab":
            continue
        cells = []
        for n in ns:
            c = r.get(n)
            x = None if c is None else c["narrowing"]
            cells.append("—" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{100 * x:.0f} %")
        lines.append(f"| {r['measure']} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def population(n_games: int, players: int = 4, bots: Sequence[str] = ("random",), seed: int | str = 0,
               rules_b=None, jobs: int = 1):
    """Two paired arms of ``n_games`` games (A: the standard rules; B: ``rules_b``, by default
    no lord effects) as per-game dicts."""
    from ..rules import Rules
    from .metrics import per_game
    from .simulate import simulate

    rules_b = rules_b if rules_b is not None else Rules(lords="none")
    a = simulate(n_games, list(bots), players, seed=seed, jobs=jobs)
    b = simulate(n_games, list(bots), players, seed=seed, rules=rules_b, jobs=jobs)
    return per_game(a), per_game(b)


__all__ = ["AB_MEASURES", "LAB_MEASURES", "Tally", "groups", "markdown", "narrowing_markdown", "population",
           "run", "table_rows", "truths"]
