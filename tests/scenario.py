"""Build fixed, fully known games for the hand-computed rules tests.

Every number a scenario depends on is given here explicitly: the room cards in draw order
(``RoomCard(level, defence, treasure)``), the lords, the exhaust choices and the start player.
The heal costs and lock thresholds are the reference deck's (docs/rules.md R1.4):

    heal cost by strength   1:$0  2:$1  3:$1  4:$2  5:$3
    lock threshold by level Lv1: 5   Lv2: 7   Lv3: 9

Nothing in this module asks the engine for an expected value; it only drives the game and reads
the state so that tests can compare it with numbers computed by hand from docs/rules.md.
"""

from __future__ import annotations

import copy
from typing import Iterable, Sequence

from dungeon_guilds import Game, LevelInfo, RoomCard, Rules, reference_deck
from dungeon_guilds.state import strengths_of

NAMES = ("Ann", "Bo", "Cy", "Di", "Ed", "Flo")
BASE_LORD_IDS = ("succubus", "vampire_lord", "beholder", "lich_king", "red_dragon", "guardian")
NO_LORDS = Rules(lords="none")

# The reference deck's values, restated by hand (docs/rules.md R1.4 / data/reference_deck.toml).
HEAL = {1: 0, 2: 1, 3: 1, 4: 2, 5: 3}
LOCK = {1: 5, 2: 7, 3: 9}


def L1(defence: int = 3, treasure: int = 2) -> RoomCard:
    return RoomCard(1, defence, treasure)


def L2(defence: int = 6, treasure: int = 5) -> RoomCard:
    return RoomCard(2, defence, treasure)


def L3(defence: int = 8, treasure: int = 9) -> RoomCard:
    return RoomCard(3, defence, treasure)


FILLER = RoomCard(1, 3, 2)

# The reference heal costs and lock thresholds (tops of the defence ranges), with the ranges'
# low ends opened down to 0 so that scenarios may use extreme fronts (R5.3 floors).
SCENARIO_DECK = reference_deck().with_values(levels={
    1: LevelInfo((0, 5), (0, 4)), 2: LevelInfo((0, 7), (0, 7)), 3: LevelInfo((0, 9), (0, 12))})


def make_game(
    n: int = 3,
    rooms: Sequence[RoomCard] = (),
    exhaust: dict[str, Iterable[int]] | Iterable[int] | None = (4, 5),
    start: int = 0,
    rules: Rules = NO_LORDS,
    lords: Sequence[str] | None = None,
) -> Game:
    """A game of ``n`` players (Ann, Bo, Cy, ...) with known rooms.

    ``rooms`` are in draw order; the deck is padded with :data:`FILLER` cards up to the
    ``n * n`` cards a game deals. ``exhaust`` is a {name: (a, b)} dict, one pair used by every
    player, or None to stop in setup (nobody has chosen yet).
    """
    names = list(NAMES[:n])
    deck = list(rooms) + [FILLER] * max(0, n * n - len(rooms))
    if exhaust is None:
        choices = {}
    elif isinstance(exhaust, dict):
        choices = {k: tuple(v) for k, v in exhaust.items()}
    else:
        pair = tuple(exhaust)
        choices = {name: pair for name in names}
    return Game(
        names,
        deck=SCENARIO_DECK,
        rooms=deck,
        lords=list(lords) if lords is not None else list(BASE_LORD_IDS[:n]),
        rules=rules,
        exhaust=choices,
        start_player=start,
    )


def play(game: Game, moves: Iterable[str], check: bool = True) -> None:
    """Push each move (``"Name: place 1 2"`` pins who must be moving) and check §11."""
    for move in moves:
        game.push(move)
        if check:
            game.state.check_invariants()


def hand(game: Game, name: str) -> list[int]:
    """The active (in hand) strengths of a player."""
    return strengths_of(game.state.active[game.names.index(name)])


def exhausted(game: Game, name: str) -> list[int]:
    return strengths_of(game.state.exhausted[game.names.index(name)])


def gold(game: Game) -> dict[str, int]:
    return dict(zip(game.names, game.state.gold))


def room(game: Game, number: int) -> list[tuple[str, int] | None]:
    """Slots a and b of room ``number`` (1 = top) as (owner name, strength) or None."""
    st = game.state
    out: list[tuple[str, int] | None] = []
    for j in (2 * (number - 1), 2 * (number - 1) + 1):
        owner = st.slot_owner[j]
        out.append(None if owner < 0 else (game.names[owner], st.slot_str[j]))
    return out


def is_locked(game: Game, number: int) -> bool:
    return bool(game.state.locked[number - 1])


def events(game: Game, kind: str) -> list[dict]:
    return [e for e in game.log if e["kind"] == kind]


def snapshot(game: Game) -> dict:
    """A deep copy of everything an action could change (to prove a refusal changed nothing)."""
    st = game.state
    return copy.deepcopy({
        "phase": st.phase,
        "round": st.round,
        "start": st.start,
        "current": st.current,
        "pos": st.pos,
        "setup_left": list(st.setup_left),
        "gold": list(st.gold),
        "active": list(st.active),
        "exhausted": list(st.exhausted),
        "placed": list(st.placed),
        "slot_owner": list(st.slot_owner),
        "slot_str": list(st.slot_str),
        "locked": list(st.locked),
        "rooms": list(st.rooms),
        "bank_in": st.bank_in,
        "bank_out": st.bank_out,
        "round_results": st.round_results,
        "actions_taken": st.actions_taken,
        "log": list(game.log),
        "log_len": len(game.log),
        "ply": game.ply,
        "moves": list(game.moves),
    })
