"""The examples in the README and in docstrings run and say what they claim."""

from __future__ import annotations

import doctest
import re
from pathlib import Path

import dungeon_guilds.game

ROOT = Path(__file__).resolve().parents[1]


def test_game_docstring_example():
    result = doctest.testmod(dungeon_guilds.game, verbose=False)
    assert result.attempted > 0 and result.failed == 0


def test_readme_python_example_runs_and_its_comments_hold():
    text = (ROOT / "README.md").read_text()
    block = re.search(r"```python\n(.*?)```", text, re.S).group(1)
    namespace: dict = {}
    results = []
    for line in block.splitlines():
        code, _, comment = line.partition("#")
        code = code.strip()
        if not code:
            continue
        if code.startswith(("g.legal_moves", "g.why_illegal")):
            results.append((eval(code, namespace), comment))
        else:
            exec(code, namespace)
    moves, _ = results[0]
    assert moves == ["place 1 1", "place 2 1", "place 3 1"]
    reason, comment = results[1]
    assert reason in comment
