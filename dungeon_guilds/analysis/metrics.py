"""Balance metrics: small pure functions over the tables of a simulation.

Every function reads the pandas tables :func:`~dungeon_guilds.analysis.simulate.simulate`
returns (``games``: one row per game and seat; ``rounds``: one row per game, round and seat;
``rooms``: one row per game, round and room) and returns a number, a dict or a small table.
Rates come with a 95 % confidence interval (Wilson score interval; for means, mean ± 1.96
standard errors). The docstring of each function is written for a game designer; ``METRICS``
lists them all with that description, and :func:`compute` runs one on a ``SimResult``.

Measures follow the anchors of the issue: OpenSpiel's ``evaluate_bots`` (mean returns per seat),
Ludii's game metrics (balance, branching, lead changes, game length) and the payoff matrix of a
round-robin tournament.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Callable

from ..extras import require

require("dungeon_guilds.analysis.metrics", "analysis", "pandas")

import pandas as pd

from .intervals import Z95, wilson  # re-exported: metrics.wilson, metrics.Z95
from .per_game import lead_changes_per_game as _lead_changes_per_game
from .per_game import per_game  # re-exported: a run's games as plain dicts (standard library)


# ------------------------------------------------------------------------------ intervals

def mean_ci(values, z: float = Z95) -> tuple[float, float, float, float]:
    """(mean, sd, ci_low, ci_high) of a sample: mean ± z standard errors."""
    s = pd.Series(values, dtype=float)
    n = len(s)
    if n == 0:
        nan = float("nan")
        return (nan, nan, nan, nan)
    m = float(s.mean())
    sd = float(s.std(ddof=1)) if n > 1 else 0.0
    half = z * sd / math.sqrt(n) if n > 1 else 0.0
    return (m, sd, m - half, m + half)


def _rate_table(df: pd.DataFrame, by: str, value: str = "win") -> pd.DataFrame:
    rows = []
    for key, grp in df.groupby(by, sort=True):
        n = len(grp)
        s = float(grp[value].sum())
        lo, hi = wilson(s, n)
        rows.append({by: key, "n": n, "rate": s / n, "ci_low": lo, "ci_high": hi})
    return pd.DataFrame(rows, columns=[by, "n", "rate", "ci_low", "ci_high"])


# ------------------------------------------------------------------------------ seats and bots

def win_rate_by_seat(games: pd.DataFrame) -> pd.DataFrame:
    """How often each seat wins. Seat 0 starts round 1, so a high seat-0 rate is a first-player
    advantage. A shared victory counts as a share (two winners: half a win each), so in a fair
    n-player game every seat wins 1/n of the time. Columns: seat, n (games), rate, ci_low,
    ci_high (95 %)."""
    return _rate_table(games, "seat")


def win_rate_by_bot(games: pd.DataFrame) -> pd.DataFrame:
    """How often each strategy wins, per seat it occupied (n = seats played). Compare with the
    fair share 1/players (column ``fair``). Columns: bot, n, rate, ci_low, ci_high, fair."""
    out = _rate_table(games, "bot")
    fair = games.groupby("bot")["players"].apply(lambda s: float((1.0 / s).mean()))
    out["fair"] = out["bot"].map(fair)
    return out


def first_player_advantage(games: pd.DataFrame) -> dict[str, float]:
    """The start player's win rate minus the fair share 1/players, with the 95 % interval of the
    start player's rate. Positive: going first helps; near 0 inside the interval: no evidence."""
    first = games[games["seat"] == 0]
    n = len(first)
    s = float(first["win"].sum())
    fair = float((1.0 / first["players"]).mean()) if n else float("nan")
    lo, hi = wilson(s, n)
    return {"rate": s / n if n else float("nan"), "fair": fair,
            "advantage": (s / n - fair) if n else float("nan"), "ci_low": lo, "ci_high": hi, "n": n}


def balance(games: pd.DataFrame) -> float:
    """1 − (largest seat win rate − smallest seat win rate). 1 means every seat wins equally
    often; 0.9 means the luckiest seat wins 10 percentage points more often than the unluckiest.
    Use a sample of identical (or seat-rotated) bots so that only the seat differs."""
    rates = games.groupby("seat")["win"].mean()
    return float(1.0 - (rates.max() - rates.min()))


# ------------------------------------------------------------------------------ gold and length

def gold_stats(games: pd.DataFrame, by: str | None = "bot") -> pd.DataFrame:
    """Mean and standard deviation of final gold (with a 95 % interval of the mean), per bot by
    default, or per ``by`` column (``"seat"``), or overall (``by=None``). A wide spread means
    swingy games."""
    groups = [("all", games)] if by is None else list(games.groupby(by, sort=True))
    rows = []
    for key, grp in groups:
        m, sd, lo, hi = mean_ci(grp["gold"])
        rows.append({by or "group": key, "n": len(grp), "mean": m, "sd": sd, "ci_low": lo, "ci_high": hi})
    return pd.DataFrame(rows)


def game_length(games: pd.DataFrame) -> dict[str, float]:
    """Mean and standard deviation of a game's length in actions (setup choices included), one
    value per game. Long, variable games feel different from short, regular ones."""
    per_game = games.groupby("game")["actions"].first()
    m, sd, lo, hi = mean_ci(per_game)
    return {"mean": m, "sd": sd, "ci_low": lo, "ci_high": hi, "n": len(per_game)}


def decisions_per_turn(games: pd.DataFrame) -> dict[str, float]:
    """Branching: the mean number of legal moves a player chooses from at a decision (all
    decisions of all players pooled), and decisions per player per game. More choices mean more
    to think about (and a harder search for bots)."""
    d = games["decisions"].astype(float)
    total = float(d.sum())
    mean_branch = float((games["branching"] * d).sum() / total) if total else float("nan")
    return {"branching": mean_branch, "decisions_per_player": float(d.mean()),
            "n": int(games["game"].nunique())}


# ------------------------------------------------------------------------------ the race

def _leaders(rounds: pd.DataFrame) -> pd.DataFrame:
    """game, round, leader seat (-1 when the top is tied)."""
    top = rounds[rounds["leader"]][["game", "round", "seat"]]
    allr = rounds[["game", "round"]].drop_duplicates()
    out = allr.merge(top, on=["game", "round"], how="left")
    out["seat"] = out["seat"].fillna(-1).astype(int)
    return out.sort_values(["game", "round"]).reset_index(drop=True)


def lead_changes(rounds: pd.DataFrame) -> dict[str, float]:
    """How often the lead changes hands: after each round, the player alone at the top of the
    gold count is the leader (a tie keeps the previous leader); a change is a new leader who is
    not the previous one. Mean (and sd) per game. Many changes: a tense race; none: the first
    leader cruises."""
    counts = []
    for _, grp in _leaders(rounds).groupby("game", sort=True):
        prev = -1
        changes = 0
        for seat in grp["seat"]:
            if seat < 0:
                continue
            if prev >= 0 and seat != prev:
                changes += 1
            prev = seat
        counts.append(changes)
    m, sd, lo, hi = mean_ci(counts)
    return {"mean": m, "sd": sd, "ci_low": lo, "ci_high": hi, "n": len(counts)}


def runaway_leader(games: pd.DataFrame, rounds: pd.DataFrame) -> pd.DataFrame:
    """P(win | sole leader after round k), for each round k, with 95 % intervals. Near 1 early
    on: the leader runs away and later rounds decide little; near the fair share: comebacks are
    common. Columns: round, n (games with a sole leader), rate, ci_low, ci_high."""
    lead = rounds[rounds["leader"]][["game", "round", "seat"]]
    merged = lead.merge(games[["game", "seat", "win"]], on=["game", "seat"], how="left")
    return _rate_table(merged, "round")


def kingmaking(games: pd.DataFrame, rounds: pd.DataFrame, margin: int = 2) -> dict[str, float]:
    """Share of games open to kingmaking: entering the last round, some player could no longer
    win (even with the largest one-round gain seen in these games they would stay behind the
    leader), yet the winner finished at most ``margin`` gold ahead of the best non-winner: a
    bump fee, a shared treasure or a spoiled room from that player could have decided who won.
    A proxy (it measures the opportunity, not intent); 95 % interval."""
    last = rounds["round"].max()
    if pd.isna(last) or last < 2:
        return {"rate": float("nan"), "ci_low": float("nan"), "ci_high": float("nan"), "n": 0}
    best_gain = float(rounds["gain"].max())
    before = rounds[rounds["round"] == last - 1]
    out_of_race: dict[int, bool] = {}
    for game, grp in before.groupby("game"):
        lead = grp["gold"].max()
        out_of_race[game] = bool(((grp["gold"] + best_gain) < lead).any())
    hits = 0
    n = 0
    for game, grp in games.groupby("game"):
        n += 1
        win_gold = grp.loc[grp["winner"], "gold"]
        rest = grp.loc[~grp["winner"], "gold"]
        if win_gold.empty or rest.empty:
            continue
        close = float(win_gold.min() - rest.max()) <= margin
        if close and out_of_race.get(game, False):
            hits += 1
    lo, hi = wilson(hits, n)
    return {"rate": hits / n if n else float("nan"), "ci_low": lo, "ci_high": hi, "n": n}


# ------------------------------------------------------------------------------ skill

def luck_vs_skill(games: pd.DataFrame, skilled: str = "greedy", baseline: str = "random") -> dict[str, float]:
    """How much skill decides the game: in games where a skilled bot meets the random baseline,
    the skilled bot's win rate and the baseline's (per seat, 95 % intervals), the gap between
    them, and ``luck`` = baseline rate / skilled rate (0: skill always wins; 1: the skilled bot
    does no better than chance play)."""
    has = games.groupby("game")["bot"].agg(lambda s: skilled in set(s) and baseline in set(s))
    keep = games[games["game"].isin(has[has].index)]
    out: dict[str, float] = {"games": int(keep["game"].nunique())}
    rates = {}
    for name, label in ((skilled, "skilled"), (baseline, "baseline")):
        rows = keep[keep["bot"] == name]
        n = len(rows)
        s = float(rows["win"].sum())
        lo, hi = wilson(s, n)
        rates[label] = s / n if n else float("nan")
        out.update({f"{label}_rate": rates[label], f"{label}_ci_low": lo, f"{label}_ci_high": hi})
    out["gap"] = rates["skilled"] - rates["baseline"]
    out["luck"] = rates["baseline"] / rates["skilled"] if rates["skilled"] else float("nan")
    return out


# ------------------------------------------------------------------------------ rooms and lords

def clear_rate_by_level(rooms: pd.DataFrame) -> pd.DataFrame:
    """How often rooms of each level are cleared (a failure also fails every room below it,
    R5.1). Tells whether a level's defences fit the adventurers players bring. Columns: level,
    n (rooms), rate, ci_low, ci_high."""
    df = rooms.assign(cleared_int=rooms["cleared"].astype(float))
    return _rate_table(df, "level", "cleared_int")


def treasure_per_lord(rounds: pd.DataFrame) -> pd.DataFrame:
    """Lord impact: the gold the bank pays players in a round's resolution (treasure shares,
    plus a lord's bonus), mean and sd per lord, with a 95 % interval of the mean. A lord far
    above or below the others swings the game. Columns: lord, n (rounds), mean, sd, ci_low,
    ci_high."""
    per_round = rounds.groupby(["game", "round"]).agg(lord=("lord", "first"), paid=("paid_out", "first"))
    rows = []
    for lord, grp in per_round.groupby("lord", sort=True):
        m, sd, lo, hi = mean_ci(grp["paid"])
        rows.append({"lord": lord, "n": len(grp), "mean": m, "sd": sd, "ci_low": lo, "ci_high": hi})
    return pd.DataFrame(rows, columns=["lord", "n", "mean", "sd", "ci_low", "ci_high"])


# ------------------------------------------------------------------------------ strategies

def payoff_matrix(games: pd.DataFrame, value: str = "win") -> pd.DataFrame:
    """Strategy against strategy: entry (A, B) is A's mean ``value`` per seat ("win": win share,
    or "gold") in the games where only A and B played (the diagonal: games of A alone). Read a
    row to see whom a strategy beats. A round-robin tournament fills every cell."""
    bots = sorted(games["bot"].unique())
    lineup = games.groupby("game")["bot"].agg(lambda s: frozenset(s))
    mat = pd.DataFrame(float("nan"), index=pd.Index(bots, name="strategy"),
                       columns=pd.Index(bots, name="opponent"))
    for a in bots:
        for b in bots:
            want = frozenset((a, b))
            ids = lineup[lineup == want].index
            rows = games[games["game"].isin(ids) & (games["bot"] == a)]
            if len(rows):
                mat.loc[a, b] = float(rows[value].mean())
    return mat


# ------------------------------------------------------------------------------ per game

def lead_changes_per_game(rounds: pd.DataFrame) -> list[int]:
    """Per game (in game order): lead changes, as :func:`lead_changes` counts them (the sole
    leader after each round; a tie keeps the previous leader). The count is
    :func:`dungeon_guilds.analysis.per_game.lead_changes_per_game` (standard library) on the
    table's columns."""
    return _lead_changes_per_game(*(rounds[c].tolist() for c in ("game", "round", "seat", "leader")))


# ------------------------------------------------------------------------------ registry

@dataclass(frozen=True)
class Metric:
    function: Callable[..., Any]
    description: str
    needs: tuple[str, ...]  # which tables of a SimResult, in argument order


def _first_paragraph(fn: Callable) -> str:
    doc = (fn.__doc__ or "").strip()
    return " ".join(doc.split())


METRICS: dict[str, Metric] = {
    name: Metric(fn, _first_paragraph(fn), needs)
    for name, fn, needs in (
        ("win_rate_by_seat", win_rate_by_seat, ("games",)),
        ("win_rate_by_bot", win_rate_by_bot, ("games",)),
        ("first_player_advantage", first_player_advantage, ("games",)),
        ("balance", balance, ("games",)),
        ("gold_stats", gold_stats, ("games",)),
        ("game_length", game_length, ("games",)),
        ("decisions_per_turn", decisions_per_turn, ("games",)),
        ("lead_changes", lead_changes, ("rounds",)),
        ("runaway_leader", runaway_leader, ("games", "rounds")),
        ("kingmaking", kingmaking, ("games", "rounds")),
        ("luck_vs_skill", luck_vs_skill, ("games",)),
        ("clear_rate_by_level", clear_rate_by_level, ("rooms",)),
        ("treasure_per_lord", treasure_per_lord, ("rounds",)),
        ("payoff_matrix", payoff_matrix, ("games",)),
    )
}


def compute(result, name: str, **kw: Any) -> Any:
    """Run metric ``name`` on a :class:`~dungeon_guilds.analysis.simulate.SimResult`."""
    try:
        metric = METRICS[name]
    except KeyError:
        raise ValueError(f"unknown metric {name!r} (known: {', '.join(METRICS)})") from None
    return metric.function(*(getattr(result, t) for t in metric.needs), **kw)


def describe() -> pd.DataFrame:
    """The metrics and what they mean, as a table for a notebook."""
    return pd.DataFrame([{"metric": k, "tables": ", ".join(m.needs), "description": m.description}
                         for k, m in METRICS.items()])


__all__ = ["METRICS", "Metric", "balance", "clear_rate_by_level", "compute", "decisions_per_turn",
           "describe", "first_player_advantage", "game_length", "gold_stats", "kingmaking",
           "lead_changes", "lead_changes_per_game", "luck_vs_skill", "mean_ci",
           "per_game", "payoff_matrix", "runaway_leader",
           "treasure_per_lord", "wilson", "win_rate_by_bot", "win_rate_by_seat"]
