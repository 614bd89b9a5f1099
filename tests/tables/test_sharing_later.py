"""A process with no page of a table does not decode every version another process announces
(issue 52: ``table_server --workers`` serves a table's pages from one process): the newest text
waits (``Sharing.later``) until the table is needed (``settle``), and a table with a page here is
taken at once, its pages told."""

from __future__ import annotations

import asyncio
import json
from types import SimpleNamespace

from dungeon_guilds.app.tables.sharing import Sharing
from tables_helpers import lobby_in, seated_table, send


def hub_with_a_table(tmp_path):
    lobby = lobby_in(tmp_path)
    table, conns = seated_table(lobby, 3, seed=52)
    send(lobby, conns[0], {"op": "start", "version": table.version})
    shared = SimpleNamespace(tables={table.code: table}, saved={}, clock=lambda: 0.0, think_off_loop=False,
                             store=SimpleNamespace(shared=True, seen={table.code: table.version}))
    locks, pushed = {}, []
    hub = SimpleNamespace(lobby=shared, sockets={}, pushed=pushed, push=pushed.append,
                          lock=lambda code: locks.setdefault(code, asyncio.Lock()))
    return hub, table


def announced(table, version: int) -> str:
    return json.dumps({**table.to_dict(), "version": version})


def test_a_table_with_no_page_here_is_decoded_once_when_needed(tmp_path):
    hub, table = hub_with_a_table(tmp_path)
    sharing = Sharing(hub)
    v = table.version
    sharing.heard(table.code, v + 1, announced(table, v + 1))
    sharing.heard(table.code, v + 2, announced(table, v + 2))
    assert hub.lobby.tables[table.code] is table  # not decoded: nobody here to tell
    assert sharing.later[table.code][0] == v + 2 and not sharing.tasks
    sharing.heard(table.code, v + 1, announced(table, v + 1))  # an older one heard late changes nothing
    assert sharing.later[table.code][0] == v + 2
    sharing.settle(table.code)  # e.g. a page of it comes (Sharing.known)
    assert hub.lobby.tables[table.code].version == v + 2 == hub.lobby.store.seen[table.code]
    assert not sharing.later and hub.pushed == []


def test_a_table_with_a_page_here_is_taken_and_its_pages_told(tmp_path):
    hub, table = hub_with_a_table(tmp_path)
    hub.sockets[table.code] = {object()}  # a page of it on this process
    sharing = Sharing(hub)

    async def hear() -> None:
        sharing.heard(table.code, table.version + 1, announced(table, table.version + 1))
        await asyncio.gather(*sharing.tasks)

    asyncio.run(hear())
    assert hub.lobby.tables[table.code].version == table.version + 1
    assert not sharing.later and hub.pushed == [table.code]
