"""Benchmark: random legal play, the hot path of bots and the balance lab.

    python benchmarks/bench_engine.py [--games 2000] [--players 4] [--json]

Plays N games of uniformly random legal moves (setup exhaust choices included) on the engine
``State`` with the event log off, and prints games/s and actions/s on one core.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import time

from dungeon_guilds.cards import reference_deck
from dungeon_guilds.game import drawn_lords, shuffled_rooms
from dungeon_guilds.rules import Rules
from dungeon_guilds.state import State

NAMES = ("Ann", "Bo", "Cy", "Di", "Ed", "Flo")


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


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--lords", default="base", choices=["none", "base", "all"])
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    rules = Rules(lords=args.lords)
    play_random_games(50, args.players, args.seed + 1, rules)  # warm-up
    actions, seconds = play_random_games(args.games, args.players, args.seed, rules)
    out = {
        "benchmark": "random legal play (engine State, log off, one core)",
        "players": args.players,
        "games": args.games,
        "seconds": round(seconds, 3),
        "games_per_second": round(args.games / seconds, 1),
        "actions_per_second": round(actions / seconds, 1),
        "actions_per_game": round(actions / args.games, 2),
        "python": platform.python_version(),
        "machine": platform.machine(),
    }
    if args.json:
        print(json.dumps(out))
    else:
        for k, v in out.items():
            print(f"{k:>20}: {v}")


if __name__ == "__main__":
    main()
