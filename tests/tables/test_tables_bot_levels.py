"""Opponents by level at a class table (issue 30, item 3): the opener picks each free seat's bot
from Play's levels (beginner / intermediate / strong) and named bots; the level plays that
seat, is saved with the table and read back after a restart, is shown to every seat in Play's
words (English and 繁體中文), named in the teacher's downloads; an unknown level is refused with a
reason and changes nothing. The server thinks for the strong level off its event loop
(``Table.think_off_loop``): the table stops before that decision and takes the move back only
while it is still due."""

from __future__ import annotations

import json
import random

from dungeon_guilds import i18n
from dungeon_guilds.analysis.bots import LEVELS, make_bot
from dungeon_guilds.app.tables import records
from dungeon_guilds.app.tables.lobby import Lobby
from dungeon_guilds.app.tables.protocol import Conn
from dungeon_guilds.app.tables.render import seat_message
from dungeon_guilds.app.tables.store import TableStore
from dungeon_guilds.app.tables.table import BOT_LEVELS, Table

from tables_helpers import Clock, lobby_in, random_move, send


def open_with_bots(lobby, levels, seats=4, joined=1):
    """A table of ``seats``: Ann opens, ``joined - 1`` classmates join, the opener sends ``levels``."""
    conns = [Conn() for _ in range(seats)]
    code = send(lobby, conns[0], {"op": "open", "seats": seats, "name": "Ann"}).reply["code"]
    for i, name in zip(range(1, joined), ("Bo", "Cy", "Di")):
        send(lobby, conns[i], {"op": "join", "code": code, "name": name})
    return lobby.tables[code], conns, send(lobby, conns[0], {"op": "bots", "levels": levels})


def play_out(lobby, table, conns, rng, stop=None):
    steps = 0
    while not table.is_over and (stop is None or steps < stop):
        seat, move = random_move(table, rng)
        assert send(lobby, conns[seat], {"op": "act", "action": move, "version": table.version}).reply is None
        steps += 1


def test_the_levels_are_plays_catalogue():
    assert BOT_LEVELS[:3] == LEVELS == ("beginner", "intermediate", "strong")
    assert "greedy" in BOT_LEVELS and "mcts" not in BOT_LEVELS
    for level in BOT_LEVELS:  # Play's words for each (strings/<lang>/bots.toml, [bot])
        assert i18n.has(f"bot.{level}", "en") and i18n.has(f"bot.{level}", "zh")


def test_the_opener_picks_each_free_seats_level_and_it_plays_that_seat(tmp_path):
    lobby = lobby_in(tmp_path)
    table, conns, out = open_with_bots(lobby, {"3": "strong", "4": "beginner"}, joined=2)
    assert out.reply is None and out.changed is table
    assert [(s.kind, s.bot) for s in table.seats] == [("human", ""), ("human", ""), ("bot", "strong"),
                                                      ("bot", "beginner")]
    # seat 3's secret setup choice (R2.4) is the strong bot's, asked as Play asks it
    st = table.game.state.copy()
    st.current = 2
    mine = make_bot("strong", seed=f"{table.seed}/2").choose(st, 2)
    assert table.pending[2] == (mine.strength, mine.other)
    play_out(lobby, table, conns, random.Random(3))
    assert table.is_over


def test_an_unpicked_free_seat_is_greedy_and_a_seat_taken_meanwhile_stays_a_person(tmp_path):
    lobby = lobby_in(tmp_path)
    table, _, out = open_with_bots(lobby, {"2": "strong", "3": "random"}, joined=2)
    assert out.reply is None
    assert [(s.kind, s.bot) for s in table.seats][1:] == [("human", ""), ("bot", "random"), ("bot", "greedy")]


def test_every_seat_sees_the_level_in_plays_words(tmp_path):
    lobby = lobby_in(tmp_path)
    table, _, _ = open_with_bots(lobby, {"2": "strong", "3": "intermediate", "4": "cooperator"})
    for lang, words in (("en", "level 3 · strong bot"), ("zh", "第 3 級 · 高手機器人")):
        assert words == i18n.t("bot.strong", lang)
        for seat in range(4):
            states = [s["state"] for s in seat_message(table, seat, lang)["seats"]]
            assert states[1:] == [i18n.t(f"bot.{b}", lang) for b in ("strong", "intermediate", "cooperator")]


def test_the_opener_is_offered_the_levels_before_the_start(tmp_path):
    lobby = lobby_in(tmp_path)
    conns = [Conn(), Conn()]
    code = send(lobby, conns[0], {"op": "open", "seats": 3, "name": "Ann"}).reply["code"]
    send(lobby, conns[1], {"op": "join", "code": code, "name": "Bo"})
    table = lobby.tables[code]
    for lang in ("en", "zh"):
        offer = seat_message(table, 0, lang)
        assert [x["id"] for x in offer["levels"]] == list(BOT_LEVELS) and offer["level_default"] == "greedy"
        assert offer["levels"][2]["label"] == i18n.t("bot.strong", lang)
        assert "levels" not in seat_message(table, 1, lang)  # only the opener picks


def test_an_unknown_level_is_refused_with_a_reason_and_changes_nothing(tmp_path):
    lobby = lobby_in(tmp_path)
    conns = [Conn(lang="zh"), Conn()]
    code = send(lobby, conns[0], {"op": "open", "seats": 3, "name": "Ann"}).reply["code"]
    table = lobby.tables[code]
    before, saved = json.dumps(table.to_dict(), sort_keys=True), (tmp_path / f"{code}.json").read_text()
    for levels, why in (({"2": "grandmaster"}, "bot_level_bad"), ({"2": "mcts"}, "bot_level_bad"),
                        ({"3": "STRONG"}, "bot_level_bad"), ({"2": 3}, "bad_field"), ({"7": "strong"}, "bad_field"),
                        ({"1": "strong"}, "bad_field"), ({"x": "strong"}, "bad_field"), (["strong"], "bad_field"),
                        ("strong", "bad_field"), ({"2": "strong", "3": "nobody"}, "bot_level_bad")):
        out = send(lobby, conns[0], {"op": "bots", "levels": levels})
        assert out.changed is None and out.reply["code"] == why, (levels, out.reply)
        assert out.reply["reason"] and "tables." not in out.reply["reason"]
    out = send(lobby, conns[0], {"op": "bots", "levels": {"2": "grandmaster"}})
    assert out.reply["reason"] == i18n.t("tables.refusal.bot_level_bad", "zh", level="grandmaster")
    assert "grandmaster" in out.reply["reason"] and "機器人等級" in out.reply["reason"]
    assert json.dumps(table.to_dict(), sort_keys=True) == before
    assert (tmp_path / f"{code}.json").read_text() == saved and table.game is None
    assert send(lobby, conns[0], {"op": "bots", "levels": {"2": "strong"}}).reply is None and table.game


def test_the_level_is_saved_and_read_back_after_a_restart(tmp_path):
    clock = Clock()
    lobby = lobby_in(tmp_path, clock=clock)
    table, conns, _ = open_with_bots(lobby, {"2": "strong", "3": "beginner", "4": "bully"})
    play_out(lobby, table, conns, random.Random(4), stop=3)
    saved = json.loads((tmp_path / f"{table.code}.json").read_text())
    assert [s.get("bot") for s in saved["seats"]] == [None, "strong", "beginner", "bully"]
    again = Lobby(TableStore(tmp_path), clock=clock).tables[table.code]  # the server started again
    assert [s.bot for s in again.seats] == ["", "strong", "beginner", "bully"]
    assert seat_message(again, 0, "en")["seats"] == seat_message(table, 0, "en")["seats"]
    # the restarted server thinks for the strong seat off its loop: every decision it waits for is
    # that seat's, at its level (a level lost in the file would be the greedy bot, played at once)
    reborn = Lobby(TableStore(tmp_path), clock=clock, think_off_loop=True)
    again, rng, asked = reborn.tables[table.code], random.Random(5), []
    while not again.is_over:
        job = again.bot_job(clock.now, None)
        if job is None:
            seat, move = random_move(again, rng)
            assert send(reborn, conns[seat], {"op": "act", "action": move, "version": again.version}).reply is None
            continue
        asked.append((job.seat, job.level))
        assert again.take_bot_move(job, job.think(), clock.now, None)
    assert set(asked) == {(1, "strong")} and len(asked) >= 5


def test_a_table_saved_before_levels_reads_back_with_greedy_bots(tmp_path):
    lobby = lobby_in(tmp_path)
    table, _, _ = open_with_bots(lobby, {})
    data = table.to_dict()
    for s in data["seats"]:
        s.pop("bot", None)  # the file a server of issue 26 wrote
    assert [s.bot for s in Table.from_dict(data).seats] == ["", "greedy", "greedy", "greedy"]
    data["seats"][1]["bot"] = "grandmaster"  # a hand-edited file: left alone (store logs it), not played
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / f"{table.code}.json").write_text(json.dumps(data))
    assert Lobby(TableStore(tmp_path / "b")).tables == {}


def test_the_teachers_downloads_name_the_bots_and_their_levels(tmp_path):
    lobby = lobby_in(tmp_path)
    table, conns, _ = open_with_bots(lobby, {"2": "intermediate", "3": "beginner"}, seats=3)
    play_out(lobby, table, conns, random.Random(6))
    (record,) = records.records([table])
    names = table.names()
    assert record["comment"] == f"class table {table.code}; bots: {names[1]}: intermediate, {names[2]}: beginner"
    rows = records.games_csv([table]).splitlines()
    assert rows[0].endswith(",bots") and rows[1].endswith(f"{names[1]}: intermediate | {names[2]}: beginner")
    row = lobby.listing()[0]["seats"]
    assert [s["bot"] for s in row] == ["", "intermediate", "beginner"]


def test_off_the_loop_the_table_waits_for_the_strong_bot_and_takes_its_move_while_due(tmp_path):
    clock = Clock()
    lobby = lobby_in(tmp_path, clock=clock, think_off_loop=True)
    table, conns, _ = open_with_bots(lobby, {"2": "strong", "3": "greedy", "4": "strong"})
    assert table.think_off_loop and set(table.pending) == {2}  # the greedy one chose; the strong ones wait
    job = table.bot_job(clock.now, None)
    assert (job.seat, job.level, job.setup) == (1, "strong", True)
    assert table.take_bot_move(job, job.think(), clock.now, None) and set(table.pending) == {1, 2}
    assert not table.take_bot_move(job, job.think(), clock.now, None)  # asked twice: taken once
    later = table.bot_job(clock.now, None)
    assert later.seat == 3
    send(lobby, conns[0], {"op": "act", "action": "exhaust 1 2", "version": table.version})
    assert table.in_setup  # seat 4 still thinking: nothing revealed
    version = table.version
    assert table.take_bot_move(later, later.think(), clock.now, None) and not table.in_setup
    assert table.version > version
    while not table.is_over:  # the rest of the game: the strong bots' moves handed back one by one
        job = table.bot_job(clock.now, None)
        if job is None:
            seat, move = random_move(table, random.Random(table.game.ply))
            send(lobby, conns[seat], {"op": "act", "action": move, "version": table.version})
            continue
        assert job.level == "strong" and not job.setup
        stale = type(job)(job.seat, job.level, job.seed, job.state, job.setup, job.ply - 1)
        assert not table.take_bot_move(stale, job.think(), clock.now, None)  # a move for an older table
        assert table.take_bot_move(job, job.think(), clock.now, None)
    assert table.is_over
