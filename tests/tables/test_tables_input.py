"""Issue 37 items 4 and 6: clean input and the teacher's view of a table.

Names are NFKC-normalised, control and format characters (NUL, a zero-width space, a
right-to-left override) refused with a reason in the page's language, lengths counted in
characters; a CSV cell a name could start like a formula is written as text. The teacher's
page, CSV and records name the workshop lord and deck; the round log names a workshop lord by
its name in the page's language; the classmates' link is the server's LAN address when a page
is opened on the server's own computer."""

from __future__ import annotations

import csv
import io
import json
import random

import pytest

from dungeon_guilds.app.table_server import _rules_words, share_origin
from dungeon_guilds.app.tables import records
from dungeon_guilds.app.tables.protocol import Conn
from dungeon_guilds.app.tables.render import seat_message
from dungeon_guilds.app.tables.table import NAME_MAX, clean_name
from dungeon_guilds.cards import reference_deck
from dungeon_guilds.lords import LORDS_BY_ID

from tables_helpers import lobby_in, random_move, send

FORMULA = "=cmd|' /C calc'!A0"


@pytest.mark.parametrize("name", ["Ann\x00", "An\u200bn", "\u202eAnn", "Ann\x07", "A\ufeffnn"])
def test_hidden_and_control_characters_are_refused_in_words(tmp_path, name):
    lobby = lobby_in(tmp_path)
    for lang, word in (("en", "invisible"), ("zh", "看不見")):
        out = send(lobby, Conn(lang=lang), {"op": "open", "seats": 3, "name": name})
        assert out.reply["code"] == "name_hidden" and word in out.reply["reason"]
    assert lobby.tables == {}


def test_names_are_normalised_and_counted_in_characters(tmp_path):
    assert clean_name("Ａｎｎ") == "Ann"  # full-width letters are the same name
    assert clean_name("  Ann \t  Lee ") == "Ann Lee"
    assert clean_name("小" * NAME_MAX) == "小" * NAME_MAX  # 20 characters (60 bytes in UTF-8) fit
    with pytest.raises(ValueError):
        clean_name("小" * (NAME_MAX + 1))
    lobby = lobby_in(tmp_path)
    code = send(lobby, Conn(), {"op": "open", "seats": 3, "name": "Ann"}).reply["code"]
    for twin in ("Ａｎｎ", "ann", "ANN"):  # one "Ann" per table, however it is typed
        assert send(lobby, Conn(), {"op": "join", "code": code, "name": twin}).reply["code"] == "name_taken"


def finished_table(tmp_path, names, lord=None, deck=None):
    lobby = lobby_in(tmp_path)
    conns = [Conn() for _ in names]
    msg = {"op": "open", "seats": len(names), "name": names[0], "lord": lord, "deck": deck}
    table = lobby.tables[send(lobby, conns[0], msg).reply["code"]]
    for i, name in enumerate(names[1:], 1):
        assert send(lobby, conns[i], {"op": "join", "code": table.code, "name": name}).reply["op"] == "seat"
    rng = random.Random(2)
    while not table.is_over or table.showing is not None:
        if table.showing is not None:
            for conn in conns:
                send(lobby, conn, {"op": "continue"})
            continue
        seat, move = random_move(table, rng)
        send(lobby, conns[seat], {"op": "act", "action": move, "version": table.version})
    return lobby, table


def test_a_name_like_a_formula_is_text_in_the_teachers_csv(tmp_path):
    lobby, table = finished_table(tmp_path, [FORMULA, "+Bo", "@Cy"])
    rows = list(csv.reader(io.StringIO(records.games_csv([table]))))
    players = rows[1][rows[0].index("players")]
    assert players.startswith("'=cmd") and FORMULA in players
    assert all(not cell.startswith(records.FORMULA_START) for row in rows for cell in row)
    assert records.as_text("-3") == "'-3" and records.as_text("\tx") == "'\tx" and records.as_text(5) == 5


def gentle_dragon() -> str:
    return json.dumps(LORDS_BY_ID["red_dragon"].to_dict() | {"id": "gentle_dragon", "name_en": "Gentle Dragon",
                                                            "name_zh": "溫柔的龍"})


def test_the_teacher_and_the_round_log_name_the_workshop_lord_and_deck(tmp_path):
    deck = reference_deck().with_values(heal_costs=[0, 1, 1, 2, 2, 3]).to_toml().replace('name = "custom"',
                                                                                           'name = "Easy heals"')
    lobby, table = finished_table(tmp_path, ["Ann", "Bo", "Cy"], lord=gentle_dragon(), deck=deck)
    row = lobby.listing()[0]
    assert "Gentle Dragon" in _rules_words(row, "en") and "Easy heals" in _rules_words(row, "en")
    assert "溫柔的龍" in _rules_words(row, "zh")
    rows = list(csv.DictReader(io.StringIO(records.games_csv([table], "zh"))))
    assert rows[0]["lord"] == "溫柔的龍" and rows[0]["deck"] == "Easy heals"
    comment = records.records([table])[0]["comment"]
    assert "lord in round 1: Gentle Dragon" in comment and "deck: Easy heals" in comment
    for lang, name in (("en", "Gentle Dragon"), ("zh", "溫柔的龍")):
        log = seat_message(table, 0, lang)["log"]
        assert name in log and "gentle_dragon" not in log


def test_the_classmates_link_is_the_lan_address_when_the_server_listens_on_one():
    lan = lambda: "192.168.1.20"  # noqa: E731 - the address injected (no network needed)
    assert share_origin("127.0.0.1:8866", "http", "0.0.0.0", lan) == "http://192.168.1.20:8866"
    assert share_origin("localhost:8866", "http", "", lan) == "http://192.168.1.20:8866"
    assert share_origin("127.0.0.1:8866", "http", "10.0.0.5", lan) == "http://10.0.0.5:8866"
    assert share_origin("127.0.0.1:8866", "http", "127.0.0.1", lan) is None  # loopback only: nobody else can reach it
    assert share_origin("192.168.1.20:8866", "http", "0.0.0.0", lan) is None  # a classmate's page keeps its own
    assert share_origin("127.0.0.1:8866", "http", "0.0.0.0", lambda: None) is None  # no network: the page's own
