"""The explorer's goal search (issue 41): the smallest changes predicted to meet a goal, each
checked on fresh seeds the search never saw.

A :class:`Goal` is a design challenge of ``data/challenges.toml`` (:func:`goal_of_challenge`) or
one a student writes: a measure of the map (:data:`.explorer.MEASURES`), ``value`` (the new
version's) or ``change`` (from the reference, game by game), ``at_least`` / ``at_most`` a
target or ``between`` two, and the knobs allowed.

:func:`search` plays the reference version and every allowed knob one step up and down on the
*search seeds* (seed ``goal.seed``; common random numbers). A version is **predicted to meet**
the goal when its whole 95 % interval is on the goal's side and its estimate is beyond the
target by the search's half-width plus twice the half-width the check will reach
(:func:`predicted`), so a check on fresh seeds very likely agrees. With no single knob
predicted to meet it, the search tries changes of size 2 — pairs of knobs (ranked by the sum of
their single effects) and one knob two steps — then one knob three steps, all built only from
steps that moved the measure toward the goal. Last, the **range** stage (issue 53; it took the
place of the *wide* stages, each knob up to nine steps and pairs of those, and reaches all of
them): every change of up to ``size`` knobs (2; 3 when asked), each knob anywhere in its
range, ranked by the sum of the single knobs' measured effects (the sensitivity map's cells, a
step not measured read as that many ±1 steps); it plays all of them when at most ``breadth``
are left untried (the range is then *exhausted*), else the ``breadth`` most promising. Given a sensitivity map of
the same deck and settings (``known``), the single steps are read from it (its games and seed
are the search's) and nothing is played for them.

A stage's best estimates are the ones most flattered by chance (they were picked for being
best). So when a stage has nothing predicted, its few most promising changes are played again
on the **confirmation's games** (the search seed's next games: not the ones that picked them,
not the check's) and kept when :func:`confirmed` on those alone. The proposals are the changes
of the first stage that has any, the safest first (estimate beyond the target in half-widths);
with none, the result names the **nearest** change, which is claimed as nothing, and says how
much of the range was tried (``space``, ``exhausted``) and the chance a Check of the nearest
would say met (:func:`check_chance`): the words of why no change meets the goal.

:func:`check_proposal` then plays each proposal on **fresh seeds** (``goal.fresh_seed``, never
used by the search) exactly as a Check does: a pilot of ``min_games`` games, then as many as
the margin needs (at most ``max_games``); the verdict is met / not met / too close to tell
(:func:`~.challenges.verdict_status`). A challenge's proposal is checked by
:func:`.challenges.check` itself. Standard library only.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from itertools import combinations, product
from typing import Any, Callable, Sequence

from ..cards import Deck, reference_deck
from ..lords import Lord, get_lord
from ..rules import Rules
from . import challenges as chmod
from ..analysis.intervals import Estimate
from .explorer import change, one_arm
from .explorer_games import Settings, drain, play_iter, version_spec
from .knobs import Knob, KnobError, all_knobs, legal_steps, turned_many

GOALS = ("at_least", "at_most", "between")


@dataclass(frozen=True)
class Goal:
    """What the student wants (module doc). ``knobs``: the allowed knob ids (empty: all);
    ``pairs_within``: for a room-card challenge, a pair must turn two numbers of one kind of
    card (the challenge allows one kind changed). ``unit``: how its numbers are written."""

    measure: str
    compare: str
    goal: str
    target: float
    high: float = math.nan
    margin: float = 0.02
    unit: str = "rate"
    knobs: tuple[str, ...] = ()
    settings: Settings = field(default_factory=Settings)
    deck: Deck | None = None
    search_games: int = 300
    min_games: int = 100
    max_games: int = 600
    seed: int = 1
    fresh_seed: int = 1_000_001
    challenge: Any = None
    pairs_within: str = ""
    confirm_games: int = 0  # the confirmation's games (0: three times the search's, at most 2,000)

    def base_deck(self) -> Deck:
        return self.deck or reference_deck()

    def confirmation(self) -> range:
        """The confirmation's games: the search seed's games after the search's own (so no
        game that chose a candidate measures it again), never the check's fresh seed."""
        n = self.confirm_games or min(3 * self.search_games, 2000)
        return range(self.search_games, self.search_games + n)


def goal_of_challenge(ch, search_games: int | None = None, fresh_seed: int = 1_000_001) -> Goal:
    """The goal of a design challenge: its measure, target and margin, its players, bots and
    lord pool, and the knobs its change allows (one kind of room card, or its lord's numbers)."""
    pool = ch.pool() or tuple(get_lord(x.id) for x in _all_lords())
    settings = Settings(ch.players, tuple(ch.bots), Rules(lords="all"), pool)
    if ch.change == "room_card":
        knobs = tuple(k.id for k in all_knobs(reference_deck()) if k.kind in ("room_defence", "room_treasure"))
    else:
        knobs = tuple(k.id for k in all_knobs(reference_deck(), pool) if k.lord == ch.lord)
    return Goal("challenge", ch.compare, ch.goal, ch.target, margin=ch.margin, unit=ch.unit, knobs=knobs,
                settings=settings, search_games=search_games or ch.min_games * 2, min_games=ch.min_games,
                max_games=ch.max_games, seed=ch.seed, fresh_seed=fresh_seed, challenge=ch,
                pairs_within="card" if ch.change == "room_card" else "")


def _all_lords() -> tuple[Lord, ...]:
    from ..lords import ALL_LORDS

    return ALL_LORDS


# ---------------------------------------------------------------------- verdicts
def status(goal: Goal, low: float, high: float) -> str:
    """met / not_met / unclear for an interval (a band: met inside it, not met wholly outside)."""
    if goal.goal != "between":
        return chmod.verdict_status(goal.goal, goal.target, low, high)
    if math.isnan(low) or math.isnan(high):
        return "unclear"
    if goal.target <= low and high <= goal.high:
        return "met"
    return "not_met" if high < goal.target or low > goal.high else "unclear"


def room(goal: Goal, value: float) -> float:
    """How far ``value`` is on the goal's side of its target (negative: on the wrong side)."""
    if goal.goal == "at_least":
        return value - goal.target
    if goal.goal == "at_most":
        return goal.target - value
    return min(value - goal.target, goal.high - value)


def check_half_width(goal: Goal, est) -> float:
    """The half-width a check on fresh seeds will reach: the goal's margin, or what
    ``max_games`` games allow when that is wider (the search's half-width scaled by √games)."""
    h_s = (est.high - est.low) / 2
    return max(goal.margin, h_s * math.sqrt(goal.search_games / goal.max_games))


def predicted(goal: Goal, est) -> bool:
    """The search's rule: the whole interval on the goal's side, and the estimate beyond the
    target by the search's half-width plus twice the check's (:func:`check_half_width`): even
    if the truth is at the near end of the search's interval, a check's estimate is then on the
    goal's side by its own half-width about 97 % of the time."""
    if not est.enough or status(goal, est.low, est.high) != "met":
        return False
    return room(goal, est.value) >= (est.high - est.low) / 2 + 2 * check_half_width(goal, est)


def confirmed(goal: Goal, est, games: int) -> bool:
    """The rule for a candidate measured again on the confirmation's games (not the games that
    chose it, so its estimate carries no winner's curse): its whole interval on the goal's side
    and the estimate beyond the target by the check's half-width h_c plus z·√(h_s² + h_c²)/1.96
    (z = 1.645). With the truth unknown around the estimate (h_s) and the check's own noise
    (h_c), the check's estimate then clears the target by h_c (a *met*) with probability
    ≥ 95 % (normal model, flat prior)."""
    if not est.enough or status(goal, est.low, est.high) != "met":
        return False
    h_s = (est.high - est.low) / 2
    h_c = max(goal.margin, h_s * math.sqrt(games / goal.max_games))
    return room(goal, est.value) >= h_c + CONFIRM_Z / 1.96 * math.hypot(h_s, h_c)


CONFIRM_Z = 1.645  # one-sided 95 %: the chance a confirmed change's check says met


# ---------------------------------------------------------------------- measuring versions
def _lord_id(goal: Goal) -> str | None:
    return goal.challenge.lord if goal.challenge is not None and goal.challenge.lord else None


def _estimate(goal: Goal, ref: list[dict], recs: list[dict]):
    if goal.compare == "value":
        return one_arm(goal.measure, recs, goal.settings.bots)
    return change(goal.measure, ref, recs, goal.settings.bots)


def _play(goal: Goal, versions: Sequence[tuple[Deck, tuple]], games: range, seed, **run):
    """A generator of ``(done, total)`` steps returning the versions' records."""
    specs = [version_spec(d, lords, goal.settings, seed, goal.challenge, _lord_id(goal)) for d, lords in versions]
    return (yield from play_iter(specs, games, **run))


@dataclass
class Proposal:
    """A change (``changes``: ``[(knob, step)]``), its search estimate, and after the check its
    verdict on fresh seeds (``check``: status, estimate, low, high, games)."""

    changes: list[tuple[Knob, int]]
    estimate: Any
    size: int
    check: dict | None = None
    confirm: Any = None  # its estimate on the confirmation's games (:func:`confirmed`)

    @property
    def ids(self) -> list[tuple[str, int]]:
        return [(k.id, s) for k, s in self.changes]

    @property
    def best(self):
        """The estimate its claim rests on: the confirmation's when it was confirmed."""
        return self.confirm if self.confirm is not None else self.estimate


@dataclass
class SearchResult:
    goal: Goal
    reference: Any  # the reference version's measure on the search seeds
    proposals: list[Proposal]
    tried: int
    singles: list[Proposal] = field(default_factory=list)
    nearest: Proposal | None = None  # with no proposal: the change that came closest (not claimed)
    size: int = 2  # the range stage's most knobs changed at once (0: no range stage)
    space: int = 0  # how many changes of up to ``size`` knobs the editors allow (counted before any is played)
    exhausted: bool = False  # every one of them was played (so no change in the range meets the goal)


def _candidates(goal: Goal, deck: Deck, pool) -> list[tuple[Knob, int]]:
    knobs = [k for k in all_knobs(deck, pool) if not goal.knobs or k.id in goal.knobs]
    return [(k, s) for k in knobs for s in legal_steps(k, deck, pool)]


def _measure(goal: Goal, ref_recs, changes_list, run) -> list[Proposal]:
    deck, pool = goal.base_deck(), goal.settings.pool()
    versions, kept = [], []
    for changes in changes_list:
        try:
            versions.append(turned_many(changes, deck, pool))
        except KnobError:
            continue
        kept.append(changes)
    records = (yield from _play(goal, versions, range(goal.search_games), goal.seed, **run)) if versions else []
    return [Proposal(list(c), _estimate(goal, ref_recs, r), sum(abs(s) for _, s in c)) for c, r in zip(kept, records)]


def _safety(goal: Goal, p: Proposal) -> float:
    est = p.best
    half = (est.high - est.low) / 2 or 1e-9
    return room(goal, est.value) / half


def _size_two(goal: Goal, singles: list[Proposal], ref_value: float, limit: int) -> list[list]:
    """Pairs of knobs (different knobs; one card kind for a card challenge) and single knobs
    two steps, ranked by the additive prediction's room beyond the target."""
    effect = {p.ids[0]: p.estimate.value - (0.0 if goal.compare == "change" else ref_value) for p in singles}
    ranked = []
    for a, b in combinations(singles, 2):
        (ka, sa), (kb, sb) = a.changes[0], b.changes[0]
        if ka.id == kb.id or (goal.pairs_within == "card" and (ka.level, ka.defence, ka.treasure)
                              != (kb.level, kb.defence, kb.treasure)):
            continue
        ranked.append((effect[a.ids[0]] + effect[b.ids[0]], [(ka, sa), (kb, sb)]))
    for p in singles:
        (k, s), = p.changes
        ranked.append((2 * effect[p.ids[0]], [(k, 2 * s)]))
    base = 0.0 if goal.compare == "change" else ref_value
    ranked.sort(key=lambda x: -room(goal, base + x[0]))
    return [c for _, c in ranked[:limit]]


def search(goal: Goal, *, limit: int = 12, progress: Callable[[int, int], None] | None = None,
           cancel: Callable[[], bool] | None = None, jobs: int = 1, executor=None, known=None,
           confirm: int = 3, size: int = 2, breadth: int = 24) -> SearchResult:
    """Propose the smallest changes predicted to meet ``goal`` (module doc). ``limit``: how many
    size-2 changes (ranked by the single effects) are played; ``jobs``/``executor``: as the map
    (a Dask cluster's ``Client.get_executor()`` plays the games there); ``progress(done,
    total)`` after each chunk; ``cancel()`` True stops (``Cancelled``); ``known``: a sensitivity
    map of the same deck and settings, whose cells are the single knobs' estimates (its games and
    seed become the search's); ``confirm``: how many promising changes a stage plays again on the
    confirmation's games (0: none, the strict rule only); ``size``: the range stage's most knobs
    at once (2 pairs, 3 triples; 0 no range stage); ``breadth``: the most changes it plays."""
    return drain(search_iter(goal, limit=limit, jobs=jobs, executor=executor, known=known, confirm=confirm,
                             size=size, breadth=breadth), progress, cancel)


def _from_map(goal: Goal, m) -> tuple[Goal, Any, list[Proposal]]:
    """The goal on the map's seeds, the reference estimate and the single knobs from the map."""
    goal = replace(goal, search_games=m.games, seed=m.seed)
    ref = m.reference[goal.measure]
    reference = Estimate(goal.measure, None, ref[0], ref[1], ref[2], m.games, "map")
    singles = []
    for c in m.cells:
        if c["measure"] == goal.measure and (not goal.knobs or c["knob"] in goal.knobs):
            est = Estimate(goal.measure, None, c["value"], c["low"], c["high"], c["n"], "map", True, c["p"])
            singles.append(Proposal([(m.knob(c["knob"]), c["step"])], est, abs(c["step"])))
    return goal, reference, singles


def _usable(goal: Goal, m) -> bool:
    return (m is not None and goal.compare == "change" and goal.challenge is None and goal.measure in m.reference
            and Settings.from_dict(m.settings).to_dict() == goal.settings.to_dict()
            and m.deck == goal.base_deck().to_toml())


@dataclass
class _Run:
    """One search's state between its stages: the goal (on the map's seeds when a map was
    read), how games are played, the reference's records (None until needed) and estimate, and
    every change measured so far."""

    goal: Goal
    run: dict
    ref_recs: list | None
    reference: Any
    tried: list[Proposal]

    def ref(self):
        """The reference version's records on the search seeds (played once, when first needed)."""
        if self.ref_recs is None:
            deck, pool = self.goal.base_deck(), self.goal.settings.pool()
            self.ref_recs = (yield from _play(self.goal, [(deck, pool)], range(self.goal.search_games),
                                              self.goal.seed, **self.run))[0]
        return self.ref_recs


def search_iter(goal: Goal, *, limit: int = 12, jobs: int = 1, executor=None, known=None, confirm: int = 3,
                size: int = 2, breadth: int = 24):
    """:func:`search` as a generator of ``(done, total)`` steps returning the result.

    Stages, smallest change first: single knobs one step; pairs and one knob two steps; one
    knob three steps; then the *range* stage (:func:`_range_stage`): every change of up to
    ``size`` knobs anywhere in their ranges, the most promising first. After each stage
    with no change :func:`predicted`, its ``confirm`` most promising changes are played again
    on the confirmation's games (:meth:`Goal.confirmation`) and kept if :func:`confirmed`. With
    none at all the result names the ``nearest`` change (the best estimate toward the goal),
    claimed as nothing, and how much of the range was played."""
    s = _Run(goal, {"jobs": jobs, "executor": executor}, None, None, [])
    if _usable(goal, known):
        s.goal, s.reference, singles = _from_map(goal, known)
    else:
        ref = yield from s.ref()
        s.reference = one_arm(goal.measure, ref, goal.settings.bots)
        deck, pool = goal.base_deck(), goal.settings.pool()
        singles = yield from _measure(goal, ref, [[c] for c in _candidates(goal, deck, pool)], s.run)
    s.tried = list(singles)
    found = yield from _accept(s.goal, singles, confirm, s.run)
    if not found:
        found = yield from _stages(s, limit, confirm)
    space, exhausted = 0, False
    if size >= 2:
        space, exhausted, more = yield from _range_stage(s, size, breadth, confirm, found)
        found = found or more
    goal = s.goal
    found.sort(key=lambda p: (p.size, -_safety(goal, p)))
    nearest = None if found else _nearest(goal, s.reference, s.tried)
    if nearest is not None and nearest.confirm is None and confirm > 0:  # its chance on games that did not pick it
        yield from _measure_again(goal, [nearest], s.run)
        if confirmed(goal, nearest.confirm, len(goal.confirmation())):
            found, nearest = [nearest], None
    return SearchResult(goal, s.reference, found, len(s.tried), singles, nearest, size, space, exhausted)


def _stages(s: _Run, limit: int, confirm: int):
    """The stages of :data:`STAGES` in turn until one has a change said to meet the goal."""
    goal, found = s.goal, []
    deck, pool = goal.base_deck(), goal.settings.pool()
    toward = [p for p in s.tried if _toward(goal, s.reference, p)]
    for stage in STAGES:
        if found or not toward:
            break
        ref = yield from s.ref()
        seen = {tuple(p.ids) for p in s.tried}
        changes = [c for c in _stage_changes(stage, goal, toward, s.reference.value, limit, deck, pool)
                   if tuple((k.id, st) for k, st in c) not in seen]
        bigger = yield from _measure(goal, ref, changes, s.run)
        s.tried += bigger
        toward += [p for p in bigger if len(p.changes) == 1 and _toward(goal, s.reference, p)]
        found = yield from _accept(goal, bigger, confirm, s.run)
    return found


STAGES = ("pairs", "threes")  # then the range stage, which reaches every step and pair in range


def _stage_changes(stage: str, goal: Goal, toward: list[Proposal], ref_value: float, limit: int, deck, pool):
    """The changes a stage plays, built from the ±1 steps that moved toward the goal."""
    ones = [p for p in toward if len(p.changes) == 1 and abs(p.changes[0][1]) == 1]
    if stage == "pairs":
        return _size_two(goal, ones, ref_value, limit)
    return [[(p.changes[0][0], 3 * p.changes[0][1])] for p in ones]


# ---------------------------------------------------------------------- the range stage (issue 53)
RANGE_STEPS = range(-9, 10)  # the steps of a knob the range stage asks the editors about


SPACE_CAP = 2000  # the most changes the range stage lists; beyond, only the knobs the map ranks highest


def _range_stage(s: _Run, size: int, breadth: int, confirm: int, found: list):
    """With nothing found yet: the changes of up to ``size`` knobs anywhere in their ranges
    (:func:`space`; when they are more than :data:`SPACE_CAP`, those of the knobs whose best
    single step goes furthest toward the goal), ranked by :func:`_additive`; all the untried
    ones played when at most ``breadth`` are left (the range exhausted), else the ``breadth``
    most promising. Returns ``(space, exhausted, found)``: ``space`` counts every change of up to
    ``size`` allowed knobs."""
    if found:
        return 0, False, []
    goal = s.goal
    effect = _effects(goal, s.reference, s.tried)
    base = 0.0 if goal.compare == "change" else s.reference.value
    changes, count, complete = range_changes(goal, effect, base, size)
    seen = {frozenset(p.ids) for p in s.tried}  # a pair is the same change in either order
    left = [c for c in changes if frozenset((k.id, st) for k, st in c) not in seen]
    exhausted = complete and len(left) <= breadth
    left.sort(key=lambda c: -room(goal, base + sum(_additive(effect, k.id, st) for k, st in c)))
    if not left:
        return count, exhausted, []
    ref = yield from s.ref()
    more = yield from _measure(goal, ref, left[:breadth], s.run)
    s.tried += more
    found = yield from _accept(goal, more, confirm, s.run)
    return count, exhausted, found


def range_changes(goal: Goal, effect: dict, base: float, size: int) -> tuple[list, int, bool]:
    """The range stage's list: ``(changes, count, complete)``. Every change of up to ``size``
    allowed knobs (:func:`space`) when they are at most :data:`SPACE_CAP`, else those of the
    knobs whose best single step (``effect``, from ``base``) goes furthest toward the goal, as
    many knobs as the cap allows; ``count``: how many changes the whole range holds."""
    knobs, steps = _range_knobs(goal)
    ranked = sorted(knobs, key=lambda k: -max(room(goal, base + _additive(effect, k.id, st)) for st in steps[k.id]))
    while len(ranked) > size and _count(goal, ranked, steps, size) > SPACE_CAP:
        ranked.pop()
    changes = space(goal, size, ranked)
    complete = len(ranked) == len(knobs)
    return changes, len(changes) if complete else _count(goal, knobs, steps, size), complete


def _range_knobs(goal: Goal) -> tuple[list[Knob], dict[str, list[int]]]:
    """The allowed knobs with steps in range, and each one's steps the editors accept."""
    deck, pool = goal.base_deck(), goal.settings.pool()
    knobs = [k for k in all_knobs(deck, pool) if not goal.knobs or k.id in goal.knobs]
    steps = {k.id: [st for st in legal_steps(k, deck, pool, RANGE_STEPS) if st] for k in knobs}
    return [k for k in knobs if steps[k.id]], steps


def _together(goal: Goal, combo) -> bool:
    """Whether these knobs may change together (a card challenge: the numbers of one card)."""
    return goal.pairs_within != "card" or len({(k.level, k.defence, k.treasure) for k in combo}) == 1


def _count(goal: Goal, knobs, steps, size: int) -> int:
    """How many changes of up to ``size`` of ``knobs`` their steps make (before the editors
    judge a whole change: a few may be refused together)."""
    return sum(math.prod(len(steps[k.id]) for k in combo) for n in range(1, size + 1)
               for combo in combinations(knobs, n) if _together(goal, combo))


def space(goal: Goal, size: int = 2, knobs: Sequence[Knob] | None = None) -> list[list[tuple[Knob, int]]]:
    """Every change of 1 … ``size`` different allowed knobs (or of ``knobs``), each turned any
    number of steps the editors accept (:data:`RANGE_STEPS`) and the whole change accepted too
    (two numbers of one card for a card challenge, :attr:`Goal.pairs_within`), smallest first."""
    deck, pool = goal.base_deck(), goal.settings.pool()
    allowed, steps = _range_knobs(goal)
    knobs = allowed if knobs is None else [k for k in allowed if k in set(knobs)]  # in the deck's order
    out = []
    for n in range(1, size + 1):
        for combo in combinations(knobs, n):
            if not _together(goal, combo):
                continue
            for st in product(*(steps[k.id] for k in combo)):
                change = list(zip(combo, st))
                if n == 1 or _accepted(change, deck, pool):
                    out.append(change)
    return out


def _accepted(changes, deck, pool) -> bool:
    try:
        turned_many(changes, deck, pool)
    except KnobError:
        return False
    return True


def _effects(goal: Goal, reference, tried: list[Proposal]) -> dict[tuple[str, int], float]:
    """The measured effect of each single knob step (from the reference), its best estimate."""
    base = 0.0 if goal.compare == "change" else reference.value
    return {p.ids[0]: p.best.value - base for p in tried
            if len(p.changes) == 1 and p.best.enough and not math.isnan(p.best.value)}


def _additive(effect: dict, knob: str, step: int) -> float:
    """A step's effect: measured, or the ±1 step's that way times the steps (0 if not measured)."""
    if (knob, step) in effect:
        return effect[(knob, step)]
    return effect.get((knob, 1 if step > 0 else -1), 0.0) * abs(step)


def check_chance(goal: Goal, est, games: int) -> float:
    """The chance a Check says *met* for a change estimated at ``est`` on ``games`` games that
    did not pick it (the normal model of :func:`confirmed`: the truth unknown around the
    estimate, the check's own noise h_c on top): Φ((room − h_c) / √(σ_s² + σ_c²))."""
    if not est.enough or math.isnan(est.value):
        return 0.0
    h_s = (est.high - est.low) / 2
    h_c = max(goal.margin, h_s * math.sqrt(games / goal.max_games))
    sd = math.hypot(h_s, h_c) / 1.96
    return 0.5 * math.erfc(-(room(goal, est.value) - h_c) / (sd * math.sqrt(2))) if sd > 0 else float(
        room(goal, est.value) >= h_c)


def _accept(goal: Goal, measured: list[Proposal], k: int, run):
    """The changes of a stage said to meet the goal: :func:`predicted` ones, or else its ``k``
    most promising (their interval reaches the goal's side by the check's half-width)
    :func:`confirmed` on the confirmation's games."""
    found = [p for p in measured if predicted(goal, p.estimate)]
    if found or k <= 0:
        return found
    promising = sorted((p for p in measured if p.estimate.enough and room(goal, p.estimate.value)
                        + (p.estimate.high - p.estimate.low) / 2 >= check_half_width(goal, p.estimate)),
                       key=lambda p: -room(goal, p.estimate.value))[:k]
    if not promising:
        return []
    yield from _measure_again(goal, promising, run)
    return [p for p in promising if confirmed(goal, p.confirm, len(goal.confirmation()))]


def _measure_again(goal: Goal, proposals: list[Proposal], run):
    """Play ``proposals`` on the confirmation's games; each gets its estimate there (``confirm``)."""
    deck, pool, games = goal.base_deck(), goal.settings.pool(), goal.confirmation()
    versions = [turned_many(p.changes, deck, pool) for p in proposals]
    with_ref = goal.compare == "change"
    recs = yield from _play(goal, [(deck, pool)] * with_ref + versions, games, goal.seed, **run)
    ref = recs[0] if with_ref else []
    for p, r in zip(proposals, recs[with_ref:]):
        p.confirm = _estimate(goal, ref, r)


def _toward(goal: Goal, reference, p: Proposal) -> bool:
    return room(goal, _level(goal, reference, p)) > room(goal, _level(goal, reference, None))


def _nearest(goal: Goal, reference, tried: list[Proposal]) -> Proposal | None:
    """The change whose estimate (the confirmation's when it has one) came closest to the goal
    in the goal's direction; None if none moved toward it."""
    near = [p for p in tried if p.best.enough and _toward(goal, reference, replace(p, estimate=p.best))]
    return max(near, key=lambda p: (room(goal, p.best.value), -p.size), default=None)


def _level(goal: Goal, reference, p: Proposal | None) -> float:
    """The goal's quantity for a proposal (None: the reference version)."""
    if goal.compare == "change":
        return 0.0 if p is None else p.estimate.value
    return reference.value if p is None else p.estimate.value


# ---------------------------------------------------------------------- the fresh-seed check
def check_proposal(goal: Goal, proposal: Proposal, *, progress=None, jobs: int = 1, executor=None) -> dict:
    """Play ``proposal`` on fresh seeds as a Check does and store the verdict in it."""
    return drain(check_iter(goal, proposal, jobs=jobs, executor=executor), progress)


def check_iter(goal: Goal, proposal: Proposal, *, jobs: int = 1, executor=None):
    """:func:`check_proposal` as a generator of ``(done, total)`` steps (a challenge's check is
    :func:`.challenges.check`, one step)."""
    deck, lords = turned_many(proposal.changes, goal.base_deck(), goal.settings.pool())
    if goal.challenge is not None:
        res = _check_challenge(goal, deck, lords, None)
        yield res["games"], res["games"]
    else:
        res = yield from _check_measure(goal, deck, lords, jobs, executor)
    proposal.check = res
    return res


def _check_challenge(goal: Goal, deck: Deck, lords, progress) -> dict:
    ch = replace(goal.challenge, seed=goal.fresh_seed)
    if ch.change == "lord":
        lord = next(x for x in lords if x.id == ch.lord)
        r = chmod.check(ch, lord=lord, progress=progress)
    else:
        r = chmod.check(ch, deck=deck, progress=progress)
    return {"status": r.status, "value": r.estimate, "low": r.low, "high": r.high, "games": r.games,
            "seed": goal.fresh_seed}


def _check_measure(goal: Goal, deck: Deck, lords, jobs, executor):
    versions = [(goal.base_deck(), goal.settings.pool()), (deck, lords)]
    run = {"jobs": jobs, "executor": executor}
    a, b = yield from _play(goal, versions, range(goal.min_games), goal.fresh_seed, **run)
    est = _estimate(goal, a, b)
    half = (est.high - est.low) / 2
    n = goal.max_games if math.isnan(half) else max(goal.min_games, min(
        goal.max_games, math.ceil(goal.min_games * (half / goal.margin) ** 2)))
    if n > goal.min_games:
        a2, b2 = yield from _play(goal, versions, range(goal.min_games, n), goal.fresh_seed, **run)
        a, b = a + a2, b + b2
        est = _estimate(goal, a, b)
    return {"status": status(goal, est.low, est.high) if est.enough else "unclear", "value": est.value,
            "low": est.low, "high": est.high, "games": n, "seed": goal.fresh_seed}


__all__ = ["GOALS", "Goal", "Proposal", "RANGE_STEPS", "SPACE_CAP", "STAGES", "SearchResult", "check_chance",
           "check_iter", "check_proposal", "check_half_width", "confirmed", "goal_of_challenge", "predicted", "range_changes",
           "room", "search", "search_iter", "space", "status"]
