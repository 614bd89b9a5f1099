"""The explorer's games (issue 41): play versions of the game with common random numbers and
keep one small record a game (standard library only).

Game *g* of every version is played with the game seed ``"seed/g"`` (the same room shuffle and
lord draw positions, the same bot streams: :func:`~dungeon_guilds.analysis.play.play_game`),
so two versions differ only by their knob. The work is split into chunks (a version × a range
of games) run here, on a process pool of ``jobs`` workers, or on any
:class:`concurrent.futures.Executor` (a Dask ``Client.get_executor()``): the records do not
depend on how the work was split, as in :mod:`dungeon_guilds.analysis.simulate`.

A record (:func:`game_record`) is the per-game dict of :mod:`dungeon_guilds.analysis.intervals`
(``win``, ``gold``, ``length``, ``lead_changes``, ``rooms``, ``bots``) plus ``bumps`` (R4.4
replacements a round), ``drama`` and ``uncertainty`` (:mod:`dungeon_guilds.analysis.aesthetics`)
and, for a design challenge, ``challenge`` (its measure on the game).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

from ..analysis.aesthetics import drama, uncertainty
from ..analysis.per_game import lead_changes_per_game
from ..analysis.play import _empty, lineup_for, play_game
from ..analysis.simulate import _lord_entry, _lord_from_entry, lord_pool_of
from ..cards import Deck
from ..lords import Lord, lord_pool
from ..rules import Rules


class Cancelled(Exception):
    """The run was stopped by its ``cancel`` callable; nothing is returned."""


@dataclass(frozen=True)
class Settings:
    """How the games are played: ``players``, ``bots`` (one spec, or one a seat, rotated as in
    the simulator), the rule options and the lord pool (default: the pool the rules allow)."""

    players: int = 4
    bots: tuple[str, ...] = ("random",)
    rules: Rules = field(default_factory=Rules)
    lords: tuple[Lord, ...] | None = None

    def pool(self) -> tuple[Lord, ...]:
        return tuple(self.lords) if self.lords is not None else lord_pool(self.rules.lords)

    def to_dict(self) -> dict[str, Any]:
        return {"players": self.players, "bots": list(self.bots), "rules": self.rules.to_dict(),
                "lords": [_lord_entry(x) for x in self.pool()]}

    @classmethod
    def from_dict(cls, data: dict) -> "Settings":
        lords = tuple(_lord_from_entry(e, f"lords[{i}]") for i, e in enumerate(data["lords"]))
        return cls(int(data["players"]), tuple(data["bots"]), Rules.from_dict(data["rules"]), lords)


def bot_kinds(bots: Sequence[str]) -> list[str]:
    """The distinct bots of a line-up, in the order given."""
    return list(dict.fromkeys(bots))


# ---------------------------------------------------------------------- one game's record
def _gold_after(rounds: list[tuple], players: int) -> list[list[float]]:
    n_rounds = max((r[1] for r in rounds), default=0)
    out = [[0.0] * players for _ in range(n_rounds)]
    for row in rounds:
        out[row[1] - 1][row[2]] = float(row[5])
    return out


def _rooms(rooms: list[tuple]) -> dict[int, tuple[int, int]]:
    counts: dict[int, list[int]] = {}
    for row in rooms:
        c = counts.setdefault(int(row[3]), [0, 0])
        c[0] += int(bool(row[4]))
        c[1] += 1
    return {lv: (c[0], c[1]) for lv, c in sorted(counts.items())}


def game_record(out: dict, challenge=None, lord_id: str | None = None) -> dict[str, Any]:
    """One game's record from ``play_game``'s rows (the module doc lists the keys)."""
    games = sorted(out["games"], key=lambda r: r[1])
    players = len(games)
    gold_after = _gold_after(out["rounds"], players)
    winners = [r[1] for r in games if r[7]]
    rounds = out["rounds"]
    leads = lead_changes_per_game(*zip(*((r[0], r[1], r[2], r[7]) for r in rounds))) if rounds else [0]
    rec = {"win": [float(r[8]) for r in games], "gold": [float(r[4]) for r in games],
           "bots": [r[2] for r in games], "length": int(games[0][9]), "lead_changes": leads[0],
           "rooms": _rooms(out["rooms"]), "paid_out": 0.0, "paid_in": 0.0,
           "bumps": sum(r[13] for r in games) / max(1, len(gold_after)),
           "drama": drama(winners, gold_after), "uncertainty": uncertainty(winners, gold_after)}
    if challenge is not None:
        from .challenges import measure

        rec["challenge"] = measure(challenge, out, lord_id)
    return rec


# ---------------------------------------------------------------------- chunks of games
def version_spec(deck: Deck, lords: Sequence[Lord], settings: Settings, seed: int | str,
                 challenge=None, lord_id: str | None = None) -> dict[str, Any]:
    """What a worker needs to play one version (picklable, Dask-friendly)."""
    return {"deck": deck, "lords": [_lord_entry(x) for x in lords], "players": settings.players,
            "bots": list(settings.bots), "rules": settings.rules.to_dict(), "seed": seed,
            "challenge": challenge, "lord_id": lord_id}


def play_chunk(spec: dict[str, Any]) -> list[dict[str, Any]]:
    """Play games ``spec["start"]`` … ``spec["stop"] - 1`` of one version: their records."""
    rules = Rules.from_dict(spec["rules"])
    pool = lord_pool_of([_lord_from_entry(e, f"lords[{i}]") for i, e in enumerate(spec["lords"])])
    out = []
    for g in range(spec["start"], spec["stop"]):
        rows = _empty()
        lineup = lineup_for(spec["bots"], spec["players"], g, True)
        play_game(g, spec["seed"], lineup, rules, spec["deck"], None, rows, pool)
        out.append(game_record(rows, spec["challenge"], spec["lord_id"]))
    return out


def _chunks(versions: Sequence[dict], games: range, size: int) -> list[tuple[int, dict]]:
    return [(k, dict(v, start=a, stop=min(games.stop, a + size)))
            for k, v in enumerate(versions) for a in range(games.start, games.stop, size)]


class VersionRun:
    """Versions played a chunk at a time in this process (the dashboard and the static site:
    :meth:`step` plays the next chunk of one version, so a page gets a turn between chunks)."""

    def __init__(self, versions: Sequence[dict], games: range, chunk: int = 50):
        self.chunks = _chunks(versions, games, max(1, chunk))
        self.n_versions = len(versions)
        self.total = len(versions) * len(games)
        self.done = 0
        self._parts: list[list[dict]] = []

    @property
    def finished(self) -> bool:
        return len(self._parts) == len(self.chunks)

    def step(self) -> int:
        """Play the next chunk; the number of games it played (0: finished)."""
        if self.finished:
            return 0
        spec = self.chunks[len(self._parts)][1]
        self._parts.append(play_chunk(spec))
        self.done += spec["stop"] - spec["start"]
        return spec["stop"] - spec["start"]

    def records(self) -> list[list[dict]]:
        out: list[list[dict]] = [[] for _ in range(self.n_versions)]
        for (k, _), part in zip(self.chunks, self._parts):
            out[k].extend(part)
        return out


def play_iter(versions: Sequence[dict], games: range, *, jobs: int = 1, executor=None, chunk: int | None = None):
    """A generator: yields ``(done, total)`` after each chunk played here (``jobs`` 1, no
    executor), or once at the end of a run on a pool or a cluster; returns the records
    (``records = yield from play_iter(...)``)."""
    if executor is not None or jobs > 1:
        records = play_versions(versions, games, jobs=jobs, executor=executor, chunk=chunk)
        yield len(versions) * len(games), len(versions) * len(games)
        return records
    run = VersionRun(versions, games, chunk or 50)
    while run.step():
        yield run.done, run.total
    return run.records()


def drain(gen, progress: Callable[[int, int], None] | None = None, cancel: Callable[[], bool] | None = None):
    """Run a generator of ``(done, total)`` steps to its end and return its value;
    ``progress`` is told every step, ``cancel()`` True stops it (:class:`Cancelled`)."""
    while True:
        try:
            step = next(gen)
        except StopIteration as stop:
            return stop.value
        if progress is not None and isinstance(step, tuple):
            progress(*step)
        if cancel is not None and cancel():
            gen.close()
            raise Cancelled()


def play_versions(versions: Sequence[dict], games: range, *, jobs: int = 1, executor=None,
                  progress: Callable[[int, int], None] | None = None,
                  cancel: Callable[[], bool] | None = None, chunk: int | None = None) -> list[list[dict]]:
    """The records of ``games`` of every version (a list a version, in game order). ``jobs`` > 1:
    a process pool (as ``simulate``); ``executor``: any Executor (a Dask cluster's).
    ``progress(done, total)`` counts games; ``cancel()`` True stops the run (:class:`Cancelled`)."""
    total = len(versions) * len(games)
    workers = jobs if executor is None else max(jobs, 2)
    size = chunk or max(1, min(250, math.ceil(total / max(1, 8 * workers) / max(1, len(versions)))))
    chunks = _chunks(versions, games, size)
    parts: list[list[list[dict]]] = [[] for _ in versions]
    done_parts: dict[int, list[dict]] = {}
    own = None
    try:
        if executor is None and jobs > 1 and len(chunks) > 1:
            from concurrent.futures import ProcessPoolExecutor

            own = executor = ProcessPoolExecutor(max_workers=jobs)
        _run(chunks, executor, done_parts, progress, cancel, total)
    finally:
        if own is not None:
            own.shutdown(cancel_futures=True)
    for i, (k, _) in enumerate(chunks):
        parts[k].append(done_parts[i])
    return [[r for part in p for r in part] for p in parts]


def _run(chunks, executor, done_parts: dict, progress, cancel, total: int) -> None:
    done = 0
    if executor is None:
        for i, (_, spec) in enumerate(chunks):
            if cancel is not None and cancel():
                raise Cancelled()
            done_parts[i] = play_chunk(spec)
            done += spec["stop"] - spec["start"]
            if progress:
                progress(done, total)
        return
    from concurrent.futures import FIRST_COMPLETED, wait

    futures = {executor.submit(play_chunk, spec): i for i, (_, spec) in enumerate(chunks)}
    pending = set(futures)
    while pending:
        finished, pending = wait(pending, timeout=0.25, return_when=FIRST_COMPLETED)
        for fut in finished:
            i = futures[fut]
            done_parts[i] = fut.result()
            done += chunks[i][1]["stop"] - chunks[i][1]["start"]
            if progress:
                progress(done, total)
        if cancel is not None and cancel():
            for fut in pending:
                fut.cancel()
            raise Cancelled()


__all__ = ["Cancelled", "Settings", "VersionRun", "bot_kinds", "drain", "game_record", "play_chunk", "play_iter",
           "play_versions", "version_spec"]
