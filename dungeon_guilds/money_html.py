"""Money is text, never mathematics, in HTML too (issue 40; issue 24 did the Markdown).

JupyterLab and Voila run MathJax over HTML outputs as well: two dollar amounts in one run of
text ("1:$0 2:$1", "$2–$4") were typeset as italic mathematics. MathJax never pairs a ``$`` with
one in another element, so :func:`dollars_as_text` puts every dollar amount of an HTML fragment's
text in its own element — ``<span>&#36;2</span>``, or ``<tspan>`` inside SVG — and leaves tags,
attributes, ``script``/``style``/``textarea``, a page's ``title`` and comments as they are (an
SVG ``title``, a tooltip MathJax also reads, gets its ``tspan``). The page reads
the same ("$2"); the drawing's outputs (the board, its tables), the workshop's tables and the
widgets that show money call it on what they return (tests/test_money_is_not_maths.py).
"""

from __future__ import annotations

import re
from bisect import bisect_right

_DOLLAR = re.compile(r"\$(\d*)")
# the tags that change what the text is: SVG (``tspan`` inside), the skipped elements, comments
_MARKS = re.compile(r"<!--.*?-->|<\s*(/?)\s*(svg|script|style|textarea|title)\b[^>]*?(/?)>", re.I | re.S)
_SKIP = {"script", "style", "textarea", "title"}  # a page's title; an SVG's title (a tooltip) is read


def _regions(html: str, svg: int = 0) -> tuple[list[int], list[tuple[bool, int]]]:
    """Where what the text is changes: the positions (each mark's start and end) and after each,
    (skipped?, SVG depth; ``svg``: the depth the fragment starts at). A comment is skipped from
    its start to its end."""
    at: list[int] = []
    state: list[tuple[bool, int]] = []
    skip: str | None = None
    for m in _MARKS.finditer(html):
        closing, name, empty = m.group(1), (m.group(2) or "").lower(), m.group(3)
        if not name:  # a comment
            at += [m.start(), m.end()]
            state += [(True, svg), (skip is not None, svg)]
            continue
        if name in _SKIP and not empty and not (name == "title" and svg > 0):
            skip = None if closing else name
        elif name == "svg" and not empty:
            svg += -1 if closing else 1
        at.append(m.start())
        state.append((skip is not None, svg))
    return at, state


def dollars_as_text(html: str, in_svg: bool = False) -> str:
    """``html`` with each ``$`` of its text (and the digits after it) in its own element
    (``in_svg``: ``html`` is a part of an SVG drawing, its amounts go in ``tspan``).

    Only the dollars and the few tags that matter are looked at, by searches that run in C: a
    board of ~25 KB costs a small fraction of its drawing (issue 37's class tables draw one a seat
    a move)."""
    if "$" not in html:
        return html
    outer = (False, int(in_svg))
    at, state = _regions(html, outer[1])
    out: list[str] = []
    last = 0
    for m in _DOLLAR.finditer(html):
        pos = m.start()
        i = bisect_right(at, pos)
        skipped, svg = state[i - 1] if i else outer
        if skipped or html.rfind("<", 0, pos) > html.rfind(">", 0, pos):  # skipped, or in a tag
            continue
        wrap = "tspan" if svg > 0 else "span"
        out += (html[last:pos], f"<{wrap}>&#36;{m.group(1)}</{wrap}>")
        last = m.end()
    out.append(html[last:])
    return "".join(out)


def figure_text(text: str) -> str:
    """A plotly text (a title, an annotation) with each amount in its own ``<span>`` (plotly draws
    it as a ``tspan`` of its own): neither plotly's own search for ``$…$`` nor the page's MathJax
    pairs two amounts of one line (issue 40)."""
    return _DOLLAR.sub(lambda m: f"<span>${m.group(1)}</span>", text)


__all__ = ["dollars_as_text", "figure_text"]
