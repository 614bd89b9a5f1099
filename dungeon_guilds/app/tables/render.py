"""What one seat's page receives: built from that seat's view only.

:func:`seat_message` is the whole of what the server sends a seat about its table: the board
drawn for that seat (``viewer=seat``: other hands through :meth:`State.view`, room fronts only
once revealed), the clickable targets the engine allows that seat, the round log with the other
seats' setup choices hidden (R2.4), the seats' names, and that seat's own secret setup choice
while the others still choose. Another seat's pending choice is never read here; the test
``test_tables_secrets.py`` checks that a seat's message is unchanged when every secret it may
not know (the others' choices, the unrevealed fronts, the undealt deck) is changed.

While the table shows a round resolving (``table.showing``, issue 24), the board is that
round's dungeon as the dispatch left it (:meth:`Game.dispatch_end`, drawn for that seat) at the
step this page has reached (:func:`~dungeon_guilds.drawing.resolving.resolution_frame`): the
fronts it reveals are the ones the engine's log has made public (R5.1); nothing is clickable.

What a page may click is sent whole (issue 37): ``targets`` with no adventurer chosen, and in
``picks`` each choice of the seat's hand (one adventurer in the dispatch, one or two at the
setup) with the board's cells drawn for it (:func:`~dungeon_guilds.drawing.board_svg.board_cells`)
and the moves it makes clickable; the page swaps the cells in when its player picks, without
asking the server. The message is built in two parts: :func:`seat_parts` (the board, the log,
the story, the picks: the costly part, the same for every page of a seat at one version of the
table, language and step — the server draws it once and keeps it) and :func:`seat_head` (seats,
status: cheap, and it changes as pages come and go).

The drawing functions are imported in this one place (:data:`board_html`, :data:`board_targets`).
"""

from __future__ import annotations

from html import escape
from typing import Any, Sequence

from ... import events, i18n
from ...board_targets import board_targets
from ...drawing.board_svg import Kept, board_cells, board_html_pieces, board_svg_html as board_html
from ...drawing.resolving import resolution_frame
from ...drawing.story import resolution_steps, round_log_pieces
from ...table_model import choice_key, choosing_state, next_choice
from . import pieces
from .table import BOT, BOT_KIND, BOT_LEVELS, OPEN, RESOLUTION_S, Table


def _t(key: str, lang: str, **values: Any) -> str:
    return i18n.t(f"tables.{key}", lang, **values)


def bot_words(level: str, lang: str) -> str:
    """A bot level in Play's words (``strings/<lang>/bots.toml``, ``[bot]``): "level 3 · strong bot"."""
    return i18n.t(f"bot.{level}", lang)


def level_choices(lang: str) -> list[dict[str, str]]:
    """The levels the opener may pick for a free seat, in the page's language."""
    return [{"id": level, "label": bot_words(level, lang)} for level in BOT_LEVELS]


def seat_label(table: Table, seat: int, lang: str) -> str:
    """"Seat 2 · Bo" (seats counted from 1 for people)."""
    name = table.seats[seat].name or _t("free_seat", lang)
    return _t("seat_label", lang, seat=seat + 1, name=name)


def _setup_state(table: Table, seat: int):
    """The state drawn for a seat during the simultaneous setup choice (R2.4): the engine's,
    with that seat the one choosing (every seat chooses now; nobody's choice is in it yet): the
    table model's :func:`~dungeon_guilds.table_model.choosing_state`."""
    return choosing_state(table.game.state, seat)


def _targets(table: Table, seat: int, state, selected: Sequence[int], lang: str) -> dict:
    if table.is_over or (table.in_setup and seat in table.pending):
        return {}
    return board_targets(state, seat, selected, lang)


def _wire(targets: dict) -> dict:
    return {k: {"action": str(v.action) if v.action else None, "enabled": v.enabled} for k, v in targets.items()}


def _choices(table: Table, state, seat: int, base: dict) -> list[tuple[int, ...]]:
    """The choices of the seat's hand a page may make: each enabled card in the dispatch; at the
    setup (two to exhaust, R2.4) each card alone and each pair."""
    hand = sorted(int(k[5:]) for k, v in base.items() if k.startswith("hand-") and v.enabled)
    if not table.in_setup:
        return [(s,) for s in hand]
    return [(a,) for a in hand] + [(a, b) for i, a in enumerate(hand) for b in hand[i + 1:]]


def picks(table: Table, state, seat: int, lang: str, base: dict, kept: dict | None = None) -> dict[str, dict]:
    """For each choice of the seat's hand (``"3"``, at the setup also ``"2,4"``; ``""``: none):
    the board's cells that choice changes, drawn (the slots it may go to, the exhaust button, the
    pressed cards), the targets it adds (the engine's answers, as :func:`board_targets` gives
    them), and ``next``: the choice a click on each card of the hand makes of it (the table
    model's :func:`~dungeon_guilds.table_model.next_choice`, so the page holds no rule of its own).
    ``kept``: the table's :class:`Kept` (the slots' cells kept from one version to the next)."""
    out: dict[str, dict] = {"": {"cells": {}, "targets": {}}}
    view, drawn, worded = state.known_hands(seat), {}, {}  # a cell drawn (and a hand worded) once
    choices = _choices(table, state, seat, base)
    for choice in choices:
        targets = board_targets(state, seat, list(choice), lang, memo=worded)
        cells = board_cells(state, lang, seat, targets, hand=choice, view=view, memo=drawn,  # the other cards stay as drawn
                            kept=kept)
        out[choice_key(choice)] = {
            "cells": cells,
            "targets": _wire({k: v for k, v in targets.items() if not k.startswith("hand-")})}
    hand = sorted({s for choice in choices for s in choice})
    for key, entry in out.items():
        chosen = tuple(int(s) for s in key.split(",") if s)
        entry["next"] = {str(s): choice_key(next_choice(chosen, s, table.in_setup)) for s in hand}
    return out


def status_text(table: Table, seat: int, lang: str, now: float, away_s: float | None) -> str:
    if table.game is None:
        free = sum(s.kind == OPEN for s in table.seats)
        return _t("status_waiting", lang, free=free, code=table.code)
    game = table.game
    if table.showing is not None:
        if seat in table.ready:
            names = i18n.join_list((table.seats[i].name for i in table.waiting_for()), lang) or "—"
            return _t("status_resolving_ready", lang, round=table.showing, names=names, seconds=int(RESOLUTION_S))
        return _t("status_resolving", lang, round=table.showing, seconds=int(RESOLUTION_S))
    if game.is_over:
        winners = i18n.join_list((game.names[w] for w in game.result().winners), lang)
        return _t("status_over", lang, winners=winners)
    if table.in_setup:
        if seat in table.pending:
            a, b = table.pending[seat]
            left = i18n.join_list((table.seats[i].name for i in range(len(table.seats)) if i not in table.pending), lang)
            return _t("status_chosen", lang, a=a, b=b, names=left)
        return _t("status_choose", lang)
    current = game.current
    if current == seat:
        return _t("status_yours", lang, seat=seat + 1, name=game.names[seat])
    who = seat_label(table, current, lang)
    if table.seats[current].kind == BOT:
        return _t("status_bot", lang, who=who, bot=bot_words(table.level_of(current), lang))
    if table.bot_seat(current, now, away_s):
        return _t("status_away", lang, who=who)
    return _t("status_other", lang, who=who)


def _story(table: Table, lang: str) -> list[str]:
    """The sentences of the round shown (else of the last round resolved): worded once per round
    and language, kept with the game's log lines (a round's resolution and cleanup are logged in
    one step of the engine, and never change after)."""
    game = table.game
    rounds = events.resolved_rounds(game.log)
    if not rounds:
        return []
    shown = table.showing or rounds[-1]
    key = ("story", shown, lang)
    if key not in table.log_lines:
        table.log_lines[key] = resolution_steps(game.log, shown, game.names, lang)
    return table.log_lines[key]


def _round_end(table: Table, memo: dict | None):
    """The round shown, as its dispatch left it (:meth:`Game.dispatch_end`): with a memo, one
    state for every seat (so that their boards share its parts)."""
    if table.showing is None:
        return None
    if memo is None:
        return table.game.dispatch_end(table.showing)
    if ("end", table.showing) not in memo:
        memo["end", table.showing] = table.game.dispatch_end(table.showing)
    return memo["end", table.showing]


def _resolving(table: Table, seat: int, lang: str, step: int, steps: int,
               memo: dict | None = None) -> tuple[list[str], dict] | None:
    """The board of the round shown resolving at this page's ``step`` (in pieces), and what the
    page needs to step through it; None when no round is shown."""
    game = table.game
    end = _round_end(table, memo)
    frame = resolution_frame(end, game.log, table.showing, min(step, steps - 1)) if end is not None else None
    if frame is None:
        return None
    board = board_html_pieces(end, lang, viewer=seat, log=game.log, frame=frame, memo=memo)
    return board, {"round": table.showing, "step": min(step, steps - 1), "steps": steps,
                   "ready": seat in table.ready, "over": game.is_over}  # "ready": the server sets it anew each send


def seats_info(table: Table, seat: int, lang: str, now: float, away_s: float | None) -> list[dict]:
    out = []
    for i, s in enumerate(table.seats):
        if s.kind == OPEN:
            state = _t("seat_open", lang)
        elif s.kind == BOT:
            state = _t("seat_bot", lang, bot=bot_words(table.level_of(i), lang))
        elif s.connected:
            state = _t("seat_here", lang)
        elif table.game is not None and table.bot_seat(i, now, away_s):
            state = _t("seat_away_bot", lang)
        else:
            state = _t("seat_away", lang)
        out.append({"seat": i + 1, "label": seat_label(table, i, lang), "state": state, "you": i == seat,
                    "kind": s.kind, "bot": s.bot})
    return out


def seat_head(table: Table, seat: int, lang: str, now: float = 0.0, away_s: float | None = None) -> dict[str, Any]:
    """The cheap part of ``seat``'s message: who sits where, the status line, the opener's levels."""
    msg: dict[str, Any] = {
        "op": "state", "code": table.code, "seat": seat + 1, "version": table.version, "lang": lang,
        "seats": seats_info(table, seat, lang, now, away_s), "opener": seat == 0,
        "started": table.game is not None, "over": table.is_over,
        "status": status_text(table, seat, lang, now, away_s),
    }
    if table.game is None and seat == 0:  # the opener picks each free seat's opponent
        msg["levels"], msg["level_default"] = level_choices(lang), BOT_KIND
    return msg


def seat_parts(table: Table, seat: int, lang: str, step: int = 0, memo: dict | None = None) -> dict[str, Any]:
    """The costly part of ``seat``'s message at this version of the table: the board in pieces
    (:func:`board_html_pieces`; at ``step`` of a round shown resolving), its targets and
    ``picks``, the log in pieces (:func:`round_log_pieces`) and the story.
    ``memo``: a dict shared by the seats' parts at this version of the table (the server's
    :class:`PartsCache`): what every seat sees alike is drawn once (:func:`board_html`'s memo)."""
    msg: dict[str, Any] = {"board": [], "log": [], "story": [], "targets": {}, "picks": {}, "resolving": None}
    if table.game is None:
        return msg
    game = table.game
    story = memo.get(("story", lang)) if memo is not None else None  # the same for every seat
    if story is None:
        story = _story(table, lang)
        if memo is not None:
            memo["story", lang] = story
    msg["story"] = [escape(s) for s in story]
    msg["log"] = round_log_pieces(game.log, game.names, lang, secret_for=seat, lords=game.state.lords,
                                memo=table.log_lines)
    shown = _resolving(table, seat, lang, step, len(story), memo) if story else None
    if shown is not None:  # the round resolving on the board: nothing to click until the next round
        msg["board"], msg["resolving"] = shown
    else:
        state = _setup_state(table, seat) if table.in_setup else game.state
        targets = _targets(table, seat, state, (), lang)
        msg["board"] = board_html_pieces(state, lang, viewer=seat, log=game.log, targets=targets,
                                         memo=None if table.in_setup else memo)  # at the setup each seat's state is its own copy
        msg["targets"] = _wire(targets)
        kept = memo.get("kept") if memo is not None and not table.in_setup else None
        msg["picks"] = picks(table, state, seat, lang, targets, kept) if targets else {}
    msg["phase"] = i18n.phase_name(game.phase, lang)
    msg["phase_id"] = game.phase  # setup / dispatch / over (for scripts)
    return msg


def seat_message(table: Table, seat: int, lang: str, now: float = 0.0, away_s: float | None = None,
                 step: int = 0) -> dict[str, Any]:
    """The ``state`` message for ``seat`` in ``lang`` (``step``: the step of a round shown
    resolving that page has reached): :func:`seat_head` and :func:`seat_parts` together, the
    board and the log whole (the server sends a page the pieces that changed: :mod:`.pieces`)."""
    parts = seat_parts(table, seat, lang, step)
    return {**seat_head(table, seat, lang, now, away_s), **parts, **{f: "".join(parts[f]) for f in pieces.FIELDS}}


__all__ = ["Kept", "bot_words", "level_choices", "picks", "seat_head", "seat_message", "seat_parts", "seat_label", "status_text", "board_html", "board_targets"]
