"""Issue 51, item 4: secret setup choices (R2.4) made at the same moment all count. Every seat
chooses its exhausted pair at once, so a choice made on a version another seat's choice has
moved past is still current for its seat (before, the second was refused as ``stale`` and its
pick cleared: in a class four students press at once). A seat's second choice, a version from
before the game began and a move in play on an old version stay refused."""

from __future__ import annotations

import asyncio

from tornado.httpclient import HTTPRequest
from tornado.httpserver import HTTPServer
from tornado.testing import bind_unused_port

from dungeon_guilds.app.table_server import make_app
from dungeon_guilds.app.tables.client import SeatClient

from tables_helpers import lobby_in, seated_table, send

WS = "/dungeon-guilds/tables/ws"


def test_choices_of_different_seats_on_one_version_all_count(tmp_path):
    lobby = lobby_in(tmp_path)
    table, conns = seated_table(lobby, 4, seed=3)
    seen = table.version  # what every page saw when the setup began
    pairs = ["exhaust 1 2", "exhaust 2 3", "exhaust 3 4", "exhaust 4 5"]
    for seat in (0, 1, 2):
        assert send(lobby, conns[seat], {"op": "act", "action": pairs[seat], "version": seen}).reply is None
    assert sorted(table.pending) == [0, 1, 2] and table.version == seen + 3
    again = send(lobby, conns[1], {"op": "act", "action": "exhaust 1 5", "version": seen})
    assert again.reply["code"] == "stale" and table.pending[1] == (2, 3)  # a replay: that seat has chosen
    again = send(lobby, conns[1], {"op": "act", "action": "exhaust 1 5", "version": table.version})
    assert again.reply["code"] == "already_chosen" and table.pending[1] == (2, 3)
    early = send(lobby, conns[3], {"op": "act", "action": pairs[3], "version": table.setup_from - 1})
    assert early.reply["code"] == "stale"  # a version from before the game began: the page saw no board
    assert send(lobby, conns[3], {"op": "act", "action": pairs[3], "version": seen}).reply is None
    assert not table.in_setup  # revealed to the engine in its order (R2.4)
    move = table.game.legal_moves()[0]
    old = send(lobby, conns[table.game.current], {"op": "act", "action": move, "version": seen})
    assert old.reply["code"] == "stale"  # in play a move names the version it was made on


def test_the_version_the_setup_began_at_is_saved(tmp_path):
    lobby = lobby_in(tmp_path)
    table, conns = seated_table(lobby, 3, seed=4)
    again = lobby_in(tmp_path).tables[table.code]
    assert again.setup_from == table.setup_from > 0


async def _four_at_once(tmp_path):
    app = make_app(tmp_path, code="teacher-owl-42")
    sock, port = bind_unused_port()
    http = HTTPServer(app)
    http.add_sockets([sock])
    url = f"ws://127.0.0.1:{port}{WS}"
    try:
        clients = [await SeatClient(HTTPRequest(url, network_interface=f"127.0.2.{i + 1}")).connect()
                   for i in range(4)]
        await clients[0].send({"op": "open", "seats": 4, "name": "Ann"})
        code = (await clients[0].wait(lambda m: m["op"] == "seat"))["code"]
        for i, name in enumerate(("Bo", "Cy", "Di"), 1):
            await clients[i].send({"op": "join", "code": code, "name": name})
        for c in clients:
            await c.wait(lambda m: m["op"] == "state" and m["started"])
        v = clients[0].state["version"]
        assert all(c.state["version"] == v for c in clients)
        for c in clients:
            c.mark()
        moves = [c.state["picks"]["1,2"]["targets"]["exhaust"]["action"] for c in clients]
        # the four frames written in one event-loop tick: the server reads them one after another
        await asyncio.gather(*(c.send({"op": "act", "action": m, "version": v}) for c, m in zip(clients, moves)))
        for c in clients:
            await c.wait(lambda m: m["op"] == "state" and m["phase_id"] == "dispatch", timeout=20)
        refusals = [m for c in clients for _, m in c.frames if m["op"] == "refused"]
        return refusals, app.hub.lobby.tables[code]
    finally:
        http.stop()
        app.hub.close()


def test_four_choices_sent_in_one_event_loop_tick_over_the_websocket_all_count(tmp_path):
    refusals, table = asyncio.run(_four_at_once(tmp_path))
    assert refusals == []
    assert not table.in_setup and len(table.game.exhaust_choices) == 4
