"""Benchmark: how often each 95 % interval of the Lab and the A/B experiment covers the truth.

    python benchmarks/bench_coverage.py [--pool 50000] [--reps 500] [--ns 20,50,200,1000]
        [--lineup random,random,random,random] [--no-rotate] [--jobs 2] [--json]

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
    args = ap.parse_args(argv)

    from dungeon_guilds.analysis import coverage
    from dungeon_guilds.analysis.metrics import per_game
    from dungeon_guilds.analysis.simulate import simulate
    from dungeon_guilds.rules import Rules

    ns = [int(x) for x in args.ns.split(",")]
    bots = args.lineup.split(",")
    t0 = time.perf_counter()
    runs = [simulate(args.pool, bots, len(bots), seed=f"coverage/{args.seed}", rules=rules, jobs=args.jobs,
                     rotate=not args.no_rotate) for rules in (Rules(), Rules(lords="none"))]
    pop_a, pop_b = per_game(runs[0]), per_game(runs[1])
    t_pop = time.perf_counter() - t0
    result = coverage.run(pop_a, pop_b, ns, args.reps, seed=args.seed,
                          measures=args.measures.split(",") if args.measures else None)
    rows = coverage.table_rows(result)
    info = {"pool": args.pool, "reps": args.reps, "ns": ns, "lineup": bots, "rotate": not args.no_rotate,
            "arm_b": "lords=none (no lord effects)", "seconds_population": round(t_pop, 1),
            "seconds_experiments": round(time.perf_counter() - t0 - t_pop, 1),
            "load_average": os.getloadavg()[0], "cpu": platform.processor() or platform.machine(),
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


if __name__ == "__main__":
    sys.exit(main())
