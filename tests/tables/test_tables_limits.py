"""Issue 37 item 2: no student can stall another table. Misbehaving clients beside a normal
table on one real server (each simulated device on its own loopback address, as each student's
device has its own on a class network): a page that floods without reading is dropped (its seat
kept) while the normal table plays on; a pile of pages on one seat keeps at most
``Limits.sockets_per_seat``; one address opens at most ``tables_per_address`` tables; wrong table
codes are counted per address across reconnections; the teacher's page checks ``_xsrf`` on every
POST (also configured as Voila is, with no ``xsrf_cookies``), rate-limits wrong teacher codes
per address, and a weak configured teacher code stops the server."""

from __future__ import annotations

import asyncio
import urllib.parse

import pytest
from tornado.httpclient import AsyncHTTPClient, HTTPClientError, HTTPRequest
from tornado.httpserver import HTTPServer
from tornado.testing import bind_unused_port

from dungeon_guilds.app.table_server import make_app
from dungeon_guilds.app.tables.client import SeatClient, SilentPage
from dungeon_guilds.app.tables.limits import Bucket, Limits

WS = "/dungeon-guilds/tables/ws"
CODE = "teacher-owl-42"


def at(url: str, address: str) -> HTTPRequest:
    return HTTPRequest(url, network_interface=address)


class Server:
    def __init__(self, tmp_path, limits: Limits | None = None):
        self.app = make_app(tmp_path, code=CODE, limits=limits)
        sock, self.port = bind_unused_port()
        self.http = HTTPServer(self.app)
        self.http.add_sockets([sock])
        self.url = f"ws://127.0.0.1:{self.port}{WS}"
        self.hub = self.app.hub

    def stop(self):
        self.http.stop()


async def table_of_four(url: str, device: str = "127.0.1") -> list[SeatClient]:
    clients = [await SeatClient(at(url, f"{device}.{i + 1}")).connect() for i in range(4)]
    await clients[0].send({"op": "open", "seats": 4, "name": "Ann"})
    code = (await clients[0].wait(lambda m: m["op"] == "seat"))["code"]
    for i, name in enumerate(("Bo", "Cy", "Di"), 1):
        await clients[i].send({"op": "join", "code": code, "name": name})
    for c in clients:
        await c.wait(lambda m: m["op"] == "state" and m["started"])
    return clients


async def setup_moves(clients: list[SeatClient]) -> None:
    """Every seat makes its secret setup choice (four moves, each answered to every seat)."""
    for c in clients:
        state = c.state
        v = state["version"]
        for other in clients:
            other.mark()
        await c.send({"op": "act", "action": state["picks"]["1,2"]["targets"]["exhaust"]["action"], "version": v})
        for other in clients:
            await other.wait(lambda m: m["op"] == "state" and m["version"] > v, timeout=20)


async def _flood(tmp_path):
    # no rate and no budget of redraws stops it here (test_tables_addresses.py has those): only its send queue
    server = Server(tmp_path, Limits(messages_per_s=10_000, message_burst=10_000, send_queue=16,
                                     address_messages_per_s=10_000, address_message_burst=10_000,
                                     redraws=10_000, redraws_per_s=10_000))
    try:
        flood = await SilentPage("127.0.0.1", server.port, WS, "127.0.0.4").connect()  # never reads
        await flood.send({"op": "open", "seats": 4, "name": "Flo"})
        await flood.send({"op": "bots"})  # a game on: every state it asks for holds a whole board
        normal = await table_of_four(server.url)
        sent = 0
        for k in range(3000):  # each asks for a whole state (~40 KB) that the page never reads
            try:
                await flood.send({"op": "lang", "lang": ("zh", "en")[k % 2]})
            except OSError:  # the server has closed this page
                break
            sent += 1
            if k % 100 == 0:
                await asyncio.sleep(0.01)
        await setup_moves(normal)  # the normal table is answered while (and after) the flood runs
        flooder = [t for t in server.hub.lobby.tables.values() if t.seats[0].name == "Flo"][0]
        for _ in range(200):  # until the server has read enough of the flood to drop it (at most 20 s)
            socks = [s for s in server.hub.sockets.get(flooder.code, ()) if not s.dropped]
            if not socks:
                break
            await asyncio.sleep(0.1)
        return sent, socks, flooder, normal[0].state
    finally:
        server.stop()


def test_a_page_that_does_not_read_is_dropped_its_seat_kept_and_other_tables_play_on(tmp_path):
    sent, socks, flooder, normal = asyncio.run(_flood(tmp_path))
    assert socks == []  # the flooding page was dropped…
    assert flooder.seats[0].kind == "human" and flooder.seats[0].name == "Flo"  # …its seat kept (a page may resume it)
    assert normal["phase_id"] == "dispatch"  # the normal table's four setup moves all reached every seat


async def _too_fast(tmp_path):
    server = Server(tmp_path, Limits(messages_per_s=5, message_burst=10, refused_before_drop=30))
    try:
        c = await SeatClient(at(server.url, "127.0.0.5")).connect()
        for _ in range(60):
            await c.send({"op": "lang", "lang": "en"})
        await asyncio.sleep(0.5)
        return [m.get("code") for _, m in c.frames], c._reader.done()
    finally:
        server.stop()


def test_a_page_over_the_message_rate_is_refused_once_then_dropped(tmp_path):
    codes, closed = asyncio.run(_too_fast(tmp_path))
    assert codes.count("too_fast") == 1  # told once, in words; the rest ignored
    assert closed  # 30 more over the rate: the connection is closed


async def _pile(tmp_path):
    server = Server(tmp_path, Limits(sockets_per_seat=3))
    try:
        opener = await SeatClient(at(server.url, "127.0.0.6")).connect()
        await opener.send({"op": "open", "seats": 4, "name": "Ann"})
        await opener.wait(lambda m: m["op"] == "state")
        pile = []
        for _ in range(12):
            c = await SeatClient(at(server.url, "127.0.0.6")).connect()
            await c.send({"op": "resume", "code": opener.code, "token": opener.token})
            await c.wait(lambda m: m["op"] == "state")
            pile.append(c)
        await asyncio.sleep(0.3)
        table = server.hub.lobby.tables[opener.code]
        alive = [c for c in pile if not c._reader.done()]
        return table.seats[0].connected, len(server.hub.sockets[opener.code]), alive, pile
    finally:
        server.stop()


def test_a_pile_of_pages_on_one_seat_keeps_the_newest_few(tmp_path):
    connected, socks, alive, pile = asyncio.run(_pile(tmp_path))
    assert connected == 3 and socks == 3
    assert alive == pile[-3:]  # a reload replaces the oldest page


async def _tables_and_codes(tmp_path):
    server = Server(tmp_path, Limits(tables_per_address=2))
    try:
        replies = []
        for _ in range(3):  # one device opens three tables (a new connection each time)
            c = await SeatClient(at(server.url, "127.0.0.7")).connect()
            await c.send({"op": "open", "seats": 3, "name": "Ann"})
            replies.append((await c.wait(lambda m: m["op"] in ("seat", "refused")))["op"])
        other = await SeatClient(at(server.url, "127.0.0.8")).connect()
        await other.send({"op": "open", "seats": 3, "name": "Bo"})
        other_open = (await other.wait(lambda m: m["op"] in ("seat", "refused")))["op"]
        real = other.code
        guesses = []
        for conn in range(3):  # a guesser reconnecting: its budget follows its address
            g = await SeatClient(at(server.url, "127.0.0.9")).connect()
            for _ in range(10):
                g.mark()
                await g.send({"op": "join", "code": "ZZZZZZ", "name": "Guess"})
                guesses.append((await g.wait(lambda m: m["op"] == "refused"))["code"])
        g.mark()
        await g.send({"op": "join", "code": real, "name": "Guess"})  # even the right code: the budget is spent
        right = (await g.wait(lambda m: m["op"] in ("refused", "seat"))).get("code")
        friend = await SeatClient(at(server.url, "127.0.0.10")).connect()  # another device is not held back
        await friend.send({"op": "join", "code": real, "name": "Cy"})
        friend_op = (await friend.wait(lambda m: m["op"] in ("refused", "seat")))["op"]
        return replies, other_open, guesses, right, friend_op
    finally:
        server.stop()


def test_tables_per_address_and_a_code_budget_that_reconnecting_does_not_reset(tmp_path):
    replies, other_open, guesses, right, friend_op = asyncio.run(_tables_and_codes(tmp_path))
    assert replies == ["seat", "seat", "refused"] and other_open == "seat"
    assert guesses[:20] == ["no_such_table"] * 20 and set(guesses[20:]) == {"too_many_codes"}
    assert right == "too_many_codes" and friend_op == "seat"


def test_a_code_budget_comes_back_slowly():
    now = [0.0]
    bucket = Bucket(rate=1 / 30, burst=20, clock=lambda: now[0])
    assert sum(bucket.take() for _ in range(25)) == 20
    now[0] += 29
    assert not bucket.take()
    now[0] += 2
    assert bucket.take() and not bucket.take()


# ---------------------------------------------------------------------- the teacher's page
async def _teacher_posts(tmp_path):
    server = Server(tmp_path)
    client = AsyncHTTPClient()
    base = f"http://127.0.0.1:{server.port}/dungeon-guilds/teacher"
    try:
        page = await client.fetch(base)
        cookie = page.headers["Set-Cookie"].split(";")[0]
        xsrf = page.body.decode().split("name=\"_xsrf\" value=\"")[1].split('"')[0]

        async def post(code, with_xsrf=True, address="127.0.0.11"):
            fields = {"teacher": code, **({"_xsrf": xsrf} if with_xsrf else {})}
            req = HTTPRequest(base, method="POST", body=urllib.parse.urlencode(fields),
                              headers={"Cookie": cookie} if with_xsrf else {}, network_interface=address)
            try:
                return (await client.fetch(req)).code
            except HTTPClientError as err:
                return err.code

        out = {"no_xsrf": await post(CODE, with_xsrf=False), "right": await post(CODE)}
        out["wrong"] = [await post("guess-%04d" % i) for i in range(7)]
        out["right_after"] = await post(CODE)
        out["other_device"] = await post(CODE, address="127.0.0.12")
        return out
    finally:
        server.stop()


def test_the_teacher_page_checks_xsrf_and_limits_wrong_codes_per_address(tmp_path):
    out = asyncio.run(_teacher_posts(tmp_path))
    assert out["no_xsrf"] == 403 and out["right"] == 200
    assert out["wrong"] == [403] * 5 + [429] * 2  # five wrong codes, then wait
    assert out["right_after"] == 429 and out["other_device"] == 200


@pytest.mark.parametrize("code", ["teach", "aaaaaaaaaaaa", "1234512345"])
def test_a_weak_teacher_code_stops_the_server_with_the_reason(code, monkeypatch):
    from dungeon_guilds.app.table_server import teacher_code

    monkeypatch.setenv("DUNGEON_GUILDS_TEACHER_CODE", code)
    with pytest.raises(SystemExit, match="DUNGEON_GUILDS_TEACHER_CODE is too weak"):
        teacher_code()


def test_the_drawn_teacher_code_is_strong(monkeypatch):
    from dungeon_guilds.app.table_server import TEACHER_MIN_LENGTH, teacher_code

    monkeypatch.delenv("DUNGEON_GUILDS_TEACHER_CODE", raising=False)
    codes = {teacher_code() for _ in range(5)}
    assert len(codes) == 5 and all(len(c) == TEACHER_MIN_LENGTH for c in codes)
    monkeypatch.setenv("DUNGEON_GUILDS_TEACHER_CODE", "owl-and-fox-42")
    assert teacher_code() == "owl-and-fox-42"
