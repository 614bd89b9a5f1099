"""The ``Game`` facade: player names, seeded set-up, moves by text, undo, the log, the result.

In the spirit of python-chess's ``Board``::

    >>> from dungeon_guilds import Game, Rules
    >>> g = Game(["Ann", "Bo", "Cy"], seed=7, rules=Rules(lords="none"))
    >>> for choice in ("exhaust 4 5", "exhaust 1 2", "exhaust 2 3"):
    ...     _ = g.push(choice)
    >>> g.legal_moves()[:2]
    ['place 1 1', 'place 2 1']
    >>> _ = g.push("place 1 1")    # Ann places her strength-1 adventurer in room 1
    >>> g.why_illegal("bump 3 1a")
    'room 1 is not full: only adventurers in a full room can be bumped (R4.4)'
    >>> g.undo()                   # and takes it back

Every random choice (room shuffle, lords drawn, default exhaust choices) flows from ``seed``
through named streams, so the same seed and moves give the same game, byte for byte.
"""

from __future__ import annotations

import random
from typing import Any, Iterable, Sequence

from .actions import EXHAUST, Action, ActionSyntaxError, parse_move
from .cards import STRENGTHS, Deck, DeckError, RoomCard, reference_deck
from .errors import GameError, IllegalAction
from .events import resolution_start
from .lords import LORDS_BY_ID, Lord, LordError, get_lord, lord_pool
from .rules import Rules
from .record_write import to_record
from .scoring import Result, result
from .state import OVER, SETUP, State

DEFAULT_NAMES = ("Ann", "Bo", "Cy", "Di", "Ed", "Flo")


def rng(seed: int | str, stream: str) -> random.Random:
    """The random stream ``stream`` of a game seeded with ``seed`` (string seeding is stable
    across runs and platforms)."""
    return random.Random(f"dungeon-guilds/{seed}/{stream}")


def shuffled_rooms(deck: Deck, seed: int | str) -> list[RoomCard]:
    """R2.3: the room deck shuffled by ``seed``."""
    rooms = list(deck.rooms)
    rng(seed, "rooms").shuffle(rooms)
    return rooms


def drawn_lords(rules: Rules, n_players: int, seed: int | str) -> list[Lord]:
    """R2.2: draw as many lords as players from the pool the ``lords`` option allows."""
    pool = list(lord_pool(rules.lords))
    return rng(seed, "lords").sample(pool, n_players)


def random_exhaust(seed: int | str, seat: int) -> tuple[int, int]:
    """A default exhaust choice (R2.4) for a seat that did not choose one."""
    a, b = rng(seed, f"exhaust/{seat}").sample(STRENGTHS, 2)
    return (min(a, b), max(a, b))


def check_lords(lords: Sequence[Lord], rules: Rules) -> None:
    """R7.4: a printed promo lord is not in play when the option says base lords only.
    (Workshop lords with their own ids are always allowed.)"""
    if rules.lords != "base":
        return
    for i, lord in enumerate(lords):
        if lord.promo and LORDS_BY_ID.get(lord.id) == lord:
            raise LordError(f"lords[{i}]: {lord.id} is a promo lord, but rules.lords is 'base' "
                            "(use 'all' for promo lords, R7.4)")


def check_rooms(rooms: Sequence[RoomCard], levels) -> None:
    """R1.2: every room card's front lies in the ranges printed on its back."""
    for i, card in enumerate(rooms):
        info = levels.get(card.level)
        if info is None:
            raise DeckError(f"rooms[{i}].level: unknown level {card.level} (rooms have levels 1-3)")
        if not (info.defence[0] <= card.defence <= info.defence[1]
                and info.treasure[0] <= card.treasure <= info.treasure[1]):
            raise DeckError(
                f"rooms[{i}]: Lv{card.level} defence {card.defence} / treasure {card.treasure} is "
                f"outside the ranges on its back ({info.defence[0]}-{info.defence[1]}, "
                f"${info.treasure[0]}-{info.treasure[1]})")


def public_cards(deck: Deck, dealt: Sequence[RoomCard]) -> tuple[RoomCard, ...]:
    """The card list players know: the deck's cards, or — when the rooms dealt are not all from
    that deck (a hand-made dungeon) — just the rooms dealt."""
    left: dict[RoomCard, int] = {}
    for card in deck.rooms:
        left[card] = left.get(card, 0) + 1
    for card in dealt:
        if left.get(card, 0) <= 0:
            return tuple(dealt)
        left[card] -= 1
    return deck.rooms


class Game:
    """A game with names, history and undo. ``state`` is the engine :class:`State`."""

    def __init__(
        self,
        players: Sequence[str] | int = 3,
        *,
        seed: int | str | None = 0,
        rules: Rules | None = None,
        deck: Deck | None = None,
        rooms: Sequence[RoomCard] | None = None,
        lords: Sequence[Lord | str] | None = None,
        start_player: int | str = 0,
        exhaust: dict[str, Iterable[int]] | None = None,
    ):
        names = list(DEFAULT_NAMES[:players]) if isinstance(players, int) else list(players)
        if isinstance(players, int) and not 3 <= players <= 6:
            names = [f"P{i + 1}" for i in range(players)]
        self.rules = rules or Rules()
        self.deck = deck or reference_deck()
        self.seed = seed
        if rooms is None:
            if seed is None:
                raise ValueError("a game needs a seed to shuffle the rooms, or the rooms in order")
            rooms = shuffled_rooms(self.deck, seed)
        if lords is None:
            if seed is None:
                raise ValueError("a game needs a seed to draw the lords, or the lords in order")
            self.rules.check_players(len(names))
            lords = drawn_lords(self.rules, len(names), seed)
        lords = [get_lord(x) if isinstance(x, str) else x for x in lords]
        check_lords(lords, self.rules)
        check_rooms(rooms, self.deck.levels)
        if isinstance(start_player, str):
            if start_player not in names:
                raise ValueError(f"start player {start_player!r} is not one of {', '.join(names)}")
            start_player = names.index(start_player)
        self.rooms_dealt = list(rooms)[: self.rules.rooms_dealt(len(names))]
        self.state = State.new(names, rooms, lords, self.deck.levels, self.deck.heal_costs,
                               rules=self.rules, start=start_player,
                               cards=public_cards(self.deck, self.rooms_dealt))
        self.log: list[dict[str, Any]] = self.state.log
        self.exhaust_choices: dict[str, tuple[int, int]] = {}
        self.comment: str | None = None  # free text carried by the record
        self._moves: list[tuple[int, Action]] = []  # (seat, action) of every dispatch move
        self._undo: list[tuple[State, int, int, dict]] = []
        self._line: list[Action] = []  # every decision of the current line, undone ones too (redo)
        self._auto_exhaust(exhaust or {})

    # ------------------------------------------------------------------ basics
    @property
    def names(self) -> tuple[str, ...]:
        return self.state.names

    @property
    def n_players(self) -> int:
        return self.state.n

    @property
    def is_over(self) -> bool:
        return self.state.phase == OVER

    @property
    def phase(self) -> str:
        return self.state.phase

    @property
    def current(self) -> int:
        """The seat to move."""
        return self.state.current

    @property
    def current_name(self) -> str:
        return self.names[self.state.current]

    @property
    def start_seat(self) -> int:
        """The seat that held the start-player marker in round 1 (R2.5)."""
        return self.state.first_start

    @property
    def lords(self) -> tuple[Lord, ...]:
        return self.state.lords

    @property
    def moves(self) -> list[str]:
        """The dispatch moves so far, as ``"Name: move"`` text."""
        return [f"{self.names[p]}: {a}" for p, a in self._moves]

    @property
    def ply(self) -> int:
        """How many decisions (exhaust choices and moves) have been taken."""
        return len(self._undo)

    def legal_actions(self) -> list[Action]:
        return self.state.legal_actions()

    def legal_moves(self) -> list[str]:
        return [str(a) for a in self.state.legal_actions()]

    def result(self) -> Result:
        return result(self.state)

    def winners(self) -> list[str]:
        return [self.names[s] for s in self.result().winners]

    def view(self, player: int | str):
        if isinstance(player, str):
            player = self.names.index(player)
        return self.state.view(player)

    # ------------------------------------------------------------------ moves
    def parse(self, move: str | Action) -> tuple[int | None, Action]:
        """Parse move text; a ``Name:`` prefix must name a player (returned as a seat)."""
        if isinstance(move, Action):
            return None, move
        name, action = parse_move(move)
        if name is None:
            return None, action
        if name not in self.names:
            raise ActionSyntaxError(f"{name!r} is not a player here ({', '.join(self.names)})",
                                    "not_a_player", name=repr(name), players=tuple(self.names))
        return self.names.index(name), action

    def refusal(self, move: str | Action) -> IllegalAction | ActionSyntaxError | None:
        """Why the move may not be taken now, as a value with a ``code`` and ``params`` (an
        :class:`IllegalAction`, or an ``ActionSyntaxError`` for text that is not a move), or
        None if it may. Never raises; word it with ``i18n.refusal_text``."""
        try:
            seat, action = self.parse(move)
        except ActionSyntaxError as err:
            return err
        return self.state.refusal(action, seat)

    def why_illegal(self, move: str | Action) -> str | None:
        """:meth:`refusal` as an English sentence, or None if the move may be taken."""
        err = self.refusal(move)
        return None if err is None else str(err)

    def push(self, move: str | Action) -> Action:
        """Take a move (text or :class:`Action`) for the player to move; an illegal move raises
        :class:`IllegalAction` (or ``ActionSyntaxError``) and changes nothing."""
        seat, action = self.parse(move)
        err = self.state.refusal(action, seat)
        if err is not None:
            raise err
        self._push(action)
        return action

    def _push(self, action: Action) -> None:
        st = self.state
        ply = len(self._undo)
        if not (ply < len(self._line) and self._line[ply] == action):
            del self._line[ply:]  # a new decision: the undone line ahead is dropped
            self._line.append(action)
        self._undo.append((st.copy(), len(self.log), len(self._moves), dict(self.exhaust_choices)))
        seat = st.current
        st.apply_unchecked(action)
        if action.kind == EXHAUST:
            self.exhaust_choices[self.names[seat]] = (action.strength, action.other)
        else:
            self._moves.append((seat, action))

    def _auto_exhaust(self, choices: dict[str, Iterable[int]]) -> None:
        while self.state.phase == SETUP and self.current_name in choices:
            pair = tuple(choices[self.current_name])
            if len(pair) != 2:
                raise IllegalAction("exhaust_two", {"player": self.current, "name": self.current_name})
            self.push(Action(EXHAUST, int(pair[0]), other=int(pair[1])))
            self._undo.clear()  # the setup given up front is not undoable
            self._line.clear()

    def exhaust_randomly(self) -> None:
        """Let every player still to choose take the seed's default exhaust pair (R2.4)."""
        while self.state.phase == SETUP:
            seat = self.state.current
            a, b = random_exhaust(self.seed if self.seed is not None else 0, seat)
            self.push(Action(EXHAUST, a, other=b))

    def undo(self, steps: int = 1) -> None:
        """Take back the last ``steps`` decisions (python-chess's ``pop``)."""
        if not 0 <= steps <= len(self._undo):
            raise GameError("undo_too_far", f"can undo at most {len(self._undo)} step(s)", steps=len(self._undo))
        for _ in range(steps):
            state, log_len, n_moves, choices = self._undo.pop()
            del self.log[log_len:]
            del self._moves[n_moves:]
            self.exhaust_choices = choices
            state.log = self.log
            self.state = state

    def undo_to(self, ply: int) -> None:
        """Go back to the moment after ``ply`` decisions (time travel through the log)."""
        self.undo(len(self._undo) - ply)

    @property
    def line(self) -> tuple[Action, ...]:
        """The decisions of the current line, those played then those :meth:`redo` can replay."""
        return tuple(self._line)

    @property
    def line_length(self) -> int:
        """The number of decisions of the current line: those played and those undone that
        :meth:`redo` can play again (a new decision after an undo drops the undone ones)."""
        return len(self._line)

    def redo(self, steps: int = 1) -> None:
        """Play again the next ``steps`` undone decisions of the current line."""
        ply = len(self._undo)
        if not 0 <= steps <= len(self._line) - ply:
            raise ValueError(f"can redo at most {len(self._line) - ply} step(s)")
        for action in self._line[ply:ply + steps]:
            self.push(action)

    def go_to(self, ply: int) -> None:
        """Go to the moment after ``ply`` decisions of the current line: back by undo, forward
        by redo (clamped to the line)."""
        ply = max(0, min(ply, len(self._line)))
        if ply <= self.ply:
            self.undo_to(ply)
        else:
            self.redo(ply - self.ply)

    def state_at(self, ply: int) -> State:
        """A copy of the state after ``ply`` decisions, without changing the game."""
        if ply == len(self._undo):
            return self.state.copy()
        return self._undo[ply][0].copy()

    def dispatch_end(self, round_no: int) -> State | None:
        """The dungeon as the dispatch of round ``round_no`` (1-based) left it, just before its
        resolution (R4.8 → R5): every room with its occupants, the fees paid, no front revealed.
        The engine resolves and cleans up in the same step as the move that ends the dispatch;
        this rebuilds the moment in between from the history: the state before that move, with
        the move played and the end of dispatch held back (:meth:`State.after`). None when that
        round has not been resolved on this game's line. The copy has no log."""
        first = resolution_start(self.log, round_no)
        if first is None:
            return None
        for ply in range(len(self._undo) - 1, -1, -1):  # the decision whose push logged it
            before, log_len = self._undo[ply][0], self._undo[ply][1]
            if log_len <= first:
                return before.after(self._line[ply])
        return None

    def copy(self) -> "Game":
        """An independent copy (history included)."""
        new = Game.__new__(Game)
        new.__dict__.update(self.__dict__)
        new.state = self.state.copy()
        new.log = list(self.log)
        new.state.log = new.log
        new._moves = list(self._moves)
        new._undo = list(self._undo)
        new._line = list(self._line)
        new.exhaust_choices = dict(self.exhaust_choices)
        return new

    # ------------------------------------------------------------------ record & display
    def to_record(self) -> dict[str, Any]:
        """The record of this game so far (``docs/record-format.md``)."""
        return to_record(self)

    def __repr__(self) -> str:
        st = self.state
        if st.phase == OVER:
            return f"<Game over: {', '.join(f'{n} ${g}' for n, g in zip(self.names, st.gold))}>"
        return (f"<Game round {st.round + 1}/{st.rounds} {st.phase}, {self.current_name} to move, "
                f"{', '.join(f'{n} ${g}' for n, g in zip(self.names, st.gold))}>")

    def _repr_html_(self) -> str:
        # the drawing layer is imported when a notebook first shows a game, never by
        # ``import dungeon_guilds`` (as python-chess imports chess.svg in _repr_svg_)
        from .drawing.display import game_html

        return game_html(self)
