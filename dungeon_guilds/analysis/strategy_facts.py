"""What strong play does, measured: the figures of the strategy lesson (issue 38, item 5).

Four ``strong`` bots (Monte Carlo tree search, 200 iterations a decision: the strongest level
measured, docs/bots.md) play each other; four ``greedy`` bots play the *same deals* (game ``g``
of seed ``s`` deals the same rooms and lords to both, so the two line-ups are compared game by
game). Four players, the base lords, the reference deck, seat 1 starts round 1 (R2.5) and the
marker moves one seat a round (R6.3), so each seat starts one round.

Each game leaves one compact *row* (:func:`play_row`): the winners, each seat's exhaust pair
(R2.4), each seat's first move of every round (the room it entered first), and every bump of
another player's adventurer (R4.4) with what it earned. :func:`facts` turns the rows into the
lesson's figures, each with its 95 % interval from :mod:`.intervals`; rates over the decisions
of many games use :func:`~.intervals.ratio_interval` (decisions of one game are not
independent: the interval counts the games, not the decisions).

The lesson ships the rows and the facts (``data/strategy_facts.json``, :func:`shipped`), with
the command that regenerates them::

    nice -n 19 python -m dungeon_guilds.analysis.strategy_facts --games 800 --seed 38 --jobs 2

Standard library only (the notebook loads the shipped file in a moment).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from importlib import resources
from pathlib import Path
from typing import Any, Sequence

from ..actions import BUMP, EXHAUST, SWAP
from ..cards import reference_deck
from ..events import RoomOutcome, resolution_events
from ..game import DEFAULT_NAMES, drawn_lords, shuffled_rooms
from ..rules import Rules
from ..scoring import result
from ..state import OVER, State
from . import intervals
from .bots import make_bot

FORMAT = "dungeon-guilds strategy facts 1"
BOTS = ("strong", "greedy")
PLAYERS = 4
SEED = 38
GAMES = 800
DATA = ("data", "strategy_facts.json")
PAIRS = tuple(f"{a}{b}" for a in range(1, 6) for b in range(a + 1, 6))  # R2.4: ten pairs
KIND_CODE = {"place": "p", BUMP: "b", SWAP: "s"}


# ---------------------------------------------------------------------- one game
def _bump_nets(held: State, bumps: list[tuple[int, int, int, int]]) -> list[int]:
    """What each bump of this round earned its player: the room's pay to them (R5.2) if the
    bumping adventurer is still in its slot and the room cleared, less its heal cost (R6.1) if
    the room failed, less the fee it paid (R4.4). ``held``: the dungeon as dispatch left it."""
    outcomes = resolution_events(held.preview_resolution())  # the engine's events, read by events.py
    cleared = {e.room: e.shares for e in outcomes if isinstance(e, RoomOutcome) and e.cleared}
    nets = []
    for seat, j, strength, fee in bumps:
        net = -fee
        if held.slot(j // 2, j % 2) == (seat, strength):
            room = j // 2 + 1
            if room in cleared:
                net += cleared[room].get(seat, 0)
            else:
                net -= held.heal[strength]
        nets.append(net)
    return nets


def play_row(game: int, seed: int | str, bot: str) -> str:
    """Game ``game`` of seed ``seed`` played by four ``bot`` bots, as one line of text:
    ``winners|pairs|first moves|bumps``. Winners: seat digits (0 = seat 1). Pairs: each seat's
    exhaust pair (R2.4), two digits a seat. First moves: a round each (``/`` between rounds),
    each seat's first move of the round in the order they came, five characters: seat, kind
    (``p`` place, ``b`` bump, ``s`` swap), strength, room (1 = the top, R2.3), the room's level.
    Bumps (R4.4): ``round level net`` each (net gold, signed), comma-separated."""
    gseed = f"{seed}/{game}"
    deck, rules = reference_deck(), Rules()
    st = State.new(DEFAULT_NAMES[:PLAYERS], shuffled_rooms(deck, gseed), drawn_lords(rules, PLAYERS, gseed),
                   deck.levels, deck.heal_costs, rules=rules, start=0, log=False)
    bots = [make_bot(bot, seed=f"{gseed}/{seat}") for seat in range(PLAYERS)]
    pairs = [""] * PLAYERS
    rounds: list[list[str]] = []
    firsts: list[str] = []
    seen: set[int] = set()
    pending: list[tuple[int, int, int, int]] = []
    bumps: list[str] = []
    while st.phase != OVER:
        p, legal = st.current, st.legal_actions()
        action = bots[p].choose(st, p, legal)
        if action.kind == EXHAUST:
            pairs[p] = f"{action.strength}{action.other}"
            st.apply_unchecked(action)
            continue
        level = st.rooms[action.room - 1].level
        if p not in seen:
            seen.add(p)
            firsts.append(f"{p}{KIND_CODE[action.kind]}{action.strength}{action.room}{level}")
        if action.kind == BUMP:
            pending.append((p, 2 * (action.room - 1) + action.slot, action.strength, sum(st.action_fees(action)[:2])))
        before, round_no = st.copy(), st.round
        st.apply_unchecked(action)
        if st.round != round_no or st.phase == OVER:  # dispatch ended: the round resolved
            if pending:
                held = before.after(action)
                bumps += [f"{round_no}{held.rooms[j // 2].level}{net:+d}"
                          for (_, j, _, _), net in zip(pending, _bump_nets(held, pending))]
            rounds.append(firsts)
            firsts, seen, pending = [], set(), []
    winners = "".join(str(w) for w in sorted(result(st).winners))
    return "|".join((winners, "".join(pairs), "/".join("".join(r) for r in rounds), ",".join(bumps)))


def _rows_chunk(args: tuple[Sequence[int], int | str, str]) -> list[str]:
    games, seed, bot = args
    return [play_row(g, seed, bot) for g in games]


def play_rows(games: int, seed: int | str, bot: str, jobs: int = 1, start: int = 0) -> list[str]:
    """Rows of games ``start`` … ``start + games - 1`` (each game determined by seed and number)."""
    numbers = list(range(start, start + games))
    if jobs <= 1:
        return _rows_chunk((numbers, seed, bot))
    chunks = [(numbers[k::jobs], seed, bot) for k in range(jobs)]
    with ProcessPoolExecutor(jobs) as pool:
        parts = list(pool.map(_rows_chunk, chunks))
    out: list[str] = [""] * games
    for k, part in enumerate(parts):
        out[k::jobs] = part
    return out


# ---------------------------------------------------------------------- rows -> per-game counts
def parse_row(row: str) -> dict[str, Any]:
    """A row back as plain data (see :func:`play_row`)."""
    winners, pairs, firsts, bumps = row.split("|")
    rounds = [[(int(m[0]), m[1], int(m[2]), int(m[3]), int(m[4])) for m in (r[k:k + 5] for k in range(0, len(r), 5))]
              for r in firsts.split("/")]
    return {"winners": [int(w) for w in winners],
            "pairs": [pairs[k:k + 2] for k in range(0, len(pairs), 2)],
            "rounds": rounds,
            "bumps": [(int(b[0]), int(b[1]), int(b[2:])) for b in bumps.split(",") if b]}


def counts(row: str) -> dict[str, tuple[float, float]]:
    """One game's (numerator, denominator) of every share-type figure, by key."""
    g = parse_row(row)
    out: dict[str, tuple[float, float]] = {}
    share = 1.0 / len(g["winners"]) if g["winners"] else 0.0
    win = [share if s in g["winners"] else 0.0 for s in range(PLAYERS)]
    for pair in PAIRS:
        seats = [s for s, p in enumerate(g["pairs"]) if p == pair]
        out[f"pair.{pair}"] = (len(seats), len(g["pairs"]))
        out[f"pair_win.{pair}"] = (sum(win[s] for s in seats), len(seats))
    for s in range(PLAYERS):
        out[f"seat_win.{s + 1}"] = (win[s], 1)
    firsts = [m for r in g["rounds"] for m in r]
    opens = [(r[0], k) for k, r in enumerate(g["rounds"]) if r and r[0][0] == k % PLAYERS]  # the start player's (R6.3)
    for room in range(1, PLAYERS + 1):
        out[f"first_room.{room}"] = (sum(m[3] == room for m in firsts), len(firsts))
        out[f"start_room.{room}"] = (sum(m[3] == room for m, _ in opens), len(opens))
    for strength in range(1, 6):
        out[f"start_strength.{strength}"] = (sum(m[2] == strength for m, _ in opens), len(opens))
    bumps = g["bumps"]
    out["bumps"] = (len(bumps), 1)
    for level in (1, 2, 3):
        at = [net for _, lv, net in bumps if lv == level]
        out[f"bump_level.{level}"] = (len(at), len(bumps))
        out[f"bump_paid.{level}"] = (sum(net > 0 for net in at), len(at))
    out["bump_paid.all"] = (sum(net > 0 for _, _, net in bumps), len(bumps))
    return out


def bump_nets(rows: Sequence[str], level: int | None = None) -> list[float]:
    """The net gold of every bump (R4.4) in ``rows`` (of one level, or all)."""
    return [float(net) for row in rows for _, lv, net in parse_row(row)["bumps"] if level in (None, lv)]


# ---------------------------------------------------------------------- the figures
PAIRED = ("pair.", "seat_win.", "first_room.", "start_room.", "start_strength.", "bumps")  # strong - greedy


def _fact(value: float, low: float, high: float, n: int, method: str) -> dict[str, Any]:
    return {"value": round(value, 6), "low": round(low, 6), "high": round(high, 6), "n": n, "method": method}


def bot_facts(rows: Sequence[str]) -> dict[str, dict[str, Any]]:
    """Every figure of one line-up's games: shares with :func:`~.intervals.ratio_interval`
    (over games), the win shares of seats with Wilson's, means with Student's t."""
    per_game = [counts(r) for r in rows]
    out: dict[str, dict[str, Any]] = {}
    for key in per_game[0]:
        num = [c[key][0] for c in per_game]
        den = [c[key][1] for c in per_game]
        n = int(sum(den))
        if key == "bumps":
            m, lo, hi = intervals.t_interval(num)
            out["bumps_per_game"] = _fact(m, lo, hi, len(rows), "mean over games, Student t")
        elif key.startswith("seat_win."):
            lo, hi = intervals.wilson(sum(num), len(rows))
            out[key] = _fact(sum(num) / len(rows), lo, hi, len(rows), "Wilson over games")
        elif n >= 20:  # fewer decisions than that: no figure (too few to say)
            r, lo, hi = intervals.ratio_interval(num, den)
            out[key] = _fact(r, lo, hi, n, "ratio over games, Wilson on the effective count")
    for level in (1, 2, 3, None):
        nets = bump_nets(rows, level)
        if len(nets) >= 20:
            m, lo, hi = intervals.t_interval(nets)
            out[f"bump_net.{level or 'all'}"] = _fact(m, lo, hi, len(nets), "mean over bumps, Student t")
    return out


def paired_facts(strong: Sequence[str], greedy: Sequence[str]) -> dict[str, dict[str, Any]]:
    """strong − greedy on the same deals, game by game (paired t on the per-game values)."""
    a, b = [counts(r) for r in strong], [counts(r) for r in greedy]
    out: dict[str, dict[str, Any]] = {}
    for key in a[0]:
        if not key.startswith(PAIRED):
            continue
        diffs = [x[key][0] / x[key][1] - y[key][0] / y[key][1] for x, y in zip(a, b) if x[key][1] and y[key][1]]
        t = intervals.paired_t(diffs, p_value=False)
        name = "bumps_per_game" if key == "bumps" else key
        out[name] = _fact(t["mean"], t["ci_low"], t["ci_high"], t["n"], "paired t over games (same deals)")
    return out


def facts(rows: dict[str, Sequence[str]]) -> dict[str, dict[str, Any]]:
    """All the lesson's figures, keyed ``strong.KEY``, ``greedy.KEY`` and ``diff.KEY`` (strong − greedy)."""
    out = {f"{bot}.{k}": v for bot in BOTS for k, v in bot_facts(rows[bot]).items()}
    out.update({f"diff.{k}": v for k, v in paired_facts(rows["strong"], rows["greedy"]).items()})
    return out


def build(games: int = GAMES, seed: int | str = SEED, jobs: int = 1) -> dict[str, Any]:
    """Play the games and return the data file's content (rows, figures, how to regenerate)."""
    t0 = time.perf_counter()
    rows = {bot: play_rows(games, seed, bot, jobs) for bot in BOTS}
    return data_from(rows, games, seed, time.perf_counter() - t0)


def data_from(rows: dict[str, list[str]], games: int, seed: int | str, seconds: float) -> dict[str, Any]:
    return {"format": FORMAT, "games": games, "seed": seed, "players": PLAYERS, "bots": list(BOTS),
            "command": f"nice -n 19 python -m dungeon_guilds.analysis.strategy_facts --games {games} --seed {seed} --jobs 2",
            "seconds": round(seconds, 1), "facts": facts(rows), "rows": rows}


# ---------------------------------------------------------------------- words for a figure
SHARES = ("pair.", "pair_win.", "seat_win.", "first_room.", "start_room.", "start_strength.", "bump_level.",
          "bump_paid.")


def _pct(x: float) -> int:
    return round(100 * x)


def _signed(x: float, fmt: str) -> str:
    text = format(x, fmt)
    if float(text) == 0:
        return text.lstrip("+-")  # no "+0.0", no "−0.0"
    return text.replace("-", "−")


def _money(x: float) -> str:
    text = _signed(x, "+.1f")
    return f"{text[0]}${text[1:]}" if text[0] in "+−" else f"${text}"  # +$1.3, −$0.4, $0.0


WORDS = {"en": ("{v} ({lo}–{hi})", "{v} ({lo} to {hi})", " points"),
         "zh": ("{v}（{lo}–{hi}）", "{v}（{lo} 到 {hi}）", " 個百分點")}


def say(key: str, facts_: dict[str, dict[str, Any]], lang: str = "en") -> str:
    """A figure as the lesson prints it, with its 95 % interval: a share ``41 % (38–44 %)``, a
    difference of shares in percentage points ``−59 points (−62 to −56)``, gold
    ``+$1.3 ($0.0 to +$1.8)``, a count ``1.8 (1.6–2.0)`` (繁體中文: ``41 %（38–44 %）``,
    ``−59 個百分點（−62 到 −56）``). Rounding keeps the estimate inside its interval."""
    f = facts_[key]
    v, lo, hi = f["value"], f["low"], f["high"]
    bare = key.split(".", 1)[1]
    span, range_, points = WORDS[lang]
    if key.startswith("diff.") and bare.startswith(SHARES):
        return range_.format(v=_signed(_pct(v), "+d") + points, lo=_signed(_pct(lo), "+d"), hi=_signed(_pct(hi), "+d"))
    if bare.startswith(SHARES):
        return span.format(v=f"{_pct(v)} %", lo=_pct(lo), hi=f"{_pct(hi)} %")
    if bare.startswith("bump_net"):
        return range_.format(v=_money(v), lo=_money(lo), hi=_money(hi))
    if key.startswith("diff."):
        return range_.format(v=_signed(v, "+.1f"), lo=_signed(lo, "+.1f"), hi=_signed(hi, "+.1f"))
    return span.format(v=_signed(v, ".1f"), lo=_signed(lo, ".1f"), hi=_signed(hi, ".1f"))


def shipped() -> dict[str, Any]:
    """The shipped data (``data/strategy_facts.json``): what the lesson and notebook 10 read."""
    text = resources.files(__package__).joinpath(*DATA).read_text("utf-8")
    return json.loads(text)


def save(data: dict[str, Any], path: Path) -> None:
    path.write_text(json.dumps(data, ensure_ascii=False, separators=(",", ":")) + "\n", "utf-8")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m dungeon_guilds.analysis.strategy_facts",
                                     description="Measure the strategy lesson's figures (self-play of strong and greedy).")
    parser.add_argument("--games", type=int, default=GAMES)
    parser.add_argument("--seed", default=str(SEED))
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--out", type=Path, default=Path(__file__).parent.joinpath(*DATA))
    args = parser.parse_args(argv)
    seed: int | str = int(args.seed) if args.seed.lstrip("-").isdigit() else args.seed
    data = build(args.games, seed, args.jobs)
    save(data, args.out)
    print(f"{args.games} games a line-up, seed {seed}: {data['seconds']} s; written to {args.out}")
    return 0


__all__ = ["BOTS", "GAMES", "PAIRS", "SEED", "bot_facts", "build", "counts", "data_from", "facts", "main",
           "paired_facts", "parse_row", "play_row", "play_rows", "say", "shipped"]

if __name__ == "__main__":
    sys.exit(main())
