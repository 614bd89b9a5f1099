"""The design challenges checked as a student would (issue 28): one plausible change for each,
the sample size the check chooses, the verdict, and the time it took.

    python benchmarks/bench_challenges.py [--json]

For each challenge of ``workshop/data/challenges.toml`` a change in the spirit of its hint is
checked with the challenge's own pilot and cap (``challenges.check``); the report gives the
games per version, the verdict, the interval, the seconds (wall and CPU: the CPU time is what
other processes' load disturbs least) and the load average. It shows that each goal can be
met and how long a check takes on this machine (the static site's browser Python is slower).
"""

from __future__ import annotations

import argparse
import json
import os
import time

from dungeon_guilds.cards import RoomCard
from dungeon_guilds.workshop import challenges as C
from dungeon_guilds.workshop.lord_edit import make_lord

# challenge id -> the change a student might try (deck or lord)
CHANGES = {
    "level3_worth_it": lambda: (C.with_kind_changed(RoomCard(3, 9, 12), RoomCard(3, 7, 12)), None),
    "calmer_caveman": lambda: (None, make_lord("my_caveman", "Calm Caveman",
                                               [{"kind": "flip", "exhaust": [], "activate": [1, 2]}])),
    "gentler_dragon": lambda: (None, make_lord("my_red_dragon", "Gentle Dragon",
                                               [{"kind": "room", "rooms": [-1], "treasure": 3}])),
    "risky_level1": lambda: (C.with_kind_changed(RoomCard(1, 4, 3), RoomCard(1, 5, 3)), None),
}


def run() -> list[dict]:
    rows = []
    for ch in C.load():
        deck, lord = CHANGES[ch.id]() if ch.id in CHANGES else (None, None)
        wall, cpu = time.perf_counter(), time.process_time()
        r = C.check(ch, deck, lord)
        rows.append({"challenge": ch.id, "games": r.games, "status": r.status, "estimate": round(r.estimate, 4),
                     "low": round(r.low, 4), "high": round(r.high, 4), "target": ch.target,
                     "wall_s": round(time.perf_counter() - wall, 1), "cpu_s": round(time.process_time() - cpu, 1),
                     "games_per_cpu_s": round(2 * r.games / max(time.process_time() - cpu, 1e-9), 1),
                     "load": os.getloadavg()[0]})
        print(rows[-1], flush=True)
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rows = run()
    if args.json:
        print(json.dumps(rows, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
