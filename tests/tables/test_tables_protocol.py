"""The table protocol under bad input (issue 26, item 5): 1,000 malformed, forged, replayed and
out-of-turn messages give 0 server errors, 0 state changes, and every one is refused with a
reason a player can read (English and 繁體中文). Among them: bot levels (issue 30) that do not
exist, for seats that do not exist, or sent after the start."""

from __future__ import annotations

import json
import random

from dungeon_guilds.app.tables.protocol import MAX_MESSAGE, Conn, handle

from tables_helpers import lobby_in, random_move, seated_table, send

JUNK = [None, True, 3.5, -1, 10**30, "", "x" * 50, [], {}, [1, 2], {"a": 1}, "ALL", "place 1 1", "\u0000", "🐉"]
LEVELS = ["grandmaster", "STRONG", "mcts", "first", "strong ", "greedy:0.5", "x" * 500, *JUNK]


def forged(rng: random.Random, table, conns, version: int) -> tuple[Conn, str]:
    """One bad message from a random page; the kinds a class could send, by accident or not."""
    kind = rng.randrange(13)
    seated = rng.choice(conns)
    stranger = Conn(lang=rng.choice(("en", "zh")))
    current = table.game.current if not table.in_setup else 0
    others = [c for i, c in enumerate(conns) if i != current] or conns
    if kind == 0:
        return stranger, rng.choice(["{", "[]", "null", "42", '"op"', "{\"op\": 5}", "\xff\xfe", "{}" * 3])
    if kind == 1:
        return stranger, json.dumps({"op": rng.choice(["", "delete", "eval", "OPEN", None, 7])})
    if kind == 2:  # not the seat to move: JUNK holds "place 1 1", which may be that seat's legal move
        return rng.choice(others), json.dumps({"op": "act", "action": rng.choice(JUNK), "version": version})
    if kind == 3:
        return seated, json.dumps({"op": "act", "action": "place 1 1", "version": rng.choice(JUNK + [version - 1])})
    if kind == 4:  # out of turn, a well-formed legal-looking move
        move = rng.choice(table.game.legal_moves() or ["place 1 1"]) if not table.in_setup else "place 1 1"
        return rng.choice(others), json.dumps({"op": "act", "action": move, "version": version})
    if kind == 5:  # a move for another player by name
        name = rng.choice(table.names())
        return rng.choice(others), json.dumps({"op": "act", "action": f"{name}: place 1 1", "version": version})
    if kind == 6:
        return stranger, json.dumps({"op": "resume", "code": table.code, "token": rng.choice(JUNK + ["forged"])})
    if kind == 7:
        return stranger, json.dumps({"op": "join", "code": rng.choice(JUNK + ["ZZZZZZ", "../../x"]), "name": "Eve"})
    if kind == 8:
        return stranger, json.dumps({"op": rng.choice(["act", "bots", "pick"]), "action": "place 1 1", "version": version})
    if kind == 9:
        return seated, json.dumps({"op": "pick", "strength": rng.choice(JUNK + [0, 6])})
    if kind == 10:
        return rng.choice(conns[1:]), json.dumps({"op": "bots"})
    if kind == 11:  # opponents by level (issue 30): an unknown level, a bad seat, or after the start
        levels = rng.choice([{"2": rng.choice(LEVELS)}, {"3": "strong", "4": rng.choice(LEVELS)},
                             {rng.choice(["0", "1", "7", "x", "", "02", "２"]): "strong"}, rng.choice(LEVELS),
                             {"2": "strong"}, {str(n): "beginner" for n in range(1, 9)}])
        return rng.choice(conns), json.dumps({"op": "bots", "levels": levels})
    return stranger, json.dumps({"op": "open", "seats": rng.choice(JUNK + [2, 7]), "name": rng.choice(JUNK),
                                 "rules": rng.choice([{"lords": "x"}, {"teams": "2v2"}, "rules", None])}) + \
        (" " * MAX_MESSAGE if rng.random() < 0.1 else "")


def test_1000_bad_messages_change_nothing_and_are_explained(tmp_path):
    lobby = lobby_in(tmp_path, max_tables=1)
    table, conns = seated_table(lobby, 4)
    rng = random.Random(26)
    sent = 0
    langs = {"en": 0, "zh": 0}
    codes: dict[str, int] = {}
    for step in range(40):  # play on between the bad messages: every phase of a game
        before = json.dumps(table.to_dict(), sort_keys=True)
        saved = (tmp_path / f"{table.code}.json").read_text()
        for _ in range(25):
            conn, raw = forged(rng, table, conns, table.version)
            conn.lang = rng.choice(("en", "zh"))
            out = handle(lobby, conn, raw)  # a server error would raise here
            sent += 1
            assert out.changed is None and out.reply is not None and out.reply["op"] == "refused", (raw, out)
            words = out.reply["reason"]
            assert words and not words.startswith(("tables.", "refusal.")), (raw, out.reply)
            langs[conn.lang] += 1
            codes[out.reply["code"]] = codes.get(out.reply["code"], 0) + 1
            assert (conn.lang == "zh") == any("\u4e00" <= c <= "\u9fff" for c in words), (conn.lang, words)
        assert json.dumps(table.to_dict(), sort_keys=True) == before
        assert (tmp_path / f"{table.code}.json").read_text() == saved and list(lobby.tables) == [table.code]
        for _ in range(3):  # after the game is over, bad messages keep coming
            if not table.is_over:
                seat, move = random_move(table, rng)
                assert send(lobby, conns[seat], {"op": "act", "action": move, "version": table.version}).reply is None
    assert table.is_over and sent == 1000 and min(langs.values()) > 400
    assert codes["bot_level_bad"] >= 10 and codes["started"] and codes["opener_only"], codes  # the levels' refusals were met


def test_a_replayed_move_is_refused(tmp_path):
    lobby = lobby_in(tmp_path)
    table, conns = seated_table(lobby, 3)
    for seat in range(3):
        send(lobby, conns[seat], {"op": "act", "action": f"exhaust {seat + 1} 5", "version": table.version})
    seat, move = table.game.current, table.game.legal_moves()[0]
    msg = {"op": "act", "action": move, "version": table.version}
    assert send(lobby, conns[seat], msg).reply is None
    again = send(lobby, conns[seat], msg).reply
    assert again["code"] == "stale" and table.game.ply == 4


def test_bad_bot_levels_before_the_start_change_nothing(tmp_path):
    """Issue 30: while the opener still chooses, 200 bad level messages (and the same from a
    classmate) leave the table waiting, unchanged; a good one then starts it."""
    lobby = lobby_in(tmp_path)
    opener, other = Conn(), Conn()
    code = send(lobby, opener, {"op": "open", "seats": 4, "name": "Ann"}).reply["code"]
    send(lobby, other, {"op": "join", "code": code, "name": "Bo"})
    table = lobby.tables[code]
    before = json.dumps(table.to_dict(), sort_keys=True)
    rng = random.Random(30)
    codes = set()
    bad = [x for x in LEVELS if x not in (None, {})]  # no levels at all is fine: every seat greedy
    for _ in range(200):
        levels = rng.choice([{"3": rng.choice(LEVELS)}, {"3": "strong", "4": rng.choice(LEVELS)},
                             {rng.choice(["0", "1", "7", "x", "", "02"]): "strong"}, rng.choice(bad)])
        conn = rng.choice([opener, other])
        conn.lang = rng.choice(("en", "zh"))
        out = send(lobby, conn, {"op": "bots", "levels": levels})
        assert out.changed is None and out.reply["op"] == "refused" and out.reply["reason"], (levels, out.reply)
        codes.add(out.reply["code"])
    assert json.dumps(table.to_dict(), sort_keys=True) == before and table.game is None
    assert codes == {"bot_level_bad", "bad_field", "opener_only"}
    assert send(lobby, opener, {"op": "bots", "levels": {"3": "strong", "4": "beginner"}}).reply is None
    assert [s.bot for s in table.seats] == ["", "", "strong", "beginner"]
