"""Bot turns, the same for every table view: which seat a bot decides for now
(:func:`bot_turn`: in a secret setup every bot seat still to choose, else the engine's seat to
move) and the move a bot makes (:func:`bot_move`: asked on a copy, so a bot cannot change the
game, and judged by the engine). The bots are :mod:`dungeon_guilds.analysis.bots`' (imported
when a seat needs one; the first-legal-action bot when that extra is missing).
"""

from __future__ import annotations

from typing import Callable, Iterable, NamedTuple

from ..actions import Action
from ..extras import MissingExtra
from .setup import SETUP, choosing_state

FALLBACK_BOT = "first"  # analysis/bots/first.py's FirstLegalBot, imported when a seat needs it


def bot_names() -> list[str]:
    """The names of the bots available: ``dungeon_guilds.analysis.bots.BOTS`` if present, and
    always the deterministic first-legal-action bot (``"first"``, fast and handy in tests)."""
    try:
        from ..analysis.bots import BOTS  # type: ignore[import-not-found]
    except MissingExtra:  # the analysis extra is not installed
        return [FALLBACK_BOT]
    names = [b for b in BOTS if b != FALLBACK_BOT]
    return names + [FALLBACK_BOT]


def make_bot(name: str, seed: int | str = 0):
    """The bot ``name`` for a seat (the first-legal-action bot when the bots are missing)."""
    from ..analysis.bots.first import FirstLegalBot

    if name == FALLBACK_BOT:
        return FirstLegalBot(seed)
    try:
        from ..analysis.bots import make_bot as real_make_bot  # type: ignore[import-not-found]
    except MissingExtra:  # the analysis extra is not installed
        return FirstLegalBot(seed)
    return real_make_bot(name, seed=seed)


def bot_move(bot, state, seat: int) -> Action:
    """Ask ``bot`` for ``seat``'s move on a copy of ``state`` (a bot cannot change the game);
    the engine's refusal of it is raised."""
    action = bot.choose(state.copy(), seat)
    err = state.refusal(action, seat)
    if err is not None:
        raise err
    return action


class BotTurn(NamedTuple):
    """A decision a bot is to make: for ``seat``, asked on ``state`` (a copy of the game's);
    ``setup``: a secret setup choice (R2.4)."""

    seat: int
    state: object
    setup: bool


def bot_turn(game, plays: Callable[[int], bool], pending: Iterable[int] | None = None,
             order: Iterable[int] | None = None) -> BotTurn | None:
    """The next decision a bot makes (None: none is due). ``plays(seat)``: whether a bot plays
    that seat now. With ``pending`` (the seats that have made their secret setup choice, R2.4)
    the setup is simultaneous: the first bot seat of ``order`` (default: seat order) still to
    choose, asked on :func:`choosing_state`; else the engine's seat to move."""
    if game.is_over:
        return None
    if pending is not None and game.phase == SETUP:
        chosen = set(pending)
        for seat in order if order is not None else range(len(game.names)):
            if seat not in chosen and plays(seat):
                return BotTurn(seat, choosing_state(game.state, seat), True)
        return None
    seat = game.current
    return BotTurn(seat, game.state.copy(), False) if plays(seat) else None


__all__ = ["FALLBACK_BOT", "BotTurn", "bot_move", "bot_names", "bot_turn", "make_bot"]
