"""Game records: a JSON text that replays a game exactly (``docs/record-format.md``).

Writing a record lives in :mod:`dungeon_guilds.record_write` (below :mod:`~dungeon_guilds.game`,
which uses it for ``Game.to_record``); reading one, here, builds a :class:`Game`.
``to_record(game)`` writes every fact the game used (rooms and lords in draw order, heal costs,
level ranges, rules, exhaust choices, moves); ``from_record(data)`` replays a record, filling
what it leaves out from the reference deck and ``seed``. A bad record raises
:class:`RecordError` naming the field, or the move number and the engine's reason.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any, Mapping

from .actions import ActionSyntaxError
from .cards import DeckError, RoomCard, parse_heal_costs, parse_levels, parse_room, reference_deck
from .errors import IllegalAction, RecordError
from .game import Game, random_exhaust
from .lords import LORDS_BY_ID, LordError, lord_from_dict
from .record_write import FORMAT, VERSION, dumps, to_record
from .rules import Rules, RulesError
from .effects import EffectError


def _require(cond: bool, message: str) -> None:
    if not cond:
        raise RecordError(message)


KNOWN_FIELDS = {"format", "version", "players", "start_player", "rules", "heal_costs", "levels",
                "rooms", "lords", "seed", "exhaust", "moves", "deck", "comment", "result"}


def from_record(data: Any, *, stop_at: int | None = None) -> Game:
    """Replay a record (a dict, or JSON text) and return the game.

    ``stop_at`` replays only the first ``stop_at`` moves. The fields are checked in a fixed
    order (header, players, seed, rules, deck, rooms, lords, start player, exhaust), so a record
    with several faults always names the same one first.
    """
    data = _read_header(data)
    players = _read_players(data)
    seed = data.get("seed")
    _require(seed is None or (isinstance(seed, (int, str)) and not isinstance(seed, bool)),
             "seed: expected a whole number or text")
    rules = _read_rules(data, players)
    deck, levels = _read_deck(data)
    rooms = _read_rooms(data, levels, rules.rooms_dealt(len(players)), len(players), seed)
    lords = _read_lords(data, players, seed)
    start = data.get("start_player", players[0])
    _require(start in players, f"start_player: {start!r} is not one of the players")
    choices = _read_exhaust(data, players, seed)
    try:
        game = Game(players, seed=seed, rules=rules, deck=deck, rooms=rooms, lords=lords,
                    start_player=start, exhaust=choices)
    except (LordError, DeckError) as err:
        raise RecordError(str(err)) from None
    except (ValueError, IllegalAction) as err:
        raise RecordError(f"setup: {err}") from None
    comment = data.get("comment")
    _require(comment is None or isinstance(comment, str), "comment: expected text")
    game.comment = comment
    _replay_moves(game, data.get("moves", []), stop_at)
    return game


def _read_header(data: Any) -> Mapping:
    """JSON text or a mapping; the format, the version and no unknown field."""
    if isinstance(data, (str, bytes)):
        try:
            data = json.loads(data)
        except json.JSONDecodeError as err:
            raise RecordError(f"not JSON: {err.msg} at line {err.lineno} column {err.colno}") from None
    _require(isinstance(data, Mapping), "record: expected a JSON object")
    _require(data.get("format") == FORMAT, f"format: expected {FORMAT!r}, got {data.get('format')!r}")
    _require(data.get("version") == VERSION, f"version: expected {VERSION}, got {data.get('version')!r}")
    unknown = sorted(set(data) - KNOWN_FIELDS)
    _require(not unknown, f"{', '.join(unknown)}: unknown field(s) in a record")
    return data


def _read_players(data: Mapping) -> list[str]:
    players = data.get("players")
    _require(isinstance(players, list) and all(isinstance(p, str) and p.strip() for p in players),
             "players: expected a list of player names")
    _require(3 <= len(players) <= 6, f"players: Dungeon Guilds is for 3-6 players, got {len(players)}")
    _require(len(set(players)) == len(players), "players: two players have the same name")
    _require(all(":" not in p for p in players), "players: a name cannot contain ':'")
    return players


def _read_rules(data: Mapping, players: list[str]) -> Rules:
    try:
        rules = Rules.from_dict(data.get("rules"))
        rules.check_players(len(players))
    except RulesError as err:
        raise RecordError(str(err) if str(err).startswith("rules") else f"rules: {err}") from None
    return rules


def _read_deck(data: Mapping):
    """``(deck, levels)``: the reference deck with the record's heal costs, levels and custom
    deck (name and card list) if it gives them."""
    ref = reference_deck()
    try:
        heal = parse_heal_costs(data["heal_costs"]) if "heal_costs" in data else ref.heal_costs
        levels = parse_levels(data["levels"]) if "levels" in data else ref.levels
    except DeckError as err:
        raise RecordError(str(err)) from None
    deck = ref.with_values(heal_costs=heal if "heal_costs" in data else None,
                           levels=levels if "levels" in data else None)
    if "deck" in data:  # a custom deck: its name and, optionally, its public card list
        raw = data["deck"]
        if isinstance(raw, str):
            raw = {"name": raw}
        _require(isinstance(raw, Mapping) and isinstance(raw.get("name", ""), str),
                 "deck: expected {\"name\": ..., \"rooms\": [...]} or the deck's name")
        cards = _read_deck_cards(raw["rooms"], levels) if "rooms" in raw else deck.rooms
        deck = dataclasses.replace(deck, name=raw.get("name", "custom"), rooms=tuple(cards))
    return deck, levels


def _read_deck_cards(raw: Any, levels) -> list[RoomCard]:
    _require(isinstance(raw, list) and raw, "deck.rooms: expected the deck's room cards with counts")
    cards: list[RoomCard] = []
    try:
        for i, row in enumerate(raw):
            card = parse_room(row, f"deck.rooms[{i}]", levels)
            count = row.get("count", 1)
            _require(isinstance(count, int) and not isinstance(count, bool) and count >= 1,
                     f"deck.rooms[{i}].count: expected a whole number of at least 1")
            cards += [card] * count
    except DeckError as err:
        raise RecordError(str(err)) from None
    return cards


def _read_rooms(data: Mapping, levels, need: int, n: int, seed) -> list[RoomCard] | None:
    """The rooms in draw order, or ``None`` (then the seed shuffles the deck)."""
    if "rooms" not in data:
        _require(seed is not None, "rooms: missing, and no seed to shuffle the deck with")
        return None
    raw = data["rooms"]
    _require(isinstance(raw, list), "rooms: expected a list of room cards in draw order")
    try:
        rooms = [parse_room(c, f"rooms[{i}]", levels) for i, c in enumerate(raw)]
    except DeckError as err:
        raise RecordError(str(err)) from None
    _require(len(rooms) >= need, f"rooms: a {n}-player game deals {need} rooms, the record lists {len(rooms)}")
    return rooms


def _read_lords(data: Mapping, players: list[str], seed) -> list | None:
    """The lords in draw order (ids or full definitions), or ``None`` (drawn with the seed)."""
    if "lords" not in data:
        _require(seed is not None, "lords: missing, and no seed to draw them with")
        return None
    raw = data["lords"]
    _require(isinstance(raw, list), "lords: expected a list of lord ids in draw order")
    _require(len(raw) == len(players),
             f"lords: a {len(players)}-player game draws {len(players)} lords, got {len(raw)}")
    lords = []
    for i, entry in enumerate(raw):
        try:
            if isinstance(entry, str):
                _require(entry in LORDS_BY_ID,
                         f"lords[{i}]: unknown lord id {entry!r} (known: {', '.join(LORDS_BY_ID)})")
                lords.append(LORDS_BY_ID[entry])
            else:
                lords.append(lord_from_dict(entry, f"lords[{i}]"))
        except (LordError, EffectError) as err:
            raise RecordError(str(err)) from None
    return lords


def _read_exhaust(data: Mapping, players: list[str], seed) -> dict[str, tuple[int, int]]:
    """"exhaust" present: exactly these choices (players not listed are still to choose);
    absent: every player's choice comes from the seed (R2.4)."""
    exhaust = data.get("exhaust")
    if exhaust is None:
        _require(seed is not None, "exhaust: missing, and no seed to choose with")
        return {name: random_exhaust(seed, i) for i, name in enumerate(players)}
    _require(isinstance(exhaust, Mapping), "exhaust: expected {name: [strength, strength]}")
    choices: dict[str, tuple[int, int]] = {}
    for name, pair in exhaust.items():
        _require(name in players, f"exhaust.{name}: not one of the players")
        _require(isinstance(pair, list) and len(pair) == 2
                 and all(isinstance(s, int) and not isinstance(s, bool) and 1 <= s <= 5 for s in pair)
                 and pair[0] != pair[1],
                 f"exhaust.{name}: expected two different strengths 1-5, got {pair!r}")
        choices[name] = (pair[0], pair[1])
    start_seat = players.index(data.get("start_player", players[0]))  # checked by the caller
    order = [players[(start_seat + i) % len(players)] for i in range(len(players))]
    chosen = [name in choices for name in order]
    if chosen != sorted(chosen, reverse=True):
        raise RecordError("exhaust: choices are taken from the start player clockwise; "
                          f"{order[chosen.index(False)]} has none but a later player has one")
    return choices


def _replay_moves(game: Game, moves: Any, stop_at: int | None) -> None:
    _require(isinstance(moves, list), "moves: expected a list of move texts")
    for number, text in enumerate(moves[:stop_at] if stop_at is not None else moves, start=1):
        _require(isinstance(text, str), f"move {number}: expected text such as 'Ann: place 1 1'")
        if game.is_over:
            raise RecordError(f"move {number} ({text!r}): the game is already over")
        try:
            game.push(text)
        except (ActionSyntaxError, IllegalAction) as err:
            raise RecordError(f"move {number} ({text!r}): {err}") from None


def load_record(path: str | Path, **kwargs: Any) -> Game:
    """Replay the record in a JSON file."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as err:
        raise RecordError(f"{path}: cannot read the record ({err.strerror})") from None
    except UnicodeDecodeError:
        raise RecordError(f"{path}: not a UTF-8 text file") from None
    return from_record(text, **kwargs)


__all__ = ["FORMAT", "VERSION", "dumps", "from_record", "load_record", "to_record", "RoomCard"]
