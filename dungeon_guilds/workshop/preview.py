"""A lord's effect on a sample dungeon: the same round played with and without the lord.

:func:`preview_lord` deals round 1 of a seeded game (the rooms and the players' exhaust choices
come from the seed, as in :class:`~dungeon_guilds.game.Game`), lets the sample players place
their adventurers, and asks the engine what resolving the full dungeon would give
(:meth:`State.preview_resolution`, on the dungeon left by the last placement with resolution
held back: :func:`~dungeon_guilds.analysis.knowledge.pending_after`). It does this twice: with
the lord's effects on, and with the same lord's effects off (rules option ``lords="none"``).

The sample players place, never bump or swap: each picks one of the placements the engine
offers, by a seeded random choice. A placement is legal whatever a room's defence or lock
threshold, so wherever the lord leaves the players the same choices (every room effect, heal
costs, bonus) both dungeons hold exactly the same adventurers and only the lord's numbers
differ. A placement ban changes what players may place; then the two dungeons differ, which is
the lord's effect too. A start-phase flip (the Caveman) does nothing in round 1, which has no
start phase (R7.2), so its preview shows no difference.

Nothing here decides a rule: defences, treasures, lock thresholds, payouts, heal costs and
bonuses are all read from the engine.
"""

from __future__ import annotations

import functools

from dataclasses import dataclass, field
from typing import Any

from ..actions import PLACE, Action
from ..cards import STRENGTHS, Deck, reference_deck
from ..events import Bonus, Heal, RoomOutcome, resolution_events
from ..game import DEFAULT_NAMES, random_exhaust, rng, shuffled_rooms
from ..lords import BASE_LORDS, Lord
from ..money_html import dollars_as_text
from ..rules import Rules
from ..state import DISPATCH, State, strengths_of

__all__ = ["Preview", "SampleRound", "preview_lord", "sample_round"]


@dataclass
class SampleRound:
    """One dungeon of the preview: per-room rows, per-player rows, the engine's events."""

    effects_on: bool
    rooms: list[dict[str, Any]]
    players: list[dict[str, Any]]
    heal_costs: dict[int, int]
    events: list[dict[str, Any]] = field(default_factory=list)
    moves: list[str] = field(default_factory=list)


@dataclass
class Preview:
    lord: Lord
    players: int
    seed: int | str
    without: SampleRound
    with_lord: SampleRound

    def same_adventurers(self) -> bool:
        """Whether both dungeons hold the same adventurers (a room-only lord: always)."""
        return [r["adventurers"] for r in self.without.rooms] == [r["adventurers"] for r in self.with_lord.rooms]

    def room_rows(self) -> list[dict[str, Any]]:
        """One dict per room: the numbers without → with the lord (English column names)."""
        rows = []
        for a, b in zip(self.without.rooms, self.with_lord.rooms):
            rows.append({
                "room": a["room"], "level": a["level"],
                "adventurers": a["adventurers"] if a["adventurers"] == b["adventurers"]
                else f"{a['adventurers']} → {b['adventurers']}",
                "defence": _arrow(a["defence"], b["defence"]),
                "lock threshold": _arrow(a["lock_threshold"], b["lock_threshold"]),
                "treasure": _arrow(a["treasure"], b["treasure"], "$"),
                "result": _arrow(a["result"], b["result"]),
                "payout": _arrow(a["payout"], b["payout"]),
            })
        return rows

    def player_rows(self) -> list[dict[str, Any]]:
        """One dict per player: hand, treasure, bonus, heal paid, gold change (without → with)."""
        rows = []
        for a, b in zip(self.without.players, self.with_lord.players):
            rows.append({"player": a["player"], "hand": _arrow(a["hand"], b["hand"]),
                         "treasure": _arrow(a["treasure"], b["treasure"], "$"),
                         "bonus": _arrow(a["bonus"], b["bonus"], "$"),
                         "heal paid": _arrow(a["heal_paid"], b["heal_paid"], "$"),
                         "gold change": _arrow(a["gold_change"], b["gold_change"], "$")})
        return rows

    def table(self):
        """:meth:`room_rows` as a pandas table (for notebooks; its HTML writes money as text)."""
        return money_frame(self.room_rows())

    def player_table(self):
        """:meth:`player_rows` as a pandas table (for notebooks; its HTML writes money as text)."""
        return money_frame(self.player_rows())


@functools.cache
def _money_frame_class():
    import pandas as pd

    class MoneyFrame(pd.DataFrame):
        """A DataFrame whose HTML (what a notebook shows) writes money as text, never as
        MathJax's mathematics (:func:`~dungeon_guilds.money_html.dollars_as_text`, issue 40)."""

        @property
        def _constructor(self):
            return MoneyFrame

        def _repr_html_(self):
            html = super()._repr_html_()
            return None if html is None else dollars_as_text(html)

    return MoneyFrame


def money_frame(rows):
    """``pandas.DataFrame(rows)`` that shows its money as text in a notebook."""
    return _money_frame_class()(rows)


def _fmt(value: Any, unit: str) -> str:
    if unit and isinstance(value, int):
        return f"−{unit}{-value}" if value < 0 else f"{unit}{value}"
    return str(value)


def _arrow(a: Any, b: Any, unit: str = "") -> str:
    return _fmt(a, unit) if a == b else f"{_fmt(a, unit)} → {_fmt(b, unit)}"


def _fill_lords(lord: Lord, n: int) -> list[Lord]:
    """The previewed lord in round 1; the later rounds' lords do not matter (base lords)."""
    others = [x for x in BASE_LORDS if x.id != lord.id]
    return [lord] + others[: n - 1]


def _new_state(lord: Lord, players: int, seed: int | str, deck: Deck, effects_on: bool) -> State:
    rules = Rules(lords="all" if effects_on else "none")
    names = DEFAULT_NAMES[:players]
    st = State.new(names, shuffled_rooms(deck, seed), _fill_lords(lord, players), deck.levels,
                   deck.heal_costs, rules=rules, start=0, log=True)
    for seat in range(players):  # R2.4 the exhaust choices the seed gives (as Game does)
        a, b = random_exhaust(seed, st.current)
        st.apply_action(Action("exhaust", a, other=b))
    return st


def _placements(st: State, seed: int | str) -> tuple[State, list[str], list[Action]]:
    """Round 1's dispatch with random placements (seeded), resolution held back: the full
    dungeon, the moves in words and the actions."""
    from ..analysis.knowledge import pending_after

    choose = rng(seed, "workshop-preview")
    moves: list[str] = []
    actions: list[Action] = []
    full = st
    while full.phase == DISPATCH:
        legal = [a for a in full.legal_actions() if a.kind == PLACE]
        if not legal:
            break  # every player has two adventurers placed, or nobody can place (R4.7)
        action = legal[choose.randrange(len(legal))]
        moves.append(f"{full.names[full.current]}: {action}")
        actions.append(action)
        full = pending_after(full, action)
    return full, moves, actions


def _outcomes(full: State, events: list, players: int) -> tuple[list[str], list[str], list[int], list[int]]:
    """Each room's result and payout in words, and each player's treasure and bonus, from the
    engine's resolution events (R5, R7.3)."""
    k = len(full.rooms)
    result = ["not reached"] * k
    payout = ["—"] * k
    treasure_of = [0] * players
    bonus_of = [0] * players
    for ev in resolution_events(events):
        if isinstance(ev, RoomOutcome) and ev.cleared:
            i = ev.room - 1
            result[i] = "cleared"
            shares = ", ".join(f"{full.names[p]} ${g}" for p, g in ev.shares.items())
            if ev.to_bank:
                shares += (", " if shares else "") + f"bank ${ev.to_bank}"
            payout[i] = shares or "—"
            for p, g in ev.shares.items():
                treasure_of[p] += g
        elif isinstance(ev, RoomOutcome):
            for r in ev.rooms:
                result[r - 1] = "failed" if r == ev.room else "failed (a room above failed)"
        elif isinstance(ev, Bonus):
            bonus_of[ev.player] += ev.gold
    return result, payout, treasure_of, bonus_of


def _room_rows(full: State, result: list[str], payout: list[str]) -> list[dict[str, Any]]:
    rooms = []
    for i, card in enumerate(full.rooms):
        occ = full.occupants(i)
        rooms.append({
            "room": i + 1, "level": card.level,
            "adventurers": " + ".join(f"{full.names[o] if o >= 0 else 'NPC'} {s}" for o, s in occ) or "—",
            "total": full.room_total(i),
            "defence": full.room_defence(i),
            "lock_threshold": full.lock_threshold(i),
            "treasure": full.room_treasure(i),
            "result": result[i],
            "payout": payout[i],
        })
    return rooms


def sample_round(lord: Lord, effects_on: bool, players: int = 4, seed: int | str = 0,
                 deck: Deck | None = None) -> SampleRound:
    """Round 1 of the sample game with the lord's effects on or off (see the module doc)."""
    deck = deck or reference_deck()
    st = _new_state(lord, players, seed, deck, effects_on)
    gold_before = st.gold[:]
    hands = [strengths_of(st.active[p]) for p in range(players)]  # after the start phase flips
    heal = {s: st.heal_cost(s) for s in STRENGTHS}
    full, moves, actions = _placements(st, seed)
    events = full.preview_resolution()  # the engine resolves the full dungeon (R5)
    result, payout, treasure_of, bonus_of = _outcomes(full, events, players)
    rooms = _room_rows(full, result, payout)
    # heal costs at cleanup (R6.1): apply the same moves to a normal state and read the engine's log
    done = _new_state(lord, players, seed, deck, effects_on)
    for action in actions:
        done.apply_action(action)
    healed = [0] * players
    for ev in resolution_events(done.log, 1):
        if isinstance(ev, Heal):
            healed[ev.player] += ev.paid
    after = done.round_results[0]["gold"] if done.round_results else done.gold
    people = []
    for p in range(players):
        people.append({"player": full.names[p], "hand": " ".join(map(str, hands[p])) or "—",
                       "treasure": treasure_of[p], "bonus": bonus_of[p], "heal_paid": healed[p],
                       "gold_change": after[p] - gold_before[p]})
    return SampleRound(effects_on, rooms, people, heal, events, moves)


def preview_lord(lord: Lord, players: int = 4, seed: int | str = 0, deck: Deck | None = None) -> Preview:
    """The sample round without and with ``lord`` (see the module doc)."""
    return Preview(lord, players, seed, sample_round(lord, False, players, seed, deck),
                   sample_round(lord, True, players, seed, deck))
