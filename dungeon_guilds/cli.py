"""The command line: ``dungeon-guilds replay | rules | lords | random-game | simulate | print-and-play``
(and the app's ``dashboard | notebooks | lab | site``).

Errors a user can cause (a bad record, a bad option) print one line on stderr and exit with
status 2, never a traceback. So does a command that needs an optional extra which is not
installed (``simulate``: the ``analysis`` extra): the line names the
extra and the ``pip install`` command (:mod:`dungeon_guilds.extras`).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path
from typing import Any, Sequence

from . import i18n
from .cards import load_deck
from .drawing.print_and_play import parse_lords, print_set, print_summary
from .errors import DeckError, RecordError, RulesError
from . import __version__
from .app.commands import CommandError
from .app.commands import add_parsers as add_app_parsers
from .app.site_command import add_parser as add_site_parser
from .lords import LordError
from .extras import MissingExtra
from .game import Game
from .record import dumps, load_record, to_record
from .reference import lords_listing, rules_listing
from .rules import Rules


class UsageError(Exception):
    pass


def _fail(message: str) -> int:
    print(f"dungeon-guilds: {message}", file=sys.stderr)
    return 2


def replay_summary(game: Game) -> dict[str, Any]:
    """What ``replay --json`` prints."""
    res = game.result()
    st = game.state
    out: dict[str, Any] = {
        "players": list(game.names),
        "rules": game.rules.to_dict(),
        "finished": res.finished,
        "gold": {name: g for name, g in zip(game.names, res.gold)},
        "winners": [game.names[s] for s in res.winners],
        "tiebreak": {name: t for name, t in zip(game.names, res.tiebreak)},
        "rounds": [
            {"round": r["round"], "lord": r["lord"], "rooms": r["rooms"], "cleared": r["cleared"],
             "gold": {name: g for name, g in zip(game.names, r["gold"])}}
            for r in st.round_results
        ],
        "moves": len(game.moves),
    }
    if res.team_gold is not None:
        out["teams"] = [
            {"members": [n for n, t in zip(game.names, st.team) if t == i],
             "gold": res.team_gold[i], "tiebreak": res.team_tiebreak[i]}
            for i in range(len(res.team_gold))
        ]
        out["winning_teams"] = list(res.winning_teams or ())
    if not res.finished:
        out["to_move"] = game.current_name
        out["round_now"] = st.round + 1
    return out


def _print_summary(s: dict[str, Any]) -> None:
    for r in s["rounds"]:
        gold = ", ".join(f"{n} ${g}" for n, g in r["gold"].items())
        print(f"Round {r['round']} ({r['lord']}): {r['cleared']}/{r['rooms']} rooms cleared; {gold}")
    if s["finished"]:
        print("Game over. Gold: " + ", ".join(f"{n} ${g}" for n, g in s["gold"].items()))
        if "teams" in s:
            for t in s["teams"]:
                print(f"  team {' + '.join(t['members'])}: ${t['gold']} (tie-break {t['tiebreak']})")
        win = s["winners"]
        if "teams" in s:
            teams = [" + ".join(s["teams"][i]["members"]) for i in s["winning_teams"]]
            print(("Winning team: " if len(teams) == 1 else "Shared victory, teams: ") + "; ".join(teams))
        else:
            print(("Winner: " if len(win) == 1 else "Shared victory: ") + ", ".join(win))
    else:
        print(f"Not finished: round {s['round_now']}, {s['to_move']} to move. Gold: "
              + ", ".join(f"{n} ${g}" for n, g in s["gold"].items()))


def cmd_replay(args: argparse.Namespace) -> int:
    try:
        game = load_record(args.file)
    except RecordError as err:
        return _fail(f"{args.file}: {err}")
    summary = replay_summary(game)
    if args.json:
        print(json.dumps(summary, ensure_ascii=False))
    else:
        _print_summary(summary)
    return 0


def cmd_rules(args: argparse.Namespace) -> int:
    listing = rules_listing()
    if args.json:
        print(json.dumps(listing, ensure_ascii=False, indent=1))
        return 0
    print("Rule options (see docs/rules.md; the rules explorer shows them too):")
    for o in listing["options"]:
        values = " / ".join("absent" if v is None else str(v).lower() for v in o["values"])
        print(f"  {o['name']}: {values} (default {str(o['default']).lower() if o['default'] is not None else 'absent'})"
              f"{'  [project ruling]' if o['ruling'] else ''}")
        print(f"      {o['description']}")
        print(f"      source: {o['source']}")
    print("Project rulings the engine always applies:")
    for r in listing["rulings"]:
        print(f"  {r['rule']}: {r['text']}")
    print("Points the French summary leaves unstated (R9.2, R9.3, R9.5; the Chinese rules apply):")
    for u in listing["unstated_in_fr"]:
        print(f"  {u['rule']}: {u['point']}")
    print(f"The Dungeon Lords: {len(listing['lords'])} (dungeon-guilds lords lists them)")
    return 0


def cmd_lords(args: argparse.Namespace) -> int:
    """The 11 lords (§7): id, names, base or promo, the effect in words, the rulings."""
    lang = args.lang
    lords = lords_listing(lang)
    if args.json:
        print(json.dumps({"lang": lang, "lords": lords}, ensure_ascii=False, indent=1))
        return 0
    t = lambda key, **v: i18n.t(key, lang, **v)  # noqa: E731
    promo = sum(lord["promo"] for lord in lords)
    print(t("lords.title", n=len(lords), base=len(lords) - promo, promo=promo))
    for lord in lords:
        print(f"  {lord['id']}: {lord['name_en']} {lord['name_zh']} [{t('lords.' + lord['kind'])}]")
        print(f"      {lord['effect']}")
        if lord["rulings"]:
            for r in lord["rulings"]:
                print(f"      {t('lords.ruling')} {r['rule']}: {r['text']}")
        else:
            print(f"      {t('lords.no_rulings')}")
    return 0


def cmd_print_and_play(args: argparse.Namespace) -> int:
    """Write the printable cards, player aid and rules sheet of a deck and lords (issue 29)."""
    deck = load_deck(args.deck) if args.deck else None
    lords = parse_lords(args.lords)
    if not args.out.lower().endswith((".html", ".htm")):
        return _fail(f"{args.out}: print and play writes an HTML page, not {Path(args.out).suffix or 'a file without an extension'} "
                     "(a PDF needs a browser to lay the cards out): write --out cards.html, open it in a "
                     "browser and print it, or choose Save as PDF in the print dialogue")
    try:
        ps = print_set(deck, lords, players=args.players, lang=args.lang, paper=args.paper, variant=args.variant,
                       cards=args.cards)
    except ValueError as err:
        return _fail(str(err))
    try:
        with open(args.out, "w", encoding="utf-8") as fh:
            fh.write(ps.html())
    except OSError as err:
        return _fail(f"{args.out}: cannot write ({err.strerror})")
    print(print_summary(ps, args.out))
    return 0


def _rules_from_args(args: argparse.Namespace) -> Rules:
    return Rules(lords=args.lords, teams=args.teams, npc=args.npc, edition=args.edition)


def cmd_random_game(args: argparse.Namespace) -> int:
    """Play a game from a seed — uniformly random legal moves, or the named bots per seat —
    and print (or write) its record."""
    try:
        rules = _rules_from_args(args)
        game = Game(args.players, seed=args.seed, rules=rules)
        players = _bots_for_seats(args.bots, args.players, args.seed) if args.bots else None
    except (RulesError, ValueError) as err:
        return _fail(str(err))
    chooser = random.Random(f"dungeon-guilds/{args.seed}/random-play")
    if players is None:
        game.exhaust_randomly()
    while not game.is_over:
        if players is None:
            game.push(chooser.choice(game.legal_actions()))
        else:
            st = game.state
            game.push(players[st.current].choose(st, st.current))
    if players is not None:
        game.comment = "bots: " + ", ".join(f"{name} {bot.name}" for name, bot in zip(game.names, players))
    text = dumps(to_record(game))
    if args.out:
        with open(args.out, "w", encoding="utf-8") as fh:
            fh.write(text)
    else:
        sys.stdout.write(text)
    return 0


def _bots_for_seats(spec: str, players: int, seed: int) -> list:
    """``greedy,random,...`` → one bot per seat (the list repeats if shorter). Needs the
    analysis extra."""
    try:
        from .analysis.bots import make_bot
    except MissingExtra as missing:
        raise ValueError(str(MissingExtra("dungeon-guilds random-game --bots", missing.extra,
                                          missing.module))) from None
    names = [b.strip() for b in spec.split(",") if b.strip()]
    if not names:
        raise ValueError("--bots: name at least one bot")
    return [make_bot(names[i % len(names)], seed=f"{seed}/{i}") for i in range(players)]


def _add_rule_flags(p: argparse.ArgumentParser) -> None:
    p.add_argument("--lords", choices=["none", "base", "all"], default="base")
    p.add_argument("--teams", choices=["2v2", "3v3", "2v2v2"], default=None)
    p.add_argument("--npc", action="store_true", help="NPC adventurers (R10.2)")
    p.add_argument("--edition", choices=["zh", "fr"], default="zh")


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):  # one line, status 2, no usage dump
        raise UsageError(message)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="dungeon-guilds", description="Dungeon Guilds (地城聯盟) rules engine tools")
    parser.add_argument("--version", action="version", version=f"dungeon-guilds {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    p = sub.add_parser("replay", help="play a game record and print a per-round summary")
    p.add_argument("file")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=cmd_replay)
    p = sub.add_parser("rules", help="list the rule options, the project's rulings (docs/rules.md), "
                       "the points the French summary leaves unstated and the lords")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_rules)
    p = sub.add_parser("lords", help="list the 11 Dungeon Lords: names, base or promo, effect, rulings")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--lang", choices=sorted(i18n.languages()), default="en",
                   help="language of the effects and rulings (en, zh)")
    p.set_defaults(func=cmd_lords)
    p = sub.add_parser("random-game",
                       help="play a game from a seed (random legal moves, or --bots); print the record")
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--bots", help="bots per seat, e.g. greedy,cooperator,bully,random")
    p.add_argument("--out", help="write the record to this file")
    _add_rule_flags(p)
    p.set_defaults(func=cmd_random_game)
    p = sub.add_parser("print-and-play", help="write printable cards (rooms, lords, adventurers, marker, "
                       "player aids) and a rules sheet as one HTML page to print")
    p.add_argument("--deck", help="a deck file (.toml or .csv); default: the reference deck")
    p.add_argument("--lords", default="base",
                   help="base, all, lord ids separated by commas, or a JSON file of lords (a game record works)")
    p.add_argument("--players", type=int, default=6, choices=[3, 4, 5, 6], help="seats to print adventurers for")
    p.add_argument("--lang", choices=sorted(i18n.languages()), default="en")
    p.add_argument("--paper", choices=["a4", "letter"], default="a4")
    p.add_argument("--variant", help="the variant's name printed on every card (default: the deck's and lords')")
    p.add_argument("--cards", default="all", metavar="WHICH",
                   help="which cards, comma-separated: all (default), changed (only those that differ from "
                        "the reference deck and the official lords), rooms, lords, adventurers, marker, aids, "
                        "level1-level3, a lord's id, rules (the rules sheet)")
    p.add_argument("--out", required=True, help="the HTML file to write (.html; open it in a browser and print it)")
    p.set_defaults(func=cmd_print_and_play)
    try:  # the simulator needs pandas (the analysis extra); the engine's commands do not
        from .analysis.cli_simulate import add_simulate_parser
    except MissingExtra as missing:  # listed all the same; running it says what to install
        p = sub.add_parser("simulate", help="play many bot games (needs the analysis extra)")
        p.set_defaults(func=None, missing=MissingExtra("dungeon-guilds simulate", missing.extra,
                                                       missing.module))
    else:
        add_simulate_parser(sub)
    from .workshop.cli_explore import add_explore_parser  # the design explorer (standard library)
    add_explore_parser(sub)
    add_app_parsers(sub)  # dashboard, notebooks, lab (app/commands.py)
    add_site_parser(sub)  # site (app/site_command.py)
    return parser


def _missing_extra(argv: Sequence[str], parser: argparse.ArgumentParser) -> MissingExtra | None:
    """The extra a command cannot run without (its options are not parsed then)."""
    if argv and argv[0] == "simulate":
        return parser.parse_args(["simulate"]).__dict__.get("missing")
    return None


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    argv = list(sys.argv[1:] if argv is None else argv)
    missing = _missing_extra(argv, parser)
    if missing is not None:
        return _fail(str(missing))
    try:
        args = parser.parse_args(argv)
    except UsageError as err:
        return _fail(str(err))
    try:
        return args.func(args)
    except (RecordError, RulesError, DeckError, LordError, MissingExtra, CommandError) as err:
        return _fail(str(err))
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
