"""Citations a student can read: which game, which document, which section, and the quoted words.

The comparison data (``dungeon_guilds/siblings/data``) cites a fact by a source-document id and
a line (``{seed = "000", line = 9, keyword = "3至6人"}``), by a rule of the project's rules
reference (``{rule = "R4.1", keyword = ...}``) or as an outside fact (``{origin = ...}``).
:func:`citation` turns one into words: *Dungeon Guilds — rulebook (Chinese), § Basic
information, line 9: “3至6人”*. A source that already names its document or section (fields
``document`` / ``section``) is shown with those names; otherwise the names below are used
(the section is the heading the cited line falls under, read once from the document).
"""

from __future__ import annotations

import html
import re
from typing import Any, Mapping

from .. import i18n

# (game key, document key) of each source document; the words are in strings/<lang>/tabs.toml
DOCUMENTS = {
    "000": ("dungeon_guilds", "rulebook_zh"),
    "001": ("dungeon_fighter", "article"),
    "002": ("dungeon_guilds", "summary_fr"),
    "003": ("dungeon_lords", "article"),
    "004": ("dungeon", "article"),
}

# The headings of each document: (first line, key of the heading); a cited line belongs to the
# last heading at or above it.
SECTIONS = {
    "000": ((3, "basic"), (13, "intro"), (25, "setup"), (33, "play"), (50, "dispatch"), (75, "resolution"),
            (83, "cleanup"), (93, "end"), (97, "lords"), (120, "variants")),
    "001": ((7, "components"), (49, "players"), (55, "setup"), (87, "play"), (91, "move"), (117, "combat"),
            (141, "scoring"), (149, "boss"), (155, "end")),
    "002": ((5, "setup"), (7, "dispatch"), (20, "resolution"), (26, "cleanup")),
    "003": ((1, "building"),),
    "004": ((1, "goal"), (17, "levels"), (24, "components"), (33, "play"), (40, "move"), (47, "encounter"),
            (58, "combat"), (81, "loot"), (85, "spells"), (93, "items"), (101, "variants")),
}


def _source_dict(source: Any) -> dict:
    """A source as the data writes it (a dict), from a dict or a ``siblings.Source``."""
    if isinstance(source, Mapping):
        return dict(source)
    kind = getattr(source, "kind", "")
    if kind == "seed":
        return {"seed": source.ref, "line": source.line, "keyword": source.keyword}
    if kind == "rules":
        return {"rule": source.ref, "keyword": source.keyword}
    return {"origin": getattr(source, "origin", str(source))}


def section_of(doc: str, line: int) -> str | None:
    """The key of the heading a line of a document falls under (None before the first)."""
    found = None
    for first, key in SECTIONS.get(doc, ()):
        if line >= first:
            found = key
    return found


def citation(source: Any, lang: str | None = None) -> str:
    """One source in words (plain text)."""
    s = _source_dict(source)
    quote = s.get("quote") or s.get("keyword") or ""
    quoted = i18n.t("cite.quote", lang, text=quote) if quote else ""
    translated = (lang or i18n.get_language()) != i18n.FALLBACK
    if "rule" in s:
        # the rules reference is written in English: quoted only in English
        return i18n.t("cite.rule", lang, rule=s["rule"]) + ("" if translated else quoted)
    if "origin" in s and "seed" not in s:
        links = re.findall(r"https?://[^\s;,)]+", str(s["origin"]))
        if translated and links:  # the origin is an English note: name its web pages
            return i18n.t("cite.outside_links", lang, links="；".join(links))
        return i18n.t("cite.outside", lang, origin=s["origin"])
    doc = str(s.get("seed", ""))
    game, kind = DOCUMENTS.get(doc, ("", ""))
    document = s.get("document") or (i18n.t(f"cite.doc_{game}_{kind}", lang) if game else doc)
    line = int(s.get("line", 0) or 0)
    section = s.get("section")
    if not section and section_of(doc, line):
        section = i18n.t(f"cite.section_{doc}_{section_of(doc, line)}", lang)
    where = document + (i18n.t("cite.section", lang, section=section) if section else "")
    if line:
        where += i18n.t("cite.line", lang, line=line)
    return where + quoted


def citations_html(sources, lang: str | None = None) -> str:
    """Several sources as an HTML list (class ``dg-cite``), one citation an item."""
    items = "".join(f"<li>{html.escape(citation(s, lang))}</li>" for s in sources)
    return f"<ul class='dg-cite'>{items}</ul>"


__all__ = ["DOCUMENTS", "SECTIONS", "citation", "citations_html", "section_of"]
