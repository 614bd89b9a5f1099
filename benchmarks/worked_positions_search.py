"""Search real bot games for lesson 4's worked positions (issue 49, item 7). Not run by CI.

Four greedy bots play games with fixed seeds (``Game(NAMES, seed, Rules(lords="base"))``); at
every decision the judge (:func:`~dungeon_guilds.analysis.judge.judge`, each seat continued
by its model: the table's greedy bots) values the legal moves with the greedy move checked on
fresh worlds. A decision is printed as a JSON line when the judge's best beats the greedy move
by at least 10 points of win chance beyond 2 standard errors; its headline kind, the round,
whether the best is a bump (and of whom), and the seats' gold help to sort it into an idea
(``dungeon_guilds/teaching/worked_positions.py`` holds the chosen ones).

    nice -n 19 python benchmarks/worked_positions_search.py --seeds wp1-wp12 > /tmp/wp.jsonl
"""

from __future__ import annotations

import argparse
import json
import sys

from dungeon_guilds import Game, Rules
from dungeon_guilds.actions import BUMP
from dungeon_guilds.analysis.bots import make_bot
from dungeon_guilds.analysis.judge import Budget, judge
from dungeon_guilds.analysis.judge_headline import headline
from dungeon_guilds.analysis.judge_review import JudgedDecision
from dungeon_guilds.analysis.opponents import playout_for
from dungeon_guilds.state import SETUP

NAMES = ("Ann", "Bo", "Cy", "Di")
MODELS = ("greedy",) * 4
BUDGET = Budget(worlds=48, check=96)
GAP = 0.10


def seeds(spec: str) -> list[str]:
    lo, hi = (int(x) for x in spec.replace("wp", "").split("-"))
    return [f"wp{i}" for i in range(lo, hi + 1)]


def row(seed, moves, st, made, j) -> dict:
    d = JudgedDecision(len(moves), st.current, st.round + 1, made, j, st)
    b, m = j.best, j.of(made)
    owner = None
    if b.action.kind == BUMP:
        owner = st.slot(b.action.room - 1, b.action.slot)[0]
    return {"seed": seed, "ply": len(moves), "seat": st.current, "round": st.round + 1, "phase": st.phase,
            "moves": [str(x) for x in moves], "made": str(made), "best": str(b.action),
            "best_win": round(b.win, 3), "made_win": round(m.win, 3), "loss": round(m.loss, 3),
            "se": round(m.loss_se, 3), "bumps": owner, "head": headline(d).kind, "gold": list(st.gold),
            "bumped": [round(b.bumped, 2), round(m.bumped, 2)],
            "failed": [b.failed, m.failed], "earned": [round(b.earned, 2), round(m.earned, 2)],
            "others": {str(v.action): round(v.win, 3) for v in j.moves[:6]}}


def wanted(st, only: str) -> bool:
    """Which decisions to judge: ``all``, ``setup`` (the exhaust choices, R2.4), ``last``
    (the last round's, R8.1) or ``rest`` (rounds 2 and 3 with a 4 or 5 to place, R6.2)."""
    if only == "setup":
        return st.phase == SETUP
    if only == "last":
        return st.round == st.rounds - 1
    if only == "rest":  # rounds 2 and 3, a 4 or a 5 in hand (R6.2: what rests comes back later)
        return st.phase != SETUP and 0 < st.round < st.rounds - 1 and any(
            a.strength >= 4 for a in st.legal_actions())
    return True


def search(seed: str, only: str = "all") -> None:
    g = Game(list(NAMES), seed=seed, rules=Rules(lords="base"))
    bots = [make_bot("greedy", seed=f"{seed}/{q}") for q in range(4)]
    playout = playout_for(MODELS)
    moves = []
    while not g.is_over:
        st = g.state
        made = bots[st.current].choose(st, st.current)
        if len(st.legal_actions()) > 1 and wanted(st, only):
            j = judge(st.copy(), st.current, BUDGET, seed=0, playout=playout, check=made)
            m = j.of(made)
            if j.best.action != made and m.loss - 2 * m.loss_se >= GAP:
                print(json.dumps(row(seed, moves, st.copy(), made, j)), flush=True)
        g.push(made)
        moves.append(made)


def main(argv=None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--seeds", default="wp1-wp4")
    p.add_argument("--only", choices=("all", "setup", "last", "rest"), default="all")
    a = p.parse_args(argv)
    for s in seeds(a.seeds):
        search(s, a.only)
        print(f"# {s} done", file=sys.stderr, flush=True)


if __name__ == "__main__":
    main()
