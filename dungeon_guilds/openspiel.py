"""Dungeon Guilds as an OpenSpiel game (the optional ``[openspiel]`` extra).

    >>> import pyspiel
    >>> import dungeon_guilds.openspiel  # registers "python_dungeon_guilds"
    >>> game = pyspiel.load_game("python_dungeon_guilds", {"players": 4, "lords": "base"})

Every rule stays in the engine (:class:`~dungeon_guilds.state.State`); this module only
translates. What OpenSpiel needs and the engine keeps implicit is made explicit:

* **Chance nodes.** A game starts with chance nodes: the lords drawn for the rounds, in order
  (R2.2, outcome = a lord of the pool), then the room deck's shuffle, one node per room card
  the game will deal (R2.3, outcome = a kind of card, weighted by how many of that kind are left).
  Then the engine's state is built from these outcomes and play starts with the secret exhaust
  choices (R2.4). Seat 0 holds the start-player marker (R2.5), as in ``simulate``.
* **Hidden information.** Drawn lords are face down until their round (R3.1), a room's front
  until resolution reveals it (R5.1; rooms below a failure are discarded face down, R6.3), an
  exhaust pair in setup is secret (R2.4). The observation string is the player's
  :class:`~dungeon_guilds.view.PlayerView`; the information-state string is the record of
  everything that player saw happen (public moves, own secret choice, revealed fronts and
  lords, each round's room backs) plus that view. :meth:`DungeonGuildsState.resample_from_infostate`
  draws a world the player cannot tell from the true one (for search on what one knows).
* **Actions** are numbered: 0-9 the exhaust pairs, then place / bump / swap by strength, room
  and slot (:func:`action_id`, :func:`action_of`). **Returns** are the victory shares (1/k
  to each of k winners, R8.1; teams R10.1), so the game is constant-sum (sum 1).

Parameters: ``players`` (3-6), ``lords`` (none, base, all), ``teams`` ("" for none, 2v2,
3v3, 2v2v2), ``npc`` (bool), ``edition`` (zh, fr) — the :class:`~dungeon_guilds.rules.Rules`
options. The deck is the reference deck (R1.4).
"""

from __future__ import annotations

import random
from itertools import combinations
from typing import Any

import numpy as np
import pyspiel

from .actions import BUMP, EXHAUST, PLACE, SWAP, Action
from .cards import STRENGTHS, reference_deck
from .game import DEFAULT_NAMES
from .lords import ALL_LORDS, lord_pool
from .rules import MAX_PLAYERS, MIN_PLAYERS, Rules
from .scoring import result
from .state import OVER, SETUP, State
from .view import PlayerView

GAME_NAME = "python_dungeon_guilds"
MAX_ROOMS = 8  # rooms a round can hold in the action numbering (6 players, or 5 + NPCs, need 6)
PAIRS = [(a, b) for a, b in combinations(STRENGTHS, 2)]
_PLACE0 = len(PAIRS)
_BUMP0 = _PLACE0 + 5 * MAX_ROOMS
_SWAP0 = _BUMP0 + 5 * MAX_ROOMS * 2
NUM_ACTIONS = _SWAP0 + 5 * MAX_ROOMS * 2
DEFAULTS = {"players": 4, "lords": "base", "teams": "", "npc": False, "edition": "zh"}

_DECK = reference_deck()
KINDS = sorted(set(_DECK.rooms), key=lambda c: (c.level, c.defence, c.treasure))
_KIND_INDEX = {card: i for i, card in enumerate(KINDS)}
_KIND_COUNTS = [list(_DECK.rooms).count(card) for card in KINDS]


def action_id(action: Action) -> int:
    """The OpenSpiel number of an engine action."""
    if action.kind == EXHAUST:
        return PAIRS.index((action.strength, action.other))
    cell = (action.strength - 1) * MAX_ROOMS + action.room - 1
    if action.kind == PLACE:
        return _PLACE0 + cell
    return (_BUMP0 if action.kind == BUMP else _SWAP0) + 2 * cell + action.slot


def action_of(number: int) -> Action:
    """The engine action numbered ``number`` (the inverse of :func:`action_id`)."""
    if not 0 <= number < NUM_ACTIONS:
        raise ValueError(f"action {number} is not a Dungeon Guilds action (0-{NUM_ACTIONS - 1})")
    if number < _PLACE0:
        a, b = PAIRS[number]
        return Action(EXHAUST, a, other=b)
    if number < _BUMP0:
        s, r = divmod(number - _PLACE0, MAX_ROOMS)
        return Action(PLACE, s + 1, r + 1)
    kind, base = (BUMP, _BUMP0) if number < _SWAP0 else (SWAP, _SWAP0)
    cell, slot = divmod(number - base, 2)
    s, r = divmod(cell, MAX_ROOMS)
    return Action(kind, s + 1, r + 1, slot)


def rules_of(params: dict[str, Any]) -> Rules:
    """The rule options named by the game's parameters."""
    return Rules(lords=params["lords"], teams=params["teams"] or None, npc=bool(params["npc"]),
                 edition=params["edition"])


_GAME_TYPE = pyspiel.GameType(
    short_name=GAME_NAME,
    long_name="Python Dungeon Guilds",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.CONSTANT_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=MAX_PLAYERS,
    min_num_players=MIN_PLAYERS,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=False,
    parameter_specification=dict(DEFAULTS),
)


class DungeonGuildsGame(pyspiel.Game):
    """The game with its options; ``new_initial_state()`` starts at the first chance node."""

    def __init__(self, params=None):
        merged = dict(DEFAULTS)
        merged.update(params or {})
        n = int(merged["players"])
        rules = rules_of(merged)
        rules.check_players(n)  # a clear error for a combination the rules refuse
        per_round = rules.rooms_per_round(n)
        info = pyspiel.GameInfo(
            num_distinct_actions=NUM_ACTIONS,
            max_chance_outcomes=max(len(ALL_LORDS), len(KINDS)),
            num_players=n,
            min_utility=0.0,
            max_utility=1.0,
            utility_sum=1.0,
            # chance nodes, exhaust choices, then dispatch: every move but a placement costs
            # at least $1 and the gold in a game is bounded, so a round has a bounded length
            max_game_length=n + n * per_round + n + 400 * n,
        )
        super().__init__(_GAME_TYPE, info, params or {})
        self.n = n
        self.rules = rules
        self.pool = lord_pool(rules.lords)
        self.rooms_dealt = n * per_round

    def new_initial_state(self):
        return DungeonGuildsState(self)

    def make_py_observer(self, iig_obs_type=None, params=None):
        return DungeonGuildsObserver(
            iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), params)


class _Engine:
    """What a state holds: the engine's state, the chance outcomes drawn and the events seen.
    OpenSpiel clones a Python state with ``deepcopy``; this copies it the cheap way (the
    engine's own copy, which shares the immutable cards, lords and rules)."""

    __slots__ = ("state", "lords", "rooms", "events")

    def __init__(self, state: State | None, lords: list[int], rooms: list[int],
                 events: list[tuple[int | None, str]]):
        self.state = state
        self.lords = lords  # pool indices drawn
        self.rooms = rooms  # card kinds dealt, in deck order
        self.events = events  # (who saw it: None = everyone, text)

    def __deepcopy__(self, memo):
        return _Engine(None if self.state is None else self.state.copy(), self.lords[:],
                       self.rooms[:], self.events[:])


class DungeonGuildsState(pyspiel.State):
    """A game in progress: chance nodes first, then the engine's state."""

    def __init__(self, game: DungeonGuildsGame):
        super().__init__(game)
        self._n = game.n
        self._to_deal = game.rooms_dealt
        self._engine = _Engine(None, [], [], [])

    @property
    def _pool(self):
        return self.get_game().pool

    @property
    def _lords(self) -> list[int]:
        return self._engine.lords

    @property
    def _rooms(self) -> list[int]:
        return self._engine.rooms

    @property
    def _events(self) -> list[tuple[int | None, str]]:
        return self._engine.events

    # ------------------------------------------------------------------ the engine
    @property
    def engine(self) -> State:
        """The engine's state (None while the chance nodes of setup are being drawn)."""
        return self._engine.state

    def current_player(self):
        st = self._engine.state
        if st is None:
            return pyspiel.PlayerId.CHANCE
        if st.phase == OVER:
            return pyspiel.PlayerId.TERMINAL
        return st.current

    def _legal_actions(self, player):
        st = self._engine.state
        if st is None or st.phase == OVER or player != st.current:
            return []
        return sorted(action_id(a) for a in st.legal_actions())

    def chance_outcomes(self):
        if len(self._lords) < self._n:  # R2.2 the lords, drawn one by one
            left = [i for i in range(len(self._pool)) if i not in self._lords]
            return [(i, 1.0 / len(left)) for i in left]
        counts = list(_KIND_COUNTS)  # R2.3 the shuffled deck, card by card
        for k in self._rooms:
            counts[k] -= 1
        total = sum(counts)
        return [(k, c / total) for k, c in enumerate(counts) if c]

    def _apply_action(self, action):
        st = self._engine.state
        if st is None:
            self._chance(action)
            return
        p = st.current
        engine_action = action_of(action)
        before_round, before_seen = st.round, len(st.seen)
        st.apply_unchecked(engine_action)  # OpenSpiel passes only legal actions
        if engine_action.kind == EXHAUST:  # R2.4 the pair is secret; the gold is on the table
            self._events.append((p, f"you exhaust {engine_action.strength} {engine_action.other}"))
            self._events.append((None, f"seat {p + 1} exhausts two adventurers (gold now ${st.gold[p]})"))
        else:
            self._events.append((None, f"seat {p + 1}: {engine_action}"))
        if st.round != before_round or st.phase == OVER:
            self._events.append((None, self._resolution_text(st, before_seen)))

    def _chance(self, outcome: int) -> None:
        if len(self._lords) < self._n:
            self._lords.append(outcome)
        else:
            self._rooms.append(outcome)
        if len(self._rooms) == self._to_deal:
            self._start()

    def _start(self) -> None:
        deck = _DECK
        lords = [self._pool[i] for i in self._lords]
        rooms = [KINDS[k] for k in self._rooms]
        st = State.new(DEFAULT_NAMES[:self._n], rooms, lords, deck.levels, deck.heal_costs,
                       rules=self.get_game().rules, start=0, log=False, cards=deck.rooms)
        self._engine.state = st
        self._events.append((None, self._round_text(st)))

    @staticmethod
    def _round_text(st: State) -> str:
        return (f"round {st.round + 1}: lord {st.lord.id}, rooms of levels "
                f"{' '.join(str(c.level) for c in st.rooms)}")

    def _resolution_text(self, st: State, before_seen: int) -> str:
        fronts = ", ".join(f"Lv{c.level} {c.defence}/${c.treasure}" for c in st.seen[before_seen:])
        text = f"revealed {fronts or 'nothing'}; gold {' '.join(f'${g}' for g in st.gold)}"
        if st.phase != OVER:
            text += "; " + self._round_text(st)
        return text

    # ------------------------------------------------------------------ results and text
    def is_terminal(self):
        st = self._engine.state
        return st is not None and st.phase == OVER

    def returns(self):
        st = self._engine.state
        if st is None or st.phase != OVER:
            return [0.0] * self._n
        winners = result(st).winners  # R8.1, teams R10.1
        return [1.0 / len(winners) if p in winners else 0.0 for p in range(self._n)]

    def _action_to_string(self, player, action):
        if player == pyspiel.PlayerId.CHANCE:
            if len(self._lords) < self._n:
                return f"lord {self._pool[action].id}"
            card = KINDS[action]
            return f"room Lv{card.level} {card.defence}/${card.treasure}"
        return str(action_of(action))

    def __str__(self):
        """Everything, hidden fronts included (for debugging and serialization checks)."""
        lords = ",".join(self._pool[i].id for i in self._lords)
        rooms = ",".join(str(k) for k in self._rooms)
        st = self._engine.state
        if st is None:
            return f"dealing lords [{lords}] rooms [{rooms}]"
        return (f"lords [{lords}] rooms [{rooms}] round {st.round + 1} {st.phase} seat {st.current + 1} "
                f"gold {st.gold} active {st.active} exhausted {st.exhausted} "
                f"slots {st.slots()} locked {st.locked}")

    # ------------------------------------------------------------------ what a player knows
    def observation_text(self, player: int, private: bool = True) -> str:
        """The player's view now (PlayerView): round, lord, gold, hands known, the rooms' backs
        and adventurers, the fronts revealed so far. ``private=False``: the public part only."""
        st = self._engine.state
        if st is None:
            return "setup: lords and rooms being dealt face down"
        v = PlayerView.of(st, player)
        hands = []
        for p in range(self._n):
            if v.knows_hand(p) and (private or p != player or v.active[p] == -1):
                hands.append(f"seat {p + 1} active {_mask(v.active[p])} exhausted {_mask(v.exhausted[p])}")
        rooms = []
        for r in v.rooms:
            slots = " ".join("-" if s is None else ("npc" if s[0] < 0 else f"s{s[0] + 1}") + f":{s[1]}"
                             for s in r.slots)
            rooms.append(f"room {r.number} Lv{r.level} lock {r.lock_threshold}"
                         f"{' locked' if r.locked else ''} [{slots}]")
        seen = ", ".join(f"Lv{c.level} {c.defence}/${c.treasure}" for c in v.seen)
        lines = [f"round {v.round}/{v.rounds} {v.phase}; seat {v.current + 1} to move; lord {v.lord_id}"
                 f"{'' if v.lord_effects_on else ' (no effects)'}",
                 "gold " + " ".join(f"${g}" for g in v.gold),
                 *(hands if private else [h for h in hands if not h.startswith(f"seat {player + 1} ")]),
                 *rooms,
                 f"fronts seen: {seen or 'none'}; deck left {v.deck_left}"]
        if private and st.phase == SETUP:
            lines.append("exhaust chosen by seats " + " ".join(str(p + 1) for p in v.exhaust_chosen))
        return "\n".join(lines)

    def information_text(self, player: int, private: bool = True) -> str:
        """Everything ``player`` saw happen, in order, then the view now (perfect recall)."""
        seen = [text for who, text in self._events if who is None or (private and who == player)]
        return "\n".join([f"seat {player + 1}", *seen, "--", self.observation_text(player, private)])

    # ------------------------------------------------------------------ search on what one knows
    def resample_from_infostate(self, player_id, probability_sampler):
        """A state ``player_id`` cannot tell from this one (same information state), with the
        hidden parts drawn afresh: lords not yet revealed, room fronts not yet revealed
        (keeping every dealt room's level), the undealt deck, other players' secret exhaust
        pairs (keeping the gold they gained and the adventurers they were seen to use)."""
        st = self._engine.state
        game = self.get_game()
        if st is None:
            return game.new_initial_state()
        rng = random.Random(int(probability_sampler() * 2 ** 53))
        for _ in range(50):
            world = self._draw_world(st, player_id, rng)
            if world is not None:
                return world
        return self.clone()  # the true world is always consistent (a very unlikely fallback)

    def _draw_world(self, st: State, player: int, rng: random.Random):
        game = self.get_game()
        revealed_lords = st.round + 1 if st.phase != OVER else self._n
        lords = self._lords[:revealed_lords]
        rest = [i for i in range(len(self._pool)) if i not in lords]
        rng.shuffle(rest)
        lords += rest[:self._n - len(lords)]
        rooms = self._draw_rooms(st, rng)
        actions = [a for a in self.history()[len(self._lords) + len(self._rooms):]]
        actions = self._draw_exhausts(st, player, actions, rng)
        world = game.new_initial_state()
        for outcome in lords + rooms:
            world.apply_action(outcome)
        for action in actions:
            if world.is_terminal() or action not in world.legal_actions():
                return None  # a hand drawn for another player would not have played this way
            world.apply_action(action)
        if world.information_state_string(player) != self.information_state_string(player):
            return None
        return world

    def _draw_rooms(self, st: State, rng: random.Random) -> list[int]:
        """Deck positions keep what was revealed; a dealt room keeps its level."""
        k = st.rooms_per_round
        dealt_rounds = min(st.round + 1, st.rounds) if st.phase != OVER else st.rounds
        counts = list(_KIND_COUNTS)
        fixed: dict[int, int] = {}
        level_only: dict[int, int] = {}
        for r in range(dealt_rounds):
            order = sorted(range(r * k, (r + 1) * k), key=lambda pos: KINDS[self._rooms[pos]].level)
            shown = 0
            if r < len(st.round_results):
                cleared = st.round_results[r]["cleared"]
                shown = k if cleared >= k else cleared + 1  # R5.1 down to the first failure
            for i, pos in enumerate(order):
                if i < shown:
                    fixed[pos] = self._rooms[pos]
                    counts[self._rooms[pos]] -= 1
                else:
                    level_only[pos] = KINDS[self._rooms[pos]].level
        out = [0] * len(self._rooms)
        for pos, kind in fixed.items():
            out[pos] = kind
        for pos, level in level_only.items():
            choices = [kind for kind, c in enumerate(counts) if c and KINDS[kind].level == level
                       for _ in range(c)]
            kind = rng.choice(choices)
            counts[kind] -= 1
            out[pos] = kind
        rest = [kind for kind, c in enumerate(counts) for _ in range(c)]
        rng.shuffle(rest)
        undealt = [pos for pos in range(len(self._rooms)) if pos not in fixed and pos not in level_only]
        for pos, kind in zip(undealt, rest):
            out[pos] = kind
        return out

    def _draw_exhausts(self, st: State, player: int, actions: list[int], rng: random.Random) -> list[int]:
        """Other players' secret exhaust pairs (the first ``n`` player actions, seat order from
        the start player): any pair with the same heal-cost total (their gold gain is public)
        and none of the adventurers they were seen to use in round 1."""
        view = PlayerView.of(st, player)
        actions = list(actions)
        setup = actions[:self._n]
        used = [0] * self._n
        round1 = actions[self._n:]
        world = self.get_game().new_initial_state()
        # who played which adventurer in round 1: replay the public moves on the true state
        for outcome in self._lords + self._rooms:
            world.apply_action(outcome)
        for a in setup:
            world.apply_action(a)
        for a in round1:
            if world.engine.round > 0:
                break
            used[world.engine.current] |= 1 << action_of(a).strength
            world.apply_action(a)
        heal = st.base_heal
        for i, a in enumerate(setup):
            seat = i  # setup goes round the table from seat 0, the start player (R2.5)
            if seat == player or view.knows_hand(seat):
                continue
            a0, b0 = PAIRS[a]
            options = [j for j, (x, y) in enumerate(PAIRS)
                       if heal[x] + heal[y] == heal[a0] + heal[b0]
                       and not used[seat] & ((1 << x) | (1 << y))]
            actions[i] = rng.choice(options)
        return actions


def _mask(mask: int) -> str:
    return "".join(str(s) for s in STRENGTHS if mask >> s & 1) or "-"


class DungeonGuildsObserver:
    """Strings only (no tensors): the observation (the view now) or, with perfect recall, the
    information state (everything seen, in order). ``private_info`` NONE gives the public part."""

    def __init__(self, iig_obs_type, params):
        if params:
            raise ValueError(f"observation parameters are not supported, got {params}")
        if iig_obs_type.private_info == pyspiel.PrivateInfoType.ALL_PLAYERS:
            raise ValueError("Dungeon Guilds has no observer that sees every player's secrets")
        self.perfect_recall = iig_obs_type.perfect_recall
        self.private = iig_obs_type.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER
        self.tensor = np.zeros(0, np.float32)
        self.dict: dict[str, Any] = {}

    def set_from(self, state, player):
        """No tensor to fill."""

    def string_from(self, state, player):
        if self.perfect_recall:
            return state.information_text(player, self.private)
        return state.observation_text(player, self.private)


pyspiel.register_game(_GAME_TYPE, DungeonGuildsGame)


def option_combinations() -> list[dict[str, Any]]:
    """Every combination of parameters the rules allow (players x lords x teams x NPCs x
    edition)."""
    out = []
    for n in range(MIN_PLAYERS, MAX_PLAYERS + 1):
        for lords in ("none", "base", "all"):
            for teams in ("", "2v2", "3v3", "2v2v2"):
                for npc in (False, True):
                    for edition in ("zh", "fr"):
                        params = {"players": n, "lords": lords, "teams": teams, "npc": npc,
                                  "edition": edition}
                        try:
                            rules_of(params).check_players(n)
                        except ValueError:
                            continue
                        out.append(params)
    return out


__all__ = ["DungeonGuildsGame", "DungeonGuildsState", "GAME_NAME", "KINDS", "NUM_ACTIONS",
           "action_id", "action_of", "option_combinations", "rules_of"]
