"""User text joins lists with ``i18n.join_list`` only (issue 39, item 5): 「A、B」 in 繁體中文,
"A, B" in English. A ``", ".join(...)`` left in the package is either inside a ``raise`` (a
programmer's error message, English by design) or named below with the reason it is no user
text (or whose module another change owns).
"""

from __future__ import annotations

import ast
from pathlib import Path

import dungeon_guilds

PKG = Path(dungeon_guilds.__file__).parent

# (module, enclosing function) -> why its ", ".join builds no text a player or teacher reads in
# a chosen language
ALLOWED = {
    ("cli.py", "*"): "the command line speaks English only (its output is read by scripts too)",
    ("app/commands.py", "*"): "make lab / notebooks: command-line messages, English only",
    ("app/site.py", "snapshot_loader"): "Python source written into the site's snapshot script",
    ("game.py", "Game.__repr__"): "a programmer's repr in a notebook cell, not the dashboard",
    ("record.py", "*"): "a record file's validation messages (_require), English like the record format",
    ("openspiel.py", "*"): "OpenSpiel's observation strings: machine text for its algorithms",
    ("analysis/metrics.py", "describe"): "the table names a metric reads (identifiers) in a designer's DataFrame",
    ("workshop/preview.py", "_outcomes"): "the preview's English data table (its other words are English "
                                          "too; no language reaches it)",
    ("app/table_server.py", "TableHub.save_all"): "the server's log line for the teacher's terminal (English, like Voila's log)",
    # (drawing/print_and_play/ uses join_list since issue 53)
}


def _qualnames(tree: ast.AST) -> dict[int, str]:
    """id(node) -> the qualified name of the function (or class body) it is in."""
    out: dict[int, str] = {}

    def visit(node: ast.AST, name: str) -> None:
        for child in ast.iter_child_nodes(node):
            inner = name
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                inner = f"{name}.{child.name}" if name else child.name
            out[id(child)] = inner
            visit(child, inner)

    visit(tree, "")
    return out


def comma_joins(source: str) -> list[tuple[int, str]]:
    """(line, enclosing function) of each ``", ".join(...)`` outside a ``raise``."""
    tree = ast.parse(source)
    in_raise = {id(n) for r in ast.walk(tree) if isinstance(r, ast.Raise) for n in ast.walk(r)}
    names = _qualnames(tree)
    return [(node.lineno, names.get(id(node), "")) for node in ast.walk(tree)
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "join"
            and isinstance(node.func.value, ast.Constant) and node.func.value.value == ", "
            and id(node) not in in_raise]


def test_user_text_joins_lists_with_join_list():
    found, used = [], set()
    for path in sorted(PKG.rglob("*.py")):
        module = path.relative_to(PKG).as_posix()
        for line, where in comma_joins(path.read_text(encoding="utf-8")):
            folder = module.rsplit("/", 1)[0] + "/*"
            key = next((k for k in ((module, where), (module, "*"), (folder, "*")) if k in ALLOWED), None)
            if key is None:
                found.append(f"{module}:{line} ({where or 'module'})")
            used.add(key)
    assert not found, f'", ".join builds user text; use i18n.join_list(values, lang): {found}'
    stale = set(ALLOWED) - used
    assert not stale, f"allowed but no longer there (remove from ALLOWED): {sorted(stale)}"


def test_the_scan_finds_a_join_and_leaves_a_raise_alone():
    code = ('def f(names):\n    if not names:\n        raise ValueError(", ".join(names))\n'
            '    return "players: " + ", ".join(names)\n')
    assert comma_joins(code) == [(4, "f")]
