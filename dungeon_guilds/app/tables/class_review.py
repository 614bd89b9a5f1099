"""The class's mistakes (issue 38, item 6): every finished game of the class tables reviewed by
the judge in the background, each once, the result stored beside the tables.

* **Who is reviewed.** The people's seats of a finished game (a bot seat's decisions are not the
  class's), each with :func:`~dungeon_guilds.analysis.judge_review.judge_review` — the judge of
  the students' own review, its budget unchanged — so the marks are the judge's, never recomputed.
* **Where.** In one worker process of its own (``spawn``), at the lowest priority
  (:data:`NICENESS`, and Linux's idle scheduling class: the table server and its bots' worker
  come first on a busy machine), never on the server's event loop; the worker ends with the
  server. One game at a time.
* **The queue.** At most :data:`MAX_WAITING` games wait with their record; a finished game
  beyond the cap is counted as waiting and queued when it is noticed again with room in the
  queue (:meth:`ClassReviews.notice`: the server's tick notices its open tables, the teacher's
  page every table, closed ones too).
* **Stored.** The worker writes ``<tables dir>/reviews/<CODE>.json`` (atomically) beside the
  tables: each decision's kind, mark and loss of win chance, and for each kind the game's worst
  decision in words (en and zh: the position as the seat could see it, the move made, the
  judge's best and the headline). A restart reads these back and reviews no game twice; a file that cannot be
  read is reviewed again.
* **A student's own seat** (issue 50, item 4): :attr:`ClassReviews.seats` reviews a seat a page
  asks for (:mod:`.seat_review`) in the same worker, whether or not a teacher looks.
* **When.** Only once a teacher has opened the page with the teacher code (:attr:`armed`): a
  server nobody teaches from spends no CPU on reviews. From then on every finished game is
  reviewed as it is noticed.

:meth:`ClassReviews.summary` sums the stored games with
:func:`~dungeon_guilds.analysis.class_mistakes.tally` (issue 38's sum of judged reviews).
"""

from __future__ import annotations

import json
import logging
import multiprocessing
import os
import threading
import time
from collections import deque
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Callable, Iterable

from ... import i18n
from ...analysis.class_mistakes import MistakeGroup, class_mistakes, kind_of, tally
from ...analysis.judge import Budget
from ...analysis.judge_headline import headline_text
from ...analysis.judge_review import JudgedDecision, JudgedReview, judge_review
from ...drawing.board_text import board_lines
from ...game import Game
from ...record_write import to_record
from .record_game import game_with_setup
from .seat_review import SeatReviews
from .store import CODE_RE, write_atomically
from .table import HUMAN, Table

FOLDER = "reviews"
FORMAT = 1  # the stored review's layout; a file of another format is reviewed again
MAX_WAITING = 32  # games queued with their record at most
NICENESS = 19  # the lowest priority: people's moves and the bots' worker (niceness 10) come first
CURVE_WORLDS = 1  # the review's win-chance curve is not shown here: the fewest worlds it allows
LANGS = ("en", "zh")
log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Job:
    """A finished game to review: its table's code, record (the project's format), the people's
    seats (0-based) and when the table was opened (the games' order in the summary)."""

    code: str
    record: dict
    seats: tuple[int, ...]
    created: float


def job_of(table: Table) -> Job:
    seats = tuple(i for i, s in enumerate(table.seats) if s.kind == HUMAN)
    return Job(table.code, to_record(table.game), seats, table.created)


# ------------------------------------------------------------------ the worker process
def review_worker(server: int) -> None:
    """The review worker starts: the lowest priority, and it ends with the server. On Linux it
    is also put in the idle scheduling class (``SCHED_IDLE``): it runs on a CPU nothing else
    wants, and a CPU running only it counts as free for a server that wakes up — which matters
    when the server itself runs niced (a niceness of 19 does not go below 19)."""
    os.nice(NICENESS)
    if hasattr(os, "SCHED_IDLE"):
        try:
            os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
        except OSError as err:  # a system that refuses it: the niceness alone
            log.warning("the review worker stays in the normal scheduling class: %s", err)

    def watch() -> None:
        while os.getppid() == server:
            time.sleep(1.0)
        os._exit(0)

    threading.Thread(target=watch, name="server-watch", daemon=True).start()


def review_game(job: Job, budget: Budget, directory: str) -> dict:
    """The worker's job: the people's seats of ``job``'s game judged, the result stored in
    ``directory`` and returned (see :func:`stored_review`)."""
    cpu0 = time.process_time()
    game = game_with_setup(job.record)
    reviews = []
    for seat in job.seats:
        steps = list(judge_review(game, seat, budget, curve_worlds=CURVE_WORLDS))
        reviews.append(steps[-1].review)
    stored = stored_review(job, tuple(game.names), reviews, budget, time.process_time() - cpu0)
    write_review(Path(directory), job.code, stored)
    return stored


def _words(d: JudgedDecision, lang: str) -> dict[str, Any]:
    """The decision in words: the position as the seat saw it, the move made, the judge's best and
    the headline (issue 49: one idea in game words, :func:`~dungeon_guilds.analysis.judge_headline.headline_text`)."""
    return {"position": board_lines(d.state, lang, viewer=d.seat),
            "made": i18n.action_text(d.action, lang, d.state), "best": i18n.action_text(d.best.action, lang, d.state),
            "head": headline_text(d, lang)}


def _example(d: JudgedDecision, index: int, names: tuple[str, ...]) -> dict[str, Any]:
    """A decision in numbers and words, the seat numbered from 1."""
    return {"index": index, "seat": d.seat + 1, "name": names[d.seat], "round": d.round, "ply": d.ply,
            "mark": d.mark, "loss": d.made.loss, "loss_se": d.made.loss_se, "win": d.made.win,
            "best_win": d.best.win, "words": {lang: _words(d, lang) for lang in LANGS}}


def stored_review(job: Job, names: tuple[str, ...], reviews: list[JudgedReview], budget: Budget, cpu: float) -> dict:
    """What is kept of a game's reviews: every decision with a choice as ``[kind, mark, loss]``
    (in :func:`class_mistakes`' order) and, for each kind, the game's worst marked decision
    (:func:`class_mistakes`' example) with its ``index`` in that list and its words."""
    flat = [d for r in reviews for d in r.decisions if d.n_moves > 1]
    examples = {}
    for group in class_mistakes(reviews):
        if group.example is not None:
            d = group.example[1]
            k = next(i for i, x in enumerate(flat) if x is d)
            examples[group.kind] = _example(d, k, names)
    return {"format": FORMAT, "code": job.code, "created": job.created, "seats": [s + 1 for s in job.seats],
            "budget": asdict(budget), "cpu": round(cpu, 2),
            "decisions": [[kind_of(d), d.mark, d.made.loss] for d in flat], "examples": examples}


def write_review(directory: Path, code: str, stored: dict) -> None:
    """Write atomically (a temporary file, ``fsync``, ``os.replace``), as the tables are."""
    if not CODE_RE.match(code):
        raise ValueError(f"not a table code: {code!r}")
    write_atomically(directory / f"{code}.json", json.dumps(stored, ensure_ascii=False))


def load_reviews(directory: Path) -> dict[str, dict]:
    """The stored reviews (a file that cannot be read, or of another format, is left out: its
    game is reviewed again and the file replaced)."""
    out = {}
    for path in sorted(directory.glob("*.json")):
        try:
            stored = json.loads(path.read_text("utf-8"))
        except (OSError, ValueError) as err:
            log.warning("stored review %s could not be read (%s): its game is reviewed again", path, err)
            continue
        if isinstance(stored, dict) and stored.get("format") == FORMAT and stored.get("code") == path.stem:
            out[path.stem] = stored
    return out


# ------------------------------------------------------------------ the server's side
class ClassReviews:
    """The queue, the one worker and the stored reviews (called on the server's event loop:
    every method returns at once; the judging happens in the worker). ``job``/``executor``:
    tests give a fake judge or an executor of their own."""

    def __init__(self, directory: Path | str, budget: Budget = Budget(), cap: int = MAX_WAITING,
                 job: Callable[[Job, Budget, str], dict] = review_game, executor: Executor | None = None):
        self.dir = Path(directory)
        self.dir.mkdir(parents=True, exist_ok=True)
        self.budget, self.cap, self.job = budget, cap, job
        self.executor = executor
        self.done: dict[str, dict] = load_reviews(self.dir)
        self.queue: deque[Job] = deque()
        self.seen: set[str] = set()  # finished games noticed (reviewed or not)
        self.failed: set[str] = set()  # the judge failed on these (logged); not tried again this run
        self.running: tuple[str, Future] | None = None
        self.armed = False  # a teacher opened the page (see the module docstring)
        # issue 50, item 4: a student's review of their own seat, in the same worker, before the class's
        self.seats = SeatReviews(self._pool, broken=self._lost_worker)

    def _lost_worker(self) -> None:
        self.executor = None  # a new worker next time

    def _pool(self) -> Executor:
        if self.executor is None:
            self.executor = ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn"),
                                                initializer=review_worker, initargs=(os.getpid(),))
        return self.executor

    def notice(self, tables: Iterable[Table]) -> None:
        """Queue the finished games not reviewed yet (while the queue has room)."""
        busy = {j.code for j in self.queue} | ({self.running[0]} if self.running else set())
        for table in tables:
            code = table.code
            if not table.is_over:
                continue
            self.seen.add(code)
            if code in self.done or code in self.failed or code in busy or len(self.queue) >= self.cap:
                continue
            self.queue.append(job_of(table))
            busy.add(code)

    def pump(self, tables: Iterable[Table] = ()) -> None:
        """Notice ``tables``; take a finished review; start the next (once :attr:`armed`); the
        seats' reviews asked by students first (:class:`~.seat_review.SeatReviews`)."""
        self.seats.pump()
        self.notice(tables)
        if self.running is not None and self.running[1].done():
            self._finished(*self.running)
            self.running = None
        if self.armed and self.running is None and self.queue:
            job = self.queue.popleft()
            self.running = (job.code, self._pool().submit(self.job, job, self.budget, str(self.dir)))

    def _finished(self, code: str, fut: Future) -> None:
        try:
            self.done[code] = fut.result()
        except Exception as err:  # noqa: BLE001 - a judge's bug or a lost worker: logged, the others go on
            log.exception("the class review of table %s failed; it is not tried again until a restart", code)
            self.failed.add(code)
            if isinstance(err, BrokenProcessPool):
                self.executor = None  # a new worker next time

    def counts(self) -> dict[str, int]:
        """Games reviewed (stored), waiting (noticed, not reviewed yet), failed; seats and decisions reviewed."""
        return {"reviewed": len(self.done), "waiting": len(self.seen - set(self.done) - self.failed),
                "failed": len(self.failed), "seats": sum(len(s["seats"]) for s in self.done.values()),
                "decisions": sum(len(s["decisions"]) for s in self.done.values())}

    def summary(self) -> list[MistakeGroup]:
        """Every stored game's decisions summed by kind (games in the order their tables opened);
        a group's example is ``(code, the stored example)``."""
        def items():
            for stored in sorted(self.done.values(), key=lambda s: (s["created"], s["code"])):
                by_index = {e["index"]: e for e in stored["examples"].values()}
                for k, (kind, mark, loss) in enumerate(stored["decisions"]):
                    example = by_index.get(k)
                    yield kind, mark, loss, None if example is None else (stored["code"], example)
        return tally(items())

    def close(self) -> None:
        """Stop the worker (a review under way is dropped; it is done again after a restart)."""
        if self.executor is None:
            return
        # a ProcessPoolExecutor lets its worker finish the job it has (Python 3.14 adds
        # terminate_workers); a review takes tens of seconds, so the worker is ended here
        workers = list((getattr(self.executor, "_processes", None) or {}).values())
        self.executor.shutdown(wait=False, cancel_futures=True)
        for process in workers:
            process.terminate()
        self.executor = None


__all__ = ["ClassReviews", "FOLDER", "Job", "MAX_WAITING", "NICENESS", "load_reviews", "review_game",
           "stored_review", "write_review"]
