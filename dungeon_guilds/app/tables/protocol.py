"""The table websocket's messages, checked before anything happens.

A page sends one JSON object a message (at most :data:`MAX_MESSAGE` characters), with ``op``:

==========  =====================================================================================
``open``    ``seats`` (3-6), ``name``, ``rules`` (``lords``, ``edition``, ``teams``, ``npc``), ``deck``
            (deck file text, TOML, or null for the reference deck): a new table, this page in seat 1
``join``    ``code``, ``name``: this page takes a free seat
``resume``  ``code``, ``token``: this page is again the seat the token proves (a reload, a lost
            connection, a restarted server)
``bots``    the opener fills the free seats with bots (the game starts); optional ``levels``:
            {seat number from 1: a level of ``table.BOT_LEVELS``} (others: ``table.BOT_KIND``)
``act``     ``action`` (the engine's move text: ``exhaust 4 5``, ``place 3 1``, ``bump 4 2b``) and
            ``version`` (the table's version the page saw): the seat's move
``lang``    ``lang`` (``en`` or ``zh``): the language of this page's messages
``step``    ``step`` (0 up): the step of the round's resolution this page shows (each page steps
            at its own pace; issue 24)
``continue`` this seat has seen the round's resolution; the next round starts when every seat
            with a page open has sent it (or after ``table.RESOLUTION_S`` seconds)
``leave``   this page leaves its table (answered ``left``): the seat stays in the game, the table no
            longer counts among the address's open tables (issue 51)
``review``  at game over: the judge's review of this page's own seat (issue 50, item 4; answered
            ``review``: its status, the lesson once ready; :mod:`.seat_review`)
``record``  at game over: the game's record (answered ``record``), saved by the page as a file
==========  =====================================================================================

The server answers the sender with ``seat`` (``code``, ``seat``, ``token``: the page keeps the
token) or ``refused`` (``reason``: words in the page's language, ``code``), and pushes ``state``
(:func:`~.render.seat_message`) to every page of a table that changed. A message that is not
JSON, not an object, of an unknown ``op``, with a wrong field, a forged token, a move out of
turn or made on an older version of the table (a replay) changes nothing and is refused with a
reason (``test_tables_protocol.py`` fuzzes it with 1,000 such messages).

Choosing an adventurer is the page's own business (issue 37): every ``state`` a seat receives
holds, in ``picks``, what each choice of its hand would make clickable (the board's cells drawn
for it and the moves), so a click on a card costs the server nothing; only the move (``act``)
comes here, and the engine judges it. Wrong table codes and seat keys are counted per client
address (``Conn.guesses``, shared by every connection from that address).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from ...actions import ActionSyntaxError
from ...cards import DeckError, parse_deck_text
from ...errors import IllegalAction
from ...lords import lord_from_dict
from ...rules import Rules, RulesError
from .limits import Bucket, Limits
from .lobby import Lobby
from .refusal import TableRefusal, refusal_words
from .seat_review import answer as review_answer, record_reply
from .table import MAX_SEATS, Table, bot_level

MAX_MESSAGE = 16_000  # characters; a deck file is the longest thing a page sends
MAX_DECK = 15_000
MAX_LORD = 8_000
LANGS = ("en", "zh")


def _own_guesses() -> Bucket:
    return Bucket(Limits.code_guesses_per_s, Limits.code_guesses)


def _own_opens() -> Bucket:
    return Bucket(Limits.opens_per_s, Limits.opens)


@dataclass
class Conn:
    """One page's connection: the seat it proved, its language, the step of a round shown it
    has reached, its client address and that address's budgets of wrong codes (``guesses``) and
    of ``open``s (``opens``; the server shares each between every connection from one address)."""

    lang: str = "en"
    code: str | None = None
    seat: int | None = None
    step: tuple[int, int] = (0, 0)  # (round, step) of the resolution this page shows
    address: str | None = None
    guesses: Bucket = field(default_factory=_own_guesses)
    opens: Bucket = field(default_factory=_own_opens)  # the address's ``open``s (the server shares one too)


@dataclass
class Outcome:
    reply: dict[str, Any] | None = None  # to the sender
    changed: Table | None = None  # push a new state to every page of this table
    refresh: bool = False  # push a new state to the sender only
    redraw: bool = False  # that state is the whole board again (a new language): the server budgets it per address


def refused(err: Exception, lang: str) -> dict[str, Any]:
    return {"op": "refused", "code": getattr(err, "code", "bad_message"), "reason": refusal_words(err, lang)}


def _field(msg: dict, name: str, kind: type | tuple, optional: bool = False) -> Any:
    value = msg.get(name)
    if value is None and optional:
        return None
    if not isinstance(value, kind) or isinstance(value, bool) and kind is int:
        raise TableRefusal("bad_field", field=name)
    return value


def parse(raw: Any) -> dict[str, Any]:
    if not isinstance(raw, str) or len(raw) > MAX_MESSAGE:
        raise TableRefusal("too_long", most=MAX_MESSAGE)
    try:
        msg = json.loads(raw)
    except (ValueError, RecursionError):
        raise TableRefusal("bad_message") from None
    if not isinstance(msg, dict) or msg.get("op") not in HANDLERS:
        raise TableRefusal("bad_message")
    return msg


def _rules(raw: Any) -> Rules:
    if raw is None:
        return Rules()
    if not isinstance(raw, dict):
        raise TableRefusal("bad_field", field="rules")
    try:
        return Rules.from_dict(raw)
    except (RulesError, TypeError) as err:
        raise TableRefusal("rules_bad", reason=str(err)) from None


def _deck_checked(raw: Any, fmt: Any) -> None:
    """The cheap checks of a deck field (type, length, format), before anything is parsed."""
    if raw is None or raw == "":
        return
    if not isinstance(raw, str):
        raise TableRefusal("bad_field", field="deck")
    if len(raw) > MAX_DECK:
        raise TableRefusal("deck_too_long", most=MAX_DECK)
    if fmt not in ("toml", "csv"):
        raise TableRefusal("bad_field", field="deck_format")


def _deck(raw: Any, fmt: Any = "toml"):
    if raw is None or raw == "":
        return None
    _deck_checked(raw, fmt)
    try:
        return parse_deck_text(raw, fmt)
    except DeckError as err:
        raise TableRefusal("deck_bad", reason=str(err)) from None


def _lord(raw: Any):
    if raw is None or raw == "":
        return None
    if not isinstance(raw, str) or len(raw) > MAX_LORD:
        raise TableRefusal("bad_field", field="lord")
    try:
        return lord_from_dict(json.loads(raw))
    except (ValueError, RecursionError, TypeError) as err:  # LordError and EffectError are ValueErrors
        raise TableRefusal("lord_bad", reason=str(err)) from None


def _seated(lobby: Lobby, conn: Conn) -> tuple[Table, int]:
    if conn.code is None or conn.seat is None:
        raise TableRefusal("no_seat")
    return lobby.table(conn.code), conn.seat


def _seat_reply(conn: Conn, table: Table, seat: int, token: str | None) -> dict[str, Any]:
    conn.code, conn.seat = table.code, seat
    reply = {"op": "seat", "code": table.code, "seat": seat + 1}
    if token is not None:
        reply["token"] = token
    return reply


def on_open(lobby: Lobby, conn: Conn, msg: dict) -> Outcome:
    if conn.seat is not None:
        raise TableRefusal("one_seat")
    seats = _field(msg, "seats", int)
    # issue 51, item 1: every cheap check before the costly parse (a deck, a lord), then the address's budget
    lobby.check_open(conn.address)
    fmt = msg.get("deck_format") or "toml"
    _deck_checked(msg.get("deck"), fmt)
    if msg.get("lord") is not None and (not isinstance(msg.get("lord"), str) or len(msg["lord"]) > MAX_LORD):
        raise TableRefusal("bad_field", field="lord")
    if not conn.opens.take():
        raise TableRefusal("too_many_opens")
    rules, deck = _rules(msg.get("rules")), _deck(msg.get("deck"), fmt)
    table, token = lobby.open(seats, msg.get("name"), rules, deck, _lord(msg.get("lord")), owner=conn.address)
    return Outcome(_seat_reply(conn, table, 0, token), table)


def _guessed_wrong(conn: Conn) -> None:
    """A wrong code or seat key: one of the address's budget spent (refused when none is left)."""
    if not conn.guesses.take():
        raise TableRefusal("too_many_codes")


def _table_by_code(lobby: Lobby, conn: Conn, msg: dict) -> Table:
    if conn.guesses.left() < 1:
        raise TableRefusal("too_many_codes")
    try:
        return lobby.table(msg.get("code"))
    except TableRefusal:
        _guessed_wrong(conn)
        raise


def on_join(lobby: Lobby, conn: Conn, msg: dict) -> Outcome:
    if conn.seat is not None:
        raise TableRefusal("one_seat")
    table = _table_by_code(lobby, conn, msg)
    seat, token = table.join(msg.get("name"), lobby.clock())
    lobby.save(table)
    return Outcome(_seat_reply(conn, table, seat, token), table)


def on_resume(lobby: Lobby, conn: Conn, msg: dict) -> Outcome:
    table = _table_by_code(lobby, conn, msg)
    seat = table.seat_of(msg.get("token"))
    if seat is None:
        _guessed_wrong(conn)
        raise TableRefusal("bad_token")
    if conn.seat is not None and (conn.code, conn.seat) != (table.code, seat):
        raise TableRefusal("one_seat")
    again = conn.seat is not None  # this page holds that seat already and has its state: only the short reply
    # (issue 51, item 2: a repeated resume no longer buys the whole state); the others hear of it if the seat was away
    return Outcome(_seat_reply(conn, table, seat, None), None, refresh=not again)


def _levels(raw: Any) -> dict[int, str]:
    """``{"3": "strong"}`` (seat numbers from 1, as the page shows them) -> {2: "strong"}."""
    if raw is None:
        return {}
    if not isinstance(raw, dict) or len(raw) > MAX_SEATS:
        raise TableRefusal("bad_field", field="levels")
    out = {}
    for key, level in raw.items():
        if not (isinstance(key, str) and key.isascii() and key.isdigit() and len(key) == 1):
            raise TableRefusal("bad_field", field="levels")
        out[int(key) - 1] = bot_level(level)
    return out


def on_bots(lobby: Lobby, conn: Conn, msg: dict) -> Outcome:
    table, seat = _seated(lobby, conn)
    table.fill_with_bots(seat, lobby.clock(), _levels(msg.get("levels")))
    lobby.save(table)
    return Outcome(None, table)


def on_act(lobby: Lobby, conn: Conn, msg: dict) -> Outcome:
    table, seat = _seated(lobby, conn)
    action = _field(msg, "action", str)
    version = _field(msg, "version", int)
    table.act(seat, action, version, lobby.clock(), lobby.away_s)
    lobby.save(table)
    return Outcome(None, table)


def on_lang(lobby: Lobby, conn: Conn, msg: dict) -> Outcome:
    lang = msg.get("lang")
    if lang not in LANGS:
        raise TableRefusal("bad_field", field="lang")
    changed, conn.lang = lang != conn.lang, lang
    # the same language again: nothing to send (issue 51, item 2: a `lang` toggle costs a whole board)
    return Outcome(None, None, refresh=changed and conn.seat is not None, redraw=True)


MAX_STEP = 64  # more than any round's resolution has steps


def on_step(lobby: Lobby, conn: Conn, msg: dict) -> Outcome:
    table, _seat = _seated(lobby, conn)
    step = _field(msg, "step", int)
    if table.showing is None:
        raise TableRefusal("not_resolving")
    if not 0 <= step < MAX_STEP:
        raise TableRefusal("bad_field", field="step")
    conn.step = (table.showing, step)
    return Outcome(None, None, refresh=True)


def on_continue(lobby: Lobby, conn: Conn, msg: dict) -> Outcome:
    table, seat = _seated(lobby, conn)
    if not table.continue_(seat, lobby.clock(), lobby.away_s):
        return Outcome(None, None)  # said already: nothing changed
    lobby.save(table)
    return Outcome(None, table)


def on_leave(lobby: Lobby, conn: Conn, msg: dict) -> Outcome:
    """The page leaves its table (issue 51, item 5): its seat stays in the game (a bot plays it
    once it is away), the table no longer counts among the address's open tables, and this
    connection may open or join another."""
    table, _seat = _seated(lobby, conn)
    lobby.leave(table.code, conn.address)
    conn.code, conn.seat, conn.step = None, None, (0, 0)
    return Outcome({"op": "left", "code": table.code})


def on_review(lobby: Lobby, conn: Conn, msg: dict) -> Outcome:
    """The judge's review of the seat this connection proved (never another: the message names
    none), run in the class reviews' worker; asked again until ready (:mod:`.seat_review`)."""
    table, seat = _seated(lobby, conn)
    reviews = getattr(lobby, "reviews", None)
    return Outcome(review_answer(reviews.seats if reviews is not None else None, table, seat, conn.lang,
                                 conn.address or "?"))


def on_record(lobby: Lobby, conn: Conn, msg: dict) -> Outcome:
    table, seat = _seated(lobby, conn)
    return Outcome(record_reply(table, seat))


HANDLERS = {"open": on_open, "join": on_join, "resume": on_resume, "bots": on_bots, "act": on_act, "lang": on_lang,
            "step": on_step, "continue": on_continue, "leave": on_leave,
            "review": on_review, "record": on_record}


def handle(lobby: Lobby, conn: Conn, raw: Any) -> Outcome:
    """Answer one message from a page. Never raises for anything a page can send: a refusal is
    the ``refused`` reply and nothing changes."""
    try:
        msg = parse(raw)
        return HANDLERS[msg["op"]](lobby, conn, msg)
    except (TableRefusal, IllegalAction, ActionSyntaxError) as err:
        return Outcome(refused(err, conn.lang))


__all__ = ["Conn", "HANDLERS", "LANGS", "MAX_MESSAGE", "Outcome", "handle", "parse", "refused"]
