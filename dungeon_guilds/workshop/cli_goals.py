"""``dungeon-guilds explore --goal ID`` / ``--measure M --at-least X``: the goal search from the
command line (:mod:`.goals`), each proposal checked on fresh seeds and said in words."""

from __future__ import annotations

import argparse
import json
import math

from ..cards import reference_deck
from . import challenges as chmod
from .explorer import MEASURES
from .explorer_words import proposal_lines
from .goals import Goal, check_proposal, goal_of_challenge, search
from .knobs import all_knobs

__all__ = ["allowed_knobs", "goal_from_args", "run_goal"]


def _as_json(p) -> dict:
    """A proposal (or the nearest change): its changes, the search's estimate, the
    confirmation's (or null) and the fresh-seed check (or null)."""
    conf = None if p.confirm is None else [p.confirm.value, p.confirm.low, p.confirm.high]
    return {"changes": p.ids, "estimate": [p.estimate.value, p.estimate.low, p.estimate.high],
            "confirm": conf, "check": p.check}

KIND_WORDS = {"room": ("room_defence", "room_treasure"), "heal": ("heal",), "lock": ("lock",), "lord": ("lord",)}


def allowed_knobs(text: str, deck, pool) -> tuple[str, ...]:
    """Knob ids from ``room,heal,lock,lord`` kinds or exact ids ('' : every knob)."""
    words = [w.strip() for w in text.split(",") if w.strip()]
    if not words:
        return ()
    knobs = all_knobs(deck, pool)
    out = [k.id for k in knobs if any(k.kind in KIND_WORDS.get(w, ()) or k.id == w for w in words)]
    if not out:
        raise ValueError(f"--knobs: no knob matches {text!r} (kinds: room, heal, lock, lord; or knob ids)")
    return tuple(out)


def goal_from_args(args: argparse.Namespace, deck, settings) -> Goal:
    if args.goal:
        ch = next((c for c in chmod.load() if c.id == args.goal), None)
        if ch is None:
            raise ValueError(f"--goal: no challenge {args.goal!r} (known: {', '.join(c.id for c in chmod.load())})")
        return goal_of_challenge(ch, search_games=min(args.games, 2000))
    if (args.at_least is None) == (args.at_most is None):
        raise ValueError("give one of --at-least or --at-most with --measure")
    direction, target = ("at_least", args.at_least) if args.at_least is not None else ("at_most", args.at_most)
    margin = args.margin if args.margin is not None else max(abs(target) / 10, 0.005)
    knobs = allowed_knobs(args.knobs, deck or reference_deck(), settings.pool())
    return Goal(args.measure, args.compare, direction, target, margin=margin, unit=MEASURES[args.measure],
                knobs=knobs, settings=settings, deck=deck, search_games=min(args.games, 2000), seed=args.seed,
                fresh_seed=args.seed + 1_000_000)


def run_goal(args, deck, settings, jobs: int, executor, checks: int = 3) -> int:
    goal = goal_from_args(args, deck, settings)
    result = search(goal, jobs=jobs, executor=executor, size=args.size)
    goal = result.goal
    for p in result.proposals[:checks]:
        check_proposal(goal, p, jobs=jobs, executor=executor)
    if args.json:
        near = result.nearest
        print(json.dumps({"tried": result.tried, "proposals": [_as_json(p) for p in result.proposals],
                          "nearest": None if near is None else _as_json(near), "size": result.size,
                          "space": result.space, "exhausted": result.exhausted},
                         default=lambda v: None if isinstance(v, float) and math.isnan(v) else v))
        return 0
    from .explorer_words import et, no_proposal_lines

    if not result.proposals:
        print("\n".join(no_proposal_lines(goal, result, args.lang)))
        return 0
    print(et("proposals", args.lang))
    for p in result.proposals[:checks]:
        print("- " + "\n  ".join(proposal_lines(goal, p, args.lang)))
    return 0
