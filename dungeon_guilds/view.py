"""What one player may know (hidden information made explicit).

A room's front (exact defence and treasure) stays hidden until resolution reveals it; a player
sees room backs (level and the level's ranges), the lord and its effect, every adventurer in the
dungeon, everybody's gold, their own hand, and the fronts revealed so far. Other players'
exhausted adventurers are secret in round 1 (chosen face down, R2.4) unless a start flip made
them public; from round 2 on they are the adventurers everyone saw placed (R6.2).
"""

from __future__ import annotations

from dataclasses import dataclass

from .cards import ALL_FIVE, LevelInfo, RoomCard, strengths_of
from .payout import EMPTY


@dataclass(frozen=True)
class RoomView:
    number: int  # 1 = top
    level: int
    ranges: LevelInfo
    lock_threshold: int
    defence_change: int  # the lord's change to this room's defence, given who is in it (§7)
    locked: bool
    slots: tuple[tuple[int, int] | None, ...]  # (owner, strength) per slot a, b; None if empty


@dataclass(frozen=True)
class KnownHands:
    """The hands ``player`` may know (the part of :class:`PlayerView` a drawn board reads, made
    alone because a class table draws four boards a move, issue 37): each seat's ``active`` and
    ``exhausted`` adventurers (bit masks), -1 where unknown."""

    player: int
    active: tuple[int, ...]
    exhausted: tuple[int, ...]

    @classmethod
    def of(cls, state, player: int) -> "KnownHands":
        # Round 1's exhaust choices stay secret until round 2 (R2.4); a round-1 Caveman changes
        # nothing (R7.2: round 1 has no start phase), so he reveals nothing either.
        public_hands = state.round > 0 and state.phase != "setup"
        active, exhausted = [], []
        for p in range(state.n):
            if p == player or public_hands:
                active.append(state.active[p])
                exhausted.append(state.exhausted[p])
            else:
                active.append(-1)
                exhausted.append(-1)
        return cls(player, tuple(active), tuple(exhausted))


def hidden_levels(state) -> tuple[int, ...]:
    """The levels (sorted) of the rooms dealt in earlier rounds whose fronts were never revealed:
    every player saw their backs (R2.3), and the resolution stopped before them (R5.1)."""
    dealt = state.deck_pos if state.phase == "over" else state.deck_pos - len(state.rooms)
    count: dict[int, int] = {}
    for card in state.deck[:dealt]:
        count[card.level] = count.get(card.level, 0) + 1
    for card in state.seen:
        count[card.level] = count.get(card.level, 0) - 1
    return tuple(level for level in sorted(count) for _ in range(max(0, count[level])))


@dataclass(frozen=True)
class PlayerView:
    player: int
    names: tuple[str, ...]
    round: int  # 1-based
    rounds: int
    phase: str
    current: int
    start: int
    lord_id: str
    lord_effects_on: bool
    gold: tuple[int, ...]
    active: tuple[int, ...]  # own hand; others: -1 where unknown
    exhausted: tuple[int, ...]
    rooms: tuple[RoomView, ...]
    seen: tuple[RoomCard, ...]  # fronts revealed in earlier resolutions
    unseen: tuple[RoomCard, ...]  # the deck's cards (public list) minus those seen, sorted
    deck_left: int
    exhaust_chosen: tuple[int, ...]  # seats that have made their secret setup choice (R2.4)
    heal_costs: tuple[int, ...]
    # what the table saw earlier, which a seat's knowledge rests on (analysis/knowledge.py):
    printed_heal: tuple[int, ...] = ()  # heal costs as printed, by strength (R1.1, R2.4's gain)
    setup_gain: tuple[int, ...] = ()  # gold each seat gained at the set-up (R2.4; -1: not chosen)
    shown: tuple[int, ...] = ()  # per seat, the strengths seen placed this round (bit masks)
    hidden_levels: tuple[int, ...] = ()  # levels of earlier rooms never revealed (backs seen, R6.3)
    lords_shown: tuple[str, ...] = ()  # the lords revealed so far, this round's included (R3.1)

    @classmethod
    def of(cls, state, player: int) -> "PlayerView":
        """What ``player`` may know of ``state`` (a :class:`~dungeon_guilds.state.State`, which
        imports this module: the view reads the state, never the other way round)."""
        hands = KnownHands.of(state, player)
        active, exhausted = hands.active, hands.exhausted
        rooms = []
        for i, card in enumerate(state.rooms):
            slots = tuple(
                None if state.slot_owner[j] == EMPTY else (state.slot_owner[j], state.slot_str[j])
                for j in (2 * i, 2 * i + 1)
            )
            rooms.append(RoomView(i + 1, card.level, state.levels[card.level],
                                  state.lock_threshold(i), state.lord_defence_change(i),
                                  state.locked[i], slots))
        return cls(
            player=player, names=state.names, round=min(state.round, state.rounds - 1) + 1,
            rounds=state.rounds, phase=state.phase, current=state.current, start=state.start,
            lord_id=state.lord.id, lord_effects_on=state.effects_on, gold=tuple(state.gold),
            active=active, exhausted=exhausted, rooms=tuple(rooms),
            exhaust_chosen=tuple(p for p in range(state.n) if p not in state.setup_left),
            seen=tuple(state.seen), unseen=tuple(state.unseen_cards()), deck_left=len(state.deck) - state.deck_pos,
            heal_costs=tuple(state.heal), printed_heal=tuple(state.base_heal),
            setup_gain=tuple(state.setup_gain), shown=tuple(state.shown),
            hidden_levels=hidden_levels(state),
            lords_shown=tuple(lord.id for lord in state.lords[:min(state.round, state.rounds - 1) + 1]),
        )

    def hand(self) -> list[int]:
        """The strengths this player may place now."""
        return strengths_of(self.active[self.player])

    def knows_hand(self, p: int) -> bool:
        return self.active[p] != -1


__all__ = ["KnownHands", "PlayerView", "RoomView", "ALL_FIVE", "hidden_levels"]
