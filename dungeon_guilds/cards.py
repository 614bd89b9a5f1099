"""Cards: adventurers' heal costs, room cards and the deck they come in (R1.1, R1.2, R1.4).

The source documents give no card values (R1.4): the project's *reference deck* lives in
``data/reference_deck.toml`` and is an explicit, documented assumption
(``docs/reference-deck.md``). Any deck can be loaded from TOML or CSV; a malformed deck is
refused with a :class:`DeckError` that names the field and the row.
"""

from __future__ import annotations

import csv
import io
import tomllib
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any, Mapping

STRENGTHS = (1, 2, 3, 4, 5)  # R1.1 each player's five adventurers
ALL_FIVE = 0b111110  # a hand as a bitmask: bit s set for strength s (1..5)


def strengths_of(mask: int) -> list[int]:
    """The strengths whose bits are set in a hand's bitmask ``mask``."""
    return [s for s in STRENGTHS if mask >> s & 1]
LEVELS = (1, 2, 3)  # R1.2 room levels


class DeckError(ValueError):
    """A deck file or deck data that cannot be used; the message names the field and row."""


@dataclass(frozen=True, slots=True)
class RoomCard:
    """One room card: its back shows ``level``; its front the exact ``defence`` and ``treasure``."""

    level: int
    defence: int
    treasure: int

    def to_dict(self) -> dict[str, int]:
        return {"level": self.level, "defence": self.defence, "treasure": self.treasure}


@dataclass(frozen=True, slots=True)
class LevelInfo:
    """What the back of a room card of one level shows: the ranges of defence and treasure.

    The top of the defence range is the lock threshold of R4.3 (R1.2).
    """

    defence: tuple[int, int]
    treasure: tuple[int, int]

    @property
    def lock_threshold(self) -> int:
        return self.defence[1]


@dataclass(frozen=True, slots=True)
class Deck:
    """Heal costs per strength, the level ranges, and the room cards (one entry per card)."""

    heal_costs: tuple[int, ...]  # index = strength; index 0 unused (0)
    levels: Mapping[int, LevelInfo]
    rooms: tuple[RoomCard, ...]
    name: str = "custom"
    description: str = ""

    def heal_cost(self, strength: int) -> int:
        return self.heal_costs[strength]

    @property
    def is_reference(self) -> bool:
        """Whether this deck holds the reference deck's values (whatever its name)."""
        ref = reference_deck()
        return self is ref or (self.heal_costs == ref.heal_costs
                               and dict(self.levels) == dict(ref.levels)
                               and sorted_cards(self.rooms) == sorted_cards(ref.rooms))

    def heal_costs_dict(self) -> dict[str, int]:
        return {str(s): self.heal_costs[s] for s in STRENGTHS}

    def levels_dict(self) -> dict[str, dict[str, list[int]]]:
        return {
            str(lv): {"defence": list(info.defence), "treasure": list(info.treasure)}
            for lv, info in sorted(self.levels.items())
        }

    def with_values(self, heal_costs=None, levels=None, rooms=None) -> "Deck":
        """A copy with some parts replaced; named "custom" if anything actually changed."""
        heal = self.heal_costs if heal_costs is None else tuple(heal_costs)
        lv = self.levels if levels is None else dict(levels)
        cards = self.rooms if rooms is None else tuple(rooms)
        same = heal == self.heal_costs and lv == dict(self.levels) and cards == self.rooms
        return Deck(heal, lv, cards, name=self.name if same else "custom",
                    description=self.description if same else "")

    def to_toml(self) -> str:
        """The deck as TOML text in the format :func:`load_deck` reads."""
        lines = [f"name = {_toml_str(self.name)}", f"description = {_toml_str(self.description)}", ""]
        lines.append("[heal_costs]")
        lines += [f"{s} = {self.heal_costs[s]}" for s in STRENGTHS]
        for lv, info in sorted(self.levels.items()):
            lines += ["", f"[levels.{lv}]", f"defence = [{info.defence[0]}, {info.defence[1]}]",
                      f"treasure = [{info.treasure[0]}, {info.treasure[1]}]"]
        for card, count in _counted(self.rooms):
            lines += ["", "[[rooms]]", f"level = {card.level}", f"defence = {card.defence}",
                      f"treasure = {card.treasure}", f"count = {count}"]
        return "\n".join(lines) + "\n"

    def to_csv(self) -> str:
        """The deck as CSV text in the format :func:`load_deck` reads."""
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(CSV_COLUMNS)
        for s in STRENGTHS:
            writer.writerow(["heal", "", s, self.heal_costs[s], "", "", ""])
        for lv, info in sorted(self.levels.items()):
            writer.writerow(["level", lv, "", "", f"{info.defence[0]}-{info.defence[1]}",
                             f"{info.treasure[0]}-{info.treasure[1]}", ""])
        for card, count in _counted(self.rooms):
            writer.writerow(["room", card.level, "", "", card.defence, card.treasure, count])
        return out.getvalue()


def sorted_cards(cards) -> list[RoomCard]:
    return sorted(cards, key=lambda c: (c.level, c.defence, c.treasure))


def counted_cards(cards) -> list[dict[str, int]]:
    """Room cards as ``[{"level", "defence", "treasure", "count"}, ...]`` (for records)."""
    return [card.to_dict() | {"count": count} for card, count in _counted(cards)]


CSV_COLUMNS = ("section", "level", "strength", "heal_cost", "defence", "treasure", "count")


def _toml_str(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _counted(rooms) -> list[tuple[RoomCard, int]]:
    counts: dict[RoomCard, int] = {}
    for card in rooms:
        counts[card] = counts.get(card, 0) + 1
    return sorted(counts.items(), key=lambda kv: (kv[0].level, kv[0].defence, kv[0].treasure))


# --- validation -----------------------------------------------------------------------------

def _int(value: Any, where: str, minimum: int | None = 0) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        if isinstance(value, str) and value.strip().lstrip("-").isdigit():
            value = int(value)
        else:
            raise DeckError(f"{where}: expected a whole number, got {value!r}")
    if minimum is not None and value < minimum:
        raise DeckError(f"{where}: must be at least {minimum}, got {value}")
    return value


def _range(value: Any, where: str) -> tuple[int, int]:
    if isinstance(value, str) and "-" in value.strip()[1:]:
        head, _, tail = value.strip().partition("-")
        value = [head, tail]
    if not isinstance(value, (list, tuple)) or len(value) != 2:
        raise DeckError(f"{where}: expected a range [low, high], got {value!r}")
    lo, hi = _int(value[0], f"{where} low"), _int(value[1], f"{where} high")
    if lo > hi:
        raise DeckError(f"{where}: the low end {lo} is above the high end {hi}")
    return lo, hi


def parse_heal_costs(data: Any, where: str = "heal_costs") -> tuple[int, ...]:
    if not isinstance(data, Mapping):
        raise DeckError(f"{where}: expected a table of strength = cost")
    costs = [0] * 6
    for key in data:
        if str(key) not in {str(s) for s in STRENGTHS}:
            raise DeckError(f"{where}.{key}: unknown strength (adventurers have strengths 1-5)")
    for s in STRENGTHS:
        if str(s) in data:
            value = data[str(s)]
        elif s in data:
            value = data[s]
        else:
            raise DeckError(f"{where}.{s}: missing (every strength 1-5 needs a heal cost)")
        costs[s] = _int(value, f"{where}.{s}")
    return tuple(costs)


def parse_levels(data: Any, where: str = "levels") -> dict[int, LevelInfo]:
    if not isinstance(data, Mapping):
        raise DeckError(f"{where}: expected a table per level 1-3")
    levels: dict[int, LevelInfo] = {}
    for key, info in data.items():
        if str(key) not in {str(lv) for lv in LEVELS}:
            raise DeckError(f"{where}.{key}: unknown level (rooms have levels 1-3)")
        lv = int(key)
        if not isinstance(info, Mapping):
            raise DeckError(f"{where}.{lv}: expected defence and treasure ranges")
        for field in ("defence", "treasure"):
            if field not in info:
                raise DeckError(f"{where}.{lv}.{field}: missing")
        levels[lv] = LevelInfo(_range(info["defence"], f"{where}.{lv}.defence"),
                               _range(info["treasure"], f"{where}.{lv}.treasure"))
    for lv in LEVELS:
        if lv not in levels:
            raise DeckError(f"{where}.{lv}: missing (every level 1-3 needs its ranges)")
    return levels


def parse_room(data: Any, where: str, levels: Mapping[int, LevelInfo] | None) -> RoomCard:
    if not isinstance(data, Mapping):
        raise DeckError(f"{where}: expected level, defence and treasure")
    for field in ("level", "defence", "treasure"):
        if field not in data:
            raise DeckError(f"{where}.{field}: missing")
    level = _int(data["level"], f"{where}.level")
    if level not in LEVELS:
        raise DeckError(f"{where}.level: unknown level {level} (rooms have levels 1-3)")
    card = RoomCard(level, _int(data["defence"], f"{where}.defence"),
                    _int(data["treasure"], f"{where}.treasure"))
    if levels is not None:
        info = levels[level]
        if not info.defence[0] <= card.defence <= info.defence[1]:
            raise DeckError(f"{where}.defence: {card.defence} is outside the Lv{level} range "
                            f"{info.defence[0]}-{info.defence[1]} printed on the back")
        if not info.treasure[0] <= card.treasure <= info.treasure[1]:
            raise DeckError(f"{where}.treasure: {card.treasure} is outside the Lv{level} range "
                            f"{info.treasure[0]}-{info.treasure[1]} printed on the back")
    return card


def deck_from_dict(data: Mapping[str, Any], source: str = "deck") -> Deck:
    """Build and validate a deck from parsed TOML/JSON data."""
    if not isinstance(data, Mapping):
        raise DeckError(f"{source}: expected a table with heal_costs, levels and rooms")
    for field in ("heal_costs", "levels", "rooms"):
        if field not in data:
            raise DeckError(f"{source}: field '{field}' is missing")
    heal = parse_heal_costs(data["heal_costs"])
    levels = parse_levels(data["levels"])
    raw_rooms = data["rooms"]
    if not isinstance(raw_rooms, list) or not raw_rooms:
        raise DeckError("rooms: expected a non-empty list of room cards")
    rooms: list[RoomCard] = []
    for i, row in enumerate(raw_rooms, start=1):
        where = f"rooms row {i}"
        card = parse_room(row, where, levels)
        count = _int(row.get("count", 1), f"{where}.count", minimum=1)
        rooms.extend([card] * count)
    name = str(data.get("name", "custom"))
    return Deck(heal, levels, tuple(rooms), name=name, description=str(data.get("description", "")))


def _cell(row: Mapping[str, Any], column: str) -> str:
    """A CSV row's cell, stripped; a blank cell and a short row's missing one are both ``""``."""
    return (row.get(column) or "").strip()


def _deck_from_csv(text: str) -> Deck:
    reader = csv.DictReader(io.StringIO(text))
    if reader.fieldnames is None or "section" not in reader.fieldnames:
        raise DeckError(f"CSV header: expected the columns {', '.join(CSV_COLUMNS)}")
    heal: dict[str, Any] = {}
    levels: dict[str, Any] = {}
    rooms: list[dict[str, Any]] = []
    for line, row in enumerate(reader, start=2):
        section = _cell(row, "section")
        where = f"CSV row {line}"
        if section == "heal":
            strength = _cell(row, "strength")
            if strength not in {str(s) for s in STRENGTHS}:
                raise DeckError(f"{where}, column strength: unknown strength {strength!r}")
            heal[strength] = _cell(row, "heal_cost")
        elif section == "level":
            levels[_cell(row, "level")] = {"defence": _cell(row, "defence"), "treasure": _cell(row, "treasure")}
        elif section == "room":
            rooms.append({k: _cell(row, k) for k in ("level", "defence", "treasure")}
                         | {"count": _cell(row, "count") or "1", "_line": line})
        else:
            raise DeckError(f"{where}, column section: expected heal, level or room, got {section!r}")
    try:
        heal_costs = parse_heal_costs(heal)
        level_info = parse_levels(levels)
    except DeckError as err:
        raise DeckError(f"CSV: {err}") from None
    cards: list[RoomCard] = []
    for row in rooms:
        where = f"CSV row {row['_line']}"
        card = parse_room(row, where, level_info)
        cards.extend([card] * _int(row["count"], f"{where}.count", minimum=1))
    if not cards:
        raise DeckError("CSV: no room rows (section=room)")
    return Deck(heal_costs, level_info, tuple(cards))


def load_deck(path: str | Path) -> Deck:
    """Load a deck from a ``.toml`` or ``.csv`` file; raises :class:`DeckError` naming the field."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as err:
        raise DeckError(f"{path}: cannot read the deck file ({err.strerror})") from None
    return parse_deck_text(text, "csv" if path.suffix.lower() == ".csv" else "toml")


def parse_deck_text(text: str, fmt: str = "toml") -> Deck:
    """Parse deck text in ``toml`` or ``csv`` format (another format: a :class:`DeckError`)."""
    if fmt not in ("toml", "csv"):
        raise DeckError(f"deck format {fmt!r}: expected toml or csv")
    if fmt == "csv":
        return _deck_from_csv(text)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise DeckError(f"TOML: {err}") from None
    return deck_from_dict(data)


_REFERENCE: Deck | None = None


def reference_deck() -> Deck:
    """The project's reference deck (an assumption, R1.4): ``data/reference_deck.toml``."""
    global _REFERENCE
    if _REFERENCE is None:
        text = resources.files("dungeon_guilds").joinpath("data/reference_deck.toml").read_text("utf-8")
        _REFERENCE = parse_deck_text(text)
    return _REFERENCE
