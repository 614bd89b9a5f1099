"""Worksheets for students, one per lesson, every answer read from the engine (issue 28).

``worksheet(lesson, seed)`` builds the questions of lesson ``learn``, ``design`` or ``compare``
(``teaching.LESSONS``) from the worksheet's own random stream: the same seed gives the same
worksheet, another seed a new version. A question is a kind (``snake``, ``replace``,
``resolution``, ``lord``, ``siblings``, ``next_start``), the values its wording needs, the
position it asks about (a :class:`~.positions.Setup`, rebuilt by the engine) and its answers.

No answer is worked out here: each is read from the engine after it has played the position
(:meth:`State.action_fees` and :meth:`State.after` for a replacement, the event log and
``round_results`` of the round actually resolved for a resolution, :meth:`State.room_defence`
and friends for a lord, :func:`~dungeon_guilds.turn_order.snake_order` and the sibling kernels'
turn sequences for the turn orders). ``tests/teaching/test_worksheets.py`` checks every number
of every answer key against the engine again, by other routes.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from . import LESSONS
from .positions import TRIES, Setup, dispatch_done, new_setup, play_until, random_move, replacements
from .. import events
from ..actions import BUMP, Action
from ..siblings.comparison import SIBLINGS
from ..state import DISPATCH
from ..turn_order import snake_order

LORD_QUESTION_LORDS = ("vampire_lord", "beholder", "lich_king", "red_dragon")  # change room numbers


@dataclass(frozen=True)
class Answer:
    """One blank of the answer key: ``label`` names it (``worksheet.a_<label>`` in the strings),
    ``params`` fill its words (seats and rooms counted from 1), ``value`` is an int, a bool
    (yes / no), None (none) or a game key (``siblings``)."""

    label: str
    value: Any
    params: dict = field(default_factory=dict)


@dataclass(frozen=True)
class Question:
    kind: str
    params: dict
    answers: tuple[Answer, ...]
    setup: Setup | None = None
    action: Action | None = None


@dataclass(frozen=True)
class Worksheet:
    lesson: str
    seed: int
    questions: tuple[Question, ...]

    def numbers(self) -> list[tuple[str, Any]]:
        """Every answer as (label, value), in order (for tests and the printed key)."""
        return [(a.label, a.value) for q in self.questions for a in q.answers]


# ---------------------------------------------------------------------- questions
def snake_question(players: int, start: int) -> Question:
    """R4.1: who acts in turns 1..2n of the dispatch, start player ``start`` (0-based)."""
    order = snake_order(players, start)
    answers = tuple(Answer("turn", seat + 1, {"turn": k + 1}) for k, seat in enumerate(order))
    return Question("snake", {"players": players, "start": start + 1, "turns": len(order)}, answers)


def replace_question(rnd: random.Random, players: int, want: str | None = None) -> Question:
    """R4.4 / R4.5 / R4.3: a position in round 1's dispatch where the player to move can
    replace an adventurer; what it costs and whether the room locks."""
    for _ in range(TRIES):
        after_moves = rnd.randrange(players, 2 * players)
        setup = play_until(new_setup(rnd, players), rnd,
                           lambda st: st.actions_taken - players >= after_moves and bool(
                               [a for a in replacements(st) if want is None or a.kind == want]))
        if setup is None:
            continue
        st = setup.state()
        action = rnd.choice([a for a in replacements(st) if want is None or a.kind == want])
        to_bank, to_owner, owner = st.action_fees(action)
        i = action.room - 1
        params = {"player": st.current + 1, "owner": owner + 1, "room": action.room,
                  "level": st.rooms[i].level, "strength": action.strength,
                  "old": st.slot(i, action.slot)[1], "move": action.kind}
        answers = [Answer("pay_bank", to_bank)]
        if action.kind == BUMP:
            answers.append(Answer("pay_owner", to_owner, {"owner": owner + 1}))
        answers.append(Answer("locks", bool(st.after(action).locked[i]), {"room": action.room}))
        return Question("replace", params, tuple(answers), setup, action)
    raise RuntimeError("no replacement position found")  # pragma: no cover


def _round_one(setup: Setup) -> dict[str, Any]:
    """Round 1 actually resolved and cleaned up by the engine (R5, R6): the events and gold."""
    st = setup.state(hold=False, log=True)
    steps = events.resolution_events(st.log, 1)
    treasure = [0] * setup.players
    heal = [0] * setup.players
    failed, cleared = None, 0
    for step in steps:
        if isinstance(step, events.RoomOutcome):
            if step.cleared:
                cleared += 1
                for p, v in step.shares.items():
                    treasure[p] += v
            elif failed is None:
                failed = step.room
        elif isinstance(step, events.Bonus):
            treasure[step.player] += step.gold
        else:  # events.Heal
            heal[step.player] = step.paid
    return {"failed": failed, "treasure": treasure, "heal": heal, "gold": st.round_results[0]["gold"],
            "cleared": cleared}


def resolution_question(rnd: random.Random, players: int, effects: bool, need_failure: bool) -> Question:
    """R5.1, R5.2, R6.1: the dungeon at the end of round 1's dispatch with its fronts shown;
    which room fails first, each player's treasure, heal costs paid and gold after the round.
    With lord effects, round 1's lord is one that changes numbers (§7)."""
    for _ in range(TRIES):
        setup = new_setup(rnd, players, effects=effects)
        if effects:
            first = rnd.choice(LORD_QUESTION_LORDS + ("guardian",))
            setup = Setup(players, setup.seed, (first, *[x for x in setup.lords if x != first][:players - 1]), True)
        setup = play_until(setup, rnd, dispatch_done, 0.9)
        if setup is None or not dispatch_done(setup.state()):
            continue
        out = _round_one(setup)
        if out["cleared"] == 0 or (need_failure and out["failed"] is None):
            continue
        answers = [Answer("first_failed", out["failed"])]
        for p in range(players):
            answers += [Answer("treasure", out["treasure"][p], {"player": p + 1}),
                        Answer("heal_paid", out["heal"][p], {"player": p + 1}),
                        Answer("gold_after", out["gold"][p], {"player": p + 1})]
        return Question("resolution", {"players": players, "lord": setup.lords[0] if effects else None},
                        tuple(answers), setup)
    raise RuntimeError("no resolution position found")  # pragma: no cover


def lord_question(rnd: random.Random, players: int, lord: str) -> Question:
    """§7, R7.1, R5.3: a room the round's lord changes; its defence, treasure and lock
    threshold with the lord."""
    from ..lords import BASE_LORDS

    others = [x.id for x in BASE_LORDS if x.id != lord]
    setup = new_setup(rnd, players, (lord, *rnd.sample(others, players - 1)), effects=True)
    st = setup.state()
    changed = [i for i in range(st.n_rooms) if st.lord_defence_change(i) or st.lord_treasure_change(i)]
    i = rnd.choice(changed)
    card = st.rooms[i]
    params = {"lord": lord, "room": i + 1, "level": card.level, "defence": card.defence,
              "treasure": card.treasure, "players": players}
    where = {"room": i + 1}
    answers = (Answer("defence_now", st.room_defence(i), where), Answer("treasure_now", st.room_treasure(i), where),
               Answer("lock_now", st.lock_threshold(i), where))
    return Question("lord", params, answers, setup)


def siblings_question(players: int, turns: int = 8) -> Question:
    """The first turns of each compared game (the sibling kernels' turn sequences; Dungeon
    Guilds' from the engine's snake, R4.1) and, per game, how many of those turns seat 1 takes."""
    answers = []
    for game in SIBLINGS:
        seq = game.turn_sequence(players, turns)
        answers += [Answer("game_turn", seat + 1, {"game": game.key, "turn": k + 1}) for k, seat in enumerate(seq)]
        answers.append(Answer("seat1_turns", seq.count(0), {"game": game.key, "turns": turns}))
    return Question("siblings", {"players": players, "turns": turns}, tuple(answers))


def next_start_question(rnd: random.Random, players: int) -> Question:
    """R6.3: round 1 played out by the engine; who holds the start-player marker in round 2."""
    setup = play_until(new_setup(rnd, players), rnd, dispatch_done)
    st = setup.state(hold=False)
    while st.phase == DISPATCH and st.round == 0:  # an R4.7 stall leaves nothing to play
        st.apply_action(random_move(st, rnd))
    return Question("next_start", {"players": players},
                    (Answer("round2_start", st.start + 1),), setup)


# ---------------------------------------------------------------------- worksheets
def worksheet(lesson: str, seed: int = 1) -> Worksheet:
    """The worksheet of ``lesson`` (one of ``LESSONS``) for ``seed``."""
    if lesson not in LESSONS:
        raise ValueError(f"no lesson {lesson!r} (lessons: {', '.join(LESSONS)})")
    seed = int(seed)
    rnd = random.Random(f"dungeon-guilds/worksheet/{lesson}/{seed}")
    if lesson == "learn":
        n = rnd.choice((3, 4, 5))
        qs = (snake_question(n, rnd.randrange(n)), replace_question(rnd, 4, BUMP),
              replace_question(rnd, 3), resolution_question(rnd, rnd.choice((3, 4)), False, True))
    elif lesson == "design":
        lords = rnd.sample(LORD_QUESTION_LORDS, 2)
        qs = (lord_question(rnd, 4, lords[0]), lord_question(rnd, 3, lords[1]),
              resolution_question(rnd, 4, True, True))
    else:
        n = rnd.choice((3, 4))
        qs = (siblings_question(4), snake_question(n, rnd.randrange(1, n)), next_start_question(rnd, n))
    return Worksheet(lesson, seed, qs)


__all__ = ["Answer", "LORD_QUESTION_LORDS", "Question", "Worksheet", "lord_question", "next_start_question",
           "replace_question", "resolution_question", "siblings_question", "snake_question", "worksheet"]
