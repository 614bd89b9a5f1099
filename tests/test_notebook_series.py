"""Structural checks of the teaching notebooks ``notebooks/00_index.ipynb`` … ``08_*.ipynb``
(issue 6). Running them is nbval's job (``pytest --nbval-lax notebooks``); these tests check
what nbval cannot: the shape of the series.

Definitions used below (precise, so that a failure says what to fix):

* A **checked cell** is a code cell whose source starts with ``# NBVAL_CHECK_OUTPUT``. nbval
  compares only cells that have stored outputs, so a checked cell must store its output, and
  every other code cell must store none (no stale outputs, no widget views).
* An **interactive cell** is a code cell whose last statement is an expression that builds a
  widget: a call of one of the apps in ``dungeon_guilds.widgets`` (``RoundStepper``,
  ``PayoutExplorer``, ``TurnOrderExplorer``, ``PlayTable``, ``CompareExplorer``, ``RulesExplorer``,
  the Lab and workshop apps), a call of
  anything in ipywidgets imported as ``W``/``widgets``/``ipywidgets`` (``W.interactive(...)``,
  ``W.VBox(...)``, ``W.RadioButtons(...)``), or a name assigned from such a call in that cell.
* A rule group ``Rk`` (k = 1…10) is **cited next to** an interactive cell when ``Rk`` or
  ``Rk.n`` appears in that cell (a comment) or in the cell right before or right after it.
* The index's coverage table has one row per rule group; each row lists
  ``[label](NN_name.ipynb) `cell-id``` pairs; every pair must name an interactive cell of that
  notebook with the row's rule group cited next to it.
"""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import pytest

NOTEBOOKS = Path(__file__).resolve().parents[1] / "notebooks"
SERIES = (
    "00_index.ipynb",
    "01_first_round.ipynb",
    "02_snake_turn_order.ipynb",
    "03_payouts_and_healing.ipynb",
    "04_dungeon_lords.ipynb",
    "05_variants.ipynb",
    "06_strategies_tournament.ipynb",
    "07_balance_lab.ipynb",
    "08_sibling_games.ipynb",
    "09_design_workshop.ipynb",
    "10_strategy.ipynb",
)
LESSONS = SERIES[1:8]  # the numbered lessons written for issue 6 (08 predates them)
INDEX = SERIES[0]
MAX_BYTES = 200_000
CHECK_MARK = "# NBVAL_CHECK_OUTPUT"
RULE_GROUPS = range(1, 11)
APPS = {"RoundStepper", "PayoutExplorer", "TurnOrderExplorer", "PlayTable", "CompareExplorer",
        "RulesExplorer", "LabPanel", "WorkshopApp", "DeckEditor", "LordBuilder", "ABExperiment", "PredictCheck"}
WIDGET_MODULES = {"W", "widgets", "ipywidgets"}
WIDGET_MIME = "application/vnd.jupyter.widget-view+json"
PLOTLY_MIME = "application/vnd.plotly.v1+json"
PNG_MIME = "image/png"
RULE = re.compile(r"(?<![\w.])R(\d{1,2})(?:\.\d+)*(?![\d\w])")
LINKED_CELL = re.compile(r"\[[^\]]*\]\((\d\d_[\w]+\.ipynb)\)\s*`([\w-]+)`")
QUESTIONS = re.compile(r"^#{2,3}\s.*\bQuestions\b", re.M)
RECAP = re.compile(r"^#{2,3}\s.*\bRecap\b", re.M)
NUMBERED = re.compile(r"^\d+\.\s", re.M)


# ------------------------------------------------------------------------------ helpers

def load(name: str) -> dict:
    return json.loads((NOTEBOOKS / name).read_text(encoding="utf-8"))


def source(cell: dict) -> str:
    src = cell.get("source", "")
    return "".join(src) if isinstance(src, list) else src


def code_cells(nb: dict) -> list[dict]:
    return [c for c in nb["cells"] if c["cell_type"] == "code"]


def is_checked(cell: dict) -> bool:
    return cell["cell_type"] == "code" and source(cell).lstrip().startswith(CHECK_MARK)


def _builds_widget(node: ast.AST) -> bool:
    if not isinstance(node, ast.Call):
        return False
    func = node.func
    if isinstance(func, ast.Name):
        return func.id in APPS
    return (isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name)
            and func.value.id in WIDGET_MODULES)


def is_interactive(cell: dict) -> bool:
    """See the module docstring."""
    if cell["cell_type"] != "code":
        return False
    lines = [ln for ln in source(cell).splitlines() if not ln.lstrip().startswith(("%", "!"))]
    try:
        tree = ast.parse("\n".join(lines))
    except SyntaxError:
        return False
    if not tree.body or not isinstance(tree.body[-1], ast.Expr):
        return False
    widget_names = {t.id for stmt in tree.body if isinstance(stmt, ast.Assign) and _builds_widget(stmt.value)
                    for t in stmt.targets if isinstance(t, ast.Name)}
    last = tree.body[-1].value
    return _builds_widget(last) or (isinstance(last, ast.Name) and last.id in widget_names)


def cited(text: str) -> set[int]:
    return {int(m.group(1)) for m in RULE.finditer(text)} & set(RULE_GROUPS)


def cited_next_to(nb: dict, i: int) -> set[int]:
    cells = nb["cells"]
    return set().union(*(cited(source(cells[j])) for j in (i - 1, i, i + 1) if 0 <= j < len(cells)))


def interactive_coverage() -> dict[int, list[tuple[str, str]]]:
    """Rule group -> [(notebook, cell id)] of the interactive cells it is cited next to."""
    cover: dict[int, list[tuple[str, str]]] = {k: [] for k in RULE_GROUPS}
    for name in SERIES:
        nb = load(name)
        for i, cell in enumerate(nb["cells"]):
            if is_interactive(cell):
                for k in cited_next_to(nb, i):
                    cover[k].append((name, cell.get("id", f"#{i}")))
    return cover


def index_table() -> dict[int, list[tuple[str, str]]]:
    """The index's coverage table: rule group -> [(notebook, cell id)]."""
    rows: dict[int, list[tuple[str, str]]] = {}
    for cell in load(INDEX)["cells"]:
        if cell["cell_type"] != "markdown":
            continue
        for line in source(cell).splitlines():
            m = re.match(r"^\|\s*R(\d{1,2})\s*\|", line)
            if m:
                rows[int(m.group(1))] = LINKED_CELL.findall(line)
    return rows


# ------------------------------------------------------------------------------ every notebook

@pytest.mark.parametrize("name", SERIES)
def test_notebook_exists_and_is_valid(name):
    path = NOTEBOOKS / name
    assert path.is_file(), f"{name} is missing"
    nb = load(name)
    assert nb["nbformat"] == 4 and nb["cells"], f"{name}: not a non-empty nbformat-4 notebook"
    nbformat = pytest.importorskip("nbformat")
    nbformat.validate(nbformat.reads(path.read_text(encoding="utf-8"), as_version=4))


@pytest.mark.parametrize("name", SERIES)
def test_kernel_is_python3(name):
    spec = load(name)["metadata"].get("kernelspec", {})
    assert spec.get("name") == "python3", f"{name}: kernelspec {spec!r}, want name python3"


@pytest.mark.parametrize("name", SERIES)
def test_no_widget_state_is_stored(name):
    nb = load(name)
    assert "widgets" not in nb["metadata"], f"{name}: metadata.widgets holds widget state; strip it"
    for cell in nb["cells"]:
        assert "widgets" not in cell.get("metadata", {}), f"{name} cell {cell.get('id')}: widget metadata"
        for out in cell.get("outputs", []):
            assert WIDGET_MIME not in out.get("data", {}), f"{name} cell {cell.get('id')}: stored widget view"


@pytest.mark.parametrize("name", SERIES)
def test_notebook_is_small(name):
    size = (NOTEBOOKS / name).stat().st_size
    assert size < MAX_BYTES, f"{name} is {size} bytes (limit {MAX_BYTES}): strip outputs"


def is_figure_output(out: dict) -> bool:
    """A stored plotly figure as ``make figures`` stores it: plotly's JSON (JupyterLab) and a PNG
    (nbconvert, GitHub), nothing else."""
    return out.get("output_type") == "display_data" and set(out.get("data", {})) == {PLOTLY_MIME, PNG_MIME}


@pytest.mark.parametrize("name", SERIES)
def test_only_checked_cells_store_outputs(name):
    """Checked cells store what nbval compares; figure cells store their figure (plotly JSON +
    PNG, written by ``make figures``); every other code cell stores nothing."""
    for cell in code_cells(load(name)):
        head = source(cell).strip().splitlines()[0] if source(cell).strip() else ""
        if is_checked(cell):
            assert cell.get("outputs"), f"{name}: checked cell {head!r} has no stored output to compare"
        else:
            stray = [o for o in cell.get("outputs", []) if not is_figure_output(o)]
            assert not stray, (f"{name}: unchecked cell {head!r} stores outputs other than a figure "
                               "(plotly JSON + PNG); strip them or run `make figures`")


@pytest.mark.parametrize("name", SERIES)
def test_ends_with_questions(name):
    last = load(name)["cells"][-1]
    text = source(last)
    assert last["cell_type"] == "markdown", f"{name}: the last cell should be the Questions section"
    m = None
    for m in QUESTIONS.finditer(text):
        pass
    assert m is not None, f"{name}: the last cell has no 'Questions' heading"
    n = len(NUMBERED.findall(text[m.end():]))
    assert 3 <= n <= 5, f"{name}: {n} numbered questions, want 3-5"


# ------------------------------------------------------------------------------ the lessons

@pytest.mark.parametrize("name", SERIES[:8])
def test_lesson_has_a_recap_before_its_questions(name):
    text = source(load(name)["cells"][-1])
    recap, questions = RECAP.search(text), QUESTIONS.search(text)
    assert recap and questions and recap.start() < questions.start(), \
        f"{name}: the last cell should hold '## Recap' and then '## Questions'"


@pytest.mark.parametrize("name", LESSONS)
def test_lesson_has_checked_engine_output(name):
    checked = [c for c in code_cells(load(name)) if is_checked(c)]
    assert checked, f"{name}: no '{CHECK_MARK}' cell, so a wrong rule would not show in CI"


@pytest.mark.parametrize("name", LESSONS)
def test_lesson_cites_rules_and_has_an_interactive_cell(name):
    nb = load(name)
    assert cited("".join(source(c) for c in nb["cells"])), f"{name} cites no R-number"
    assert any(is_interactive(c) for c in nb["cells"]), f"{name} has no interactive cell"


@pytest.mark.parametrize("name", SERIES)
def test_no_notebook_runs_mcts(name):
    # MCTS is slow (~0.2 s a move at its default budget); the series must run in <= 120 s.
    for cell in code_cells(load(name)):
        assert not re.search(r"""["']mcts""", source(cell)), f"{name}: a code cell uses the mcts bot"


def test_bets_come_before_the_tournament_reveal():
    cells = load("06_strategies_tournament.ipynb")["cells"]
    reveal = next(i for i, c in enumerate(cells) if c["cell_type"] == "code" and "round_robin(" in source(c))
    bets = [i for i, c in enumerate(cells[:reveal]) if is_interactive(c) and "RadioButtons" in source(c)]
    assert bets, "06: no 'place your bet' widget before the round robin is run"
    assert any("Place your bet" in source(c) for c in cells[:reveal] if c["cell_type"] == "markdown")


# ------------------------------------------------------------------------------ the index

def test_index_links_every_notebook():
    text = "".join(source(c) for c in load(INDEX)["cells"] if c["cell_type"] == "markdown")
    linked = set(re.findall(r"\]\((\d\d_[\w]+\.ipynb)\)", text))
    missing = [n for n in SERIES[1:] if n not in linked]
    assert not missing, f"the index does not link {missing}"
    dangling = [n for n in linked if not (NOTEBOOKS / n).is_file()]
    assert not dangling, f"the index links notebooks that do not exist: {dangling}"


def test_every_rule_group_is_played_in_an_interactive_cell():
    cover = interactive_coverage()
    missing = [f"R{k}" for k, cells in cover.items() if not cells]
    assert not missing, f"no interactive cell has {missing} cited next to it"


def test_index_coverage_table_names_real_interactive_cells():
    table = index_table()
    assert sorted(table) == list(RULE_GROUPS), f"the index table has rows {sorted(table)}, want R1-R10"
    for k, pairs in table.items():
        assert pairs, f"index row R{k} names no cell"
        for name, cell_id in pairs:
            nb = load(name)
            found = [i for i, c in enumerate(nb["cells"]) if c.get("id") == cell_id]
            assert found, f"index row R{k}: {name} has no cell {cell_id!r}"
            i = found[0]
            assert is_interactive(nb["cells"][i]), f"index row R{k}: {name} {cell_id} is not interactive"
            assert k in cited_next_to(nb, i), f"index row R{k}: R{k} is not cited next to {name} {cell_id}"


# ------------------------------------------------------------------------------ the definitions

def test_definitions_on_small_examples():
    def cell(src, kind="code"):
        return {"cell_type": kind, "source": src, "metadata": {}, "outputs": []}

    assert is_interactive(cell("RoundStepper(players=3)"))
    assert is_interactive(cell("import ipywidgets as W\nbet = W.RadioButtons(options=[1])\nbet"))
    assert is_interactive(cell("W.interactive(f, x=W.IntSlider())"))
    assert not is_interactive(cell("s = RoundStepper()"))
    assert not is_interactive(cell("snake_figure(4)"))
    assert not is_interactive(cell("RoundStepper()", kind="markdown"))
    assert cited("R1.4, R10.2 and R4 but not docs/rules.md") == {1, 10, 4}
    assert cited("R12 and PR3") == set()
