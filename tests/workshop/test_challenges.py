"""Design challenges (issue 28): the data file, the student's change, the sample size, the
verdict and its words. Checks play few games here (``games=(pilot, cap)``); the engine plays
them (``analysis.play.play_game``), cross-checked against the simulator's tables."""

from __future__ import annotations

import math
import re

import pytest

from dungeon_guilds import i18n
from dungeon_guilds.cards import RoomCard, reference_deck
from dungeon_guilds.workshop import challenges as C
from dungeon_guilds.workshop.challenge_words import error_words, verdict_lines
from dungeon_guilds.workshop.lord_edit import make_lord

CHALLENGES = {c.id: c for c in C.load()}


def test_at_least_four_challenges_each_in_both_languages():
    assert len(CHALLENGES) >= 4
    kinds = {c.change for c in CHALLENGES.values()}
    assert kinds == {"room_card", "lord"}
    for c in CHALLENGES.values():
        for what in ("title", "goal_text", "hint"):
            assert getattr(c, what)["en"] and getattr(c, what)["zh"], (c.id, what)  # both written, no fallback


def _raw(**over):
    raw = {"id": "x", "title_en": "X", "goal_en": "x", "change": "room_card", "metric": "gold_gap",
           "compare": "change", "goal": "at_most", "target": -1, "margin": 0.5}
    raw.update(over)
    return {k: v for k, v in raw.items() if v is not None}


@pytest.mark.parametrize("over, field", [
    ({"metric": None}, "metric"), ({"metric": "fun"}, "metric"), ({"goal": "about"}, "goal"),
    ({"margin": 0}, "margin"), ({"target": "high"}, "target"), ({"min_games": 1}, "min_games"),
    ({"change": "lord", "lord": "caveman", "lords": ["beholder", "lich_king", "red_dragon", "guardian"]}, "lord"),
    ({"lords": ["beholder"]}, "lords"), ({"seats": [1, 9]}, "seats"),
])
def test_a_wrong_field_is_named(over, field):
    with pytest.raises(C.ChallengeError, match=rf"challenge\[0\]\.{field}"):
        C.parse(_raw(**over), "file: challenge[0]")


def test_a_teachers_file_is_read(tmp_path):
    path = tmp_path / "mine.toml"
    path.write_text('[[challenge]]\nid = "mine"\ntitle_en = "Mine"\ngoal_en = "g"\nchange = "room_card"\n'
                    'metric = "seat_gold_difference"\nseats = [1, 3]\nplayers = 3\ncompare = "value"\n'
                    'goal = "at_least"\ntarget = 0\nmargin = 1\n', encoding="utf-8")
    (mine,) = C.load(path)
    assert (mine.id, mine.players, mine.seats, mine.unit) == ("mine", 3, (1, 3), "gold")
    path.write_text("[[challenge]\n", encoding="utf-8")
    with pytest.raises(C.ChallengeError, match="not valid TOML"):
        C.load(path)


def test_one_kind_of_card_changed_or_refused():
    ref = reference_deck()
    assert C.one_kind_changed(ref) is None
    old, new = RoomCard(3, 9, 12), RoomCard(3, 7, 12)
    deck = C.with_kind_changed(old, new)
    assert C.one_kind_changed(deck) == (old, new, ref.rooms.count(old))
    twice = C.with_kind_changed(RoomCard(1, 3, 2), RoomCard(1, 5, 2), deck)
    with pytest.raises(C.ChallengeError) as err:
        C.one_kind_changed(twice)
    assert err.value.code == "one_kind_only"
    with pytest.raises(C.ChallengeError):
        C.one_kind_changed(ref.with_values(heal_costs=(0, 0, 0, 1, 2, 3)))
    with pytest.raises(C.ChallengeError) as err:
        C.with_kind_changed(old, RoomCard(3, 12, 12))  # R1.2: the back shows 7-9
    assert err.value.code == "defence_out_of_range"
    assert "7" in error_words(err.value, "zh") and "{" not in error_words(err.value, "zh")


@pytest.mark.parametrize("goal, low, high, status", [
    ("at_least", 0.2, 0.3, "met"), ("at_least", 0.0, 0.1, "not_met"), ("at_least", 0.1, 0.3, "unclear"),
    ("at_most", -1.0, -0.6, "met"), ("at_most", 0.1, 0.4, "not_met"), ("at_most", -0.6, -0.1, "unclear"),
    ("at_least", math.nan, math.nan, "unclear"),
])
def test_the_verdict_is_met_only_when_the_whole_interval_is_on_the_goals_side(goal, low, high, status):
    target = 0.15 if goal == "at_least" else -0.5
    assert C.verdict_status(goal, target, low, high) == status


def test_the_sample_size_follows_the_interval_width():
    values = [1.0, -1.0] * 50  # sd 1: the 95 % half-width at 100 games is about 0.2
    _, low, high = C.interval(values)
    n = C.games_needed(values, 100, 0.1, 10_000)
    assert n == math.ceil(100 * ((high - low) / 2 / 0.1) ** 2)
    assert 350 < n < 450  # four times the games halve the interval
    assert C.games_needed(values, 100, 0.1, 300) == 300  # capped
    assert C.games_needed(values, 100, 5.0, 10_000) == 100  # never fewer than were played


def test_no_change_is_measured_against_itself_exactly():
    ch = CHALLENGES["gentler_dragon"]
    r = C.check(ch, None, None, games=(6, 6))
    assert r.change is None and r.games == 6
    assert (r.estimate, r.low, r.high) == (0.0, 0.0, 0.0)  # the same seeds play the same games
    assert r.status == "not_met"
    assert r.values["reference"] == r.values["variant"]


def test_a_change_is_checked_and_every_interval_holds_its_estimate():
    ch = CHALLENGES["level3_worth_it"]
    deck = C.with_kind_changed(RoomCard(3, 9, 12), RoomCard(3, 7, 12))
    r = C.check(ch, deck, games=(8, 12))
    assert r.games in range(8, 13) and r.change == (RoomCard(3, 9, 12), RoomCard(3, 7, 12), 3)
    assert r.low <= r.estimate <= r.high
    assert r.reference[1] <= r.reference[0] <= r.reference[2]
    assert r.status == C.verdict_status(ch.goal, ch.target, r.low, r.high)
    assert r.values["reference"] != r.values["variant"]


def test_the_measures_agree_with_the_simulators_tables():
    """The reference arm of a check is the simulator's run with the same seed and lords."""
    pytest.importorskip("pandas")
    from dungeon_guilds.analysis.simulate import simulate
    from dungeon_guilds.rules import Rules

    ch = CHALLENGES["calmer_caveman"]
    r = C.check(ch, None, None, games=(6, 6))
    sim = simulate(6, list(ch.bots), ch.players, ch.seed, rules=Rules(lords="all"), lords=list(ch.lords))
    rounds = sim.rounds[sim.rounds["lord"] == "caveman"]
    spread = rounds.groupby("game")["gain"].agg(lambda g: g.max() - g.min())
    assert [float(spread[g]) for g in range(6)] == r.values["reference"]


def test_the_students_lord_takes_the_challenges_lord_place():
    ch = CHALLENGES["calmer_caveman"]
    calm = make_lord("my_caveman", "Calm", [{"kind": "flip", "exhaust": [1], "activate": [5]}])
    r = C.check(ch, None, calm, games=(5, 5))
    assert r.change is calm
    assert all(v is not None for v in r.values["variant"])  # his round is found under his new id
    with pytest.raises(C.ChallengeError) as err:
        C.check(ch, C.with_kind_changed(RoomCard(3, 9, 12), RoomCard(3, 7, 12)), calm, games=(2, 2))
    assert err.value.code == "lord_not_deck"
    with pytest.raises(C.ChallengeError) as err:
        C.check(CHALLENGES["risky_level1"], None, calm, games=(2, 2))
    assert err.value.code == "card_not_lord"


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_verdict_in_words(lang):
    ch = CHALLENGES["gentler_dragon"]
    gentle = make_lord("my_red_dragon", "Gentle", [{"kind": "room", "rooms": [-1], "treasure": 3}])
    r = C.check(ch, None, gentle, games=(6, 6))
    lines = verdict_lines(r, lang)
    assert lines[0] == i18n.t(f"challenge.status_{r.status}", lang)
    text = "\n".join(lines)
    assert "{" not in text and "challenge." not in text
    assert "$" in lines[1] and ("95 %" in lines[1] or "95%" in lines[1])
    assert "3" in lines[-1] and ("+$3" in lines[-1] or "+$3" in lines[-1].replace(" ", ""))  # the new effect


def test_both_languages_have_every_challenge_word():
    en = {k for k in i18n.strings("en") if k.startswith(("challenge.", "teacher."))}
    zh = set(i18n._flatten(i18n._table("zh")))
    missing = {k for k in en if k not in zh}
    assert not missing


def test_the_sample_words_say_limit_only_when_the_check_hit_it():
    from dungeon_guilds.workshop.challenge_words import sample_line

    ch = CHALLENGES["risky_level1"]
    deck = C.with_kind_changed(RoomCard(1, 4, 3), RoomCard(1, 5, 3))
    capped = C.check(ch, deck, games=(4, 4))
    assert capped.capped and capped.games == 4
    free = C.check(ch, deck, games=(4, 10_000))
    assert not free.capped and free.games < 10_000
    if not capped.precise:
        assert "limit" in sample_line(capped, "en")
    assert "limit" not in sample_line(free, "en") and "上限" not in sample_line(free, "zh")
    assert f"{free.pilot} to measure the spread" in sample_line(free, "en")


def test_the_baseline_is_the_reference_value_the_check_starts_from(monkeypatch):
    """Issue 40: before the Check a challenge shows the reference game's value of its measure
    (the students predict from it); it is the value the Check's first games give the reference."""
    import dataclasses

    ch = dataclasses.replace(C.load()[0], min_games=8)  # few games here; the tab uses min_games
    value, low, high, games = C.baseline(ch)
    assert games == 8 and low <= value <= high
    r = C.check(ch, C.with_kind_changed(RoomCard(3, 9, 12), RoomCard(3, 7, 12)), games=(8, 8))
    assert r.reference == pytest.approx((value, low, high))
    assert C.baseline(ch) is C.baseline(ch)  # worked out once


def test_the_challenges_tab_shows_the_baseline_before_check(monkeypatch):
    pytest.importorskip("ipywidgets")
    from dungeon_guilds.widgets.challenges import ChallengePanel
    from dungeon_guilds.workshop import challenge_words
    from dungeon_guilds.workshop.challenge_words import fmt

    monkeypatch.setattr(challenge_words, "baseline", lambda ch: (0.147, 0.12, 0.17, 100))
    for lang, words in (("en", "Before you change anything"), ("zh", "還沒修改之前")):
        p = ChallengePanel(lang=lang)
        assert p.result is None and words in p.goal_html.value
        assert fmt(0.147, "rate", lang) in p.goal_html.value and "100" in p.goal_html.value


def test_the_challenges_lord_row_hides_each_lists_own_label_and_offers_no_seventh_room():
    """Issue 40: the challenge's effect row showed "Exhaust Exhaust", "Rooms Rooms" (房間 twice)
    and cut "2nd to last" / "第 1（最上": the rule hiding each list's own label was scoped to the
    lord builder, which the challenges tab is not. And it offered a 7th room; a round has 3-6."""
    import re

    import ipywidgets as W

    from dungeon_guilds.rules import room_counts
    from dungeon_guilds.widgets.challenges import ChallengePanel
    from dungeon_guilds.widgets.lord_builder import EFFECT_ROW_STYLE
    from dungeon_guilds.workshop.lord_edit import ROOM_POSITIONS

    p = ChallengePanel(lang="zh")
    styles = [w.value for w in p.lord_box.children if isinstance(w, W.HTML) and "<style>" in w.value]
    assert styles == [EFFECT_ROW_STYLE]
    selector = re.search(r"^\.(\S+) \.(\S+) > \.widget-label \{", EFFECT_ROW_STYLE, re.M)
    row = p.effect_row
    assert selector and selector.group(1) in row._dom_classes
    for lst in (row.rooms_select, row.strengths_select, row.exhaust_select, row.activate_select):
        assert selector.group(2) in lst._dom_classes
    assert max(ROOM_POSITIONS) == max(room_counts()) == 6
    assert [label for label, _ in row.rooms_select.options][:1] == ["第 1（最上）"]


def test_the_checks_progress_never_promises_more_games_than_it_plays():
    """Issue 40: the Check's progress said "of 600" when it stopped at 280. While the pilot runs
    the words say "at most" the cap; the games played never pass the number last shown."""
    pytest.importorskip("ipywidgets")
    from dungeon_guilds.widgets.challenges import ChallengePanel

    p = ChallengePanel(lang="en", games=(20, 200))
    shown = []
    p.progress_html.observe(lambda change: shown.append(change["new"]), "value")
    result = p.run_check()
    words = [w for w in shown if w]
    assert words and all("at most" in w for w in words) and not any(" of " in w for w in words)
    last_total = int(re.search(r"at most (\d+)", words[-1]).group(1))
    assert result.games <= last_total <= 200
