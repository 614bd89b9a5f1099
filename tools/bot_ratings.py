"""The bots' rating table of docs/bots.md: a round robin of four-player games, rated.

Every set of four bots from the entrants (7 bots: 35 sets) plays the same number of games, the
seats rotated so each bot sits each seat equally often; each game has its own seed (rooms,
lords, bots' streams), the base lords. Each game's result (gold, then the R8.1 tie-break) gives
one comparison per pair of seats; :func:`dungeon_guilds.analysis.ratings.rate` fits
Bradley-Terry ratings on the Elo scale (greedy = 0) with 95 % intervals from a bootstrap over
games. Also each bot's win share (R8.1, a shared win split) with a 95 % Wilson interval, and
each pair's head-to-head share.

    .venv/bin/python tools/bot_ratings.py --games 2100 --jobs 2 --json build/bot_ratings.json --docs docs/bots.md

``--docs`` rewrites the table between the markers ``<!-- ratings:start -->`` and
``<!-- ratings:end -->`` of that file. Several minutes: the strong bot searches.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from itertools import combinations
from pathlib import Path

from dungeon_guilds import Game
from dungeon_guilds.analysis.bots import make_bot
from dungeon_guilds.analysis.intervals import wilson
from dungeon_guilds.analysis.ratings import pair_counts, rate

ENTRANTS = ("random", "bully", "cooperator", "beginner", "intermediate", "greedy", "strong")
START, END = "<!-- ratings:start -->", "<!-- ratings:end -->"


def schedule(games: int, seed: int) -> list[tuple[int, tuple[str, ...]]]:
    """(game number, line-up): the sets of four in turn, each line-up rotated by the game."""
    sets = list(combinations(ENTRANTS, 4))
    out = []
    for g in range(games):
        four = sets[g % len(sets)]
        k = (g // len(sets)) % 4
        out.append((g, four[k:] + four[:k]))
    return out


def play(job: tuple[int, tuple[str, ...], int]) -> dict:
    g, lineup, seed = job
    game = Game(4, seed=f"{seed}/{g}")
    bots = [make_bot(name, seed=f"{seed}/{g}/{s}") for s, name in enumerate(lineup)]
    while not game.is_over:
        seat = game.current
        game.push(bots[seat].choose(game.state, seat))
    res = game.result()
    return {"game": g, "lineup": list(lineup), "gold": list(res.gold), "tiebreak": list(res.tiebreak),
            "winners": list(res.winners)}


def run(games: int, jobs: int, seed: int, partial: Path | None = None) -> list[dict]:
    """Play the schedule on ``jobs`` processes; every 100 games the rows so far are written
    to ``partial`` (if given), so a long run that is stopped can still be rated."""
    jobs_list = [(g, lineup, seed) for g, lineup in schedule(games, seed)]
    out: list[dict] = []
    t0 = time.time()
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        for k, row in enumerate(pool.map(play, jobs_list, chunksize=4), 1):
            out.append(row)
            if k % 100 == 0:
                print(f"{k}/{games} games, {time.time() - t0:.0f} s", file=sys.stderr)
                if partial is not None:
                    partial.parent.mkdir(parents=True, exist_ok=True)
                    partial.write_text(json.dumps({"rows": out}), "utf-8")
    return out


def summary(rows: list[dict], seed: int) -> dict:
    results = [(tuple(r["lineup"]), tuple(zip(r["gold"], r["tiebreak"]))) for r in rows]
    ratings = rate(results, anchor="greedy", boot=200, seed=seed)
    wins: dict[str, float] = {n: 0.0 for n in ENTRANTS}
    seats: dict[str, int] = {n: 0 for n in ENTRANTS}
    for r in rows:
        for s, name in enumerate(r["lineup"]):
            seats[name] += 1
            if s in r["winners"]:
                wins[name] += 1 / len(r["winners"])
    pw, pm = pair_counts(results)
    return {"games": len(rows), "seed": seed,
            "ratings": [{"bot": x.name, "elo": x.elo, "low": x.low, "high": x.high, "games": x.games,
                         "win_share": wins[x.name] / seats[x.name],
                         "win_low": wilson(wins[x.name], seats[x.name])[0],
                         "win_high": wilson(wins[x.name], seats[x.name])[1]} for x in ratings],
            "pairs": {f"{a} > {b}": [pw.get((a, b), 0.0), pm.get((a, b), 0)] for a in ENTRANTS for b in ENTRANTS
                      if a != b and pm.get((a, b))}}


def table(s: dict) -> str:
    lines = ["| bot | rating (Elo scale, greedy = 0) | 95 % interval | games | wins a game (fair: 0.25) | 95 % interval |",
             "| --- | ---: | --- | ---: | ---: | --- |"]
    for r in s["ratings"]:
        interval = "fixed at 0 (the anchor)" if r["bot"] == "greedy" else f"{r['low']:+.0f} to {r['high']:+.0f}"
        lines.append(f"| `{r['bot']}` | {r['elo']:+.0f} | {interval} | {r['games']} | "
                     f"{r['win_share']:.3f} | {r['win_low']:.3f}-{r['win_high']:.3f} |")
    w, m = s["pairs"].get("strong > greedy", [0, 1])
    lo, hi = wilson(w, m) if m else (0, 0)
    lines.append("")
    lines.append(f"Head to head in the same games, `strong` finished ahead of `greedy` in {w:g} of "
                 f"{m} games they both played ({w / m:.3f}, 95 % Wilson interval {lo:.3f}-{hi:.3f}).")
    return "\n".join(lines)


def write_docs(path: Path, text: str) -> None:
    doc = path.read_text("utf-8")
    if START not in doc or END not in doc:
        raise SystemExit(f"{path}: no {START} ... {END} markers")
    head, rest = doc.split(START, 1)
    _, tail = rest.split(END, 1)
    path.write_text(f"{head}{START}\n{text}\n{END}{tail}", "utf-8")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=2100)
    ap.add_argument("--jobs", type=int, default=min(2, os.cpu_count() or 1))
    ap.add_argument("--seed", type=int, default=30)
    ap.add_argument("--json", type=Path, help="write every game and the summary here")
    ap.add_argument("--from-json", type=Path, help="rate the games of an earlier run instead of playing")
    ap.add_argument("--docs", type=Path, help="rewrite the rating table in this Markdown file")
    args = ap.parse_args(argv)
    t0 = time.time()
    if args.from_json:
        rows = json.loads(args.from_json.read_text("utf-8"))["rows"]
    else:
        rows = run(args.games, args.jobs, args.seed, args.json)
    s = summary(rows, args.seed)
    s["seconds"] = time.time() - t0
    s["load"] = os.getloadavg()
    text = table(s)
    print(text)
    print(f"{len(rows)} games, {s['seconds']:.0f} s, load average {s['load'][0]:.1f}", file=sys.stderr)
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps({"summary": s, "rows": rows}), "utf-8")
    if args.docs:
        write_docs(args.docs, text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
