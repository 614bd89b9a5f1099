"""Balance metrics on small fixed tables, against values computed by hand.

Four 3-player games, two rounds each; bots A (seat 0), B (seat 1), C (seat 2):

    game  gold after round 1   final gold (round 2)   winners      actions
    0     4  6  2              10  5  3               seat 0       30
    1     5  5  1               4  8  8               seats 1, 2   32
    2     9  1  1               9  2  1               seat 0       34
    3     9  8  1              10  9  1               seat 0       36

Round gains (start gold 2): the largest is 7. Win shares per seat: 3/4, 1/8, 1/8.
"""

from __future__ import annotations

import math

import pytest

pd = pytest.importorskip("pandas")

from dungeon_guilds.analysis import metrics as M  # noqa: E402
from dungeon_guilds.analysis.simulate import SimResult  # noqa: E402

R1 = {0: (4, 6, 2), 1: (5, 5, 1), 2: (9, 1, 1), 3: (9, 8, 1)}
FINAL = {0: (10, 5, 3), 1: (4, 8, 8), 2: (9, 2, 1), 3: (10, 9, 1)}
WINNERS = {0: (0,), 1: (1, 2), 2: (0,), 3: (0,)}
PAID = {(0, 1): 6, (0, 2): 12, (1, 1): 4, (1, 2): 10, (2, 1): 8, (2, 2): 2, (3, 1): 6, (3, 2): 0}


def games_table():
    rows = []
    for g in range(4):
        for seat, bot in enumerate("ABC"):
            w = seat in WINNERS[g]
            decisions = (10, 20, 30)[seat] if g == 0 else 10
            branching = (3, 6, 9)[seat] if g == 0 else 6
            rows.append({"game": g, "seat": seat, "bot": bot, "players": 3, "gold": FINAL[g][seat],
                         "tiebreak": 0, "rank": 0, "winner": w,
                         "win": 1 / len(WINNERS[g]) if w else 0.0, "actions": 30 + 2 * g,
                         "decisions": decisions, "branching": float(branching), "lords": "x,y"})
    return pd.DataFrame(rows)


def rounds_table():
    rows = []
    for g in range(4):
        for rnd, gold in ((1, R1[g]), (2, FINAL[g])):
            prev = (2, 2, 2) if rnd == 1 else R1[g]
            top = max(gold)
            for seat in range(3):
                rows.append({"game": g, "round": rnd, "seat": seat, "bot": "ABC"[seat],
                             "lord": "x" if rnd == 1 else "y", "gold": gold[seat],
                             "gain": gold[seat] - prev[seat],
                             "leader": gold.count(top) == 1 and gold[seat] == top, "rooms": 3,
                             "cleared": 1, "paid_out": PAID[g, rnd], "paid_in": 0})
    return pd.DataFrame(rows)


def rooms_table():
    data = [(1, True), (1, True), (1, False), (2, False), (2, False), (3, True)]
    return pd.DataFrame([{"game": 0, "round": 1, "room": k + 1, "level": lv, "cleared": c, "lord": "x"}
                         for k, (lv, c) in enumerate(data)])


def test_wilson_by_hand():
    assert M.wilson(2, 4) == pytest.approx((0.1500, 0.8500), abs=1e-4)
    assert M.wilson(3, 4) == pytest.approx((0.3006, 0.9544), abs=1e-4)
    assert M.wilson(0, 10)[0] == 0.0
    assert all(math.isnan(x) for x in M.wilson(0, 0))


def test_seat_rates_balance_first_player():
    g = games_table()
    seats = M.win_rate_by_seat(g).set_index("seat")
    assert list(seats.rate) == pytest.approx([0.75, 0.125, 0.125])
    assert list(seats.n) == [4, 4, 4]
    assert (seats.ci_low[0], seats.ci_high[0]) == pytest.approx((0.3006, 0.9544), abs=1e-4)
    assert M.balance(g) == pytest.approx(1 - (0.75 - 0.125))
    fpa = M.first_player_advantage(g)
    assert fpa["advantage"] == pytest.approx(0.75 - 1 / 3) and fpa["fair"] == pytest.approx(1 / 3)
    bots = M.win_rate_by_bot(g).set_index("bot")
    assert bots.rate["A"] == pytest.approx(0.75) and bots.fair["B"] == pytest.approx(1 / 3)


def test_gold_length_branching():
    g = games_table()
    gold = M.gold_stats(g).set_index("bot")
    assert gold["mean"]["A"] == pytest.approx(8.25)  # 10, 4, 9, 10
    assert gold["sd"]["A"] == pytest.approx(math.sqrt(24.75 / 3))
    assert gold["ci_low"]["A"] == pytest.approx(8.25 - 1.959964 * math.sqrt(24.75 / 3) / 2, abs=1e-5)
    overall = M.gold_stats(g, by=None)
    assert overall["mean"][0] == pytest.approx(sum(sum(v) for v in FINAL.values()) / 12)
    length = M.game_length(g)
    assert length["mean"] == pytest.approx(33) and length["sd"] == pytest.approx(math.sqrt(20 / 3))
    branch = M.decisions_per_turn(g)
    # game 0: 10x3 + 20x6 + 30x9 = 420 over 60 decisions; the other 9 rows: 10x6 each
    assert branch["branching"] == pytest.approx((420 + 540) / 150)
    assert branch["decisions_per_player"] == pytest.approx(150 / 12)


def test_race_metrics():
    g, r = games_table(), rounds_table()
    lc = M.lead_changes(r)
    assert lc["mean"] == pytest.approx(0.25) and lc["n"] == 4  # only game 0: seat 1 -> seat 0
    run = M.runaway_leader(g, r).set_index("round")
    assert run.rate[1] == pytest.approx(2 / 3) and run.n[1] == 3  # game 1 has no sole leader
    assert run.rate[2] == pytest.approx(1.0)
    km = M.kingmaking(g, r)
    # out of the race before round 2 (gold + 7 < leader): games 2 and 3; close finish (margin
    # <= 2): game 3 only (10 vs 9)
    assert km["rate"] == pytest.approx(1 / 4) and km["n"] == 4
    assert M.kingmaking(g, r, margin=7)["rate"] == pytest.approx(2 / 4)


def test_luck_rooms_lords_payoff():
    g, r = games_table(), rounds_table()
    ls = M.luck_vs_skill(g, skilled="A", baseline="B")
    assert ls["skilled_rate"] == pytest.approx(0.75) and ls["baseline_rate"] == pytest.approx(0.125)
    assert ls["gap"] == pytest.approx(0.625) and ls["luck"] == pytest.approx(1 / 6)
    clear = M.clear_rate_by_level(rooms_table()).set_index("level")
    assert list(clear.rate) == pytest.approx([2 / 3, 0.0, 1.0])
    lords = M.treasure_per_lord(r).set_index("lord")
    assert lords["mean"]["x"] == pytest.approx(6) and lords["sd"]["x"] == pytest.approx(math.sqrt(8 / 3))
    assert lords["mean"]["y"] == pytest.approx(6) and lords["sd"]["y"] == pytest.approx(math.sqrt(104 / 3))
    assert list(lords.n) == [4, 4]


def test_payoff_matrix_by_hand():
    rows = []
    for game, bots, winner in ((10, "ABA", 0), (11, "ABB", 0), (12, "AAA", 1)):
        for seat, b in enumerate(bots):
            rows.append({"game": game, "seat": seat, "bot": b, "win": float(seat == winner),
                         "gold": 3 * seat})
    for seat, b in enumerate("ABC"):  # a three-strategy game: not a pairwise meeting
        rows.append({"game": 13, "seat": seat, "bot": b, "win": float(seat == 2), "gold": 0})
    mat = M.payoff_matrix(pd.DataFrame(rows))
    assert mat.loc["A", "B"] == pytest.approx(2 / 3)  # A's seats: 1, 0, 1
    assert mat.loc["B", "A"] == pytest.approx(0.0)
    assert mat.loc["A", "A"] == pytest.approx(1 / 3)
    assert math.isnan(mat.loc["C", "A"]) and math.isnan(mat.loc["B", "B"])
    gold = M.payoff_matrix(pd.DataFrame(rows), value="gold")
    assert gold.loc["B", "A"] == pytest.approx((3 + 3 + 6) / 3)


def test_registry_and_compute():
    assert set(M.METRICS) >= {
        "win_rate_by_seat", "balance", "gold_stats", "game_length", "decisions_per_turn",
        "lead_changes", "runaway_leader", "kingmaking", "luck_vs_skill", "clear_rate_by_level",
        "treasure_per_lord", "payoff_matrix", "first_player_advantage", "win_rate_by_bot"}
    for name, metric in M.METRICS.items():
        assert len(metric.description) > 40, name
        assert metric.function.__doc__
    res = SimResult.from_frames(games_table(), rounds_table(), rooms_table(), {"games": 4})
    assert M.compute(res, "balance") == pytest.approx(0.375)
    assert M.compute(res, "kingmaking", margin=7)["rate"] == pytest.approx(0.5)
    with pytest.raises(ValueError):
        M.compute(res, "nothing")
    assert len(M.describe()) == len(M.METRICS)


def test_metrics_run_on_a_real_simulation():
    from dungeon_guilds.analysis.simulate import simulate

    res = simulate(20, ["greedy", "random", "bully", "cooperator"], 4, seed=1)
    for name, metric in M.METRICS.items():
        kw = {"skilled": "greedy", "baseline": "random"} if name == "luck_vs_skill" else {}
        M.compute(res, name, **kw)
    assert 0 <= M.balance(res.games) <= 1
