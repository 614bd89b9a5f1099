"""The front end in files (issue 39, item 3): every anywidget's JavaScript and CSS, the page
scripts and the style sheets are ``.js`` / ``.css`` files of the package, which a linter sees
(``node --check`` here, run by ``make test``), the wheel ships (package-data) and no Python
string hides. One keyboard module (``drawing/board_keys.js``) serves the widget board and the
class-table page.
"""

from __future__ import annotations

import ast
import fnmatch
import re
import shutil
import subprocess
import tomllib
from pathlib import Path

import pytest

import dungeon_guilds

PKG = Path(dungeon_guilds.__file__).parent
REPO = PKG.parent
NODE = shutil.which("node")
FRONT_FILES = sorted(p for ext in ("*.js", "*.css") for p in PKG.rglob(ext))
JS_FILES = [p for p in FRONT_FILES if p.suffix == ".js"]
ES_MODULE = re.compile(r"^\s*(import|export)\b", re.M)

# Python files still allowed to carry a CSS / JavaScript block in a string, with the reason
ALLOWED: dict[str, str] = {}  # none left (issue 53 moved the print-and-play sheets' CSS and script)
CSS_RULE = re.compile(r"[^{};]+\{[^{}]*:[^{}]*\}")
JS_LINE = re.compile(r"\bfunction\b|=>|\b(const|let|var)\s+\w|addEventListener|querySelector|export default")
MAX_RULES = 3  # "a few": a three-rule style attribute set is fine; a style sheet is a file
MAX_JS_LINES = 3


def _node_check(path: Path, tmp_path: Path) -> subprocess.CompletedProcess:
    """``node --check``; an ES module is checked as one (a copy named ``.mjs``)."""
    if ES_MODULE.search(path.read_text(encoding="utf-8")):
        copy = tmp_path / (path.stem + ".mjs")
        copy.write_text(path.read_text(encoding="utf-8"), encoding="utf-8")
        path = copy
    return subprocess.run([NODE, "--check", str(path)], capture_output=True, text=True, timeout=60)


@pytest.mark.skipif(NODE is None, reason="node is not installed: the JavaScript syntax check needs it")
@pytest.mark.parametrize("path", JS_FILES, ids=lambda p: p.relative_to(PKG).as_posix())
def test_javascript_parses(path, tmp_path):
    done = _node_check(path, tmp_path)
    assert done.returncode == 0, done.stderr


@pytest.mark.skipif(NODE is None, reason="node is not installed: the JavaScript syntax check needs it")
def test_board_widget_module_parses_with_the_keyboard_inlined(tmp_path):
    """The board widget's ``_esm`` as anywidget sends it: ``board.js`` with
    ``drawing/board_keys.js`` in place of its import (a module sent alone fetches no file)."""
    from dungeon_guilds.widgets.board import BoardWidget

    esm = str(BoardWidget._esm)
    assert "import " not in esm.split("export function boardTargets")[0].split("board_keys.js")[-1]
    assert not re.search(r"^import\b", esm, re.M)
    assert "export function listenBoardKeys" in esm and "listenBoardKeys(el, send)" in esm
    module = tmp_path / "board_widget.mjs"
    module.write_text(esm, encoding="utf-8")
    done = subprocess.run([NODE, "--check", str(module)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr


def test_keyboard_navigation_written_once():
    """The arrow keys between the board's targets: only ``drawing/board_keys.js`` knows them; the
    widget board and the table page both use it."""
    holders = [p.relative_to(PKG).as_posix() for p in FRONT_FILES if "ArrowRight" in p.read_text(encoding="utf-8")]
    assert holders == ["drawing/board_keys.js"]
    board = (PKG / "widgets" / "board.js").read_text(encoding="utf-8")
    table = (PKG / "app" / "tables" / "static" / "tables.js").read_text(encoding="utf-8")
    assert "from '../drawing/board_keys.js'" in board and "listenBoardKeys(" in board
    assert "import('./board_keys.js')" in table and "listenBoardKeys(" in table


def test_every_front_end_file_is_in_the_wheel():
    """pyproject.toml's package-data names every .js / .css file: the wheel (and so the static
    site, which installs it) carries them."""
    config = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    patterns = config["tool"]["setuptools"]["package-data"]["dungeon_guilds"]
    missing = [p.relative_to(PKG).as_posix() for p in FRONT_FILES
               if not any(fnmatch.fnmatch(p.relative_to(PKG).as_posix(), pat) for pat in patterns)]
    assert not missing, f"add to [tool.setuptools.package-data]: {missing}"


def _docstrings(tree: ast.AST) -> set[int]:
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                found.add(id(body[0].value))
    return found


def _string_text(node: ast.AST) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):  # an f-string: its placeholders as a word
        return "".join(v.value if isinstance(v, ast.Constant) else "X" for v in node.values)
    return None


def front_end_blocks(source: str) -> list[str]:
    """Where the Python ``source`` holds a style sheet (more than :data:`MAX_RULES` CSS rules)
    or a script (more than :data:`MAX_JS_LINES` lines of JavaScript) in one string."""
    tree = ast.parse(source)
    skip, found = _docstrings(tree), []
    for node in ast.walk(tree):
        text = _string_text(node)
        if text is None or id(node) in skip:
            continue
        rules = len(CSS_RULE.findall(text))
        js = sum(1 for line in text.splitlines() if JS_LINE.search(line))
        if rules > MAX_RULES or js > MAX_JS_LINES:
            found.append(f"line {node.lineno}: {rules} CSS rules, {js} lines of JavaScript")
    return found


def test_no_style_sheet_or_script_in_a_python_string():
    found = {}
    for path in sorted(PKG.rglob("*.py")):
        name = path.relative_to(PKG).as_posix()
        if name in ALLOWED:
            continue
        blocks = front_end_blocks(path.read_text(encoding="utf-8"))
        if blocks:
            found[name] = blocks
    assert not found, f"move these to a .js / .css file beside the module: {found}"


def test_the_scan_finds_a_block():
    """The scan itself: the old inline style sheet and script are found; a one-rule string is not."""
    sheet = '_CSS = """\n.a { color: red; }\n.b { margin: 0; }\n.c { padding: 0; }\n.d { border: 0; }\n"""\n'
    script = ('_ESM = """\nfunction render({ model, el }) {\n  const a = 1;\n  let b = 2;\n'
              '  el.addEventListener("click", () => a);\n}\nexport default { render };\n"""\n')
    assert front_end_blocks(sheet) and front_end_blocks(script)
    assert not front_end_blocks('STYLE = "border:1px solid #ccd;padding:6px"\nX = f"<b style={STYLE}>{1}</b>"\n')
    assert not front_end_blocks('def f():\n    """Like .a { color: red } .b { x: y } .c { x: y } .d { x: y }."""\n')
