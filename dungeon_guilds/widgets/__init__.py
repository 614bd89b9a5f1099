"""ipywidgets apps: thin clients of the engine (they never decide a rule)."""

from ..extras import require

require("dungeon_guilds.widgets", "notebooks", "ipywidgets", "plotly")
