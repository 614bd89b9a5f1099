"""Every speed figure of issue 18 in one run, one JSON object:

    python benchmarks/bench_all.py --json            # the full run (a few minutes, quiet machine)
    python benchmarks/bench_all.py --json --quick    # smaller sizes, for a smoke check

* ``engine``: random legal play on the engine ``State`` (log off, one core) against OpenSpiel's
  C++ ``tic_tac_toe`` and pure-Python ``python_tic_tac_toe``, with the same loop
  (``apply(choice(legal_actions()))``). The three are measured **interleaved**, in ``--rounds``
  short bursts each, and the ratio of each round is taken; the median ratio is reported, so a
  change of machine load hits all three alike. Targets: >= 5x python_tic_tac_toe, >= 0.2x C++.
* ``greedy``: four greedy bots, ``simulate(..., jobs=2)`` wall time with the worker pool's start
  (target >= 400 games/s); and the same on one core in this process.
* ``ab``: ``workshop.ab.run_ab`` of 2 x 2,000 four-greedy games on 2 jobs, wall (target <= 10 s).
* ``simulate_10k``: ``dungeon-guilds simulate --players 4 --games 10000 --bots random --jobs 2
  --json`` as a new process, wall time including the interpreter's start (target <= 2 s); the
  median of ``--repeat`` runs.
* ``mcts``: the project's ``mcts`` bot at a fixed number of iterations: decisions per second
  and iterations per second over the first decisions of a four-player game.

The CPU model (``/proc/cpuinfo``) and the load average before and after are part of the output:
figures from a loaded machine are not comparable. ``docs/performance.md`` keeps a table.
A part whose package is missing (open_spiel) is null, not an error.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from bench_engine import NAMES, openspiel_version  # noqa: E402

from dungeon_guilds.cards import reference_deck  # noqa: E402
from dungeon_guilds.game import drawn_lords, shuffled_rooms  # noqa: E402
from dungeon_guilds.rules import Rules  # noqa: E402
from dungeon_guilds.state import OVER, State  # noqa: E402

TARGETS = {"engine_vs_python_tic_tac_toe": 5.0, "engine_vs_tic_tac_toe": 0.2,
           "greedy_games_per_second_2_jobs": 400.0, "ab_2x2000_seconds": 10.0,
           "simulate_10k_seconds": 2.0}


def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def load() -> list[float] | None:
    try:
        return [round(x, 2) for x in os.getloadavg()]
    except OSError:
        return None


# ------------------------------------------------------------------------------ engine vs OpenSpiel

def _ours(seconds: float, seed: int, rules: Rules) -> float:
    deck = reference_deck()
    choice = random.Random(seed).choice
    actions = 0
    g = 0
    t0 = time.perf_counter()
    deadline = t0 + seconds
    while True:
        st = State.new(NAMES[:4], shuffled_rooms(deck, (seed, g)), drawn_lords(rules, 4, (seed, g)),
                       deck.levels, deck.heal_costs, rules=rules, log=False)
        while st.phase != OVER:
            st.apply_unchecked(choice(st.legal_actions()))
        actions += st.actions_taken
        g += 1
        now = time.perf_counter()
        if now >= deadline:
            return actions / (now - t0)


def _theirs(game, seconds: float, seed: int) -> float:
    choice = random.Random(seed).choice
    actions = 0
    t0 = time.perf_counter()
    deadline = t0 + seconds
    while True:
        for _ in range(50):
            s = game.new_initial_state()
            while not s.is_terminal():
                s.apply_action(choice(s.legal_actions()))
                actions += 1
        now = time.perf_counter()
        if now >= deadline:
            return actions / (now - t0)


def engine_ratios(rounds: int, seconds: float, seed: int = 1) -> dict:
    rules = Rules()
    _ours(0.2, seed + 99, rules)  # warm-up
    try:
        import pyspiel
        from open_spiel.python.games import tic_tac_toe  # noqa: F401  registers python_tic_tac_toe
    except ImportError:
        pyspiel = None
    games = {}
    if pyspiel is not None:
        games = {name: pyspiel.load_game(name) for name in ("tic_tac_toe", "python_tic_tac_toe")}
        for game in games.values():
            _theirs(game, 0.1, seed)
    rows = []
    for r in range(rounds):
        row = {"ours": _ours(seconds, seed + r, rules)}
        for name, game in games.items():
            row[name] = _theirs(game, seconds, seed + r)
        rows.append(row)
    out = {"rounds": rounds, "seconds_each": seconds,
           "actions_per_second": round(statistics.median(x["ours"] for x in rows), 1),
           "openspiel_version": openspiel_version()}
    for name in games:
        out[f"{name}_actions_per_second"] = round(statistics.median(x[name] for x in rows), 1)
        ratios = [x["ours"] / x[name] for x in rows]
        out[f"ratio_vs_{name}"] = round(statistics.median(ratios), 3)
        out[f"ratio_vs_{name}_range"] = [round(min(ratios), 3), round(max(ratios), 3)]
    return out


# ------------------------------------------------------------------------------ bots

def greedy_rates(games: int, jobs: int, seed: int = 1) -> dict:
    from dungeon_guilds.analysis.simulate import simulate_columns

    t0 = time.perf_counter()
    simulate_columns(games, ["greedy"], 4, seed=seed, jobs=jobs, need_pandas=False)
    wall = time.perf_counter() - t0
    one = max(20, games // 10)
    t0 = time.perf_counter()
    simulate_columns(one, ["greedy"], 4, seed=seed + 1, jobs=1, need_pandas=False)
    wall1 = time.perf_counter() - t0
    return {"games": games, "jobs": jobs, "seconds": round(wall, 3),
            "games_per_second": round(games / wall, 1),
            "one_core_games": one, "one_core_games_per_second": round(one / wall1, 1)}


def ab_wall(games: int, jobs: int, seed: int = 1) -> dict:
    from dungeon_guilds.workshop.ab import Arm, run_ab

    import pandas  # noqa: F401  the workshop has it loaded already; not part of the experiment

    t0 = time.perf_counter()
    res = run_ab(Arm("A", Rules()), Arm("B", Rules(lords="none")), games, ["greedy"], 4,
                 seed=seed, jobs=jobs)
    wall = time.perf_counter() - t0
    t1 = time.perf_counter()
    rows = len(res.comparison)
    compare = time.perf_counter() - t1
    return {"games_per_arm": games, "jobs": jobs, "seconds": round(wall, 3),
            "compare_seconds": round(compare, 3), "comparison_rows": rows}


def simulate_10k(games: int, jobs: int, repeat: int) -> dict:
    cmd = [sys.executable, "-m", "dungeon_guilds.cli", "simulate", "--players", "4", "--games",
           str(games), "--bots", "random", "--jobs", str(jobs), "--seed", "1", "--json"]
    walls = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
        walls.append(time.perf_counter() - t0)
    return {"games": games, "jobs": jobs, "command": " ".join(["dungeon-guilds", *cmd[3:]]),
            "seconds": round(statistics.median(walls), 3), "runs": [round(w, 3) for w in walls]}


def mcts_rate(iterations: int, decisions: int, seed: int = 1) -> dict:
    from dungeon_guilds.analysis.bots import make_bot

    rules = Rules()
    deck = reference_deck()
    st = State.new(NAMES[:4], shuffled_rooms(deck, seed), drawn_lords(rules, 4, seed),
                   deck.levels, deck.heal_costs, rules=rules, log=False)
    bot = make_bot("mcts", seed=seed, iterations=iterations)
    times = []
    while len(times) < decisions and st.phase != OVER:
        legal = st.legal_actions()
        t0 = time.perf_counter()
        action = bot.choose(st, st.current, legal)
        if len(legal) > 1:  # a forced move is not a search
            times.append(time.perf_counter() - t0)
        st.apply_action(action)
    total = sum(times)
    return {"iterations": iterations, "decisions": len(times),
            "moves_per_second": round(len(times) / total, 2),
            "iterations_per_second": round(len(times) * iterations / total, 1),
            "median_seconds": round(statistics.median(times), 4)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    ap.add_argument("--quick", action="store_true", help="small sizes (a smoke check, not the figures)")
    ap.add_argument("--rounds", type=int, default=7, help="interleaved engine rounds")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--repeat", type=int, default=3, help="runs of the 10k-games command")
    ap.add_argument("--greedy-games", type=int, default=2000)
    ap.add_argument("--ab-games", type=int, default=2000, help="games per arm")
    ap.add_argument("--mcts-iterations", type=int, default=1000)
    args = ap.parse_args()
    q = args.quick
    out = {"benchmark": "dungeon-guilds bench_all (issue 18)", "cpu": cpu_model(),
           "cpus": os.cpu_count(), "python": platform.python_version(), "load_before": load(),
           "quick": q}
    out["engine"] = engine_ratios(3 if q else args.rounds, 0.1 if q else 1.0)
    out["greedy"] = greedy_rates(40 if q else args.greedy_games, args.jobs)
    out["ab"] = ab_wall(10 if q else args.ab_games, args.jobs)
    out["simulate_10k"] = simulate_10k(200 if q else 10000, args.jobs, 1 if q else args.repeat)
    out["mcts"] = mcts_rate(50 if q else args.mcts_iterations, 2 if q else 5)
    out["load_after"] = load()
    e = out["engine"]
    met = {}
    if "ratio_vs_python_tic_tac_toe" in e:
        met["engine_vs_python_tic_tac_toe"] = e["ratio_vs_python_tic_tac_toe"] >= TARGETS["engine_vs_python_tic_tac_toe"]
        met["engine_vs_tic_tac_toe"] = e["ratio_vs_tic_tac_toe"] >= TARGETS["engine_vs_tic_tac_toe"]
    if not q:
        met["greedy_games_per_second_2_jobs"] = out["greedy"]["games_per_second"] >= TARGETS["greedy_games_per_second_2_jobs"]
        if args.ab_games == 2000:
            met["ab_2x2000_seconds"] = out["ab"]["seconds"] <= TARGETS["ab_2x2000_seconds"]
        met["simulate_10k_seconds"] = out["simulate_10k"]["seconds"] <= TARGETS["simulate_10k_seconds"]
    out["targets"] = {"limits": TARGETS, "met": met}
    if args.json:
        print(json.dumps(out))
    else:
        for k, v in out.items():
            print(f"{k:>14}: {v}")


if __name__ == "__main__":
    main()
