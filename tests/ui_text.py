"""Every text a dashboard visitor can read, collected from a widget tree (no browser needed).

:func:`visible_texts` walks an ipywidgets tree and yields ``(where, text)`` for each label,
description, tooltip, option, tab title, HTML / Label value (tags, ``<style>``, ``<script>``
and ``<code>`` removed: a command or a file path is typed as printed) and, inside ``Output`` widgets, each plotly figure's title, axis titles, annotations,
trace names, tick labels and Sankey node labels. Hidden widgets (``layout.display == "none"``)
are still read: a visitor may make them show.

:func:`english_words` finds the English words of a text outside the allow-list (proper names
of games and people, units, letters used as names); the zh scan of every dashboard tab
(``tests/viz/test_zh_every_tab.py``) fails on them.
"""

from __future__ import annotations

import html as _html
import re
from typing import Iterator

import ipywidgets as W

# Words a Traditional Chinese page may show in Latin letters: the names of games and people
# (the seats' default names), units and abbreviations students meet in the text, file formats.
ALLOWED = {
    # game names (the sibling games keep their published names)
    "dungeon", "guilds", "lords", "fighter", "dungeon!",
    # the default player names (game.DEFAULT_NAMES)
    "ann", "bo", "cy", "di", "ed", "flo",
    # arm names, letters and abbreviations
    "a", "b", "p", "ci", "npc", "npcs", "vs", "holm", "mcnemar", "wilson", "bootstrap", "bonferroni", "student",
    "toml", "csv", "html", "json", "png", "ok", "id", "ids", "mcts", "t",
    # units and abbreviations printed on the cards or standard in the statistics shown:
    # Lv1 (a card's level), pp (percentage points), gp (Dungeon!'s gold pieces), Jaccard (a
    # similarity index named after its author), md (the rules reference file docs/rules.md)
    "lv", "pp", "gp", "jaccard", "rules", "md",
    # the language's own name on the language toggle; the browsers and the language a teacher
    # serving the dashboard reads about (product names)
    "english", "python", "chrome", "firefox", "edge", "safari",
    # a French rules term quoted from the French summary
    "éjecter",
}


def _lord_names() -> list[str]:
    """The printed lords' English names (whole phrases): the board shows a lord's name in the
    other language beside it, as the card prints both."""
    from dungeon_guilds.lords import ALL_LORDS

    return sorted((lord.name_en for lord in ALL_LORDS), key=len, reverse=True)


_TAG = re.compile(r"<[^>]+>")
_BLOCK = re.compile(r"<(style|script|code)\b.*?</\1>", re.S | re.I)
_WORD = re.compile(r"[A-Za-zÀ-ÿ][A-Za-zÀ-ÿ'!]*")


def strip_html(value: str) -> str:
    return _html.unescape(_TAG.sub(" ", _BLOCK.sub(" ", value or "")))


def english_words(text: str, allowed: set[str] | None = None) -> list[str]:
    """The Latin-letter words of ``text`` that are not in the allow-list (lower-cased check;
    single letters, words inside a URL, the printed lords' English names and words quoted
    from a source document in 「…」 are ignored)."""
    allowed = ALLOWED if allowed is None else allowed
    for name in _lord_names():
        text = text.replace(name, " ")
    text = re.sub(r"「[^」]*」", " ", text)  # words quoted from a source document, as printed
    text = re.sub(r"[\w/.-]+\.md\b", " ", text)  # a file name (docs/rules.md)
    text = re.sub(r"https?://[^\s；;，,）)]+", " ", text)
    out = []
    for word in _WORD.findall(text):
        w = word.lower().strip("'")
        if len(w) <= 1 or w in allowed or w.rstrip("!") in allowed:
            continue
        out.append(word)
    return out


def _figure_texts(fig: dict) -> Iterator[str]:
    for text in _figure_raw_texts(fig):
        yield strip_html(text)


def _figure_raw_texts(fig: dict) -> Iterator[str]:
    layout = fig.get("layout") or {}

    def title(obj) -> str:
        t = (obj or {}).get("title")
        return (t.get("text") or "") if isinstance(t, dict) else (t or "")

    yield title(layout)
    for key, value in layout.items():
        if re.match(r"^[xy]axis\d*$", key) or key in ("coloraxis",):
            yield title(value)
            for tick in (value or {}).get("ticktext") or ():
                yield str(tick)
    for ann in layout.get("annotations") or ():
        yield str(ann.get("text") or "")
    for trace in fig.get("data") or ():
        if trace.get("showlegend") is not False and trace.get("name"):
            yield str(trace["name"])
        if trace.get("type") == "sankey":
            for label in (trace.get("node") or {}).get("label") or ():
                yield str(label)
        for axis in ("x", "y"):
            values = trace.get(axis)
            if isinstance(values, list) and values and all(isinstance(v, str) for v in values):
                yield from values
        if isinstance(trace.get("text"), list):
            yield from (str(v) for v in trace["text"] if isinstance(v, str))
        if isinstance(trace.get("header"), dict):  # plotly tables
            yield from (str(v) for v in (trace["header"].get("values") or ()))


def _output_texts(output: W.Output) -> Iterator[str]:
    for item in output.outputs:
        data = item.get("data") or {}
        if "application/vnd.plotly.v1+json" in data:
            yield from _figure_texts(data["application/vnd.plotly.v1+json"])
        elif "text/html" in data:
            yield strip_html(data["text/html"])
        elif "text/plain" in data:
            yield data["text/plain"]
        if item.get("output_type") == "stream":
            yield item.get("text", "")


WORKSHOP_FILLED = {"dg-deck-name", "dg-deck-description"}  # Text fields the workshop fills itself


def visible_texts(widget, where: str = "") -> Iterator[tuple[str, str]]:
    """``(where, text)`` for every text of ``widget`` and its children."""
    name = f"{where}/{type(widget).__name__}"
    classes = [c for c in getattr(widget, "_dom_classes", ()) if c.startswith("dg-")]
    if classes:
        name += "." + classes[0]
    for attr in ("description", "tooltip", "placeholder"):
        value = getattr(widget, attr, None)
        if isinstance(value, str) and value:
            yield name + f"[{attr}]", strip_html(value) if attr == "description" else value
    if isinstance(widget, (W.HTML, W.HTMLMath, W.Label)):
        yield name, strip_html(widget.value)
    if isinstance(widget, (W.Dropdown, W.Select, W.ToggleButtons, W.RadioButtons, W.SelectMultiple,
                           W.SelectionSlider)):
        for label in widget._options_labels:
            yield name + "[option]", label
    if isinstance(widget, W.Text) and not isinstance(widget, W.Textarea):
        # the visitor's own input, except the fields the workshop fills itself (a deck's name
        # and description, issue 24.10)
        if set(classes) & WORKSHOP_FILLED:
            yield name + "[value]", widget.value
    if isinstance(widget, W.Tab):
        for title in widget.titles:
            yield name + "[title]", title or ""
    if isinstance(widget, W.Output):
        for text in _output_texts(widget):
            yield name + "[output]", text
    for child in getattr(widget, "children", ()) or ():
        yield from visible_texts(child, name)


def untranslated(widget, allowed: set[str] | None = None) -> list[tuple[str, str, list[str]]]:
    """``(where, text, english words)`` for each text of the tree with English words left."""
    out = []
    seen = set()
    for where, text in visible_texts(widget):
        words = english_words(text, allowed)
        if words and text not in seen:
            seen.add(text)
            out.append((where, text.strip()[:200], words))
    return out
