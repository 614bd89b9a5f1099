"""The front of ``table_server --workers`` (issue 52, app/tables/front.py): which table a request
names, and which worker serves it (the same for every connection of a table; a worker gone
moves only its own tables)."""

from __future__ import annotations

from dungeon_guilds.app.tables.front import owner, table_of


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
