"""The deck as a table a student can edit, and back (R1.1, R1.2, R1.4).

A :class:`DeckTable` is the deck the way the deck editor shows it: three small tables of cells
(heal cost per strength; the defence and treasure ranges printed on each level's back; one row
per kind of room card with its count). Cells hold whatever the user typed (text or numbers), so
a bad cell can be shown and named instead of refused on the way in.

* :func:`table_from_deck` / :func:`table_from_text` fill a table from a
  :class:`~dungeon_guilds.cards.Deck` or from TOML/CSV text (leniently: a bad value stays in its
  cell, to be named by :func:`validate`).
* :func:`validate` lists every problem, each naming its cell (``Rooms, row 3, count: must be at
  least 1, got 0``), errors and warnings.
* :func:`deck_from_table` builds the Deck through the engine's own parser
  (:func:`dungeon_guilds.cards.deck_from_dict`), so the editor never accepts a deck the engine
  would refuse; :func:`table_to_text` writes TOML or CSV in the formats
  :func:`~dungeon_guilds.cards.load_deck` reads.

A deck edited here travels into game records (``heal_costs``, ``levels``, the rooms dealt and the
deck's name; ``docs/record-format.md``), so a game played with it replays exactly.
"""

from __future__ import annotations

import csv
import io
import re
import tomllib
from dataclasses import dataclass, field
from typing import Any, Iterable

from ..cards import CSV_COLUMNS, LEVELS, STRENGTHS, Deck, DeckError, deck_from_dict, reference_deck
from ..rules import MAX_PLAYERS, MIN_PLAYERS, Rules
from .errors import Message
from .strings import wt

ROOM_COLUMNS = ("level", "defence", "treasure", "count")
LEVEL_COLUMNS = ("level", "defence_low", "defence_high", "treasure_low", "treasure_high")
HEAL_COLUMNS = ("strength", "heal_cost")
TABLES = ("deck", "heal", "levels", "rooms")
TABLE_NAMES = {"deck": "Deck", "heal": "Heal costs", "levels": "Levels", "rooms": "Rooms"}
RESERVED_NAME = "reference"
COLUMN_WORDS = {"heal_cost": "heal cost", "defence_low": "defence low", "defence_high": "defence high",
                "treasure_low": "treasure low", "treasure_high": "treasure high"}


@dataclass
class DeckTable:
    """A deck as editable cells. ``heal``: rows {strength, heal_cost}; ``levels``: rows {level,
    defence_low, defence_high, treasure_low, treasure_high}; ``rooms``: rows {level, defence,
    treasure, count}. Values are what the user typed (str or int)."""

    name: str = "custom"
    description: str = ""
    heal: list[dict[str, Any]] = field(default_factory=list)
    levels: list[dict[str, Any]] = field(default_factory=list)
    rooms: list[dict[str, Any]] = field(default_factory=list)

    def copy(self) -> "DeckTable":
        return DeckTable(self.name, self.description, [dict(r) for r in self.heal],
                         [dict(r) for r in self.levels], [dict(r) for r in self.rooms])


@dataclass(frozen=True)
class Problem:
    """One problem with one cell (``row`` 1-based as shown; 0 for the whole table)."""

    table: str  # "deck", "heal", "levels" or "rooms"
    row: int
    column: str
    message: str  # the English sentence (``str(coded)`` when the problem has a code)
    severity: str = "error"  # or "warning"
    coded: Message | None = None  # code + params (workshop.errors), worded in any language

    def text(self, lang: str | None = None) -> str:
        """The message in ``lang`` (the English sentence for a problem without a code)."""
        return self.coded.text(lang) if self.coded is not None else self.message

    @property
    def cell(self) -> str:
        where = TABLE_NAMES.get(self.table, self.table)
        if self.row:
            where += f", row {self.row}"
        if self.column:
            where += f", {COLUMN_WORDS.get(self.column, self.column)}"
        return where

    def __str__(self) -> str:
        return f"{self.cell}: {self.message}"


class DeckTableError(DeckError):
    """A table that makes no deck: ``problems`` (each naming its cell, worded in any language by
    :meth:`Problem.text`); ``str()`` lists them in English."""

    def __init__(self, problems: list[Problem]):
        super().__init__("; ".join(str(p) for p in problems))
        self.problems = list(problems)

    def __reduce__(self):
        return (DeckTableError, (self.problems,))


# ---------------------------------------------------------------------- deck -> table
def table_from_deck(deck: Deck | None = None) -> DeckTable:
    """The cells of ``deck`` (default the reference deck): one room row per kind of card."""
    deck = deck or reference_deck()
    heal = [{"strength": s, "heal_cost": deck.heal_costs[s]} for s in STRENGTHS]
    levels = [{"level": lv, "defence_low": info.defence[0], "defence_high": info.defence[1],
               "treasure_low": info.treasure[0], "treasure_high": info.treasure[1]}
              for lv, info in sorted(deck.levels.items())]
    counts: dict[tuple[int, int, int], int] = {}
    for card in deck.rooms:
        key = (card.level, card.defence, card.treasure)
        counts[key] = counts.get(key, 0) + 1
    rooms = [{"level": lv, "defence": d, "treasure": t, "count": c}
             for (lv, d, t), c in sorted(counts.items())]
    return DeckTable(deck.name, deck.description, heal, levels, rooms)


def _split_range(value: Any) -> tuple[Any, Any]:
    """"3-5" or [3, 5] -> (3, 5); anything else is kept in the low cell to be named."""
    if isinstance(value, (list, tuple)) and len(value) == 2:
        return value[0], value[1]
    if isinstance(value, str):
        m = re.fullmatch(r"\s*(-?\w+)\s*-\s*(-?\w+)\s*", value)
        if m:
            return m.group(1), m.group(2)
    return value, ""


def table_from_text(text: str, fmt: str = "toml") -> DeckTable:
    """Cells from TOML or CSV text in the formats :func:`~dungeon_guilds.cards.load_deck` reads.

    Lenient: a bad value stays in its cell for :func:`validate` to name. Only text that is not
    TOML/CSV of a deck at all is refused (a :class:`DeckError` naming where)."""
    if fmt == "csv":
        return _table_from_csv(text)
    if fmt != "toml":
        raise DeckError(f"format: expected 'toml' or 'csv', got {fmt!r}")
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise DeckError(f"TOML: {err}") from None
    table = DeckTable(name=str(data.get("name", "custom")), description=str(data.get("description", "")))
    heal = data.get("heal_costs", {})
    if not isinstance(heal, dict):
        raise DeckError("heal_costs: expected a table of strength = cost")
    for key, value in heal.items():
        table.heal.append({"strength": key, "heal_cost": value})
    levels = data.get("levels", {})
    if not isinstance(levels, dict):
        raise DeckError("levels: expected a table per level 1-3")
    for key, info in levels.items():
        info = info if isinstance(info, dict) else {}
        d_lo, d_hi = _split_range(info.get("defence", ""))
        t_lo, t_hi = _split_range(info.get("treasure", ""))
        table.levels.append({"level": key, "defence_low": d_lo, "defence_high": d_hi,
                             "treasure_low": t_lo, "treasure_high": t_hi})
    rooms = data.get("rooms", [])
    if not isinstance(rooms, list):
        raise DeckError("rooms: expected a list of [[rooms]] tables")
    for i, row in enumerate(rooms, start=1):
        if not isinstance(row, dict):
            raise DeckError(f"rooms row {i}: expected level, defence, treasure and count")
        table.rooms.append({c: row.get(c, 1 if c == "count" else "") for c in ROOM_COLUMNS})
    return table


def _table_from_csv(text: str) -> DeckTable:
    reader = csv.DictReader(io.StringIO(text))
    if reader.fieldnames is None or "section" not in reader.fieldnames:
        raise DeckError(f"CSV header: expected the columns {', '.join(CSV_COLUMNS)}")
    table = DeckTable()
    for line, row in enumerate(reader, start=2):
        cell = {k: (v or "").strip() if isinstance(v, str) else "" for k, v in row.items() if k}
        section = cell.get("section", "")
        if section == "heal":
            table.heal.append({"strength": cell.get("strength", ""), "heal_cost": cell.get("heal_cost", "")})
        elif section == "level":
            d_lo, d_hi = _split_range(cell.get("defence", ""))
            t_lo, t_hi = _split_range(cell.get("treasure", ""))
            table.levels.append({"level": cell.get("level", ""), "defence_low": d_lo, "defence_high": d_hi,
                                 "treasure_low": t_lo, "treasure_high": t_hi})
        elif section == "room":
            table.rooms.append({"level": cell.get("level", ""), "defence": cell.get("defence", ""),
                                "treasure": cell.get("treasure", ""), "count": cell.get("count") or "1"})
        else:
            raise DeckError(f"CSV row {line}, column section: expected heal, level or room, got {section!r}")
    return table


# ---------------------------------------------------------------------- validation
def _whole(value: Any) -> int | None:
    """The whole number a cell holds, or None."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, str) and re.fullmatch(r"\s*-?\d+\s*", value):
        return int(value)
    return None


def _coded(table: str, row: int, column: str, code: str, **params: Any) -> Problem:
    """An error of one cell with a code (:mod:`.errors`); its message is the English sentence."""
    coded = Message.of(code, **params)
    return Problem(table, row, column, str(coded), coded=coded)


def _number(out: list[Problem], table: str, row: int, column: str, value: Any,
            minimum: int | None = 0) -> int | None:
    n = _whole(value)
    if n is None:
        shown = value if not isinstance(value, str) else value.strip()
        out.append(_coded(table, row, column, "cell_not_whole", value=shown)
                   if shown != "" else _coded(table, row, column, "cell_empty"))
        return None
    if minimum is not None and n < minimum:
        out.append(_coded(table, row, column, "cell_negative", value=n) if minimum == 0 else
                   _coded(table, row, column, "cell_below_minimum", minimum=minimum, value=n))
        return None
    return n


def validate(table: DeckTable) -> list[Problem]:
    """Every problem of the table, errors first in table order, then warnings."""
    errors: list[Problem] = []
    warnings: list[Problem] = []
    _check_name(table, errors)
    _check_heal(table, errors)
    ranges = _check_levels(table, errors)
    total, per_level = _check_rooms(table, ranges, errors, warnings)
    _check_size(table, total, per_level, errors, warnings)
    return errors + warnings


def _check_name(table: DeckTable, errors: list[Problem]) -> None:
    """The deck's name: not empty, and 'reference' only for the reference deck itself."""
    name = (table.name or "").strip()
    if not name:
        errors.append(_coded("deck", 0, "name", "deck_name_empty"))
    elif name == RESERVED_NAME:
        try:
            same = _build(table) == reference_deck()
        except DeckError:
            same = False
        if not same:
            errors.append(Problem("deck", 0, "name", "'reference' is the name of the project's "
                                  "reference deck; an edited deck needs another name"))


def _check_heal(table: DeckTable, errors: list[Problem]) -> None:
    """Heal costs (R1.1): one row per strength 1-5, each a number."""
    seen_strengths: dict[int, int] = {}
    for i, row in enumerate(table.heal, start=1):
        s = _whole(row.get("strength"))
        if s not in STRENGTHS:
            errors.append(Problem("heal", i, "strength",
                                  f"unknown strength {row.get('strength')!r} (adventurers have strengths 1-5)"))
        elif s in seen_strengths:
            errors.append(Problem("heal", i, "strength", f"strength {s} is also in row {seen_strengths[s]}"))
        else:
            seen_strengths[s] = i
        _number(errors, "heal", i, "heal_cost", row.get("heal_cost"))
    for s in STRENGTHS:
        if s not in seen_strengths:
            errors.append(Problem("heal", 0, "strength", f"strength {s} has no heal cost (every strength 1-5 needs one)"))


Ranges = dict[int, tuple[tuple[int, int] | None, tuple[int, int] | None]]


def _check_levels(table: DeckTable, errors: list[Problem]) -> Ranges:
    """Level ranges (R1.2; the top of the defence range is the lock threshold, R4.3):
    ``{level: (defence range, treasure range)}``, a range ``None`` where it is wrong."""
    ranges: Ranges = {}
    for i, row in enumerate(table.levels, start=1):
        lv = _whole(row.get("level"))
        if lv not in LEVELS:
            errors.append(Problem("levels", i, "level", f"unknown level {row.get('level')!r} (rooms have levels 1-3)"))
            continue
        if lv in ranges:
            errors.append(Problem("levels", i, "level", f"level {lv} appears twice"))
            continue
        pair: list[tuple[int, int] | None] = []
        for what in ("defence", "treasure"):
            lo = _number(errors, "levels", i, f"{what}_low", row.get(f"{what}_low"))
            hi = _number(errors, "levels", i, f"{what}_high", row.get(f"{what}_high"))
            if lo is not None and hi is not None and lo > hi:
                errors.append(Problem("levels", i, f"{what}_low",
                                      f"the low end {lo} is above the high end {hi}"))
                pair.append(None)
            else:
                pair.append((lo, hi) if lo is not None and hi is not None else None)
        ranges[lv] = (pair[0], pair[1])
    for lv in LEVELS:
        if lv not in ranges:
            errors.append(Problem("levels", 0, "level", f"level {lv} is missing (every level 1-3 needs its ranges)"))
    return ranges


def _check_rooms(table: DeckTable, ranges: Ranges, errors: list[Problem],
                 warnings: list[Problem]) -> tuple[int, dict[int, int]]:
    """The room cards, row by row: ``(cards in all, cards per level)``."""
    total = 0
    kinds: dict[tuple[int, int, int], int] = {}
    per_level = {lv: 0 for lv in LEVELS}
    for i, row in enumerate(table.rooms, start=1):
        lv, d, t, c = _check_room_row(i, row, ranges, errors)
        if lv in LEVELS and d is not None and t is not None:
            key = (lv, d, t)
            if key in kinds:
                warnings.append(Problem("rooms", i, "level", f"the same card as row {kinds[key]}; "
                                        "their counts add up", "warning"))
            else:
                kinds[key] = i
            if c is not None:
                per_level[lv] += c
        if c is not None:
            total += c
    return total, per_level


def _check_room_row(i: int, row, ranges: Ranges, errors: list[Problem]):
    """One room row: ``(level, defence, treasure, count)``, each ``None`` where it is wrong;
    defence and treasure inside the level's printed ranges (R1.2)."""
    lv = _whole(row.get("level"))
    if lv not in LEVELS:
        errors.append(Problem("rooms", i, "level", f"unknown level {row.get('level')!r} (rooms have levels 1-3)"))
    d = _number(errors, "rooms", i, "defence", row.get("defence"))
    t = _number(errors, "rooms", i, "treasure", row.get("treasure"))
    count_value = row.get("count")
    c = _whole(count_value)
    if c is None:
        _number(errors, "rooms", i, "count", count_value)
    elif c < 1:
        errors.append(_coded("rooms", i, "count", "count_below_one", value=c))
        c = None
    if lv in ranges:
        d_range, t_range = ranges[lv]
        if d is not None and d_range is not None and not d_range[0] <= d <= d_range[1]:
            errors.append(_coded("rooms", i, "defence", "outside_level_range", value=d, level=lv,
                                 low=d_range[0], high=d_range[1]))
        if t is not None and t_range is not None and not t_range[0] <= t <= t_range[1]:
            errors.append(_coded("rooms", i, "treasure", "outside_level_range", value=t, level=lv,
                                 low=t_range[0], high=t_range[1]))
    return lv, d, t, c


def _check_size(table: DeckTable, total: int, per_level: dict[int, int], errors: list[Problem],
                warnings: list[Problem]) -> None:
    """Enough cards for a game (R2.3: 3 players deal 9 rooms); warn about small decks and
    levels that never appear."""
    if not table.rooms:
        errors.append(_coded("rooms", 0, "", "deck_no_rooms"))
    elif not errors and total < 9:
        errors.append(_coded("rooms", 0, "count", "deck_too_small", cards=total))
    if not errors:
        most = max_players(total)
        if most < 6:
            warnings.append(Problem("rooms", 0, "count", f"{total} cards: enough for games of up to "
                                    f"{most} players (a 6-player game deals 36 rooms)", "warning"))
        for lv in LEVELS:
            if per_level[lv] == 0:
                warnings.append(Problem("rooms", 0, "level", f"no Lv{lv} card: rooms of that level never appear",
                                        "warning"))


def errors_of(problems: Iterable[Problem]) -> list[Problem]:
    return [p for p in problems if p.severity == "error"]


def max_players(n_cards: int, npc: bool = False) -> int:
    """The largest player count a deck of ``n_cards`` can deal a whole game to (R2.3, R3.1:
    players rounds of players rooms; one more room a round with NPCs, R10.2), 0 if none."""
    rules = Rules(npc=npc)
    fits = [p for p in range(MIN_PLAYERS, MAX_PLAYERS + 1) if rules.rooms_dealt(p) <= n_cards]
    return max(fits, default=0)


# ---------------------------------------------------------------------- table -> deck
def _description(table: DeckTable) -> str:
    """The table's description, but not the reference deck's under another name (issue 40: a
    renamed deck's file still said "The project's reference deck …")."""
    ref = reference_deck()
    if (table.name or "").strip() != ref.name and (table.description or "") == ref.description:
        return ""
    return table.description or ""


def _as_dict(table: DeckTable) -> dict[str, Any]:
    return {
        "name": (table.name or "").strip(),
        "description": _description(table),
        "heal_costs": {str(_whole(r.get("strength")) if _whole(r.get("strength")) is not None
                           else r.get("strength")): r.get("heal_cost") for r in table.heal},
        "levels": {str(_whole(r.get("level")) if _whole(r.get("level")) is not None else r.get("level")):
                   {"defence": [r.get("defence_low"), r.get("defence_high")],
                    "treasure": [r.get("treasure_low"), r.get("treasure_high")]} for r in table.levels},
        "rooms": [{c: r.get(c) for c in ROOM_COLUMNS} for r in table.rooms],
    }


def _build(table: DeckTable) -> Deck:
    return deck_from_dict(_as_dict(table))  # the engine's parser: its rules, its messages


def deck_from_table(table: DeckTable) -> Deck:
    """The :class:`Deck` the table describes, built by the engine's parser. Raises a
    :class:`DeckError` listing every error (each naming its cell) if there is any."""
    problems = errors_of(validate(table))
    if problems:
        raise DeckTableError(problems)
    return _build(table)


def table_to_text(table: DeckTable, fmt: str = "toml") -> str:
    """TOML or CSV text of the (valid) table, in the formats ``load_deck`` reads."""
    deck = deck_from_table(table)
    if fmt == "csv":
        return deck.to_csv()
    if fmt == "toml":
        return deck.to_toml()
    raise DeckError(f"format: expected 'toml' or 'csv', got {fmt!r}")


# ---------------------------------------------------------------------- reading a deck
def deck_changes(deck: Deck, base: Deck | None = None, lang: str | None = "en") -> list[str]:
    """What ``deck`` changes from ``base`` (default the reference deck), in plain words in
    ``lang``."""
    base = base or reference_deck()
    out = []
    for s in STRENGTHS:
        if deck.heal_costs[s] != base.heal_costs[s]:
            out.append(wt("change_heal", lang, strength=s, old=base.heal_costs[s], new=deck.heal_costs[s]))
    for lv in LEVELS:
        a, b = base.levels[lv], deck.levels[lv]
        if a.defence != b.defence:
            out.append(wt("change_defence", lang, level=lv, old_low=a.defence[0], old_high=a.defence[1],
                          new_low=b.defence[0], new_high=b.defence[1], old_lock=a.lock_threshold,
                          new_lock=b.lock_threshold))
        if a.treasure != b.treasure:
            out.append(wt("change_treasure", lang, level=lv, old_low=a.treasure[0], old_high=a.treasure[1],
                          new_low=b.treasure[0], new_high=b.treasure[1]))

    def counts(d: Deck) -> dict[tuple[int, int, int], int]:
        out: dict[tuple[int, int, int], int] = {}
        for c in d.rooms:
            out[(c.level, c.defence, c.treasure)] = out.get((c.level, c.defence, c.treasure), 0) + 1
        return out

    ca, cb = counts(base), counts(deck)
    for key in sorted(set(ca) | set(cb)):
        if ca.get(key, 0) != cb.get(key, 0):
            lv, d, t = key
            out.append(wt("change_cards", lang, level=lv, defence=d, treasure=t, old=ca.get(key, 0), new=cb.get(key, 0)))
    return out


def shown_deck_name(name: str, lang: str | None = "en") -> str:
    """A deck's name as a screen shows it: the names the workshop gives itself ("reference",
    "custom") in ``lang``, any other name as the user wrote it."""
    return wt(f"deck_name_{name}", lang) if name in (RESERVED_NAME, "custom") else name


def stored_deck_name(shown: str) -> str:
    """The inverse of :func:`shown_deck_name` (a shown name in either language → the stored name)."""
    for name in (RESERVED_NAME, "custom"):
        if shown.strip() in {wt(f"deck_name_{name}", lang) for lang in ("en", "zh")}:
            return name
    return shown


def deck_summary(deck: Deck) -> dict[str, Any]:
    """Cards per level, mean defence and treasure per level, and the largest game it deals."""
    out: dict[str, Any] = {"cards": len(deck.rooms), "max_players": max_players(len(deck.rooms)),
                           "max_players_npc": max_players(len(deck.rooms), npc=True), "levels": {}}
    for lv in LEVELS:
        cards = [c for c in deck.rooms if c.level == lv]
        out["levels"][lv] = {
            "cards": len(cards),
            "mean_defence": sum(c.defence for c in cards) / len(cards) if cards else float("nan"),
            "mean_treasure": sum(c.treasure for c in cards) / len(cards) if cards else float("nan"),
            "lock_threshold": deck.levels[lv].lock_threshold,
        }
    return out


def clear_chances(deck: Deck, totals: Iterable[int] = range(3, 10)) -> dict[int, dict[int, float]]:
    """{level: {total: chance}}: the chance that a pair of adventurers of that total strength
    clears a fresh room of each level (no lord), i.e. the share of that level's cards whose
    defence is at most the total (R5.1) — the table of ``docs/reference-deck.md``."""
    out: dict[int, dict[int, float]] = {}
    for lv in LEVELS:
        cards = [c for c in deck.rooms if c.level == lv]
        out[lv] = {t: (sum(1 for c in cards if c.defence <= t) / len(cards) if cards else float("nan"))
                   for t in totals}
    return out


__all__ = ["DeckTable", "DeckTableError", "Problem", "clear_chances", "deck_changes", "deck_from_table", "deck_summary",
           "shown_deck_name", "stored_deck_name", "errors_of", "max_players", "table_from_deck", "table_from_text", "table_to_text", "validate"]
