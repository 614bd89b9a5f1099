"""The package's imports go one way (docs/architecture.md, "Layers"):

    core (dungeon_guilds/*.py + data)  ->  analysis / viz / siblings / workshop  ->  widgets  ->  app

A module may import its own layer or a lower one, never a higher one, and no chain of imports
comes back to where it started. Every import counts: module level and inside functions,
absolute and relative (a lazy import hides a dependency; it does not remove it).
"""

from __future__ import annotations

import ast
from pathlib import Path

import networkx as nx

import dungeon_guilds

PKG = Path(dungeon_guilds.__file__).parent
ROOT = "dungeon_guilds"
MIDDLE = {"analysis", "viz", "siblings", "workshop", "teaching"}
TOP_MODULES = {"serving", "cli", "__main__"}  # entry points and serving: the app layer
LAYER_NAMES = ("core", "analysis/viz/siblings/workshop", "widgets", "app")


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
        return 3
    if head == "widgets":
        return 2
    if head in MIDDLE:
        return 1
    return 0


def imported(module: str, path: Path, known: set[str]) -> list[tuple[str, int]]:
    """(module of this package it imports, line) for every import statement in the file."""
    is_package = path.name == "__init__.py"
    here = module.split(".") if is_package else module.split(".")[:-1]
    out = []
    for node in ast.walk(ast.parse(path.read_text("utf-8"), str(path))):
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
                out.append((t, node.lineno))
    return out


def graph() -> nx.DiGraph:
    mods = modules()
    g = nx.DiGraph()
    g.add_nodes_from(mods)
    for name, path in mods.items():
        for target, line in imported(name, path, set(mods)):
            g.add_edge(name, target, line=line)
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
             for a, b in g.edges if layer(b) > layer(a)]
    assert not wrong, "\n".join(sorted(wrong))


def test_the_imports_have_no_cycle():
    g = graph()
    cycles = []
    for component in nx.strongly_connected_components(g):
        if len(component) > 1:
            cycle = nx.find_cycle(g.subgraph(component))
            cycles.append(" -> ".join(f"{a} (line {g.edges[a, b]['line']})" for a, b in cycle)
                          + f" -> {cycle[0][0]}")
    assert not cycles, "import cycles:\n" + "\n".join(cycles)
