"""What a move costs the class-table server to draw (issue 37), without a network: seeded 4-seat
games played through the server's :class:`~dungeon_guilds.app.table_server.PartsCache`, every
seat's parts drawn at every version as a push draws them (English), each seat's message encoded
as the server sends it (orjson; the board's and the log's pieces that changed since that seat's
last message, ``tables/pieces.py``), greedy moves for every seat. Printed: CPU milliseconds per move
(median, 95th percentile, max over the moves), and how the drawing divides (board, picks, round
log, story, head). ``--no-memo`` draws every seat's board whole (the server before stop 43).

Run: ``.venv/bin/python benchmarks/bench_table_drawing.py [--games 6] [--no-memo]``.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections import Counter

import orjson

import dungeon_guilds.app.tables.render as render
from dungeon_guilds.app.tables import pieces
from dungeon_guilds.app.table_server import PartsCache
from dungeon_guilds.app.tables.table import Table, think
from dungeon_guilds.rules import Rules
from dungeon_guilds.table_model.setup import choosing_state

PARTS = ("board_html_pieces", "picks", "round_log_pieces", "_story", "seat_head")


def timed(spent: Counter):
    """Wrap the render module's costly functions to count their CPU time in ``spent``."""
    for name in PARTS:
        real = getattr(render, name)

        def wrapper(*args, _real=real, _name=name, **kwargs):
            t0 = time.process_time()
            try:
                return _real(*args, **kwargs)
            finally:
                spent[_name] += time.process_time() - t0
        setattr(render, name, wrapper)


def one_game(seed: int, memo: bool) -> list[float]:
    """CPU seconds of each move's drawing (every seat's message at the version it made)."""
    table, _ = Table.open("BENCH", 4, "Ann", Rules(), None, 0.0, seed=seed)
    for name in ("Bo", "Cy", "Di"):
        table.join(name, 0.0)
    cache, costs, held = PartsCache(), [], [{} for _ in range(4)]
    while not table.is_over or table.showing is not None:
        t0 = time.process_time()
        for seat in range(4):
            parts = cache.get(table, seat, "en", 0) if memo else render.seat_parts(table, seat, "en", 0)
            sent = {f: pieces.delta(held[seat].get(f, ()), parts[f]) for f in pieces.FIELDS}
            held[seat] = {f: parts[f] for f in pieces.FIELDS}
            orjson.dumps({**render.seat_head(table, seat, "en"), **parts, **sent})
        costs.append(time.process_time() - t0)
        if table.showing is not None:
            for seat in range(4):
                table.continue_(seat, 0.0)
            continue
        seat = table.game.current if not table.in_setup else next(i for i in range(4) if i not in table.pending)
        state = choosing_state(table.game.state, seat) if table.in_setup else table.game.state.copy()
        table.act(seat, str(think("greedy", f"bench-{seed}", state, seat)), table.version, 0.0)
    return costs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--no-memo", action="store_true", help="draw every seat's board whole")
    args = parser.parse_args()
    spent: Counter = Counter()
    timed(spent)
    costs = [c for seed in range(1, args.games + 1) for c in one_game(seed, not args.no_memo)]
    ms = sorted(1000 * c for c in costs)
    p95 = ms[min(len(ms) - 1, round(0.95 * (len(ms) - 1)))]
    print(f"{args.games} games, {len(ms)} versions drawn for 4 seats ({'no memo' if args.no_memo else 'memo'}): "
          f"CPU per version median {statistics.median(ms):.2f} ms, p95 {p95:.2f} ms, max {ms[-1]:.2f} ms; "
          f"mean {statistics.fmean(ms):.2f} ms")
    for name in PARTS:
        print(f"  {name}: {1000 * spent[name] / len(ms):.2f} ms a version")


if __name__ == "__main__":
    main()
