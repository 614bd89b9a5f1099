"""Issue 51, item 1: a budget per address, not only per connection. One address cannot exhaust
the server by opening many connections each under its own limits: its pages are counted
(``Limits.sockets_per_address``; beyond, the upgrade is refused with 429 before a websocket is
made), they share one message rate and one budget of ``open``s (each may parse a deck: the cheap
checks come first), a reserve of descriptors stays for new students and the teacher's page, and
the server raises its own open-file limit at start. Each simulated device has its own loopback
address, as each student's device has its own on a class network."""

from __future__ import annotations

import asyncio
import json
import resource
import time

import pytest
from tornado.httpclient import AsyncHTTPClient, HTTPRequest
from tornado.httpserver import HTTPServer
from tornado.testing import bind_unused_port
from tornado.websocket import websocket_connect

from dungeon_guilds.app import table_server
from dungeon_guilds.app.tables import protocol
from dungeon_guilds.app.tables.client import SeatClient
from dungeon_guilds.app.tables.limits import Bucket, Limits, Sockets, raise_fd_limit
from dungeon_guilds.app.tables.protocol import MAX_DECK, Conn

from tables_helpers import lobby_in, send

WS = "/dungeon-guilds/tables/ws"


class Server:
    def __init__(self, tmp_path, limits: Limits | None = None):
        self.app = table_server.make_app(tmp_path, code="teacher-owl-42", limits=limits)
        sock, self.port = bind_unused_port()
        self.http = HTTPServer(self.app)
        self.http.add_sockets([sock])
        self.url = f"ws://127.0.0.1:{self.port}{WS}"
        self.hub = self.app.hub

    def at(self, address: str) -> HTTPRequest:
        return HTTPRequest(self.url, network_interface=address)

    def stop(self):
        self.http.stop()
        self.hub.close()


async def idle_pile(server: Server, address: str, n: int, batch: int = 100) -> tuple[list, int]:
    """``n`` websockets tried from ``address``, ``batch`` at a time; (the ones open, the refused count)."""
    kept, refused = [], 0
    for start in range(0, n, batch):
        tries = await asyncio.gather(*(websocket_connect(server.at(address)) for _ in range(start, min(n, start + batch))),
                                     return_exceptions=True)
        kept += [t for t in tries if not isinstance(t, BaseException)]
        refused += sum(isinstance(t, BaseException) for t in tries)
    await asyncio.sleep(0.05)  # a page closed by the server after its upgrade is seen as closed
    alive = [c for c in kept if c.protocol is not None and c.close_code is None]
    return alive, refused + len(kept) - len(alive)


async def a_student_opens_a_table(server: Server, address: str) -> float:
    t0 = time.perf_counter()
    student = await SeatClient(server.at(address)).connect()
    await student.send({"op": "open", "seats": 3, "name": "Ann"})
    await student.wait(lambda m: m["op"] == "state", timeout=5)
    student.close()
    return time.perf_counter() - t0


async def _pile(tmp_path, n: int, per_address: int | None):
    server = Server(tmp_path, Limits(sockets_per_address=per_address) if per_address else None)
    try:
        t0 = time.perf_counter()
        alive, refused = await idle_pile(server, "127.0.0.7", n)
        piled = time.perf_counter() - t0
        joined = await a_student_opens_a_table(server, "127.0.0.2")
        teacher = await AsyncHTTPClient().fetch(f"http://127.0.0.1:{server.port}/dungeon-guilds/teacher")
        counted = server.hub.open_sockets.by_address.get("127.0.0.7", 0)
        for c in alive:
            c.close()
        return len(alive), refused, counted, joined, teacher.code, piled
    finally:
        server.stop()


def test_an_address_keeps_at_most_its_pages_and_a_new_student_joins_within_a_second(tmp_path, caplog):
    alive, refused, counted, joined, teacher, _ = asyncio.run(_pile(tmp_path, 60, per_address=12))
    assert alive == counted == 12 and refused == 48
    assert joined < 1.0 and teacher == 200
    assert caplog.text.count("class table pages from 127.0.0.7 refused") == 1  # told once, not 48 times


def test_1500_idle_sockets_from_one_address_at_the_default_limit(tmp_path):
    alive, refused, counted, joined, teacher, piled = asyncio.run(_pile(tmp_path, 1500, per_address=None))
    assert alive == counted == Limits.sockets_per_address and refused == 1500 - alive
    assert joined < 1.0 and teacher == 200
    assert piled < 15  # the refusals are cheap: no websocket is made for them


def test_the_reserve_keeps_room_for_a_new_address():
    sockets = Sockets(per_address=10, files=300, reserve=100)
    for k in range(200):  # 20 addresses fill the room of addresses already connected
        assert sockets.add(f"10.0.0.{k // 10}")
    assert sockets.admit("10.0.0.1") == "too_many_pages"
    assert sockets.admit("10.0.0.20") is None and sockets.add("10.0.0.20")  # a new student
    assert sockets.admit("10.0.0.20") == "server_full"  # …one page from the reserve, not ten
    for k in range(49):
        assert sockets.add(f"10.0.1.{k}")
    assert sockets.admit("10.0.2.1") == "server_full"  # half the reserve stays for the teacher and files
    sockets.remove("10.0.0.20")
    assert sockets.total == 249 and "10.0.0.20" not in sockets.by_address


def test_the_server_raises_its_open_file_limit_to_the_hard_limit():
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    try:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(1024, hard), hard))
        assert raise_fd_limit() == hard == resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


async def _crowd(tmp_path):
    """20 pages of one address, each under its own rate (5 a second), beside a normal table."""
    server = Server(tmp_path, Limits(address_messages_per_s=20, address_message_burst=20, refused_before_drop=10**6))
    try:
        normal = [await SeatClient(server.at(f"127.0.3.{i + 1}")).connect() for i in range(3)]
        await normal[0].send({"op": "open", "seats": 3, "name": "Ann"})
        code = (await normal[0].wait(lambda m: m["op"] == "seat"))["code"]
        for i, name in enumerate(("Bo", "Cy"), 1):
            await normal[i].send({"op": "join", "code": code, "name": name})
        for c in normal:
            await c.wait(lambda m: m["op"] == "state" and m["started"])
        crowd = [await SeatClient(server.at("127.0.0.8")).connect() for _ in range(20)]
        for _ in range(10):  # 20 × 5 a second: 100 a second from one address, 10 from each page
            await asyncio.gather(*(c.send({"op": "lang", "lang": "zh"}) for c in crowd))
            await asyncio.sleep(0.2)
        waits = []
        for c in normal:  # the normal table's setup, while the crowd is refused
            c.mark()
            t0, v = time.perf_counter(), c.state["version"]
            await c.send({"op": "act", "action": c.state["picks"]["1,2"]["targets"]["exhaust"]["action"], "version": v})
            await c.wait(lambda m: m["op"] == "state" and m["version"] > v)
            waits.append(time.perf_counter() - t0)
        await asyncio.sleep(0.2)
        told = sum(any(m.get("code") == "too_fast" for _, m in c.frames) for c in crowd)
        return told, waits
    finally:
        server.stop()


def test_pages_of_one_address_share_one_message_rate_beside_a_normal_table(tmp_path):
    told, waits = asyncio.run(_crowd(tmp_path))
    assert told >= 10  # each page was under its own rate (10 a second): the address's was spent
    assert max(waits) < 0.5


def test_opens_of_one_address_share_one_budget_and_cheap_checks_come_before_the_deck(tmp_path, monkeypatch):
    parsed = []
    real = protocol.parse_deck_text
    monkeypatch.setattr(protocol, "parse_deck_text", lambda *a: parsed.append(1) or real(*a))
    lobby = lobby_in(tmp_path, tables_per_address=2)
    opens = Bucket(Limits.opens_per_s, Limits.opens, clock=lambda: 0.0)  # the address's, shared
    bad_deck = "[[rooms]]\nname = 'x'\n" * 600  # ~14 KB that parses to nothing usable
    codes = [send(lobby, Conn(address="10.1.1.1", opens=opens), {"op": "open", "seats": 3, "name": "Ann",
                                                                    "deck": bad_deck[:MAX_DECK]}).reply["code"]
             for _ in range(20)]  # twenty connections of one address
    assert codes.count("deck_bad") == Limits.opens and codes.count("too_many_opens") == 20 - Limits.opens
    assert len(parsed) == Limits.opens
    long = send(lobby, Conn(address="10.1.1.2"), {"op": "open", "seats": 3, "name": "Bo", "deck": "x" * (MAX_DECK + 1)})
    assert long.reply["code"] == "deck_too_long" and len(parsed) == Limits.opens  # refused unread
    for k in range(2):
        assert send(lobby, Conn(address="10.1.1.3"), {"op": "open", "seats": 3, "name": "Cy"}).reply["op"] == "seat"
    third = send(lobby, Conn(address="10.1.1.3"), {"op": "open", "seats": 3, "name": "Cy", "deck": bad_deck})
    assert third.reply["code"] == "too_many_yours" and len(parsed) == Limits.opens  # the table count before the deck


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_new_refusal_has_words_in_both_languages(lang):
    from dungeon_guilds import i18n

    for code in ("too_many_opens", "deck_too_long", "too_many_pages", "server_full"):
        words = i18n.t(f"tables.refusal.{code}", lang, most=7)
        assert words and "tables.refusal" not in words


async def _toggles(tmp_path):
    """A seated page sends 40 ``lang`` toggles at once (each a whole board in the other language)."""
    server = Server(tmp_path, Limits(messages_per_s=100, message_burst=100, redraws=3, redraws_per_s=4))
    try:
        page = await SeatClient(server.at("127.0.0.9")).connect()
        await page.send({"op": "open", "seats": 3, "name": "Ann"})
        await page.send({"op": "bots"})
        await page.wait(lambda m: m["op"] == "state" and m["started"])
        await asyncio.sleep(0.2)
        page.mark()
        before, sent_in = len(page.frames), 0
        for k in range(40):
            text = '{"op": "lang", "lang": "%s"}' % ("zh", "en")[k % 2]
            sent_in += len(text)
            await page.send(text)
        await asyncio.sleep(0.1)
        soon = len(page.frames) - before
        last = await page.wait(lambda m: m["op"] == "state" and m["lang"] == "en", timeout=5)
        await asyncio.sleep(0.6)
        states = [m for _, m in page.frames[before:] if m["op"] == "state"]
        out = sum(len(r) for r in page.raw[before:])
        return soon, states, last, out
    finally:
        server.stop()


def test_lang_toggles_are_sent_within_the_address_budget_of_whole_boards(tmp_path):
    soon, states, last, out = asyncio.run(_toggles(tmp_path))
    assert soon <= 3  # the burst of whole boards; the 37 others wait…
    assert len(states) <= 5 and states[-1]["lang"] == "en" == last["lang"]  # …and are sent as one, in the last language
    assert out < 40 * 40_000 / 4  # a quarter of what 40 whole answers would cost at the least


def test_a_class_behind_one_address_raises_its_shared_budgets_with_its_pages(monkeypatch):
    monkeypatch.setenv("DUNGEON_GUILDS_SOCKETS_PER_ADDRESS", "128")
    limits = Limits.from_env()
    assert limits.sockets_per_address == 128 and limits.address_messages_per_s == 4 * Limits.address_messages_per_s
    assert limits.opens == 4 * Limits.opens and limits.redraws_per_s == 4 * Limits.redraws_per_s
    monkeypatch.setenv("DUNGEON_GUILDS_SOCKETS_PER_ADDRESS", "8")  # fewer pages: the budgets stay
    assert Limits.from_env().address_messages_per_s == Limits.address_messages_per_s


async def _resumes(tmp_path):
    """A seated page sends its own resume 30 times (each was answered with its whole state)."""
    server = Server(tmp_path, Limits(messages_per_s=100, message_burst=100))
    try:
        page = await SeatClient(server.at("127.0.0.10")).connect()
        await page.send({"op": "open", "seats": 3, "name": "Ann"})
        await page.send({"op": "bots"})
        await page.wait(lambda m: m["op"] == "state" and m["started"])
        await asyncio.sleep(0.2)
        before = len(page.raw)
        for _ in range(30):
            await page.send({"op": "resume", "code": page.code, "token": page.token})
        await asyncio.sleep(0.5)
        return [json.loads(r)["op"] for r in page.raw[before:]], sum(len(r) for r in page.raw[before:])
    finally:
        server.stop()


def test_a_repeated_resume_is_answered_with_the_seat_only(tmp_path):
    ops, sent = asyncio.run(_resumes(tmp_path))
    assert ops == ["seat"] * 30 and sent < 30 * 100  # ~50 bytes each, not a whole state (~30-60 KB)
