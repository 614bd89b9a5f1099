"""ipywidgets apps: thin clients of the engine (they never decide a rule)."""

from ..extras import require

require("dungeon_guilds.widgets", "notebooks", "ipywidgets", "plotly")

from .figures import voila_figure_renderer  # noqa: E402 - after the extras check

# when Voila runs a notebook, a figure a cell returns is drawn as plotly's HTML (plotly's
# JupyterLab renderer raises "r.setData is not a function" there; issue 24.5)
voila_figure_renderer()
