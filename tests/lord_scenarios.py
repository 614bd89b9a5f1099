"""Helpers for the hand-computed scenarios of test_lords.py, test_variants.py, test_editions.py.

Nothing here asks the engine for an expected value: the helpers only build games with every
number fixed (rooms in draw order, lords, exhaust choices, start player) and push moves; the
tests compare the state with numbers worked out by hand from docs/rules.md.

The reference deck's values used in the hand arithmetic (docs/rules.md R1.4, reference_deck.toml):

    heal cost by strength    1:$0  2:$1  3:$1  4:$2  5:$3
    lock threshold by level  Lv1: 5   Lv2: 7   Lv3: 9   (top of the defence range, R1.2)

Default setup used by most scenarios (R2.1 $2 each, R2.4 + printed heal costs of the pair):

    Ann exhausts 4,5 -> $2 + 2 + 3 = $7, active {1,2,3}
    Bo  exhausts 1,2 -> $2 + 0 + 1 = $3, active {3,4,5}
    Cy  exhausts 2,3 -> $2 + 1 + 1 = $4, active {1,4,5}
    Di  exhausts 1,3 -> $2 + 0 + 1 = $3, active {2,4,5}
"""

from __future__ import annotations

from typing import Iterable, Mapping, Sequence

from dungeon_guilds import Game, RoomCard, Rules
from dungeon_guilds.state import strengths_of

NAMES = ("Ann", "Bo", "Cy", "Di", "Ed", "Flo")
HEAL = {1: 0, 2: 1, 3: 1, 4: 2, 5: 3}
LOCK = {1: 5, 2: 7, 3: 9}

DEFAULT_EXHAUST = {"Ann": (4, 5), "Bo": (1, 2), "Cy": (2, 3), "Di": (1, 3)}

# The standard round-1 dungeon of the 3-player scenarios (already in level order).
R_L1 = RoomCard(1, 4, 3)
R_L2 = RoomCard(2, 6, 5)
R_L3 = RoomCard(3, 8, 10)
STANDARD = [R_L1, R_L2, R_L3]
FILL = RoomCard(1, 3, 2)  # a filler room for later rounds


def make_game(
    n: int = 3,
    rooms: Sequence[RoomCard] = (),
    lords: Sequence[str] = (),
    rules: Rules | None = None,
    exhaust: Mapping[str, Iterable[int]] | None = None,
    start: int = 0,
    deck=None,
) -> Game:
    """A game of ``n`` players with the given rooms (padded with FILL up to a full deal) and
    lords (padded with 'beholder', harmless for round-1 checks)."""
    rules = rules or Rules()
    names = list(NAMES[:n])
    per_round = n + 1 if rules.npc else n
    rooms = list(rooms) + [FILL] * (n * per_round - len(rooms))
    lords = list(lords) + ["beholder"] * (n - len(lords))
    if exhaust is None:
        exhaust = {name: DEFAULT_EXHAUST[name] for name in names if name in DEFAULT_EXHAUST}
    return Game(names, rooms=rooms, lords=lords, rules=rules, exhaust=dict(exhaust),
                start_player=start, deck=deck)


def low_treasure_deck():
    """The reference deck with the Lv1 treasure range widened to 1-4 (R1.4: any deck may be
    loaded), so that a Lv1 card with treasure $1 is a valid card. Lock thresholds (top of the
    defence ranges) and heal costs are unchanged."""
    from dungeon_guilds import LevelInfo, reference_deck

    ref = reference_deck()
    levels = dict(ref.levels)
    levels[1] = LevelInfo(ref.levels[1].defence, (1, ref.levels[1].treasure[1]))
    return ref.with_values(levels=levels)


def play(game: Game, moves: Iterable[str]) -> None:
    """Push "Name: move" texts one by one (the name makes the engine check whose turn it is,
    i.e. the snake order of R4.1); check the §11 invariants after every move."""
    for move in moves:
        game.push(move)
        game.state.check_invariants()


def snake(n: int, start: int) -> list[int]:
    """One cycle of the snake order, written from R4.1 (not taken from the engine)."""
    forward = [(start + k) % n for k in range(n)]
    return forward + forward[::-1]


def solo_round(names: Sequence[str], start: int, plays: Mapping[int, tuple[int, int]]) -> list[str]:
    """Moves of a round where every seat puts its two adventurers alone into room seat+1,
    first ``plays[seat][0]`` then ``plays[seat][1]``, in snake order."""
    done: dict[int, int] = {}
    moves = []
    for seat in snake(len(names), start):
        k = done.get(seat, 0)
        moves.append(f"{names[seat]}: place {plays[seat][k]} {seat + 1}")
        done[seat] = k + 1
    return moves


def active(game: Game, name: str) -> set[int]:
    return set(strengths_of(game.state.active[game.names.index(name)]))


def exhausted(game: Game, name: str) -> set[int]:
    return set(strengths_of(game.state.exhausted[game.names.index(name)]))


def gold(game: Game) -> list[int]:
    return list(game.state.gold)


def round_gold(game: Game, round_no: int) -> list[int]:
    """Gold of every seat at the end of round ``round_no`` (1-based), after cleanup."""
    return list(game.state.round_results[round_no - 1]["gold"])


def events(game: Game, kind: str) -> list[dict]:
    return [e for e in game.log if e["kind"] == kind]


def room(game: Game, r: int) -> list[tuple[int, int]]:
    """[(owner, strength), ...] in room ``r`` (1-based), slot a first."""
    return game.state.occupants(r - 1)
