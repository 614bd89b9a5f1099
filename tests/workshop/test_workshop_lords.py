"""Workshop lords (issue 8): built in the engine's vocabulary they reproduce the printed lords
exactly; validation; the preview on a sample dungeon; lords travel into records."""

from __future__ import annotations

import pytest

pytest.importorskip("ipywidgets")
pytest.importorskip("pandas")

from dungeon_guilds import Game, Rules, dumps, from_record  # noqa: E402
from dungeon_guilds.analysis.bots import make_bot  # noqa: E402
from dungeon_guilds.analysis.simulate import simulate  # noqa: E402
from dungeon_guilds.effects import EffectError, LowestTotalBonus, RoomModifier, StartFlip  # noqa: E402
from dungeon_guilds.lords import ALL_LORDS, BASE_LORDS, LordError, get_lord  # noqa: E402
from dungeon_guilds.rule_cards import lord_card  # noqa: E402
from dungeon_guilds.widgets.lord_builder import LordBuilder  # noqa: E402
from dungeon_guilds.workshop.lord_edit import (copy_of, describe_lord, make_lord,  # noqa: E402
                                               replace_in_pool)
from dungeon_guilds.workshop.preview import preview_lord  # noqa: E402


@pytest.fixture(scope="module")
def built() -> dict:
    """Every printed lord, loaded into the builder as an example and read back as a workshop lord."""
    b = LordBuilder(auto_preview=False)
    out = {}
    for lord in ALL_LORDS:
        b.example_dropdown.value = lord.id
        out[lord.id] = b.lord
    return out


def play(lords, seed: int, bots=("greedy", "random", "bully", "cooperator")) -> Game:
    g = Game(4, seed=seed, rules=Rules(lords="all"), lords=lords)
    players = [make_bot(name, seed=f"{seed}/{i}") for i, name in enumerate(bots)]
    while not g.is_over:
        seat = g.current
        g.push(players[seat].choose(g.state.copy(), seat))
    return g


def test_the_builder_reads_back_the_printed_effects_exactly(built):
    for lord in ALL_LORDS:
        mine = built[lord.id]
        assert mine.effects == lord.effects, lord.id
        assert mine.id == f"my_{lord.id}" and not mine.promo


@pytest.mark.parametrize("lord", ALL_LORDS, ids=lambda x: x.id)
def test_a_built_lord_plays_the_same_game_as_the_printed_one(built, lord):
    others = [x for x in BASE_LORDS if x.id != lord.id][:3]
    for seed in (1, 2):
        for where in (0, 3):  # in round 1 (the Caveman does nothing there, R7.2) and in the last round
            printed = others[:where] + [lord] + others[where:]
            mine = others[:where] + [built[lord.id]] + others[where:]
            a, b = play(printed, seed), play(mine, seed)
            assert a.moves == b.moves
            assert a.result() == b.result()
            assert [r["gold"] for r in a.state.round_results] == [r["gold"] for r in b.state.round_results]


def test_a_pool_with_built_lords_simulates_the_same_tables(built):
    pool = tuple(built[lord.id] for lord in ALL_LORDS)
    a = simulate(24, ["greedy", "random", "bully", "cooperator"], 4, seed=5, rules=Rules(lords="all"))
    b = simulate(24, ["greedy", "random", "bully", "cooperator"], 4, seed=5, rules=Rules(lords="all"), lords=pool)
    cols = [c for c in a.games.columns if c != "lords"]
    assert a.games[cols].equals(b.games[cols])
    assert list(b.games.lords.str.replace("my_", "")) == list(a.games.lords)
    assert a.rooms.drop(columns="lord").equals(b.rooms.drop(columns="lord"))


def test_make_lord_checks_ids_names_and_effects():
    with pytest.raises(LordError, match="printed lord's id"):
        make_lord("red_dragon", "Dragon", [RoomModifier(rooms=(-1,), treasure=5)])
    with pytest.raises(LordError, match="lower-case"):
        make_lord("Big Dragon", "Dragon", [RoomModifier(rooms=(-1,), treasure=5)])
    with pytest.raises(LordError, match="at least one effect"):
        make_lord("quiet", "Quiet", [])
    with pytest.raises(EffectError, match="effect 1: a room effect needs a defence or treasure change"):
        make_lord("quiet", "Quiet", [RoomModifier(rooms=(1,))])
    with pytest.raises(EffectError, match="cannot be both exhausted and made active"):
        make_lord("odd", "Odd", [StartFlip(exhaust=(1, 2), activate=(2,))])
    with pytest.raises(EffectError, match="cannot be negative"):  # refused by the engine itself
        make_lord("taxman", "Taxman", [LowestTotalBonus(-3)])
    with pytest.raises(EffectError, match="rooms: positions count from 1"):
        make_lord("zero", "Zero", [{"kind": "room", "rooms": [0], "treasure": 1}])
    lord = make_lord("gentle_dragon", "Gentle Dragon", [{"kind": "room", "rooms": [-1], "treasure": 5}])
    assert lord.text_en == "The last room: treasure +$5." and lord.text_zh == "最後一個房間：獎勵 +$5"
    assert describe_lord(get_lord("vampire_lord")) == "Room 1 and room 2: treasure −$2."
    # the one describer: the words of the Rules tab's lord card (issue 25)
    assert describe_lord(get_lord("hello_duck"), "zh") == "；".join(lord_card("hello_duck", "zh").numbers)


def test_replace_in_pool_keeps_every_other_draw():
    gentle = make_lord("gentle_dragon", "Gentle Dragon", [RoomModifier(rooms=(-1,), treasure=5)])
    pool = replace_in_pool("base", "red_dragon", gentle)
    assert [x.id for x in pool] == ["succubus", "vampire_lord", "beholder", "lich_king", "gentle_dragon", "guardian"]
    a = simulate(30, ["random"], 4, seed=2)
    b = simulate(30, ["random"], 4, seed=2, lords=pool)
    assert list(b.games.lords.str.replace("gentle_dragon", "red_dragon")) == list(a.games.lords)
    with pytest.raises(LordError, match="not in the pool"):
        replace_in_pool("base", "caveman", gentle)


def test_the_preview_reads_the_lords_numbers_from_the_engine():
    p = preview_lord(get_lord("lich_king"), players=4, seed=1)
    assert p.same_adventurers()
    a, b = p.without.rooms[1], p.with_lord.rooms[1]
    assert b["defence"] == a["defence"] + 2 and b["lock_threshold"] == a["lock_threshold"] + 2  # R7.1
    assert b["treasure"] == a["treasure"] + 3
    assert [r["treasure"] for r in p.with_lord.rooms[2:]] == [r["treasure"] for r in p.without.rooms[2:]]
    dragon = preview_lord(get_lord("red_dragon"), players=4, seed=1)
    assert dragon.with_lord.rooms[-1]["treasure"] == dragon.without.rooms[-1]["treasure"] + 10
    guardian = preview_lord(get_lord("guardian"), players=3, seed=0)
    assert guardian.with_lord.heal_costs[5] == guardian.without.heal_costs[5] + 2
    succubus = preview_lord(get_lord("succubus"), players=4, seed=1)
    assert all(not part.endswith(" 1") for r in succubus.with_lord.rooms for part in r["adventurers"].split(" + "))
    assert any(part.endswith(" 1") for r in succubus.without.rooms for part in r["adventurers"].split(" + "))
    board = preview_lord(get_lord("boardgame_lord"), players=4, seed=1)
    assert sum(x["bonus"] for x in board.with_lord.players) >= 3 and sum(x["bonus"] for x in board.without.players) == 0
    caveman = preview_lord(get_lord("caveman"), players=4, seed=1)
    # R7.2: round 1 has no start phase, so the Caveman previewed as round 1's lord changes no hand
    assert [x["hand"] for x in caveman.with_lord.players] == [x["hand"] for x in caveman.without.players]
    table = p.table()
    assert list(table.columns) == ["room", "level", "adventurers", "defence", "lock threshold", "treasure",
                                   "result", "payout"]
    assert "→" in table.loc[1, "defence"]


def test_a_custom_lord_travels_into_the_record_and_replays():
    gentle = make_lord("gentle_dragon", "Gentle Dragon", [RoomModifier(rooms=(-1,), treasure=5)], name_zh="溫柔的龍")
    g = play([gentle] + list(BASE_LORDS[:3]), seed=4)
    rec = g.to_record()
    assert rec["lords"][0]["id"] == "gentle_dragon" and rec["lords"][1] == "succubus"
    again = from_record(dumps(rec))
    assert again.result() == g.result() and again.lords[0].effects == gentle.effects


def test_the_builder_saves_plays_and_explains():
    b = LordBuilder(example="red_dragon", players=3, seed=2)
    assert "without → with" in b.preview_html.value and "dg-preview-rooms" in b.preview_html.value
    b.effect_rows[0].treasure_input.value = 6
    b.id_text.value = "gentle_dragon"
    b.name_en_text.value = "Gentle Dragon"
    b.save_button.click()
    assert [x.id for x in b.session.lords] == ["gentle_dragon"]
    assert ("workshop: Gentle Dragon (gentle_dragon)", "gentle_dragon") in list(b.example_dropdown.options)
    b.play_button.click()
    assert b.game is not None and b.game.is_over and b.game.lords[0].id == "gentle_dragon"
    assert from_record(b.game.to_record()).result() == b.game.result()
    assert "dg-download" in b.game_html.value
    # a bad effect is explained, never raised
    b.effect_rows[0].treasure_input.value = 0
    assert b.message_level == "warn" and "defence or treasure change" in b.message_text
    b.effect_rows[0].treasure_input.value = 6
    row = b.add_effect("ban")
    row.strengths_select.value = (1, 2)
    assert b.lord.effects[1].strengths == (1, 2)
    row.remove_button.click()
    assert len(b.lord.effects) == 1
    b.id_text.value = "beholder"
    assert "printed lord's id" in b.message_text
    b.lang = "zh"
    b.id_text.value = "gentle_dragon"
    assert "卡牌文字" in b.card_html.value
    b.example_dropdown.value = "__new__"
    assert b.lord.id == "my_lord"
    assert copy_of("caveman").effects == get_lord("caveman").effects
