"""Issue 38: is the review's judge stronger than the player, calibrated, and fast enough?

Prints the five figures of item 2 and the timings of item 3:

1. ``strong``: the share of the strong bot's decisions (seat 1 against three greedy bots) that
   the judge marks "mistake" (goal: at most 5 %), beside the one-round model's marks;
2. ``greedy``: the greedy bot's decisions (four greedy bots, seat 1) the judge marks, their
   win chance lost (measured on fresh worlds) and whether the strong bot plays the judge's move
   or greedy's there;
3. ``agree``: the judge's best move against a search of 10 times its budget, over the decisions
   where that search separates its best from the runner-up beyond its noise (goal: 85 %);
4. ``calib``: predicted win chance of the move made against the game's result, over positions of
   games between mixed bots: by decile (goal: within 3 points), raw (the play-outs' share) and
   mapped (``analysis.judge_calibration``, fitted by ``calibfit`` on the positions of seed
   ``<seed>/fit``, so these are held out), and the Brier score against the one-round model's (its
   expected gold made a win chance by a softmax whose scale is fitted on the same positions: the
   most favourable scale for it); writes ``docs/review/reliability.svg`` (mapped);
5. ``rating``: the ``judge`` bot rated with ``analysis.ratings`` against strong, greedy and
   intermediate (Bradley-Terry, greedy = 0, 95 % bootstrap intervals);
6. ``time``: one seat's whole review of a 4-player game, and the hint (the judge at one
   decision), CPU seconds and wall seconds, with the machine's load;
7. ``duel`` (not in the default run: about 15 s of CPU a deal): is the ``judge`` bot stronger
   than ``strong``? A duplicate comparison: each deal (``<seed>/duel/<g>``) is played from each
   of ``--duel-seats`` seats in a rotation, once with ``judge`` at the seat and once with
   ``strong``, three greedy bots at the others with the same seeds in both games; each bot's win
   share and final gold margin against that field, and the paired difference over deals, each
   with its 95 % interval, and the deals a difference of that size would need. The deal's luck
   and the field's choices are common to both games of a pair, so the difference is far less
   noisy than in a round robin (``rating``). ``--duel-field strong`` puts strong bots at the
   other seats (a field the judge's greedy play-outs do not model);
8. ``confirm`` (not in the default run: about 12 minutes of CPU for 16 games): every decision of
   the strong bot the judge marks "mistake" (``--confirm 0``: all of them in ``--games`` games;
   else the first N), played out again in ``--confirm-worlds`` worlds with the strong bot
   continuing for the seat, paired; how many are still a mistake by the judge's rule, a lower
   bound on the strong bot's own mistakes (``--jobs`` processes).

    PYTHONPATH=. nice -n 10 python benchmarks/bench_review.py --only strong,greedy --games 8
    PYTHONPATH=. nice -n 10 python benchmarks/bench_review.py --only calib --positions 2000
    PYTHONPATH=. nice -n 19 python benchmarks/bench_review.py --only calibfit --positions 2000 --worlds 32
    PYTHONPATH=. nice -n 19 python benchmarks/bench_review.py --only duel --deals 190 --save-duel build/duel.json
    PYTHONPATH=. python benchmarks/bench_review.py --only confirm --confirm 0 --games 16 --confirm-worlds 32

``--slip others,own`` plays the play-outs with slipping seats (``judge_worlds.Playout``; tried
for issue 38, off by default); ``--save-rows``/``--save-fit`` keep the positions' values (json) so
the tables can be printed again without the search.
Sizes are modest by default (the machine is shared); every figure says its sample size.
"""

from __future__ import annotations

import argparse
import math
import os
import random
import sys
import time
from collections import Counter
from pathlib import Path

from dungeon_guilds import Game
from dungeon_guilds.analysis.bots import make_bot
from dungeon_guilds.analysis.judge import MISTAKE, MISTAKE_AT, INACCURACY, Budget, judge
from dungeon_guilds.analysis.judge_review import judge_review
from dungeon_guilds.analysis.judge_worlds import Playout
from dungeon_guilds.analysis.ratings import rate
from dungeon_guilds.analysis.review import expected_gold_curve, review_game
from dungeon_guilds.scoring import result
from dungeon_guilds.state import DISPATCH, SETUP

ROOT = Path(__file__).resolve().parents[1]
SLIP = None  # the play-outs' slips (others, own), --slip; None: the judge's own (judge_worlds.SLIP)


def _playout():
    return Playout(*SLIP) if SLIP else Playout()

MIXED = ("greedy", "intermediate", "beginner", "strong", "cooperator")


def play(names, seed, n=4):
    """A game of bots ``names`` (one a seat), seeded."""
    game = Game(n, seed=seed)
    bots = [make_bot(b, seed=f"{seed}/{i}") for i, b in enumerate(names)]
    while not game.is_over:
        game.push(bots[game.current].choose(game.state, game.current))
    return game


def decisions(game, seats):
    """(ply, state, move made) of each decision of ``seats`` with more than one legal move."""
    for ply in range(game.ply):
        st = game.state_at(ply)
        if st.phase in (SETUP, DISPATCH) and st.current in seats and len(st.legal_actions()) > 1:
            yield ply, st, game.line[ply]


def wilson(k, n, z=1.96):
    if n == 0:
        return (0.0, 1.0)
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return (c - h, c + h)


def bench_strong(games, seed):
    marks, old, n, by_round = Counter(), Counter(), 0, Counter()
    po = _playout()
    for g in range(games):
        game = play(["strong", "greedy", "greedy", "greedy"], f"{seed}/strong/{g}")
        for d in review_game(game, [0]).decisions:
            if d.n_moves > 1:
                old[d.mark] += 1
        for ply, st, made in decisions(game, {0}):
            mark = judge(st, 0, playout=po, check=made).of(made).mark
            marks[mark] += 1
            by_round[st.round + 1] += mark == MISTAKE
            n += 1
    lo, hi = wilson(marks[MISTAKE], n)
    print(f"[strong] {games} games, strong in seat 1 vs 3 greedy, {n} decisions (more than one legal move):")
    print(f"  judge: mistake {marks[MISTAKE]} ({100 * marks[MISTAKE] / n:.1f} %, 95 % CI {100 * lo:.1f}-{100 * hi:.1f}), "
          f"inaccuracy {marks[INACCURACY]}, good {marks['good']}   (goal: mistakes <= 5 %)")
    print(f"  mistakes by round: {dict(sorted(by_round.items()))}; one-round model on the same decisions: {dict(old)}")


def bench_greedy(games, seed):
    po, n, found, losses = _playout(), 0, 0, []
    strong_judge = strong_greedy = 0
    for g in range(games):
        game = play(["greedy"] * 4, f"{seed}/greedy/{g}")
        for ply, st, made in decisions(game, {0}):
            n += 1
            j = judge(st, 0, playout=po, check=made)
            v = j.of(made)
            if v.mark == "good":
                continue
            found += 1
            losses.append((v.loss, v.loss_se))
            pick = make_bot("strong", seed=f"{seed}/{g}/{ply}").choose(st, 0)
            strong_judge += pick == j.best.action
            strong_greedy += pick == made
    mean = sum(x for x, _ in losses) / len(losses) if losses else 0.0
    se = math.sqrt(sum(s * s for _, s in losses)) / len(losses) if losses else 0.0
    print(f"[greedy] {games} four-greedy games, seat 1: {n} decisions; the judge disagrees (marks) {found}")
    print(f"  win chance the judge's move gains over greedy's there (fresh worlds): {100 * mean:.1f} points "
          f"(SE {100 * se:.1f})")
    print(f"  the strong bot in those positions plays the judge's move {strong_judge}, greedy's {strong_greedy}, "
          f"another {found - strong_judge - strong_greedy}")


def _strong_outcomes(st, move, worlds, seed):
    """The seat's win share after ``move`` in each of ``worlds`` worlds drawn from its view, when
    it then plays as the strong bot (others greedy): an independent check of the judge's greedy
    play-outs. World ``w`` and the strong bot's seed are the same whatever ``move`` is, so two
    moves are compared world by world."""
    from dungeon_guilds.analysis.judge_worlds import sample_world
    from dungeon_guilds.state import OVER
    seat, wins = st.current, []
    for w in range(worlds):
        det = sample_world(st, seat, random.Random(f"{seed}/confirm/{w}"))
        det.apply_unchecked(move)
        bots = [make_bot("strong", seed=w) if q == seat else make_bot("greedy", seed=q) for q in range(st.n)]
        while det.phase != OVER:
            det.apply_unchecked(bots[det.current].choose(det, det.current))
        res = result(det)
        wins.append(1 / len(res.winners) if seat in res.winners else 0.0)
    return wins


def _strong_then(st, move, worlds, seed):
    """The mean of :func:`_strong_outcomes`."""
    wins = _strong_outcomes(st, move, worlds, seed)
    return sum(wins) / worlds


def _confirm_one(job):
    st, made, best, worlds, seed = job
    a, b = _strong_outcomes(st, best, worlds, seed), _strong_outcomes(st, made, worlds, seed)
    d = [x - y for x, y in zip(a, b)]
    m = sum(d) / len(d)
    se = math.sqrt(sum((x - m) ** 2 for x in d) / (len(d) - 1) / len(d)) if len(d) > 1 else 0.0
    return st.round + 1, m, se


def bench_confirm(positions, worlds, seed, games=16, jobs=2):
    """The strong bot's decisions the judge marks "mistake" (the ``strong`` section's games; all of
    them in ``games`` games when ``positions`` is 0), played out again with the strong bot
    continuing for the seat, as the game was played: is the judge's move still better, and by a
    mistake's size beyond the noise? Those that are give a lower bound on the share of the strong
    bot's decisions that are mistakes with the strong bot's own continuation."""
    from concurrent.futures import ProcessPoolExecutor
    po, found, n, g = _playout(), [], 0, 0
    while (len(found) < positions if positions else g < games) and g < 40:
        game = play(["strong", "greedy", "greedy", "greedy"], f"{seed}/strong/{g}")
        g += 1
        for ply, st, made in decisions(game, {0}):
            n += 1
            j = judge(st, 0, playout=po, check=made)
            if j.of(made).mark == MISTAKE and (not positions or len(found) < positions):
                found.append((st, made, j.best.action, worlds, seed))
    with ProcessPoolExecutor(jobs) as pool:
        rows = list(pool.map(_confirm_one, found))
    ahead = sum(m > 0 for _, m, _ in rows)
    beyond = sum(m > 2 * se for _, m, se in rows)
    mistake = sum(m >= MISTAKE_AT and m > 2 * se for _, m, se in rows)
    mean = sum(m for _, m, _ in rows) / max(1, len(rows))
    se_mean = math.sqrt(sum(se * se for _, _, se in rows)) / max(1, len(rows))
    lo, hi = wilson(mistake, n)
    print(f"[confirm] {len(found)} strong-bot decisions marked mistake (of {n} in {g} games), each played out "
          f"again in {worlds} worlds with the strong bot continuing for the seat (others greedy), paired:")
    print(f"  the judge's move won more in {ahead}; beyond 2 SE in {beyond}; by 10 points or more beyond 2 SE "
          f"(a mistake by the judge's own rule) in {mistake}: {100 * mistake / max(1, n):.1f} % of the strong bot's "
          f"{n} decisions (95 % CI {100 * lo:.1f}-{100 * hi:.1f}), a lower bound on its mistakes")
    print(f"  mean difference {100 * mean:+.1f} points (SE {100 * se_mean:.1f}); by decision (round: points ± SE): "
          + ", ".join(f"{r}: {100 * m:+.0f}±{100 * se:.0f}" for r, m, se in rows))


def _separated(j):
    """The search separates its best move when every other move is behind it beyond 2 standard
    errors of the paired difference of win chance."""
    return len(j.moves) > 1 and all(m.loss > 2 * m.loss_se for m in j.moves[1:])


def bench_agree(positions, seed, k=10):
    rng = random.Random(f"{seed}/agree")
    po = _playout()
    seen = separated = agree = 0
    g = 0
    while seen < positions:
        game = play([rng.choice(MIXED) for _ in range(4)], f"{seed}/agree/{g}")
        g += 1
        pool = list(decisions(game, set(range(4))))
        for ply, st, made in rng.sample(pool, min(4, len(pool))):
            small = judge(st, st.current, playout=po, seed="small")
            big = judge(st, st.current, budget=Budget().times(k), playout=po, seed="big")
            seen += 1
            if _separated(big):
                separated += 1
                agree += small.best.action == big.best.action
    lo, hi = wilson(agree, separated)
    print(f"[agree] {seen} decisions from {g} mixed-bot games; the {k}x search separates its best in {separated}: "
          f"the judge agrees in {agree} ({100 * agree / max(1, separated):.1f} %, 95 % CI {100 * lo:.0f}-{100 * hi:.0f}; goal >= 85 %)")


def _softmax_win(curve_row, seat, scale):
    xs = [math.exp(scale * (v - max(curve_row))) for v in curve_row]
    return xs[seat] / sum(xs)


def _calib_rows(positions, seed, worlds, save=None):
    """(raw win share of the move made, worlds, result, one-round curve row, seat, game) of every
    decision (all seats) of seeded mixed-bot games, ``positions`` of them; cached in ``save``."""
    import json
    po = _playout()
    slips = [po.slip, po.own_slip]
    if save and Path(save).exists():
        data = json.loads(Path(save).read_text())
        if (data["seed"], data["worlds"], data["slip"]) == (seed, worlds, slips) and len(data["rows"]) >= positions:
            return [tuple(r) for r in data["rows"][:positions]], data["games"]
    rng = random.Random(f"{seed}/calib")
    rows, g = [], 0
    budget = Budget(worlds=worlds, min_worlds=worlds, batch=8, check=0)
    while len(rows) < positions:
        game = play([rng.choice(MIXED) for _ in range(4)], f"{seed}/calib/{g}")
        g += 1
        res = result(game.state)
        curve = expected_gold_curve(game)
        for ply in range(game.ply):
            st = game.state_at(ply)
            if st.phase not in (SETUP, DISPATCH):
                continue
            seat, made = st.current, game.line[ply]
            v = judge(st, seat, budget, playout=po, legal=[made]).best
            won = 1 / len(res.winners) if seat in res.winners else 0.0
            rows.append((v.win, v.n, won, list(curve[ply]), seat, g - 1))
    if save:
        Path(save).write_text(json.dumps(dict(seed=seed, worlds=worlds, slip=slips, games=g, rows=rows)))
    return rows[:positions], g


def _chi2_sf(x, df):
    """P(chi-square with ``df`` degrees of freedom > x): the regularized lower gamma's series."""
    s, t = df / 2, x / 2
    if t <= 0:
        return 1.0
    term = total = 1.0 / math.gamma(s + 1)
    k = 0
    while term > 1e-15 * total:
        k += 1
        term *= t / (s + k)
        total += term
    return max(0.0, 1.0 - math.exp(s * math.log(t) - t) * total)


def _reliability(pairs, label):
    """Print the decile table of (predicted, observed) pairs; its rows, largest gap and ECE."""
    bins = [[] for _ in range(10)]
    for p, y in pairs:
        bins[min(9, int(p * 10))].append((p, y))
    worst, table, beyond = 0.0, [], 0
    for i, b in enumerate(bins):
        if not b:
            continue
        mp, my = sum(p for p, _ in b) / len(b), sum(y for _, y in b) / len(b)
        se = math.sqrt(max(my * (1 - my), 1e-9) / len(b))
        worst = max(worst, abs(mp - my))
        beyond += abs(mp - my) > 2 * se
        table.append((i, len(b), mp, my, se))
        print(f"  {label} decile {i / 10:.1f}-{(i + 1) / 10:.1f}: {len(b):5d} positions, predicted {100 * mp:5.1f} %, "
              f"observed {100 * my:5.1f} % (SE {100 * se:.1f})")
    ece = sum(k * abs(mp - my) for _, k, mp, my, _ in table) / len(pairs)
    hl = sum(k * (my - mp) ** 2 / max(mp * (1 - mp), 1e-9) for _, k, mp, my, _ in table)
    print(f"  {label}: largest gap {100 * worst:.1f} points (goal <= 3); expected calibration error "
          f"{100 * ece:.1f} points; deciles off by more than 2 SE: {beyond} of {len(table)}; "
          f"Hosmer-Lemeshow {hl:.1f} on {len(table)} deciles (p = {_chi2_sf(hl, len(table)):.3f})")
    return table


def _rows_from(files):
    """The positions of several ``--save-rows`` files (other seeds: every game its own cluster)."""
    import json
    rows, games = [], 0
    for f in files:
        data = json.loads(Path(f).read_text())
        rows += [(*r[:5], f"{data['seed']}/{r[5] if len(r) > 5 else -1}") for r in data["rows"]]
        games += data["games"]
        print(f"  {f}: seed {data['seed']}, {len(data['rows'])} positions of {data['games']} games, "
              f"{data['worlds']} worlds, slips {data['slip']}")
    return rows, games


def _reliability_equal(pairs, clusters, label, within=0.03):
    """The deciles of risk (``judge_calibration.deciles``: equal counts, each gap's 95 % interval
    on the positions' effective count) printed, with how many are within 3 points as estimates and how
    many are shown within them (the whole interval)."""
    from dungeon_guilds.analysis.judge_calibration import deciles
    rows = deciles(pairs, clusters)
    for b, d in enumerate(rows):
        print(f"  {label} decile of risk {b + 1:2d}: {d.n:5d} positions, predicted {100 * d.predicted:5.1f} %, observed "
              f"{100 * d.observed:5.1f} %, gap {100 * d.gap:+5.1f} (95 % CI {100 * d.low:+.1f} to {100 * d.high:+.1f}, "
              f"Wilson, effective count){'' if abs(d.gap) <= within else '  <- more than 3 points'}")
    worst = max(abs(d.gap) for d in rows)
    print(f"  {label}, deciles of risk: largest gap {100 * worst:.1f} points (goal <= 3); within 3 points: "
          f"{sum(abs(d.gap) <= within for d in rows)} of {len(rows)}; shown within 3 points (the whole interval): "
          f"{sum(d.shown_within(within) for d in rows)} of {len(rows)}")
    return rows


def bench_calib(positions, seed, worlds, svg, save=None, rows_from=None):
    from dungeon_guilds.analysis.judge_calibration import A, B, calibrated
    if rows_from:
        rows, games = _rows_from(rows_from)
    else:
        rows, games = _calib_rows(positions, seed, worlds, save)
        rows = [(*r[:5], f"{seed}/{r[5] if len(r) > 5 else -1}") for r in rows]
    clusters = [(r[5], r[4]) for r in rows]  # a seat in a game: its positions share one result
    rows = [r[:5] for r in rows]
    n = len(rows)
    brier = sum((p - y) ** 2 for p, _, y, _, _ in rows) / n
    cal = [(calibrated(p, k), y) for p, k, y, _, _ in rows]
    brier_cal = sum((p - y) ** 2 for p, y in cal) / n
    best_scale, old = None, 9.0
    for scale in [0.05 * i for i in range(1, 41)]:
        b = sum((_softmax_win(c, s, scale) - y) ** 2 for _, _, y, c, s in rows) / n
        if b < old:
            best_scale, old = scale, b
    print(f"[calib] {n} positions (every decision, all seats) of {games} games of mixed bots {MIXED}, "
          f"{worlds} worlds each, play-out slips {SLIP or 'default'}; the map (A {A:+.3f}, B {B:.3f}) was fitted on other positions:")
    print(f"  Brier score: judge raw {brier:.4f}, mapped {brier_cal:.4f}; one-round model {old:.4f} (softmax of "
          f"expected gold, scale {best_scale:.2f} fitted on these positions); always-1/4 "
          f"{sum((0.25 - y) ** 2 for _, _, y, _, _ in rows) / n:.4f}")
    _reliability([(p, y) for p, _, y, _, _ in rows], "raw")
    _reliability(cal, "mapped")
    risk = _reliability_equal(cal, clusters, "mapped")
    if svg:
        write_svg([(d.n, d.predicted, d.observed, d.predicted + d.low, d.predicted + d.high) for d in risk],
                  Path(svg), brier_cal, old, n)
        print(f"  reliability plot (mapped): {svg}")


def bench_calibfit(positions, seed, worlds, save=None, rows_from=None):
    """Fit the map of ``analysis.judge_calibration`` on the positions of seed ``<seed>/fit``, or
    on those of ``--rows-from`` files (``--only calib --save-rows`` of other seeds)."""
    from dungeon_guilds.analysis.judge_calibration import fit
    if rows_from:
        rows, games = _rows_from(rows_from)
        where = ", ".join(rows_from)
    else:
        rows, games = _calib_rows(positions, f"{seed}/fit", worlds, save)
        where = f"seed {seed}/fit"
    a, b = fit((p, k, y) for p, k, y, *_ in rows)
    print(f"[calibfit] {len(rows)} positions of {games} games ({where}), {worlds} worlds, slips {SLIP or 'default'}: "
          f"A = {a:.4f}, B = {b:.4f}  (put them in dungeon_guilds/analysis/judge_calibration.py)")


def write_svg(table, path, brier, old, n):
    """A small reliability diagram: predicted (x) against observed (y), each decile of risk's 95 %
    interval as a bar, the diagonal. ``table``: (positions, predicted, observed, low, high)."""
    W, H, M = 360, 360, 44
    def xy(p, q):
        return M + p * (W - 2 * M), H - M - q * (H - 2 * M)
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" viewBox="0 0 {W} {H}" '
             'font-family="sans-serif" font-size="11">',
             f'<rect width="{W}" height="{H}" fill="white"/>']
    x0, y0 = xy(0, 0)
    x1, y1 = xy(1, 1)
    parts.append(f'<line x1="{x0}" y1="{y0}" x2="{x1}" y2="{y1}" stroke="#999" stroke-dasharray="4 3"/>')
    parts.append(f'<rect x="{x0}" y="{y1}" width="{x1 - x0}" height="{y0 - y1}" fill="none" stroke="#333"/>')
    for t in (0, 0.5, 1):
        a, b = xy(t, 0)
        parts.append(f'<text x="{a}" y="{b + 14}" text-anchor="middle">{int(t * 100)} %</text>')
        a, b = xy(0, t)
        parts.append(f'<text x="{a - 4}" y="{b + 4}" text-anchor="end">{int(t * 100)} %</text>')
    for k, mp, my, low, high in table:
        a, b = xy(mp, my)
        lo, hi = xy(mp, max(0, low))[1], xy(mp, min(1, high))[1]
        parts.append(f'<line x1="{a - 4:.1f}" y1="{lo:.1f}" x2="{a + 4:.1f}" y2="{lo:.1f}" stroke="#1f77b4" stroke-width="1.5"/>')
        parts.append(f'<line x1="{a - 4:.1f}" y1="{hi:.1f}" x2="{a + 4:.1f}" y2="{hi:.1f}" stroke="#1f77b4" stroke-width="1.5"/>')
        parts.append(f'<line x1="{a:.1f}" y1="{lo:.1f}" x2="{a:.1f}" y2="{hi:.1f}" stroke="#1f77b4" stroke-width="1.5"/>')
        parts.append(f'<circle cx="{a:.1f}" cy="{b:.1f}" r="2.5" fill="#1f77b4"/>')
    parts.append(f'<text x="{W / 2}" y="16" text-anchor="middle">judge, mapped: predicted vs observed ({n} held-out)</text>')
    parts.append(f'<text x="{W / 2}" y="31" text-anchor="middle">Brier {brier:.3f} (one-round model {old:.3f})</text>')
    parts.append(f'<text x="{W / 2}" y="{H - 8}" text-anchor="middle">predicted (deciles of risk; bars: 95 % intervals)</text>')
    parts.append(f'<text x="12" y="{H / 2}" transform="rotate(-90 12 {H / 2})" text-anchor="middle">observed</text>')
    parts.append("</svg>")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(parts) + "\n", encoding="utf-8")


def bench_rating(games, seed):
    line = ["judge", "strong", "greedy", "intermediate"]
    results = []
    for g in range(games):
        names = line[g % 4:] + line[:g % 4]  # seats rotated
        game = play(names, f"{seed}/rating/{g}")
        res = result(game.state)
        results.append((tuple(names), tuple((res.gold[s], res.tiebreak[s]) for s in range(4))))
    wins = Counter()
    for names, keys in results:
        top = max(keys)
        tied = [names[s] for s in range(4) if keys[s] == top]
        for t in tied:
            wins[t] += 1 / len(tied)
    print(f"[rating] {games} four-player games of {line}, seats rotated (Bradley-Terry, greedy = 0, 95 % bootstrap):")
    for r in rate(results, anchor="greedy", seed=seed):
        print(f"  {r.name:13s} {r.elo:+5.0f}  ({r.low:+.0f} to {r.high:+.0f})  games {r.games}, wins a game {wins[r.name] / games:.3f}")


DUEL_FIELD = "greedy"


def duel_pair(bots, seat, deal_seed, field=DUEL_FIELD):
    """One deal played once for each bot of ``bots`` at ``seat``, the other seats ``field`` bots:
    the same deal (the game's seed) and the same seeds for the field's bots (``play`` seeds seat
    ``i``'s bot ``<seed>/<i>`` whatever the bots are), so the games differ only by the seat's bot
    (common random numbers; the engine draws nothing after the set-up). A list of (win share,
    final gold margin, CPU seconds, game) a bot: the margin is the seat's gold minus the best
    other seat's."""
    out = []
    for bot in bots:
        names = [field] * 4
        names[seat] = bot
        c = time.process_time()
        game = play(names, deal_seed)
        cpu = time.process_time() - c
        res = result(game.state)
        win = 1 / len(res.winners) if seat in res.winners else 0.0
        margin = res.gold[seat] - max(res.gold[q] for q in range(4) if q != seat)
        out.append((win, margin, cpu, game))
    return out


def duel_seats(g, seats):
    """The seats deal ``g`` is played from: ``seats`` of the four in a rotation (all four: each)."""
    return [(g + k) % 4 for k in range(seats)]


def duel_labels(bots):
    """The bots' names, numbered when both are the same bot (a duel of a bot with itself)."""
    return list(bots) if len(set(bots)) == len(bots) else [f"{b} ({i + 1})" for i, b in enumerate(bots)]


def duel_rows(bots, deals, seats, seed, save=None, field=DUEL_FIELD):
    """Per deal: {"seat": [...], label: [(win, margin, cpu), ...] a seat}; kept in ``save`` (json)
    after each deal, and resumed from it when its bots, seats, seed and field are these."""
    import json
    key = dict(bots=list(bots), seats=seats, seed=seed, field=field)
    labels, rows = duel_labels(bots), []
    if save and Path(save).exists():
        data = json.loads(Path(save).read_text())
        if all(data.get(k) == v for k, v in key.items()):
            rows = data["rows"][:deals]
    for g in range(len(rows), deals):
        row = {"seat": duel_seats(g, seats)}
        for b in labels:
            row[b] = []
        for s in row["seat"]:
            for b, (win, margin, cpu, _) in zip(labels, duel_pair(bots, s, f"{seed}/duel/{g}", field)):
                row[b].append((win, margin, cpu))
        rows.append(row)
        print(f"  deal {g}: " + "; ".join(f"{b} wins {sum(w for w, _, _ in row[b]):g}/{len(row['seat'])}, "
                                          f"margin {sum(m for _, m, _ in row[b]):+d}" for b in labels), flush=True)
        if save:
            Path(save).parent.mkdir(parents=True, exist_ok=True)
            Path(save).write_text(json.dumps(dict(key, rows=rows)))
    return rows


def duel_summary(rows, bots):
    """Each bot's win share (a ratio over deals: the seats of one deal are not independent) and
    mean margin, each with its 95 % interval; the paired differences ``bots[0] − bots[1]`` over
    deals; CPU seconds a game; the games one bot won and the other did not. Keyed by label."""
    from dungeon_guilds.analysis.intervals import paired_t, ratio_interval, t_interval
    bots = duel_labels(bots)
    a, b = bots
    n = [len(r["seat"]) for r in rows]
    out = {"deals": len(rows), "games": sum(n)}
    for bot in bots:
        wins = [sum(w for w, _, _ in r[bot]) for r in rows]
        out[bot] = dict(win=ratio_interval(wins, n),
                        margin=t_interval([sum(m for _, m, _ in r[bot]) / k for r, k in zip(rows, n)]),
                        cpu=sum(c for r in rows for _, _, c in r[bot]) / sum(n))
    out["win_diff"] = paired_t([sum(x[0] - y[0] for x, y in zip(r[a], r[b])) / k for r, k in zip(rows, n)])
    out["margin_diff"] = paired_t([sum(x[1] - y[1] for x, y in zip(r[a], r[b])) / k for r, k in zip(rows, n)])
    out["only"] = {a: sum(x[0] > y[0] for r in rows for x, y in zip(r[a], r[b])),
                   b: sum(y[0] > x[0] for r in rows for x, y in zip(r[a], r[b]))}
    return out


def bench_duel(deals, seats, seed, bots=("judge", "strong"), save=None, field=DUEL_FIELD):
    """Issue 38: is the judge stronger than the strong bot? A duplicate comparison against the same
    field (greedy bots by default: the judge's play-out policy, so also tried against others),
    paired over deals."""
    from dungeon_guilds.analysis.intervals import games_needed
    rows = duel_rows(bots, deals, seats, seed, save, field)
    s = duel_summary(rows, bots)
    bots = duel_labels(bots)
    a, b = bots
    print(f"[duel] {s['deals']} deals (seed {seed}), each played from {seats} seat(s) in a rotation, "
          f"once with {a} and once with {b} at that seat, three {field} bots at the others "
          f"(the same deal and field seeds): {s['games']} games a bot")
    for bot in bots:
        w, m = s[bot]["win"], s[bot]["margin"]
        print(f"  {bot:8s} win share {w[0]:.3f} (95 % CI {w[1]:.3f}-{w[2]:.3f}; fair 0.25), final gold margin "
              f"{m[0]:+.2f} (95 % CI {m[1]:+.2f} to {m[2]:+.2f}), {s[bot]['cpu']:.3f} s CPU a game")
    d, dm = s["win_diff"], s["margin_diff"]
    print(f"  {a} - {b}, paired over deals: win share {d['mean']:+.3f} (95 % CI {d['ci_low']:+.3f} to "
          f"{d['ci_high']:+.3f}, p = {d['p']:.3f}, sd a deal {d['sd']:.3f}); margin {dm['mean']:+.2f} "
          f"(95 % CI {dm['ci_low']:+.2f} to {dm['ci_high']:+.2f}, p = {dm['p']:.3f})")
    print(f"  games (the same deal and seat) where {a} won a larger share of the victory than {b}: "
          f"{s['only'][a]}; the other way: {s['only'][b]}")
    for delta in sorted({round(abs(d["mean"]), 3), 0.05}):
        if delta > 0 and d["sd"] > 0:
            k = games_needed(delta, paired_sd=d["sd"])
            print(f"  deals needed to show a true difference of {delta:.3f} (80 % power, 5 % two-sided, "
                  f"sd {d['sd']:.3f} a deal): {k}")
    return s


def bench_time(seed):
    load = os.getloadavg()
    game = play(["greedy", "strong", "intermediate", "greedy"], f"{seed}/time")
    c0, w0 = time.process_time(), time.perf_counter()
    review = None
    for step in judge_review(game, 0):
        review = step.review
    c1, w1 = time.process_time(), time.perf_counter()
    worst = worst_cpu = 0.0
    po = _playout()
    hint = Budget(worlds=32, min_worlds=16, check=0)  # widgets.review.HINT_BUDGET
    for ply, st, made in decisions(game, {0, 1, 2, 3}):
        t, c = time.perf_counter(), time.process_time()
        judge(st, st.current, hint, playout=po)
        worst = max(worst, time.perf_counter() - t)
        worst_cpu = max(worst_cpu, time.process_time() - c)
    print(f"[time] load average {load[0]:.1f} {load[1]:.1f} {load[2]:.1f} (2 cores, shared):")
    print(f"  one seat's whole review of a 4-player game ({len(review.decisions)} decisions, win-chance curve "
          f"of every seat): {c1 - c0:.1f} s CPU, {w1 - w0:.1f} s wall (goal <= 15 s)")
    print(f"  hint (the judge at one decision, 32 worlds at most), slowest of the game's decisions: "
          f"{worst_cpu:.2f} s CPU, {worst:.2f} s wall (goal <= 2 s)")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--only", default="worlds,standin,hold,levels,load",
                    help="issue 48's figures by default (review_truth.py); also strong, greedy, agree, calib, "
                         "calibfit, rating, time, duel, confirm")
    ap.add_argument("--worlds-target", type=int, default=10_000, help="worlds drawn for --only worlds")
    ap.add_argument("--hold-levels", default="beginner,intermediate,strong")
    ap.add_argument("--hold-fields", default="greedy,strong")
    ap.add_argument("--hold-games", type=int, default=4, help="games a level and field for --only hold")
    ap.add_argument("--hold-worlds", type=int, default=48, help="fresh worlds a move for --only hold")
    ap.add_argument("--hold-goods", type=int, default=3, help="good marks a game checked for --only hold")
    ap.add_argument("--levels-deals", type=int, default=12, help="deals a level for --only levels")
    ap.add_argument("--games", type=int, default=6, help="games for strong and greedy")
    ap.add_argument("--positions", type=int, default=2000, help="positions for calibration")
    ap.add_argument("--worlds", type=int, default=32, help="worlds per position for calibration")
    ap.add_argument("--agree", type=int, default=40, help="decisions for the 10x agreement")
    ap.add_argument("--rating-games", type=int, default=40)
    ap.add_argument("--confirm", type=int, default=4, help="strong-bot mistakes played out again (0: all in --games games)")
    ap.add_argument("--confirm-worlds", type=int, default=20)
    ap.add_argument("--jobs", type=int, default=2, help="processes for confirm")
    ap.add_argument("--seed", default="38")
    ap.add_argument("--svg", default=str(ROOT / "docs" / "review" / "reliability.svg"))
    ap.add_argument("--save-rows", default=None, help="cache the calib positions' values here (json)")
    ap.add_argument("--rows-from", default=None, help="calib, calibfit: the positions of these --save-rows files (comma-separated), no search")
    ap.add_argument("--save-fit", default=None, help="cache the calibfit positions' values here (json)")
    ap.add_argument("--slip", default=None, help="play-out slips 'others,own' (default: the judge's own)")
    ap.add_argument("--deals", type=int, default=8, help="deals for the duel (each played from --duel-seats seats)")
    ap.add_argument("--duel-seats", type=int, default=4, choices=range(1, 5), help="seats a deal, in a rotation")
    ap.add_argument("--duel-bots", default="judge,strong", help="the two bots the duel compares")
    ap.add_argument("--save-duel", default=None, help="keep the duel's games here (json) and resume from it")
    ap.add_argument("--duel-field", default=DUEL_FIELD, help="the bot at the duel's other three seats")
    a = ap.parse_args(argv)
    global SLIP
    SLIP = tuple(float(x) for x in a.slip.split(",")) if a.slip else None
    only = set(a.only.split(","))
    print(f"bench_review: {' '.join(sys.argv[1:]) or '(defaults)'}; load {os.getloadavg()[0]:.1f}", flush=True)
    steps = [("strong", lambda: bench_strong(a.games, a.seed)),
             ("confirm", lambda: bench_confirm(a.confirm, a.confirm_worlds, a.seed, a.games, a.jobs)), ("greedy", lambda: bench_greedy(a.games, a.seed)),
             ("agree", lambda: bench_agree(a.agree, a.seed)),
             ("calibfit", lambda: bench_calibfit(a.positions, a.seed, a.worlds, a.save_fit,
                                                 a.rows_from.split(",") if a.rows_from else None)),
             ("calib", lambda: bench_calib(a.positions, a.seed, a.worlds, a.svg, a.save_rows,
                                           a.rows_from.split(",") if a.rows_from else None)),
             ("rating", lambda: bench_rating(a.rating_games, a.seed)), ("time", lambda: bench_time(a.seed)),
             ("duel", lambda: bench_duel(a.deals, a.duel_seats, a.seed, tuple(a.duel_bots.split(",")), a.save_duel,
                                             a.duel_field))]
    import review_truth as truth
    steps += [("worlds", lambda: truth.bench_worlds(a.worlds_target, a.seed)),
              ("standin", lambda: (truth.bench_standin(a.games, a.seed), truth.bench_self_agreement(a.games, a.seed))),
              ("hold", lambda: truth.bench_hold(a.hold_levels.split(","), a.hold_fields.split(","), a.hold_games,
                                                a.hold_worlds, a.hold_goods, a.seed)),
              ("levels", lambda: [bench_duel(a.levels_deals, 2, a.seed, ("judge", level), a.save_duel, a.duel_field)
                                  for level in ("beginner", "intermediate", "strong")]),
              ("load", lambda: truth.bench_load(a.seed))]
    for name, run in steps:
        if name in only:
            t = time.perf_counter()
            run()
            print(f"  ({name}: {time.perf_counter() - t:.0f} s wall)", flush=True)


if __name__ == "__main__":
    main()
