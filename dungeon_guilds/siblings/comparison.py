"""The sourced comparison of Dungeon Guilds and its siblings: plain rows, and pandas tables.

Every table exists twice: as plain rows (``*_rows`` functions: lists of dicts, standard library
only, so the Compare tab also runs in the browser, where Pyodide's core has no pandas) and as a
pandas DataFrame built from those rows (the functions named below, for notebooks; pandas is
imported only when one of them is called).

Two kinds of comparison, in the spirit of Ludii's portal (which compares games on *computed*
concepts):

* **Facts** (:func:`facts`, :func:`comparison_table`, :func:`side_by_side`): eleven attributes
  per game, each cell with its sources — ``the Dungeon! rules post, line 38``, ``docs/rules.md R4.1``, or an
  ``outside fact`` with its origin. They live in ``data/comparison.toml``.
* **Computed concepts** (:func:`computed_concepts`): numbers the rule kernels compute — the
  first turns of each turn-order scheme, the dice in a basic action, the chance of the worst
  outcome — each row saying which function computed it.

Mechanisms (:func:`mechanisms`) give the games <-> mechanisms graph (``graphs.py``) and a
similarity measure: the Jaccard index of two games' mechanism sets (:func:`similarity_matrix`).
"""

from __future__ import annotations

from fractions import Fraction

from typing import TYPE_CHECKING

from ..extras import require

from . import GAMES, Source
from . import dungeon, dungeon_fighter, dungeon_lords, guilds
from .base import CONCEPTS, SiblingGame, comparison_data as _data

if TYPE_CHECKING:
    import pandas as pd

DATA_FILE = "comparison.toml"

#: the games compared, in table order, each a :class:`~dungeon_guilds.siblings.base.SiblingGame`
SIBLINGS: tuple[SiblingGame, ...] = (guilds.GAME, dungeon.GAME, dungeon_lords.GAME, dungeon_fighter.GAME)


def _frame(rows: list[dict], columns: list[str] | None = None) -> "pd.DataFrame":
    """``rows`` as a pandas DataFrame (pandas is needed only here: the ``analysis`` extra)."""
    require("dungeon_guilds.siblings.comparison (tables)", "analysis", "pandas")
    import pandas as pd

    return pd.DataFrame(rows, columns=columns)


def attributes() -> list[tuple[str, str]]:
    """``[(key, label), ...]`` in table order."""
    return [(k, label) for k, label in _data()["attributes"]]


def game_name(game: str) -> str:
    name, zh, _ = GAMES[game]
    return f"{name} {zh}"


def _resolve(game: str) -> str:
    """Accept a game id ('dungeon') or its English name ('Dungeon!')."""
    if game in GAMES:
        return game
    for key, (name, zh, _) in GAMES.items():
        if game in (name, zh, f"{name} {zh}"):
            return key
    raise KeyError(f"unknown game {game!r}; choose from {', '.join(GAMES)}")


def cell_sources(cell: dict) -> list[Source]:
    return [Source.from_dict(s) for s in cell["sources"]]


def fact_rows() -> list[dict]:
    """One row per (game, attribute): the value, its sources as text, and whether any part of
    it is an outside fact."""
    labels = dict(attributes())
    rows = []
    for cell in _data()["cell"]:
        sources = cell_sources(cell)
        rows.append({
            "game": cell["game"],
            "game_name": game_name(cell["game"]),
            "attribute": cell["attribute"],
            "attribute_label": labels[cell["attribute"]],
            "value": cell["value"],
            "sources": "; ".join(str(s) for s in sources),
            "outside": any(s.is_outside for s in sources),
            "n_sources": len(sources),
        })
    return rows


def facts() -> "pd.DataFrame":
    """:func:`fact_rows` as a DataFrame."""
    return _frame(fact_rows())


def comparison_table(with_sources: bool = False) -> "pd.DataFrame":
    """Attributes down, games across. ``with_sources`` appends the sources to each value."""
    df = facts()
    text = df["value"] + (" [" + df["sources"] + "]" if with_sources else "")
    wide = df.assign(text=text).pivot(index="attribute_label", columns="game_name", values="text")
    order = [label for _, label in attributes()]
    return wide.reindex(index=order, columns=[game_name(g) for g in GAMES])


def side_by_side_rows(a: str, b: str) -> list[dict]:
    """Two games, attribute by attribute: one row per attribute with its ``key``, ``label`` and
    ``cells`` (one per game, ``a`` first and ``b`` only if it differs), each cell a
    :func:`fact_rows` row (value, sources, ...)."""
    a, b = _resolve(a), _resolve(b)
    by_key = {(r["game"], r["attribute"]): r for r in fact_rows()}
    games = [a] + ([b] if b != a else [])
    return [{"key": key, "label": label, "cells": [by_key[(g, key)] for g in games]}
            for key, label in attributes()]


def side_by_side(a: str, b: str) -> "pd.DataFrame":
    """Two games, attribute by attribute, each value next to its sources."""
    a, b = _resolve(a), _resolve(b)
    rows = []
    for line in side_by_side_rows(a, b):
        row = {"attribute": line["label"]}
        for cell in line["cells"]:
            name = GAMES[cell["game"]][0]
            row[name] = cell["value"]
            row[f"{name} — sources"] = cell["sources"]
        rows.append(row)
    columns = ["attribute", GAMES[a][0], f"{GAMES[a][0]} — sources"]
    if b != a:
        columns += [GAMES[b][0], f"{GAMES[b][0]} — sources"]
    return _frame(rows, columns)


# --------------------------------------------------------------------------------------------
# Mechanisms and similarity
# --------------------------------------------------------------------------------------------


def mechanism_rows() -> list[dict]:
    """One row per (game, mechanism) with its source."""
    return [{"game": m["game"], "mechanism": m["name"], "source": str(Source.from_dict(m["source"]))}
            for m in _data()["mechanism"]]


def mechanisms() -> "pd.DataFrame":
    """:func:`mechanism_rows` as a DataFrame."""
    return _frame(mechanism_rows())


def mechanism_sets() -> dict[str, frozenset[str]]:
    rows = mechanism_rows()
    return {g: frozenset(r["mechanism"] for r in rows if r["game"] == g) for g in GAMES}


def jaccard(a: str, b: str) -> Fraction:
    """|shared mechanisms| / |all mechanisms of either game| — 1 for identical sets."""
    sets = mechanism_sets()
    x, y = sets[_resolve(a)], sets[_resolve(b)]
    union = x | y
    return Fraction(len(x & y), len(union)) if union else Fraction(1)


def similarity_matrix(as_float: bool = True) -> "pd.DataFrame":
    """The Jaccard similarity of every pair of games (games by English name)."""
    names = [GAMES[g][0] for g in GAMES]
    values = [[jaccard(a, b) for b in GAMES] for a in GAMES]
    if as_float:
        values = [[float(v) for v in row] for row in values]
    frame = _frame(values, names)
    frame.index = names
    return frame


def shared_mechanisms(a: str, b: str) -> list[str]:
    sets = mechanism_sets()
    return sorted(sets[_resolve(a)] & sets[_resolve(b)])


# --------------------------------------------------------------------------------------------
# Computed concepts
# --------------------------------------------------------------------------------------------


def sibling(game: str) -> SiblingGame:
    """The :class:`~dungeon_guilds.siblings.base.SiblingGame` of a game id or name."""
    key = _resolve(game)
    return next(g for g in SIBLINGS if g.key == key)


def turn_sequence(game: str, n_players: int = 4, turns: int = 8) -> list[int]:
    """The first ``turns`` seats (0..n-1) to act, start player 0, by each game's scheme.

    Dungeon Guilds: the main engine's snake (R4.1). Dungeon!: clockwise whole turns (the Dungeon! rules post
    line 38). Dungeon Lords: each order card is placed in seat order from the start player
    (the Dungeon Lords building notes, line 46). Dungeon Fighter: three throwers per round with the shared coloured
    dice from the start player on, who changes each round (the Dungeon Fighter overview, lines 121, 131, 143).
    Each game's :meth:`SiblingGame.turn_sequence` computes it.
    """
    return sibling(game).turn_sequence(n_players, turns)


#: concept key -> (row label, how it was computed); the label may use ``{n}`` (players)
CONCEPT_ROWS = {
    "first_turns": ("first 8 turns, {n} players (seat 0 starts)",
                    "comparison.turn_sequence (Guilds: turn_order.snake_order)"),
    "rounds": ("rounds in a game", "docs/rules.md R6.4; dungeon_lords.ROUNDS_PER_YEAR x YEARS"),
    "dice": ("dice in a basic action", "kernels: dungeon.two_dice, dungeon_fighter.Die"),
    "key_chance": ("chance of the basic action's key event",
                   "dungeon.hero_win_chance; dungeon_fighter.Die.p_eye"),
    "worst": ("worst single outcome",
              "dungeon.counter_attack_distribution; dungeon_lords.pay_tax; dungeon_fighter.final_score"),
}


def computed_concept_rows(n_players: int = 4) -> list[dict]:
    """Numbers the kernels compute, one row per concept, games across, with how each was
    computed (rows are Ludii-style "concepts"); each sibling gives its own column."""
    columns = {g.name: g.concepts(n_players) for g in SIBLINGS}
    rows = []
    for key in CONCEPTS:
        label, computed_by = CONCEPT_ROWS[key]
        row = {"concept": label.format(n=n_players)}
        row.update({name: values[key] for name, values in columns.items()})
        row["computed by"] = computed_by
        rows.append(row)
    return rows


def computed_concepts(n_players: int = 4) -> "pd.DataFrame":
    """:func:`computed_concept_rows` as a DataFrame indexed by concept."""
    return _frame(computed_concept_rows(n_players)).set_index("concept")


# --------------------------------------------------------------------------------------------
# Tables for the notebook and the Compare tab
# --------------------------------------------------------------------------------------------


def win_chance_rows(bonus: int = 0) -> list[dict]:
    """Dungeon!: P(hero wins) for every monster number, exact and as a decimal."""
    return [{"needed": n, "P(win)": str(p), "≈": round(float(p), 4)}
            for n, p in dungeon.win_chance_table(bonus)]


def win_chance_frame(bonus: int = 0) -> "pd.DataFrame":
    return _frame(win_chance_rows(bonus))


def counter_attack_rows() -> list[dict]:
    """Dungeon!: the counter-attack table with its exact distribution and sources."""
    dist = dungeon.counter_attack_distribution()
    return [{"roll": b.label, "outcome": f"{b.name} ({b.name_zh})", "P": str(dist[b.key]),
             "≈": round(float(dist[b.key]), 4), "effect": b.effect, "source": str(b.source)}
            for b in dungeon.COUNTER_ATTACK]


def counter_attack_frame() -> "pd.DataFrame":
    return _frame(counter_attack_rows())


def expected_loss_rows(max_hand: int = 8) -> list[dict]:
    """Dungeon!: expected treasure cards lost per failed attack, by cards in hand."""
    rows = []
    for h in range(max_hand + 1):
        e = dungeon.expected_cards_lost(h)
        rows.append({"cards in hand": h, "E[cards lost]": str(e), "≈": round(float(e), 4)})
    return rows


def expected_loss_frame(max_hand: int = 8) -> "pd.DataFrame":
    return _frame(expected_loss_rows(max_hand))


def eye_rows(die: str = "coloured") -> list[dict]:
    """Dungeon Fighter: exact eye distributions for 1..(dice in the box) dice."""
    return [{k: (str(v) if isinstance(v, Fraction) else v) for k, v in r.items()}
            for r in dungeon_fighter.eye_table(die)]


def eye_frame(die: str = "coloured") -> "pd.DataFrame":
    return _frame(eye_rows(die))


def contention_frame(player_counts=(2, 3, 4), *, years: int = 100, seed: int = 0,
                     policy: str = "random") -> "pd.DataFrame":
    """:func:`contention_rows` as a DataFrame."""
    return _frame(contention_rows(player_counts, years=years, seed=seed, policy=policy))


def contention_rows(player_counts=(2, 3, 4), *, years: int = 100, seed: int = 0,
                    policy: str = "random") -> list[dict]:
    """Dungeon Lords: the no-slot rate by position in the order of play and player count."""
    rows = []
    for n in player_counts:
        res = dungeon_lords.simulate_order_contention(n, years=years, seed=seed, policy=policy)
        for pos, rate in res.by_position().items():
            rows.append({"players": n, "position": pos + 1, "no-slot rate": rate,
                         "orders chosen": sum(v for k, v in res.chosen.items() if k[0] == pos)})
        rows.append({"players": n, "position": "all", "no-slot rate": res.rate(),
                     "orders chosen": sum(res.chosen.values())})
    return rows
