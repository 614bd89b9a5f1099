"""Issue 38: the review's judge, each property on a tiny fixed workload (seconds).

The figures at full size are ``benchmarks/bench_review.py``'s (docs/review.md)."""

from __future__ import annotations

import random
import time

import pytest

from dungeon_guilds import Game
from dungeon_guilds.analysis.bots import make_bot
from dungeon_guilds.analysis.judge import (GOOD, INACCURACY, MISTAKE, Budget, judge, judge_mark, settled)
from dungeon_guilds.analysis.judge_review import judge_review, win_curve
from dungeon_guilds.analysis.judge_calibration import calibrated, fit
from dungeon_guilds.analysis.judge_worlds import SLIP, Playout, sample_world
from dungeon_guilds.state import DISPATCH, SETUP
from tests.analysis.test_analysis_bots import hidden_twin

SMALL = Budget(worlds=16, min_worlds=16, batch=8, check=16)


def played(names, seed, n=4):
    game = Game(n, seed=seed)
    bots = [make_bot(b, seed=f"{seed}/{i}", **({"iterations": 200} if b == "strong" else {}))
            for i, b in enumerate(names)]
    while not game.is_over:
        game.push(bots[game.current].choose(game.state, game.current))
    return game


def values(j):
    return [(m.action, m.n, round(m.win, 9), round(m.margin, 9), round(m.loss, 9)) for m in j.moves]


def test_the_judge_reads_only_what_the_seat_may_know():
    """Other fronts, another hidden deck order, other secret exhaust pairs (a twin the seat cannot
    tell apart): the same values, move by move, for the same seed. The twins hide something."""
    game = played(["greedy"] * 4, seed=3)
    rng = random.Random(38)
    differs = 0
    for ply in (1, 5, 12, 20):  # set-up (other seats' secret pairs), round 1, later rounds
        st = game.state_at(ply)
        twin = hidden_twin(st, st.current, rng)
        differs += twin.rooms != st.rooms or twin.deck != st.deck
        budget = Budget(worlds=8, min_worlds=8, check=0)
        assert values(judge(st, budget=budget)) == values(judge(twin, budget=budget))
    assert differs >= 3


def test_a_loss_is_marked_only_beyond_its_noise():
    assert judge_mark(0.30, 0.16) == GOOD  # large, but within 2 standard errors
    assert judge_mark(0.03, 0.001) == GOOD  # beyond the noise, but under 4 points
    assert judge_mark(0.05, 0.01) == INACCURACY
    assert judge_mark(0.13, 0.02) == MISTAKE
    assert judge_mark(0.11, 0.02) == INACCURACY  # within a standard error of the line (issue 48)
    assert settled(0.30, 0.05) and settled(0.01, 0.01) and settled(0.07, 0.01)
    assert not settled(0.11, 0.02) and not settled(0.05, 0.01)


def test_most_of_the_strong_bots_decisions_are_not_mistakes():
    """Two small games, strong in seat 1 against greedy: most of the strong bot's decisions are
    not mistakes (a loose bound: the benchmark measures the real share). Since issue 48 the strong
    bot no longer sees the future lords and a mistake needs a standard error past 10 points: on
    these games the judge (16 worlds) marks 6 of 19, the one-round model 5; until then the judge
    marked fewer than the one-round model here."""
    judged, n = 0, 0
    for seed in (1, 2):
        game = played(["strong", "greedy", "greedy", "greedy"], seed=seed)
        for ply in range(game.ply):
            st = game.state_at(ply)
            if st.phase in (SETUP, DISPATCH) and st.current == 0 and len(st.legal_actions()) > 1:
                n += 1
                judged += judge(st, 0, SMALL, check=game.line[ply]).of(game.line[ply]).mark == MISTAKE
    assert n >= 15
    assert judged <= 0.35 * n, (judged, n)


def test_the_search_is_cheap_and_reuses_work():
    """A CPU guard, load-independent: simulated moves per decision stay within the budget, the
    greedy choices are reused (cache), and a simulated move costs little CPU."""
    st = Game(4, seed=5).state  # set-up: the longest play-outs
    po = Playout()
    cpu = time.process_time()
    j = judge(st, budget=Budget(worlds=16, min_worlds=16, check=0), playout=po)
    cpu = time.process_time() - cpu
    assert j.playouts <= 16 * len(st.legal_actions())
    assert po.looked_up < 0.6 * po.moves  # most choices came from the cache
    assert cpu / po.moves < 400e-6, f"{1e6 * cpu / po.moves:.0f} µs a simulated move"
    again = Playout()
    judge(st, budget=Budget(worlds=16, min_worlds=16, check=0), playout=again)
    assert again.moves == po.moves  # the same seed, the same play-outs


def test_a_clear_winner_stops_the_race_early():
    """Late in a game a bad move is dropped from the race: fewer play-outs than every move in
    every world."""
    game = played(["greedy"] * 4, seed=9)
    st = next(game.state_at(p) for p in range(game.ply - 1, 0, -1)
              if game.state_at(p).phase == DISPATCH and len(game.state_at(p).legal_actions()) > 4)
    j = judge(st, budget=Budget(worlds=64, min_worlds=16, check=0))
    assert j.playouts < 64 * len(j.moves)


def test_the_review_yields_progress_and_every_seats_win_chance():
    game = played(["greedy", "intermediate", "greedy"], seed=4, n=3)
    steps = list(judge_review(game, 1, Budget(worlds=8, min_worlds=8, check=8), curve_worlds=2))
    assert [s.done for s in steps] == list(range(1, len(steps) + 1)) and steps[-1].review is not None
    review = steps[-1].review
    assert len(review.curve) == game.ply + 1
    for row in review.curve:
        assert sum(row) == pytest.approx(1.0)  # one winner, or a shared victory split
    assert review.curve[-1] == tuple(1.0 / len(game.result().winners) if q in game.result().winners else 0.0
                                     for q in range(3))
    assert all(d.seat == 1 for d in review.decisions) and review.quick.decisions
    rows = list(win_curve(game, 0, 1))[-1]
    assert len(rows) == game.ply + 1


def test_the_hidden_information_test_has_teeth(monkeypatch):
    """A judge that played the true world (peeking at the fronts and the deck) is caught."""
    import dungeon_guilds.analysis.judge as judge_module

    monkeypatch.setattr(judge_module, "sample_world", lambda state, seat, rng, view=None: state.copy())
    game = played(["greedy"] * 4, seed=3)
    rng = random.Random(38)
    caught = 0
    for ply in (5, 12, 20):
        st = game.state_at(ply)
        twin = hidden_twin(st, st.current, rng)
        budget = Budget(worlds=8, min_worlds=8, check=0)
        caught += values(judge(st, budget=budget)) != values(judge(twin, budget=budget))
    assert caught >= 1


def test_the_class_mistakes_are_counted_by_kind_with_the_worst_example():
    """Item 6 as a pure function: reviews of a small class's games, summed by kind of decision."""
    from dungeon_guilds.analysis.class_mistakes import KINDS, class_mistakes, kind_of

    budget = Budget(worlds=8, min_worlds=8, check=8)
    reviews = []
    for seed, seat in ((1, 0), (2, 2)):
        game = played(["random", "greedy", "random"], seed=seed, n=3)
        reviews.append([s for s in judge_review(game, seat, budget, curve_worlds=1)][-1].review)
    groups = class_mistakes(reviews)
    decisions = [d for r in reviews for d in r.decisions if d.n_moves > 1]
    assert sum(g.taken for g in groups) == len(decisions)
    assert sum(g.mistakes for g in groups) == sum(d.mark == MISTAKE for d in decisions)
    assert [g.mistakes for g in groups] == sorted((g.mistakes for g in groups), reverse=True)
    for g in groups:
        assert g.kind in KINDS
        if g.example is not None:
            i, d = g.example
            assert kind_of(d) == g.kind and d in reviews[i].decisions and d.mark != GOOD
            assert d.made.loss == max(x.made.loss for x in decisions if kind_of(x) == g.kind and x.mark != GOOD)
    assert any(g.mistakes for g in groups)  # random players: something to teach


def test_the_other_seats_slip_in_the_play_outs_from_a_seeded_stream():
    """The play-outs' random draws (greedy's tie-breaks, as ``GreedyBot`` breaks them, and the
    slips: others play any legal move now and then) come from the stream given: the same stream,
    the same game (issue 48: no stream given is the stream of seed 0)."""
    st = Game(4, seed=7).state
    world = sample_world(st, 0, random.Random(1))
    greedy = Playout(slip=0.0)
    sloppy = Playout(slip=1.0)
    base = greedy.play(world.copy(), 0, random.Random("w/0"))
    assert greedy.play(world.copy(), 0) == greedy.play(world.copy(), 0, random.Random(0))
    runs = [sloppy.play(world.copy(), 0, random.Random(f"w/{k}")) for k in range(6)]
    assert runs[0] == sloppy.play(world.copy(), 0, random.Random("w/0"))
    assert any(r != base for r in runs)
    assert Playout(slip=0.0).play(world.copy(), 0, random.Random("w/0")) == base
    assert Playout().slip == SLIP and Playout().own_slip == 0.0
    game = played(["greedy"] * 4, seed=3)  # the slips' stream is public too: twins agree
    st = game.state_at(12)
    twin = hidden_twin(st, st.current, random.Random(38))
    budget = Budget(worlds=8, min_worlds=8, check=0)
    slipping = values(judge(st, budget=budget, playout=Playout(slip=0.5)))
    assert slipping == values(judge(twin, budget=budget, playout=Playout(slip=0.5)))
    assert slipping != values(judge(st, budget=budget, playout=Playout(slip=0.0)))


def test_the_calibration_map_is_increasing_and_its_fit_recovers_a_known_map():
    """``judge_calibration.fit`` finds a known logistic map from seeded rows; the map keeps the
    order of win chances (no decision changes) and the shipped one pulls the over-confident top
    down (docs/review.md, "Measured")."""
    rng = random.Random(38)
    rows = []
    for _ in range(4000):
        n = 32
        p = rng.randrange(n + 1) / n
        q = calibrated(p, n, -0.3, 0.7)
        rows.append((p, n, 1.0 if rng.random() < q else 0.0))
    a, b = fit(rows)
    assert abs(a + 0.3) < 0.12 and abs(b - 0.7) < 0.08, (a, b)
    xs = [calibrated(k / 32, 32) for k in range(33)]
    assert all(x < y for x, y in zip(xs, xs[1:]))
    assert calibrated(0.8, 32) < 0.8 - 0.03  # over-confident above 40 %: mapped down
    assert 0.0 < calibrated(0.0, 32) < calibrated(1.0, 32) < 1.0
    v = judge(Game(4, seed=5).state, budget=Budget(worlds=8, min_worlds=8, check=0)).best
    assert v.chance == calibrated(v.win, v.n)
