"""Dungeon Fighter (the Dungeon Fighter overview): components, dice, target, revival, score formula and tiers."""

from __future__ import annotations

from fractions import Fraction
from itertools import product

import pytest

from dungeon_guilds.siblings import dungeon_fighter as df


def test_components_and_players():
    counts = {k: n for k, (n, _) in df.COMPONENTS.items()}
    assert counts["coloured dice"] == 3 and counts["white dice"] == 9
    assert counts["gold coins"] == 30 and counts["hero cards"] == 9
    assert counts["monster cards"] == counts["equipment cards"] == 53
    assert counts["damage markers"] == 14
    assert df.PLAYERS == (1, 6)
    assert df.DIFFICULTY_POINTS == {"easy": 5, "normal": 10, "hard": 15}


def test_dice_faces():
    assert df.COLOURED.p_eye == Fraction(1, 2) and df.WHITE.p_eye == Fraction(1, 6)


@pytest.mark.parametrize("die", ["coloured", "white"])
@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_eye_distribution_brute_force(die, n):
    d = df.DICE[die]
    faces = [True] * d.eyes + [False] * (d.faces - d.eyes)  # True = eye on top
    counts = {}
    for roll in product(faces, repeat=n):
        k = sum(roll)
        counts[k] = counts.get(k, 0) + 1
    brute = {k: Fraction(counts.get(k, 0), d.faces**n) for k in range(n + 1)}
    assert df.eye_distribution(n, die) == brute
    assert df.p_at_least_one_eye(n, die) == 1 - brute[0]


def test_eye_tables_cover_the_box():
    assert len(df.eye_table("coloured")) == 3 and len(df.eye_table("white")) == 9
    row = df.eye_table("coloured")[2]
    assert row["at least 1"] == Fraction(7, 8) and row["3 eyes"] == Fraction(1, 8)


def test_target_and_instant_kill():
    assert df.TARGET_SCORES == (1, 2, 3, 4, 5, 6, 10)
    assert df.throw(10, eye=True) == df.Throw(0, True, True, False)  # monster dies at once
    assert df.throw(10, eye=True, boss=True) == df.Throw(10, False, True, False)  # boss: -10
    assert df.throw(10, eye=False).damage == 10 and not df.throw(10, eye=False).kill
    assert df.throw(4, eye=True) == df.Throw(4, False, True, False)  # eye: the hero's skill
    assert df.throw(None, eye=True).miss
    with pytest.raises(ValueError):
        df.throw(7, eye=False)
    assert df.instant_kill_chance(Fraction(1, 10)) == Fraction(1, 20)
    assert df.instant_kill_chance(Fraction(1, 10), "white") == Fraction(1, 60)


def test_revival_and_three_tokens_out():
    hero = df.Hero()
    assert hero.hp == hero.max_hp == 9
    for expected_max in (6, 3):
        hero.take(20)
        assert hero.knocked_out
        assert hero.revive() and hero.max_hp == expected_max and hero.hp == expected_max
    hero.take(3)
    assert not hero.revive() and hero.out and hero.tokens == 3
    assert not df.Hero().revive()  # not knocked out: nothing to do


def test_score_formula_line_by_line():
    s = df.final_score("normal", True, survivors=4, dead=0, white_dice=2, gold=7, damage_tokens=0)
    assert dict(s.parts) == {"mission": 10, "survivors": 4, "white dice": 4, "gold": 3,
                             "no damage": 5, "damage tokens": 0, "dead": 0}
    assert s.total == 26 and s.tier.name_zh == "果然是高階英雄！"
    s = df.final_score("hard", True, survivors=3, dead=1, white_dice=0, gold=1, damage_tokens=5)
    assert s.total == 15 + 3 + 0 + 0 + 0 - 5 - 5
    lost = df.final_score("easy", False, survivors=0, dead=2, white_dice=0, gold=0, damage_tokens=6)
    assert lost.total == -6 - 10 and lost.tier.name_zh == "腦殘嗎？"


def test_score_validation():
    with pytest.raises(ValueError):
        df.final_score("nightmare", True, 1, 0, 0, 0, 0)
    with pytest.raises(ValueError):
        df.final_score("easy", True, 2, 1, 0, 0, 2)  # a dead hero took 3 tokens
    with pytest.raises(ValueError):
        df.final_score("easy", True, 7, 0, 0, 0, 0)  # at most 6 heroes
    with pytest.raises(ValueError):
        df.final_score("easy", True, 1, 0, 10, 0, 0)  # 9 white dice in the box
    with pytest.raises(ValueError):
        df.final_score("easy", True, 1, 0, 0, 0, 3)  # a survivor holds at most 2 tokens


def test_ten_tiers_partition_the_scores():
    assert len(df.TIERS) == 10
    bounds = [(t.low, t.high) for t in df.TIERS]
    assert bounds == [(None, 0), (1, 5), (6, 10), (11, 15), (16, 20), (21, 25), (26, 30),
                      (31, 35), (36, 40), (41, None)]
    for score in range(-30, 80):
        assert sum(t.contains(score) for t in df.TIERS) == 1
    assert df.rating(0).name_zh == "腦殘嗎？" and df.rating(1).name_zh == "別耍白癡了！"
    assert df.rating(40).name_zh == "可出攻略書囉！" and df.rating(41).name_zh == "已超出人類能力範圍了！"


def test_best_possible_score():
    assert df.best_possible_score(6) == 15 + 6 + 18 + 15 + 5
    assert df.rating(df.best_possible_score(6)).high is None


def test_shop_prices():
    assert df.SHOP["white die"][0] == 2 and df.SHOP["1 HP for every hero"][0] == 1
