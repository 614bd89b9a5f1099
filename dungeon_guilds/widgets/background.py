"""Long runs that keep the page responsive: a run is a generator that plays one chunk of games
per step; :func:`drive` runs it to the end now (a script, a test: no event loop), or as an
asyncio task that gives the event loop a turn after every step.

Why: a callback that plays games for seconds holds the kernel, and in the browser (Pyodide,
the static site) the kernel is a web worker that handles one message at a time: the progress
bar's updates go out, but a Stop click would wait until the run ended. Run as a task, the
button's callback returns at once and between chunks the kernel reads the messages that came
in (the Stop click among them). The same code runs on the classroom server, where the kernel
(ipykernel) has a running asyncio loop, and in Pyodide, whose ``WebLoop`` schedules each
step with the browser's timers. There are no threads or processes in Pyodide; none is used.
"""

from __future__ import annotations

import asyncio
import sys
from typing import Iterator

from .common import EXPECTED_ERRORS, note_unexpected

PAUSE = 0.005  # seconds the loop gets after each step (the comm messages waiting are read then)

__all__ = ["PAUSE", "drive", "event_loop"]


def event_loop():
    """The asyncio loop a widget callback may start a task on: the kernel's running loop, or
    Pyodide's ``WebLoop`` (in the browser); None where nothing would run a task (a script or a
    test calling ``button.click()``: the run happens there and then)."""
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        pass
    if sys.platform == "emscripten":  # Pyodide: its WebLoop runs tasks from the browser's timers
        return asyncio.get_event_loop()
    return None


def drive(app, steps: Iterator, where: str):
    """Run the generator ``steps``: to the end now when there is no event loop (errors then
    reach the caller, a ``safe`` callback), else its first step now (the app shows at once
    that it runs; errors reach the caller) and the rest as a task (returned) that pauses
    :data:`PAUSE` after each step; an error in the task is shown by ``app`` as ``safe`` shows
    one (no traceback on screen)."""
    loop = event_loop()
    if loop is None:
        for _ in steps:
            pass
        return None
    if next(steps, StopIteration) is StopIteration:
        return None

    async def run() -> None:
        try:
            for _ in steps:
                await asyncio.sleep(PAUSE)
        except EXPECTED_ERRORS as exc:
            app.show_error(exc)
        except Exception as exc:  # noqa: BLE001 - a bug: logged, then a sentence (never a traceback)
            app.show_error(exc)
            note_unexpected(exc, where)

    return loop.create_task(run())
