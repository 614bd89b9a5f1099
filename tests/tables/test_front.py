"""The front of ``table_server --workers`` (issue 52, app/tables/front.py): which table a request
names, and which worker serves it (the same for every connection of a table; a worker gone
moves only its own tables)."""

from __future__ import annotations

import os
import selectors
import socket
import time

from dungeon_guilds.app.tables.front import Front, Worker, owner, receive, table_of


def test_the_table_is_read_from_the_request_line():
    assert table_of(b"GET /dungeon-guilds/tables/ws?table=ab3k9q HTTP/1.1\r\nHost: x\r\n") == "AB3K9Q"
    assert table_of(b"GET /base/dungeon-guilds/tables/ws?lang=zh&table=QQQQ HTTP/1.1\r\n") == "QQQQ"
    assert table_of(b"GET /dungeon-guilds/tables/XY7Z2 HTTP/1.1\r\n") == "XY7Z2"  # the shared link
    assert table_of(b"GET /dungeon-guilds/tables/ws HTTP/1.1\r\n") is None  # a page about to open or join
    assert table_of(b"GET /dungeon-guilds/tables/ws?table=<script> HTTP/1.1\r\n") is None
    assert table_of(b"GET /dungeon-guilds/teacher HTTP/1.1\r\n") is None
    assert table_of(b"\x16\x03\x01 garbage") is None


def test_a_table_has_one_worker_and_a_worker_gone_moves_only_its_own():
    codes = [f"T{i:04d}" for i in range(400)]
    first = {c: owner(c, [0, 1, 2])[0] for c in codes}
    assert first == {c: owner(c, [0, 1, 2])[0] for c in codes}  # the same every time
    assert all(80 < list(first.values()).count(w) < 190 for w in (0, 1, 2))  # spread over the three
    left = {c: owner(c, [0, 2])[0] for c in codes}  # worker 1 gone
    assert all(left[c] == first[c] for c in codes if first[c] != 1)
    assert {left[c] for c in codes if first[c] == 1} == {0, 2}


def test_tables_are_placed_on_the_workers_in_turn_and_stay_together():
    front = Front(None, 2, lambda slot, channel: None)
    for slot in (0, 1):
        front.workers[slot] = Worker(slot, 0, None)
        front.workers[slot].ready = True
    codes = [f"T{i:04d}" for i in range(30)]
    placed = [front.order(c)[0] for c in codes]
    assert placed.count(0) == placed.count(1) == 15  # a hash would split 30 tables unevenly
    assert [front.order(c)[0] for c in codes] == placed  # every page of a table: its worker
    del front.workers[1]  # worker 1 died: its tables move to worker 0
    assert {front.order(c)[0] for c in codes} == {0}
    front.workers[1] = Worker(1, 0, None)  # started again: the tables stay together where they went
    front.workers[1].ready = True
    assert {front.order(c)[0] for c in codes} == {0}
    assert {front.order(f"N{i:04d}")[0] for i in range(4)} == {0, 1}  # new tables in turn again


def a_front_with_one_worker():
    """A front on a loopback port with one worker's channel (no process: the test reads it)."""
    listener = socket.create_server(("127.0.0.1", 0))
    front = Front(listener, 1, lambda slot, channel: None)
    listener.setblocking(False)
    front.sel.register(listener, selectors.EVENT_READ, ("listen", None))
    mine, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    mine.setblocking(False)
    front.workers[0] = Worker(0, os.getpid(), mine)
    front.workers[0].ready = True
    return front, theirs


def turn(front, times: int = 5) -> None:
    """The front's loop, a few turns (Front.run without the workers' starts)."""
    for _ in range(times):
        for key, _ in front.sel.select(0.05):
            if key.data[0] == "listen":
                front.accept()
            elif key.fileobj in front.pending:
                front.look(key.fileobj)
        front.again()


def test_a_connection_is_handed_over_whole_once_its_request_line_came():
    front, channel = a_front_with_one_worker()
    port = front.listener.getsockname()[1]
    whole = socket.create_connection(("127.0.0.1", port))
    whole.sendall(b"GET /dungeon-guilds/tables/ws?table=ABCD HTTP/1.1\r\nHost: x\r\n\r\n")
    split = socket.create_connection(("127.0.0.1", port))
    split.sendall(b"GET /dungeon-guilds/tab")
    silent = socket.create_connection(("127.0.0.1", port))
    turn(front)
    handed = []
    channel.setblocking(False)
    assert receive(channel, handed.append)
    assert len(handed) == 1 and handed[0].recv(100).startswith(b"GET /dungeon-guilds/tables/ws?table=ABCD")
    assert len(front.later) == 1 and len(front.pending) == 2  # the split line waits, unwatched
    split.sendall(b"les HTTP/1.1\r\n\r\n")
    time.sleep(0.03)
    turn(front)
    assert receive(channel, handed.append) and len(handed) == 2 and not front.later
    assert handed[1].recv(100) == b"GET /dungeon-guilds/tables HTTP/1.1\r\n\r\n"  # nothing taken by the front
    front.pending[next(iter(front.pending))] = 0.0  # the silent one's deadline passed
    turn(front, 1)
    silent.settimeout(1)
    assert not front.pending and silent.recv(10) == b""  # closed
    for s in (whole, split, silent, channel, *handed):
        s.close()
