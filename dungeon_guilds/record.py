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


def from_record(data: Any, *, stop_at: int | None = None) -> Game:
    """Replay a record (a dict, or JSON text) and return the game.

    ``stop_at`` replays only the first ``stop_at`` moves.
    """
    if isinstance(data, (str, bytes)):
        try:
            data = json.loads(data)
        except json.JSONDecodeError as err:
            raise RecordError(f"not JSON: {err.msg} at line {err.lineno} column {err.colno}") from None
    _require(isinstance(data, Mapping), "record: expected a JSON object")
    _require(data.get("format") == FORMAT, f"format: expected {FORMAT!r}, got {data.get('format')!r}")
    _require(data.get("version") == VERSION, f"version: expected {VERSION}, got {data.get('version')!r}")
    known = {"format", "version", "players", "start_player", "rules", "heal_costs", "levels",
             "rooms", "lords", "seed", "exhaust", "moves", "deck", "comment", "result"}
    unknown = sorted(set(data) - known)
    _require(not unknown, f"{', '.join(unknown)}: unknown field(s) in a record")

    players = data.get("players")
    _require(isinstance(players, list) and all(isinstance(p, str) and p.strip() for p in players),
             "players: expected a list of player names")
    _require(3 <= len(players) <= 6, f"players: Dungeon Guilds is for 3-6 players, got {len(players)}")
    _require(len(set(players)) == len(players), "players: two players have the same name")
    _require(all(":" not in p for p in players), "players: a name cannot contain ':'")

    seed = data.get("seed")
    _require(seed is None or (isinstance(seed, (int, str)) and not isinstance(seed, bool)),
             "seed: expected a whole number or text")
    try:
        rules = Rules.from_dict(data.get("rules"))
        rules.check_players(len(players))
    except RulesError as err:
        raise RecordError(str(err) if str(err).startswith("rules") else f"rules: {err}") from None

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
        cards = deck.rooms
        if "rooms" in raw:
            _require(isinstance(raw["rooms"], list) and raw["rooms"],
                     "deck.rooms: expected the deck's room cards with counts")
            try:
                cards = []
                for i, row in enumerate(raw["rooms"]):
                    card = parse_room(row, f"deck.rooms[{i}]", levels)
                    count = row.get("count", 1)
                    _require(isinstance(count, int) and not isinstance(count, bool) and count >= 1,
                             f"deck.rooms[{i}].count: expected a whole number of at least 1")
                    cards += [card] * count
            except DeckError as err:
                raise RecordError(str(err)) from None
        deck = dataclasses.replace(deck, name=raw.get("name", "custom"), rooms=tuple(cards))

    rooms = None
    if "rooms" in data:
        raw = data["rooms"]
        _require(isinstance(raw, list), "rooms: expected a list of room cards in draw order")
        try:
            rooms = [parse_room(c, f"rooms[{i}]", levels) for i, c in enumerate(raw)]
        except DeckError as err:
            raise RecordError(str(err)) from None
        need = rules.rooms_dealt(len(players))
        _require(len(rooms) >= need,
                 f"rooms: a {len(players)}-player game deals {need} rooms, the record lists {len(rooms)}")
    else:
        _require(seed is not None, "rooms: missing, and no seed to shuffle the deck with")

    lords = None
    if "lords" in data:
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
    else:
        _require(seed is not None, "lords: missing, and no seed to draw them with")

    start = data.get("start_player", players[0])
    _require(start in players, f"start_player: {start!r} is not one of the players")

    # "exhaust" present: exactly these choices (players not listed are still to choose);
    # absent: every player's choice comes from the seed (R2.4).
    exhaust = data.get("exhaust")
    choices: dict[str, tuple[int, int]] = {}
    if exhaust is None:
        _require(seed is not None, "exhaust: missing, and no seed to choose with")
        choices = {name: random_exhaust(seed, i) for i, name in enumerate(players)}
    else:
        _require(isinstance(exhaust, Mapping), "exhaust: expected {name: [strength, strength]}")
        for name, pair in exhaust.items():
            _require(name in players, f"exhaust.{name}: not one of the players")
            _require(isinstance(pair, list) and len(pair) == 2
                     and all(isinstance(s, int) and not isinstance(s, bool) and 1 <= s <= 5 for s in pair)
                     and pair[0] != pair[1],
                     f"exhaust.{name}: expected two different strengths 1-5, got {pair!r}")
            choices[name] = (pair[0], pair[1])
        start_seat = players.index(data.get("start_player", players[0])) if data.get(
            "start_player", players[0]) in players else 0
        order = [players[(start_seat + i) % len(players)] for i in range(len(players))]
        chosen = [name in choices for name in order]
        if chosen != sorted(chosen, reverse=True):
            raise RecordError("exhaust: choices are taken from the start player clockwise; "
                              f"{order[chosen.index(False)]} has none but a later player has one")

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

    moves = data.get("moves", [])
    _require(isinstance(moves, list), "moves: expected a list of move texts")
    for number, text in enumerate(moves[:stop_at] if stop_at is not None else moves, start=1):
        _require(isinstance(text, str), f"move {number}: expected text such as 'Ann: place 1 1'")
        if game.is_over:
            raise RecordError(f"move {number} ({text!r}): the game is already over")
        try:
            game.push(text)
        except (ActionSyntaxError, IllegalAction) as err:
            raise RecordError(f"move {number} ({text!r}): {err}") from None
    return game


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
