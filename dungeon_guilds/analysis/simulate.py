"""Play many games with chosen bots and collect tables a balance analysis can read.

    >>> from dungeon_guilds.analysis.simulate import simulate
    >>> res = simulate(1000, ["greedy", "random", "bully", "cooperator"], players=4, seed=1)
    >>> res.games.groupby("bot").win.mean()

Game ``g`` of a run with seed ``s`` is fully determined by ``(s, g)``: its room shuffle and
lords come from :mod:`dungeon_guilds.game`'s named random streams with the game seed
``"s/g"``, and each seat's bot is seeded ``"s/g/seat"``. So a run gives the same tables
whatever the number of workers or the executor that played its chunks.

Rule sets: ``rules`` (the options), ``deck`` (any :class:`~dungeon_guilds.cards.Deck`, e.g. one
edited in the workshop) and ``lords`` (the pool the lords are drawn from, R2.2: printed lord
ids or :class:`~dungeon_guilds.lords.Lord` objects, custom workshop lords included; by default
the pool the ``lords`` option allows). Two runs with the same ``seed`` use the same game seeds,
so they are *common random numbers*: the workshop's A/B experiment pairs their games.

Seats: ``bots`` names one bot per seat (or a single bot for every seat). With ``rotate=True``
(the default) game ``g`` shifts the line-up by ``g`` seats, so each bot sits in each seat
equally often. Seat 0 always starts (R2.5), so ``seat`` is also the turn order of round 1.

Work is split into chunks of consecutive games, run through any
:class:`concurrent.futures.Executor` (``executor=``), a process pool of ``jobs`` workers, or in
this process (``jobs=1``). A Dask cluster works too: ``executor=client.get_executor()``.

The games themselves need no pandas: a run is kept as *column parts* (one per chunk of games:
``{table: {column: typed array or list}}``, :func:`simulate_columns`), and a :class:`SimResult`
builds its pandas tables from them only when ``.games`` / ``.rounds`` / ``.rooms`` are first
read. :class:`ChunkedRun` plays a run a chunk at a time (each chunk sized to take about
``seconds``), so an app can report progress, stop between chunks and give the event loop a turn
(the Lab and the A/B experiment in the static site, where Pyodide has no threads or processes);
the games played so far are always an exact run of that many games (game ``g`` depends on
``(seed, g)`` only). Nothing here imports pandas, tqdm or a process pool until asked.
"""

from __future__ import annotations

import gc
import math
import time
from contextlib import contextmanager
from concurrent.futures import Executor  # ProcessPoolExecutor: imported where a sweep runs (none in a browser)
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

from ..extras import require
from ..cards import Deck, reference_deck
from ..game import check_lords
from ..lords import LORDS_BY_ID, Lord, get_lord, lord_from_dict
from ..rules import Rules
from .bots import BOTS, parse_spec
from .play import _empty, draw_lords, lineup_for, play_game  # re-exported: the simulator's unit of work

__all__ = ["ChunkedRun", "SimResult", "simulate", "simulate_columns", "merged_column", "table_rows", "play_game",
           "draw_lords", "GAME_COLUMNS", "ROUND_COLUMNS", "ROOM_COLUMNS"]

GAME_COLUMNS = (
    "game", "seat", "bot", "players", "gold", "tiebreak", "rank", "winner", "win", "actions",
    "decisions", "branching", "lords", "bumps",
)
ROUND_COLUMNS = ("game", "round", "seat", "bot", "lord", "gold", "gain", "leader", "rooms",
                 "cleared", "paid_out", "paid_in")
ROOM_COLUMNS = ("game", "round", "room", "level", "cleared", "lord")

COLUMN_DOCS = {
    "games": {
        "game": "game number in the run (0-based)",
        "seat": "seat 0..n-1; seat 0 starts round 1 (R2.5), so this is also the turn order",
        "bot": "the bot's label (name, or name:noise)",
        "players": "players in the game",
        "gold": "final gold",
        "tiebreak": "strength of active adventurers not played in the last round (R8.1)",
        "rank": "1 = best; tied players share the best rank of their group (gold, then tiebreak; with teams, the team's)",
        "winner": "True for every winner (shared victories and teams included)",
        "win": "share of the victory: 1/k for each of k winners, else 0 (sums to 1 per game)",
        "actions": "the game's length in actions (setup exhaust choices included)",
        "decisions": "how many decisions this player took",
        "branching": "mean number of legal actions at this player's decisions",
        "lords": "the lords of the game's rounds, in order, comma-separated",
        "bumps": "how many times this player replaced another player's adventurer (R4.4)",
    },
    "rounds": {
        "round": "round 1..n",
        "lord": "the round's lord id",
        "gold": "the player's gold after the round's cleanup",
        "gain": "the player's gold change over the round (the setup gold counts in round 1)",
        "leader": "True if the player alone has the most gold after the round",
        "rooms": "rooms dealt this round",
        "cleared": "rooms cleared (the rest failed, R5.1)",
        "paid_out": "gold the bank paid players in resolution (treasure shares, lord bonus)",
        "paid_in": "gold players paid the bank during the round (fees, heal costs)",
    },
    "rooms": {
        "room": "room number, 1 = top",
        "level": "the room's level (its back)",
        "cleared": "True if the room was cleared",
    },
}


@dataclass
class SimResult:
    """A run: its column parts (standard library: ``parts``, read with :meth:`column` /
    :meth:`rows`) and how it was made (``meta``); ``games``, ``rounds`` and ``rooms`` are its
    pandas DataFrames, built from the parts the first time they are read (pandas needed only
    then)."""

    parts: list = field(repr=False)  # one {table: {column: values}} per chunk, in game order
    meta: dict = field(default_factory=dict)
    _frames: dict = field(default_factory=dict, repr=False, compare=False)

    @property
    def n_games(self) -> int:
        return int(self.meta.get("games", 0))

    @property
    def games_per_second(self) -> float:
        s = self.meta.get("seconds") or 0.0
        return self.n_games / s if s else float("inf")

    @classmethod
    def from_frames(cls, games, rounds, rooms, meta: dict | None = None) -> "SimResult":
        """A run given as its three pandas tables (made by hand, or read back from CSV)."""
        return cls([], dict(meta or {}), {"games": games, "rounds": rounds, "rooms": rooms})

    def column(self, table: str, name: str) -> list:
        """One column of ``table`` over the whole run, as a list (no pandas, unless the run was
        given as pandas tables: :meth:`from_frames`)."""
        if not self.parts and table in self._frames:
            return self._frames[table][name].tolist()
        return merged_column(self.parts, table, name)

    def rows(self, table: str) -> list[tuple]:
        """The rows of ``table`` as tuples in the order of its columns (bools as bools)."""
        return table_rows(self.parts, table)

    def frame(self, table: str):
        """``table`` as a pandas DataFrame (built once)."""
        if table not in self._frames:
            require("SimResult.games / .rounds / .rooms (pandas tables)", "analysis", "pandas", "numpy")
            self._frames[table] = _frame(self.parts, table)
        return self._frames[table]

    games = property(lambda self: self.frame("games"), doc="one row per game and seat (GAME_COLUMNS)")
    rounds = property(lambda self: self.frame("rounds"), doc="one row per game, round and seat (ROUND_COLUMNS)")
    rooms = property(lambda self: self.frame("rooms"), doc="one row per game, round and room (ROOM_COLUMNS)")


# ------------------------------------------------------------------------------ one game

def _lord_entry(lord: Lord) -> Any:
    """A picklable, Dask-friendly description of a lord: a printed id or a custom dict."""
    return lord.id if LORDS_BY_ID.get(lord.id) == lord else lord.to_dict()


def _lord_from_entry(entry: Any, where: str) -> Lord:
    return get_lord(entry) if isinstance(entry, str) else lord_from_dict(entry, where)


def lord_pool_of(lords: Sequence[Lord | str] | None) -> tuple[Lord, ...] | None:
    """``lords`` as Lord objects (ids looked up among the printed lords), or None."""
    if lords is None:
        return None
    return tuple(get_lord(x) if isinstance(x, str) else x for x in lords)


_COLUMNS = {"games": GAME_COLUMNS, "rounds": ROUND_COLUMNS, "rooms": ROOM_COLUMNS}


_STR_COLUMNS = {"bot", "lord", "lords"}
_DTYPES = {"winner": "bool", "leader": "bool", "win": "float64",
           "branching": "float64"}


def _dtype(table: str, name: str) -> str | None:
    if name in _STR_COLUMNS:
        return None  # kept as a list of str
    if table == "rooms" and name == "cleared":
        return "bool"
    return _DTYPES.get(name, "int64")


_ARRAY_CODES = {"int64": "q", "float64": "d", "bool": "b"}


def _columns(rows: list[tuple], names: Sequence[str], table: str) -> dict[str, Any]:
    """Rows -> columns: typed arrays for numbers (compact to send; no numpy needed in a
    worker, so workers start fast), lists for text."""
    from array import array

    cols = list(zip(*rows)) if rows else [() for _ in names]
    out: dict[str, Any] = {}
    for name, col in zip(names, cols):
        dt = _dtype(table, name)
        out[name] = list(col) if dt is None else array(_ARRAY_CODES[dt], col)
    return out


def _frame(parts: list[dict], table: str):
    import numpy as np
    import pandas as pd

    names = _COLUMNS[table]
    data = {}
    for name in names:
        chunks = [part[table][name] for part in parts]
        dt = _dtype(table, name)
        if dt is None:
            data[name] = pd.Series([v for c in chunks for v in c], dtype=object if not chunks else None)
        elif chunks:
            arrays = [np.frombuffer(c, dtype="int8" if dt == "bool" else dt) if len(c) else
                      np.array([], dtype=dt) for c in chunks]
            data[name] = np.concatenate(arrays).astype(dt, copy=False)
        else:
            data[name] = np.array([], dtype=dt)
    return pd.DataFrame(data, columns=list(names))


def run_chunk(spec: dict) -> dict:
    """Play games ``spec["start"]..spec["stop"]-1`` (a worker's unit of work; picklable)."""
    out = _empty()
    rules = Rules.from_dict(spec["rules"])
    deck = spec.get("deck") or reference_deck()
    pool = spec.get("lords")
    lords = None if pool is None else [_lord_from_entry(e, f"lords[{i}]") for i, e in enumerate(pool)]
    with _fewer_collections():
        for game in range(spec["start"], spec["stop"]):
            lineup = lineup_for(spec["bots"], spec["players"], game, spec["rotate"])
            play_game(game, spec["seed"], lineup, rules, deck, spec.get("bot_options"), out, lords)
    return {name: _columns(rows, _COLUMNS[name], name) for name, rows in out.items()}


@contextmanager
def _fewer_collections(young: int = 20_000):
    """Run the cyclic garbage collector less often while games are played, then as before.
    Play makes many short-lived containers (copies of states, the bots' tuples) and almost
    no cycles; with Python's default (a collection every 700 new containers) the collector
    took about a third of a greedy game's time. Memory stays bounded: collections still run."""
    before = gc.get_threshold()
    gc.set_threshold(max(before[0], young), *before[1:])
    try:
        yield
    finally:
        gc.set_threshold(*before)


# ------------------------------------------------------------------------------ many games

def _progress_callback(progress, total: int):
    """``progress``: None/False (none), True (a tqdm bar on stderr, or a plain one), or a
    callable ``f(done, total)``."""
    if not progress:
        return None, None
    if callable(progress):
        return progress, None
    try:
        from tqdm import tqdm

        bar = tqdm(total=total, unit="game", file=__import__("sys").stderr, smoothing=0.1)

        def update(done: int, total: int, _last=[0]) -> None:
            bar.update(done - _last[0])
            _last[0] = done
        return update, bar
    except ImportError:  # pragma: no cover - tqdm is in the analysis extra
        import sys

        def update(done: int, total: int) -> None:
            width = 30
            filled = int(width * done / total) if total else width
            sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} games")
            if done >= total:
                sys.stderr.write("\n")
            sys.stderr.flush()
        return update, None


def simulate(n_games: int, bots: Sequence[str], players: int, seed: int | str = 0,
             rules: Rules = Rules(), executor: Executor | None = None, jobs: int = 1,
             progress: bool | Callable[[int, int], None] | None = None, **options: Any) -> SimResult:
    """Play ``n_games`` games of ``players`` players with ``bots`` and return the run (its
    ``.games``, ``.rounds``, ``.rooms`` are pandas DataFrames); the arguments are those of
    :func:`simulate_columns` (``need_pandas=False``: play where pandas is missing, e.g. in the
    browser, and read the run through :meth:`SimResult.column` / :meth:`SimResult.rows`)."""
    need = options.pop("need_pandas", True)
    parts, meta = simulate_columns(n_games, bots, players, seed, rules, executor, jobs, progress,
                                   need_pandas=need, **options)
    return SimResult(parts, meta)


def simulate_columns(
    n_games: int,
    bots: Sequence[str],
    players: int,
    seed: int | str = 0,
    rules: Rules = Rules(),
    executor: Executor | None = None,
    jobs: int = 1,
    progress: bool | Callable[[int, int], None] | None = None,
    *,
    rotate: bool = True,
    deck: Deck | None = None,
    bot_options: dict[str, dict] | None = None,
    chunk_size: int | None = None,
    lords: Sequence[Lord | str] | None = None,
    need_pandas: bool = True,
) -> tuple[list[dict], dict]:
    """Play ``n_games`` games of ``players`` players with ``bots``; return the tables as
    column parts (one per chunk of games: ``{table: {column: values}}``) and the run's meta.
    :func:`simulate` frames them; :func:`merged_column` joins one column. ``need_pandas``
    False: no pandas anywhere (the CLI's summary needs none, and loading it costs time).

    ``bots``: one bot spec per seat (``"greedy"``, ``"greedy:0.1"`` for noise) or a single
    spec for every seat. ``rules``: the options. ``executor``: any
    ``concurrent.futures.Executor`` (a Dask ``Client.get_executor()`` included); otherwise a
    process pool of ``jobs`` workers, or this process when ``jobs == 1``. ``progress``: True
    for a bar on stderr, or ``f(done, total)``. ``bot_options``: per bot name, keyword
    arguments such as ``{"mcts": {"iterations": 200}}``. ``deck``: the deck (default the
    reference deck, R1.4). ``lords``: the pool the lords are drawn from (printed ids or
    :class:`~dungeon_guilds.lords.Lord` objects, workshop lords included; default the pool of
    ``rules.lords``, R7.4); it needs at least ``players`` lords. The tables do not depend on
    how the work is split.
    """
    base, meta = _settings(n_games, bots, players, seed, rules, rotate, deck, bot_options, lords, need_pandas)
    workers = jobs if executor is None else max(jobs, 2)
    specs = _chunk_specs(n_games, chunk_size, workers, base)
    t0 = time.perf_counter()
    parts, used = _play_chunks(specs, n_games, executor, jobs, progress, need_pandas)
    meta.update(seconds=time.perf_counter() - t0, chunks=len(specs), jobs=jobs, executor=used)
    return parts, meta


def _settings(n_games: int, bots: Sequence[str], players: int, seed: int | str, rules: Rules, rotate: bool,
              deck: Deck | None, bot_options: dict | None, lords, need_pandas: bool) -> tuple[dict, dict]:
    """The checked settings of a run: what every chunk's spec carries, and the run's meta."""
    bots, deck, pool = _checked_arguments(n_games, bots, players, rules, deck, lords, need_pandas)
    base = {"seed": seed, "bots": bots, "players": players, "rules": rules.to_dict(),
            "rotate": rotate, "bot_options": bot_options or {},
            # the deck travels only if it is not the reference deck (compared by content: a
            # deck file may keep the name "reference" after an edit)
            "deck": deck if deck != reference_deck() else None,
            "lords": None if pool is None else [_lord_entry(lord) for lord in pool]}
    meta = {"games": n_games, "bots": bots, "players": players, "seed": seed,
            "rules": rules.to_dict(), "rotate": rotate, "deck": deck.name,
            "lords": None if pool is None else [lord.id for lord in pool]}
    return base, meta


class ChunkedRun:
    """A run played a chunk of games at a time, in this process: :meth:`step` plays the next
    chunk (sized to take about ``seconds`` at the rate measured so far, at most ``max_chunk``
    games) and returns how many games it played (0: the run is complete); :meth:`result` is
    the :class:`SimResult` of the games played so far (an exact run of that many games). The
    arguments are those of :func:`simulate_columns`; nothing needs pandas."""

    def __init__(self, n_games: int, bots: Sequence[str], players: int, seed: int | str = 0,
                 rules: Rules = Rules(), *, rotate: bool = True, deck: Deck | None = None,
                 bot_options: dict | None = None, lords: Sequence[Lord | str] | None = None,
                 seconds: float = 0.2, max_chunk: int | None = None):
        self._base, self._meta = _settings(n_games, bots, players, seed, rules, rotate, deck, bot_options,
                                           lords, need_pandas=False)
        self.total = n_games
        self.done = 0
        self.seconds = 0.0  # spent playing
        self._target = seconds
        self._max = max(1, max_chunk or n_games)
        self.parts: list[dict] = []

    @property
    def finished(self) -> bool:
        return self.done >= self.total

    def next_size(self) -> int:
        """Games in the next chunk: one to start with, then as many as fit in ``seconds``."""
        if self.done == 0 or self.seconds <= 0:
            size = 1
        else:
            size = max(1, int(self._target * self.done / self.seconds))
        return min(size, self._max, self.total - self.done)

    def step(self, size: int | None = None) -> int:
        """Play the next chunk (of ``size`` games if given: another run kept in step); the
        number of games it played (0 once the run is complete)."""
        size = self.next_size() if size is None else min(size, self.total - self.done)
        if size <= 0:
            return 0
        t0 = time.perf_counter()
        self.parts.append(run_chunk(dict(self._base, start=self.done, stop=self.done + size)))
        self.seconds += time.perf_counter() - t0
        self.done += size
        return size

    def result(self) -> SimResult:
        """The games played so far as a run of ``done`` games."""
        meta = dict(self._meta, games=self.done, seconds=self.seconds, chunks=len(self.parts), jobs=1,
                    executor="inline", stopped=self.done < self.total)
        return SimResult(list(self.parts), meta)


def _checked_arguments(n_games: int, bots: Sequence[str], players: int, rules: Rules,
                       deck: Deck | None, lords, need_pandas: bool):
    """Refuse bad arguments before playing: ``(bots as a list, the deck, the lord pool or None)``."""
    from importlib.util import find_spec

    if need_pandas and find_spec("pandas") is None:  # the analysis extra: fail before playing, not after
        raise ModuleNotFoundError("simulate() needs pandas: pip install 'dungeon-guilds[analysis]'",
                                  name="pandas")
    if n_games < 0:
        raise ValueError("n_games must be at least 0")
    bots = list(bots)
    for spec in bots:
        name, _ = parse_spec(spec)
        if name not in BOTS:
            raise ValueError(f"unknown bot {name!r} (known: {', '.join(BOTS)})")
    rules.check_players(players)
    lineup_for(bots, players, 0, rotate=True)  # refuses a wrong number of bots now
    deck = deck if deck is not None else reference_deck()
    need = rules.rooms_dealt(players)
    if len(deck.rooms) < need:
        raise ValueError(f"the deck {deck.name!r} has {len(deck.rooms)} room cards; a {players}-player "
                         f"game deals {need}")
    pool = lord_pool_of(lords)
    if pool is not None:
        if len(pool) < players:
            raise ValueError(f"the lord pool has {len(pool)} lords; a {players}-player game draws "
                             f"{players} (R2.2)")
        check_lords(pool, rules)  # R7.4: no printed promo lord under lords='base'
        ids = [lord.id for lord in pool]
        dup = sorted({x for x in ids if ids.count(x) > 1})
        if dup:
            raise ValueError(f"the lord pool has two lords with the id {dup[0]!r}; give each lord "
                             "its own id (the tables name lords by id)")
    return bots, deck, pool


def _chunk_specs(n_games: int, chunk_size: int | None, workers: int, base: dict) -> list[dict]:
    """The chunks of games (``start``, ``stop`` and the run's settings ``base``): by default
    about sixteen chunks a worker (small chunks keep every worker busy to the end), at most
    2000 games each."""
    if chunk_size is None:
        chunk_size = max(1, min(2000, math.ceil(n_games / max(1, 16 * workers))))
    return [dict(base, start=a, stop=min(n_games, a + chunk_size)) for a in range(0, n_games, chunk_size)]


def _play_chunks(specs: list[dict], n_games: int, executor: Executor | None, jobs: int, progress,
                 need_pandas: bool) -> tuple[list[dict], str]:
    """Play the chunks (here, on ``executor``, or on a pool of ``jobs`` processes started and
    stopped here) and return their column parts in chunk order and the executor's name."""
    update, bar = _progress_callback(progress, n_games)
    parts: list[dict | None] = [None] * len(specs)
    done = 0
    own_pool = None
    try:
        if executor is None and jobs > 1 and len(specs) > 1:
            from concurrent.futures import ProcessPoolExecutor

            own_pool = executor = ProcessPoolExecutor(max_workers=jobs)
        if executor is None:
            for k, spec in enumerate(specs):
                parts[k] = run_chunk(spec)
                done += spec["stop"] - spec["start"]
                if update:
                    update(done, n_games)
        else:
            futures = {executor.submit(run_chunk, spec): k for k, spec in enumerate(specs)}
            if need_pandas:
                import pandas  # noqa: F401  loaded here while the workers play, not before
            from concurrent.futures import as_completed

            try:
                pending = as_completed(futures)
                for fut in pending:
                    k = futures[fut]
                    parts[k] = fut.result()
                    done += specs[k]["stop"] - specs[k]["start"]
                    if update:
                        update(done, n_games)
            except TypeError:  # an executor whose futures as_completed cannot watch
                for fut, k in futures.items():
                    parts[k] = fut.result()
    finally:
        if own_pool is not None:
            own_pool.shutdown()
        if bar is not None:
            bar.close()
    return parts, type(executor).__name__ if executor is not None else "inline"


def merged_column(parts: list[dict], table: str, name: str) -> list:
    """One column of a table over all chunks, as a list (no pandas needed; a bool column's
    values as bools)."""
    values = [v for part in parts for v in part[table][name]]
    return [bool(v) for v in values] if _dtype(table, name) == "bool" else values


def table_rows(parts: list[dict], table: str) -> list[tuple]:
    """The rows of ``table`` over all chunks, as tuples in the order of its columns."""
    return list(zip(*(merged_column(parts, table, name) for name in _COLUMNS[table])))
