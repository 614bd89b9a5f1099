"""The package's imports go one way (docs/architecture.md, "Layers"):

    core (dungeon_guilds/*.py + data)  ->  drawing  ->  analysis / viz / siblings / workshop / table_model
        ->  widgets  ->  app

A module may import its own layer or a lower one, never a higher one, and no chain of imports
comes back to where it started. Every import counts: module level and inside functions,
absolute and relative (a lazy import hides a dependency; it does not remove it). One upward
import is allowed, by name: ``Game._repr_html_`` imports the drawing when a notebook shows a
game (as python-chess's ``_repr_svg_`` imports ``chess.svg``), so that ``import dungeon_guilds``
loads no picture; a test checks that it does not.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import networkx as nx

import dungeon_guilds

PKG = Path(dungeon_guilds.__file__).parent
ROOT = "dungeon_guilds"
MIDDLE = {"analysis", "viz", "siblings", "workshop", "teaching", "table_model"}
TOP_MODULES = {"serving", "cli", "__main__"}  # entry points and serving: the app layer
LAYER_NAMES = ("core", "drawing", "analysis/viz/siblings/workshop/teaching/table_model", "widgets", "app")
# the upward imports allowed: (importer, imported) -> the only function that may import it
UPWARD = {("dungeon_guilds.game", "dungeon_guilds.drawing.display"): "_repr_html_"}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PKG.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules() -> dict[str, Path]:
    return {module_name(p): p for p in sorted(PKG.rglob("*.py"))}


def layer(module: str) -> int:
    parts = module.split(".")
    if len(parts) == 1:
        return 0  # the package's __init__: the core's public nouns
    head = parts[1]
    if head == "app" or (len(parts) == 2 and head in TOP_MODULES):
        return 4
    if head == "widgets":
        return 3
    if head in MIDDLE:
        return 2
    if head == "drawing":
        return 1
    return 0


def _functions_by_line(tree: ast.AST) -> dict[int, str]:
    """The innermost function around each line (for the allowed upward imports)."""
    where: dict[int, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for line in range(node.lineno, (node.end_lineno or node.lineno) + 1):
                if line not in where or node.lineno > where[line][0]:
                    where[line] = (node.lineno, node.name)
    return {line: name for line, (_, name) in where.items()}


def imported(module: str, path: Path, known: set[str]) -> list[tuple[str, int, str]]:
    """(module of this package it imports, line, enclosing function or "") for every import
    statement in the file."""
    is_package = path.name == "__init__.py"
    here = module.split(".") if is_package else module.split(".")[:-1]
    out = []
    tree = ast.parse(path.read_text("utf-8"), str(path))
    function = _functions_by_line(tree)
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = here[: len(here) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            # "from pkg import sub": the submodule; "from mod import name": the module
            targets = [f"{target}.{a.name}" if f"{target}.{a.name}" in known else target
                       for a in node.names]
        else:
            continue
        for t in targets:
            while t and t not in known and "." in t:  # import a.b.c of a module a.b
                t = t.rsplit(".", 1)[0]
            if t in known and t != module:
                out.append((t, node.lineno, function.get(node.lineno, "")))
    return out


def graph() -> nx.DiGraph:
    mods = modules()
    g = nx.DiGraph()
    g.add_nodes_from(mods)
    for name, path in mods.items():
        for target, line, function in imported(name, path, set(mods)):
            g.add_edge(name, target, line=line, function=function)
    return g


def test_the_walk_sees_the_package_and_its_function_level_imports():
    g = graph()
    assert {"dungeon_guilds.state", "dungeon_guilds.game", "dungeon_guilds.viz.board",
            "dungeon_guilds.widgets.common"} <= set(g)
    assert g.has_edge("dungeon_guilds.cli", "dungeon_guilds.analysis.bots")  # inside a function
    assert g.has_edge("dungeon_guilds.viz.board", "dungeon_guilds.events")  # relative, "..events"


def test_no_module_imports_a_higher_layer():
    g = graph()
    wrong = [f"{a} (layer {LAYER_NAMES[layer(a)]}) imports {b} (layer {LAYER_NAMES[layer(b)]}) "
             f"at line {g.edges[a, b]['line']}"
             for a, b in g.edges if layer(b) > layer(a)
             and UPWARD.get((a, b)) != g.edges[a, b]["function"]]
    assert not wrong, "\n".join(sorted(wrong))


def test_the_drawing_is_a_layer_above_the_engine_and_game_imports_it_only_to_show_itself():
    g = graph()
    assert layer("dungeon_guilds.drawing.board_svg") == 1 == layer("dungeon_guilds.drawing.display")
    assert layer("dungeon_guilds.board_targets") == 0  # the interaction model is not drawing
    assert not g.has_edge("dungeon_guilds.board_targets", "dungeon_guilds.drawing.board_svg")
    assert g.edges["dungeon_guilds.game", "dungeon_guilds.drawing.display"]["function"] == "_repr_html_"
    drawing = {m for m in g if m.startswith("dungeon_guilds.drawing")}
    assert [m for m in g if layer(m) == 0 and set(g.successors(m)) & drawing] == ["dungeon_guilds.game"]


def _python(*args: str) -> subprocess.CompletedProcess:
    proc = subprocess.run([sys.executable, *args], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    return proc


def test_importing_the_package_loads_no_drawing_module():
    """``python -X importtime -c "import dungeon_guilds"`` names the engine and no picture."""
    report = _python("-X", "importtime", "-c", "import dungeon_guilds").stderr
    loaded = {line.rsplit("|", 1)[-1].strip() for line in report.splitlines() if "|" in line}
    assert {"dungeon_guilds.game", "dungeon_guilds.state"} <= loaded
    assert not {m for m in loaded if m.startswith("dungeon_guilds.drawing")}


def test_a_game_loads_the_drawing_only_when_shown():
    code = ("import sys, dungeon_guilds\n"
            "g = dungeon_guilds.Game(['A', 'B', 'C'], seed=1)\n"
            "g.push(g.legal_moves()[0])\n"
            "print(sorted(m for m in sys.modules if m.startswith('dungeon_guilds.drawing')))\n"
            "html = g._repr_html_()\n"
            "print('dungeon_guilds.drawing.board_svg' in sys.modules, 'dg-board' in html)\n")
    assert _python("-c", code).stdout.splitlines() == ["[]", "True True"]


def test_the_imports_have_no_cycle():
    g = graph()
    cycles = []
    for component in nx.strongly_connected_components(g):
        if len(component) > 1:
            cycle = nx.find_cycle(g.subgraph(component))
            cycles.append(" -> ".join(f"{a} (line {g.edges[a, b]['line']})" for a, b in cycle)
                          + f" -> {cycle[0][0]}")
    assert not cycles, "import cycles:\n" + "\n".join(cycles)
