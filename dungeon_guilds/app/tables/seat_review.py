"""A student reviews their own class-table game (issue 50, item 4).

At game over the table page offers "Review my moves": the page sends ``review`` (no seat in it:
the server reviews the seat the page's connection proved with its token, and only that seat) and
asks again every few seconds until the review is ready; ``record`` answers the game's record
(public once the game is over, R6.2), which the page saves as a file.

* **Where.** The judge's review of that seat
  (:func:`~dungeon_guilds.analysis.judge_review.judge_review`, Play's budget, the table's models:
  each bot seat by its level, each person as ``"person"``) runs in the class reviews' worker
  process (:class:`~.class_review.ClassReviews` owns one :class:`SeatReviews` and lends it its
  pool), never on the server's event loop: the page stays usable. A seat's review comes before
  the class's reviews waiting.
* **Budget.** Play's (:func:`seat_budget`; ``$DUNGEON_GUILDS_REVIEW_WORLDS`` lowers it on a slow
  server).
* **Bounded.** One review a seat (asked again: its place in the queue, or the result); at most
  :data:`PER_ADDRESS` waiting or running for one client address and :data:`MAX_WAITING` in all
  (beyond: a refusal in words); :data:`KEPT` results kept in memory (the oldest go first; asked
  again after a restart, it is reviewed again).
* **What is kept.** Plain data, both languages (:func:`~dungeon_guilds.analysis.review_lesson.lesson_of`:
  whom the judge assumed, the costliest decisions, the best one, every decision with its headline
  and the teacher's numbers) and each lesson decision's board in words as that seat saw it
  (:func:`~dungeon_guilds.drawing.board_text.board_lines`); :func:`answer` words it for the page.
"""

from __future__ import annotations

import logging
import os
import time
from collections import OrderedDict, deque
from concurrent.futures import Executor, Future
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from html import escape
from typing import Any, Callable

from ... import i18n
from ...analysis.judge import Budget
from ...analysis.judge_review import judge_review
from ...analysis.opponents import models_for
from ...analysis.review_lesson import lesson_html, lesson_of
from ...drawing.board_text import board_lines
from ...money_html import dollars_as_text
from ...record_write import to_record
from .record_game import game_with_setup
from .refusal import TableRefusal
from .table import BOT, Table

WORLDS_ENV = "DUNGEON_GUILDS_REVIEW_WORLDS"  # a slow server's students' reviews: fewer worlds a move
MAX_WAITING = 8  # seats' reviews waiting in all
PER_ADDRESS = 2  # waiting or running for one client address (a pair sharing a laptop)
KEPT = 64  # results kept in memory
LANGS = ("en", "zh")
log = logging.getLogger(__name__)


@dataclass(frozen=True)
class SeatJob:
    """One seat of a finished game to review: the table's code, the record, the seat (0-based)
    and each seat's model (:func:`table_models`)."""

    code: str
    record: dict
    seat: int
    models: tuple[str, ...]


def table_models(table: Table) -> tuple[str, ...]:
    """Who played each seat, as the judge continues it: a bot seat by its level, a person as
    ``"person"`` (a person's seat a bot played while away stays a person's)."""
    return models_for({q: s.bot for q, s in enumerate(table.seats) if s.kind == BOT and s.bot}, len(table.seats))


def seat_budget() -> Budget:
    """Play's review budget (:class:`~dungeon_guilds.analysis.judge.Budget`: 48 worlds a move and
    48 fresh ones), or ``$DUNGEON_GUILDS_REVIEW_WORLDS`` worlds (8 to 48: a slow laptop serving a
    class answers sooner, its figures coarser — the details say how many games stand behind each)."""
    raw = os.environ.get(WORLDS_ENV, "").strip()
    if not raw:
        return Budget()
    if not raw.isdigit() or not 8 <= int(raw) <= 48:
        raise SystemExit(f"{WORLDS_ENV} must be a whole number from 8 to 48, not {raw!r}")
    n = int(raw)
    return Budget(worlds=n, min_worlds=min(16, n), check=n)


def review_seat(job: SeatJob, budget: Budget) -> dict[str, Any]:
    """The worker's job: the seat judged, its lesson in both languages with the lesson
    decisions' boards in words."""
    cpu0 = time.process_time()
    game = game_with_setup(job.record)
    review = list(judge_review(game, job.seat, budget, models=job.models))[-1].review
    lessons = {lang: lesson_of(review, lang) for lang in LANGS}
    shown = {it["index"] for it in lessons["en"]["costly"]} | (
        {lessons["en"]["best"]["index"]} if lessons["en"]["best"] else set())
    positions = {lang: {k: board_lines(review.decisions[k].state, lang, viewer=job.seat) for k in shown}
                 for lang in LANGS}
    return {"code": job.code, "seat": job.seat + 1, "lessons": lessons, "positions": positions,
            "cpu": round(time.process_time() - cpu0, 2)}


class SeatReviews:
    """The seats' reviews asked (called on the server's event loop; every method returns at
    once). ``pool``: the executor to run in (the class reviews' worker); ``job``: tests give a
    small judge."""

    def __init__(self, pool: Callable[[], Executor], budget: Budget | None = None, cap: int = MAX_WAITING,
                 per_address: int = PER_ADDRESS, job: Callable[[SeatJob, Budget], dict] = review_seat,
                 broken: Callable[[], None] = lambda: None):
        self.pool, self.cap, self.per_address, self.job = pool, cap, per_address, job
        self.budget = budget or seat_budget()
        self.broken = broken  # the worker was lost: the owner of the pool starts a new one
        self.done: OrderedDict[tuple[str, int], dict] = OrderedDict()
        self.failed: set[tuple[str, int]] = set()
        self.queue: deque[tuple[SeatJob, str]] = deque()
        self.running: tuple[tuple[str, int], str, Future] | None = None

    def _busy(self, address: str) -> int:
        mine = sum(1 for _job, a in self.queue if a == address)
        return mine + (1 if self.running and self.running[1] == address else 0)

    def status(self, key: tuple[str, int]) -> dict[str, Any] | None:
        """Where the review of ``key`` (code, seat) is: ready, failed, running, queued; None if never asked."""
        if key in self.done:
            return {"status": "ready", "review": self.done[key]}
        if key in self.failed:
            return {"status": "failed"}
        if self.running and self.running[0] == key:
            return {"status": "running"}
        for ahead, (job, _a) in enumerate(self.queue):
            if (job.code, job.seat) == key:
                return {"status": "queued", "ahead": ahead + (1 if self.running else 0)}
        return None

    def ask(self, table: Table, seat: int, address: str) -> dict[str, Any]:
        """The review of ``seat`` at ``table`` (finished), asked by a page from ``address``."""
        if not table.is_over:
            raise TableRefusal("review_not_over")
        key = (table.code, seat)
        self.pump()
        known = self.status(key)
        if known is not None:
            return known
        if self._busy(address) >= self.per_address:
            raise TableRefusal("review_busy", most=self.per_address)
        if len(self.queue) >= self.cap:
            raise TableRefusal("review_full")
        self.queue.append((SeatJob(table.code, to_record(table.game), seat, table_models(table)), address))
        self.pump()
        return self.status(key) or {"status": "failed"}

    def pump(self) -> None:
        """Take a finished review; start the next."""
        if self.running is not None and self.running[2].done():
            self._finished(self.running[0], self.running[2])
            self.running = None
        if self.running is None and self.queue:
            job, address = self.queue.popleft()
            self.running = ((job.code, job.seat), address, self.pool().submit(self.job, job, self.budget))

    def _finished(self, key: tuple[str, int], fut: Future) -> None:
        try:
            self.done[key] = fut.result()
        except Exception as err:  # noqa: BLE001 - a judge's bug or a lost worker: logged, the page told
            log.exception("the review of table %s seat %d failed", *key)
            self.failed.add(key)
            if isinstance(err, BrokenProcessPool):
                self.broken()
        while len(self.done) > KEPT:
            self.done.popitem(last=False)


def answer(reviews: SeatReviews | None, table: Table, seat: int, lang: str, address: str) -> dict[str, Any]:
    """The ``review`` reply to the page of ``seat``: its status in words, and once ready the
    lesson as HTML in ``lang`` (money as text)."""
    if reviews is None:
        raise TableRefusal("review_none")
    got = reviews.ask(table, seat, address)
    status = got["status"]
    reply: dict[str, Any] = {"op": "review", "status": status, "html": ""}
    if status == "ready":
        review = got["review"]
        lesson = lesson_html(review["lessons"][lang], lang, review["positions"][lang])
        reply["text"] = ""
        reply["html"] = dollars_as_text(f"<h2>{escape(i18n.t('judge.lesson_title', lang))}</h2>{lesson}")
    elif status == "queued":
        reply["text"] = i18n.t("judge.review_queued", lang, ahead=got["ahead"])
    else:
        reply["text"] = i18n.t("judge.review_failed" if status == "failed" else "judge.review_waiting", lang)
    return reply


def record_reply(table: Table, seat: int) -> dict[str, Any]:
    """The ``record`` reply: the finished game's record (public at game over, R6.2)."""
    if not table.is_over:
        raise TableRefusal("review_not_over")
    return {"op": "record", "code": table.code, "seat": seat + 1, "record": to_record(table.game)}


__all__ = ["KEPT", "MAX_WAITING", "PER_ADDRESS", "SeatJob", "SeatReviews", "WORLDS_ENV", "answer", "record_reply",
           "review_seat", "seat_budget", "table_models"]
