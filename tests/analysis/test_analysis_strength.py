"""Statistical tests with fixed seeds: skill shows. Real tests: a weaker bot makes them fail.

Each compares 95 % Wilson intervals of win rates per seat played (shared victories count as
shares). The seeds are fixed, so the run is reproducible; the margins are wide enough that any
seed would do.
"""

from __future__ import annotations

import pytest

pd = pytest.importorskip("pandas")

from dungeon_guilds.analysis.metrics import luck_vs_skill, win_rate_by_bot  # noqa: E402
from dungeon_guilds.analysis.simulate import simulate  # noqa: E402


def test_greedy_beats_random():
    res = simulate(60, ["greedy", "random", "greedy", "random"], 4, seed=1)
    rates = win_rate_by_bot(res.games).set_index("bot")
    assert rates.ci_low["greedy"] > rates.ci_high["random"]
    assert rates.ci_low["greedy"] > 0.25  # better than a fair share in a 4-player game
    ls = luck_vs_skill(res.games, "greedy", "random")
    assert ls["gap"] > 0.2 and ls["luck"] < 0.5


def test_mcts_beats_greedy():
    res = simulate(24, ["mcts", "greedy", "greedy", "greedy"], 4, seed=1, jobs=2, chunk_size=3,
                   bot_options={"mcts": {"iterations": 150}})
    rates = win_rate_by_bot(res.games).set_index("bot")
    assert rates.ci_low["mcts"] > 0.25  # one mcts seat against three greedy seats
    assert rates.rate["mcts"] > rates.ci_high["greedy"]
