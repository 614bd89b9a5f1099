"""In the static site, a widget trait set back to ``None`` must reach the page as ``null``.

The site's kernel (jupyterlite-pyodide-kernel 0.7.0) hands every comm message to the page with
Pyodide's ``toJs()``, which turns Python's ``None`` into JavaScript's ``undefined``, not ``null``.
ipywidgets' views treat only ``null`` as "no value": ``layout.display = None`` (show a hidden box
again) became ``style.setProperty("display", undefined)`` — ignored, so the box stayed hidden
(pass and play's board never appeared after its curtain), and ``Accordion.selected_index = None``
(fold the game set-up after *Start*) did not fold. On a server (Voila, JupyterLab) messages are
JSON, where ``None`` is ``null``, so nothing changes there.

:func:`install` (a no-op outside Pyodide) wraps the kernel's ``send_comm`` so that every ``None``
in a message's content becomes Pyodide's ``jsnull``, which ``toJs()`` turns into ``null``.
Measured by ``tests/browser/test_pass_and_play_browser.py`` (the static site's pass and play).
"""

from __future__ import annotations

import sys
from typing import Any

_INSTALLED = False


def nulls(value: Any, null: Any) -> Any:
    """``value`` with every ``None`` inside dicts, lists and tuples replaced by ``null``."""
    if value is None:
        return null
    if isinstance(value, dict):
        return {k: nulls(v, null) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(nulls(v, null) for v in value)
    return value


def install() -> bool:
    """Patch the Pyodide kernel's comm sender once; True when it is (or was already) patched."""
    global _INSTALLED
    if _INSTALLED:
        return True
    if sys.platform != "emscripten":
        return False
    from IPython.core.getipython import get_ipython
    from pyodide.ffi import jsnull

    shell = get_ipython()
    send = getattr(shell, "send_comm", None)
    if send is None:
        return False

    def send_comm(msg_type, content, metadata, ident, buffers):
        return send(msg_type, nulls(content, jsnull), metadata, ident, buffers)

    shell.send_comm = send_comm
    _INSTALLED = True
    return True


__all__ = ["install", "nulls"]
