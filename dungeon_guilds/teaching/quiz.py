"""The lesson plans' exit quizzes, answered by the engine (issue 28).

A quiz question in ``teaching/lessons/*.md`` carries a marker the test reads, then its answer in
bold::

    <!-- engine: snake players=4 start=1 turn=5 -->
    ... **4**

:func:`answer` works the answer out with the engine (seats and rooms from 1, as the lesson
says them); ``tests/teaching/test_lesson_quizzes.py`` fails when a printed answer differs.
Kinds: ``snake`` (R4.1), ``bump_fee`` (R4.4), ``payout`` (R5.2), ``clears`` (R5.1),
``lord_room`` (§7, R7.1), ``heal`` (R6.1 with a lord), ``next_start`` (R6.3), ``sibling_turn``
(the sibling kernels' turn orders).
"""

from __future__ import annotations

import random
from typing import Any, Callable

from ..actions import exhaust
from ..cards import RoomCard, reference_deck
from ..lords import BASE_LORDS, get_lord
from ..payout import split
from ..rule_examples import bump_cost, table
from ..rules import Rules
from ..siblings.comparison import SIBLINGS
from ..state import DISPATCH, SETUP, State, beats
from ..turn_order import seat_at


def snake(players: int, start: int, turn: int) -> int:
    """R4.1: the player (from 1) who takes turn ``turn`` (from 1), player ``start`` starting."""
    return seat_at(turn - 1, players, start - 1) + 1


def bump_fee(level: int, to: str) -> int:
    """R4.4: what replacing another player's adventurer in a level ``level`` room pays to the
    ``bank`` or to the ``owner`` (an engine-played example, ``rule_examples.bump_cost``)."""
    cost = bump_cost(level)
    return cost["bank"] if to == "bank" else cost["victim"]


def payout(treasure: int, strengths: tuple[int, int], who: str) -> int:
    """R5.2: a cleared room's ``treasure`` split between two players' adventurers of
    ``strengths``; the share of the ``stronger`` (first if equal), the ``weaker``, or the ``bank``."""
    shares, to_bank = split(treasure, [(0, strengths[0]), (1, strengths[1])])
    if who == "bank":
        return to_bank
    strong = 0 if strengths[0] >= strengths[1] else 1
    return shares.get(strong if who == "stronger" else 1 - strong, 0)


def clears(total: int, defence: int) -> bool:
    """R5.1: whether adventurers of ``total`` strength clear a room of ``defence``."""
    return beats(total, defence)


def lord_room(lord: str, level: int, defence: int, treasure: int, room: int, what: str) -> int:
    """§7 / R7.1: room ``room``'s ``defence``, ``treasure`` or ``lock`` threshold this round, with
    ``lord`` as the round's lord and every room the card (level, defence, treasure)."""
    st = table([RoomCard(level, defence, treasure)] * 3, rules=Rules(lords="all"), lord=lord)
    i = room - 1
    return {"defence": st.room_defence, "treasure": st.room_treasure, "lock": st.lock_threshold}[what](i)


def heal(strength: int, lord: str) -> int:
    """R6.1: this round's heal cost of a ``strength`` adventurer with ``lord`` as the lord."""
    return table([RoomCard(1, 3, 2)] * 3, rules=Rules(lords="all"), lord=lord).heal_cost(strength)


def next_start(players: int, start: int) -> int:
    """R6.3: who starts round 2 when player ``start`` started round 1 (a round played out by
    the engine with random legal moves)."""
    deck = reference_deck()
    rnd = random.Random(f"quiz/{players}/{start}")
    st = State.new([f"p{k}" for k in range(players)], list(deck.rooms),
                   list(BASE_LORDS[:players]), deck.levels, deck.heal_costs, rules=Rules(lords="none"),
                   start=start - 1, log=False)
    while st.phase == SETUP:
        st.apply_action(exhaust(1, 2))
    while st.phase == DISPATCH and st.round == 0:
        st.apply_action(rnd.choice(st.legal_actions()))
    return st.start + 1


def sibling_turn(game: str, players: int, turn: int) -> int:
    """The player (from 1) who takes turn ``turn`` (from 1) in ``game`` (the kernels' orders)."""
    kernel = next(g for g in SIBLINGS if g.key == game)
    return kernel.turn_sequence(players, turn)[turn - 1] + 1


KINDS: dict[str, Callable[..., Any]] = {
    "snake": snake, "bump_fee": bump_fee, "payout": payout, "clears": clears, "lord_room": lord_room,
    "heal": heal, "next_start": next_start, "sibling_turn": sibling_turn,
}


def _value(text: str) -> Any:
    if "," in text:
        return tuple(int(x) for x in text.split(","))
    try:
        return int(text)
    except ValueError:
        return text


def answer(marker: str) -> Any:
    """The engine's answer to a marker's text, ``"snake players=4 start=1 turn=5"``."""
    kind, *pairs = marker.split()
    if kind not in KINDS:
        raise ValueError(f"unknown quiz kind {kind!r} (kinds: {', '.join(KINDS)})")
    params = dict(p.split("=", 1) for p in pairs)
    return KINDS[kind](**{k: _value(v) for k, v in params.items()})


__all__ = ["KINDS", "answer", "bump_fee", "clears", "heal", "lord_room", "next_start", "payout",
           "sibling_turn", "snake"]
