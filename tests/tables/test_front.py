"""The front of ``table_server --workers`` (issue 52, app/tables/front.py): which table a request
names, and which worker serves it (the same for every connection of a table; a worker gone
moves only its own tables)."""

from __future__ import annotations

from dungeon_guilds.app.tables.front import Front, Worker, owner, table_of


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


def test_tables_are_placed_on_the_workers_in_turn_and_stay():
    front = Front(None, 2, lambda slot, channel: None)
    for slot in (0, 1):
        front.workers[slot] = Worker(slot, 0, None)
        front.workers[slot].ready = True
    codes = [f"T{i:04d}" for i in range(30)]
    placed = [front.order(c)[0] for c in codes]
    assert placed.count(0) == placed.count(1) == 15  # a hash would split 30 tables unevenly
    assert [front.order(c)[0] for c in codes] == placed  # every page of a table: its worker
    del front.workers[1]  # worker 1 died: its tables on worker 0 until it is back
    assert {front.order(c)[0] for c in codes} == {0}
    front.workers[1] = Worker(1, 0, None)
    front.workers[1].ready = True
    assert [front.order(c)[0] for c in codes] == placed
