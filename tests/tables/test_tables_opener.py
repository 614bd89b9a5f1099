"""Issue 51, item 5: names need a visible letter or digit; teacher codes that are common or
sequential stop the server with the reason in English and 繁體中文; "leave" frees the address's
table slot at once (the seat stays in the game; the page may open or join another table). The
opener's screen at 360 px: tests/browser/test_tables_phone.py."""

from __future__ import annotations

import asyncio

import pytest
from tornado.httpclient import HTTPRequest
from tornado.httpserver import HTTPServer
from tornado.testing import bind_unused_port

from dungeon_guilds.app.table_server import make_app, teacher_code
from dungeon_guilds.app.tables.client import SeatClient
from dungeon_guilds.app.tables.protocol import Conn
from dungeon_guilds.app.tables.table import clean_name
from dungeon_guilds.app.tables.refusal import TableRefusal
from dungeon_guilds.app.tables.teacher_code import weakness

from tables_helpers import lobby_in, send


@pytest.mark.parametrize("name", ["\u0301\u0301\u0301", "\u0300", "--", "...", "\u3000\u0301", "!?"])
def test_a_name_without_a_visible_letter_or_digit_is_refused(name):
    with pytest.raises(TableRefusal) as err:
        clean_name(name)
    assert err.value.code in ("name_no_letter", "name_missing")


@pytest.mark.parametrize("name,kept", [("Ann", "Ann"), ("小明", "小明"), ("7", "7"), ("José", "José"), ("Ｂｏ", "Bo")])
def test_names_with_a_letter_or_a_digit_pass(name, kept):
    assert clean_name(name) == kept


def test_a_name_of_combining_marks_only_is_refused_over_the_protocol_in_both_languages(tmp_path):
    lobby = lobby_in(tmp_path)
    for lang in ("en", "zh"):
        out = send(lobby, Conn(lang=lang), {"op": "open", "seats": 3, "name": "\u0301\u0302\u0303"})
        assert out.reply["code"] == "name_no_letter" and out.reply["reason"]
    assert lobby.tables == {}


@pytest.mark.parametrize("code,why", [("1234567890", "sequential"), ("abcdefghij", "sequential"),
                                      ("password12", "common"), ("qwertyuiop", "common"), ("0987654321", "sequential"),
                                      ("Teacher123", "common"), ("asdfghjk42", "sequential"), ("aaaaabbbbb", "short")])
def test_common_and_sequential_teacher_codes_are_refused_with_the_reason(code, why, monkeypatch):
    assert weakness(code) == why
    monkeypatch.setenv("DUNGEON_GUILDS_TEACHER_CODE", code)
    with pytest.raises(SystemExit) as stop:
        teacher_code()
    said = str(stop.value)
    assert "DUNGEON_GUILDS_TEACHER_CODE" in said and any("\u4e00" <= ch <= "\u9fff" for ch in said)  # en and zh
    assert said.splitlines()[0] != said.splitlines()[1]


@pytest.mark.parametrize("code", ["owl-and-fox-42", "teach-owl-42", "K7mQ2xW9pL", "red kite 1987 maple"])
def test_codes_nobody_would_guess_pass(code, monkeypatch):
    monkeypatch.setenv("DUNGEON_GUILDS_TEACHER_CODE", code)
    assert weakness(code) is None and teacher_code() == code


def test_leave_frees_the_address_table_slot_at_once(tmp_path):
    lobby = lobby_in(tmp_path, tables_per_address=1)
    conn = Conn(address="10.2.2.2")
    first = send(lobby, conn, {"op": "open", "seats": 3, "name": "Ann"}).reply["code"]
    again = send(lobby, Conn(address="10.2.2.2"), {"op": "open", "seats": 3, "name": "Ann"})
    assert again.reply["code"] == "too_many_yours"
    assert send(lobby, conn, {"op": "leave"}).reply == {"op": "left", "code": first}
    assert conn.seat is None and lobby.tables[first].seats[0].name == "Ann"  # the seat stays in the game
    assert send(lobby, conn, {"op": "open", "seats": 3, "name": "Ann"}).reply["op"] == "seat"  # at once
    assert send(lobby, Conn(), {"op": "leave"}).reply["code"] == "no_seat"


async def _leave_over_the_websocket(tmp_path):
    app = make_app(tmp_path, code="teacher-owl-42")
    sock, port = bind_unused_port()
    http = HTTPServer(app)
    http.add_sockets([sock])
    try:
        page = await SeatClient(HTTPRequest(f"ws://127.0.0.1:{port}/dungeon-guilds/tables/ws",
                                            network_interface="127.0.4.1")).connect()
        await page.send({"op": "open", "seats": 3, "name": "Ann"})
        await page.wait(lambda m: m["op"] == "state")
        table = app.hub.lobby.tables[page.code]
        held = table.seats[0].connected
        await page.send({"op": "leave"})
        await page.wait(lambda m: m["op"] == "left")
        return held, table.seats[0].connected, table.seats[0].away_since is not None, app.hub.lobby.owners
    finally:
        http.stop()
        app.hub.close()


def test_a_page_that_leaves_is_no_longer_its_seats_page(tmp_path):
    held, connected, away, owners = asyncio.run(_leave_over_the_websocket(tmp_path))
    assert held == 1 and connected == 0 and away and owners == {}
