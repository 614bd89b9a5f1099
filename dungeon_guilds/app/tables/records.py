"""The teacher's downloads: every finished game as a record (the project's format,
``docs/record-format.md``; its ``comment`` names the bot seats and their levels) and one CSV row
per game (its ``bots`` column: the bot seats and their levels)."""

from __future__ import annotations

import csv
import io
from typing import Iterable

from ...record_write import to_record
from .table import BOT, Table

CSV_COLUMNS = ("table", "lords", "edition", "teams", "npc", "deck", "seats", "players", "final_gold", "winners",
               "bots")


def bots_text(table: Table, sep: str = ", ") -> str:
    """The bot seats and their levels, "Cy: strong, Di: greedy" (level ids, as ``analysis.bots`` names them)."""
    return sep.join(f"{s.name}: {s.bot}" for s in table.seats if s.kind == BOT)


def finished(tables: Iterable[Table]) -> list[Table]:
    return sorted((t for t in tables if t.is_over), key=lambda t: t.created)


def records(tables: Iterable[Table]) -> list[dict]:
    """A JSON list of game records, one a finished game (each replays with ``from_record``)."""
    out = []
    for table in finished(tables):
        record = to_record(table.game)
        bots = bots_text(table)
        record["comment"] = f"class table {table.code}" + (f"; bots: {bots}" if bots else "")
        out.append(record)
    return out


def games_csv(tables: Iterable[Table]) -> str:
    """One row a finished game: variant (rules, deck), seats, final gold, winners."""
    buf = io.StringIO()
    writer = csv.writer(buf)
    writer.writerow(CSV_COLUMNS)
    for table in finished(tables):
        game, rules = table.game, table.rules
        res = game.result()
        writer.writerow([table.code, rules.lords, rules.edition, rules.teams or "", rules.npc,
                         "reference" if table.deck.is_reference else table.deck.name, game.n_players,
                         " | ".join(game.names), " | ".join(map(str, res.gold)),
                         " | ".join(game.names[w] for w in res.winners), bots_text(table, " | ")])
    return buf.getvalue()


__all__ = ["CSV_COLUMNS", "games_csv", "records"]
