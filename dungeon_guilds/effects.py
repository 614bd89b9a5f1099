"""The effect vocabulary of Dungeon Lords (§7): lords are data, the engine interprets them.

Every printed lord is a tuple of these small effects, and a workshop can compose new lords from
the same pieces. The engine reads them in four places only:

* start phase: :class:`StartFlip` (the Caveman, R7.2);
* dispatch: :class:`PlacementBan` (the Succubus) and the defence part of :class:`RoomModifier`,
  which moves the lock threshold by the same amount (R7.1);
* resolution: :class:`RoomModifier` (defence and treasure, never below 0, R5.3) and
  :class:`LowestTotalBonus` (the Boardgame Lord, R7.3);
* cleanup: :class:`HealModifier` (the Guardian; not at setup, R2.4).
"""

from __future__ import annotations

from dataclasses import MISSING, dataclass
from typing import Any, Mapping

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


@dataclass(frozen=True, slots=True)
class HealModifier:
    """Adventurers of the given strengths cost ``delta`` more to heal in cleanup (R6.1)."""

    strengths: tuple[int, ...]
    delta: int
    kind = "heal"


@dataclass(frozen=True, slots=True)
class PlacementBan:
    """Players cannot put adventurers of these strengths into the dungeon this round."""

    strengths: tuple[int, ...]
    kind = "ban"


@dataclass(frozen=True, slots=True)
class StartFlip:
    """In the start phase, adventurers of ``exhaust`` strengths become exhausted and those of
    ``activate`` strengths become active (the Caveman)."""

    exhaust: tuple[int, ...]
    activate: tuple[int, ...]
    kind = "flip"


@dataclass(frozen=True, slots=True)
class LowestTotalBonus:
    """As resolution starts, every player whose placed adventurers have the lowest total
    strength gains ``amount`` from the bank (ties: all of them, R7.3)."""

    amount: int
    kind = "bonus"

    def __post_init__(self) -> None:
        if self.amount < 0:
            raise EffectError("a lowest-total bonus is paid by the bank and cannot be negative")


Effect = RoomModifier | HealModifier | PlacementBan | StartFlip | LowestTotalBonus

_KINDS = {cls.kind: cls for cls in (RoomModifier, HealModifier, PlacementBan, StartFlip, LowestTotalBonus)}


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
