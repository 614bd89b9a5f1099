"""The table store's contract (issue 52, item 1; dungeon_guilds/app/tables/store.py), the same
tests against the JSON files and against Redis (a redis-server of the test's own on a free
loopback port, append-only file fsynced at every write; skipped, with the reason, only where
redis-server is not installed)."""

from __future__ import annotations

import asyncio
import json

import pytest

from dungeon_guilds.app.tables import local_redis
from dungeon_guilds.app.tables.store import Conflict, TableStore
from dungeon_guilds.app.tables.store_choice import open_store
from tables_helpers import lobby_in, seated_table, send


@pytest.fixture(scope="module")
def redis_url():
    if not local_redis.available():
        pytest.skip("redis-server is not installed (apt-get install redis-server): the Redis store is not tested")
    pytest.importorskip("redis", reason="redis-py is not installed (pip install 'dungeon-guilds[school]')")
    with local_redis.LocalRedis() as server:
        yield server.url


@pytest.fixture(params=["files", "redis"])
def make_store(request, tmp_path):
    """A function giving a store of the same tables (a second call: another process's view of them)."""
    made = []
    if request.param == "files":
        def make():
            made.append(TableStore(tmp_path / "tables"))
            return made[-1]
    else:
        url = request.getfixturevalue("redis_url")

        def make():
            made.append(open_store(url, tmp_path / "own"))
            return made[-1]
        make().sync.flushdb()  # each test starts from no tables
    yield make
    for store in made:
        if isinstance(store, TableStore):
            asyncio.run(store.aclose())  # its listeners forgotten
        else:
            store.sync.close()


def a_table(store, seed=5):
    lobby = lobby_in(store.dir / "scratch")
    table, conns = seated_table(lobby, 3, seed=seed)
    send(lobby, conns[0], {"op": "start", "version": table.version})
    return table


def text(table):
    return json.dumps(table.to_dict(), ensure_ascii=False)


def test_saved_tables_read_back_whole(make_store):
    store = make_store()
    table = a_table(store)
    store.save(table)
    again = make_store().load_all()
    assert [t.to_dict() for t in again] == [table.to_dict()]
    assert make_store().known(table.code) and not store.known("ZZZZZZ")


def test_closed_table_leaves_the_open_ones_and_stays_in_the_records(make_store):
    store = make_store()
    table = a_table(store)
    store.save(table)
    store.close(table)
    other = make_store()
    assert other.load_all() == [] and [t.code for t in other.load_closed()] == [table.code]
    assert other.known(table.code)  # a closed table's code is never drawn again


def test_a_code_not_the_servers_is_refused(make_store):
    with pytest.raises(ValueError):
        make_store().known("../etc")


def test_commit_checks_the_version_last_seen(make_store):
    """Two stores (two processes) read a table; one commits its change; the other's commit on the
    old version is refused (Conflict) and stores nothing; after fetching, it commits."""
    a, b = make_store(), make_store()
    table = a_table(a)
    a.save(table)
    b.load_all()

    async def race():
        v = table.version
        await a.commit(table.code, text(table).replace(f'"version": {v}', f'"version": {v + 1}'), v + 1)
        with pytest.raises(Conflict):
            await b.commit(table.code, text(table).replace(f'"version": {v}', f'"version": {v + 7}'), v + 7)
        fetched = await b.fetch(table.code)
        assert fetched.version == v + 1  # b's refused change was not stored
        await b.commit(table.code, text(table).replace(f'"version": {v}', f'"version": {v + 2}'), v + 2)
        assert (await a.versions()) == {table.code: v + 2}
        with pytest.raises(Conflict):  # a new table's code already taken
            await make_store().commit(table.code, text(table), v + 3)
        assert await a.fetch("ZZZZZZ") is None
    asyncio.run(race())


def test_every_other_store_hears_of_a_change_and_a_close(make_store):
    a, b = make_store(), make_store()
    table = a_table(a)

    async def hear():
        heard = []
        got = asyncio.Event()
        b.listen(lambda code, version, text: (heard.append((code, version, text is not None)), got.set()))
        a.listen(lambda code, version, text: heard.append(("a heard itself", version)))
        await asyncio.sleep(0.2)  # subscribed
        await a.commit(table.code, text(table), table.version)
        await asyncio.wait_for(got.wait(), 3)
        got.clear()
        a.close(table)
        await asyncio.wait_for(got.wait(), 3)
        await asyncio.sleep(0.1)
        await a.aclose()
        await b.aclose()
        return heard
    assert asyncio.run(hear()) == [(table.code, table.version, True), (table.code, None, False)]
