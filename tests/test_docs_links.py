"""Every relative link of every Markdown file (README, docs/, notebooks' markdown cells)
resolves to a file of the repository, and nothing points outside it (docs/rules.md is the
rules reference; no ../shared)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SKIP_DIRS = {"build", "dist", "node_modules", "__pycache__", "mutants", "_site"}  # mutants: make mutation's copy; _site: make site's output (copies of the notebooks)
# [text](target "title") and <img src="..."> / <a href="...">
LINK = re.compile(r"\[[^\]\n]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
HTML_LINK = re.compile(r"""(?:href|src)\s*=\s*["']([^"']+)["']""")
CODE = re.compile(r"```.*?```|`[^`\n]*`", re.S)


def _files(pattern: str) -> list[Path]:
    return sorted(p for p in ROOT.rglob(pattern)
                  if not any(part.startswith(".") or part in SKIP_DIRS or part.endswith(".egg-info")
                             for part in p.relative_to(ROOT).parts[:-1]))


def markdown_texts() -> list[tuple[str, Path, str]]:
    """(where, folder the links are relative to, text) for every Markdown file and cell."""
    out = [(str(p.relative_to(ROOT)), p.parent, p.read_text(encoding="utf-8")) for p in _files("*.md")]
    for nb in _files("*.ipynb"):
        cells = json.loads(nb.read_text(encoding="utf-8"))["cells"]
        for i, cell in enumerate(cells):
            if cell["cell_type"] == "markdown":
                out.append((f"{nb.relative_to(ROOT)} cell {i}", nb.parent, "".join(cell["source"])))
    return out


def relative_links(text: str) -> list[str]:
    text = CODE.sub("", text)  # code spans show paths, they do not link
    links = LINK.findall(text) + HTML_LINK.findall(text)
    return [t for t in links if not re.match(r"^([a-z][a-z0-9+.-]*:|#|//)", t, re.I)]


TEXTS = markdown_texts()


def test_the_markdown_files_and_cells_are_found():
    where = {w.split(" cell ")[0] for w, _, _ in TEXTS}
    assert {"README.md", "docs/rules.md", "docs/siblings.md", "notebooks/00_index.ipynb"} <= where


@pytest.mark.parametrize("where, folder, text", TEXTS, ids=[w for w, _, _ in TEXTS])
def test_every_relative_link_resolves_inside_the_repository(where, folder, text):
    broken = []
    for target in relative_links(text):
        path = (folder / target.split("#", 1)[0].split("?", 1)[0]).resolve()
        if ROOT not in path.parents and path != ROOT:
            broken.append(f"{target} (outside the repository)")
        elif not path.exists():
            broken.append(target)
    assert not broken, f"{where}: broken links {broken}"


def test_the_link_checker_catches_a_broken_link(tmp_path):
    assert relative_links("[rules](../shared/RULES.md) [ok](https://example.org) [top](#x) `[no](x.md)`") \
        == ["../shared/RULES.md"]
    assert relative_links('<img src="pic.png"> [a](docs/rules.md#r7 "title")') == ["docs/rules.md#r7", "pic.png"]


def test_nothing_cites_the_rules_reference_outside_the_repository():
    """docs/rules.md is the reference; no text points at ../shared or a RULES.md beside the clone."""
    hits = []
    for pattern in ("*.md", "*.py", "*.ipynb", "*.toml"):
        for p in _files(pattern):
            if p == Path(__file__).resolve():
                continue
            text = p.read_text(encoding="utf-8")
            for bad in ("../shared", "shared/seeds", "shared/RULES", "work/shared"):
                if bad in text:
                    hits.append(f"{p.relative_to(ROOT)}: {bad}")
            if re.search(r"(?<![\w/])RULES\.md", text):
                hits.append(f"{p.relative_to(ROOT)}: RULES.md")
    assert not hits, hits
