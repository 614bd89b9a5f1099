"""``dungeon-guilds simulate``: many bot games from a seed, summarised (text, JSON or CSV).

    dungeon-guilds simulate --players 4 --games 10000 \\
        --bots greedy,random,bully,cooperator --seed 1 [--lords base] [--jobs 2] \\
        [--json | --csv FILE]

``--bots`` names one bot per seat (``name`` or ``name:noise``) or a single bot for every seat;
seats rotate from game to game unless ``--no-rotate``. A progress bar goes to stderr when
stderr is a terminal (``--progress`` / ``--no-progress`` force it). ``--json`` prints one object:
games, seconds, games_per_second, and win rates per seat and per bot with 95 % intervals.
``--csv FILE`` writes one row per game and seat (``-`` for stdout).
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from ..extras import require

require("dungeon_guilds.analysis.cli_simulate", "analysis", "pandas", "tqdm")

from ..errors import DeckError
from ..rules import RulesError, Rules

__all__ = ["add_simulate_parser", "cmd_simulate", "summary"]


def _fail(message: str) -> int:
    print(f"dungeon-guilds: {message}", file=sys.stderr)
    return 2


def add_simulate_parser(subparsers) -> argparse.ArgumentParser:
    """Register the ``simulate`` subcommand on an argparse ``subparsers`` object."""
    p = subparsers.add_parser(
        "simulate", help="play many bot games from a seed; print win rates per seat and per bot",
        description="Play many games between named bots and summarise them.")
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--games", type=int, default=1000)
    p.add_argument("--bots", default="random",
                   help="comma-separated bot per seat (name or name:noise), or one bot for all "
                        "seats; bots: random, cooperator, greedy, bully, mcts")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    p.add_argument("--no-rotate", action="store_true",
                   help="keep each bot in its seat (default: rotate seats game by game)")
    p.add_argument("--mcts-iterations", type=int, default=None,
                   help="budget of the mcts bot per move (default: the bot's own)")
    p.add_argument("--lords", choices=["none", "base", "all"], default="base")
    p.add_argument("--teams", choices=["2v2", "3v3", "2v2v2"], default=None)
    p.add_argument("--npc", action="store_true", help="NPC adventurers (R10.2)")
    p.add_argument("--edition", choices=["zh", "fr"], default="zh")
    out = p.add_mutually_exclusive_group()
    out.add_argument("--json", action="store_true", help="print one JSON object")
    out.add_argument("--csv", metavar="FILE", help="write one row per game and seat ('-': stdout)")
    prog = p.add_mutually_exclusive_group()
    prog.add_argument("--progress", dest="progress", action="store_true", default=None,
                      help="always show a progress bar on stderr")
    prog.add_argument("--no-progress", dest="progress", action="store_false")
    p.set_defaults(func=cmd_simulate)
    return p


def _rate_rows(keys: list, wins: list[float], key: str) -> list[dict[str, Any]]:
    """Win rate per value of ``key`` with its Wilson 95 % interval (as metrics' rate tables:
    a shared victory counts as a share)."""
    from .intervals import wilson

    n: dict[Any, int] = {}
    s: dict[Any, float] = {}
    for k, w in zip(keys, wins):
        n[k] = n.get(k, 0) + 1
        s[k] = s.get(k, 0.0) + w
    rows = []
    for k in sorted(n):
        low, high = wilson(s[k], n[k])
        rows.append({key: int(k) if key == "seat" else k, "n": n[k], "rate": s[k] / n[k],
                     "win_rate": round(s[k] / n[k], 4), "ci_low": round(low, 4),
                     "ci_high": round(high, 4)})
    return rows


def summary(res) -> dict[str, Any]:
    """What ``simulate --json`` prints, from a :class:`~.simulate.SimResult` or from
    :func:`~.simulate.simulate_columns`' ``(parts, meta)`` (then without pandas)."""
    from .simulate import merged_column

    if isinstance(res, tuple):
        parts, meta = res
        col = lambda name: merged_column(parts, "games", name)  # noqa: E731
    else:
        meta = res.meta
        col = lambda name: res.games[name].tolist()  # noqa: E731
    seats, bots, wins = col("seat"), col("bot"), col("win")
    games = int(meta.get("games", 0))
    seconds = meta["seconds"]
    by_seat = _rate_rows(seats, wins, "seat")
    rates = [r.pop("rate") for r in by_seat]
    by_bot = _rate_rows(bots, wins, "bot")
    for r in by_bot:
        del r["rate"]
    lengths: dict[int, int] = {}
    for g, a in zip(col("game"), col("actions")):
        lengths.setdefault(g, a)
    return {
        "games": games,
        "players": meta["players"],
        "bots": meta["bots"],
        "seed": meta["seed"],
        "rules": meta["rules"],
        "jobs": meta["jobs"],
        "seconds": round(seconds, 3),
        "games_per_second": round(games / seconds, 1) if seconds else None,
        "win_rate_by_seat": by_seat,
        "win_rate_by_bot": by_bot,
        "balance": round(1.0 - (max(rates) - min(rates)), 4) if games else None,  # metrics.balance
        "mean_actions": round(sum(lengths.values()) / len(lengths), 2) if games else None,
    }


def _print_text(s: dict[str, Any]) -> None:
    print(f"{s['games']} games, {s['players']} players, bots {','.join(s['bots'])}, seed {s['seed']}: "
          f"{s['seconds']} s ({s['games_per_second']} games/s)")
    fair = 1 / s["players"]
    print(f"Win rate per seat (seat 0 starts; fair share {fair:.3f}):")
    for r in s["win_rate_by_seat"]:
        print(f"  seat {r['seat']}: {r['win_rate']:.3f}  (95% CI {r['ci_low']:.3f}-{r['ci_high']:.3f})")
    print("Win rate per bot (per seat played):")
    for r in s["win_rate_by_bot"]:
        print(f"  {r['bot']:<14} {r['win_rate']:.3f}  (95% CI {r['ci_low']:.3f}-{r['ci_high']:.3f}, "
              f"{r['n']} seats)")
    if s["balance"] is not None:
        print(f"Balance (1 - largest seat gap): {s['balance']:.3f}; mean game length "
              f"{s['mean_actions']} actions")


def cmd_simulate(args: argparse.Namespace) -> int:
    from .simulate import simulate, simulate_columns

    bots = [b.strip() for b in args.bots.split(",") if b.strip()]
    if not bots:
        return _fail("--bots: name at least one bot")
    if args.games < 0:
        return _fail("--games must be at least 0")
    if args.jobs < 1:
        return _fail("--jobs must be at least 1")
    progress = args.progress
    if progress is None:
        progress = sys.stderr.isatty() and args.games >= 200
    options = {}
    if args.mcts_iterations is not None:
        options["mcts"] = {"iterations": args.mcts_iterations}
    try:
        rules = Rules(lords=args.lords, teams=args.teams, npc=args.npc, edition=args.edition)
        run = dict(seed=args.seed, rules=rules, jobs=args.jobs, progress=progress,
                   rotate=not args.no_rotate, bot_options=options)
        if args.csv:
            res = simulate(args.games, bots, args.players, **run)
        else:  # the summary needs no pandas: do not load it (a third of a short run's time)
            res = simulate_columns(args.games, bots, args.players, need_pandas=False, **run)
    except (RulesError, DeckError, ValueError, TypeError) as err:
        return _fail(str(err))
    if args.csv:
        if args.csv == "-":
            res.games.to_csv(sys.stdout, index=False)
        else:
            res.games.to_csv(args.csv, index=False)
            print(f"wrote {len(res.games)} rows to {args.csv}", file=sys.stderr)
        return 0
    s = summary(res)
    if args.json:
        print(json.dumps(s, ensure_ascii=False))
    else:
        _print_text(s)
    return 0


def main(argv=None) -> int:
    """Run ``simulate`` on its own: ``python -m dungeon_guilds.analysis.cli_simulate ...``."""
    parser = argparse.ArgumentParser(prog="dungeon-guilds")
    sub = parser.add_subparsers(dest="command", required=True)
    add_simulate_parser(sub)
    args = parser.parse_args(["simulate", *(sys.argv[1:] if argv is None else argv)])
    try:
        return args.func(args)
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
