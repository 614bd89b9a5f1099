"""The teacher's downloads: every finished game as a record (the project's format,
``docs/record-format.md``; its ``comment`` names the bot seats and their levels, the workshop
lord and deck) and one CSV row per game (its ``bots`` column: the bot seats and their levels;
``lord``: the workshop lord in round 1, by its name in the page's language; ``deck``: the deck's
name). A cell a visitor's text could start with ``=``, ``+``, ``-``, ``@``, a tab or a carriage
return is written as text (a leading ``'``), so that a spreadsheet never reads a name as a
formula (OWASP, "CSV injection")."""

from __future__ import annotations

import csv
import io
from typing import Iterable

from ...record_write import to_record
from .table import BOT, Table

CSV_COLUMNS = ("table", "lords", "edition", "teams", "npc", "deck", "lord", "seats", "players", "final_gold",
               "winners", "bots")
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def as_text(cell):
    """A CSV cell a spreadsheet reads as text: a string starting like a formula gets a leading ``'``."""
    return "'" + cell if isinstance(cell, str) and cell.startswith(FORMULA_START) else cell


def deck_name(table: Table) -> str:
    return "reference" if table.deck.is_reference else table.deck.name


def lord_name(table: Table, lang: str = "en") -> str:
    """The workshop lord in round 1 by its name in ``lang`` ("" when the lords were drawn as usual)."""
    return "" if table.lord is None else table.lord.name(lang)


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
        extra = [f"bots: {bots}" if bots else "", f"lord in round 1: {lord_name(table)}" if table.lord else "",
                 f"deck: {deck_name(table)}" if not table.deck.is_reference else ""]
        record["comment"] = "; ".join([f"class table {table.code}"] + [x for x in extra if x])
        out.append(record)
    return out


def games_csv(tables: Iterable[Table], lang: str = "en") -> str:
    """One row a finished game: variant (rules, deck, workshop lord), seats, final gold, winners."""
    buf = io.StringIO()
    writer = csv.writer(buf)
    writer.writerow(CSV_COLUMNS)
    for table in finished(tables):
        game, rules = table.game, table.rules
        res = game.result()
        writer.writerow([as_text(x) for x in (
            table.code, rules.lords, rules.edition, rules.teams or "", rules.npc, deck_name(table),
            lord_name(table, lang), game.n_players, " | ".join(game.names), " | ".join(map(str, res.gold)),
            " | ".join(game.names[w] for w in res.winners), bots_text(table, " | "))])
    return buf.getvalue()


__all__ = ["CSV_COLUMNS", "as_text", "deck_name", "games_csv", "lord_name", "records"]
