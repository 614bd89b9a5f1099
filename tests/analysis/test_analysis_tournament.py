"""Round robin and The Evolution of Trust's evolution."""

from __future__ import annotations

import pytest

pd = pytest.importorskip("pandas")

from dungeon_guilds.analysis.tournament import evolve, fitness, round_robin  # noqa: E402

# A prisoner's dilemma in gold: X cooperates, Y defects.
PD = pd.DataFrame([[2.0, 0.0], [3.0, 1.0]], index=["X", "Y"], columns=["X", "Y"])


def test_fitness_by_hand():
    f = fitness(PD, {"X": 3, "Y": 1})
    assert f["X"] == pytest.approx((2 * 2 + 1 * 0) / 3)  # two other Xs, one Y
    assert f["Y"] == pytest.approx(3 * 3 / 3)


def test_evolve_by_hand():
    df = evolve(PD, {"X": 3, "Y": 1}, generations=4, replace=1, seed=0)
    counts = df.pivot(index="generation", columns="strategy", values="count")
    # gen 0: X 4/3 < Y 3 -> one X out, one Y in; gen 1: X 2/3 < Y 7/3; gen 2: X 0 < Y 5/3
    assert list(counts["X"]) == [3, 2, 1, 0, 0]
    assert list(counts["Y"]) == [1, 2, 3, 4, 4]
    fit = df[df.strategy == "Y"].set_index("generation").fitness
    assert list(fit[:3]) == pytest.approx([3, 7 / 3, 5 / 3])
    assert df.groupby("generation")["share"].sum().round(9).eq(1).all()
    with pytest.raises(ValueError):
        evolve(PD, {"X": 1, "Y": 1}, replace=2)
    with pytest.raises(ValueError):
        evolve(PD, {"Z": 3})


def test_round_robin_small():
    t = round_robin(["random", "greedy", "cooperator"], players=3, games=4, seed=2)
    assert set(t.matrix.index) == set(t.matrix.columns) == {"random", "greedy", "cooperator"}
    assert t.games.game.nunique() == 6 * 4  # 6 pairings (3 with itself) x 4 games
    assert t.games.groupby("match").game.nunique().eq(4).all()
    from dungeon_guilds.analysis.metrics import payoff_matrix

    same = payoff_matrix(t.games).loc[t.matrix.index, t.matrix.columns]
    assert same.values.ravel().tolist() == pytest.approx(t.matrix.values.ravel().tolist())
    assert t.matrix.notna().all().all()
    assert ((t.matrix >= 0) & (t.matrix <= 1)).all().all()
    assert list(t.standings["rank"]) == sorted(t.standings["rank"])
    again = round_robin(["random", "greedy", "cooperator"], players=3, games=4, seed=2)
    assert t.matrix.equals(again.matrix)
    evo = evolve(t, generations=3, replace=2)
    assert set(evo.strategy) == {"random", "greedy", "cooperator"}
    assert evo.groupby("generation")["count"].sum().eq(15).all()
    gold = round_robin(["random", "greedy"], players=4, games=2, seed=1, value="gold",
                       include_self=False)
    assert gold.matrix.loc["greedy", "random"] > 0 and pd.isna(gold.matrix.loc["greedy", "greedy"])
