"""simulate(): the tables, reproducibility across workers and executors (Dask included)."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest

pd = pytest.importorskip("pandas")

from dungeon_guilds import Rules  # noqa: E402
from dungeon_guilds.analysis.simulate import (  # noqa: E402
    GAME_COLUMNS, ROOM_COLUMNS, ROUND_COLUMNS, SimResult, simulate)

BOTS = ["greedy", "random", "bully", "cooperator"]


def same(a: SimResult, b: SimResult) -> bool:
    return a.games.equals(b.games) and a.rounds.equals(b.rounds) and a.rooms.equals(b.rooms)


def test_tables_have_the_documented_shape():
    res = simulate(12, BOTS, 4, seed=3)
    g, r, m = res.games, res.rounds, res.rooms
    assert list(g.columns) == list(GAME_COLUMNS)
    assert list(r.columns) == list(ROUND_COLUMNS)
    assert list(m.columns) == list(ROOM_COLUMNS)
    assert len(g) == 12 * 4 and len(r) == 12 * 4 * 4 and len(m) == 12 * 4 * 4
    assert g.groupby("game")["win"].sum().round(9).eq(1).all()  # shares of victory
    assert (g.groupby("game")["winner"].any()).all()
    assert (g.groupby("bot").size() == 12).all()  # seats rotate: every bot plays every game
    # seat rotation: game g shifts the line-up by g seats
    assert list(g[g.game == 1].sort_values("seat").bot) == BOTS[1:] + BOTS[:1]
    # the final round's gold is the final gold
    last = r[r["round"] == 4].sort_values(["game", "seat"])
    assert list(last.gold) == list(g.sort_values(["game", "seat"]).gold)
    # gains add up: 2 starting gold + every round's gain = final gold
    total = r.groupby(["game", "seat"])["gain"].sum() + 2
    assert list(total) == list(g.sort_values(["game", "seat"]).gold)
    assert (g.actions >= 4 + 4 * 8).all()  # setup + at least 8 placements per round
    assert ((g.branching >= 1) & (g.decisions >= 1)).all()
    assert (m.cleared.astype(int) <= 1).all() and set(m.level) <= {1, 2, 3}
    assert res.meta["games"] == 12 and res.games_per_second > 0


def test_same_tables_whatever_the_split():
    one = simulate(16, BOTS, 4, seed=11, jobs=1)
    assert same(one, simulate(16, BOTS, 4, seed=11, jobs=1, chunk_size=3))
    assert same(one, simulate(16, BOTS, 4, seed=11, jobs=2))
    with ThreadPoolExecutor(3) as ex:
        assert same(one, simulate(16, BOTS, 4, seed=11, executor=ex, chunk_size=5))
    assert not same(one, simulate(16, BOTS, 4, seed=12))
    # a game's rows depend on its own number only: a longer run starts with the same games
    longer = simulate(20, BOTS, 4, seed=11)
    assert longer.games.head(64).equals(one.games)


def test_options_rules_single_bot_and_progress():
    calls = []
    res = simulate(6, ["random"], 5, seed=2, rules=Rules(lords="all", npc=True),
                   progress=lambda done, total: calls.append((done, total)), chunk_size=4)
    assert set(res.games.bot) == {"random"} and res.games.players.eq(5).all()
    assert res.rooms.groupby(["game", "round"]).size().eq(6).all()  # NPC rules: one extra room
    assert calls[-1] == (6, 6)
    teams = simulate(4, ["greedy:0.2", "random"] * 2, 4, seed=2, rules=Rules(teams="2v2"))
    assert set(teams.games.bot) == {"greedy:0.2", "random"}
    assert teams.games.groupby("game").winner.sum().isin([2, 4]).all()  # a team wins together
    mc = simulate(1, ["mcts", "random", "random"], 3, seed=1, bot_options={"mcts": {"iterations": 10}})
    assert len(mc.games) == 3


def test_bad_arguments_are_refused():
    with pytest.raises(ValueError, match="unknown bot"):
        simulate(1, ["nobody"], 4)
    with pytest.raises(ValueError, match="one bot per seat"):
        simulate(1, ["random", "greedy"], 4)
    with pytest.raises(ValueError):
        simulate(1, ["random"], 7)
    empty = simulate(0, ["random"], 3)
    assert len(empty.games) == 0 and list(empty.games.columns) == list(GAME_COLUMNS)


def test_dask_distributed_executor_gives_the_same_tables():
    distributed = pytest.importorskip("distributed")
    local = simulate(12, BOTS, 4, seed=5)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster:
        with distributed.Client(cluster) as client:
            res = simulate(12, BOTS, 4, seed=5, executor=client.get_executor(), chunk_size=3)
    assert res.meta["executor"] == "ClientExecutor"
    assert same(local, res)


def test_rank_follows_the_winners_in_team_games():
    """R10.1: in a team game a seat ranks as its team; rank 1 is exactly the winners (R8.1)."""
    from dungeon_guilds.rules import Rules

    res = simulate(30, ["random"], players=4, seed=3, rules=Rules(teams="2v2"))
    games = res.games
    assert ((games["rank"] == 1) == games["winner"]).all()
    for _, one in games.groupby("game"):  # partners (seats 0+2, 1+3) share a rank
        ranks = dict(zip(one["seat"], one["rank"]))
        assert ranks[0] == ranks[2] and ranks[1] == ranks[3]
