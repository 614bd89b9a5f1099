"""Writing a game record (``docs/record-format.md``): every fact a game used, as JSON.

``to_record(game)`` lists the rooms and lords in draw order, heal costs, level ranges, rules,
exhaust choices and moves of a :class:`~dungeon_guilds.game.Game` (it reads only the game's
public attributes, so this module sits below ``game``); :func:`dumps` is the canonical text.
Reading a record back is :mod:`dungeon_guilds.record`.
"""

from __future__ import annotations

import json
from typing import Any, Mapping

from .cards import counted_cards
from .lords import LORDS_BY_ID, Lord

FORMAT = "dungeon-guilds-record"
VERSION = 1


def _lord_entry(lord: Lord) -> Any:
    printed = LORDS_BY_ID.get(lord.id)
    return lord.id if printed == lord else lord.to_dict()


def to_record(game) -> dict[str, Any]:
    """The record of ``game`` so far (a record may stop mid-game)."""
    st = game.state
    deck = game.deck
    record: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "players": list(game.names),
        "start_player": game.names[game.start_seat],
        "rules": game.rules.to_dict(),
        "heal_costs": {str(s): st.base_heal[s] for s in range(1, 6)},
        "levels": {str(lv): {"defence": list(info.defence), "treasure": list(info.treasure)}
                   for lv, info in sorted(st.levels.items())},
        "rooms": [c.to_dict() for c in game.rooms_dealt],
        "lords": [_lord_entry(lord) for lord in st.lords],
    }
    if game.seed is not None:
        record["seed"] = game.seed
    if not deck.is_reference:
        record["deck"] = {"name": deck.name, "rooms": counted_cards(deck.rooms)}
    record["exhaust"] = {name: list(pair) for name, pair in game.exhaust_choices.items()}
    record["moves"] = game.moves
    if game.comment:
        record["comment"] = game.comment
    return record


def dumps(record: Mapping[str, Any]) -> str:
    """Canonical JSON text of a record: one field a line, one room and one move a line (what
    ``record → replay → record`` keeps identical)."""
    lines = []
    for key, value in record.items():
        if key in ("rooms", "lords", "moves") and isinstance(value, list) and value:
            inner = ",\n".join("  " + json.dumps(v, ensure_ascii=False) for v in value)
            text = "[\n" + inner + "\n ]"
        else:
            text = json.dumps(value, ensure_ascii=False)
        lines.append(f" {json.dumps(key)}: {text}")
    return "{\n" + ",\n".join(lines) + "\n}\n"
