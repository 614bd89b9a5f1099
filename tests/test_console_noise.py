"""The terminal during a class (issue 53): a 50-minute session printed "Task exception was never
retrieved … WebSocketClosedError()" and "Got events for closed stream" three times each — a
student's closed tab, nothing for a teacher to do — and "More students arrived at once" when
the teacher's own page came 16 s after READY. The filter drops the first two whole (an asyncio
error of another kind still shows, whole) and says the third as what happened."""

from __future__ import annotations

from dungeon_guilds.app import console

CLOSED_TAB_TASK = """\
[DashboardVoila] ERROR | Task exception was never retrieved
future: <Task finished name='Task-8431' coro=<WebSocketProtocol13.write_message.<locals>.wrapper() done, defined at /x/tornado/websocket.py:1086> exception=WebSocketClosedError()>
Traceback (most recent call last):
  File "/x/tornado/websocket.py", line 1088, in wrapper
    await fut
tornado.iostream.StreamClosedError: Stream is closed

During handling of the above exception, another exception occurred:

Traceback (most recent call last):
  File "/x/tornado/websocket.py", line 1090, in wrapper
    raise WebSocketClosedError()
tornado.websocket.WebSocketClosedError
[DashboardVoila] WARNING | Got events for closed stream <zmq.eventloop.zmqstream.ZMQStream object at 0x7f3a1c2b5d50>
[W 2026-12-06 10:41:07.512 ServerApp] Got events for closed stream 17
""".splitlines(keepends=True)

OTHER_TASK = """\
[DashboardVoila] ERROR | Task exception was never retrieved
future: <Task finished name='Task-12' coro=<f() done, defined at /x/a.py:1> exception=ValueError('a real problem')>
Traceback (most recent call last):
  File "/x/a.py", line 2, in f
ValueError: a real problem
""".splitlines(keepends=True)


def _shown(view, lines):
    return [line for raw in lines for line in view.feed(raw)] + view.flush()


def test_a_closed_tabs_asyncio_error_and_closed_stream_warnings_are_not_shown():
    view = console.ConsoleFilter("127.0.0.1", 8866, pool=3, max_kernels=40)
    assert _shown(view, CLOSED_TAB_TASK) == []
    verbose = console.ConsoleFilter("127.0.0.1", 8866, pool=3, max_kernels=40, verbose=True)
    assert len(_shown(verbose, CLOSED_TAB_TASK)) == len(CLOSED_TAB_TASK)  # --verbose shows everything


def test_another_asyncio_error_still_shows_whole():
    view = console.ConsoleFilter("127.0.0.1", 8866, pool=3, max_kernels=40)
    assert _shown(view, CLOSED_TAB_TASK + OTHER_TASK) == [raw.rstrip("\n") for raw in OTHER_TASK]


def test_a_grown_pool_is_said_as_what_happened_not_as_a_crowd():
    view = console.ConsoleFilter("127.0.0.1", 8866, pool=4, max_kernels=40)
    said = view.feed("[DashboardVoila] Kernel pool grows to 5 kernels (pages arrived ...)\n")
    assert len(said) == 1 and "arrived at once" not in said[0]
    assert "every prepared kernel was taken" in said[0] and "your own included" in said[0]
    assert "preparing 5 kernels now" in said[0] and "--class 5" in said[0]
