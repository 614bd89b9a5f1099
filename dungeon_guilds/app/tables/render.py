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

The drawing functions are imported in this one place (:data:`board_html`, :data:`board_targets`).
"""

from __future__ import annotations

from html import escape
from typing import Any, Sequence

from ... import events, i18n
from ...board_targets import board_targets
from ...drawing.board_svg import board_svg_html as board_html
from ...drawing.resolving import resolution_frame
from ...drawing.story import resolution_steps, round_log_html
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
    with that seat the one choosing (every seat chooses now; nobody's choice is in it yet)."""
    st = table.game.state.copy()
    st.current = seat
    return st


def _targets(table: Table, seat: int, state, selected: Sequence[int], lang: str) -> dict:
    if table.is_over or (table.in_setup and seat in table.pending):
        return {}
    return board_targets(state, seat, selected, lang)


def status_text(table: Table, seat: int, lang: str, now: float, away_s: float | None) -> str:
    if table.game is None:
        free = sum(s.kind == OPEN for s in table.seats)
        return _t("status_waiting", lang, free=free, code=table.code)
    game = table.game
    if table.showing is not None:
        if seat in table.ready:
            names = ", ".join(table.seats[i].name for i in table.waiting_for()) or "—"
            return _t("status_resolving_ready", lang, round=table.showing, names=names, seconds=int(RESOLUTION_S))
        return _t("status_resolving", lang, round=table.showing, seconds=int(RESOLUTION_S))
    if game.is_over:
        winners = ", ".join(game.names[w] for w in game.result().winners)
        return _t("status_over", lang, winners=winners)
    if table.in_setup:
        if seat in table.pending:
            a, b = table.pending[seat]
            left = ", ".join(table.seats[i].name for i in range(len(table.seats)) if i not in table.pending)
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
    game = table.game
    rounds = events.resolved_rounds(game.log)
    if not rounds:
        return []
    return resolution_steps(game.log, table.showing or rounds[-1], game.names, lang)


def _resolving(table: Table, seat: int, lang: str, step: int, steps: int) -> tuple[str, dict] | None:
    """The board of the round shown resolving at this page's ``step``, and what the page needs
    to step through it; None when no round is shown."""
    game = table.game
    end = game.dispatch_end(table.showing) if table.showing is not None else None
    frame = resolution_frame(end, game.log, table.showing, min(step, steps - 1)) if end is not None else None
    if frame is None:
        return None
    board = board_html(end, lang, viewer=seat, log=game.log, uid=f"dg{seat}", frame=frame)
    return board, {"round": table.showing, "step": min(step, steps - 1), "steps": steps,
                   "ready": seat in table.ready, "over": game.is_over}


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


def seat_message(table: Table, seat: int, lang: str, selected: Sequence[int] = (), now: float = 0.0,
                 away_s: float | None = None, step: int = 0) -> dict[str, Any]:
    """The ``state`` message for ``seat`` in ``lang`` (``selected``: the adventurers that seat's
    page has picked, a page's own choice; ``step``: the step of a round shown resolving that
    page has reached)."""
    msg: dict[str, Any] = {
        "op": "state", "code": table.code, "seat": seat + 1, "version": table.version, "lang": lang,
        "seats": seats_info(table, seat, lang, now, away_s), "opener": seat == 0,
        "started": table.game is not None, "over": table.is_over,
        "status": status_text(table, seat, lang, now, away_s), "board": "", "log": "", "story": [],
        "targets": {}, "resolving": None,
    }
    if table.game is None:
        if seat == 0:  # the opener picks each free seat's opponent
            msg["levels"], msg["level_default"] = level_choices(lang), BOT_KIND
        return msg
    game = table.game
    state = _setup_state(table, seat) if table.in_setup else game.state
    targets = _targets(table, seat, state, selected, lang)
    msg["board"] = board_html(state, lang, viewer=seat, log=game.log, targets=targets, uid=f"dg{seat}")
    msg["targets"] = {k: {"action": str(v.action) if v.action else None, "enabled": v.enabled}
                      for k, v in targets.items()}
    msg["log"] = round_log_html(game.log, game.names, lang, secret_for=seat)
    story = _story(table, lang)
    msg["story"] = [escape(s) for s in story]
    shown = _resolving(table, seat, lang, step, len(story)) if story else None
    if shown is not None:  # the round resolving on the board: nothing to click until the next round
        msg["board"], msg["resolving"] = shown
        msg["targets"] = {}
    msg["phase"] = i18n.phase_name(game.phase, lang)
    msg["phase_id"] = game.phase  # setup / dispatch / over (for scripts)
    return msg


__all__ = ["bot_words", "level_choices", "seat_message", "seat_label", "status_text", "board_html", "board_targets"]
