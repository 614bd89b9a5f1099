"""Class tables without a server (issue 26): opening, joining, bots, decks, limits, idle and
away seats, persistence across a restart. Setup choices are simultaneous and secret (R2.4)."""

from __future__ import annotations

import json
import random

import pytest

from dungeon_guilds import i18n
from dungeon_guilds.app.tables import records
from dungeon_guilds.app.tables.lobby import ALPHABET, CODE_LEN, Lobby
from dungeon_guilds.app.tables.protocol import Conn
from dungeon_guilds.app.tables.render import seat_message
from dungeon_guilds.app.tables.store import TableStore
from dungeon_guilds.cards import reference_deck
from dungeon_guilds.record import from_record

from tables_helpers import NAMES, Clock, lobby_in, random_move, seated_table, send


def play_out(lobby, table, conns, rng, stop=None):
    steps = 0
    while not table.is_over and (stop is None or steps < stop):
        seat, move = random_move(table, rng)
        out = send(lobby, conns[seat], {"op": "act", "action": move, "version": table.version})
        assert out.reply is None, out.reply
        steps += 1
    return steps


def test_open_join_and_play_a_whole_game(tmp_path):
    lobby = lobby_in(tmp_path)
    table, conns = seated_table(lobby, 4)
    assert len(table.code) == CODE_LEN and set(table.code) <= set(ALPHABET)
    assert table.game is not None and table.game.names == NAMES[:4]
    play_out(lobby, table, conns, random.Random(1))
    assert table.is_over
    replay = from_record(records.records([table])[0])
    assert replay.state.gold == table.game.state.gold


def test_setup_choices_wait_for_every_seat_R2_4(tmp_path):
    lobby = lobby_in(tmp_path)
    table, conns = seated_table(lobby, 3)
    gold = list(table.game.state.gold)
    send(lobby, conns[2], {"op": "act", "action": "exhaust 4 5", "version": table.version})
    send(lobby, conns[0], {"op": "act", "action": "exhaust 1 2", "version": table.version})
    # two seats chose, out of the engine's order: nothing reached the engine yet (gold unchanged)
    assert table.in_setup and table.game.state.gold == gold and table.pending == {2: (4, 5), 0: (1, 2)}
    again = send(lobby, conns[0], {"op": "act", "action": "exhaust 2 3", "version": table.version})
    assert again.reply["code"] == "already_chosen"
    send(lobby, conns[1], {"op": "act", "action": "exhaust 3 4", "version": table.version})
    assert not table.in_setup and table.game.exhaust_choices == {"Ann": (1, 2), "Bo": (3, 4), "Cy": (4, 5)}


def test_opener_fills_free_seats_with_bots_and_bots_play(tmp_path):
    lobby = lobby_in(tmp_path)
    conn = Conn()
    out = send(lobby, conn, {"op": "open", "seats": 4, "name": "Ann"})
    table = lobby.tables[out.reply["code"]]
    joiner = Conn()
    send(lobby, joiner, {"op": "join", "code": table.code, "name": "Bo"})
    assert send(lobby, joiner, {"op": "bots"}).reply["code"] == "opener_only"
    send(lobby, conn, {"op": "bots"})
    assert [s.kind for s in table.seats] == ["human", "human", "bot", "bot"]
    assert table.pending.keys() == {2, 3}  # the bots chose at once, in secret
    play_out(lobby, table, [conn, joiner, None, None], random.Random(2))
    assert table.is_over


def test_a_deck_from_the_workshop_plays_and_is_in_the_record(tmp_path):
    deck = reference_deck().with_values(heal_costs=[0, 1, 1, 2, 2, 3])
    lobby = lobby_in(tmp_path)
    table, conns = seated_table(lobby, 3, deck=deck.to_toml())
    assert not table.deck.is_reference and table.game.state.base_heal[5] == 3
    play_out(lobby, table, conns, random.Random(3))
    record = records.records([table])[0]
    assert "deck" in record and from_record(record).state.gold == table.game.state.gold
    bad = send(lobby, Conn(), {"op": "open", "seats": 3, "name": "X", "deck": "heal_costs = 3"})
    assert bad.reply["code"] == "deck_bad" and "levels" in bad.reply["reason"]


def test_restart_loses_no_game(tmp_path):
    clock = Clock()
    lobby = lobby_in(tmp_path, clock=clock)
    table, conns = seated_table(lobby, 4)
    rng = random.Random(4)
    play_out(lobby, table, conns, rng, stop=2)  # two secret choices pending
    tokens = [send(lobby, Conn(), {"op": "resume", "code": table.code, "token": "nope"}).reply]
    assert tokens[0]["code"] == "bad_token"
    saved = json.loads((tmp_path / f"{table.code}.json").read_text())
    assert saved["pending"] and "token" not in json.dumps(saved["seats"]).replace("token_hash", "")
    play_out(lobby, table, conns, rng, stop=20)
    reborn = Lobby(TableStore(tmp_path), clock=clock)  # the server started again
    again = reborn.tables[table.code]
    assert again.version == table.version and again.game.state.gold == table.game.state.gold
    assert again.pending == table.pending and again.names() == table.names()
    play_out(reborn, again, conns, rng)
    assert again.is_over


def test_limits_idle_and_too_many_tables(tmp_path):
    clock = Clock()
    lobby = lobby_in(tmp_path, clock=clock, max_tables=2, idle_s=60)
    seated_table(lobby, 3)
    seated_table(lobby, 3)
    third = Conn(lang="zh")
    out = send(lobby, third, {"op": "open", "seats": 3, "name": "Cy"})
    assert out.reply["code"] == "too_many_tables"
    assert out.reply["reason"] == i18n.t("tables.refusal.too_many_tables", "zh", most=2)
    clock.now += 61
    lobby.tick()
    assert not lobby.tables and len(list((tmp_path / "closed").glob("*.json"))) == 2
    assert send(lobby, third, {"op": "open", "seats": 3, "name": "Cy"}).reply["op"] == "seat"


def test_a_seat_away_is_played_by_a_bot_until_it_comes_back(tmp_path):
    clock = Clock()
    lobby = lobby_in(tmp_path, clock=clock, away_s=30)
    table, conns = seated_table(lobby, 3)
    for seat in range(3):
        table.seats[seat].connected = 1
    table.seats[1].connected, table.seats[1].away_since = 0, clock.now
    for seat in (0, 2):
        send(lobby, conns[seat], {"op": "act", "action": "exhaust 1 2", "version": table.version})
    assert table.in_setup and lobby.tick() == []  # not away long enough
    clock.now += 31
    assert lobby.tick() == [table] and not table.in_setup  # the bot chose for seat 2
    assert "Bo" in table.game.exhaust_choices
    table.seats[1].connected, table.seats[1].away_since = 1, None  # Bo is back: his seat again
    assert not table.bot_seat(1, clock.now, lobby.away_s)


def test_join_refusals_are_explained(tmp_path):
    lobby = lobby_in(tmp_path)
    table, conns = seated_table(lobby, 3)
    assert send(lobby, Conn(), {"op": "join", "code": table.code, "name": "Di"}).reply["code"] == "table_full"
    assert send(lobby, conns[0], {"op": "join", "code": table.code, "name": "Di"}).reply["code"] == "one_seat"
    lobby2 = lobby_in(tmp_path / "b")
    t2 = send(lobby2, Conn(), {"op": "open", "seats": 3, "name": "Ann"}).reply["code"]
    assert send(lobby2, Conn(), {"op": "join", "code": t2, "name": "Ann"}).reply["code"] == "name_taken"
    guesser = Conn()
    for _ in range(20):
        assert send(lobby2, guesser, {"op": "join", "code": "AAAAAA", "name": "Z"}).reply["code"] == "no_such_table"
    assert send(lobby2, guesser, {"op": "join", "code": t2, "name": "Z"}).reply["code"] == "too_many_codes"


def test_teacher_csv_row_per_finished_game(tmp_path):
    lobby = lobby_in(tmp_path)
    table, conns = seated_table(lobby, 3, rules={"lords": "none", "edition": "fr"})
    seated_table(lobby, 3)  # unfinished: not in the downloads
    play_out(lobby, table, conns, random.Random(5))
    rows = records.games_csv(lobby.tables.values()).splitlines()
    assert len(rows) == 2 and rows[0].startswith("table,lords,edition")
    res = table.game.result()
    assert rows[1].split(",")[:3] == [table.code, "none", "fr"]
    assert " | ".join(map(str, res.gold)) in rows[1]


def test_store_writes_only_its_own_codes(tmp_path):
    store = TableStore(tmp_path)
    with pytest.raises(ValueError):
        store._path("../../etc/passwd")
    lobby = Lobby(store)
    assert lobby.tables == {}


def test_seat_message_in_both_languages(tmp_path):
    lobby = lobby_in(tmp_path)
    table, _ = seated_table(lobby, 4)
    for lang in ("en", "zh"):
        msg = seat_message(table, 1, lang)
        assert msg["seat"] == 2 and msg["seats"][1]["you"] and "tables." not in json.dumps(msg, ensure_ascii=False)
        assert set(msg["targets"]) == {f"hand-{s}" for s in range(1, 6)}


def test_a_csv_deck_file_from_the_editor_opens_a_table(tmp_path):
    deck = reference_deck().with_values(heal_costs=[0, 1, 1, 2, 2, 3])
    out = send(lobby_in(tmp_path), Conn(), {"op": "open", "seats": 3, "name": "Ann", "deck": deck.to_csv(),
                                            "deck_format": "csv"})
    assert out.reply["op"] == "seat"


def test_a_lord_file_from_the_lord_builder_plays_round_1(tmp_path):
    from dungeon_guilds.lords import LORDS_BY_ID, lord_from_dict

    data = LORDS_BY_ID["red_dragon"].to_dict() | {"id": "gentle_dragon", "name_en": "Gentle Dragon"}
    lobby = lobby_in(tmp_path)
    conns = [Conn() for _ in range(3)]
    out = send(lobby, conns[0], {"op": "open", "seats": 3, "name": "Ann", "lord": json.dumps(data)})
    table = lobby.tables[out.reply["code"]]
    for i, name in ((1, "Bo"), (2, "Cy")):
        send(lobby, conns[i], {"op": "join", "code": table.code, "name": name})
    assert table.game.lords[0] == lord_from_dict(data) and table.game.state.lord.id == "gentle_dragon"
    reborn = Lobby(TableStore(tmp_path)).tables[table.code]
    assert reborn.lord == table.lord and reborn.game.lords == table.game.lords
    play_out(lobby, table, conns, random.Random(6))
    assert from_record(records.records([table])[0]).state.gold == table.game.state.gold
    bad = send(lobby, Conn(lang="zh"), {"op": "open", "seats": 3, "name": "X", "lord": '{"id": "x"}'})
    assert bad.reply["code"] == "lord_bad" and "effects" in bad.reply["reason"] and "城主檔" in bad.reply["reason"]


def test_after_a_restart_a_seat_nobody_reclaims_is_played_by_a_bot(tmp_path):
    clock = Clock()
    lobby = lobby_in(tmp_path, clock=clock)
    table, conns = seated_table(lobby, 3)
    for seat in (0, 1):
        send(lobby, conns[seat], {"op": "act", "action": "exhaust 1 2", "version": table.version})
    reborn = Lobby(TableStore(tmp_path), clock=clock, away_s=30)
    again = reborn.tables[table.code]
    for seat in (0, 1):
        again.seats[seat].connected = 1  # these two came back
    clock.now += 31
    assert reborn.tick() == [again] and not again.in_setup  # Cy never did: a bot chose for her


def test_a_name_with_markup_is_shown_as_text(tmp_path):
    lobby = lobby_in(tmp_path)
    out = send(lobby, Conn(), {"op": "open", "seats": 3, "name": "<img src=x>"})
    table = lobby.tables[out.reply["code"]]
    send(lobby, Conn(), {"op": "join", "code": table.code, "name": "Bo"})
    send(lobby, Conn(), {"op": "join", "code": table.code, "name": "Cy"})
    msg = seat_message(table, 1, "en")
    assert "<img" not in msg["board"] + msg["log"] and "&lt;img src=x&gt;" in msg["board"]


def test_a_move_during_the_setup_is_refused_naming_the_seat_that_sent_it(tmp_path):
    lobby = lobby_in(tmp_path)
    table, conns = seated_table(lobby, 3)
    out = send(lobby, conns[1], {"op": "act", "action": "place 1 1", "version": table.version})
    assert out.reply["code"] == "exhaust_first" and out.reply["reason"].startswith("Bo ")
