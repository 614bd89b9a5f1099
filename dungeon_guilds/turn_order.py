"""The snake (U-shaped) turn order of the dispatch phase (R4.1).

Turns go clockwise from the start player to the last player, then the last player acts again
and turns go counter-clockwise back to the start player, who acts again, and so on:
``1-2-3-4-4-3-2-1-1-2-3-…``. Seats are numbered 0..n-1 clockwise.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import islice


def seat_at(position: int, n_players: int, start: int = 0) -> int:
    """The seat that acts at turn ``position`` (0-based) of the snake (R4.1)."""
    k = position % (2 * n_players)
    offset = k if k < n_players else 2 * n_players - 1 - k
    return (start + offset) % n_players


def snake(n_players: int, start: int = 0):
    """An endless iterator over the seats in snake order, from the start player (R4.1)."""
    position = 0
    while True:
        yield seat_at(position, n_players, start)
        position += 1


@lru_cache(maxsize=64)
def cycle(n_players: int, start: int = 0) -> tuple[int, ...]:
    """One full cycle of the snake (``2 * n_players`` turns) as a tuple; turn ``k`` is
    ``cycle(n, start)[k % (2 * n)]``. The engine walks it on its hot path."""
    return tuple(seat_at(k, n_players, start) for k in range(2 * n_players))


def snake_order(n_players: int, start: int = 0, length: int | None = None) -> list[int]:
    """The first ``length`` turns of the snake (default: one full cycle of ``2 * n_players``)."""
    if n_players < 1:
        raise ValueError("the snake needs at least one player")
    if length is None:
        length = 2 * n_players
    return list(islice(snake(n_players, start), length))
