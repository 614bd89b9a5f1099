"""The effect vocabulary of Dungeon Lords (§7): lords are data, the engine interprets them.

Every printed lord is a tuple of these small effects, and a workshop can compose new lords from
the same pieces. The engine reads them in four places only:

* start phase: :class:`StartFlip` (the Caveman, R7.2);
* dispatch: :class:`PlacementBan` (the Succubus) and the defence part of :class:`RoomModifier`,
  which moves the lock threshold by the same amount (R7.1);
* resolution: :class:`RoomModifier` (defence and treasure, never below 0, R5.3) and
  :class:`LowestTotalBonus` (the Boardgame Lord, R7.3);
* cleanup: :class:`HealModifier` (the Guardian; not at setup, R2.4).

Each effect class declares, once, everything the rest of the package needs of it:

* ``kind``: its name in data (lord files, records, the workshop);
* :meth:`add_numbers`: what it does to the round's per-room numbers (the engine's reading,
  :func:`dungeon_guilds.state.lord_numbers`; the start-phase flip acts in the start phase);
* :meth:`rules`: the rules it touches (the lord cards' rulings and ``lords --json``);
* :meth:`words`: its sentence as a template key and plain params, worded by
  :func:`dungeon_guilds.effect_words.effect_words` from ``strings/<lang>/rule_cards.toml``;
* :meth:`problem`: why a well-formed effect does nothing (a workshop error code and params).

A new effect type is one class here with those five, its template in
``strings/en/rule_cards.toml`` and ``strings/zh/rule_cards.toml``, and its row in the lord
builder; ``tests/test_effect_vocabulary.py`` checks that every class declares them.
"""

from __future__ import annotations

from dataclasses import MISSING, dataclass
from typing import Any, Mapping

Problem = tuple[str, dict[str, Any]] | None  # (workshop error code, its params), None if fine


class RoundNumbers:
    """A lord's effects on a dungeon of ``k`` rooms, summed: per-room defence and treasure
    changes, conditional room changes, the banned strengths (bitmask), heal-cost changes per
    strength and the lowest-total bonus (see :func:`dungeon_guilds.state.lord_numbers`)."""

    __slots__ = ("k", "defence", "treasure", "cond", "ban", "heal", "bonus")

    def __init__(self, k: int) -> None:
        self.k = k
        self.defence = [0] * k
        self.treasure = [0] * k
        self.cond: list[tuple[int, int, int]] = []
        self.ban = 0
        self.heal = [0] * 6
        self.bonus = 0


class EffectError(ValueError):
    """An effect description that cannot be used; the message names the field."""


ALWAYS = "always"
EQUAL_STRENGTHS = "equal_strengths"
CONDITIONS = (ALWAYS, EQUAL_STRENGTHS)


@dataclass(frozen=True, slots=True)
class RoomModifier:
    """Change the defence and/or treasure of some rooms.

    ``rooms`` picks rooms by position: 1 is the first (top) room, 2 the second, -1 the last
    (bottom) room, -2 the one above it; empty means every room. ``when`` is ``"always"`` or
    ``"equal_strengths"`` (the room's two adventurers are equally strong).
    """

    rooms: tuple[int, ...] = ()
    defence: int = 0
    treasure: int = 0
    when: str = ALWAYS

    kind = "room"

    def selects(self, index: int, n_rooms: int) -> bool:
        """Whether the room at 0-based ``index`` of ``n_rooms`` is chosen."""
        if not self.rooms:
            return True
        for pos in self.rooms:
            if (pos > 0 and pos - 1 == index) or (pos < 0 and n_rooms + pos == index):
                return True
        return False

    def add_numbers(self, numbers: RoundNumbers) -> None:
        for i in range(numbers.k):
            if self.selects(i, numbers.k):
                if self.when == EQUAL_STRENGTHS:
                    numbers.cond.append((i, self.defence, self.treasure))
                else:
                    numbers.defence[i] += self.defence
                    numbers.treasure[i] += self.treasure

    def rules(self) -> tuple[str, ...]:
        """R7.1 a defence change moves the lock threshold; R5.3 a change below 0 stops at 0;
        R5.2 the equal-strengths condition reads the room's two adventurers."""
        return ((("R7.1",) if self.defence else ())
                + (("R5.3",) if self.defence < 0 or self.treasure < 0 else ())
                + (("R5.2",) if self.when == EQUAL_STRENGTHS else ()))

    def words(self) -> tuple[str, dict[str, Any]]:
        return "room", {"rooms": self.rooms, "defence": self.defence, "treasure": self.treasure,
                        "when": self.when}

    def problem(self) -> Problem:
        return ("room_effect_no_change", {}) if self.defence == 0 and self.treasure == 0 else None


@dataclass(frozen=True, slots=True)
class HealModifier:
    """Adventurers of the given strengths cost ``delta`` more to heal in cleanup (R6.1)."""

    strengths: tuple[int, ...]
    delta: int
    kind = "heal"

    def add_numbers(self, numbers: RoundNumbers) -> None:
        for s in self.strengths:
            numbers.heal[s] += self.delta

    def rules(self) -> tuple[str, ...]:
        """R6.1 healing at cleanup; R2.4 the setup exhaust gold keeps the printed costs."""
        return ("R2.4", "R6.1")

    def words(self) -> tuple[str, dict[str, Any]]:
        return "heal", {"strengths": self.strengths, "delta": self.delta}

    def problem(self) -> Problem:
        if not self.strengths:
            return "heal_no_strengths", {}
        return ("heal_zero", {}) if self.delta == 0 else None


@dataclass(frozen=True, slots=True)
class PlacementBan:
    """Players cannot put adventurers of these strengths into the dungeon this round."""

    strengths: tuple[int, ...]
    kind = "ban"

    def add_numbers(self, numbers: RoundNumbers) -> None:
        for s in self.strengths:
            numbers.ban |= 1 << s

    def rules(self) -> tuple[str, ...]:
        return ("R7.5",)

    def words(self) -> tuple[str, dict[str, Any]]:
        return "ban", {"strengths": self.strengths}

    def problem(self) -> Problem:
        if not self.strengths:
            return "ban_no_strengths", {}
        return ("ban_every_strength", {}) if set(self.strengths) == {1, 2, 3, 4, 5} else None


@dataclass(frozen=True, slots=True)
class StartFlip:
    """In the start phase, adventurers of ``exhaust`` strengths become exhausted and those of
    ``activate`` strengths become active (the Caveman)."""

    exhaust: tuple[int, ...]
    activate: tuple[int, ...]
    kind = "flip"

    def add_numbers(self, numbers: RoundNumbers) -> None:
        """Nothing: the flip acts in the start phase (``State._start_dispatch``, R7.2)."""

    def rules(self) -> tuple[str, ...]:
        return ("R7.2",)

    def words(self) -> tuple[str, dict[str, Any]]:
        if not self.activate:
            return "flip_exhaust", {"exhaust": self.exhaust}
        if not self.exhaust:
            return "flip_activate", {"activate": self.activate}
        return "flip", {"exhaust": self.exhaust, "activate": self.activate}

    def problem(self) -> Problem:
        if not self.exhaust and not self.activate:
            return "flip_no_strengths", {}
        both = sorted(set(self.exhaust) & set(self.activate))
        return ("flip_both", {"strength": both[0]}) if both else None


@dataclass(frozen=True, slots=True)
class LowestTotalBonus:
    """As resolution starts, every player whose placed adventurers have the lowest total
    strength gains ``amount`` from the bank (ties: all of them, R7.3)."""

    amount: int
    kind = "bonus"

    def __post_init__(self) -> None:
        if self.amount < 0:
            raise EffectError("a lowest-total bonus is paid by the bank and cannot be negative")

    def add_numbers(self, numbers: RoundNumbers) -> None:
        numbers.bonus += self.amount

    def rules(self) -> tuple[str, ...]:
        return ("R7.3",)

    def words(self) -> tuple[str, dict[str, Any]]:
        return "bonus", {"amount": self.amount}

    def problem(self) -> Problem:
        return ("bonus_zero", {}) if self.amount == 0 else None


Effect = RoomModifier | HealModifier | PlacementBan | StartFlip | LowestTotalBonus
EFFECT_TYPES = (RoomModifier, HealModifier, PlacementBan, StartFlip, LowestTotalBonus)

_KINDS = {cls.kind: cls for cls in EFFECT_TYPES}


def effects_rules(effects, promo: bool = False, ruling: str = "") -> list[str]:
    """The rules a lord with these effects touches, in order: each effect's
    (:meth:`RoomModifier.rules` …), R7.4 for a promo lord, and the lord's own ruling."""
    out: list[str] = []
    for effect in effects:
        out += effect.rules()
    if promo:
        out.append("R7.4")
    if ruling:
        out.append(ruling)
    return list(dict.fromkeys(out))


def effect_to_dict(effect: Effect) -> dict[str, Any]:
    data: dict[str, Any] = {"kind": effect.kind}
    for name in effect.__dataclass_fields__:
        value = getattr(effect, name)
        data[name] = list(value) if isinstance(value, tuple) else value
    return data


def effect_from_dict(data: Mapping[str, Any], where: str = "effect") -> Effect:
    """Build an effect from a dict such as ``{"kind": "room", "rooms": [-1], "treasure": 10}``."""
    if not isinstance(data, Mapping):
        raise EffectError(f"{where}: expected a table with a 'kind'")
    kind = data.get("kind")
    if kind not in _KINDS:
        raise EffectError(f"{where}.kind: unknown effect kind {kind!r} (known: {', '.join(_KINDS)})")
    cls = _KINDS[kind]
    kwargs: dict[str, Any] = {}
    for name, fld in cls.__dataclass_fields__.items():
        if name not in data:
            if fld.default is MISSING:
                raise EffectError(f"{where}.{name}: missing")
            continue
        value = data[name]
        if name in ("rooms", "strengths", "exhaust", "activate"):
            if not isinstance(value, (list, tuple)) or not all(
                isinstance(v, int) and not isinstance(v, bool) for v in value
            ):
                raise EffectError(f"{where}.{name}: expected a list of whole numbers")
            if name != "rooms" and any(not 1 <= v <= 5 for v in value):
                raise EffectError(f"{where}.{name}: strengths are 1-5")
            if name == "rooms" and any(v == 0 or abs(v) > 6 for v in value):
                raise EffectError(f"{where}.rooms: positions count from 1 (top) or -1 (bottom), "
                                  "and a dungeon has at most 6 rooms")
            value = tuple(value)
        elif name == "when":
            if value not in CONDITIONS:
                raise EffectError(f"{where}.when: expected one of {', '.join(CONDITIONS)}")
        elif isinstance(value, bool) or not isinstance(value, int):
            raise EffectError(f"{where}.{name}: expected a whole number")
        elif name == "amount" and value < 0:
            raise EffectError(f"{where}.amount: a bonus is paid by the bank, so it cannot be "
                              "negative (gold never goes below $0, docs/rules.md §11)")
        kwargs[name] = value
    unknown = set(data) - set(cls.__dataclass_fields__) - {"kind"}
    if unknown:
        raise EffectError(f"{where}: unknown field(s) {', '.join(sorted(unknown))} for kind {kind!r}")
    return cls(**kwargs)
