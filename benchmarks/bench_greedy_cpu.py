"""Four greedy bots in CPU time: this checkout against an earlier commit, interleaved.

    python benchmarks/bench_greedy_cpu.py --ref main --games 100 --pairs 7 [--json]

The package of ``--ref`` is extracted with ``git archive`` into a temporary folder; each pair
runs one fresh process per version (the ref's first), both playing the same ``--games``
four-greedy games on one core (``simulate_columns(..., jobs=1)``, seed ``cpu/<pair>``), and
reports games per CPU-second (``time.process_time``, which other processes' load disturbs
far less than wall time). The figure is the median of the per-pair ratios, with their range
and the load average: on a shared machine, a ratio measured side by side is the figure.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def child(games: int, seed: str) -> None:
    from dungeon_guilds.analysis.simulate import simulate_columns

    t0 = time.process_time()
    simulate_columns(games, ["greedy"], 4, seed=seed, jobs=1, need_pandas=False)
    print(games / (time.process_time() - t0))


def run(games: int, seed: str, package_root: str) -> float:
    """Games per CPU-second of the package found in ``package_root``, in a fresh process."""
    code = (f"import sys; sys.path[:0] = [{package_root!r}, {str(ROOT / 'benchmarks')!r}]; "
            f"import dungeon_guilds; assert dungeon_guilds.__file__.startswith({package_root!r}); "
            f"import bench_greedy_cpu as b; b.child({games}, {seed!r})")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, cwd=tempfile.gettempdir())
    return float(out.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ref", default="main", help="the earlier commit to compare with")
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--pairs", type=int, default=7)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as old:
        archive = subprocess.run(["git", "-C", str(ROOT), "archive", args.ref, "dungeon_guilds"],
                                 capture_output=True, check=True).stdout
        subprocess.run(["tar", "-x", "-C", old], input=archive, check=True)
        load_before = os.getloadavg()
        pairs = []
        for k in range(args.pairs):
            seed = f"cpu/{k}"
            pairs.append((run(args.games, seed, old), run(args.games, seed, str(ROOT))))
    ratios = [new / ref for ref, new in pairs]
    out = {"ref": args.ref, "games": args.games, "pairs": [[round(a, 1), round(b, 1)] for a, b in pairs],
           "ref_games_per_cpu_second": round(statistics.median(a for a, _ in pairs), 1),
           "games_per_cpu_second": round(statistics.median(b for _, b in pairs), 1),
           "ratio": round(statistics.median(ratios), 3),
           "ratio_range": [round(min(ratios), 3), round(max(ratios), 3)],
           "load_before": [round(x, 2) for x in load_before],
           "load_after": [round(x, 2) for x in os.getloadavg()]}
    print(json.dumps(out) if args.json else "\n".join(f"{k}: {v}" for k, v in out.items()))


if __name__ == "__main__":
    main()
