"""Issue 39 item 2: a table server needs no widget. Importing the class-table server (and every
module of ``app/tables/``) loads no ipywidgets, anywidget or plotly, and no module of
``app/tables/`` imports the widget layer (docs/architecture.md, "A table server needs no widget")."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import dungeon_guilds

TABLES = Path(dungeon_guilds.__file__).parent / "app" / "tables"
HEAVY = ("ipywidgets", "anywidget", "plotly")


def test_importing_the_table_server_loads_no_widget_and_no_plotly():
    code = ("import json, sys, dungeon_guilds.app.table_server, dungeon_guilds.app.tables.client; "
            f"print(json.dumps(sorted(m for m in sys.modules if m.split('.')[0] in {HEAVY!r})))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert json.loads(out.stdout) == []


def test_no_module_of_the_tables_imports_the_widget_layer():
    for path in [*TABLES.glob("*.py"), TABLES.parent / "table_server.py"]:
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.ImportFrom):
                assert "widgets" not in (node.module or "").split("."), f"{path.name}:{node.lineno} imports {node.module}"
            elif isinstance(node, ast.Import):
                assert not any("widgets" in a.name.split(".") for a in node.names), f"{path.name}:{node.lineno}"
