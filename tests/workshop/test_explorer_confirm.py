"""The goal search's confirmation and its nearest change (issue 41, the shipped challenges): a
stage with nothing predicted plays its most promising changes again on games that did not pick
them; a search that finds nothing names the nearest change and promises nothing. Small fixed
workloads (one challenge's card, 100 search games): each test well under 20 s."""

from __future__ import annotations

import math
from dataclasses import replace

from dungeon_guilds.analysis.intervals import Estimate
from dungeon_guilds.workshop import challenges as chmod
from dungeon_guilds.workshop.explorer_words import no_proposal_lines, proposal_lines
from dungeon_guilds.workshop.goals import (Goal, check_proposal, confirmed, goal_of_challenge, predicted, search)

CHALLENGES = {c.id: c for c in chmod.load()}


def est(value, half, n=600):
    return Estimate("challenge", None, value, value - half, value + half, n, "test")


def test_the_confirmation_rule_by_hand():
    # "at most 95 %", the check's margin 2 points, at most 600 games: after 600 confirmation
    # games (h_s = 1.2 points) the estimate must be under 95 % by h_c + 1.645/1.96·√(h_s² + h_c²)
    goal = Goal("challenge", "value", "at_most", 0.95, margin=0.02, max_games=600)
    need = 0.02 + 1.645 / 1.96 * math.hypot(0.012, 0.02)  # 3.96 points
    assert confirmed(goal, est(0.95 - need - 0.001, 0.012), 600)
    assert not confirmed(goal, est(0.95 - need + 0.001, 0.012), 600)
    # the search's own rule is stricter (h_s + 2 h_c = 5.2 points): 4 points short of 95 % is not
    # predicted from the search games, yet confirmed on games that did not pick it
    assert not predicted(replace(goal, search_games=600), est(0.91, 0.012))
    assert confirmed(goal, est(0.91, 0.012), 600)
    assert not confirmed(goal, est(0.96, 0.012), 600)  # the wrong side: never


def test_a_shipped_challenge_gets_a_checked_proposal():
    # "Level 1 is a risk too" on its Lv1 card 4/3's defence (the knob the map points to): the
    # single step 4 → 5 lands about 5 points under 95 %, short of the search's strict rule on 100
    # games, so it is played again on 300 other games, confirmed, and checked on fresh seeds
    goal = goal_of_challenge(CHALLENGES["risky_level1"], search_games=100)
    goal = replace(goal, knobs=("room:1-4-3:defence",))
    result = search(goal)
    assert [p.ids for p in result.proposals] == [[("room:1-4-3:defence", 1)]]
    p = result.proposals[0]
    assert not predicted(goal, p.estimate) and p.confirm is not None and p.confirm.n == 300
    assert confirmed(goal, p.confirm, 300) and result.nearest is None
    res = check_proposal(goal, p)
    assert res["seed"] == goal.fresh_seed and res["status"] == "met" and res["high"] <= 0.95
    en, zh = proposal_lines(goal, p, "en"), proposal_lines(goal, p, "zh")
    assert "measured again on 300 other games" in en[0] and "4 → 5" in en[0] and "Goal met" in en[1]
    assert "另外 300 局" in zh[0] and "達成目標" in zh[1]


def test_no_proposal_names_the_nearest_change_and_promises_nothing():
    # a length 50 actions longer: far beyond what one heal cost does
    goal = Goal("length", "change", "at_least", 50.0, margin=1.0, knobs=("heal:5",), search_games=60)
    result = search(goal)
    assert result.proposals == [] and result.nearest is not None
    (knob, step), = result.nearest.changes
    # chosen on its search estimate, then measured again on games that did not pick it (issue 53)
    assert knob.id == "heal:5" and all(result.nearest.estimate.value >= p.estimate.value for p in result.singles
                                       if p.estimate.enough) and result.nearest.confirm is not None
    en, zh = no_proposal_lines(goal, result, "en"), no_proposal_lines(goal, result, "zh")
    assert len(en) == len(zh) == 2
    assert "no change meets this goal" in en[0] and "the nearest change is heal cost of strength 5" in en[1] and "Not promised" in en[1]
    assert "short of the target" in en[1] and "最接近的" in zh[1] and "不保證達成" in zh[1]
