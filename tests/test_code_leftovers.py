"""Issue 53, item 3: the code's leftovers stay mended — the print-and-play sheets join their
lists with :func:`dungeon_guilds.i18n.join_list` (、 in 繁體中文), and the workshop's copy of a
lord is named from the strings tables, not from a 繁體中文 string in the code. (The print CSS and
script in files: tests/test_front_end_files.py, which no longer allows layout.py a block.)"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import dungeon_guilds
from dungeon_guilds import i18n
from dungeon_guilds.cards import reference_deck
from dungeon_guilds.drawing.print_and_play.sheets import heal_costs, thresholds
from dungeon_guilds.workshop.lord_edit import copy_of

PKG = Path(dungeon_guilds.__file__).parent
CJK = re.compile(r"[\u3000-\u303f\u4e00-\u9fff\uff00-\uffef]")


def _code_strings(path: Path) -> list[tuple[int, str]]:
    """The string constants of a module that are not docstrings."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docs = {id(n.body[0].value) for n in ast.walk(tree)
            if isinstance(n, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
            and n.body and isinstance(n.body[0], ast.Expr) and isinstance(n.body[0].value, ast.Constant)}
    return [(n.lineno, n.value) for n in ast.walk(tree)
            if isinstance(n, ast.Constant) and isinstance(n.value, str) and id(n) not in docs]


def test_no_chinese_string_in_the_lord_workshop_or_the_print_code():
    paths = [PKG / "workshop" / "lord_edit.py", *sorted((PKG / "drawing" / "print_and_play").glob("*.py"))]
    found = [f"{p.relative_to(PKG)}:{line}" for p in paths for line, text in _code_strings(p) if CJK.search(text)]
    # the one a lord card needs between its numbers when it has no words (a separator, not a sentence)
    assert found == [f"drawing/print_and_play/cards.py:{_line_of('cards.py', '；')}"]


def _line_of(name: str, text: str) -> int:
    return next(line for line, s in _code_strings(PKG / "drawing" / "print_and_play" / name) if s == text)


def test_a_copied_lord_is_named_from_the_strings_tables():
    lord = copy_of("beholder")
    assert lord.name_en == i18n.t("workshop_lord.copy_name", "en", name="The Beholder") == "The Beholder (copy)"
    assert lord.name_zh == i18n.t("workshop_lord.copy_name", "zh", name="眼魔") == "眼魔（複製）"


def test_the_sheets_lists_are_joined_in_the_readers_language():
    deck = reference_deck()
    assert thresholds(deck, "en") == "Lv1 5, Lv2 7, Lv3 9"
    assert thresholds(deck, "zh") == "Lv1 5、Lv2 7、Lv3 9"
    assert heal_costs(deck, "zh").count("、") == 4 and ", " not in heal_costs(deck, "zh")
    sheets = (PKG / "drawing" / "print_and_play" / "sheets.py").read_text(encoding="utf-8")
    assert '", ".join' not in sheets
