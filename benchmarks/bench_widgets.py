"""Benchmark: the latency of one step of the RoundStepper (issue 5 budget: ≤ 150 ms).

    python benchmarks/bench_widgets.py [--players 4] [--games 3] [--kernel] [--json]

One step is what a click on *Step* does: the engine applies the action, and the widget redraws
the board (HTML), the turn timeline (a plotly figure turned into its display bundle), the legal
actions, the history slider and the log. Every seat is human, so the step plays the action
chosen in the dropdown (a seeded random legal one) and no bot thinking is counted.

By default the steps run in this process with no frontend (widget messages go nowhere).
``--kernel`` runs the same loop inside a real IPython kernel (``jupyter_client`` +
``ipykernel``), where every widget change is also serialized and sent on the kernel's comm
channel, as in a notebook. A breakdown (engine, board, timeline figure, its JSON) is printed
for the in-process run.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import statistics
import sys
import textwrap
import time

STEP_LOOP = """
import random, time, json
from dungeon_guilds.widgets.stepper import RoundStepper
from dungeon_guilds.rules import Rules

def _bench(players, games, seed):
    times = []
    for g in range(games):
        s = RoundStepper(players=players, seats=["human"] * players, seed=seed + g,
                         rules=Rules(lords="all", npc=players < 6))
        rng = random.Random(seed + g)
        while not s.game.is_over:
            s.action_dropdown.value = rng.choice(s.action_dropdown.options)[1]
            t0 = time.perf_counter()
            s.step_button.click()
            times.append(time.perf_counter() - t0)
            assert s.last_error is None, s.message_text
    return times
"""


def summary(times: list[float]) -> dict[str, float]:
    ms = sorted(t * 1000 for t in times)
    return {
        "steps": len(ms),
        "median_ms": round(statistics.median(ms), 2),
        "p95_ms": round(ms[int(0.95 * (len(ms) - 1))], 2),
        "max_ms": round(ms[-1], 2),
        "mean_ms": round(statistics.fmean(ms), 2),
    }


def in_process(players: int, games: int, seed: int) -> list[float]:
    scope: dict = {}
    exec(STEP_LOOP, scope)
    scope["_bench"](players, 1, seed + 1000)  # warm-up (imports, caches)
    return scope["_bench"](players, games, seed)


def breakdown(players: int, seed: int) -> dict[str, float]:
    """Median ms of each part of a step, over one game."""
    from dungeon_guilds.drawing.display import board_tables_html
    from dungeon_guilds.game import Game
    from dungeon_guilds.rules import Rules
    from dungeon_guilds.viz.board import board_figure
    from dungeon_guilds.viz.turns import timeline_figure
    from dungeon_guilds.widgets.figures import figure_bundle

    g = Game(players, seed=seed, rules=Rules(lords="all", npc=players < 6))
    rng = random.Random(seed)
    parts: dict[str, list[float]] = {"engine push": [], "board html": [], "timeline figure": [],
                                     "figure to bundle": [], "board figure (plotly, not in a step)": []}
    while not g.is_over:
        action = rng.choice(g.legal_actions())
        t0 = time.perf_counter()
        g.push(action)
        t1 = time.perf_counter()
        board_tables_html(g.state, g.log, "en")
        t2 = time.perf_counter()
        fig = timeline_figure(g)
        t3 = time.perf_counter()
        figure_bundle(fig)
        t4 = time.perf_counter()
        figure_bundle(board_figure(g))
        t5 = time.perf_counter()
        for key, dt in zip(parts, (t1 - t0, t2 - t1, t3 - t2, t4 - t3, t5 - t4)):
            parts[key].append(dt * 1000)
    return {k: round(statistics.median(v), 2) for k, v in parts.items()}


def in_kernel(players: int, games: int, seed: int) -> list[float]:
    from jupyter_client.manager import start_new_kernel

    km, kc = start_new_kernel(kernel_name="python3")
    try:
        code = STEP_LOOP + textwrap.dedent(f"""
            _bench({players}, 1, {seed + 1000})
            print(json.dumps(_bench({players}, {games}, {seed})))
        """)
        out: list[str] = []

        def hook(msg):
            if msg["header"]["msg_type"] == "stream" and msg["content"]["name"] == "stdout":
                out.append(msg["content"]["text"])
            elif msg["header"]["msg_type"] == "error":
                out.append("ERROR " + "\n".join(msg["content"]["traceback"]))

        kc.execute_interactive(code, timeout=900, output_hook=hook)
        text = "".join(out)
        if text.startswith("ERROR"):
            raise RuntimeError(text)
        return json.loads(text.strip().splitlines()[-1])
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--games", type=int, default=3)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--kernel", action="store_true", help="also measure inside an IPython kernel")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    report = {
        "python": sys.version.split()[0],
        "machine": platform.machine(),
        "players": args.players,
        "games": args.games,
        "budget_ms": 150,
        "in_process": summary(in_process(args.players, args.games, args.seed)),
        "breakdown_median_ms": breakdown(args.players, args.seed),
    }
    if args.kernel:
        report["in_kernel"] = summary(in_kernel(args.players, args.games, args.seed))
    if args.json:
        print(json.dumps(report, indent=2))
        return
    print(f"RoundStepper step latency, {args.players} players, {args.games} games (budget 150 ms)")
    for where in ("in_process", "in_kernel"):
        if where in report:
            r = report[where]
            print(f"  {where:10s}: {r['steps']} steps, median {r['median_ms']} ms, p95 {r['p95_ms']} ms, "
                  f"max {r['max_ms']} ms")
    print("  breakdown (median ms): " + ", ".join(f"{k} {v}" for k, v in report["breakdown_median_ms"].items()))


if __name__ == "__main__":
    main()
