"""The game state and the rules that move it: setup, the four phases of a round, the end (R2-R8).

A :class:`State` holds the whole truth of a game, room fronts included; what a player may know
is :meth:`State.view`. It is changed in place by :meth:`State.apply_action` (checked) or
:meth:`State.apply_unchecked` (the simulator's hot path, for actions taken from
:meth:`State.legal_actions`); :meth:`State.copy` is cheap. The :class:`~dungeon_guilds.game.Game`
facade adds names, undo, the record and notebook display on top.

Between two decisions the engine runs every automatic step itself: passes (R4.2, R4.7), the
end of dispatch (R4.8), resolution (R5), cleanup (R6) and the next start phase (R3.1).
"""

from __future__ import annotations

from operator import attrgetter
from typing import Any, Sequence

from . import actions as A
from .actions import BUMP, EXHAUST, PLACE, SWAP, Action
from .cards import ALL_FIVE, STRENGTHS, LevelInfo, RoomCard, strengths_of  # noqa: F401 (re-exported)
from .effects import RoundNumbers, StartFlip
from .errors import GameError, IllegalAction
from .lords import Lord
from .payout import EMPTY, NPC, split  # EMPTY re-exported: the slot marker
from .rules import Rules
from .turn_order import cycle
from .view import KnownHands, PlayerView

SETUP, DISPATCH, OVER = "setup", "dispatch", "over"
START_GOLD = 2  # R2.1
BUMP_FEES = {1: (1, 0), 2: (1, 1), 3: (1, 2)}  # R4.4 level -> (to bank, to the replaced player)
SWAP_FEE = 1  # R4.5
_LEVEL = attrgetter("level")  # a room card's back
NPC_BUMP_FEE = 1  # R10.2

# Actions are small immutable values; the hot path reuses these instead of building new ones.
_PLACE = [[Action(PLACE, s, r) for r in range(8)] for s in range(6)]
_BUMP = [[[Action(BUMP, s, r, x) for x in (0, 1)] for r in range(8)] for s in range(6)]
_SWAP = [[[Action(SWAP, s, r, x) for x in (0, 1)] for r in range(8)] for s in range(6)]
_EXHAUST = [A.exhaust(a, b) for a in STRENGTHS for b in STRENGTHS if a < b]
# ... and, per hand (bitmask of strengths), the actions that hand can take in room r: every
# place, and the bumps/swaps with a strength above t (R4.4, R4.5 need a strictly stronger one).
_PLACES = [[tuple(_PLACE[s][r] for s in STRENGTHS if h >> s & 1) for r in range(8)] for h in range(64)]


def _stronger(table, h):
    return [[[tuple(table[s][r][x] for s in STRENGTHS if h >> s & 1 and s > t) for x in (0, 1)]
             for r in range(8)] for t in range(6)]


_BUMPS = [_stronger(_BUMP, h) for h in range(64)]
_SWAPS = [_stronger(_SWAP, h) for h in range(64)]
_BUMP_TOTAL = {level: bank + victim for level, (bank, victim) in BUMP_FEES.items()}


def beats(total: int, defence: int) -> bool:
    """R5.1 with R5.3: a room is cleared when the total strength in it reaches its defence
    after the lord's change, a defence never below 0. (Probability code asks this too.)"""
    return total >= (defence if defence > 0 else 0)


_LORD_NUMBERS: dict[tuple[Lord | None, int], tuple] = {}


def lord_numbers(lord: Lord | None, k: int) -> tuple:
    """A lord's effects on a dungeon of ``k`` rooms, as numbers: per-room defence and treasure
    changes, conditional room changes, the banned strengths (bitmask), heal-cost changes per
    strength and the lowest-total bonus (§7). ``None``: no effects. Worked out once per
    (lord, k): lords are immutable values."""
    key = (lord, k)
    hit = _LORD_NUMBERS.get(key)
    if hit is not None:
        return hit
    n = RoundNumbers(k)
    for e in (lord.effects if lord is not None else ()):
        e.add_numbers(n)  # each effect class says what it changes (effects.py)
    hit = (tuple(n.defence), tuple(n.treasure), tuple(n.cond), n.ban, tuple(n.heal), n.bonus)
    if len(_LORD_NUMBERS) < 4096:  # workshop lords are made on the fly: keep the cache bounded
        _LORD_NUMBERS[key] = hit
    return hit


def _check_setup(names: Sequence[str], rooms: Sequence[RoomCard], lords: Sequence[Lord], rules: Rules,
                 start: int) -> int:
    """Refuse a set-up the rules do not allow (players, names, start seat, R2.2 lords, R2.3
    rooms); the rooms dealt a round (R10.2: one more with NPCs)."""
    n = len(names)
    rules.check_players(n)
    if len(set(names)) != n:
        raise GameError("names_differ", "players need different names")
    if not 0 <= start < n:
        raise ValueError(f"start player must be a seat 0-{n - 1}")
    per_round = rules.rooms_per_round(n)  # R2.3, R10.2 one extra room with NPCs
    if len(lords) != n:
        raise ValueError(f"a {n}-player game draws {n} lords (R2.2), got {len(lords)}")
    if len(rooms) < n * per_round:
        raise ValueError(
            f"the room deck has {len(rooms)} cards; a {n}-player game deals {n * per_round}"
        )
    return per_round


_SORTED_CARDS: list[tuple] = []  # (a card list, the same cards sorted): the last few games'


def _sorted_cards(cards: Sequence[RoomCard]) -> tuple[RoomCard, ...]:
    """``cards`` sorted by level, defence, treasure (a card is those three numbers, so equal
    keys are equal cards); kept for the card lists of the last few games (a game's list is
    one object, shared by its copies)."""
    for known, ordered in _SORTED_CARDS:
        if known is cards:
            return ordered
    ordered = tuple(sorted(cards, key=lambda c: (c.level, c.defence, c.treasure)))
    _SORTED_CARDS.insert(0, (cards, ordered))
    del _SORTED_CARDS[8:]
    return ordered


class State:
    """A game of Dungeon Guilds in progress. Seats 0..n-1 sit clockwise."""

    __slots__ = (
        # fixed for the game
        "n", "names", "rules", "deck", "cards", "lords", "levels", "base_heal", "rounds", "rooms_per_round",
        "team", "effects_on", "swap_full",
        # the moving parts
        "phase", "round", "start", "order", "current", "pos", "setup_left", "deck_pos",
        "gold", "active", "exhausted", "placed", "bank_in", "bank_out",
        "rooms", "slot_owner", "slot_str", "locked",
        # the round's lord effects, worked out in the start phase
        "lord", "thresh", "defence", "treasure", "cond_mods", "ban", "heal", "bonus",
        # what the table has seen and done
        "seen", "unplayed", "round_results", "log", "actions_taken", "hold_resolution",
        # public facts a seat's knowledge rests on (analysis/knowledge.py): the gold each seat
        # gained by its secret set-up choice (R2.4; -1 before it chose) and, per seat, the
        # strengths seen placed this round (a bumped or swapped adventurer goes back to its
        # owner's hand, but everyone saw it: it is not exhausted)
        "setup_gain", "shown",
        # the legal actions of this position, once asked (None: not yet; see refusal)
        "_legal",
    )

    # ------------------------------------------------------------------ setup (R2)
    @classmethod
    def new(
        cls,
        names: Sequence[str],
        rooms: Sequence[RoomCard],
        lords: Sequence[Lord],
        levels: dict[int, LevelInfo],
        heal_costs: Sequence[int],
        rules: Rules = Rules(),
        start: int = 0,
        log: bool = True,
        cards: Sequence[RoomCard] | None = None,
    ) -> "State":
        """A game at the start of setup, with the room deck and lord deck in draw order.

        R2.1 each player has five adventurers and $2; R2.2 ``lords`` are the lords drawn (one a
        round); R2.3 the first rooms are dealt; R2.5 ``start`` holds the start-player marker.
        The game then waits for each player's secret exhaust choice (R2.4). ``cards`` is the
        deck's public card list (players know which cards exist, not their order); default:
        the cards in ``rooms``.
        """
        n = len(names)
        per_round = _check_setup(names, rooms, lords, rules, start)
        self = cls.__new__(cls)
        self.n = n
        self.names = tuple(names)
        self.rules = rules
        self.deck = tuple(rooms)
        self.cards = tuple(cards) if cards is not None else self.deck
        self.lords = tuple(lords)
        self.levels = dict(levels)
        self.base_heal = tuple(heal_costs)
        self.rounds = n  # R3: as many rounds as players (= lords)
        self.rooms_per_round = per_round
        self.team = rules.team_of(n)
        self.effects_on = rules.lord_effects
        self.swap_full = rules.swap_needs_full_room  # R9.1, asked on every move: kept
        self._set_out(start, log)
        return self

    def _set_out(self, start: int, log: bool) -> None:
        """The moving parts at the start of setup: R2.1 five adventurers and $2 each, R2.5 the
        start-player marker, then R2.3 the first rooms dealt."""
        n = self.n
        self.phase = SETUP
        self.round = 0
        self.start = start
        self.order = cycle(n, start)  # R4.1 the snake from the start player
        self.setup_left = [(start + i) % n for i in range(n)]
        self.current = start
        self.pos = 0
        self.deck_pos = 0
        self.gold = [START_GOLD] * n  # R2.1
        self.bank_in = 0
        self.bank_out = START_GOLD * n
        self.active = [ALL_FIVE] * n
        self.exhausted = [0] * n
        self.placed = [0] * n
        self.seen = []
        self.setup_gain = (-1,) * n
        self.shown = [0] * n
        self.unplayed = [0] * n
        self.round_results = []
        self.actions_taken = 0
        self.hold_resolution = False
        self._legal = None
        self.log = [] if log else None
        if self.log is not None:
            self._ev("setup", players=list(self.names), start=start, gold=START_GOLD)
        self._deal()  # R2.3

    def copy(self, keep_log: bool = False) -> "State":
        """A copy that shares nothing mutable with this state (the log only if asked)."""
        new = State.__new__(State)
        # fixed for the game, or replaced (never changed in place) as the game moves
        new.n, new.names, new.rules, new.deck = self.n, self.names, self.rules, self.deck
        new.cards = self.cards
        new.lords, new.levels, new.base_heal = self.lords, self.levels, self.base_heal
        new.rounds, new.rooms_per_round, new.team = self.rounds, self.rooms_per_round, self.team
        new.effects_on, new.phase, new.round, new.start = self.effects_on, self.phase, self.round, self.start
        new.swap_full = self.swap_full
        new.order = self.order
        new.current, new.pos, new.deck_pos = self.current, self.pos, self.deck_pos
        new.bank_in, new.bank_out, new._legal = self.bank_in, self.bank_out, None
        new.rooms, new.lord, new.thresh = self.rooms, self.lord, self.thresh
        new.defence, new.treasure, new.cond_mods = self.defence, self.treasure, self.cond_mods
        new.ban, new.heal, new.bonus = self.ban, self.heal, self.bonus
        new.actions_taken, new.hold_resolution = self.actions_taken, self.hold_resolution
        # the moving parts
        new.setup_left = self.setup_left[:]
        new.gold = self.gold[:]
        new.active = self.active[:]
        new.exhausted = self.exhausted[:]
        new.placed = self.placed[:]
        new.slot_owner = self.slot_owner[:]
        new.slot_str = self.slot_str[:]
        new.locked = self.locked[:]
        new.seen = self.seen[:]
        new.setup_gain = self.setup_gain  # a tuple: replaced, never changed in place
        new.shown = self.shown[:]
        new.unplayed = self.unplayed[:]
        new.round_results = self.round_results[:]
        new.log = (self.log if keep_log else None)
        return new

    # ------------------------------------------------------------------ questions
    @property
    def is_over(self) -> bool:
        return self.phase == OVER

    def is_terminal(self) -> bool:
        return self.phase == OVER

    @property
    def first_start(self) -> int:
        """The seat that held the start-player marker in round 1 (R2.5): the marker passes one
        seat to the left each round (R6.3)."""
        return (self.start - self.round) % self.n

    @property
    def n_rooms(self) -> int:
        return len(self.rooms)

    def room_total(self, i: int) -> int:
        """The total strength in room ``i`` (0-based), NPCs included."""
        return self.slot_str[2 * i] + self.slot_str[2 * i + 1]

    def slot(self, i: int, x: int) -> tuple[int, int]:
        """(owner, strength) of slot ``x`` (0 for a, 1 for b) of room ``i`` (0-based); owner
        ``EMPTY`` for an empty slot, ``NPC`` for an NPC. Readers outside the engine use this and
        :meth:`slots`, not the flat arrays (the engine's hot path keeps those)."""
        j = 2 * i + x
        return self.slot_owner[j], self.slot_str[j]

    def slots(self) -> list[tuple[int, int]]:
        """Every slot's (owner, strength), room by room from the top, slot a first."""
        return list(zip(self.slot_owner, self.slot_str))

    def set_slot(self, i: int, x: int, owner: int, strength: int) -> None:
        """Put ``owner``'s adventurer of ``strength`` in slot ``x`` of room ``i``, for a
        constructed position (a worked example, the payout explorer): not a move, no rule is
        checked and nothing is logged."""
        j = 2 * i + x
        self.slot_owner[j], self.slot_str[j] = owner, strength
        self._legal = None

    def occupants(self, i: int) -> list[tuple[int, int]]:
        """[(owner, strength), ...] in room ``i`` (owner ``NPC`` for an NPC), slot a first."""
        return [(self.slot_owner[j], self.slot_str[j]) for j in (2 * i, 2 * i + 1)
                if self.slot_owner[j] != EMPTY]

    def lock_threshold(self, i: int) -> int:
        """R4.3 / R7.1: the top of the room's defence range moved by the lord's defence change."""
        t = self.thresh[i] + self._cond_delta(i, 0)
        return t if t > 0 else 0

    def heal_cost(self, strength: int) -> int:
        """This round's heal cost of an adventurer (printed cost + lord modifier, R6.1)."""
        return self.heal[strength]

    def room_defence(self, i: int) -> int:
        """Room ``i``'s defence after the lord's modifiers, never below 0 (R5.3). Hidden
        information: the front is secret until resolution reveals it."""
        d = self.defence[i] + self._cond_delta(i, 0)
        return d if d > 0 else 0

    def room_treasure(self, i: int) -> int:
        """Room ``i``'s treasure after the lord's modifiers, never below 0 (R5.3). Hidden
        information, like :meth:`room_defence`."""
        t = self.treasure[i] + self._cond_delta(i, 1)
        return t if t > 0 else 0

    def lord_defence_change(self, i: int) -> int:
        """How much the round's lord changes room ``i``'s defence (and lock threshold, R7.1)
        given its adventurers now. Public: lords are face up and the dungeon is in view."""
        return self.defence[i] - self.rooms[i].defence + self._cond_delta(i, 0)

    def lord_treasure_change(self, i: int) -> int:
        """How much the round's lord changes room ``i``'s treasure given its adventurers now
        (before R5.3's floor at $0). Public, like :meth:`lord_defence_change`."""
        return self.treasure[i] - self.rooms[i].treasure + self._cond_delta(i, 1)
    def action_fees(self, action: Action) -> tuple[int, int, int]:
        """What ``action`` costs its player now: ``(to the bank, to the replaced player, the
        replaced owner)``. A bump pays by the room's level (R4.4; an NPC $1 to the bank, R10.2),
        a swap $1 to the bank (R4.5); a place or an exhaust is free, as is a slot that holds
        nobody (the owner is then ``EMPTY``). The cost is what :meth:`apply_action` would take;
        whether the action is legal is :meth:`why_illegal`'s question."""
        if action.kind not in (BUMP, SWAP) or not 1 <= action.room <= len(self.rooms) \
                or action.slot not in (0, 1):
            return 0, 0, EMPTY
        i = action.room - 1
        o = self.slot_owner[2 * i + action.slot]
        if o == EMPTY:
            return 0, 0, EMPTY
        if action.kind == SWAP:
            return SWAP_FEE, 0, o
        if o == NPC:
            return NPC_BUMP_FEE, 0, o
        to_bank, to_owner = BUMP_FEES[self.rooms[i].level]
        return to_bank, to_owner, o

    def after(self, action: Action) -> "State":
        """A copy after a legal ``action`` with the end of dispatch held back: the dungeon as
        the move leaves it (fees paid, rooms locked, turn passed), but no room resolved, so no
        hidden front is revealed. For search and hints; the copy has no log."""
        new = self.copy()
        new.hold_resolution = True
        new.apply_unchecked(action)
        return new

    def preview_resolution(self) -> list[dict[str, Any]]:
        """The events (bonus, revealed, cleared/failed with shares) that resolving the dungeon
        as it stands would log (R5), worked out on a copy; this state is unchanged. It reads the
        hidden fronts: for a player's view, call it on a determinized copy (``with_fronts``)."""
        probe = self.copy()
        probe.log = []
        probe._resolve()
        return probe.log

    def returns(self) -> list[int]:
        """Gold per player (OpenSpiel's ``returns``)."""
        return self.gold[:]

    # ------------------------------------------------------------------ legal actions
    def legal_actions(self) -> list[Action]:
        """Every action the player to move may take now (empty when the game is over). The
        list is kept until the next move, so :meth:`refusal` checks a move against it instead
        of deciding legality a second way; treat it as read-only."""
        if self.phase == DISPATCH:
            out = self._dispatch_actions(self.current)
        elif self.phase == SETUP:
            out = list(_EXHAUST)
        else:
            out = []
        self._legal = out
        return out

    def _dispatch_actions(self, p: int) -> list[Action]:
        out: list[Action] = []
        hand = self.active[p] & ~self.ban
        if not hand:
            return out
        owner, strength, locked, rooms = self.slot_owner, self.slot_str, self.locked, self.rooms
        gold = self.gold[p]
        places, bumps, swaps = _PLACES[hand], _BUMPS[hand], _SWAPS[hand]
        full_only = self.swap_full
        a = -2
        for i in range(len(rooms)):
            a += 2
            r = i + 1
            oa, ob = owner[a], owner[a + 1]
            if oa == EMPTY or ob == EMPTY:
                out += places[r]  # R4.3 place (a locked room's free slot too)
                if oa == ob or full_only or locked[i]:  # oa == ob here: both slots empty
                    continue  # nothing to replace; R9.1 (FR) swaps need a full room; locked
                x = 0 if ob == EMPTY else 1  # the one adventurer: no bump in a room not full
                if owner[a + x] == p and gold >= SWAP_FEE:  # R4.5 swap your own, $1
                    out += swaps[strength[a + x]][r][x]
                continue
            if locked[i]:
                continue  # R4.3 a locked room's adventurers stay
            for x in (0, 1):  # slot a, slot b of a full, unlocked room
                o = owner[a + x]
                if o == p:  # R4.5 swap your own, $1
                    if gold >= SWAP_FEE:
                        out += swaps[strength[a + x]][r][x]
                elif gold >= (NPC_BUMP_FEE if o == NPC else _BUMP_TOTAL[rooms[i].level]):  # R4.4, R4.6
                    out += bumps[strength[a + x]][r][x]  # bump (R10.2 an NPC for $1)
        return out

    def _has_legal(self, p: int) -> bool:
        hand = self.active[p] & ~self.ban
        if not hand:
            return False
        if EMPTY in self.slot_owner:
            return True  # a place is possible
        return bool(self._dispatch_actions(p))

    # ------------------------------------------------------------------ refusals
    def refusal(self, action: Action, player: int | None = None) -> IllegalAction | None:
        """Why ``action`` may not be taken now (by ``player``, default the one to move), as an
        :class:`IllegalAction` value (code, rule, params), or None when it is legal. Legality is
        membership in :meth:`legal_actions` (computed once per position); the reason is worked
        out only for a refused action. Never raises for a move; an action that the list refuses
        but no rule explains is an engine bug and raises ``AssertionError``."""
        if self.phase == OVER:
            return IllegalAction("game_over", {}, action)
        if player is not None and player != self.current:
            return IllegalAction("not_your_turn", {"player": self.current, "name": self.names[self.current]},
                                 action)
        if not isinstance(action, Action):
            return IllegalAction("not_an_action", {"action": repr(action)}, action)
        legal = self._legal if self._legal is not None else self.legal_actions()
        probe = action
        if action.kind == EXHAUST and action.strength > action.other:  # 'exhaust 5 4' = 'exhaust 4 5'
            probe = A.exhaust(action.strength, action.other)
        if probe in legal:
            return None
        err = self._explain(action)
        if err is None:  # legal_actions and the reasons disagree: an engine bug, never hidden
            raise AssertionError(f"{action} is not a legal action, yet no rule refuses it")
        return err

    def why_illegal(self, action: Action, player: int | None = None) -> str | None:
        """:meth:`refusal` as an English sentence, or None when the action is legal."""
        err = self.refusal(action, player)
        return None if err is None else str(err)

    def _explain(self, action: Action) -> IllegalAction | None:
        """The rule an action breaks, for the player to move (None: no rule does)."""
        p = self.current
        kind = action.kind

        def no(code: str, **params: Any) -> IllegalAction:
            return IllegalAction(code, params, action)

        if self.phase == SETUP:
            if kind != EXHAUST:
                return no("exhaust_first", player=p, name=self.names[p])
            a, b = action.strength, action.other
            if a not in STRENGTHS or b not in STRENGTHS:
                return no("no_such_strength", strength=a if a not in STRENGTHS else b)
            if a == b:
                return no("exhaust_same_twice", strength=a)
            return None
        if kind == EXHAUST:
            return no("exhaust_after_setup")
        s, r = action.strength, action.room
        if s not in STRENGTHS:
            return no("no_such_strength", strength=s)
        if not 1 <= r <= len(self.rooms):
            return no("no_such_room", room=r, rooms=len(self.rooms))
        bit = 1 << s
        if not self.active[p] & bit:
            if self.exhausted[p] & bit:
                return no("adventurer_exhausted", strength=s)
            return no("adventurer_in_dungeon", strength=s)
        if self.ban & bit:
            return no("lord_forbids", lord=self.lord.id, strength=s)
        i = r - 1
        a, b = 2 * i, 2 * i + 1
        full = self.slot_owner[a] != EMPTY and self.slot_owner[b] != EMPTY
        if kind == PLACE:
            return no("room_full", room=r) if full else None
        if kind not in (BUMP, SWAP) or action.slot not in (0, 1):
            return no("not_an_action", action=repr(action))
        return self._explain_replace(action, p, full)

    def _explain_replace(self, action: Action, p: int, full: bool) -> IllegalAction | None:
        """The rule a bump (R4.4) or swap (R4.5) breaks, checked in the rulebook's order."""
        r, s = action.room, action.strength
        i = r - 1
        j = 2 * i + action.slot
        where = {"room": r, "slot": "ab"[action.slot]}
        o, t = self.slot_owner[j], self.slot_str[j]

        def no(code: str, **params: Any) -> IllegalAction:
            return IllegalAction(code, params, action)

        if o == EMPTY:
            return no("slot_empty", **where)
        if self.locked[i]:
            return no("room_locked", room=r)
        if action.kind == BUMP:
            if o == p:
                return no("bump_own", **where)
            if not full:
                return no("room_not_full", room=r)
            if s <= t:
                return no("bump_too_weak", strength=s, defender=t)
            level = self.rooms[i].level
            if o == NPC:
                return no("bump_npc_fee", fee=NPC_BUMP_FEE, gold=self.gold[p]) if self.gold[p] < NPC_BUMP_FEE else None
            fee = _BUMP_TOTAL[level]
            return no("bump_fee", level=level, fee=fee, gold=self.gold[p]) if self.gold[p] < fee else None
        if o == NPC:
            return no("swap_npc", **where)
        if o != p:
            return no("swap_other", **where, owner=o, name=self.names[o])
        if self.rules.swap_needs_full_room and not full:
            return no("swap_room_not_full", room=r)
        if s <= t:
            return no("swap_too_weak", strength=s, defender=t)
        if self.gold[p] < SWAP_FEE:
            return no("swap_fee", fee=SWAP_FEE, gold=self.gold[p])
        return None

    def is_legal(self, action: Action) -> bool:
        return self.refusal(action) is None

    # ------------------------------------------------------------------ applying actions
    def apply_action(self, action: Action, player: int | None = None) -> None:
        """Take ``action`` for the player to move; refuse an illegal one with
        :class:`IllegalAction` (a ``ValueError``) and leave the state unchanged."""
        err = self.refusal(action, player)
        if err is not None:
            raise err
        self.apply_unchecked(action)

    def apply_unchecked(self, action: Action) -> None:
        """Take a legal ``action`` (from :meth:`legal_actions`) without checking it."""
        self.actions_taken += 1
        self._legal = None
        kind, s, room, slot, other = action
        if kind == EXHAUST:
            self._exhaust(s, other)
            return
        p = self.current
        i = room - 1
        bit = 1 << s
        log = self.log
        owner = self.slot_owner
        if kind == PLACE:  # R4.3
            j = 2 * i if owner[2 * i] == EMPTY else 2 * i + 1
            if log is not None:
                self._ev("placed", player=p, strength=s, room=i + 1, slot="ab"[j - 2 * i])
        else:
            j = 2 * i + slot
            o, t = owner[j], self.slot_str[j]
            if kind == BUMP:
                level = self.rooms[i].level
                if o == NPC:  # R10.2
                    self._pay_bank(p, NPC_BUMP_FEE)
                else:  # R4.4
                    to_bank, to_victim = BUMP_FEES[level]
                    self._pay_bank(p, to_bank)
                    if to_victim:
                        self.gold[p] -= to_victim
                        self.gold[o] += to_victim
                    self.active[o] |= 1 << t  # returns to its owner, active
                    self.placed[o] -= 1
                if log is not None:
                    self._ev("bumped", player=p, strength=s, room=i + 1, slot="ab"[slot],
                             victim=o, victim_strength=t,
                             fee_bank=NPC_BUMP_FEE if o == NPC else BUMP_FEES[level][0],
                             fee_victim=0 if o == NPC else BUMP_FEES[level][1])
            else:  # R4.5 swap
                self._pay_bank(p, SWAP_FEE)
                self.active[p] |= 1 << t
                self.placed[p] -= 1
                if log is not None:
                    self._ev("swapped", player=p, strength=s, room=i + 1, slot="ab"[slot],
                             returned=t, fee_bank=SWAP_FEE)
        owner[j] = p
        self.slot_str[j] = s
        self.shown[p] |= bit
        self.active[p] &= ~bit
        self.placed[p] += 1
        self._check_lock(i)
        if kind == BUMP and o == NPC:
            self._npc_move(i)
        self.pos += 1
        self._next_turn()

    def _pay_bank(self, p: int, amount: int) -> None:
        self.gold[p] -= amount
        self.bank_in += amount

    def _check_lock(self, i: int) -> None:
        """R4.3: a room whose total strength reaches its lock threshold locks at once."""
        if self.locked[i]:
            return
        t = self.thresh[i]
        if self.cond_mods:
            t += self._cond_delta(i, 0)
        if self.slot_str[2 * i] + self.slot_str[2 * i + 1] >= (t if t > 0 else 0):
            self.locked[i] = True
            if self.log is not None:
                self._ev("locked", room=i + 1, total=self.room_total(i), threshold=self.lock_threshold(i))

    # ------------------------------------------------------------------ NPCs (R10.2)
    def _npc_enter(self, i: int) -> None:
        j = 2 * i if self.slot_owner[2 * i] == EMPTY else 2 * i + 1
        self.slot_owner[j] = NPC
        self.slot_str[j] = self.rooms[i].level  # an NPC is as strong as its room's level
        self._check_lock(i)

    def _npc_move(self, i: int) -> None:
        """A replaced NPC goes to the next room below with a free slot, else searches again from
        the first room; with no free slot anywhere it leaves the dungeon (ruling R10.2)."""
        k = len(self.rooms)
        for dest in list(range(i + 1, k)) + list(range(0, k)):
            if EMPTY in (self.slot_owner[2 * dest], self.slot_owner[2 * dest + 1]):
                self._npc_enter(dest)
                if self.log is not None:
                    self._ev("npc_moved", from_room=i + 1, to_room=dest + 1, strength=self.rooms[dest].level)
                return
        if self.log is not None:
            self._ev("npc_left", from_room=i + 1)

    # ------------------------------------------------------------------ setup choice (R2.4)
    def _exhaust(self, a: int, b: int) -> None:
        p = self.current
        mask = (1 << a) | (1 << b)
        self.exhausted[p] = mask
        self.active[p] = ALL_FIVE & ~mask
        gain = self.base_heal[a] + self.base_heal[b]  # ruling R2.4: printed costs, no lord change
        self.gold[p] += gain
        self.bank_out += gain
        self.setup_gain = self.setup_gain[:p] + (gain,) + self.setup_gain[p + 1:]
        if self.log is not None:
            self._ev("exhausted", player=p, strengths=[a, b], gold=gain)
        self.setup_left.pop(0)
        if self.setup_left:
            self.current = self.setup_left[0]
        else:
            self._start_dispatch()

    # ------------------------------------------------------------------ start phase (R3.1)
    def _deal(self) -> None:
        """R2.3 / R3.1: deal rooms face down, sort them by level (stable), reveal the lord and
        work out its effects for this round."""
        k = self.rooms_per_round
        dealt = self.deck[self.deck_pos:self.deck_pos + k]
        self.deck_pos += k
        self.rooms = sorted(dealt, key=_LEVEL)  # Lv1 at the top; ties keep deal order (stable)
        self.slot_owner = [EMPTY] * (2 * k)
        self.slot_str = [0] * (2 * k)
        self.locked = [False] * k
        self.placed = [0] * self.n
        self.shown = [0] * self.n
        self.lord = self.lords[self.round]
        self._apply_lord()
        if self.log is not None:
            self._ev("dealt", levels=[c.level for c in self.rooms], lord=self.lord.id,
                     start=self.start, effects=self.effects_on)

    def _apply_lord(self) -> None:
        """Translate the round's lord into per-room numbers the hot path reads (§7)."""
        k = len(self.rooms)
        d_def, d_tr, cond, ban, heal_delta, bonus = lord_numbers(
            self.lord if self.effects_on else None, k)
        levels = self.levels
        self.thresh = [levels[c.level].defence[1] + d for c, d in zip(self.rooms, d_def)]
        self.defence = [c.defence + d for c, d in zip(self.rooms, d_def)]
        self.treasure = [c.treasure + d for c, d in zip(self.rooms, d_tr)]
        self.cond_mods = cond
        self.ban = ban
        self.heal = [h + d if h + d > 0 else 0 for h, d in zip(self.base_heal, heal_delta)]
        self.bonus = bonus

    def _cond_delta(self, i: int, which: int) -> int:
        """Defence (which=0) or treasure (which=1) change from conditional effects on room i."""
        if not self.cond_mods:
            return 0
        a, b = 2 * i, 2 * i + 1
        equal = (self.slot_owner[a] != EMPTY and self.slot_owner[b] != EMPTY
                 and self.slot_str[a] == self.slot_str[b])
        total = 0
        for room, d_def, d_tr in self.cond_mods:
            if room == i and equal:
                total += d_tr if which else d_def
        return total

    def _start_dispatch(self) -> None:
        """The start phase's flips (the Caveman, R7.2: not in round 1, which has no start phase,
        R3.1), the NPCs (R10.2), then the first turn of the snake (R4.1)."""
        if self.effects_on and self.round > 0:
            for e in self.lord.effects:
                if isinstance(e, StartFlip):
                    ex = sum(1 << s for s in e.exhaust)
                    ac = sum(1 << s for s in e.activate)
                    for p in range(self.n):
                        hand = self.active[p] | self.exhausted[p]
                        self.exhausted[p] = (self.exhausted[p] | (hand & ex)) & ~ac
                        self.active[p] = (self.active[p] | (hand & ac)) & ~ex
                    if self.log is not None:
                        self._ev("flipped", lord=self.lord.id, exhausted=list(e.exhaust),
                                 activated=list(e.activate))
        if self.rules.npc:
            for i in (0, 1):
                self._npc_enter(i)
                if self.log is not None:
                    self._ev("npc_placed", room=i + 1, strength=self.rooms[i].level)
        self.phase = DISPATCH
        self.pos = 0
        self._next_turn()

    # ------------------------------------------------------------------ dispatch (R4)
    def _next_turn(self) -> None:
        """Walk the snake from ``pos`` to the next player who must act (R4.1, R4.2, R4.7);
        end the phase when every player has two adventurers placed or nobody can act (R4.8)."""
        n = self.n
        placed = self.placed
        if 0 not in placed and 1 not in placed:  # R4.8 everyone has two in the dungeon
            self._end_dispatch()
            return
        log = self.log
        order, two_n = self.order, 2 * n
        free_slot = EMPTY in self.slot_owner
        for _ in range(two_n):
            seat = order[self.pos % two_n]  # R4.1 the snake (turn_order.cycle)
            if placed[seat] < 2:
                if (free_slot and self.active[seat] & ~self.ban) or self._has_legal(seat):
                    self.current = seat
                    return
                if log is not None:
                    self._ev("passed", player=seat, code="no_legal_action", reason="no legal action (R4.7)")
            elif log is not None:
                self._ev("passed", player=seat, code="two_placed", reason="two adventurers placed (R4.2)")
            self.pos += 1
        self._end_dispatch()  # R4.7 nobody who still needs to act can act

    def _end_dispatch(self) -> None:
        if self.hold_resolution:  # a search copy: the round stays unresolved, nothing revealed
            return
        for p in range(self.n):
            self.unplayed[p] = self.active[p]  # R8.1 tie-break: active and not played
        failed_from = self._resolve()
        self._cleanup(failed_from)

    # ------------------------------------------------------------------ resolution (R5)
    def _resolve(self) -> int:
        """Reveal rooms from the top; return the index of the first failed room (R5.1)."""
        log = self.log
        gold = self.gold
        if self.bonus:  # the Boardgame Lord: lowest placed total gains, ties all (R7.3)
            totals = [0] * self.n
            for o, s in zip(self.slot_owner, self.slot_str):
                if o >= 0:
                    totals[o] += s
            low = min(totals)
            for p in range(self.n):
                if totals[p] == low:
                    gold[p] += self.bonus
                    self.bank_out += self.bonus
                    if log is not None:
                        self._ev("bonus", player=p, gold=self.bonus, total=low)
        k = len(self.rooms)
        failed_from = k
        owner, strength, cond = self.slot_owner, self.slot_str, self.cond_mods
        for i in range(k):  # R5.1 from the top room down
            card = self.rooms[i]
            self.seen.append(card)
            a = 2 * i
            total = strength[a] + strength[a + 1]
            defence = self.defence[i] + (self._cond_delta(i, 0) if cond else 0)
            if not beats(total, defence):  # R5.1
                failed_from = i
                if log is not None:
                    self._ev("revealed", room=i + 1, defence=card.defence, treasure=card.treasure,
                             defence_now=max(defence, 0), treasure_now=self.room_treasure(i))
                    self._ev("failed", room=i + 1, total=total, defence=max(defence, 0),
                             rooms=list(range(i + 1, k + 1)),
                             occupants=[[owner[j], strength[j]] for j in (a, a + 1) if owner[j] != EMPTY])
                break
            treasure = self.treasure[i] + (self._cond_delta(i, 1) if cond else 0)
            if treasure < 0:
                treasure = 0  # R5.3 never below 0
            occupants = [(owner[j], strength[j]) for j in (a, a + 1) if owner[j] != EMPTY]
            shares, to_bank = split(treasure, occupants)  # R5.2
            for p, amount in shares.items():
                gold[p] += amount
                self.bank_out += amount
            if log is not None:
                self._ev("revealed", room=i + 1, defence=card.defence, treasure=card.treasure,
                         defence_now=max(defence, 0), treasure_now=treasure)
                self._ev("cleared", room=i + 1, total=total, defence=max(defence, 0), treasure=treasure,
                         shares={str(p): v for p, v in shares.items()}, to_bank=to_bank,
                         occupants=[list(x) for x in occupants])
        return failed_from

    # ------------------------------------------------------------------ cleanup (R6)
    def _cleanup(self, failed_from: int) -> None:
        log = self.log
        k = len(self.rooms)
        owner, strength = self.slot_owner, self.slot_str
        n = self.n
        cost = [0] * n
        played = [0] * n
        heal, first_failed_slot = self.heal, 2 * failed_from
        for j in range(2 * k):
            o = owner[j]
            if o >= 0:
                played[o] |= 1 << strength[j]
                if j >= first_failed_slot:
                    cost[o] += heal[strength[j]]  # R6.1 (NPCs pay nothing)
        for p in range(n):
            if cost[p]:
                pay = cost[p] if cost[p] <= self.gold[p] else self.gold[p]  # never below $0
                self.gold[p] -= pay
                self.bank_in += pay
                if log is not None:
                    self._ev("healed", player=p, cost=cost[p], paid=pay)
            # R6.2 exhausted become active; the adventurers placed this round come back exhausted
            self.active[p] = self.active[p] | self.exhausted[p]
            self.exhausted[p] = played[p]
        self.round_results.append({
            "round": self.round + 1,
            "lord": self.lord.id,
            "cleared": failed_from,
            "rooms": k,
            "gold": self.gold[:],
        })
        # R6.3 discard the rooms and the lord, pass the marker to the left
        self.start = (self.start + 1) % n
        self.order = cycle(n, self.start)
        if log is not None:
            self._ev("marker_passed", start=self.start)
        if self.round + 1 >= self.rounds:  # R6.4 no lords left: the game ends
            if log is not None:
                self._ev("game_over", gold=self.gold[:])
            self.round += 1
            self.phase = OVER
            return
        self.round += 1
        self._deal()  # R3.1 start phase of the next round
        self._start_dispatch()

    # ------------------------------------------------------------------ the log
    def _ev(self, kind: str, **data: Any) -> None:
        data["kind"] = kind
        data["round"] = self.round + 1
        self.log.append(data)

    # ------------------------------------------------------------------ invariants (§11)
    def check_invariants(self) -> None:
        """Raise AssertionError if a docs/rules.md §11 invariant is broken."""
        assert sum(self.gold) == self.bank_out - self.bank_in, "gold is not conserved"
        assert all(g >= 0 for g in self.gold), "a player's gold is negative"
        seen_cards = [0] * self.n
        for j, o in enumerate(self.slot_owner):
            if o >= 0 and self.phase != OVER:  # after the last cleanup all are back in hand
                bit = 1 << self.slot_str[j]
                assert not seen_cards[o] & bit, "an adventurer is in two slots"
                seen_cards[o] |= bit
        for p in range(self.n):
            a, e, s = self.active[p], self.exhausted[p], seen_cards[p]
            assert not (a & e or a & s or e & s), f"an adventurer of seat {p} is in two places"
            assert a | e | s == ALL_FIVE, f"an adventurer of seat {p} is missing"
            if self.phase == DISPATCH:
                assert bin(s).count("1") == self.placed[p] <= 2, "more than two adventurers placed"
        assert len(self.slot_owner) == 2 * len(self.rooms), "a room holds more than 2 adventurers"

    # ------------------------------------------------------------------ hidden information
    def unseen_cards(self) -> list[RoomCard]:
        """The room cards nobody has seen a front of: the deck's public card list minus the
        fronts revealed so far. Sorted, so it leaks no order."""
        drop: dict[RoomCard, int] = {}
        for card in self.seen:
            drop[card] = drop.get(card, 0) + 1
        out = []
        for card in _sorted_cards(self.cards):
            k = drop.get(card)
            if k:  # a seen card (a card seen that the list does not hold drops nothing)
                drop[card] = k - 1
            else:
                out.append(card)
        return out

    def with_fronts(self, rooms: Sequence[RoomCard], undealt: Sequence[RoomCard]) -> "State":
        """A copy whose current rooms' fronts and undealt deck are replaced (a determinization
        for search over hidden information). ``rooms`` must keep each room's level."""
        if len(rooms) != len(self.rooms) or any(a.level != b.level for a, b in zip(rooms, self.rooms)):
            raise ValueError("the new fronts must keep each room's level (its back is public)")
        new = self.copy()
        new.rooms = list(rooms)
        k = len(rooms)
        # the round's own cards in the deck follow the new fronts, so unseen_cards() stays true
        new.deck = self.deck[:self.deck_pos - k] + tuple(rooms) + tuple(undealt)
        if len(new.deck) < self.rounds * self.rooms_per_round:
            raise ValueError("the undealt deck is too short for the rounds left")
        new._apply_lord()  # the lord's per-room numbers follow the new fronts
        return new

    def view(self, player: int) -> PlayerView:
        """What ``player`` may know (room backs, public positions, own hand; no fronts)."""
        return PlayerView.of(self, player)

    def known_hands(self, player: int) -> KnownHands:
        """The hands ``player`` may know (:attr:`PlayerView.active`, ``exhausted``) alone: what a
        drawn board reads of :meth:`view`."""
        return KnownHands.of(self, player)
