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

_PARTS = re.compile(r"(<!--.*?-->|<[^>]*>)", re.S)
_TAG = re.compile(r"<\s*(/?)\s*([a-zA-Z][\w:-]*)")
_DOLLAR = re.compile(r"\$(\d*)")
_SKIP = {"script", "style", "title", "textarea"}


def dollars_as_text(html: str) -> str:
    """``html`` with each ``$`` of its text (and the digits after it) in its own element."""
    if "$" not in html:
        return html
    out: list[str] = []
    skip: str | None = None
    svg = 0
    for part in _PARTS.split(html):
        if part.startswith("<"):
            tag = _TAG.match(part)
            if tag:
                closing, name = tag.group(1) == "/", tag.group(2).lower()
                if name in _SKIP and not part.endswith("/>") and not (name == "title" and svg > 0):
                    skip = None if closing else name
                elif name == "svg" and not part.endswith("/>"):
                    svg += -1 if closing else 1
            out.append(part)
        elif skip or "$" not in part:
            out.append(part)
        else:
            wrap = "tspan" if svg > 0 else "span"
            out.append(_DOLLAR.sub(lambda m: f"<{wrap}>&#36;{m.group(1)}</{wrap}>", part))
    return "".join(out)


__all__ = ["dollars_as_text"]
