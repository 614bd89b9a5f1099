"""The sibling dungeon games: small, executable rule kernels and a sourced comparison.

Dungeon Guilds (地城聯盟) has three siblings among the project's source documents (named in
docs/rules.md):

=========================  ======================  ==========================================
module                     game                    source document (id)
=========================  ======================  ==========================================
``siblings.dungeon``       Dungeon! 勇闖地下城     the Dungeon! rules post (``dungeon``)
``siblings.dungeon_lords`` Dungeon Lords 地城領主  the Dungeon Lords building notes (``lords``)
``siblings.dungeon_fighter`` Dungeon Fighter 地城鬥士 the Dungeon Fighter overview (``fighter``)
=========================  ======================  ==========================================

Each kernel implements only what its document specifies, and every fact carries a
:class:`Source`. The convention (docs/siblings.md):

* a document line — ``cite("dungeon", 23, keyword)`` reads "the Dungeon! rules post § 配件,
  line 23": the document, its section and the 1-based line. The line itself is quoted in
  ``siblings/data/quotes.toml`` (with its document and section), so the package carries what it
  cites and a test checks every keyword against the quoted line;
* ``docs/rules.md R4.1`` — a numbered rule of the main game's rules reference;
* ``outside fact`` — something the documents do not say (a publisher, a play time), with its
  origin.

This package module holds only that citation machinery (standard library only). The kernels are
standard library too; ``comparison`` gives plain rows (standard library) and, for notebooks, pandas
tables built from them; ``graphs`` and ``widgets.compare`` use networkx and plotly (not pandas, so
Compare also runs in the browser).
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path

__all__ = [
    "DOCUMENTS",
    "GAMES",
    "Document",
    "Source",
    "cite",
    "cite_rule",
    "outside_fact",
    "quote",
    "rules_path",
    "verify_source",
]

QUOTES_FILE = "quotes.toml"


@dataclass(frozen=True)
class Document:
    """A source document, named by what it is (``name``) and its own title."""

    id: str
    name: str
    title: str
    game: str
    language: str


@lru_cache(maxsize=None)
def _quotes_data() -> dict:
    text = resources.files(__package__).joinpath("data", QUOTES_FILE).read_text(encoding="utf-8")
    return tomllib.loads(text)


def _documents() -> dict[str, Document]:
    return {doc_id: Document(doc_id, d["name"], d["title"], d["game"], d["language"])
            for doc_id, d in _quotes_data()["documents"].items()}


#: document id -> :class:`Document` (the five source documents of docs/rules.md)
DOCUMENTS: dict[str, Document] = _documents()


@lru_cache(maxsize=None)
def _quotes() -> dict[tuple[str, int], dict]:
    return {(q["doc"], int(q["line"])): q for q in _quotes_data()["quote"]}


def quote(doc: str, line: int) -> tuple[str, str]:
    """``(section, text)`` of line ``line`` of document ``doc``, as quoted in the package;
    ``KeyError`` if that line is not quoted."""
    q = _quotes()[(doc, line)]
    return q["section"], q["text"]

#: game id -> (English name, Chinese name, document id)
GAMES = {
    "dungeon_guilds": ("Dungeon Guilds", "地城聯盟", "guilds_zh"),
    "dungeon": ("Dungeon!", "勇闖地下城", "dungeon"),
    "dungeon_lords": ("Dungeon Lords", "地城領主", "lords"),
    "dungeon_fighter": ("Dungeon Fighter", "地城鬥士", "fighter"),
}


@dataclass(frozen=True)
class Source:
    """Where a fact comes from.

    ``kind`` is ``"doc"`` (``ref`` is the document id, ``line`` the 1-based line number),
    ``"rules"`` (``ref`` is an R-number of docs/rules.md) or ``"outside"`` (``origin`` says
    where the fact was found). ``keyword`` is a short exact string of the cited line (or rule)
    that :func:`verify_source` checks.
    """

    kind: str
    ref: str = ""
    line: int = 0
    keyword: str = ""
    origin: str = ""

    def __str__(self) -> str:
        if self.kind == "doc":
            return f"{self.document} § {self.section}, line {self.line}"
        if self.kind == "rules":
            return f"docs/rules.md {self.ref}"
        return f"outside fact ({self.origin})"

    @property
    def is_outside(self) -> bool:
        return self.kind == "outside"

    @property
    def document(self) -> str:
        """The document's name ("the Chinese rulebook"); for a rule, docs/rules.md."""
        if self.kind == "doc":
            return DOCUMENTS[self.ref].name
        return "docs/rules.md" if self.kind == "rules" else ""

    @property
    def game(self) -> str:
        """The id of the game the source is about (``dungeon_guilds`` for rules)."""
        if self.kind == "doc":
            return DOCUMENTS[self.ref].game
        return "dungeon_guilds" if self.kind == "rules" else ""

    @property
    def section(self) -> str:
        """The section of the document (its heading as written there); the R-number for a rule."""
        if self.kind == "doc":
            return _quotes().get((self.ref, self.line), {}).get("section", "")
        return self.ref if self.kind == "rules" else ""

    @property
    def quote(self) -> str:
        """The cited line as the package quotes it ("" if not quoted, or not a document)."""
        if self.kind != "doc":
            return ""
        return _quotes().get((self.ref, self.line), {}).get("text", "")

    def reference(self) -> dict:
        """A readable reference as data, for displays: kind, game, document, section, line,
        quote, keyword, origin."""
        return {"kind": self.kind, "game": self.game, "document": self.document,
                "section": self.section, "line": self.line, "quote": self.quote,
                "keyword": self.keyword, "origin": self.origin}

    @classmethod
    def from_dict(cls, data: dict) -> "Source":
        """Read the TOML form: ``{doc, line, keyword}``, ``{rule, keyword}`` or ``{origin}``."""
        if "doc" in data:
            return cite(str(data["doc"]), int(data["line"]), str(data["keyword"]))
        if "rule" in data:
            return cite_rule(str(data["rule"]), str(data["keyword"]))
        if "origin" in data:
            return outside_fact(str(data["origin"]))
        raise ValueError(f"a source needs 'doc', 'rule' or 'origin': {data!r}")


def cite(doc: str, line: int, keyword: str) -> Source:
    """A document citation: ``cite("dungeon", 69, "殺了你")``, line 69 of the Dungeon! rules post."""
    if doc not in DOCUMENTS:
        raise ValueError(f"unknown document {doc!r} (known: {', '.join(DOCUMENTS)})")
    if line < 1:
        raise ValueError("document lines are 1-based")
    return Source("doc", doc, line, keyword)


def cite_rule(rule: str, keyword: str) -> Source:
    """A citation of the main game's docs/rules.md, e.g. ``cite_rule("R4.1", "Snake order")``."""
    return Source("rules", rule, 0, keyword)


def outside_fact(origin: str) -> Source:
    """A fact that is not in the source documents, with where it was found."""
    return Source("outside", origin=origin)


def rules_path() -> Path:
    """docs/rules.md of the repository this package is in (it is not installed with the
    package: rule citations are checked from a clone)."""
    return Path(__file__).resolve().parents[2] / "docs" / "rules.md"


def _rule_text(rule: str) -> str | None:
    """The paragraph of docs/rules.md that starts with ``- {rule} ``, up to the next rule or
    blank line."""
    lines = rules_path().read_text(encoding="utf-8").splitlines()
    for i, text in enumerate(lines):
        if text.startswith(f"- {rule} "):
            block = [text]
            for more in lines[i + 1 :]:
                if not more.strip() or more.startswith("- ") or more.startswith("#"):
                    break
                block.append(more)
            return " ".join(block)
    return None


def verify_source(source: Source) -> str | None:
    """``None`` if the citation holds, else what is wrong with it.

    A document citation holds when the package quotes that line and the quote contains the
    keyword; a rules citation when the rule exists in docs/rules.md and its paragraph contains
    the keyword; an outside fact when it names an origin.
    """
    if source.kind == "doc":
        if source.ref not in DOCUMENTS:
            return f"unknown document {source.ref!r}"
        text = _quotes().get((source.ref, source.line), {}).get("text")
        if text is None:
            return f"{source}: line {source.line} of {source.document} is not quoted in {QUOTES_FILE}"
        if not source.keyword or source.keyword not in text:
            return f"{source}: keyword {source.keyword!r} not in {text!r}"
        return None
    if source.kind == "rules":
        if not rules_path().exists():
            return f"{source}: docs/rules.md not found (rule citations are checked from a clone)"
        text = _rule_text(source.ref)
        if text is None:
            return f"{source}: no such rule in docs/rules.md"
        if not source.keyword or source.keyword not in text:
            return f"{source}: keyword {source.keyword!r} not in the rule's text"
        return None
    if source.kind == "outside":
        return None if source.origin.strip() else "an outside fact needs an origin"
    return f"unknown source kind {source.kind!r}"
