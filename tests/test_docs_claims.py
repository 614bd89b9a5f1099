"""A doc never says a feature is missing once it exists (issue 40: the zh lesson said the Lab's
balance run and A/B experiment need a server, docs/print-and-play.md that the deck editor needs
pandas in the static site, the teacher panel sent teachers to a docs folder a pip install does
not have — all after the features had arrived).

Each entry is a claim that a feature is missing (a regular expression over one sentence, in
English or 繁體中文) and the proof that the feature exists (a check run here). Every doc a
reader or a teacher sees is searched: README.md, docs/**/*.md, the lesson plans, the app's
strings (English and 繁體中文). When a feature is removed, its entry goes too."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PKG = ROOT / "dungeon_guilds"


def docs() -> list[tuple[str, str]]:
    paths = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md")),
             *sorted((PKG / "teaching" / "lessons").glob("*.md")), *sorted((PKG / "strings").rglob("*.toml"))]
    return [(p.relative_to(ROOT).as_posix(), p.read_text("utf-8")) for p in paths if "glossary" not in p.parts]


def lab_runs_without_pandas() -> bool:
    """The Lab's balance run and the design workshop run in the static site's Python (no pandas):
    tests/test_lab_without_pandas.py holds it; the site ships no pandas."""
    from dungeon_guilds.app import site

    return (ROOT / "tests" / "test_lab_without_pandas.py").is_file() and not any(
        r.startswith("pandas") for r in site.BROWSER_REQUIREMENTS)


def lessons_in_the_package() -> bool:
    from dungeon_guilds.teaching import lesson_pages

    return len(lesson_pages.plans()) >= 3


def prints_changed_cards() -> bool:
    from dungeon_guilds.drawing.print_and_play import selection

    return "changed" in selection.WORDS


# (what is claimed missing, the claim as a pattern within a sentence, the proof it exists)
CLAIMS = [
    ("the Lab in the static site",
     r"(Lab|實驗室|balance run|平衡測試|A/B)[^.。\n]{0,60}(needs?|requires?|需要)[^.。\n]{0,15}(a server|the server|伺服器|pandas)"
     r"|every tab (but|except) the Lab",
     lab_runs_without_pandas),
    ("the deck editor or lord builder in the static site",
     r"(deck editor|lord builder|牌組編輯器|城主建構器)[^.。\n]{0,80}(needs?|需要) pandas", lab_runs_without_pandas),
    ("the lesson plans after pip install",
     r"(in the project's|專案的)[^.。\n]{0,10}docs/teaching|lesson plans? (are|is) not (in|part of) the (package|wheel)",
     lessons_in_the_package),
    ("printing only the changed cards",
     r"(no way|cannot|can't|無法)[^.。\n]{0,30}(print|列印)[^.。\n]{0,20}(only|只)[^.。\n]{0,20}(changed|修改|不同)",
     prints_changed_cards),
]


def test_the_check_finds_the_claims_issue_40_found():
    found = {name for name, pattern, _ in CLAIMS for text in (
        "實驗室的平衡測試和 A/B 實驗需要伺服器。", "every tab but the Lab's balance run works there",
        "the deck editor and lord builder live in the Lab tab, which needs pandas there",
        "The lesson plans are in the project's docs/teaching folder.",
        "There is no way to print only the changed cards.") if re.search(pattern, text)}
    assert found == {name for name, _, _ in CLAIMS}


@pytest.mark.parametrize("name, pattern, exists", CLAIMS, ids=[c[0] for c in CLAIMS])
def test_no_doc_says_an_existing_feature_is_missing(name, pattern, exists):
    assert exists(), f"{name}: the feature is gone; remove this entry"
    said = [(path, m.group()) for path, text in docs() for m in re.finditer(pattern, text, re.I)]
    assert not said, f"{name} exists, yet: {said[:3]}"
