"""The design explorer, honest about chance (issue 41, items 3 and 4).

    python benchmarks/bench_explorer.py [--goals 20] [--planted 20] [--jobs 2] [--quick]
    nice python benchmarks/bench_explorer.py --skip goals,planted,timing      # the four challenges

Prints:

1. **Confirmed rate**: over the four shipped challenges and ``--goals`` random goals, how often a
   proposal the search says meets its goal is *met* when checked on fresh seeds the search
   never saw (the check's verdict: met / not met / too close to tell). Goal: ≥ 90 %. A
   challenge's proposals are each checked on ``--challenge-fresh`` fresh seeds (a challenge is
   one goal: several checks say more than one); a goal with no proposal prints its nearest
   change (claimed as nothing, so not counted).
2. **Planted rate**: ``--planted`` goals built around a knob whose effect is clear in the
   shipped reference map (a change of at least half that effect, the knob hidden among five
   others): how often the search, on its own seeds (not the map's), proposes that knob.
   Goal: ≥ 90 %. Random goals read their single knobs from the shipped map (``known``) and
   play only pairs and bigger steps; every check plays fresh seeds.
3. **Timing**: a class deck's whole map with random bots (the reference deck with two cards
   changed, as a class would edit it; the shipped map's 2,000 games a version), on ``--jobs``
   processes: wall and CPU seconds, and the load average while it ran (the machine is shared).
   Goal: ≤ 2 minutes on the 2-core server.

0. **The four challenges** (issue 53; ``--skip goals,planted,timing``): each challenge's search
   (pairs over the knobs' whole ranges, ``--size 3`` for triples), its proposals checked on
   ``--challenge-fresh`` fresh seeds, or its plain statement of why no change meets it (English
   and 繁體中文), and the search's wall and CPU seconds (goal: ≤ 5 minutes each on the 2-core
   server; run it under ``nice``, the machine is shared). ``--scheduler ADDRESS`` plays the
   games on a Dask cluster (``Client.get_executor()``, as ``dungeon-guilds explore``); then the
   workers' CPU is not counted here, only the wall time is meaningful.

Random goals and planted ones use the shipped map's settings (4 players, random bots, the base
lords); the challenges use their own (greedy bots, their lord pools), searched and checked with
their own measure. Every goal, seed and knob choice comes from ``--seed``: a rerun prints the
same figures. ``--quick``: a smoke run (fewer goals, fewer games; figures not meaningful).
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import sys
import time
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from dungeon_guilds.cards import RoomCard, reference_deck  # noqa: E402
from dungeon_guilds.workshop import challenges as chmod  # noqa: E402
from dungeon_guilds.workshop.explorer import MEASURES, reference_map, sensitivity_map  # noqa: E402
from dungeon_guilds.workshop.explorer_words import no_proposal_lines  # noqa: E402
from dungeon_guilds.workshop.goals import Goal, check_proposal, goal_of_challenge, search  # noqa: E402


def cpu() -> float:
    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def run_goal(goal: Goal, jobs: int, checks: int, planted=None, known=None, fresh: int = 1, size: int = 2,
             executor=None, breadth: int = 24) -> dict:
    """Search ``goal``, then check its first ``checks`` proposals on ``fresh`` fresh seeds each
    (the goal's ``fresh_seed``, then the next ones: never a seed of the search)."""
    t0, c0 = time.perf_counter(), cpu()
    result = search(goal, jobs=jobs, known=known, limit=6, size=size, executor=executor, breadth=breadth)
    search_wall, search_cpu = time.perf_counter() - t0, cpu() - c0
    goal = result.goal
    statuses = [check_proposal(replace(goal, fresh_seed=goal.fresh_seed + k), p, jobs=jobs)["status"]
                for p in result.proposals[:checks] for k in range(fresh)]
    found = planted is not None and planted in [tuple(p.ids) for p in result.proposals]
    near = result.nearest
    return {"tried": result.tried, "proposals": len(result.proposals), "statuses": statuses, "found": found,
            "seconds": time.perf_counter() - t0, "top": result.proposals[0].ids if result.proposals else None,
            "confirmed": sum(p.confirm is not None for p in result.proposals[:checks]),
            "search_wall": search_wall, "search_cpu": search_cpu, "result": result,
            "nearest": None if near is None else (near.ids, near.best.value, near.best.low, near.best.high)}


def random_goal(rng: random.Random, m, k: int, games: int) -> Goal:
    """A goal on a map measure: the direction of a random allowed knob step, and a target
    between 5 % and 80 % of the largest change the allowed knobs make that way in the shipped
    map (whether that change is clear or not: many goals get no proposal)."""
    measure = rng.choice([x for x in m.measures()])
    knobs = rng.sample([x["id"] for x in m.knobs], k)
    effects = [c["value"] for c in m.cells if c["measure"] == measure and c["knob"] in knobs]
    direction = "at_least" if rng.choice(effects or [1.0]) > 0 else "at_most"  # a way some knob goes
    reach = max((abs(e) for e in effects if (e > 0) == (direction == "at_least")), default=0.0) or 0.01
    target = rng.uniform(0.05, 0.8) * reach * (1 if direction == "at_least" else -1)
    return Goal(measure, "change", direction, target, margin=max(reach / 8, 1e-3), unit=MEASURES[measure],
                knobs=tuple(knobs), search_games=games, min_games=games // 2, max_games=games * 2,
                seed=rng.randrange(10**6), fresh_seed=10**7 + rng.randrange(10**6))


def planted_goal(rng: random.Random, m, games: int):
    """A goal one knob is known to meet with room to spare (in the shipped map its change is at
    least 8 half-widths of its interval; the goal asks for half of it), hidden among five others."""
    clear = [c for c in m.cells if c["measure"] != "balance" and c["high"] > c["low"]  # not an identical run
             and abs(c["value"]) >= 8 * (c["high"] - c["low"]) / 2]
    c = rng.choice(clear)
    others = rng.sample([x["id"] for x in m.knobs if x["id"] != c["knob"]], 5)
    direction = "at_least" if c["value"] > 0 else "at_most"
    half_width = (c["high"] - c["low"]) / 2
    goal = Goal(c["measure"], "change", direction, c["value"] / 2, margin=min(abs(c["value"]) / 4, half_width),
                unit=MEASURES[c["measure"]], knobs=tuple([c["knob"], *others]), search_games=games,
                min_games=games // 2, max_games=games * 2, seed=rng.randrange(10**6),
                fresh_seed=10**7 + rng.randrange(10**6))
    return goal, ((c["knob"], c["step"]),)


def class_deck():
    """The reference deck as a class might edit it: the hardest Lv3 card a little easier, a
    Lv1 card a little richer."""
    ref = reference_deck()
    swap = {RoomCard(3, 9, 12): RoomCard(3, 8, 11), RoomCard(1, 3, 2): RoomCard(1, 3, 3)}
    return ref.with_values(rooms=[swap.get(c, c) for c in ref.rooms])


def rate(values) -> str:
    values = list(values)
    return f"{sum(values)}/{len(values)} = {100 * sum(values) / len(values):.0f} %" if values else "none"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--goals", type=int, default=20)
    ap.add_argument("--planted", type=int, default=20)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--seed", type=int, default=41)
    ap.add_argument("--games", type=int, default=1000, help="search games of a random or planted goal")
    ap.add_argument("--checks", type=int, default=2, help="proposals checked per goal")
    ap.add_argument("--challenge-games", type=int, default=None, dest="challenge_games",
                    help="search games of a challenge (default: twice its min_games)")
    ap.add_argument("--challenge-fresh", type=int, default=5, dest="challenge_fresh",
                    help="fresh seeds each checked proposal of a challenge is checked on")
    ap.add_argument("--size", type=int, default=2, help="the range stage's most knobs at once (3: triples)")
    ap.add_argument("--breadth", type=int, default=24, help="the range stage's most changes (more: the whole range)")
    ap.add_argument("--only", default="", help="challenge ids to run (comma-separated; default all four)")
    ap.add_argument("--scheduler", default=None, help="a Dask scheduler's address for the challenges' games")
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--skip", default="", help="parts to skip: challenges,goals,planted,timing")
    args = ap.parse_args(argv)
    if args.quick:
        args.goals, args.planted, args.games = 3, 3, 200
    skip = set(args.skip.split(","))
    rng = random.Random(args.seed)
    m = reference_map()
    print(f"load at start: {os.getloadavg()[0]:.1f} (1-minute average, {os.cpu_count()} cores)", flush=True)
    confirmed = []
    if "challenges" not in skip:
        with dask_executor(args.scheduler) as executor:
            for ch in chmod.load():
                if args.only and ch.id not in args.only.split(","):
                    continue
                confirmed += challenge(ch, args, executor)
    if "goals" not in skip:
        for i in range(args.goals):
            goal = random_goal(rng, m, rng.randint(3, 8), args.games)
            r = run_goal(goal, args.jobs, args.checks, known=m)
            confirmed += [s == "met" for s in r["statuses"]]
            print(f"goal {i + 1}: {goal.measure} {goal.goal} {goal.target:+.4f} over {len(goal.knobs)} knobs: "
                  f"{r['proposals']} said to meet it ({r['confirmed']} of the checked by the confirmation), "
                  f"checked {r['statuses']}, {r['seconds']:.0f} s", flush=True)
    print(f"\n1. confirmed on fresh seeds: {rate(confirmed)} of the proposals said to meet their goal (goal >= 90 %)")
    found = []
    if "planted" not in skip:
        for i in range(args.planted):
            goal, plant = planted_goal(rng, m, args.games)
            r = run_goal(goal, args.jobs, 0, plant)  # its own seeds: the map that planted it is not read
            found.append(r["found"])
            print(f"planted {i + 1}: {plant[0]} on {goal.measure}: found={r['found']} "
                  f"({r['proposals']} proposals)", flush=True)
        print(f"2. planted one-knob solution found: {rate(found)} (goal >= 90 %)")
    if "timing" not in skip:
        timing(args, m)
    return 0


def challenge(ch, args, executor) -> list[bool]:
    """Search one shipped challenge, check its proposals, print the result (the statement of
    why none meets it, in both languages, when there is none) and the search's time."""
    goal = goal_of_challenge(ch, search_games=ch.min_games if args.quick else args.challenge_games)
    load0 = os.getloadavg()[0]
    r = run_goal(goal, args.jobs, args.checks, fresh=args.challenge_fresh, size=args.size, executor=executor,
                 breadth=args.breadth)
    res = r["result"]
    reach = (f"of the {res.space} of up to {res.size} knobs in range ({'all' if res.exhausted else 'not all'} of them)"
             if res.space else "(found before the range stage)")
    print(f"challenge {ch.id}: {r['tried']} changes tried {reach}, {r['proposals']} said to meet it "
          f"({r['confirmed']} of the checked by the confirmation); the search {r['search_wall']:.0f} s wall, "
          f"{r['search_cpu']:.0f} s CPU (load {load0:.1f} -> {os.getloadavg()[0]:.1f}); with the checks "
          f"{r['seconds']:.0f} s wall", flush=True)
    if res.proposals:
        print(f"  top {r['top']}, checked on {args.challenge_fresh} fresh seeds each: {r['statuses']}", flush=True)
    else:
        for lang in ("en", "zh"):
            print("  " + "\n  ".join(no_proposal_lines(res.goal, res, lang)), flush=True)
    return [s == "met" for s in r["statuses"]]


@contextmanager
def dask_executor(address: str | None):
    """A Dask cluster's executor (``--scheduler``), or None: the process pool of ``--jobs``."""
    if not address:
        yield None
        return
    from distributed import Client

    client = Client(address, timeout="10s")
    try:
        yield client.get_executor()
    finally:
        client.close()


def timing(args, m) -> None:
    games = 200 if args.quick else m.games
    load0, c0, t0 = os.getloadavg()[0], cpu(), time.perf_counter()
    cm = sensitivity_map(class_deck(), games=games, seed=m.seed, jobs=args.jobs)
    wall, used, load1 = time.perf_counter() - t0, cpu() - c0, os.getloadavg()[0]
    print(f"3. a class deck's map, random bots: {cm.meta['versions']} versions x {games} games = "
          f"{cm.meta['games_played']} games on {args.jobs} processes: {wall:.1f} s wall, {used:.1f} s CPU "
          f"({1000 * used / cm.meta['games_played']:.2f} ms CPU a game); load {load0:.1f} -> {load1:.1f} "
          f"(goal <= 120 s)")


if __name__ == "__main__":
    sys.exit(main())
