"""A seat's board and round log sent in pieces (issue 37): the board is drawn as a list of strings
(the root's tags, the style and patterns, each room, the lord, each seat's panel:
:func:`~dungeon_guilds.drawing.board_svg.board_html_pieces`), the log as one per round
(:func:`~dungeon_guilds.drawing.story.round_log_pieces`), and a page is sent only the pieces that
changed since the last message *to that page*. A move changes a room or two, a few panels and
the last round's log, so a message that carried the whole ~30 KB board and the game's log now
carries a few KB: less for the server to encode and write at every move, and less for a phone on
the school's Wi-Fi to read.

The wire form of each field of :data:`FIELDS` is ``{"n": count, "put": [[index, piece], …]}``:
the page keeps its list of pieces, puts each one given, cuts or grows the list to ``count`` and
joins it (``tables.js``: ``applyPieces``; :func:`join` here, for scripts and tests). A page's first
message puts every piece. Tornado writes a socket's messages in order and closes a page it
cannot keep up with, so a page never misses a put; a page that comes back opens a new socket and
starts again from the whole board."""

from __future__ import annotations

from typing import Any, Sequence

FIELDS = ("board", "log")  # the state message's fields sent in pieces


def delta(before: Sequence[str], now: Sequence[str]) -> dict[str, Any]:
    """What a page holding ``before`` needs to hold ``now``. The pieces kept from one version to
    the next are the same string objects (``board_svg.Kept``), so most compare by identity."""
    put = [[i, piece] for i, piece in enumerate(now)
           if i >= len(before) or (before[i] is not piece and before[i] != piece)]
    return {"n": len(now), "put": put}


def apply(pieces: list[str], change: dict[str, Any]) -> list[str]:
    """``pieces`` (a page's list, changed in place and returned) after ``change`` (:func:`delta`)."""
    n = change["n"]
    del pieces[n:]
    pieces.extend([""] * (n - len(pieces)))
    for i, piece in change["put"]:
        pieces[i] = piece
    return pieces


def join(held: dict[str, list[str]], msg: dict[str, Any]) -> dict[str, Any]:
    """``msg`` (a state message as sent) with each field of :data:`FIELDS` whole, as a page
    joins it; ``held``: the pieces that page's socket was sent so far (updated)."""
    for field in FIELDS:
        msg[field] = "".join(apply(held.setdefault(field, []), msg[field]))
    return msg


__all__ = ["FIELDS", "apply", "delta", "join"]
