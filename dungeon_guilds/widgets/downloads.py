"""Browser downloads: a file the student's browser saves, made in memory (a ``data:`` link); the
server writes nothing (tests/widgets/test_no_server_writes.py)."""

from __future__ import annotations

import base64
import html


def download_link(text: str, filename: str, label: str, mime: str = "text/plain") -> str:
    """An HTML link that downloads ``text`` as ``filename`` (a data: URI; works in Voila)."""
    data = base64.b64encode(text.encode("utf-8")).decode("ascii")
    return (f'<a class="dg-download" download="{html.escape(filename)}" '
            f'href="data:{mime};charset=utf-8;base64,{data}">{html.escape(label)}</a>')


__all__ = ["download_link"]
