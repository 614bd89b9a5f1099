"""Issue 53, item 4: the goal search's pairs over the knobs' whole ranges, and its plain
statement of why no change meets a goal.

The fixed workload: the shipped reference map's settings (4 players, random bots, 2,000 games a
version, seed 1) and two knobs whose range is one step each way, the defence of the Lv3 cards
8/9 and 8/10 (R1.2: a level-3 defence is 7 to 9, so 8 → 7 is as far as either goes). In the
map each of them, 8 → 7, raises the level-3 clear rate by about 2.1–2.3 points (intervals up to
2.6), so a goal of +3 points is out of reach of either alone, whatever the search's luck, and
the two together give about +4.4. The single knobs are read from the map; only the reference,
the pairs and their confirmations are played (random bots: about 12 CPU-seconds in all). The
last test counts the range (pairs, triples; a card challenge's pairs on one card) without a game.
"""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from dungeon_guilds.workshop.explorer import reference_map
from dungeon_guilds.workshop.explorer_games import Settings
from dungeon_guilds.workshop.explorer_words import no_proposal_lines
from dungeon_guilds.cli import main
from dungeon_guilds.workshop import challenges as chmod
from dungeon_guilds.workshop.goals import Goal, check_chance, goal_of_challenge, room, search, space

KNOBS = ("room:3-8-9:defence", "room:3-8-10:defence")


@pytest.fixture(scope="module")
def m():
    return reference_map()


def goal_of(m, target: float) -> Goal:
    return Goal("clear_rate_3", "change", "at_least", target, margin=0.003, unit="rate", knobs=KNOBS,
                settings=Settings.from_dict(m.settings), max_games=4000, confirm_games=1000)


def test_the_workload_cannot_be_met_by_one_knob(m):
    # the premise, from the map and the editors: each knob has one step up and one down, and
    # neither step's whole interval reaches +3 points (so no single knob can meet the goal)
    goal = goal_of(m, 0.03)
    singles = [c for c in space(goal, 1)]
    assert sorted((k.id, s) for (k, s), in singles) == sorted((k, s) for k in KNOBS for s in (-1, 1))
    for knob in KNOBS:
        for step in (-1, 1):
            assert m.cell(knob, step, "clear_rate_3")["high"] < 0.03
    assert len(space(goal, 2)) == 8  # 4 single steps and 2 × 2 pairs


def test_a_pair_meets_what_no_single_knob_can(m):
    goal = goal_of(m, 0.03)
    result = search(goal, known=m)
    assert [p.ids for p in result.proposals] == [[("room:3-8-9:defence", -1), ("room:3-8-10:defence", -1)]]
    assert all(len(p.changes) == 1 for p in result.singles) and not any(
        p.ids == q.ids for p in result.singles for q in result.proposals)
    pair = result.proposals[0]
    assert pair.best.low > 0.03 and room(goal, pair.best.value) > 0.01  # about +4.4 points
    with pytest.raises(ValueError):
        no_proposal_lines(goal, result, "en")  # a search that found one never says none meets it


def test_out_of_reach_says_why_in_both_languages(m):
    # +6 points: beyond even the pair (about +4.4); the range holds 8 changes and all are played
    goal = goal_of(m, 0.06)
    result = search(goal, known=m)
    assert result.proposals == [] and result.exhausted and result.space == 8 and result.size == 2
    near = result.nearest
    assert [k.id for k, _ in near.changes] == list(KNOBS) and near.confirm is not None
    assert near.confirm.high < 0.06 and check_chance(goal, near.best, 1000) < 0.01
    en, zh = no_proposal_lines(goal, result, "en"), no_proposal_lines(goal, result, "zh")
    assert len(en) == len(zh) == 2
    assert en[0].startswith("Within the knobs' ranges, no change meets this goal") and "(8 changes" in en[0]
    assert "short of the target +6.0" in en[1] and "1000 games that did not pick it" in en[1]
    assert "沒有任何改動能有把握地達成" in zh[0] and "還沒到目標" in zh[1] and "1000 局" in zh[1]


def test_past_the_target_but_not_by_a_checks_margin(m):
    # a target the pair passes (+4 points) but with a check's margin of 1.5 points it would be
    # said met only about half of the time: not proposed, and the words give that chance
    goal = goal_of(m, 0.04)
    goal = replace(goal, margin=0.015)
    result = search(goal, known=m)
    assert result.proposals == [] and result.exhausted
    chance = check_chance(goal, result.nearest.best, 1000)
    assert room(goal, result.nearest.best.value) > 0 and 0.01 < chance < 0.95
    en = no_proposal_lines(goal, result, "en")
    assert "past the target" in en[1] and f"about {round(100 * chance)} % of the time" in en[1]


def test_triples_when_asked_and_a_card_challenge_keeps_to_one_card(m):
    # three knobs of one step each way: 6 single steps, 3 × 4 pairs, 8 triples
    goal = replace(goal_of(m, 0.03), knobs=(*KNOBS, "room:2-6-5:defence"))
    assert [len(space(goal, n)) for n in (1, 2, 3)] == [6, 18, 26]
    # "Level 3 worth the risk": one kind of room card may change, so a pair is two numbers of one card
    ch = next(c for c in chmod.load() if c.id == "level3_worth_it")
    pairs = [c for c in space(goal_of_challenge(ch), 2) if len(c) == 2]
    assert pairs and all(a.level == b.level and (a.defence, a.treasure) == (b.defence, b.treasure)
                         for (a, _), (b, _) in pairs)
    assert {(a.kind, b.kind) for (a, _), (b, _) in pairs} == {("room_defence", "room_treasure")}


def test_the_command_says_how_much_of_the_range_it_played(capsys):
    # a length 50 actions longer from one heal cost: out of reach; its 12 steps in range all played
    args = ["explore", "--measure", "length", "--at-least", "50", "--knobs", "heal:5", "--games", "40", "--json"]
    assert main(args) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["proposals"] == [] and (out["size"], out["space"], out["exhausted"]) == (2, 12, True)
    assert main(args[:-1] + ["--size", "0"]) == 0  # no range stage: the words say what was played
    text = capsys.readouterr().out
    assert "it played 4 changes (single knobs one step" in text and "not the knobs' whole ranges" in text


def test_a_large_range_is_listed_only_for_the_knobs_the_map_ranks_highest(m):
    # every knob of the reference deck and the base lords: tens of thousands of pairs; the range
    # stage lists at most SPACE_CAP of them, from the knobs whose single step (the map's) goes
    # furthest toward the goal (no game played)
    from dungeon_guilds.workshop.goals import SPACE_CAP, _count, _effects, _from_map, _range_knobs, range_changes

    goal = Goal("clear_rate_3", "change", "at_least", 0.5, margin=0.01, unit="rate",
                settings=Settings.from_dict(m.settings))
    goal, reference, singles = _from_map(goal, m)
    knobs, steps = _range_knobs(goal)
    changes, count, complete = range_changes(goal, _effects(goal, reference, singles), 0.0, 2)
    assert count == _count(goal, knobs, steps, 2) > 10 * SPACE_CAP and not complete
    assert 0 < len(changes) <= SPACE_CAP
    used = {k.id for c in changes for k, _ in c}
    assert {"room:3-8-10:defence", "room:3-8-9:defence"} <= used  # the map's two largest on this measure
    assert "room:1-3-2:treasure" not in used and len(used) < len(knobs)  # a knob that does not move it (0.0)
