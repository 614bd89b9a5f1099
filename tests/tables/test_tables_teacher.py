"""The teacher's page (issue 26, item 4): protected by the code printed at start; lists every
table (code, rules/variant, seats, round, gold); downloads every finished game as records (JSON,
the project's format) and one CSV row per game. Also: the table page itself is served with its
texts in both languages and nothing from another host."""

from __future__ import annotations

import json
import random
import re
import tempfile
import urllib.parse

from tornado.testing import AsyncHTTPTestCase

from dungeon_guilds.app.table_server import make_app
from dungeon_guilds.record import from_record

from dungeon_guilds.app.tables.protocol import Conn

from tables_helpers import random_move, seated_table, send


class TeacherPage(AsyncHTTPTestCase):
    def get_app(self):
        self.tmp = tempfile.TemporaryDirectory()
        app = make_app(self.tmp.name, code="owl-42")
        lobby = app.hub.lobby
        self.done, conns = seated_table(lobby, 3, rules={"lords": "none"})
        rng = random.Random(3)
        while not self.done.is_over:
            seat, move = random_move(self.done, rng)
            send(lobby, conns[seat], {"op": "act", "action": move, "version": self.done.version})
        self.waiting, _ = seated_table(lobby, 4)
        opener = Conn()
        code = send(lobby, opener, {"op": "open", "seats": 3, "name": "Ann"}).reply["code"]
        send(lobby, opener, {"op": "bots", "levels": {"2": "strong", "3": "beginner"}})
        self.bots = lobby.tables[code]
        return app

    def tearDown(self):
        super().tearDown()
        self.tmp.cleanup()

    def post(self, path: str, code: str):
        form = self.fetch("/dungeon-guilds/teacher?lang=zh")
        assert form.code == 200 and "老師代碼" in form.body.decode()
        xsrf = re.search(r'name="_xsrf" value="([^"]+)"', form.body.decode()).group(1)
        cookie = form.headers.get_list("Set-Cookie")[0].split(";")[0]
        body = urllib.parse.urlencode({"_xsrf": xsrf, "teacher": code, "lang": "zh"})
        return self.fetch(path, method="POST", body=body, headers={"Cookie": cookie})

    def test_the_teacher_code_is_needed(self):
        wrong = self.post("/dungeon-guilds/teacher", "owl-41")
        assert wrong.code == 403 and "不是" in wrong.body.decode() and self.done.code not in wrong.body.decode()
        assert self.post("/dungeon-guilds/teacher/records.json", "").code == 403

    def test_every_table_listed(self):
        page = self.post("/dungeon-guilds/teacher", "owl-42").body.decode()
        for table in (self.done, self.waiting):
            assert table.code in page
        assert "不用城主" in page and "尚未開始" not in page.split(self.done.code)[1].split("</tr>")[0]
        gold = " · ".join(f"${g}" for g in self.done.game.state.gold)
        assert gold in page
        row = page.split(self.bots.code)[1].split("</tr>")[0]  # issue 30: each bot seat with its level
        names = self.bots.names()
        assert f"{names[1]}（第 3 級 · 高手機器人）" in row and f"{names[2]}（第 1 級 · 新手機器人）" in row

    def test_downloads(self):
        got = self.post("/dungeon-guilds/teacher/records.json", "owl-42")
        assert "attachment" in got.headers["Content-Disposition"]
        (record,) = json.loads(got.body)
        assert from_record(record).state.gold == self.done.game.state.gold
        rows = self.post("/dungeon-guilds/teacher/games.csv", "owl-42").body.decode().splitlines()
        assert len(rows) == 2 and rows[1].startswith(f"{self.done.code},none,zh")

    def test_the_table_page(self):
        page = self.fetch(f"/dungeon-guilds/tables/{self.waiting.code}")
        html = page.body.decode()
        assert page.code == 200 and "課堂牌桌" in html and "Class tables" in html
        assert not re.search(r'(src|href)="https?://', html)
        assert self.fetch("/dungeon-guilds/tables/static/tables.js").code == 200
        assert self.fetch("/dungeon-guilds/tables/static/../../table.py").code in (403, 404)
