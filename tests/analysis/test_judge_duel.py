"""Issue 38: the duplicate comparison that asks whether the judge is stronger than the strong bot
(``benchmarks/bench_review.py --only duel``; the figures are in docs/bots.md). Its worth rests
on the pair's two games sharing everything but the seat's bot: checked here with cheap bots
(well under a second)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "benchmarks" / "bench_review.py"


@pytest.fixture(scope="module")
def bench():
    spec = importlib.util.spec_from_file_location("bench_review", BENCH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_pair_with_the_same_bot_twice_plays_the_same_game(bench):
    """Random at the seat and a noisy field: every move depends on the deal and on every bot's
    seeded stream, so the two games are the same only if the pair shares all of them."""
    for seat in range(4):
        (w1, m1, _, g1), (w2, m2, _, g2) = bench.duel_pair(["random", "random"], seat, "t/0", field="intermediate")
        assert g1.line == g2.line and (w1, m1) == (w2, m2)
    other = bench.duel_pair(["random"], 0, "t/1", field="intermediate")[0][3]
    assert other.line != g1.line  # another deal, another game: the check above can fail


def test_two_bots_share_the_deal_and_the_fields_seeds(bench):
    """Different bots at the seat: the same deal (rooms, lords), and where the seat's bot has
    not moved yet (the set-up's seats before it, R2.4) the field moves alike."""
    (_, _, _, ga), (_, _, _, gb) = bench.duel_pair(["greedy", "random"], 3, "t/2")
    assert ga.state_at(0).rooms == gb.state_at(0).rooms and ga.state_at(0).deck == gb.state_at(0).deck
    assert ga.state_at(0).lords == gb.state_at(0).lords
    first = next(p for p in range(ga.ply) if ga.state_at(p).current == 3)
    assert first > 0 and ga.line[:first] == gb.line[:first]
    assert ga.line != gb.line


def test_a_duel_of_a_bot_with_itself_differs_by_nothing(bench):
    rows = bench.duel_rows(("greedy", "greedy"), deals=3, seats=4, seed="t")
    s = bench.duel_summary(rows, ("greedy", "greedy"))
    assert s["deals"] == 3 and s["games"] == 12
    for key in ("win_diff", "margin_diff"):
        assert (s[key]["mean"], s[key]["ci_low"], s[key]["ci_high"]) == (0.0, 0.0, 0.0)
    assert s["only"] == {"greedy (1)": 0, "greedy (2)": 0}
    # four greedy bots: the four seats of a deal are one game, its victory shared out once
    assert s["greedy (1)"]["win"][0] == pytest.approx(0.25)


def test_the_seats_rotate_through_the_deals(bench):
    assert bench.duel_seats(0, 4) == [0, 1, 2, 3] and bench.duel_seats(5, 1) == [1]
    assert sorted(bench.duel_seats(g, 1)[0] for g in range(4)) == [0, 1, 2, 3]


def test_a_large_mark_holds_when_the_real_bots_continue():
    """Issue 48, item 4 (``bench_review.py --only hold``): a beginner at seat 1 against three
    greedy bots, game ``t48/0``; the judge (its play-outs continuing each seat by its model) marks
    its 3 in room 4 at ply 29 a mistake. Played again in 16 worlds of the seat's information set
    with the real bots continuing (bot objects, their own seeds), the judge's best still wins by
    a mistake's size beyond 2 SE; the same move against itself differs by nothing."""
    import sys

    sys.path.insert(0, str(BENCH.parent))
    import review_truth as truth
    from dungeon_guilds.analysis.judge import MISTAKE, Budget
    from dungeon_guilds.analysis.judge_review import judge_review

    names = ["beginner", "greedy", "greedy", "greedy"]
    game = truth._play(names, "t48/0")
    budget = Budget(worlds=16, min_worlds=16, check=16)
    review = list(judge_review(game, 0, budget, curve_worlds=1, models=names))[-1].review
    d = next(d for d in review.decisions if d.ply == 29)
    assert d.mark == MISTAKE and (str(d.action), str(d.best.action)) == ("place 3 4", "place 3 2")
    holds, diff, se = truth._verdict(d, names, 16, "t/0/29")
    assert holds and diff >= 0.10 and diff > 2 * se, (diff, se)
    same = truth._continued(d.state, d.action, 0, names, 4, "same")
    assert same == truth._continued(d.state, d.action, 0, names, 4, "same")
