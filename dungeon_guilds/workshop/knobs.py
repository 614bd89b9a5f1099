"""Every knob of the game as data (issue 41): the numbers a designer can turn one step.

A :class:`Knob` is one number of the deck or of a lord:

===============  ==========================================================================
``room_defence``  the defence of one kind of room card (every copy, R1.2)
``room_treasure`` the treasure of one kind of room card (every copy, R1.2)
``heal``          the heal cost printed on the adventurers of one strength (R1.1, R6.1)
``lock``          a level's lock threshold: the top of the defence range on the card's back
                  (R1.2, R4.3)
``lord``          one number of one lord's effect (§7): a room change's defence or treasure,
                  a heal change's amount, the lowest-total bonus, or how many strengths a
                  ban, a flip or a heal change covers (the lowest or the top strengths)
===============  ==========================================================================

:func:`turned` moves one knob one (or more) steps up or down and returns the new deck and lord
pool. It decides no bound itself: a deck knob is turned in the deck editor's cells
(:mod:`.deck_edit`) and the result must pass the editor's :func:`~.deck_edit.validate` (a
defence or treasure inside the level's printed range, a threshold not below a card's defence,
a heal cost not below 0); a lord knob is turned in the effect's data and must pass the lord
builder's :func:`~.lord_edit.as_effect` (an effect that does something, no strength both
exhausted and activated, a bonus not below 0). A step that either refuses raises
:class:`KnobError` with the editor's reason.

The replacement fees (R4.4, R4.5) are not knobs: they are rules of the engine
(``state.BUMP_FEES``, ``state.SWAP_FEE``), not values of a deck or a lord, and no editor
changes them. Standard library only.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Sequence

from ..cards import STRENGTHS, Deck, RoomCard
from ..effects import EffectError, effect_to_dict
from ..lords import Lord
from .deck_edit import deck_from_table, errors_of, table_from_deck, validate
from .errors import WorkshopError
from .lord_edit import as_effect, describe_effects

KINDS = ("room_defence", "room_treasure", "heal", "lock", "lord")
_NUMBER_FIELDS = ("defence", "treasure", "delta", "amount")
_LOWEST, _TOP = "lowest", "top"


class KnobError(ValueError):
    """A step the editors refuse: ``reason`` is the editor's problem (a
    :class:`~.deck_edit.Problem` or an effect error), worded in any language by :meth:`text`."""

    def __init__(self, knob: "Knob", step: int, reason):
        self.knob, self.step, self.reason = knob, step, reason
        super().__init__(f"{knob.id} {step:+d}: {reason}")

    def text(self, lang: str | None = "en") -> str:
        reason = self.reason
        if hasattr(reason, "text"):
            return reason.text(lang)
        return str(reason)


@dataclass(frozen=True)
class Knob:
    """One number of the game. ``value``: its value now (for a set of strengths, how many).
    ``level``, ``defence``, ``treasure``, ``copies``: the room card kind (room knobs), or the
    level (``lock``); ``strength`` (``heal``); ``lord``, ``effect`` (index in the lord's
    effects), ``field`` and ``end`` (``lowest``/``top`` for a set of strengths) for lord knobs."""

    id: str
    kind: str
    value: int
    level: int = 0
    defence: int = 0
    treasure: int = 0
    copies: int = 0
    strength: int = 0
    lord: str = ""
    effect: int = 0
    field: str = ""
    end: str = ""

    def params(self) -> dict:
        """The values a sentence about this knob needs."""
        return {"level": self.level, "defence": self.defence, "treasure": self.treasure,
                "copies": self.copies, "strength": self.strength, "lord": self.lord,
                "field": self.field, "end": self.end, "value": self.value}


# ---------------------------------------------------------------------- listing the knobs
def deck_knobs(deck: Deck) -> list[Knob]:
    """The deck's knobs: each kind of room card's defence and treasure, each heal cost, each
    level's lock threshold (in the deck editor's order)."""
    table = table_from_deck(deck)
    out = []
    for row in table.rooms:
        lv, d, t, c = (int(row[k]) for k in ("level", "defence", "treasure", "count"))
        for what in ("defence", "treasure"):
            out.append(Knob(f"room:{lv}-{d}-{t}:{what}", f"room_{what}", d if what == "defence" else t,
                            level=lv, defence=d, treasure=t, copies=c))
    out += [Knob(f"heal:{s}", "heal", deck.heal_costs[s], strength=s) for s in STRENGTHS]
    out += [Knob(f"lock:{lv}", "lock", info.lock_threshold, level=lv) for lv, info in sorted(deck.levels.items())]
    return out


def _strength_set(values: Sequence[int]) -> str:
    """``lowest`` when the strengths are 1…k, ``top`` when they are k…5, else '' (no knob)."""
    s = sorted(values)
    if s and s == list(range(1, len(s) + 1)):
        return _LOWEST
    if s and s == list(range(6 - len(s), 6)):
        return _TOP
    return ""


def lord_knobs(lord: Lord) -> list[Knob]:
    """One lord's knobs: every number of its effects, and every set of strengths that is the
    lowest or the top strengths (how many it covers)."""
    out = []
    for i, effect in enumerate(lord.effects):
        data = effect_to_dict(effect)
        for name, value in data.items():
            if name in _NUMBER_FIELDS and isinstance(value, int) and value != 0:
                out.append(Knob(f"lord:{lord.id}:{i}:{name}", "lord", value, lord=lord.id, effect=i, field=name))
            elif isinstance(value, list) and name != "rooms" and _strength_set(value):
                out.append(Knob(f"lord:{lord.id}:{i}:{name}", "lord", len(value), lord=lord.id, effect=i,
                                field=name, end=_strength_set(value)))
    return out


def all_knobs(deck: Deck, lords: Sequence[Lord] = ()) -> list[Knob]:
    """Every knob of a deck and a lord pool."""
    return deck_knobs(deck) + [k for lord in lords for k in lord_knobs(lord)]


# ---------------------------------------------------------------------- turning one
def _turn_deck(deck: Deck, knob: Knob, step: int) -> Deck:
    table = table_from_deck(deck)
    table.name = "explorer"  # an edited deck may not keep the name "reference"
    if knob.kind in ("room_defence", "room_treasure"):
        what = knob.kind.split("_")[1]
        row = next(r for r in table.rooms if (int(r["level"]), int(r["defence"]), int(r["treasure"]))
                   == (knob.level, knob.defence, knob.treasure))
        row[what] = int(row[what]) + step
    elif knob.kind == "heal":
        row = next(r for r in table.heal if int(r["strength"]) == knob.strength)
        row["heal_cost"] = int(row["heal_cost"]) + step
    else:  # lock
        row = next(r for r in table.levels if int(r["level"]) == knob.level)
        row["defence_high"] = int(row["defence_high"]) + step
    problems = errors_of(validate(table))
    if problems:
        raise KnobError(knob, step, problems[0])
    built = deck_from_table(table)  # the editor's deck; the cards keep their places in the deck
    rooms = deck.rooms  # (the same deals in every version: common random numbers)
    if knob.kind in ("room_defence", "room_treasure"):
        old = RoomCard(knob.level, knob.defence, knob.treasure)
        new = RoomCard(knob.level, int(row["defence"]), int(row["treasure"]))
        rooms = tuple(new if c == old else c for c in deck.rooms)
    return deck.with_values(heal_costs=built.heal_costs, levels=built.levels, rooms=rooms)


def _turn_lord(lord: Lord, knob: Knob, step: int) -> Lord:
    data = effect_to_dict(lord.effects[knob.effect])
    if knob.end:
        count = len(data[knob.field]) + step
        if not 0 <= count <= 5:
            raise KnobError(knob, step, EffectError(f"{knob.field}: {count} strengths"))
        data[knob.field] = list(range(1, count + 1)) if knob.end == _LOWEST else list(range(6 - count, 6))
    else:
        data[knob.field] = data[knob.field] + step
    try:
        effect = as_effect(data, f"{lord.id}.effects[{knob.effect}]", knob.effect)
    except (EffectError, WorkshopError) as err:
        raise KnobError(knob, step, err) from None
    effects = lord.effects[:knob.effect] + (effect,) + lord.effects[knob.effect + 1:]
    return replace(lord, effects=effects, text_en=describe_effects(effects, "en"),
                   text_zh=describe_effects(effects, "zh"))


def turned(knob: Knob, step: int, deck: Deck, lords: Sequence[Lord] = ()) -> tuple[Deck, tuple[Lord, ...]]:
    """``(deck, lords)`` with ``knob`` moved ``step`` steps (±1 in the map); a lord keeps its
    id, so every game draws the same lords (common random numbers). Raises :class:`KnobError`
    when the deck editor or the lord builder refuses the result."""
    lords = tuple(lords)
    if knob.kind != "lord":
        return _turn_deck(deck, knob, step), lords
    ids = [x.id for x in lords]
    if knob.lord not in ids:
        raise KeyError(knob.lord)
    k = ids.index(knob.lord)
    return deck, lords[:k] + (_turn_lord(lords[k], knob, step),) + lords[k + 1:]


def turned_many(changes: Sequence[tuple[Knob, int]], deck: Deck, lords: Sequence[Lord] = ()):
    """``(deck, lords)`` with several knobs turned (a pair of the goal search), in order; a later
    knob of the same kind of room card follows the card's new values."""
    changes = list(changes)
    for i, (knob, step) in enumerate(changes):
        deck, lords = turned(knob, step, deck, lords)
        if knob.kind in ("room_defence", "room_treasure"):
            what = knob.kind.split("_")[1]
            new = {what: getattr(knob, what) + step}
            changes[i + 1:] = [(replace(k, **new) if k.kind.startswith("room_") and
                                (k.level, k.defence, k.treasure) == (knob.level, knob.defence, knob.treasure)
                                else k, s) for k, s in changes[i + 1:]]
    return deck, tuple(lords)


def legal_steps(knob: Knob, deck: Deck, lords: Sequence[Lord] = (), steps=(-1, 1)) -> list[int]:
    """The steps of ``steps`` the editors accept for ``knob``."""
    out = []
    for step in steps:
        try:
            turned(knob, step, deck, lords)
        except KnobError:
            continue
        out.append(step)
    return out


__all__ = ["KINDS", "Knob", "KnobError", "all_knobs", "deck_knobs", "legal_steps", "lord_knobs",
           "turned", "turned_many"]
