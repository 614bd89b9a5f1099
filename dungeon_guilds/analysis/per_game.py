"""A run's games as plain per-game dicts, the input of :mod:`~dungeon_guilds.analysis.intervals`
(standard library only: the Lab and the A/B experiment compute the same numbers in the browser,
where Pyodide has no pandas, and on a server; ``analysis.metrics`` re-exports these).

Each dict (one per game, in game order) holds: ``win`` (each seat's share of the victory),
``gold`` (final gold by seat), ``bots`` (the bot of each seat), ``length`` (actions),
``lead_changes``, ``paid_out`` / ``paid_in`` (the bank's flows over the game) and ``rooms``
(``{level: (cleared, dealt)}``).
"""

from __future__ import annotations

from typing import Any, Sequence

__all__ = ["lead_changes_per_game", "per_game"]


def lead_changes_per_game(game: Sequence[int], round_: Sequence[int], seat: Sequence[int],
                          leader: Sequence[bool]) -> list[int]:
    """Per game (in game order): lead changes, from the rounds table's columns ``game``,
    ``round``, ``seat`` and ``leader``: the sole leader after each round; a round with the top
    tied has no leader and keeps the previous one."""
    leaders: dict[int, list[tuple[int, int]]] = {int(g): [] for g in game}
    for g, r, s, lead in zip(game, round_, seat, leader):
        if lead:
            leaders[int(g)].append((int(r), int(s)))
    out = []
    for g in sorted(leaders):
        seats = [s for _, s in sorted(leaders[g])]
        out.append(sum(1 for x, y in zip(seats, seats[1:]) if x != y))
    return out


def _by_seat(games: int, seats: Sequence[int], game: Sequence[int], values: Sequence, order: list[int]) -> dict:
    """{game: [value of seat 0, seat 1, ...]} from a long table's columns."""
    out = {g: [None] * games for g in order}
    for g, s, v in zip(game, seats, values):
        out[int(g)][int(s)] = v
    return out


def _flows(result) -> dict[int, tuple[float, float]]:
    """{game: (paid out, paid in)}: the bank's flows of each round (the same on every seat's
    row of the round: its first row counts), summed over the game."""
    seen: set[tuple[int, int]] = set()
    flows: dict[int, list[float]] = {}
    cols = [result.column("rounds", c) for c in ("game", "round", "paid_out", "paid_in")]
    for g, r, out, paid in zip(*cols):
        if (g, r) in seen:
            continue
        seen.add((g, r))
        total = flows.setdefault(int(g), [0.0, 0.0])
        total[0] += out
        total[1] += paid
    return {g: (float(a), float(b)) for g, (a, b) in flows.items()}


def _rooms(result) -> dict[int, dict[int, tuple[int, int]]]:
    """{game: {level: (rooms cleared, rooms dealt)}}, levels in increasing order."""
    counts: dict[int, dict[int, list[int]]] = {}
    for g, level, cleared in zip(*(result.column("rooms", c) for c in ("game", "level", "cleared"))):
        c = counts.setdefault(int(g), {}).setdefault(int(level), [0, 0])
        c[0] += int(bool(cleared))
        c[1] += 1
    return {g: {lv: (c[0], c[1]) for lv, c in sorted(by.items())} for g, by in counts.items()}


def per_game(result) -> list[dict[str, Any]]:
    """The games of a :class:`~dungeon_guilds.analysis.simulate.SimResult` as plain per-game
    dicts (game order): win shares, gold and bot by seat, length, lead changes, bank flows, and
    rooms cleared / dealt by level (the module doc)."""
    col = lambda name: result.column("games", name)  # noqa: E731
    game, seat = col("game"), col("seat")
    order = sorted(set(int(g) for g in game))
    players = max((int(s) for s in seat), default=-1) + 1
    win = _by_seat(players, seat, game, [float(x) for x in col("win")], order)
    gold = _by_seat(players, seat, game, [float(x) for x in col("gold")], order)
    bots = _by_seat(players, seat, game, [str(x) for x in col("bot")], order)
    length = dict(zip((int(g) for g in game), (int(x) for x in col("actions"))))
    leads = dict(zip(order, lead_changes_per_game(*(result.column("rounds", c)
                                                    for c in ("game", "round", "seat", "leader")))))
    flows, rooms = _flows(result), _rooms(result)
    return [{"win": win[g], "gold": gold[g], "length": length[g], "lead_changes": leads.get(g, 0),
             "paid_out": flows.get(g, (0.0, 0.0))[0], "paid_in": flows.get(g, (0.0, 0.0))[1],
             "rooms": rooms.get(g, {}), "bots": bots[g]}
            for g in order]
