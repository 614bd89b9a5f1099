"""Issue 48's figures: does what the review tells a learner hold at the table? (bench_review.py)

* ``worlds``  — item 2: worlds drawn by the knowledge module, replayed against each seat's public
  history (:func:`~dungeon_guilds.analysis.knowledge_check.contradiction`) over every phase, the
  three lords options, NPCs, teams and 3-6 players: contradictions (goal 0 of ≥ 10,000).
* ``standin`` — item 3: how often greedy's rule (the play-outs' stand-in for the strong bot)
  makes the strong bot's own choice, on the strong bot's decisions in games against greedy
  (goal ≥ 80 %); a tie of k best moves counts 1/k.
* ``hold``    — item 4: for a level at seat 1 against a field, each decision the judge marks is
  played again on fresh worlds from the seat's information set with the game continued by the
  *real bots* at the table (bot objects, their own random streams: the seat by its own level,
  the others by the field's): a "mistake" holds when the judge's best beats the move made by
  ≥ 10 points beyond 2 standard errors (goal ≥ 85 % of marks); a "good" mark hides a loss when
  the best beats the move made that way (goal ≤ 5 %). Wilson intervals on the shares.
* ``levels``  — item 5: the judge bot against each level in duplicate games (bench_review's duel).
* ``load``    — item 7: a whole review and the slowest hint while ``bench_tables.py`` (8 × 4)
  runs beside it in other processes.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
import time
from pathlib import Path

from dungeon_guilds import Game
from dungeon_guilds.analysis.bots import make_bot
from dungeon_guilds.analysis.intervals import wilson
from dungeon_guilds.analysis.judge import MISTAKE, GOOD, MISTAKE_AT, SIGNIFICANT, Budget, _mean_se
from dungeon_guilds.analysis.judge_review import judge_review
from dungeon_guilds.analysis.judge_worlds import Playout
from dungeon_guilds.analysis.knowledge import determinize
from dungeon_guilds.analysis.knowledge_check import contradiction
from dungeon_guilds.analysis.probability import action_values
from dungeon_guilds.rules import Rules
from dungeon_guilds.scoring import result
from dungeon_guilds.state import DISPATCH, OVER, SETUP

ROOT = Path(__file__).resolve().parents[1]
VARIANTS = (Rules(), Rules(lords="all"), Rules(lords="none"), Rules(npc=True), Rules(teams="2v2"),
            Rules(teams="3v3"))


def _play(names, seed, rules=Rules()):
    game = Game(len(names), seed=seed, rules=rules)
    bots = [make_bot(b, seed=f"{seed}/{i}") for i, b in enumerate(names)]
    while not game.is_over:
        game.push(bots[game.current].choose(game.state, game.current))
    return game


def _share_line(label, k, n):
    lo, hi = wilson(k, n)
    return f"{label}: {k} of {n} ({100 * k / max(n, 1):.1f} %, 95 % CI {100 * lo:.1f}-{100 * hi:.1f})"


def bench_worlds(target: int = 10_000, seed: str = "48") -> int:
    """Item 2: contradictions among ``target`` drawn worlds or more."""
    worlds = bad = games = 0
    by_phase: dict[str, int] = {}
    while worlds < target:
        rules = VARIANTS[games % len(VARIANTS)]
        n = 6 if rules.teams == "3v3" else 4 if rules.teams else 3 + games % (3 if rules.npc else 4)
        game = _play(["beginner"] * n, f"{seed}/worlds/{games}", rules)
        games += 1
        for ply in range(0, game.ply, 2):
            st = game.state_at(ply)
            for seat in range(st.n):
                w = determinize(st, seat, random.Random(f"{seed}/{games}/{ply}/{seat}"))
                worlds += 1
                by_phase[f"{st.phase} r{st.round + 1}"] = by_phase.get(f"{st.phase} r{st.round + 1}", 0) + 1
                bad += contradiction(game, ply, seat, w) is not None
    print(f"[worlds] {worlds} worlds drawn at every second decision of {games} games (3-6 players; lords "
          f"base/all/none, NPCs, 2v2, 3v3), each replayed against the seat's public history: "
          f"{bad} contradictions (goal 0)")
    print("  worlds by phase and round: " + ", ".join(f"{k} {v}" for k, v in sorted(by_phase.items())))
    return bad


def bench_standin(games: int = 6, seed: str = "48") -> float:
    """Item 3: greedy's agreement with the strong bot's own choices."""
    agree = total = 0.0
    for g in range(games):
        game = _play(["strong", "greedy", "greedy", "greedy"], f"{seed}/standin/{g}")
        for ply in range(game.ply):
            st = game.state_at(ply)
            legal = st.legal_actions()
            if st.current != 0 or st.phase not in (SETUP, DISPATCH) or len(legal) < 2:
                continue
            values = action_values(st, 0, legal=legal)
            top = max(values.values())
            best = [a for a in legal if values[a] >= top - 1e-9]
            total += 1
            agree += (game.line[ply] in best) / len(best)
    print(f"[standin] greedy's rule makes the strong bot's choice in {agree:.1f} of {total:.0f} decisions "
          f"({100 * agree / total:.1f} %; goal ≥ 80 %) — {games} games, strong at seat 1 against greedy")
    return agree / total


def _continued(state, move, seat, names, worlds: int, key: str) -> list[float]:
    """The seat's win share after ``move`` in ``worlds`` worlds of its information set, the game
    continued by the real bots ``names`` (the same bot seeds and worlds for every move)."""
    wins = []
    for w in range(worlds):
        det = determinize(state, seat, random.Random(f"{key}/{w}"))
        det.apply_unchecked(move)
        bots = [make_bot(b, seed=f"{key}/{w}/{q}") for q, b in enumerate(names)]
        while det.phase != OVER:
            det.apply_unchecked(bots[det.current].choose(det, det.current))
        res = result(det)
        wins.append(1.0 / len(res.winners) if seat in res.winners else 0.0)
    return wins


def _verdict(d, names, worlds, key):
    """(holds?, paired difference, its SE) of the judge's best over the move made, real bots."""
    best = _continued(d.state, d.best.action, d.seat, names, worlds, key)
    made = _continued(d.state, d.action, d.seat, names, worlds, key)
    diff, se = _mean_se([b - m for b, m in zip(best, made)])
    return diff >= MISTAKE_AT and diff > SIGNIFICANT * se, diff, se


def bench_hold(levels, fields, games: int, worlds: int, goods: int, seed: str = "48"):
    """Item 4: marks against the real continuation, per level and field."""
    budget = Budget()
    for field in fields:
        for level in levels:
            names = [level] + [field] * 3
            held = marks = hidden = good_n = 0
            for g in range(games):
                game = _play(names, f"{seed}/hold/{level}/{field}/{g}")
                review = list(judge_review(game, 0, budget, curve_worlds=1, models=names))[-1].review
                shown_goods = [d for d in review.decisions if d.mark == GOOD and d.n_moves > 1
                               and d.action != d.best.action]
                for k, d in enumerate(review.decisions):
                    if d.mark == MISTAKE:
                        ok, diff, se = _verdict(d, names, worlds, f"{seed}/hold/{g}/{d.ply}")
                        marks += 1
                        held += ok
                for d in shown_goods[:goods]:
                    ok, _, _ = _verdict(d, names, worlds, f"{seed}/good/{g}/{d.ply}")
                    good_n += 1
                    hidden += ok
            print(f"[hold] {level} at seat 1 against three {field} bots, {games} games, {worlds} worlds a move, "
                  f"the real bots continuing:")
            print("  " + _share_line("mistake marks whose best wins by ≥ 10 points beyond 2 SE", held, marks)
                  + " (goal ≥ 85 %)")
            print("  " + _share_line("good marks (move made not the best) hiding such a loss", hidden, good_n)
                  + " (goal ≤ 5 %)", flush=True)


def bench_load(seed: str = "48"):
    """Item 7: a review and the hints while 8 tables of 4 play in other processes."""
    from bench_review import bench_time  # the review's own timing, run while the tables play
    tables = subprocess.Popen([sys.executable, str(ROOT / "benchmarks" / "bench_tables.py"), "--tables", "8",
                               "--games", "3"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                              start_new_session=True)
    try:
        time.sleep(5)  # the table server started and the tables playing
        print("[load] while bench_tables.py --tables 8 --games 3 runs beside it:")
        bench_time(seed)
    finally:
        out, _ = tables.communicate(timeout=900)
        lines = [ln for ln in out.splitlines() if "median" in ln or "latency" in ln][:3]
        print("  bench_tables beside it: " + " | ".join(ln.strip() for ln in lines))


def bench_self_agreement(games: int = 3, seed: str = "48", k: int = 3) -> float:
    """Item 3's ceiling: how often the strong bot makes its own choice again (another seed, the
    same position): no cheaper policy can agree with it more often than it agrees with itself."""
    agree = total = 0
    for g in range(games):
        game = _play(["strong", "greedy", "greedy", "greedy"], f"{seed}/standin/{g}")
        for ply in range(game.ply):
            st = game.state_at(ply)
            if st.current != 0 or st.phase not in (SETUP, DISPATCH) or len(st.legal_actions()) < 2:
                continue
            for j in range(k):
                total += 1
                agree += make_bot("strong", seed=f"{seed}/again/{j}").choose(st, 0) == game.line[ply]
    print(f"[standin] the strong bot makes its own choice again (another seed) in {agree} of {total} tries "
          f"({100 * agree / total:.1f} %): the most any stand-in can agree with it")
    return agree / total
