"""Class tables served by the dashboard's own server (issue 26): routes for ``dungeon-guilds-voila``.

:func:`table_routes` gives the Tornado routes :class:`~dungeon_guilds.app.voila_app.DashboardVoila`
adds in ``init_handlers`` (and :func:`make_app` serves alone, for tests and the benchmark):

* ``/dungeon-guilds/tables`` (and ``/dungeon-guilds/tables/<code>``, the link a table shares):
  the table page, plain HTML and JavaScript from this server (no kernel, nothing from another
  host); it talks to the websocket below and draws only what the server sends for its seat.
* ``/dungeon-guilds/tables/ws``: the websocket (:mod:`.tables.protocol`); Tornado's default
  same-origin check stays.
* ``/dungeon-guilds/teacher``: the teacher's page (a code printed in the server's console at
  start, or ``DUNGEON_GUILDS_TEACHER_CODE``), listing every table, with the finished games'
  records (JSON) and a CSV row per game to download.

The tables are held by one :class:`~.tables.lobby.Lobby` in the server's process and saved in
``--tables-dir`` / ``DUNGEON_GUILDS_TABLES_DIR`` (:func:`~.tables.store.default_dir`).
"""

from __future__ import annotations

import json
import logging
import multiprocessing
import os
import secrets
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from html import escape
from pathlib import Path
from typing import Any

import tornado.ioloop
import tornado.web
import tornado.websocket

from .. import i18n
from .tables import protocol, records
from .tables.lobby import Lobby
from .tables.render import bot_words, seat_message
from .tables.store import TableStore
from .tables.table import AWAY_BOT, think

PAGE_DIR = Path(__file__).with_name("tables") / "static"
BOARD_KEYS = Path(__file__).parents[1] / "drawing" / "board_keys.js"
BASE = "dungeon-guilds"
TICK_MS = 2000
TEACHER_ENV = "DUNGEON_GUILDS_TEACHER_CODE"
BOT_NICENESS = 10  # the bots' worker yields the CPUs to the server (people's moves) when both are busy
log = logging.getLogger(__name__)


def bot_worker(server: int) -> None:
    """The bots' worker process starts: a lower priority (:data:`BOT_NICENESS`), and it ends
    with the server (a killed server leaves no worker behind)."""
    os.nice(BOT_NICENESS)

    def watch() -> None:
        while os.getppid() == server:
            time.sleep(1.0)
        os._exit(0)

    threading.Thread(target=watch, name="server-watch", daemon=True).start()


class TableHub:
    """The lobby and the open websockets of each table (who to push a new state to), and the
    one worker process where the slow bots (``table.SLOW_LEVELS``: the strong level's tree
    search) think, off the event loop and off its interpreter lock, so that other tables' moves
    are not held up (a thread held them up too: docs/dashboard.md has the figures). The worker
    is started (``spawn``: no copy of the server's threads) when a slow bot first thinks, at a
    lower priority (:data:`BOT_NICENESS`). A table has at most one bot thinking at a time."""

    def __init__(self, lobby: Lobby, teacher_code: str):
        self.lobby, self.teacher_code = lobby, teacher_code
        self.sockets: dict[str, set["TableSocket"]] = {}
        self.thinking: set[str] = set()  # codes of the tables whose bot thinks now
        self.pool: ProcessPoolExecutor | None = None

    def _pool(self) -> ProcessPoolExecutor:
        if self.pool is None:
            self.pool = ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn"),
                                            initializer=bot_worker, initargs=(os.getpid(),))
        return self.pool

    def close(self) -> None:
        """Stop the bots' worker process (if one was started)."""
        if self.pool is not None:
            self.pool.shutdown(wait=False, cancel_futures=True)
            self.pool = None

    def think(self, table) -> None:
        """Start the bot due at ``table`` thinking off the loop (if one is due and none is)."""
        if table.code in self.thinking or not self.lobby.think_off_loop:
            return
        job = table.bot_job(self.lobby.clock(), self.lobby.away_s)
        if job is not None:
            self.thinking.add(table.code)
            tornado.ioloop.IOLoop.current().spawn_callback(self._thought, table, job)

    async def _thought(self, table, job) -> None:
        try:
            action = await tornado.ioloop.IOLoop.current().run_in_executor(
                self._pool(), think, job.level, job.seed, job.state, job.seat)
        except Exception as err:  # noqa: BLE001 - a bot's bug or a lost worker: logged, the fast bot moves
            log.exception("a class table's bot failed to think; the %s bot moves instead", AWAY_BOT)
            if isinstance(err, BrokenProcessPool):
                self.pool = None  # a new worker next time
            action = think(AWAY_BOT, job.seed, job.state, job.seat)
        finally:
            self.thinking.discard(table.code)
        if self.lobby.tables.get(table.code) is not table:
            return  # the table closed meanwhile
        if table.take_bot_move(job, action, self.lobby.clock(), self.lobby.away_s):
            self.lobby.save(table)
            self.push(table.code)
        self.think(table)

    def attach(self, sock: "TableSocket") -> None:
        code, seat = sock.conn.code, sock.conn.seat
        if sock.attached == (code, seat):
            return
        self.detach(sock)
        self.sockets.setdefault(code, set()).add(sock)
        table = self.lobby.tables[code]
        table.seats[seat].connected += 1
        table.seats[seat].away_since = None
        sock.attached = (code, seat)

    def detach(self, sock: "TableSocket") -> None:
        if sock.attached is None:
            return
        code, seat = sock.attached
        sock.attached = None
        self.sockets.get(code, set()).discard(sock)
        table = self.lobby.tables.get(code)
        if table is not None:
            s = table.seats[seat]
            s.connected = max(0, s.connected - 1)
            if s.connected == 0:
                s.away_since = self.lobby.clock()
            self.push(code)

    def message(self, sock: "TableSocket") -> dict[str, Any]:
        table = self.lobby.tables[sock.conn.code]
        step = sock.conn.step[1] if sock.conn.step[0] == table.showing else 0  # a new resolution: its top
        return seat_message(table, sock.conn.seat, sock.conn.lang, sock.conn.selected,
                            self.lobby.clock(), self.lobby.away_s, step)

    def push(self, code: str, reset: bool = True) -> None:
        if code not in self.lobby.tables:
            return
        for sock in list(self.sockets.get(code, ())):
            if reset:
                sock.conn.selected = []
            sock.send(self.message(sock))

    def tick(self) -> None:
        for table in self.lobby.tick():
            self.push(table.code)
        for table in list(self.lobby.tables.values()):  # a slow bot due after a restart or an absence
            self.think(table)


class TableSocket(tornado.websocket.WebSocketHandler):
    """One page's websocket (Tornado's same-origin check kept)."""

    MAX_BYTES = 64 * 1024  # a longer frame closes the socket (a message is refused beyond protocol.MAX_MESSAGE)

    @property
    def max_message_size(self) -> int:
        return self.MAX_BYTES

    def initialize(self, hub: TableHub) -> None:
        self.hub = hub
        self.conn = protocol.Conn()
        self.attached: tuple[str, int] | None = None

    def on_message(self, message: Any) -> None:
        if not isinstance(message, str):
            message = None  # binary frames are refused like any malformed message
        try:
            out = protocol.handle(self.hub.lobby, self.conn, message)
        except Exception:  # noqa: BLE001 - a server bug: logged, the page gets plain words
            log.exception("class table message failed")
            self.send({"op": "refused", "code": "bad_message",
                       "reason": i18n.t("tables.refusal.bad_message", self.conn.lang)})
            return
        if out.reply is not None:
            self.send(out.reply)
        if self.conn.seat is not None and self.conn.code in self.hub.lobby.tables:
            self.hub.attach(self)
        if out.changed is not None:
            self.hub.push(out.changed.code)
            self.hub.think(out.changed)
        elif out.refresh:
            self.send(self.hub.message(self))

    def send(self, msg: dict[str, Any]) -> None:
        try:
            self.write_message(json.dumps(msg, ensure_ascii=False))
        except tornado.websocket.WebSocketClosedError:
            pass

    def on_close(self) -> None:
        self.hub.detach(self)


def _page(title_key: str, body: str, lang: str = "en") -> str:
    html_lang = "zh-Hant" if lang == "zh" else "en"
    return (f"<!DOCTYPE html><html lang='{html_lang}'><head><meta charset='utf-8'>"
            "<meta name='viewport' content='width=device-width, initial-scale=1'>"
            f"<title>{escape(i18n.t(title_key, lang))}</title>"
            f"<link rel='stylesheet' href='{{static}}/tables.css'></head><body>{body}</body></html>")


class TablePageHandler(tornado.web.RequestHandler):
    """The table page: its texts in both languages go with it; the script picks one."""

    def initialize(self, base: str) -> None:
        self.base = base

    def get(self, code: str | None = None) -> None:
        texts = {lang: {k[len("tables."):]: v for k, v in i18n.strings(lang).items() if k.startswith("tables.")}
                 for lang in protocol.LANGS}
        static = f"{self.base}{BASE}/tables/static"
        html = (PAGE_DIR / "tables.html").read_text("utf-8")
        html = html.replace("{static}", static).replace(
            "{texts}", escape(json.dumps(texts, ensure_ascii=False))).replace(
            "{ws}", f"{self.base}{BASE}/tables/ws")
        self.set_header("Content-Type", "text/html; charset=UTF-8")
        self.set_header("Cache-Control", "no-store")
        self.finish(html)


class TeacherHandler(tornado.web.RequestHandler):
    """The teacher's page: a form asking the teacher code; with it, the tables and downloads."""

    def initialize(self, hub: TableHub, base: str) -> None:
        self.hub, self.base = hub, base

    def _lang(self) -> str:
        lang = self.get_argument("lang", "en")
        return lang if lang in protocol.LANGS else "en"

    def get(self, what: str | None = None) -> None:
        self._form(self._lang(), "")

    def _form(self, lang: str, problem: str) -> None:
        t = lambda k: escape(i18n.t(f"tables.{k}", lang))  # noqa: E731
        note = f"<p role='alert' class='problem'>{escape(problem)}</p>" if problem else ""
        body = (f"<main><h1>{t('teacher_title')}</h1>{note}<form method='post'>{self.xsrf_form_html()}"
                f"<input type='hidden' name='lang' value='{lang}'><label>{t('teacher_code')} "
                f"<input name='teacher' autocomplete='off' required></label> <button>{t('teacher_enter')}</button>"
                "</form></main>")
        self._send(_page("tables.teacher_title", body, lang))

    def _send(self, html: str) -> None:
        self.set_header("Content-Type", "text/html; charset=UTF-8")
        self.set_header("Cache-Control", "no-store")
        self.finish(html.replace("{static}", f"{self.base}{BASE}/tables/static"))

    def post(self, what: str | None = None) -> None:
        lang = self._lang()
        given = self.get_body_argument("teacher", "")
        if not secrets.compare_digest(given.strip().encode(), self.hub.teacher_code.encode()):
            self.set_status(403)
            self._form(lang, i18n.t("tables.teacher_bad", lang))
            return
        everything = [*self.hub.lobby.tables.values(), *self.hub.lobby.store.load_closed()]
        if what == "records.json":
            self._download("class-table-records.json", "application/json",
                           json.dumps(records.records(everything), ensure_ascii=False, indent=1))
        elif what == "games.csv":
            self._download("class-table-games.csv", "text/csv; charset=UTF-8", records.games_csv(everything))
        else:
            self._send(_page("tables.teacher_title", teacher_body(self, lang, given), lang))

    def _download(self, name: str, kind: str, text: str) -> None:
        self.set_header("Content-Type", kind)
        self.set_header("Content-Disposition", f'attachment; filename="{name}"')
        self.finish(text)


def _rules_words(row: dict, lang: str) -> str:
    r = row["rules"]
    parts = [i18n.t(f"tables.lords_{r['lords']}", lang), i18n.t(f"tables.edition_{r['edition']}", lang)]
    if r.get("teams"):
        parts.append(r["teams"])
    if r.get("npc"):
        parts.append(i18n.t("tables.npc", lang))
    deck = i18n.t("tables.deck_reference", lang) if row["deck"] == "reference" else row["deck"]
    return " · ".join(parts + [deck])


def _seat_words(seat: dict, lang: str) -> str:
    if seat["bot"]:
        return i18n.t("tables.seat_with_bot", lang, name=seat["name"], bot=bot_words(seat["bot"], lang))
    return seat["name"] or i18n.t("tables.free_seat", lang)


def teacher_body(handler: TeacherHandler, lang: str, code: str) -> str:
    t = lambda k: escape(i18n.t(f"tables.{k}", lang))  # noqa: E731
    rows = []
    for row in handler.hub.lobby.listing():
        seats = i18n.join_list((escape(_seat_words(s, lang)) for s in row["seats"]), lang)
        rnd = t("not_started") if row["round"] is None else str(row["round"])
        gold = "" if row["gold"] is None else " · ".join(f"${g}" for g in row["gold"])
        rows.append(f"<tr><td>{row['code']}</td><td>{escape(_rules_words(row, lang))}</td><td>{seats}</td>"
                    f"<td>{rnd}</td><td>{gold}</td><td>{t('yes') if row['over'] else t('no')}</td></tr>")
    head = "".join(f"<th scope='col'>{t(k)}</th>" for k in ("col_code", "col_rules", "col_seats", "col_round",
                                                            "col_gold", "col_over"))
    table = (f"<table><thead><tr>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table>" if rows
             else f"<p>{t('teacher_none')}</p>")
    hidden = f"{handler.xsrf_form_html()}<input type='hidden' name='teacher' value='{escape(code)}'>"
    forms = "".join(f"<form method='post' action='{handler.base}{BASE}/teacher/{path}'>{hidden}"
                    f"<button>{t(key)}</button></form>"
                    for path, key in (("records.json", "teacher_records"), ("games.csv", "teacher_csv")))
    return f"<main><h1>{t('teacher_title')}</h1>{table}<div class='downloads'>{forms}</div></main>"


def teacher_code() -> str:
    return os.environ.get(TEACHER_ENV, "").strip() or secrets.token_hex(4)


def make_hub(tables_dir: str | Path | None = None, code: str | None = None, think_off_loop: bool = True) -> TableHub:
    """The lobby (tables read back from ``tables_dir``) and its websockets; the teacher code is
    printed to the console. ``think_off_loop``: the slow bots think in the hub's thread."""
    hub = TableHub(Lobby.from_env(TableStore(tables_dir), think_off_loop), code or teacher_code())
    print(f"Class tables: {len(hub.lobby.tables)} table(s) read back from {hub.lobby.store.dir}; "
          f"teacher code: {hub.teacher_code}", flush=True)
    return hub


def table_routes(base: str, hub: TableHub) -> list[tuple]:
    """The Tornado routes of the class tables under ``base`` (the server's URL prefix, ``/``)."""
    root = f"{base}{BASE}"
    return [
        (f"{root}/tables/ws", TableSocket, {"hub": hub}),
        # the board's keyboard module, one file with the widget board (drawing/board_keys.js)
        (f"{root}/tables/static/(board_keys\\.js)", tornado.web.StaticFileHandler, {"path": str(BOARD_KEYS.parent)}),
        (f"{root}/tables/static/(.*)", tornado.web.StaticFileHandler, {"path": str(PAGE_DIR)}),
        (rf"{root}/tables/?([A-Za-z0-9]{{0,12}})", TablePageHandler, {"base": base}),
        (f"{root}/teacher/?(records.json|games.csv)?", TeacherHandler, {"hub": hub, "base": base}),
    ]


def start_ticks(hub: TableHub) -> tornado.ioloop.PeriodicCallback:
    """Idle tables close and bots play away seats' turns, checked every :data:`TICK_MS`."""
    ticker = tornado.ioloop.PeriodicCallback(hub.tick, TICK_MS)
    ticker.start()
    return ticker


def make_app(tables_dir: str | Path | None = None, code: str | None = None,
             think_off_loop: bool = True) -> tornado.web.Application:
    """The class tables alone in a Tornado application (tests, ``benchmarks/bench_tables.py``)."""
    hub = make_hub(tables_dir, code, think_off_loop)
    app = tornado.web.Application(table_routes("/", hub), xsrf_cookies=True,
                                  cookie_secret=secrets.token_hex(16), websocket_max_message_size=64 * 1024)
    app.hub = hub  # type: ignore[attr-defined]
    return app


def main(argv: list[str] | None = None) -> None:
    """``python -m dungeon_guilds.app.table_server --port 8870 --tables-dir DIR``: the class
    tables alone (no notebooks), on 127.0.0.1 unless ``--ip`` says otherwise."""
    import argparse
    import asyncio

    parser = argparse.ArgumentParser(description=main.__doc__)
    parser.add_argument("--port", type=int, default=8870)
    parser.add_argument("--ip", default="127.0.0.1")
    parser.add_argument("--tables-dir", default=None, help="where tables are saved (default: see store.default_dir)")
    parser.add_argument("--bots-on-loop", action="store_true",
                        help="every bot thinks on the event loop (benchmarks/bench_tables.py --compare)")
    args = parser.parse_args(argv)

    async def serve() -> None:
        app = make_app(args.tables_dir, think_off_loop=not args.bots_on_loop)  # the tables only: no Voila, no kernels
        app.listen(args.port, args.ip)
        start_ticks(app.hub)
        print(f"Class tables on http://{args.ip}:{args.port}/{BASE}/tables", flush=True)
        await asyncio.Event().wait()

    asyncio.run(serve())


__all__ = ["TableHub", "main", "make_app", "make_hub", "start_ticks", "table_routes"]

if __name__ == "__main__":
    main()
