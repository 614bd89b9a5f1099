"""One reference figure per challenge (issue 53): a class saw 14.4 % before the Check (the
baseline, which worksheet 2 asks them to write down), then "the reference game: 14.7 %" and
"13.2 %" in two verdicts (each Check's own mean of the reference game, over as many games as it
played). The verdict now names the starting value the tab showed, whatever the Check played."""

from __future__ import annotations

import pytest

from dungeon_guilds import i18n
from dungeon_guilds.cards import RoomCard
from dungeon_guilds.workshop import challenge_words
from dungeon_guilds.workshop import challenges as C
from dungeon_guilds.workshop.challenge_words import fmt, measure_line
from dungeon_guilds.workshop.lord_edit import make_lord

CHALLENGES = {c.id: c for c in C.load()}
START = (0.1234, 0.10, 0.15, 100)  # a baseline no few-game Check's reference mean equals


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("which", ["risky_level1", "gentler_dragon"])  # a value goal, a change goal
def test_the_verdict_names_the_starting_value_the_tab_showed(monkeypatch, lang, which):
    monkeypatch.setattr(challenge_words, "baseline", lambda ch: START)
    ch = CHALLENGES[which]
    if ch.compare == "value":
        r = C.check(ch, C.with_kind_changed(RoomCard(1, 4, 3), RoomCard(1, 5, 3)), games=(6, 6))
    else:
        gentle = make_lord("my_red_dragon", "Gentle", [{"kind": "room", "rooms": [-1], "treasure": 3}])
        r = C.check(ch, None, gentle, games=(6, 6))
    line = measure_line(r, lang)
    assert fmt(START[0], ch.unit, lang) in line
    assert fmt(r.reference[0], ch.unit, lang) not in line  # not a second figure for the reference
    assert "{" not in line and line == i18n.t(f"challenge.measure_{ch.compare}_start", lang, **{
        k: v for k, v in _words(r, lang).items()})


def _words(r, lang):
    ch, change = r.challenge, r.challenge.compare == "change"
    return {"metric": challenge_words.metric_words(ch, lang), "goal": i18n.t(f"challenge.goal_{ch.goal}", lang),
            "target": fmt(ch.target, ch.unit, lang, signed=change), "value": fmt(r.estimate, ch.unit, lang, signed=change),
            "low": fmt(r.low, ch.unit, lang, signed=change), "high": fmt(r.high, ch.unit, lang, signed=change),
            "start": fmt(START[0], ch.unit, lang)}
