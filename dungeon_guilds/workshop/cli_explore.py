"""``dungeon-guilds explore``: the design explorer's sensitivity map, and a goal search.

    dungeon-guilds explore [--deck FILE] [--players 4] [--bots random] [--games 2000] [--seed 1]
        [--jobs 2 | --scheduler ADDRESS] [--out map.json] [--json] [--lang en|zh]
    dungeon-guilds explore --goal level3_worth_it            # a challenge of challenges.toml
    dungeon-guilds explore --measure start_advantage --at-most -0.02 --knobs lock,heal
    dungeon-guilds explore --goal calmer_caveman --size 3    # pairs and triples of knobs over their ranges

``--scheduler ADDRESS`` (the ``dask`` extra) plays the games on an existing Dask cluster
(``tcp://host:8786``) through its ``Client.get_executor()``; the map is the same as on one
process for the same seeds. Without it ``--jobs N`` uses a process pool, as ``simulate``.
"""

from __future__ import annotations

import argparse
import json
import sys
from contextlib import contextmanager

from ..cards import load_deck
from ..extras import require
from .explorer import MEASURES, save_map, sensitivity_map
from .explorer_games import Settings

__all__ = ["add_explore_parser", "cmd_explore"]


def add_explore_parser(subparsers) -> argparse.ArgumentParser:
    p = subparsers.add_parser("explore", help="the design explorer: which knob moves which measure; "
                              "the smallest change that meets a goal")
    p.add_argument("--deck", help="a deck file (TOML or CSV); default the reference deck")
    p.add_argument("--players", type=int, default=4, choices=[3, 4, 5, 6])
    p.add_argument("--bots", default="random", help="one bot, or one per seat separated by commas")
    p.add_argument("--games", type=int, default=2000, help="games a version (the map) or the search's games")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--jobs", type=int, default=1, help="worker processes (not with --scheduler)")
    p.add_argument("--scheduler", help="the address of a Dask scheduler (needs the dask extra)")
    p.add_argument("--out", help="write the map as JSON to this file")
    p.add_argument("--json", action="store_true", help="print the map (or the search) as JSON")
    p.add_argument("--top", type=int, default=3, help="knobs shown per measure")
    p.add_argument("--lang", choices=["en", "zh"], default="en")
    p.add_argument("--goal", help="search for a challenge's goal (its id in challenges.toml)")
    p.add_argument("--measure", choices=sorted(MEASURES), help="search for your own goal on this measure")
    p.add_argument("--at-least", type=float, dest="at_least")
    p.add_argument("--at-most", type=float, dest="at_most")
    p.add_argument("--compare", choices=["change", "value"], default="change")
    p.add_argument("--margin", type=float, default=None, help="the check's half-width (default: a tenth of |target|)")
    p.add_argument("--knobs", default="", help="allowed knobs: kinds or ids, comma-separated (room, heal, lock, lord)")
    p.add_argument("--size", type=int, default=2, choices=[0, 1, 2, 3],
                   help="the search's last stage: changes of up to this many knobs anywhere in their ranges "
                        "(2: pairs, 3: triples; 0 or 1: no such stage)")
    p.set_defaults(func=cmd_explore)
    return p


@contextmanager
def _executor(address: str | None):
    """An Executor on the Dask cluster at ``address`` (None: no executor)."""
    if not address:
        yield None
        return
    require("dungeon-guilds explore --scheduler", "dask", "distributed")
    from distributed import Client

    client = Client(address, timeout="10s")
    try:
        yield client.get_executor()
    finally:
        client.close()


def cmd_explore(args: argparse.Namespace) -> int:
    """The map (or, with --goal / --measure, the search); a refusal is one line on stderr."""
    try:
        return _explore(args)
    except ValueError as err:  # bad settings, an unknown challenge or knob: said, not raised
        print(f"dungeon-guilds: {err}", file=sys.stderr)
        return 2


def _explore(args: argparse.Namespace) -> int:
    if args.games < 2 or args.games > 100_000:
        raise ValueError("--games must be between 2 and 100000")
    deck = load_deck(args.deck) if args.deck else None
    settings = Settings(args.players, tuple(b.strip() for b in args.bots.split(",") if b.strip()))
    settings.rules.check_players(args.players)
    with _executor(args.scheduler) as executor:
        jobs = 1 if executor is not None else args.jobs
        if args.goal or args.measure:
            from .cli_goals import run_goal

            return run_goal(args, deck, settings, jobs, executor)
        m = sensitivity_map(deck, settings, games=args.games, seed=args.seed, jobs=jobs, executor=executor)
    if args.out:
        save_map(m, args.out)
    if args.json:
        print(json.dumps(m.to_dict(), ensure_ascii=False))
        return 0
    _print_map(m, args.top, args.lang)
    return 0


def _print_map(m, top: int, lang: str) -> None:
    from .explorer_words import et, fmt, knob_name, measure_name

    knobs = {k["id"]: k for k in m.knobs}
    print(f"{m.meta['versions']} versions x {m.games} games, seed {m.seed}, {m.seconds:.1f} s")
    for measure in m.measures():
        unit = MEASURES[measure]
        ref = m.reference[measure]
        print(f"\n{measure_name(measure, lang)}: {fmt(ref[0], unit, lang)} [{fmt(ref[1], unit, lang)}, "
              f"{fmt(ref[2], unit, lang)}]")
        for c in m.ranked(measure)[:top]:
            step = et("step_up" if c["step"] > 0 else "step_down", lang)
            mark = et("clear" if c["p_holm"] < 0.05 else "not_clear", lang)
            print(f"  {knob_name(knobs[c['knob']], lang)} {step}: {fmt(c['value'], unit, lang, True)} "
                  f"[{fmt(c['low'], unit, lang, True)}, {fmt(c['high'], unit, lang, True)}] {mark}")
