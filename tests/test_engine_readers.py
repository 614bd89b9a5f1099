"""Readers outside the engine go through its accessors (issue 25, item 5).

The flat slot arrays ``State.slot_owner`` / ``State.slot_str`` are the engine's representation:
outside ``state.py`` (and ``view.py``, which builds ``State.view``) code asks ``State.slot``,
``State.slots``, ``State.occupants`` or ``State.set_slot``; only the clear-chance model's hot
path keeps the raw arrays. The event log's dicts are read by ``events.py`` (typed: ``turns``,
``resolution_events``, ``entries``, ``money_flows`` …) and worded by ``i18n.event_text``; no other
module looks at an event's ``"kind"``.
"""

from __future__ import annotations

import ast
from pathlib import Path

import dungeon_guilds

PKG = Path(dungeon_guilds.__file__).parent
ENGINE = {"state.py", "view.py"}
HOT_PATH = {"analysis/probability.py"}  # the greedy bots' inner loop: the raw arrays, on purpose
EVENT_READERS = {"state.py", "events.py", "i18n.py"}  # writes the log; reads it; words it
# modules whose "kind" keys are not log events: a move's regex groups, effect data, a lord's
# kind (base / promo) in the `lords` listing, graph nodes, the Sankey's link table, a class
# table's seat kind (person / bot) in its saved file
OTHER_KINDS = {"actions.py", "effects.py", "workshop/lord_edit.py", "cli.py", "siblings/graphs.py",
               "viz/money.py", "app/tables/table.py"}


def sources():
    for path in sorted(PKG.rglob("*.py")):
        yield path.relative_to(PKG).as_posix(), path.read_text("utf-8")


def kind_reads(text: str) -> list[int]:
    """Lines that read a mapping's ``"kind"``: ``x["kind"]`` or ``x.get("kind", …)``."""
    lines = []
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant) and node.slice.value == "kind":
            lines.append(node.lineno)
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "get"
              and node.args and isinstance(node.args[0], ast.Constant) and node.args[0].value == "kind"):
            lines.append(node.lineno)
    return lines


def test_nothing_outside_the_engine_reads_the_slot_arrays():
    wrong = [f"{name}:{i}" for name, text in sources() if name not in ENGINE | HOT_PATH
             for i, line in enumerate(text.splitlines(), 1) if "slot_owner" in line or "slot_str" in line]
    assert not wrong, "use State.slot / slots / occupants / set_slot:\n" + "\n".join(wrong)


def test_nothing_outside_the_engine_parses_raw_events():
    wrong = [f"{name}:{line}" for name, text in sources() if name not in EVENT_READERS | OTHER_KINDS
             for line in kind_reads(text)]
    assert not wrong, "read the log through dungeon_guilds.events:\n" + "\n".join(wrong)


def test_the_greps_can_fail():
    assert kind_reads('ev["kind"]\nev.get("kind")\nev.get("round")') == [1, 2]
    assert all((PKG / name).exists() for name in ENGINE | HOT_PATH | EVENT_READERS | OTHER_KINDS)


def test_the_slot_accessors_agree_with_the_engine():
    g = dungeon_guilds.Game(["A", "B", "C"], seed=3)
    while g.state.round == 0 and g.state.phase != "resolution":
        g.push(g.legal_moves()[0])
        st = g.state
        assert st.slots() == [st.slot(i, x) for i in range(st.n_rooms) for x in (0, 1)]
        assert all(st.occupants(i) == [o for o in (st.slot(i, 0), st.slot(i, 1)) if o[0] != -1]
                   for i in range(st.n_rooms))
    before = g.state.slots()
    probe = g.state.copy()
    probe.set_slot(0, 1, 2, 5)
    assert probe.slot(0, 1) == (2, 5) and g.state.slots() == before  # a copy: the game is unchanged
