"""Whose move it is belongs to the engine (issue 39, item 1). Outside ``state.py`` only the
table model's :func:`~dungeon_guilds.table_model.choosing_state` sets ``current``: the state
drawn for, or asked of, a seat during the simultaneous secret setup choice (R2.4). A view that
hand-sets ``.current`` (as ``app/tables/render.py``, ``app/tables/table.py`` and
``app/pass_and_play.py`` each once did) fails here: it asks the model instead.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import dungeon_guilds

PKG = Path(dungeon_guilds.__file__).parent
ALLOWED = {"state.py", "table_model/setup.py"}


def _targets(node: ast.AST) -> list[ast.AST]:
    if isinstance(node, ast.Assign):
        out = []
        for target in node.targets:
            out.extend(target.elts if isinstance(target, (ast.Tuple, ast.List)) else [target])
        return out
    if isinstance(node, (ast.AugAssign, ast.AnnAssign)):
        return [node.target]
    return []


def assignments_to_current() -> list[str]:
    """``file:line`` of every assignment to an attribute named ``current`` in the package."""
    out = []
    for path in sorted(PKG.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text("utf-8"), str(path))):
            for target in _targets(node):
                if isinstance(target, ast.Attribute) and target.attr == "current":
                    out.append(f"{path.relative_to(PKG).as_posix()}:{node.lineno}")
            if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "setattr" and len(node.args) > 1 \
                    and isinstance(node.args[1], ast.Constant) and node.args[1].value == "current":
                out.append(f"{path.relative_to(PKG).as_posix()}:{node.lineno}")
    return out


def test_only_the_engine_and_the_table_model_say_whose_move_it_is():
    stray = [where for where in assignments_to_current() if where.rsplit(":", 1)[0] not in ALLOWED]
    assert stray == [], f"set .current through table_model.choosing_state, not by hand: {stray}"


def test_the_check_sees_the_assignments_it_allows():
    """The search finds the engine's own and the model's one (so it cannot pass by finding none)."""
    found = {where.rsplit(":", 1)[0] for where in assignments_to_current()}
    assert found >= ALLOWED


def test_the_check_sees_a_hand_set_current(tmp_path, monkeypatch):
    """A view that sets ``state.current = seat`` by hand is found (here a stand-in module)."""
    fake = tmp_path / "dungeon_guilds"
    (fake / "app").mkdir(parents=True)
    (fake / "app" / "view.py").write_text("def draw(st, seat):\n    st.current = seat\n", "utf-8")
    monkeypatch.setattr(sys.modules[__name__], "PKG", fake)
    assert assignments_to_current() == ["app/view.py:2"]
