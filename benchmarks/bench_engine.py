"""Benchmark: random legal play, the hot path of bots and the balance lab.

    python benchmarks/bench_engine.py [--games 2000] [--players 4] [--json]
        [--openspiel-seconds 2] [--parallel-games 10000 --jobs 2] [--mcts-moves 5]

Plays N games of uniformly random legal moves (setup exhaust choices included) on the engine
``State`` with the event log off, and prints games/s and actions/s on one core.

Side by side on the same machine and in the same run, it also measures:

* OpenSpiel's random rollouts (``pip install open_spiel``, the bench extra) of its C++
  ``tic_tac_toe`` and its pure-Python ``python_tic_tac_toe``, with the same loop
  (``apply_action(choice(legal_actions()))``), and prints our actions/s as a ratio of each
  (targets: >= 5x python_tic_tac_toe, >= 0.2x C++ tic_tac_toe);
* ``simulate()`` of ``--parallel-games`` four-player random games on ``--jobs`` processes,
  wall time of the call (target: 10,000 games in <= 2 s on 2 cores);
* the time of an ``mcts`` move at the bot's default budget (target: <= 1 s), the median over
  ``--mcts-moves`` decisions of a four-player game.

A part whose package is missing (open_spiel, pandas) is reported as null, not an error.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import time

from dungeon_guilds.cards import reference_deck
from dungeon_guilds.game import drawn_lords, shuffled_rooms
from dungeon_guilds.rules import Rules
from dungeon_guilds.state import State

NAMES = ("Ann", "Bo", "Cy", "Di", "Ed", "Flo")
TARGETS = {"vs_python_tic_tac_toe": 5.0, "vs_tic_tac_toe": 0.2, "parallel_seconds": 2.0,
           "mcts_move_seconds": 1.0}


def play_random_games(games: int, players: int, seed: int, rules: Rules) -> tuple[int, float]:
    deck = reference_deck()
    chooser = random.Random(seed)
    actions = 0
    t0 = time.perf_counter()
    for g in range(games):
        st = State.new(NAMES[:players], shuffled_rooms(deck, (seed, g)), drawn_lords(rules, players, (seed, g)),
                       deck.levels, deck.heal_costs, rules=rules, log=False)
        choice = chooser.choice
        while st.phase != "over":
            st.apply_unchecked(choice(st.legal_actions()))
        actions += st.actions_taken
    return actions, time.perf_counter() - t0


# ------------------------------------------------------------------------------ OpenSpiel

def openspiel_rollouts(game_name: str, seconds: float, seed: int = 1) -> dict | None:
    """Random rollouts of an OpenSpiel game for about ``seconds``: actions/s and games/s."""
    try:
        import pyspiel

        if game_name.startswith("python_"):
            from open_spiel.python.games import tic_tac_toe  # noqa: F401  registers python_tic_tac_toe
    except ImportError:
        return None
    game = pyspiel.load_game(game_name)
    choice = random.Random(seed).choice
    for _ in range(200):  # warm-up
        s = game.new_initial_state()
        while not s.is_terminal():
            s.apply_action(choice(s.legal_actions()))
    actions = games = 0
    t0 = time.perf_counter()
    deadline = t0 + seconds
    while True:
        for _ in range(100):
            s = game.new_initial_state()
            while not s.is_terminal():
                s.apply_action(choice(s.legal_actions()))
                actions += 1
            games += 1
        now = time.perf_counter()
        if now >= deadline:
            break
    dt = now - t0
    return {"actions_per_second": round(actions / dt, 1), "games_per_second": round(games / dt, 1),
            "games": games, "seconds": round(dt, 3)}


def openspiel_version() -> str | None:
    try:
        from importlib.metadata import version

        return version("open_spiel")
    except Exception:
        return None


# ------------------------------------------------------------------------------ ours, parallel

def parallel_simulate(games: int, jobs: int, players: int, seed: int, rules: Rules) -> dict | None:
    """Wall time of ``simulate(games, ["random"], players, jobs=jobs)`` (tables included)."""
    try:
        import pandas  # noqa: F401  imported before timing: a one-off cost of the session

        from dungeon_guilds.analysis.simulate import simulate
    except ImportError:
        return None
    simulate(jobs * 4, ["random"], players, seed=seed + 7, rules=rules, jobs=1)  # warm-up
    t0 = time.perf_counter()
    res = simulate(games, ["random"], players, seed=seed, rules=rules, jobs=jobs)
    wall = time.perf_counter() - t0
    return {"games": games, "jobs": jobs, "cpus": os.cpu_count(), "seconds": round(wall, 3),
            "games_per_second": round(games / wall, 1),
            "play_seconds": round(res.meta["seconds"], 3)}


def mcts_move_time(moves: int, players: int, seed: int, rules: Rules) -> dict | None:
    """Median and max seconds of an mcts decision at the bot's default budget, over the first
    ``moves`` decisions of a game in which every seat is mcts."""
    from dungeon_guilds.analysis.bots import make_bot

    deck = reference_deck()
    st = State.new(NAMES[:players], shuffled_rooms(deck, seed), drawn_lords(rules, players, seed),
                   deck.levels, deck.heal_costs, rules=rules, log=False)
    bot = make_bot("mcts", seed=seed)
    times = []
    for _ in range(moves):
        if st.phase == "over":
            break
        t0 = time.perf_counter()
        action = bot.choose(st, st.current)
        times.append(time.perf_counter() - t0)
        st.apply_action(action)
    return {"iterations": bot.iterations, "moves": len(times),
            "median_seconds": round(statistics.median(times), 3), "max_seconds": round(max(times), 3)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--lords", default="base", choices=["none", "base", "all"])
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--openspiel-seconds", type=float, default=2.0,
                    help="how long to roll out each OpenSpiel game (0: skip)")
    ap.add_argument("--parallel-games", type=int, default=10000, help="0: skip")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--mcts-moves", type=int, default=5, help="0: skip")
    args = ap.parse_args()
    rules = Rules(lords=args.lords)
    play_random_games(50, args.players, args.seed + 1, rules)  # warm-up
    actions, seconds = play_random_games(args.games, args.players, args.seed, rules)
    ours = actions / seconds
    out = {
        "benchmark": "random legal play (engine State, log off, one core)",
        "players": args.players,
        "games": args.games,
        "seconds": round(seconds, 3),
        "games_per_second": round(args.games / seconds, 1),
        "actions_per_second": round(ours, 1),
        "actions_per_game": round(actions / args.games, 2),
        "python": platform.python_version(),
        "machine": platform.machine(),
    }
    targets: dict[str, bool] = {}
    if args.openspiel_seconds > 0:
        cpp = openspiel_rollouts("tic_tac_toe", args.openspiel_seconds, args.seed)
        py = openspiel_rollouts("python_tic_tac_toe", args.openspiel_seconds, args.seed)
        out["openspiel"] = None if cpp is None else {
            "version": openspiel_version(), "tic_tac_toe": cpp, "python_tic_tac_toe": py}
        if cpp is not None:
            out["ratio_vs_tic_tac_toe"] = round(ours / cpp["actions_per_second"], 3)
            out["ratio_vs_python_tic_tac_toe"] = round(ours / py["actions_per_second"], 3)
            targets["vs_python_tic_tac_toe"] = out["ratio_vs_python_tic_tac_toe"] >= TARGETS["vs_python_tic_tac_toe"]
            targets["vs_tic_tac_toe"] = out["ratio_vs_tic_tac_toe"] >= TARGETS["vs_tic_tac_toe"]
    if args.parallel_games > 0:
        par = parallel_simulate(args.parallel_games, args.jobs, 4, args.seed, rules)
        out["parallel"] = par
        if par is not None and args.parallel_games == 10000:
            targets["parallel_seconds"] = par["seconds"] <= TARGETS["parallel_seconds"]
    if args.mcts_moves > 0:
        mc = mcts_move_time(args.mcts_moves, 4, args.seed, rules)
        out["mcts"] = mc
        targets["mcts_move_seconds"] = mc["max_seconds"] <= TARGETS["mcts_move_seconds"]
    if targets:
        out["targets"] = {"limits": TARGETS, "met": targets}
    if args.json:
        print(json.dumps(out))
    else:
        for k, v in out.items():
            print(f"{k:>28}: {v}")


if __name__ == "__main__":
    main()
