"""Browser downloads: a file the student's browser saves, made in memory (a ``data:`` link); the
server writes nothing (tests/widgets/test_no_server_writes.py)."""

from __future__ import annotations

import base64
import html


# A download looks like a link wherever it is shown (issue 40: "Download TOML" read as plain
# text in Voila, whose page style takes a link's colour and underline away) and is a 44 px tap
# target on a phone: the style travels with the link, as no page style sheet reaches every host.
LINK_STYLE = ("color:#1a5fb4;text-decoration:underline;display:inline-block;min-height:44px;"
              "line-height:44px;padding:0 4px;cursor:pointer")


def download_link(text: str, filename: str, label: str, mime: str = "text/plain") -> str:
    """An HTML link that downloads ``text`` as ``filename`` (a data: URI; works in Voila)."""
    data = base64.b64encode(text.encode("utf-8")).decode("ascii")
    return (f'<a class="dg-download" style="{LINK_STYLE}" download="{html.escape(filename)}" '
            f'href="data:{mime};charset=utf-8;base64,{data}">↓ {html.escape(label)}</a>')


__all__ = ["LINK_STYLE", "download_link"]
