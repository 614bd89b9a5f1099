"""The table model (issue 39, item 1): what every way of playing at a table shares, in plain
Python below the widgets and the app, so that Learn, Play, pass-and-play and class tables are
views of it and each piece of table logic is written once.

* :mod:`.resolution` — a round's resolution shown step by step (issue 24): which round, its
  dispatch_end, who has pressed Continue, when the wait is over.
* :mod:`.setup` — the secret simultaneous setup choice (R2.4): the choices held until every seat
  has chosen, then revealed to the engine in its order; :func:`~.setup.choosing_state`, the one
  state drawn for (or asked of) a seat while every seat chooses.
* :mod:`.bots` — bot turns: which seat a bot decides for now, and its move (the bots'
  ``make_bot``), asked on a copy and judged by the engine.

Nothing here decides a rule: the engine (:class:`~dungeon_guilds.Game`) judges every move.
* :mod:`.choosing` — what a click on a card of the hand does to the choice (R2.4's pair at the
  setup, one adventurer in the dispatch), for the widget board and the class table's page.
* :mod:`.seats` — a seat (a person, a bot at a level, free) and who plays it now (a person
  away long enough is played by a bot).

* :mod:`.session` — one game at one table: the :class:`Session` every view holds (the game,
  the seats, the secret setup, the round shown resolving), whose calls play a seat's move, a
  bot's decision and a Continue. See docs/architecture.md.
"""

from __future__ import annotations

from .bots import BotTurn, bot_move, bot_turn, make_bot
from .choosing import choice_key, next_choice
from .resolution import Resolution
from .seats import Seat
from .session import Session
from .setup import SecretSetup, choosing_state

__all__ = ["BotTurn", "Resolution", "SecretSetup", "Session", "bot_move", "bot_turn", "choice_key", "choosing_state",
           "make_bot", "next_choice", "Seat"]
