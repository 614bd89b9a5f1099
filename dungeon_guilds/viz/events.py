"""The log's plain data, re-exported for the figures: it lives in :mod:`dungeon_guilds.events`
(the core's notebook display reads it too, and the core never imports the viz layer)."""

from ..events import *  # noqa: F401,F403
from ..events import __all__  # noqa: F401
