"""A/B experiments: two rule sets, the same bots, the same seeds — what did the change do?

An :class:`Arm` is a rule set: the options (:class:`~dungeon_guilds.rules.Rules`), a deck
(:class:`~dungeon_guilds.cards.Deck`, e.g. from the deck editor) and a lord pool (printed and
workshop lords; by default the pool the ``lords`` option allows). :func:`run_ab` plays
``n_games`` games of each arm with :func:`~dungeon_guilds.analysis.simulate.simulate` and the
**same seed**: game *g* of arm A and game *g* of arm B get the same game seed, so the same room
shuffle (with the same deck), the same lord draws (with pools of the same size: replace a lord
in place with :func:`~dungeon_guilds.workshop.lord_edit.replace_in_pool`), the same exhaust
choices and bots with the same random streams. These are *common random numbers*: the two
games of a pair differ only where the rule change makes them differ, so the difference is
measured game by game, with far less noise than two independent samples.

:func:`compare` reads the balance metrics of both arms side by side, each with a 95 %
interval, and tests every difference with a test for paired data:

* win rate per seat and per bot — the paired win-share differences; p-value: the exact
  **sign test** (McNemar's exact test when wins are 0/1; a shared victory counts as a share);
  interval: paired t on the differences (in percentage points);
* means per game (final gold, the gap richest − poorest, gold the bank pays out, gold paid to
  the bank, game length, rooms cleared, lead changes) — the **paired t-test** on the per-game
  differences, with its t interval;
* statistics that are not means of per-game values (the balance of seat win rates, clear rate
  by level) — a seeded **paired bootstrap** over games (percentile interval, bootstrap p).

The p-values are adjusted with **Holm's method** for the number of tests, and a difference is
called significant when its adjusted p is below 0.05. Identical rule sets with the same seeds
play identical games: every difference is exactly 0, every p is 1, and the verdict says so.
"""

from __future__ import annotations

import math
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

from ..cards import Deck, parse_deck_text, reference_deck
from ..lords import LORDS_BY_ID, Lord, get_lord, lord_from_dict, lord_pool
from ..rules import Rules
from . import stats
from .strings import wt

__all__ = ["Arm", "ABResult", "COMPARISON_COLUMNS", "compare", "run_ab", "verdict"]

COMPARISON_COLUMNS = ("metric", "group", "label", "unit", "a", "a_low", "a_high", "b", "b_low", "b_high",
                      "diff", "diff_low", "diff_high", "p", "p_holm", "significant", "method", "n")
ALPHA = 0.05


# ---------------------------------------------------------------------- arms
@dataclass(frozen=True, eq=True)
class Arm:
    """One rule set of an experiment. ``deck`` None: the reference deck; ``lords`` None: the pool
    the ``rules.lords`` option allows (R7.4)."""

    name: str = "A"
    rules: Rules = field(default_factory=Rules)
    deck: Deck | None = None
    lords: tuple[Lord, ...] | None = None

    __hash__ = None  # a Deck holds a dict

    def __post_init__(self) -> None:
        if self.lords is not None:
            object.__setattr__(self, "lords", tuple(get_lord(x) if isinstance(x, str) else x
                                                    for x in self.lords))

    @property
    def the_deck(self) -> Deck:
        return self.deck if self.deck is not None else reference_deck()

    @property
    def pool(self) -> tuple[Lord, ...]:
        return self.lords if self.lords is not None else lord_pool(self.rules.lords)

    def same_rules_as(self, other: "Arm") -> bool:
        """Same options, same deck contents, same lord pool (the names may differ)."""
        a, b = self.the_deck, other.the_deck
        same_deck = (a.heal_costs, dict(a.levels), a.rooms) == (b.heal_costs, dict(b.levels), b.rooms)
        return self.rules == other.rules and same_deck and self.pool == other.pool

    def describe(self, lang: str = "en") -> list[str]:
        """The arm in a few lines of words (options, deck, lords)."""
        from ..rules import describe_value
        from .deck_edit import deck_changes
        from .lord_edit import describe_lord

        from .. import i18n

        def words(option: str, value: Any) -> str:  # the rules explorer's words for a value
            key = f"rules.value_{option}_{'none' if value is None else str(value).lower()}"
            return i18n.t(key, lang) if i18n.has(key, lang) else describe_value(option, value)

        lines = [wt("arm_rules", lang, text=", ".join(words(k, v) for k, v in self.rules.to_dict().items()))]
        deck = self.the_deck
        changes = deck_changes(deck)
        lines.append(wt("arm_deck", lang, name=deck.name, cards=len(deck.rooms),
                        changes="; ".join(changes) if changes else wt("same_as_reference", lang)))
        names = [lord.name(lang) for lord in self.pool]
        lines.append(wt("arm_lords", lang, ids=", ".join(names),
                        default=wt("pool_default", lang) if self.lords is None else ""))
        if not self.rules.lord_effects:
            lines.append(wt("arm_no_effects", lang))
        for lord in self.pool:
            if LORDS_BY_ID.get(lord.id) != lord:
                lines.append(wt("arm_custom_lord", lang, id=lord.id, name=lord.name(lang),
                                text=describe_lord(lord, lang)))
        return lines

    def to_dict(self) -> dict[str, Any]:
        """JSON-able: the rules, the deck as TOML text, the lords as ids or custom dicts."""
        return {
            "name": self.name,
            "rules": self.rules.to_dict(),
            "deck": None if self.deck is None else self.deck.to_toml(),
            "lords": None if self.lords is None else [
                lord.id if LORDS_BY_ID.get(lord.id) == lord else lord.to_dict() for lord in self.lords],
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "Arm":
        deck = None if data.get("deck") is None else parse_deck_text(data["deck"], "toml")
        lords = data.get("lords")
        pool = None if lords is None else tuple(
            get_lord(x) if isinstance(x, str) else lord_from_dict(x, f"lords[{i}]") for i, x in enumerate(lords))
        return cls(str(data.get("name", "A")), Rules.from_dict(data.get("rules")), deck, pool)


# ---------------------------------------------------------------------- running
@dataclass
class ABResult:
    """Both arms' simulation tables, the settings, and the comparison."""

    a: Arm
    b: Arm
    sim_a: Any  # SimResult
    sim_b: Any
    settings: dict[str, Any]
    _comparison: Any = None

    @property
    def comparison(self):
        """The comparison table (see :func:`compare`)."""
        if self._comparison is None:
            self._comparison = compare(self.sim_a, self.sim_b, seed=int(self.settings.get("bootstrap_seed", 0)))
        return self._comparison

    def verdict(self, lang: str = "en") -> str:
        return verdict(self.comparison, self.a.name, self.b.name, lang,
                       identical_rules=self.a.same_rules_as(self.b))

    def verdict_lines(self, lang: str = "en") -> list[str]:
        return verdict_lines(self.comparison, self.a.name, self.b.name, lang,
                             identical_rules=self.a.same_rules_as(self.b))


def run_ab(a: Arm, b: Arm, n_games: int, bots: Sequence[str], players: int, seed: int | str = 0, *,
           progress: Callable[[int, int], None] | None = None, rotate: bool = True, jobs: int = 1,
           executor=None, bot_options: dict | None = None) -> ABResult:
    """Play ``n_games`` games of each arm with the same ``seed`` (common random numbers) and the
    same ``bots`` (one spec per seat, or one for all); ``progress(done, total)`` is called as
    games finish (total = 2 × n_games, both arms together). With a pool of workers (``jobs`` > 1
    or ``executor``) both arms are played at once, so no worker waits for the other arm."""
    from ..analysis.simulate import simulate

    if n_games < 2:
        raise ValueError("an A/B experiment needs at least 2 games per arm")
    for arm in (a, b):  # refuse a bad arm before playing anything
        arm.rules.check_players(players)
    chunk = max(1, math.ceil(n_games / 50))
    done = [0, 0]
    lock = threading.Lock()

    def part(k: int):
        if progress is None:
            return None

        def update(finished: int, total: int) -> None:
            with lock:
                done[k] = finished
                progress(done[0] + done[1], 2 * n_games)
        return update

    own_pool = None
    if executor is None and jobs > 1:  # one pool of workers for both arms (started once)
        from concurrent.futures import ProcessPoolExecutor

        own_pool = executor = ProcessPoolExecutor(max_workers=jobs)
    common = dict(players=players, seed=seed, rotate=rotate, jobs=jobs, executor=executor,
                  bot_options=bot_options, chunk_size=chunk)

    def play(k: int, arm: Arm):
        return simulate(n_games, list(bots), rules=arm.rules, deck=arm.deck, lords=arm.lords,
                        progress=part(k), **common)

    t0 = time.perf_counter()
    try:
        if executor is None:
            sim_a, sim_b = play(0, a), play(1, b)
        else:  # arm B's games are queued while arm A's play; each arm's tables are built as
            # soon as its games are in (a thread here only waits for the workers)
            with ThreadPoolExecutor(max_workers=1) as other:
                later = other.submit(play, 1, b)
                sim_a = play(0, a)
                sim_b = later.result()
    finally:
        if own_pool is not None:
            own_pool.shutdown()
    settings = {"games": n_games, "bots": list(bots), "players": players, "seed": seed, "rotate": rotate,
                "bootstrap_seed": 0, "seconds": time.perf_counter() - t0}  # both arms, wall
    return ABResult(a, b, sim_a, sim_b, settings)


# ---------------------------------------------------------------------- comparing
def _paired_games(sim_a, sim_b):
    ga = sim_a.games.sort_values(["game", "seat"]).reset_index(drop=True)
    gb = sim_b.games.sort_values(["game", "seat"]).reset_index(drop=True)
    keys = ["game", "seat", "bot"]
    if len(ga) != len(gb) or not ga[keys].equals(gb[keys]):
        raise ValueError("the two runs are not paired: play both arms with the same number of games, "
                         "players, bots and seat rotation (run_ab does)")
    return ga, gb


def _row(metric, group, label, unit, a, b, diff, method, n, p=float("nan")) -> dict[str, Any]:
    return {"metric": metric, "group": group, "label": label, "unit": unit,
            "a": a[0], "a_low": a[1], "a_high": a[2], "b": b[0], "b_low": b[1], "b_high": b[2],
            "diff": diff[0], "diff_low": diff[1], "diff_high": diff[2], "p": p, "method": method, "n": n}


def _paired_rate_rows(rows, metric, group, label, wa, wb, n_trials_a, n_trials_b):
    """Rates whose per-game values pair up (win shares): Wilson per arm, sign test + paired t."""
    from ..analysis.metrics import wilson

    d = [float(y - x) for x, y in zip(wa, wb)]
    pt = stats.paired_t(d)
    st = stats.sign_test(d)
    sa, sb = float(sum(wa)), float(sum(wb))
    ra = sa / len(wa) if len(wa) else float("nan")
    rb = sb / len(wb) if len(wb) else float("nan")
    la, ha = wilson(sa * n_trials_a / max(len(wa), 1), n_trials_a)
    lb, hb = wilson(sb * n_trials_b / max(len(wb), 1), n_trials_b)
    rows.append(_row(metric, group, label, "rate", (ra, la, ha), (rb, lb, hb),
                     (pt["mean"], pt["ci_low"], pt["ci_high"]),
                     f"sign test (McNemar exact), {st['up']} up / {st['down']} down; CI paired t",
                     len(d), st["p"]))


def _paired_mean_row(rows, metric, group, label, unit, va, vb):
    from ..analysis.metrics import mean_ci

    d = [float(y - x) for x, y in zip(va, vb)]
    pt = stats.paired_t(d)
    ma, _, la, ha = mean_ci(va)
    mb, _, lb, hb = mean_ci(vb)
    rows.append(_row(metric, group, label, unit, (ma, la, ha), (mb, lb, hb),
                     (pt["mean"], pt["ci_low"], pt["ci_high"]), "paired t-test", len(d), pt["p"]))


def _lead_changes_per_game(rounds) -> list[int]:
    """Per game (in game order): lead changes, as ``metrics.lead_changes`` counts them (the
    sole leader after each round; a tie keeps the previous leader)."""
    lead = rounds[rounds["leader"]][["game", "round", "seat"]].sort_values(["game", "round"])
    by_game: dict[int, list[int]] = {}
    for game, seat in zip(lead["game"], lead["seat"]):
        by_game.setdefault(int(game), []).append(int(seat))
    out = []
    for game in sorted(rounds["game"].unique()):
        seats = by_game.get(int(game), [])
        out.append(sum(1 for x, y in zip(seats, seats[1:]) if x != y))
    return out


def compare(sim_a, sim_b, *, seed: int = 0, resamples: int = 2000, alpha: float = ALPHA):
    """The comparison table of two paired runs: one row per metric (and seat, bot or level),
    columns ``COMPARISON_COLUMNS``: each arm's value with its 95 % interval (``a``, ``a_low``,
    ``a_high``; ``b``...), the paired difference B − A with its 95 % interval, the test's p,
    Holm's adjusted p over all rows, ``significant`` (adjusted p < ``alpha``), the ``method``
    and ``n`` (pairs). Rates are fractions (0.25 = 25 %)."""
    import pandas as pd

    ga, gb = _paired_games(sim_a, sim_b)
    games = sorted(ga["game"].unique())
    boot = {"resamples": resamples, "seed": seed}
    rows: list[dict[str, Any]] = []
    win_a = ga.pivot(index="game", columns="seat", values="win").loc[games]
    win_b = gb.pivot(index="game", columns="seat", values="win").loc[games]
    _win_rate_rows(rows, ga, gb, win_a, win_b, games)
    rows.append(_balance_row(win_a, win_b, len(games), boot))
    _per_game_mean_rows(rows, sim_a, sim_b, ga, gb, games)
    _clear_rate_level_rows(rows, sim_a.rooms, sim_b.rooms, games, boot)
    table = pd.DataFrame(rows)
    table["p_holm"] = stats.holm(list(table["p"].astype(float)))
    table["significant"] = table["p_holm"].lt(alpha) & table["p_holm"].notna()
    return table[list(COMPARISON_COLUMNS)]


def _win_rate_rows(rows: list, ga, gb, win_a, win_b, games: list) -> None:
    """Win rate per seat (seat 0 starts round 1, R2.5), and per bot when different strategies
    play: paired rates."""
    n = len(games)
    for s in sorted(ga["seat"].unique()):
        _paired_rate_rows(rows, "win_rate_seat", f"seat {s}", "win rate", list(win_a[s]), list(win_b[s]), n, n)
    bots = sorted(ga["bot"].unique())
    if len(bots) > 1:
        for bot in bots:
            pa = ga[ga["bot"] == bot].groupby("game")["win"].mean().reindex(games)
            pb = gb[gb["bot"] == bot].groupby("game")["win"].mean().reindex(games)
            keep = pa.notna() & pb.notna()
            seats_played = int((ga["bot"] == bot).sum())
            _paired_rate_rows(rows, "win_rate_bot", str(bot), "win rate",
                              list(pa[keep]), list(pb[keep]), seats_played, seats_played)


def _balance_row(win_a, win_b, n: int, boot: dict) -> dict[str, Any]:
    """Balance of the seat win rates (1 − their range): paired bootstrap over games."""
    import numpy as np

    WA, WB = win_a.to_numpy(float), win_b.to_numpy(float)

    def balance_of(W):
        return lambda c: 1.0 - np.ptp((c @ W) / c.sum(axis=1, keepdims=True), axis=1)

    bd = stats.paired_bootstrap(lambda c: balance_of(WB)(c) - balance_of(WA)(c), n, **boot)
    ba = stats.paired_bootstrap(balance_of(WA), n, **boot)
    bb = stats.paired_bootstrap(balance_of(WB), n, **boot)
    return _row("balance", "", "balance", "index", (ba["diff"], ba["ci_low"], ba["ci_high"]),
                (bb["diff"], bb["ci_low"], bb["ci_high"]), (bd["diff"], bd["ci_low"], bd["ci_high"]),
                "paired bootstrap over games", n, bd["p"])


def _per_game_mean_rows(rows: list, sim_a, sim_b, ga, gb, games: list) -> None:
    """Per-game means, paired t: gold, gold gap, bank flows, game length, lead changes, rooms
    cleared."""
    gold_a = ga.pivot(index="game", columns="seat", values="gold").loc[games]
    gold_b = gb.pivot(index="game", columns="seat", values="gold").loc[games]
    _paired_mean_row(rows, "gold_mean", "", "final gold (mean of all players)", "gold",
                     list(gold_a.mean(axis=1)), list(gold_b.mean(axis=1)))
    _paired_mean_row(rows, "gold_gap", "", "gold gap, richest − poorest", "gold",
                     list(gold_a.max(axis=1) - gold_a.min(axis=1)), list(gold_b.max(axis=1) - gold_b.min(axis=1)))
    ra = sim_a.rounds.groupby(["game", "round"]).first().groupby("game")[["paid_out", "paid_in"]].sum().reindex(games)
    rb = sim_b.rounds.groupby(["game", "round"]).first().groupby("game")[["paid_out", "paid_in"]].sum().reindex(games)
    _paired_mean_row(rows, "paid_out", "", "gold the bank pays out per game (treasure, bonuses)", "gold",
                     list(ra["paid_out"]), list(rb["paid_out"]))
    _paired_mean_row(rows, "paid_in", "", "gold paid to the bank per game (fees, heal costs)", "gold",
                     list(ra["paid_in"]), list(rb["paid_in"]))
    len_a = ga.groupby("game")["actions"].first().reindex(games)
    len_b = gb.groupby("game")["actions"].first().reindex(games)
    _paired_mean_row(rows, "game_length", "", "game length (actions)", "actions", list(len_a), list(len_b))
    _paired_mean_row(rows, "lead_changes", "", "lead changes per game", "count",
                     _lead_changes_per_game(sim_a.rounds), _lead_changes_per_game(sim_b.rounds))
    ca = sim_a.rooms.groupby("game")["cleared"].mean().reindex(games)
    cb = sim_b.rooms.groupby("game")["cleared"].mean().reindex(games)
    _paired_mean_row(rows, "rooms_cleared", "", "share of rooms cleared per game", "rate",
                     list(ca.astype(float)), list(cb.astype(float)))


def _clear_rate_level_rows(rows: list, ma, mb, games: list, boot: dict) -> None:
    """Clear rate by level: a ratio of sums (Wilson intervals per arm), the difference by a
    paired bootstrap over games."""
    import numpy as np

    from ..analysis.metrics import wilson

    n = len(games)
    for level in sorted(set(ma["level"]) | set(mb["level"])):
        def per_game(m):
            sub = m[m["level"] == level]
            cleared = sub.groupby("game")["cleared"].sum().reindex(games, fill_value=0).to_numpy(float)
            dealt = sub.groupby("game").size().reindex(games, fill_value=0).to_numpy(float)
            return cleared, dealt
        xa, na_ = per_game(ma)
        xb, nb_ = per_game(mb)

        def rate(x, d):
            def f(c):
                den = c @ d
                with np.errstate(invalid="ignore", divide="ignore"):
                    return np.where(den > 0, (c @ x) / np.where(den > 0, den, 1), np.nan)
            return f
        bd = stats.paired_bootstrap(lambda c: rate(xb, nb_)(c) - rate(xa, na_)(c), n, **boot)
        la, ha = wilson(xa.sum(), int(na_.sum()))
        lb, hb = wilson(xb.sum(), int(nb_.sum()))
        va = xa.sum() / na_.sum() if na_.sum() else float("nan")
        vb = xb.sum() / nb_.sum() if nb_.sum() else float("nan")
        rows.append(_row("clear_rate_level", f"Lv{level}", "clear rate", "rate", (va, la, ha), (vb, lb, hb),
                         (bd["diff"], bd["ci_low"], bd["ci_high"]), "paired bootstrap over games", n, bd["p"]))


# ---------------------------------------------------------------------- words
def fmt_value(value: float, unit: str, diff: bool = False) -> str:
    """A value for people: rates in %, differences of rates in percentage points, gold in $
    (differences signed, with a true minus sign)."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "—"
    sign = ("+" if value >= 0 else "−") if diff else ("−" if value < 0 else "")
    mag = abs(value)
    if unit == "rate":
        return f"{sign}{mag * 100:.1f} pp" if diff else f"{sign}{mag * 100:.1f} %"
    if unit == "index":
        return f"{sign}{mag:.3f}"
    if unit == "gold":
        return f"{sign}${mag:.2f}"
    return f"{sign}{mag:.2f}"


def fmt_p(p: float) -> str:
    if p is None or math.isnan(p):
        return "—"
    if p < 0.001:
        return "< 0.001"
    return f"{p:.3f}"


def fmt_p_eq(p: float) -> str:
    """``= 0.012`` or ``< 0.001`` (to follow a "p")."""
    text = fmt_p(p)
    return text if text.startswith("<") else f"= {text}"


def row_label(row, lang: str = "en") -> str:
    label = wt(f"metric_{row['metric']}", lang)
    group = row["group"]
    if row["metric"] == "win_rate_bot":
        from .. import i18n

        bot = i18n.t(f"bot.{group}", lang) if i18n.has(f"bot.{group}", lang) else group
        return f"{label} {bot}" if lang != "zh" else f"{label}{bot}"
    if isinstance(group, str) and group.startswith("seat "):
        group = wt("seat_n", lang, seat=int(group[5:]) + 1)  # seats are numbered from 1 for people
    return f"{label} ({group})" if group else label


def verdict_lines(table, name_a: str = "A", name_b: str = "B", lang: str = "en",
                  identical_rules: bool = False) -> list[str]:
    """The verdict in plain words, one sentence a line (headline first, method last)."""
    m = int(table["p"].notna().sum())
    sig = table[table["significant"]]
    lines = []
    all_zero = bool((table["diff"].fillna(0) == 0).all() and (table["diff_low"].fillna(0) == 0).all()
                    and (table["diff_high"].fillna(0) == 0).all())
    if all_zero:
        lines.append(wt("verdict_identical", lang))
    if sig.empty:
        lines.append(wt("verdict_none", lang, m=m))
    else:
        lines.append(wt("verdict_some", lang, k=len(sig), m=m))
        for _, row in sig.iterrows():
            lines.append(wt("verdict_row", lang, what=row_label(row, lang), a=name_a, b=name_b,
                            va=fmt_value(row["a"], row["unit"]), vb=fmt_value(row["b"], row["unit"]),
                            diff=fmt_value(row["diff"], row["unit"], diff=True),
                            lo=fmt_value(row["diff_low"], row["unit"], diff=True),
                            hi=fmt_value(row["diff_high"], row["unit"], diff=True),
                            test=_test_name(row["method"], lang), p=fmt_p_eq(row["p"]),
                            padj=fmt_p_eq(row["p_holm"])))
        rest = table[~table["significant"]]
        if not rest.empty:
            lines.append(wt("verdict_rest", lang, items=", ".join(row_label(r, lang) for _, r in rest.iterrows())))
    nominal = table[~table["significant"] & table["p"].lt(ALPHA)]
    if not nominal.empty:
        lines.append(wt("verdict_nominal", lang, items=", ".join(
            f"{row_label(r, lang)} (p {fmt_p_eq(r['p'])})" for _, r in nominal.iterrows())))
    if identical_rules and not all_zero:
        lines.append(wt("verdict_same_rules_noise", lang))
    lines.append(wt("verdict_method", lang, m=m, n=int(table["n"].max()) if len(table) else 0))
    return lines


def _test_name(method: str, lang: str) -> str:
    if method.startswith("sign test"):
        return wt("test_sign", lang)
    if method.startswith("paired t"):
        return wt("test_t", lang)
    return wt("test_bootstrap", lang)


def verdict(table, name_a: str = "A", name_b: str = "B", lang: str = "en", identical_rules: bool = False) -> str:
    return "\n".join(verdict_lines(table, name_a, name_b, lang, identical_rules))
