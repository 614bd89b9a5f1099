"""The design explorer's sensitivity map (issue 41): which knob moves which number.

For a deck and a lord pool, every knob (:mod:`.knobs`) is turned one step down and one step up
(where the editors allow it) and each version plays the same games as the reference version
(common random numbers, :mod:`.explorer_games`). For every knob, step and measure the map holds
the change from the reference, its 95 % interval and its p-value from
:mod:`dungeon_guilds.analysis.intervals`, and Holm's adjusted p over the whole map (every cell
is a test: the chance of any false alarm in the map stays below 5 %).

The measures (``MEASURES``; defined in ``docs/metrics.md``):

=================  ====================================================================
``balance``        seat balance, 1 − (best seat's win rate − worst seat's)
``start_advantage`` the start player's win rate minus the fair share 1/players
``win_spread``     win rate of the line-up's first bot minus its second's (two bots only)
``clear_rate_L``   the share of level-L rooms cleared (L = 1, 2, 3)
``bumps``          R4.4 replacements of another player's adventurer a round
``lead_changes``   lead changes a game
``gold_gap``       richest player's final gold minus poorest's
``length``         actions a game
``drama``          the eventual winner's mean deficit to the leader before the last round
``uncertainty``    1 − the eventual winner's mean standing before the last round
=================  ====================================================================

Standard library only; the reference deck's map ships in ``data/reference_map.json``
(:func:`reference_map`), with the settings and seeds that reproduce it.
"""

from __future__ import annotations

import json
import math
import time
from dataclasses import dataclass, field
from importlib import resources
from typing import Any, Callable, Sequence

from ..analysis import intervals
from ..cards import Deck, parse_deck_text, reference_deck
from .explorer_games import Settings, bot_kinds, drain, play_iter, play_versions, version_spec
from .knobs import Knob, all_knobs, legal_steps, turned

MEASURES: dict[str, str] = {  # id -> unit
    "balance": "index", "start_advantage": "rate", "win_spread": "rate", "clear_rate_1": "rate",
    "clear_rate_2": "rate", "clear_rate_3": "rate", "bumps": "count", "lead_changes": "count",
    "gold_gap": "gold", "length": "actions", "drama": "gold", "uncertainty": "index"}
_IN_INTERVALS = {"balance", "gold_gap", "length", "lead_changes"}  # intervals.MEASURES does these


# ---------------------------------------------------------------------- one measure
def game_values(measure: str, records: Sequence[dict], bots: Sequence[str] = ()) -> list[float | None]:
    """The per-game values of a mean-type measure (None: nothing to measure in that game)."""
    if measure == "start_advantage":
        return [r["win"][0] - 1.0 / len(r["win"]) for r in records]
    if measure == "win_spread":
        kinds = bot_kinds(bots)
        return [_bot_share(r, kinds[0]) - _bot_share(r, kinds[1]) for r in records]
    if measure == "challenge":
        return [r.get("challenge") for r in records]
    if measure in ("gold_gap",):
        return [max(r["gold"]) - min(r["gold"]) for r in records]
    return [float(r[measure]) for r in records]


def _bot_share(record: dict, bot: str) -> float:
    seats = [s for s, b in enumerate(record["bots"]) if b == bot]
    return sum(record["win"][s] for s in seats) / len(seats) if seats else float("nan")


def _level(measure: str) -> int | None:
    return int(measure.rsplit("_", 1)[1]) if measure.startswith("clear_rate_") else None


def one_arm(measure: str, records: Sequence[dict], bots: Sequence[str] = ()) -> intervals.Estimate:
    """The measure of one version with its 95 % interval."""
    if measure == "balance" or measure in _IN_INTERVALS:
        return intervals.estimate(records, measure)
    if _level(measure) is not None:
        return intervals.estimate(records, "clear_rate", _level(measure))
    vals = [v for v in game_values(measure, records, bots) if v is not None]
    v, lo, hi = intervals.t_interval(vals)
    return intervals.Estimate(measure, None, v, lo, hi, len(vals), "t", len(vals) >= 2 and not math.isnan(lo),
                              unit=MEASURES.get(measure, ""))


def change(measure: str, a: Sequence[dict], b: Sequence[dict], bots: Sequence[str] = ()) -> intervals.Estimate:
    """B − A for a measure over paired games (the same seeds), with its 95 % interval and p."""
    if measure == "balance" or measure in _IN_INTERVALS:
        return intervals.difference(a, b, measure)
    if _level(measure) is not None:
        return intervals.difference(a, b, "clear_rate", _level(measure))
    pairs = [(x, y) for x, y in zip(game_values(measure, a, bots), game_values(measure, b, bots))
             if x is not None and y is not None]
    r = intervals.paired_t([y - x for x, y in pairs])
    return intervals.Estimate(measure, None, r["mean"], r["ci_low"], r["ci_high"], len(pairs), "paired_t",
                              len(pairs) >= 2 and not math.isnan(r["ci_low"]), r["p"], MEASURES.get(measure, ""))


def measures_for(settings: Settings) -> list[str]:
    """The map's measures for these settings (``win_spread`` needs two different bots)."""
    return [m for m in MEASURES if m != "win_spread" or len(bot_kinds(settings.bots)) == 2]


# ---------------------------------------------------------------------- the map
@dataclass
class ExplorerMap:
    """A sensitivity map: ``cells`` (one a knob, step and measure: ``value``, ``low``,
    ``high``, ``p``, ``p_holm``, ``n``), the reference version's measures, the knobs, and what
    reproduces it (``settings``, ``deck`` as TOML text, ``games``, ``seed``)."""

    settings: dict
    deck: str
    games: int
    seed: int | str
    knobs: list[dict]
    reference: dict[str, list[float]]
    cells: list[dict]
    seconds: float = 0.0
    meta: dict = field(default_factory=dict)

    def measures(self) -> list[str]:
        return list(self.reference)

    def ranked(self, measure: str) -> list[dict]:
        """The cells of one measure, largest change first (the bar chart's order)."""
        cells = [c for c in self.cells if c["measure"] == measure and not math.isnan(c["value"])]
        return sorted(cells, key=lambda c: -abs(c["value"]))

    def cell(self, knob: str, step: int, measure: str) -> dict | None:
        for c in self.cells:
            if (c["knob"], c["step"], c["measure"]) == (knob, step, measure):
                return c
        return None

    def knob(self, knob_id: str) -> Knob:
        return Knob(**next(k for k in self.knobs if k["id"] == knob_id))

    def to_dict(self) -> dict[str, Any]:
        return {"format": "dungeon-guilds explorer map 1", "settings": self.settings, "deck": self.deck,
                "games": self.games, "seed": self.seed, "knobs": self.knobs, "reference": self.reference,
                "cells": [_rounded(c) for c in self.cells], "seconds": round(self.seconds, 2), "meta": self.meta}

    @classmethod
    def from_dict(cls, data: dict) -> "ExplorerMap":
        cells = [{k: (float("nan") if v is None else v) for k, v in c.items()} for c in data["cells"]]
        ref = {m: [float("nan") if v is None else v for v in vals] for m, vals in data["reference"].items()}
        return cls(data["settings"], data["deck"], data["games"], data["seed"], data["knobs"], ref, cells,
                   data.get("seconds", 0.0), data.get("meta", {}))

    def deck_object(self) -> Deck:
        return parse_deck_text(self.deck)


def _rounded(cell: dict) -> dict:
    return {k: (None if isinstance(v, float) and math.isnan(v) else round(v, 6) if isinstance(v, float) else v)
            for k, v in cell.items()}


def versions_of(deck: Deck, settings: Settings, knobs: Sequence[Knob] | None = None):
    """``[(knob, step, deck, lords)]``: every legal step ±1 of every knob (default: all the
    deck's and the pool's knobs)."""
    pool = settings.pool()
    knobs = all_knobs(deck, pool) if knobs is None else knobs
    out = []
    for knob in knobs:
        for step in legal_steps(knob, deck, pool):
            d, lords = turned(knob, step, deck, pool)
            out.append((knob, step, d, lords))
    return out


def sensitivity_map(deck: Deck | None = None, settings: Settings | None = None, *, games: int = 400,
                    seed: int | str = 1, knobs: Sequence[Knob] | None = None, jobs: int = 1, executor=None,
                    progress: Callable[[int, int], None] | None = None,
                    cancel: Callable[[], bool] | None = None) -> ExplorerMap:
    """The map of ``deck`` (default the reference deck) under ``settings`` (default: 4 players,
    random bots, the base lords): ``games`` games a version, seed ``seed``. ``jobs`` processes
    or an ``executor`` (a Dask cluster's); ``progress(done, total)``; ``cancel()`` True stops."""
    if executor is not None or jobs > 1:
        return drain(map_iter(deck, settings, games=games, seed=seed, knobs=knobs, jobs=jobs, executor=executor,
                              progress=progress, cancel=cancel))
    return drain(map_iter(deck, settings, games=games, seed=seed, knobs=knobs), progress, cancel)


def map_iter(deck: Deck | None = None, settings: Settings | None = None, *, games: int = 400, seed: int | str = 1,
             knobs: Sequence[Knob] | None = None, jobs: int = 1, executor=None, progress=None, cancel=None,
             chunk: int | None = None):
    """:func:`sensitivity_map` as a generator of ``(done, total)`` steps (a chunk of games
    each, played here), returning the map: what the dashboard runs in the background."""
    deck = deck or reference_deck()
    settings = settings or Settings()
    t0 = time.perf_counter()
    versions = versions_of(deck, settings, knobs)
    specs = [version_spec(deck, settings.pool(), settings, seed)]
    specs += [version_spec(d, lords, settings, seed) for _, _, d, lords in versions]
    if executor is not None or jobs > 1:
        records = play_versions(specs, range(games), jobs=jobs, executor=executor, progress=progress, cancel=cancel)
    else:
        records = yield from play_iter(specs, range(games), chunk=chunk)
    return build_map(deck, settings, games, seed, versions, records, time.perf_counter() - t0)


def build_map(deck: Deck, settings: Settings, games: int, seed, versions, records, seconds: float) -> ExplorerMap:
    """The map from the records (``records[0]``: the reference version's; then one a version)."""
    ref = records[0]
    measures = measures_for(settings)
    cells = []
    for (knob, step, _, _), recs in zip(versions, records[1:]):
        for m in measures:
            e = change(m, ref, recs, settings.bots)
            cells.append({"knob": knob.id, "step": step, "measure": m, "value": e.value, "low": e.low,
                          "high": e.high, "p": e.p, "n": e.n})
    for c, p in zip(cells, intervals.holm([c["p"] for c in cells])):
        c["p_holm"] = p
    reference = {}
    for m in measures:
        e = one_arm(m, ref, settings.bots)
        reference[m] = [e.value, e.low, e.high]
    knobs = list({k.id: k.__dict__ for k, _, _, _ in versions}.values())
    return ExplorerMap(settings.to_dict(), deck.to_toml(), games, seed, knobs, reference, cells, seconds,
                       {"versions": len(versions) + 1, "games_played": games * (len(versions) + 1)})


def save_map(m: ExplorerMap, path) -> None:
    from pathlib import Path

    Path(path).write_text(json.dumps(m.to_dict(), ensure_ascii=False, separators=(",", ":")) + "\n", "utf-8")


def load_map(path) -> ExplorerMap:
    from pathlib import Path

    return ExplorerMap.from_dict(json.loads(Path(path).read_text("utf-8")))


def reference_map() -> ExplorerMap:
    """The reference deck's map, shipped precomputed (``data/reference_map.json``; its
    ``settings``, ``games`` and ``seed`` reproduce it: ``dungeon-guilds explore``)."""
    text = resources.files(__package__).joinpath("data", "reference_map.json").read_text("utf-8")
    return ExplorerMap.from_dict(json.loads(text))


__all__ = ["ExplorerMap", "MEASURES", "build_map", "change", "game_values", "load_map", "map_iter", "measures_for", "one_arm",
           "reference_map", "save_map", "sensitivity_map", "versions_of"]
