"""What this Python can run: the dashboard's tabs that need packages the browser lacks.

The static site (``python -m dungeon_guilds.app.site``) runs the dashboard in the browser with
Pyodide's core runtime, which has no pandas or numpy. Only Lab needs them (Compare renders the
comparison's plain rows, ``siblings.comparison.*_rows``); a tab that needs them says so instead of
failing; the check is whether the module can be found (``importlib.util.find_spec``), so the same
code runs unchanged on a server, where every tab works.
"""

from __future__ import annotations

import importlib.util

# tab -> the modules it needs beyond the engine, ipywidgets, plotly and networkx
NEEDS: dict[str, tuple[str, ...]] = {
    "lab": ("pandas", "numpy"),      # the simulation tables (pandas, on numpy); the intervals need neither
}


def missing(tab: str) -> tuple[str, ...]:
    """The modules tab ``tab`` needs that this Python cannot import (empty: the tab works)."""
    return tuple(m for m in NEEDS.get(tab, ()) if importlib.util.find_spec(m) is None)


__all__ = ["NEEDS", "missing"]
