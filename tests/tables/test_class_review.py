"""The class's mistakes on the teacher's page (issue 38, item 6): every finished game of the class
tables reviewed by the judge in a worker process of its own, queued with a cap, stored beside
the tables (a restart reviews no game twice), summed by kind of decision, shown in en and zh and
downloadable (CSV cells that start like a formula written as text)."""

from __future__ import annotations

import copy
import csv
import io
import json
import random
import re
import tempfile
import urllib.parse
from concurrent.futures import Executor, Future

import pytest
from tornado.testing import AsyncHTTPTestCase

from dungeon_guilds.analysis.judge import MISTAKE, Budget
from dungeon_guilds.app.table_server import make_app
from dungeon_guilds.app.tables.class_review import FOLDER, ClassReviews, Job, game_with_setup, write_review
from dungeon_guilds.record_write import to_record
from dungeon_guilds.app.tables.mistakes_page import CSV_COLUMNS, mistakes_csv, mistakes_html, mistakes_json
from dungeon_guilds.app.tables.protocol import Conn
from dungeon_guilds.money_html import dollars_as_text
from html import escape
from dungeon_guilds.app.tables.refusal import TableRefusal
from dungeon_guilds.app.tables.seat_review import WORLDS_ENV, SeatReviews, seat_budget, table_models

from tables_helpers import lobby_in, random_move, seated_table, send

SMALL = Budget(worlds=8, min_worlds=8, check=8)  # the judge's smallest useful search: a test's budget


def finished_table(lobby, seed: int = 3, seats: int = 3):
    """A class table played to its end by its people (random legal moves: mistakes to find)."""
    return played(lobby, *seated_table(lobby, seats, rules={"lords": "none"}, seed=seed), seed)[0]


def played(lobby, table, conns, seed: int = 3):
    """``table`` played to its end by its people's pages ``conns``; returns (table, conns)."""
    rng = random.Random(seed)
    while not table.is_over:
        seat, move = random_move(table, rng)
        send(lobby, conns[seat], {"op": "act", "action": move, "version": table.version})
    return table, conns


def copies(table, n: int) -> list:
    """``n`` finished tables with codes of their own (the same game)."""
    out = []
    for k in range(n):
        other = copy.copy(table)
        other.code = f"GAME{k:02d}"
        out.append(other)
    return out


class Inline(Executor):
    """Runs a job when submitted (the plumbing's tests: no process)."""

    def __init__(self):
        self.jobs: list[str] = []

    def submit(self, fn, *args, **kwargs):
        self.jobs.append(args[0].code)
        fut: Future = Future()
        try:
            fut.set_result(fn(*args, **kwargs))
        except Exception as err:  # noqa: BLE001 - handed to the caller through the future
            fut.set_exception(err)
        return fut


def fake_review(job: Job, budget: Budget, directory: str) -> dict:
    """A stand-in for the judge (the plumbing only): one bump marked "mistake", named by the first seat."""
    from pathlib import Path

    words = {lang: {"position": ["Round 2 of 3, dispatch. $3"], "made": "bump", "best": "place"} for lang in ("en", "zh")}
    stored = {"format": 1, "code": job.code, "created": job.created, "seats": [s + 1 for s in job.seats],
              "budget": {}, "cpu": 0.0, "decisions": [["bump", "mistake", 0.3], ["top_room", "good", 0.0]],
              "examples": {"bump": {"index": 0, "seat": 1, "name": job.record["players"][0], "round": 2, "ply": 9,
                                    "mark": "mistake", "loss": 0.3, "loss_se": 0.05, "win": 0.2, "best_win": 0.5,
                                    "words": words}}}
    write_review(Path(directory), job.code, stored)
    return stored


def test_the_worker_process_judges_a_finished_game_and_the_summary_groups_it(tmp_path):
    """The real judge (its smallest budget), in the real worker process, on a real finished game."""
    lobby = lobby_in(tmp_path)
    table = finished_table(lobby)
    reviews = ClassReviews(tmp_path / FOLDER, budget=SMALL)
    try:
        reviews.pump([table])
        assert reviews.running is None and reviews.counts()["waiting"] == 1  # nobody asked yet: no CPU spent
        reviews.armed = True
        reviews.pump([table])
        code, fut = reviews.running
        assert code == table.code
        fut.result(timeout=120)
        reviews.pump([table])
    finally:
        reviews.close()
    assert reviews.counts() == {"reviewed": 1, "waiting": 0, "failed": 0, "seats": 3,
                                "decisions": len(reviews.done[table.code]["decisions"])}
    stored = json.loads((tmp_path / FOLDER / f"{table.code}.json").read_text("utf-8"))
    assert stored == reviews.done[table.code] and stored["seats"] == [1, 2, 3]
    assert [k for k, _, _ in stored["decisions"]].count("setup_pair") == 3  # each person's set-up pair (R2.4)
    groups = reviews.summary()
    assert sum(g.taken for g in groups) == len(stored["decisions"])
    assert sum(g.mistakes for g in groups) == sum(m == MISTAKE for _, m, _ in stored["decisions"]) > 0
    worst = groups[0]
    code, ex = worst.example
    assert code == table.code and 1 <= ex["seat"] <= 3 and ex["name"] == table.names()[ex["seat"] - 1]
    assert ex["loss"] == max(loss for k, m, loss in stored["decisions"] if k == worst.kind and m != "good")
    en, zh = mistakes_html(reviews, "en", ""), mistakes_html(reviews, "zh", "")
    assert "Games reviewed: 1" in en and f"table {table.code}" in en and f"seat {ex['seat']} · {ex['name']}" in en
    assert "已複盤的對局：1 局" in zh and "座位" in zh and "Games" not in zh
    assert "<span>&#36;" in en and not re.search(r"\$\d", en)  # money is text
    # issue 49: the example's headline in game words; its numbers folded for the teacher
    assert f"<b>{dollars_as_text(escape(ex['words']['en']['head']))}</b>" in en
    assert "Details (for the teacher)</summary>" in en and "詳細數字（給老師）" in zh and ex["words"]["zh"]["head"]


def test_the_record_is_replayed_with_its_setup_as_moves(tmp_path):
    """A record keeps the exhaust pairs in its header; the review plays them as decisions."""
    table = finished_table(lobby_in(tmp_path))
    game = game_with_setup(to_record(table.game))
    assert game.line == table.game.line and game.state.gold == table.game.state.gold
    assert [a.kind for a in game.line[:3]] == ["exhaust"] * 3


def test_the_queue_has_a_cap_and_the_rest_wait(tmp_path):
    games = copies(finished_table(lobby_in(tmp_path)), 5)
    inline = Inline()
    reviews = ClassReviews(tmp_path / FOLDER, cap=2, job=fake_review, executor=inline)
    reviews.notice(games)
    assert [j.code for j in reviews.queue] == ["GAME00", "GAME01"]
    assert reviews.counts()["waiting"] == 5  # beyond the cap: counted, queued when noticed again
    reviews.armed = True
    for _ in range(6):
        reviews.pump(games)
    assert inline.jobs == [f"GAME{k:02d}" for k in range(5)] and reviews.counts()["reviewed"] == 5
    assert reviews.counts()["waiting"] == 0 and not reviews.queue


def test_a_restart_reuses_the_stored_reviews(tmp_path):
    games = copies(finished_table(lobby_in(tmp_path)), 2)
    first = ClassReviews(tmp_path / FOLDER, job=fake_review, executor=Inline())
    first.armed = True
    for _ in range(3):
        first.pump(games)
    assert first.counts()["reviewed"] == 2

    def never(job, budget, directory):
        raise AssertionError(f"{job.code} reviewed twice")

    again = ClassReviews(tmp_path / FOLDER, job=never, executor=Inline())
    again.armed = True
    again.pump(games)
    again.pump(games)
    assert again.counts() == first.counts() and again.summary() == first.summary() and not again.failed
    (tmp_path / FOLDER / "GAME01.json").write_text("{broken", "utf-8")  # unreadable: reviewed again
    third = ClassReviews(tmp_path / FOLDER, job=fake_review, executor=Inline())
    third.armed = True
    third.pump(games)
    third.pump(games)  # the review's result is taken at the next pump
    assert third.counts()["reviewed"] == 2


def test_a_failed_review_is_logged_counted_and_not_retried(tmp_path, caplog):
    games = copies(finished_table(lobby_in(tmp_path)), 1)

    def broken(job, budget, directory):
        raise RuntimeError("a judge's bug")

    reviews = ClassReviews(tmp_path / FOLDER, job=broken, executor=Inline())
    reviews.armed = True
    for _ in range(3):
        reviews.pump(games)
    assert reviews.counts()["failed"] == 1 and reviews.counts()["waiting"] == 0
    assert "Games the judge could not review: 1" in mistakes_html(reviews, "en", "")
    assert "GAME00" in caplog.text


@pytest.mark.parametrize("name", ["=HYPERLINK(1)", "+1", "-2", "@SUM"])
def test_the_download_writes_a_formula_as_text(tmp_path, monkeypatch, name):
    import tables_helpers

    monkeypatch.setattr(tables_helpers, "NAMES", (name, *tables_helpers.NAMES[1:]))  # the first seat's name
    table = finished_table(lobby_in(tmp_path))
    reviews = ClassReviews(tmp_path / FOLDER, job=fake_review, executor=Inline())
    reviews.armed = True
    reviews.pump([table])
    reviews.pump([table])
    rows = list(csv.reader(io.StringIO(mistakes_csv(reviews, "zh"))))
    assert tuple(rows[0]) == CSV_COLUMNS and len(rows) == 3  # the header, then one row a kind
    bump = dict(zip(CSV_COLUMNS, rows[1]))
    assert bump["kind"] == "bump" and bump["kind_words"] == "替換別人的冒險者" and bump["mistakes"] == "1"
    assert bump["example_name"] == "'" + name and bump["example_seat"] == "1"
    data = json.loads(mistakes_json(reviews))
    assert data["reviewed"] == 1 and data["groups"][0]["example"]["name"] == name  # JSON keeps the name as given


class TeacherPanel(AsyncHTTPTestCase):
    """The panel and its downloads through the teacher's page (the server's tick starts a review)."""

    def get_app(self):
        self.tmp = tempfile.TemporaryDirectory()
        app = make_app(self.tmp.name, code="owl-42-teach")
        self.hub = app.hub
        self.hub.reviews = ClassReviews(self.hub.lobby.store.dir / FOLDER, job=fake_review, executor=Inline())
        self.done = finished_table(self.hub.lobby)
        return app

    def tearDown(self):
        super().tearDown()
        self.tmp.cleanup()

    def post(self, path: str, lang: str):
        form = self.fetch(f"/dungeon-guilds/teacher?lang={lang}")
        xsrf = re.search(r'name="_xsrf" value="([^"]+)"', form.body.decode()).group(1)
        cookie = form.headers.get_list("Set-Cookie")[0].split(";")[0]
        body = urllib.parse.urlencode({"_xsrf": xsrf, "teacher": "owl-42-teach", "lang": lang})
        return self.fetch(path, method="POST", body=body, headers={"Cookie": cookie})

    def test_the_panel_and_its_downloads(self):
        self.hub.tick()
        assert not self.hub.reviews.done  # no teacher has looked yet
        first = self.post("/dungeon-guilds/teacher", "en").body.decode()
        assert "Games reviewed: 0" in first and "still waiting: 1" in first
        self.hub.tick()  # the tick starts the review (here at once) ...
        self.hub.tick()  # ... and the next takes its result
        page = self.post("/dungeon-guilds/teacher", "zh").body.decode()
        assert "全班的失誤" in page and "替換別人的冒險者" in page and "已複盤的對局：1 局" in page
        assert "teacher/mistakes.csv" in page and "teacher/mistakes.json" in page
        got = self.post("/dungeon-guilds/teacher/mistakes.csv", "en")
        assert "attachment" in got.headers["Content-Disposition"] and got.body.decode().startswith("kind,")
        assert json.loads(self.post("/dungeon-guilds/teacher/mistakes.json", "en").body)["reviewed"] == 1


# ---------------------------------------------------------------------- issue 50, item 4: a student's own review
def test_a_seat_reviews_its_own_finished_game_and_another_token_cannot_get_it(tmp_path):
    """At game over a seat's page asks ``review`` and gets the judge's review of its own seat
    (headlines, the teacher's numbers folded), in its language; a forged token gets no seat and
    so no review; another seat's page gets only its own; ``record`` is the public record."""
    lobby = lobby_in(tmp_path)
    table, conns = seated_table(lobby, 3, rules={"lords": "none"}, seed=11)
    lobby.reviews = reviews = ClassReviews(tmp_path / FOLDER, executor=Inline())
    reviews.seats.budget = SMALL
    assert send(lobby, conns[0], {"op": "review"}).reply["code"] == "review_not_over"
    assert send(lobby, conns[0], {"op": "record"}).reply["code"] == "review_not_over"
    played(lobby, table, conns, 11)
    first = send(lobby, conns[0], {"op": "review"}).reply
    assert first["op"] == "review" and first["status"] == "running" and "reviewing your moves" in first["text"]
    send(lobby, conns[1], {"op": "lang", "lang": "zh"})
    mine = send(lobby, conns[0], {"op": "review"}).reply
    assert mine["status"] == "ready" and "The decisions that cost you most" in mine["html"]
    assert "Details (for the teacher)" in mine["html"] and "you, as an intermediate player" in mine["html"]
    assert "±" not in mine["html"] and not re.search(r"\$\d", mine["html"])  # money is text
    assert reviews.seats.done[table.code, 0]["seat"] == 1 and set(reviews.seats.done) == {(table.code, 0)}
    thief = Conn()
    assert send(lobby, thief, {"op": "resume", "code": table.code, "token": "x" * 32}).reply["code"] == "bad_token"
    assert send(lobby, thief, {"op": "review", "seat": 1}).reply["code"] == "no_seat"
    other = send(lobby, conns[1], {"op": "review", "seat": 1}).reply  # a seat field is not read: its own seat
    send(lobby, conns[1], {"op": "review"})
    other = send(lobby, conns[1], {"op": "review"}).reply
    assert other["status"] == "ready" and "讓你損失最多的決定" in other["html"] and "Details" not in other["html"]
    assert set(reviews.seats.done) == {(table.code, 0), (table.code, 1)}
    assert reviews.seats.done[table.code, 1]["lessons"]["en"] != reviews.seats.done[table.code, 0]["lessons"]["en"]
    record = send(lobby, conns[2], {"op": "record"}).reply
    assert record["seat"] == 3 and game_with_setup(record["record"]).state.gold == table.game.state.gold


class Never(Executor):
    """A worker that never finishes (the queue's bounds)."""

    def submit(self, fn, *args, **kwargs):
        return Future()


def test_one_review_at_a_time_per_seat_and_a_few_per_address(tmp_path):
    lobby = lobby_in(tmp_path)
    tables = [finished_table(lobby, seed=s) for s in (3, 4)]
    seats = SeatReviews(Never, per_address=2, cap=2)
    assert seats.ask(tables[0], 0, "10.0.0.5")["status"] == "running"
    assert seats.ask(tables[0], 0, "10.0.0.5")["status"] == "running"  # the same seat again: no second review
    assert seats.ask(tables[0], 1, "10.0.0.5") == {"status": "queued", "ahead": 1}
    with pytest.raises(TableRefusal) as busy:
        seats.ask(tables[1], 0, "10.0.0.5")
    assert busy.value.code == "review_busy" and "2 reviews" in busy.value.text("en")
    assert seats.ask(tables[1], 0, "10.0.0.6")["status"] == "queued"
    with pytest.raises(TableRefusal) as full:
        seats.ask(tables[1], 1, "10.0.0.7")
    assert full.value.code == "review_full" and len(seats.queue) == 2


def test_a_slow_server_may_give_the_students_reviews_fewer_worlds(monkeypatch):
    assert seat_budget() == Budget()
    monkeypatch.setenv(WORLDS_ENV, "8")
    assert seat_budget() == Budget(worlds=8, min_worlds=8, check=8)
    for bad in ("4", "49", "many"):
        monkeypatch.setenv(WORLDS_ENV, bad)
        with pytest.raises(SystemExit, match="from 8 to 48"):
            seat_budget()


def test_the_judge_continues_each_seat_as_the_table_played_it(tmp_path):
    lobby = lobby_in(tmp_path)
    conn = Conn()
    code = send(lobby, conn, {"op": "open", "seats": 3, "name": "Ann", "rules": {"lords": "none"}}).reply["code"]
    send(lobby, conn, {"op": "bots", "levels": {"2": "beginner", "3": "strong"}})
    assert table_models(lobby.tables[code]) == ("person", "beginner", "strong")
