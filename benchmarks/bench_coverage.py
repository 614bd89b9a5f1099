"""Benchmark: how often each 95 % interval of the Lab and the A/B experiment covers the truth.

    python benchmarks/bench_coverage.py [--pool 50000] [--reps 500] [--ns 20,50,200,1000]
        [--lineup random,random,random,random] [--no-rotate] [--jobs 2] [--json]
        [--measures balance] [--population FILE.pickle] [--no-widths]

The design is :mod:`dungeon_guilds.analysis.coverage`'s: a very large run of paired games (arm A:
standard rules; arm B: no lord effects, the same game seeds) is the population and gives every
measure's true value; then, ``--reps`` times for each ``n``, an experiment of ``n`` games an arm
is drawn from it and every interval the Lab (arm A alone) and the A/B comparison (B − A) show is
checked against the truth. Cells: coverage in %, all seats or levels pooled, and the worst seat or
level; "too few games" where the tool hides the interval (``intervals.MIN_GAMES``). A second
table: how much narrower the A/B intervals are with shared deals than with independent ones.

Two line-ups make the docs' tables: four random bots with seats rotating (a nearly fair game:
the balance measure's hard case) and ``cooperator,random,random,random`` with fixed seats (seat 1
wins ~60 %: a clearly unbalanced game).

``--population FILE`` keeps the population: the first run simulates it and writes FILE, a later
run with the same options reads it back instead of simulating again (the experiments are the
same: they depend only on the population and ``--seed``). The file is this tool's own pickle:
give it only files it wrote.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--pool", type=int, default=50000, help="games an arm in the population (the truth)")
    ap.add_argument("--reps", type=int, default=500, help="experiments for each n")
    ap.add_argument("--ns", default="20,50,200,1000", help="games an arm in an experiment")
    ap.add_argument("--lineup", default="random,random,random,random", help="one bot a seat")
    ap.add_argument("--no-rotate", action="store_true", help="keep each bot in its seat")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--measures", default="", help="only these measures, comma-separated (default: all)")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--no-widths", action="store_true",
                    help="skip the independent arms (no narrowing table; the coverage is the same, half the work)")
    ap.add_argument("--population", default="", help="pickle file: read the population from it, or write it there")
    args = ap.parse_args(argv)

    from dungeon_guilds.analysis import coverage

    ns = [int(x) for x in args.ns.split(",")]
    bots = args.lineup.split(",")
    t0 = time.perf_counter()
    pop_a, pop_b = _population(args, bots)
    t_pop = time.perf_counter() - t0
    result = coverage.run(pop_a, pop_b, ns, args.reps, seed=args.seed,
                          measures=args.measures.split(",") if args.measures else None, widths=not args.no_widths)
    rows = coverage.table_rows(result)
    info = {"pool": args.pool, "reps": args.reps, "ns": ns, "lineup": bots, "rotate": not args.no_rotate,
            "arm_b": "lords=none (no lord effects)", "seconds_population": round(t_pop, 1),
            "seconds_experiments": round(time.perf_counter() - t0 - t_pop, 1),
            "load_average": os.getloadavg()[0], "cpu_seconds": round(time.process_time(), 1),
            "population_file": args.population or None, "cpu": platform.processor() or platform.machine(),
            "outside": sum(c["outside"] for r in rows for n, c in r.items() if isinstance(n, int))}
    if args.json:
        print(json.dumps({"info": info, "rows": [{k if isinstance(k, str) else f"n={k}": v for k, v in r.items()}
                                                 for r in rows]}, indent=1))
    else:
        print(json.dumps(info))
        print(coverage.markdown(rows, ns))
        print()
        print(coverage.narrowing_markdown(rows, ns))
    return 0 if info["outside"] == 0 else 1


def _population(args, bots):
    """(arm A's games, arm B's games): read from ``--population`` if that file exists, else
    simulated (and written there when ``--population`` is given)."""
    import pickle

    from dungeon_guilds.analysis.metrics import per_game
    from dungeon_guilds.analysis.simulate import simulate
    from dungeon_guilds.rules import Rules

    key = {"pool": args.pool, "lineup": bots, "rotate": not args.no_rotate, "seed": args.seed}
    if args.population and os.path.exists(args.population):
        with open(args.population, "rb") as fh:
            saved = pickle.load(fh)
        if saved["key"] != key:
            raise SystemExit(f"{args.population} holds another population ({saved['key']}), not {key}")
        return saved["a"], saved["b"]
    runs = [simulate(args.pool, bots, len(bots), seed=f"coverage/{args.seed}", rules=rules, jobs=args.jobs,
                     rotate=not args.no_rotate) for rules in (Rules(), Rules(lords="none"))]
    pop_a, pop_b = per_game(runs[0]), per_game(runs[1])
    if args.population:
        with open(args.population, "wb") as fh:
            pickle.dump({"key": key, "a": pop_a, "b": pop_b}, fh)
    return pop_a, pop_b


if __name__ == "__main__":
    sys.exit(main())
