"""The story's last line after a round with no heal payment: "No room failed" only when no
room failed (R6.1); a failed room whose heal costs were all $0 is said so."""

import random

from dungeon_guilds.events import Heal, RoomOutcome, resolution_events
from dungeon_guilds.game import Game
from dungeon_guilds.widgets.narration import resolution_steps


def test_no_room_failed_is_said_only_when_none_failed():
    seen = set()
    for seed in range(200):
        g = Game(["Ann", "Bo", "Cy"], seed=seed)
        rng = random.Random(seed)
        while g.state.round == 0:
            g.push(rng.choice(g.legal_moves()))
        events = resolution_events(g.log, 1)
        if any(isinstance(e, Heal) for e in events):
            continue
        failed = any(isinstance(e, RoomOutcome) and not e.cleared for e in events)
        last = resolution_steps(g.log, 1, g.names, "en")[-1]
        assert last.startswith("A room failed") if failed else last.startswith("No room failed"), (seed, last)
        seen.add(failed)
    assert True in seen, "no round had a failed room with $0 heal costs: the case is not tested"


def test_the_chinese_story_lists_shares_and_rooms_with_the_enumeration_comma():
    """zh: "安 $3、波 $2", not "安 $3, 波 $2" (an English comma in a Chinese sentence)."""
    found = 0
    for seed in range(60):
        g = Game(["Ann", "Bo", "Cy"], seed=seed)
        rng = random.Random(seed)
        while g.state.round == 0:
            g.push(rng.choice(g.legal_moves()))
        for line in resolution_steps(g.log, 1, g.names, "zh"):
            assert ", " not in line, (seed, line)
            found += "、" in line
    assert found, "no story listed two shares or rooms: the case is not tested"


def test_the_chinese_event_log_lists_with_the_enumeration_comma_too():
    """The same in the game log (i18n.event_text): "力量 1、2", never "1, 2", in 繁體中文."""
    from dungeon_guilds import i18n

    g = Game(["Ann", "Bo", "Cy"], seed=4)
    rng = random.Random(4)
    while not g.is_over:
        g.push(rng.choice(g.legal_moves()))
    lines = [i18n.event_text(ev, g.names, "zh") for ev in g.log]
    assert not [line for line in lines if ", " in line]
    assert any("、" in line for line in lines)
    assert any(", " in i18n.event_text(ev, g.names, "en") for ev in g.log)
