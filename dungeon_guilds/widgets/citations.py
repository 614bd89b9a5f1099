"""Citations a student can read: which game, which document, which section, and the quoted words.

The comparison data (``dungeon_guilds/siblings``) cites a fact by a source document and a line
(``{doc = "guilds_zh", line = 9, keyword = "3至6人"}``), by a rule of the project's rules
reference (``{rule = "R4.1", keyword = ...}``) or as an outside fact (``{origin = ...}``).
:func:`citation` writes one as *Dungeon Guilds — rulebook (Chinese), § 基本資訊, line 9:
“3至6人”*: the document by a name in the reader's language (``cite.doc_<document id>``), the
section as the document heads it (:meth:`~dungeon_guilds.siblings.Source.section`), the line
and the quoted words (the source's keyword, the exact words the fact rests on).
"""

from __future__ import annotations

import html
import re
from typing import Any, Mapping

from .. import i18n
from ..siblings import Source


def _source(source: Any) -> Source:
    return Source.from_dict(dict(source)) if isinstance(source, Mapping) else source


def citation(source: Any, lang: str | None = None) -> str:
    """One source (a :class:`~dungeon_guilds.siblings.Source` or its TOML dict) in words."""
    src = _source(source)
    translated = (lang or i18n.get_language()) != i18n.FALLBACK
    quoted = i18n.t("cite.quote", lang, text=src.keyword) if src.keyword else ""
    if src.kind == "rules":
        # the rules reference is written in English: quoted only in English
        return i18n.t("cite.rule", lang, rule=src.ref) + ("" if translated else quoted)
    if src.kind != "doc":
        links = re.findall(r"https?://[^\s;,)]+", src.origin)
        if translated and links:  # the origin is an English note: name its web pages
            return i18n.t("cite.outside_links", lang, links="；".join(links))
        return i18n.t("cite.outside", lang, origin=src.origin)
    key = f"cite.doc_{src.ref}"
    where = i18n.t(key, lang) if i18n.has(key, lang) else src.document
    if src.section:
        where += i18n.t("cite.section", lang, section=src.section)
    if src.line:
        where += i18n.t("cite.line", lang, line=src.line)
    return where + quoted


def citations_html(sources, lang: str | None = None) -> str:
    """Several sources as an HTML list (class ``dg-cite``), one citation an item."""
    items = "".join(f"<li>{html.escape(citation(s, lang))}</li>" for s in sources)
    return f"<ul class='dg-cite'>{items}</ul>"


__all__ = ["citation", "citations_html"]
