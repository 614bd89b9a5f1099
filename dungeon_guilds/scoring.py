"""The end of the game: most gold wins, ties broken by unplayed strength, else shared (R8.1,
R10.1 for teams)."""

from __future__ import annotations

from dataclasses import dataclass

from .state import State, strengths_of


@dataclass(frozen=True)
class Result:
    gold: tuple[int, ...]  # per seat
    tiebreak: tuple[int, ...]  # per seat: strength of active adventurers not played last round
    winners: tuple[int, ...]  # seats (with teams: every member of the winning team(s))
    finished: bool
    team_gold: tuple[int, ...] | None = None
    team_tiebreak: tuple[int, ...] | None = None
    winning_teams: tuple[int, ...] | None = None


def _best(scores: list[tuple[int, int]]) -> list[int]:
    top = max(scores)
    return [i for i, sc in enumerate(scores) if sc == top]


def result(state: State) -> Result:
    """The result now; ``winners`` is empty until the game is over."""
    gold = tuple(state.gold)
    tiebreak = tuple(sum(strengths_of(m)) for m in state.unplayed)
    if state.team is None:
        winners = tuple(_best(list(zip(gold, tiebreak)))) if state.is_over else ()
        return Result(gold, tiebreak, winners, state.is_over)
    n_teams = max(state.team) + 1
    tg = [0] * n_teams
    tt = [0] * n_teams
    for seat, t in enumerate(state.team):
        tg[t] += gold[seat]
        tt[t] += tiebreak[seat]
    teams = tuple(_best(list(zip(tg, tt)))) if state.is_over else ()
    winners = tuple(s for s, t in enumerate(state.team) if t in teams)
    return Result(gold, tiebreak, winners, state.is_over, tuple(tg), tuple(tt), teams)
