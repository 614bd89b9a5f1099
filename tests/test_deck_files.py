"""Deck files (R1.1 heal costs, R1.2 room levels and their printed ranges, R1.4 the reference deck
is an assumption any deck file may replace): every refusal names its field and row in words a
teacher can act on (exact messages: a malformed file names the wrong field), and a deck written as
TOML or CSV reads back the same (issue 54, item 3: the survivors of ``cards.py``'s mutants)."""

from __future__ import annotations

import pytest

from dungeon_guilds.cards import (ALL_FIVE, CSV_COLUMNS, Deck, DeckError, LevelInfo, RoomCard, counted_cards,
                                  deck_from_dict, load_deck, parse_deck_text, parse_heal_costs, parse_levels,
                                  parse_room, reference_deck, sorted_cards, strengths_of)

HEAL = {"1": 1, "2": 2, "3": 3, "4": 4, "5": 5}
LEVELS = {"1": {"defence": [1, 4], "treasure": [1, 3]}, "2": {"defence": [4, 7], "treasure": [3, 6]},
          "3": {"defence": [7, 10], "treasure": [6, 12]}}
ROOM = {"level": 1, "defence": 2, "treasure": 2}


def small(**changes) -> dict:
    data = {"name": "small", "description": "a test deck", "heal_costs": dict(HEAL),
            "levels": {k: dict(v) for k, v in LEVELS.items()}, "rooms": [dict(ROOM, count=2),
                                                                       {"level": 3, "defence": 9, "treasure": 12}]}
    data.update(changes)
    return data


def refused(call, *args) -> str:
    with pytest.raises(DeckError) as err:
        call(*args)
    return str(err.value)


def test_R1_1_a_hand_of_five_strengths_as_a_bitmask():
    assert strengths_of(ALL_FIVE) == [1, 2, 3, 4, 5]
    assert strengths_of(0b101000) == [3, 5] and strengths_of(0b1) == [] and strengths_of(0b1000000) == []


def test_R1_2_the_top_of_a_levels_defence_range_is_its_lock_threshold():
    assert LevelInfo((4, 7), (3, 6)).lock_threshold == 7
    assert [reference_deck().levels[lv].lock_threshold for lv in (1, 2, 3)] == [5, 7, 9]


@pytest.mark.parametrize("data, message", [
    ([], "deck: expected a table with heal_costs, levels and rooms"),
    (small(heal_costs=None) | {"heal_costs": None}, "heal_costs: expected a table of strength = cost"),
    ({k: v for k, v in small().items() if k != "levels"}, "deck: field 'levels' is missing"),
    ({k: v for k, v in small().items() if k != "heal_costs"}, "deck: field 'heal_costs' is missing"),
    ({k: v for k, v in small().items() if k != "rooms"}, "deck: field 'rooms' is missing"),
    (small(rooms=[]), "rooms: expected a non-empty list of room cards"),
    (small(rooms={"level": 1}), "rooms: expected a non-empty list of room cards"),
    (small(heal_costs=dict(HEAL, **{"6": 1})), "heal_costs.6: unknown strength (adventurers have strengths 1-5)"),
    (small(heal_costs={k: v for k, v in HEAL.items() if k != "4"}),
     "heal_costs.4: missing (every strength 1-5 needs a heal cost)"),
    (small(heal_costs=dict(HEAL, **{"2": -1})), "heal_costs.2: must be at least 0, got -1"),
    (small(heal_costs=dict(HEAL, **{"2": True})), "heal_costs.2: expected a whole number, got True"),
    (small(heal_costs=dict(HEAL, **{"2": "two"})), "heal_costs.2: expected a whole number, got 'two'"),
    (small(heal_costs=dict(HEAL, **{"2": 1.5})), "heal_costs.2: expected a whole number, got 1.5"),
    (small(levels=[1, 2, 3]), "levels: expected a table per level 1-3"),
    (small(levels=dict(LEVELS, **{"4": LEVELS["3"]})), "levels.4: unknown level (rooms have levels 1-3)"),
    (small(levels=dict(LEVELS, **{"2": 5})), "levels.2: expected defence and treasure ranges"),
    (small(levels=dict(LEVELS, **{"2": {"defence": [4, 7]}})), "levels.2.treasure: missing"),
    (small(levels=dict(LEVELS, **{"2": {"treasure": [3, 6]}})), "levels.2.defence: missing"),
    (small(levels={k: v for k, v in LEVELS.items() if k != "2"}),
     "levels.2: missing (every level 1-3 needs its ranges)"),
    (small(levels=dict(LEVELS, **{"2": {"defence": [7, 4], "treasure": [3, 6]}})),
     "levels.2.defence: the low end 7 is above the high end 4"),
    (small(levels=dict(LEVELS, **{"2": {"defence": [4, 7, 9], "treasure": [3, 6]}})),
     "levels.2.defence: expected a range [low, high], got [4, 7, 9]"),
    (small(levels=dict(LEVELS, **{"2": {"defence": [4, 7], "treasure": [-3, 6]}})),
     "levels.2.treasure low: must be at least 0, got -3"),
    (small(levels=dict(LEVELS, **{"2": {"defence": [4, "x"], "treasure": [3, 6]}})),
     "levels.2.defence high: expected a whole number, got 'x'"),
    (small(rooms=[5]), "rooms row 1: expected level, defence and treasure"),
    (small(rooms=[ROOM, {"level": 1, "treasure": 2}]), "rooms row 2.defence: missing"),
    (small(rooms=[{"defence": 1, "treasure": 2}]), "rooms row 1.level: missing"),
    (small(rooms=[{"level": 1, "defence": 1}]), "rooms row 1.treasure: missing"),
    (small(rooms=[dict(ROOM, level=4)]), "rooms row 1.level: unknown level 4 (rooms have levels 1-3)"),
    (small(rooms=[dict(ROOM, level=0)]), "rooms row 1.level: unknown level 0 (rooms have levels 1-3)"),
    (small(rooms=[dict(ROOM, defence=5)]),
     "rooms row 1.defence: 5 is outside the Lv1 range 1-4 printed on the back"),
    (small(rooms=[dict(ROOM, defence=0)]),
     "rooms row 1.defence: 0 is outside the Lv1 range 1-4 printed on the back"),
    (small(rooms=[dict(ROOM, treasure=4)]),
     "rooms row 1.treasure: 4 is outside the Lv1 range 1-3 printed on the back"),
    (small(rooms=[dict(ROOM, treasure=0)]),
     "rooms row 1.treasure: 0 is outside the Lv1 range 1-3 printed on the back"),
    (small(rooms=[dict(ROOM, count=0)]), "rooms row 1.count: must be at least 1, got 0"),
])
def test_R1_4_a_malformed_deck_is_refused_naming_its_field_and_row(data, message):
    assert refused(deck_from_dict, data) == message


def test_R1_4_the_edges_of_the_printed_ranges_and_whole_numbers_as_text_are_accepted():
    deck = deck_from_dict(small(heal_costs=dict(HEAL, **{"1": "0", "5": " 7 "}),
                                rooms=[dict(ROOM, defence=1, treasure=1), {"level": 1, "defence": "4", "treasure": 3},
                                       {"level": 2, "defence": 7, "treasure": 6, "count": "3"}]))
    assert deck.heal_costs == (0, 0, 2, 3, 4, 7)
    assert deck.rooms == (RoomCard(1, 1, 1), RoomCard(1, 4, 3), *[RoomCard(2, 7, 6)] * 3)
    assert deck.name == "small" and deck.description == "a test deck"
    bare = deck_from_dict({k: v for k, v in small().items() if k not in ("name", "description")})
    assert (bare.name, bare.description) == ("custom", "")
    assert parse_heal_costs({1: 3, 2: 3, 3: 3, 4: 3, 5: 3}) == (0, 3, 3, 3, 3, 3)  # keys as numbers too
    assert parse_levels({1: LEVELS["1"], 2: LEVELS["2"], 3: {"defence": "7-10", "treasure": " 6-12 "}})[3] == \
        LevelInfo((7, 10), (6, 12))
    assert parse_room({"level": 3, "defence": 12, "treasure": 40}, "free", None) == RoomCard(3, 12, 40)


def test_R1_4_other_callers_name_their_own_place():
    assert refused(parse_heal_costs, [], "variant.heal") == "variant.heal: expected a table of strength = cost"
    assert refused(parse_levels, [], "variant.levels") == "variant.levels: expected a table per level 1-3"
    assert refused(parse_heal_costs, {"1": 1}, "h") == "h.2: missing (every strength 1-5 needs a heal cost)"


CSV_OK = """section,level,strength,heal_cost,defence,treasure,count
heal,,1,1,,,
heal,,2,2,,,
heal,,3,3,,,
heal,,4,4,,,
heal,,5,5,,,
level,1,,,1-4,1-3,
level,2,,,4-7,3-6,
level,3,,,7-10,6-12,
room,1,,,2,2,2
room,3,,,9,12,
"""


def _csv_with(old: str, new: str) -> str:
    assert old in CSV_OK
    return CSV_OK.replace(old, new, 1)


@pytest.mark.parametrize("text, message", [
    ("a,b\n1,2\n", "CSV header: expected the columns " + ", ".join(CSV_COLUMNS)),
    ("", "CSV header: expected the columns " + ", ".join(CSV_COLUMNS)),
    (_csv_with("heal,,3,3", "heal,,7,3"), "CSV row 4, column strength: unknown strength '7'"),
    (_csv_with("heal,,3,3", "heel,,3,3"), "CSV row 4, column section: expected heal, level or room, got 'heel'"),
    (_csv_with("heal,,3,3,,,\n", ""), "CSV: heal_costs.3: missing (every strength 1-5 needs a heal cost)"),
    (_csv_with("level,2,,,4-7,3-6,\n", ""), "CSV: levels.2: missing (every level 1-3 needs its ranges)"),
    (_csv_with("room,1,,,2,2,2", "room,1,,,5,2,2"),
     "CSV row 10.defence: 5 is outside the Lv1 range 1-4 printed on the back"),
    (_csv_with("room,3,,,9,12,", "room,3,,,9,12,0"), "CSV row 11.count: must be at least 1, got 0"),
    (_csv_with("room,1,,,2,2,2\nroom,3,,,9,12,\n", ""), "CSV: no room rows (section=room)"),
])
def test_R1_4_a_malformed_csv_deck_names_its_row_and_column(text, message):
    assert refused(parse_deck_text, text, "csv") == message


def test_R1_4_a_csv_deck_reads_with_blank_counts_as_one_and_spaces_trimmed():
    deck = parse_deck_text(_csv_with("room,3,,,9,12,", " room , 3 ,,, 9 , 12 , "), "csv")
    assert deck.rooms == (RoomCard(1, 2, 2), RoomCard(1, 2, 2), RoomCard(3, 9, 12))
    assert deck.heal_costs == (0, 1, 2, 3, 4, 5) and deck.name == "custom"
    assert dict(deck.levels) == {1: LevelInfo((1, 4), (1, 3)), 2: LevelInfo((4, 7), (3, 6)),
                                 3: LevelInfo((7, 10), (6, 12))}


def test_R1_4_toml_errors_and_unreadable_files_are_told_in_words(tmp_path):
    assert refused(parse_deck_text, "name = ", "toml").startswith("TOML: ")
    missing = tmp_path / "nowhere.toml"
    assert refused(load_deck, missing) == f"{missing}: cannot read the deck file (No such file or directory)"


def test_R1_4_a_deck_written_as_toml_or_csv_reads_back_the_same(tmp_path):
    deck = deck_from_dict(small(name='say "hi" \\ there'))
    for suffix, text in ((".toml", deck.to_toml()), (".CSV", deck.to_csv())):
        path = tmp_path / f"deck{suffix}"
        path.write_text(text, encoding="utf-8")
        back = load_deck(path)
        assert (back.heal_costs, dict(back.levels), back.rooms) == (deck.heal_costs, dict(deck.levels), deck.rooms)
    assert load_deck(tmp_path / "deck.toml").name == 'say "hi" \\ there'
    assert deck.to_toml() == (
        'name = "say \\"hi\\" \\\\ there"\ndescription = "a test deck"\n\n[heal_costs]\n1 = 1\n2 = 2\n3 = 3\n4 = 4\n'
        '5 = 5\n\n[levels.1]\ndefence = [1, 4]\ntreasure = [1, 3]\n\n[levels.2]\ndefence = [4, 7]\ntreasure = [3, 6]\n'
        '\n[levels.3]\ndefence = [7, 10]\ntreasure = [6, 12]\n\n[[rooms]]\nlevel = 1\ndefence = 2\ntreasure = 2\n'
        'count = 2\n\n[[rooms]]\nlevel = 3\ndefence = 9\ntreasure = 12\ncount = 1\n')
    assert deck.to_csv() == CSV_OK.replace("room,3,,,9,12,\n", "room,3,,,9,12,1\n")


def test_R1_4_the_decks_parts_as_records_show_them():
    deck = deck_from_dict(small())
    assert deck.heal_costs_dict() == HEAL and deck.heal_cost(4) == 4
    assert deck.levels_dict() == {"1": {"defence": [1, 4], "treasure": [1, 3]},
                                  "2": {"defence": [4, 7], "treasure": [3, 6]},
                                  "3": {"defence": [7, 10], "treasure": [6, 12]}}
    assert counted_cards(reversed(deck.rooms)) == [{"level": 1, "defence": 2, "treasure": 2, "count": 2},
                                                   {"level": 3, "defence": 9, "treasure": 12, "count": 1}]
    assert sorted_cards([RoomCard(2, 5, 3), RoomCard(1, 4, 1), RoomCard(2, 5, 1), RoomCard(2, 4, 9)]) == [
        RoomCard(1, 4, 1), RoomCard(2, 4, 9), RoomCard(2, 5, 1), RoomCard(2, 5, 3)]
    assert RoomCard(2, 5, 3).to_dict() == {"level": 2, "defence": 5, "treasure": 3}


def test_R1_4_a_changed_deck_is_named_custom_and_an_unchanged_copy_keeps_its_name():
    ref = reference_deck()
    assert ref.is_reference and ref.name != "custom"
    same = ref.with_values(heal_costs=list(ref.heal_costs), levels=dict(ref.levels), rooms=list(ref.rooms))
    assert (same.name, same.description) == (ref.name, ref.description) and same.is_reference
    for change in ({"heal_costs": (0, 9, *ref.heal_costs[2:])},
                   {"levels": {**ref.levels, 1: LevelInfo((1, 5), ref.levels[1].treasure)}},
                   {"rooms": ref.rooms[1:]}):
        other = ref.with_values(**change)
        assert (other.name, other.description) == ("custom", "") and not other.is_reference
    shuffled = Deck(ref.heal_costs, dict(ref.levels), tuple(reversed(ref.rooms)), name="mine")
    assert shuffled.is_reference  # the same cards in another order are the reference deck's values


@pytest.mark.parametrize("data, message", [
    (small(heal_costs=dict(HEAL, **{"2": "-3"})), "heal_costs.2: must be at least 0, got -3"),  # a number as text
    (small(heal_costs=dict(HEAL, **{"2": "X3"})), "heal_costs.2: expected a whole number, got 'X3'"),
    (small(heal_costs=dict(HEAL, **{"2": "3-"})), "heal_costs.2: expected a whole number, got '3-'"),
    (small(levels=dict(LEVELS, **{"2": {"defence": "4-7-9", "treasure": [3, 6]}})),
     "levels.2.defence high: expected a whole number, got '7-9'"),
    (small(rooms=[dict(ROOM, level="one")]), "rooms row 1.level: expected a whole number, got 'one'"),
    (small(rooms=[dict(ROOM, defence="two")]), "rooms row 1.defence: expected a whole number, got 'two'"),
    (small(rooms=[dict(ROOM, treasure="two")]), "rooms row 1.treasure: expected a whole number, got 'two'"),
])
def test_R1_4_numbers_written_as_text_are_read_or_refused_by_their_field(data, message):
    assert refused(deck_from_dict, data) == message


def test_R1_2_a_level_whose_printed_range_is_one_value_is_a_range():
    assert parse_levels(dict(LEVELS, **{"2": {"defence": [5, 5], "treasure": "4-4"}}))[2] == LevelInfo((5, 5), (4, 4))


@pytest.mark.parametrize("text, message", [
    (_csv_with("heal,,3,3,,,", ",,3,3,,,"), "CSV row 4, column section: expected heal, level or room, got ''"),
    (_csv_with("heal,,3,3,,,", "heal,,,3,,,"), "CSV row 4, column strength: unknown strength ''"),
    (_csv_with("heal,,3,3,,,", "heal,,3"), "CSV: heal_costs.3: expected a whole number, got ''"),  # a short row
    (_csv_with("level,2,,,4-7,3-6,", "level,,,,4-7,3-6,"), "CSV: levels.: unknown level (rooms have levels 1-3)"),
    (_csv_with("level,2,,,4-7,3-6,", "level,2,,,4-7"), "CSV: levels.2.treasure: expected a range [low, high], got ''"),
    (_csv_with("level,2,,,4-7,3-6,", "level,2"), "CSV: levels.2.defence: expected a range [low, high], got ''"),
    (_csv_with("room,1,,,2,2,2", "room,,,,2,2,2"), "CSV row 10.level: expected a whole number, got ''"),
    (_csv_with("room,1,,,2,2,2", "room,1,,,2"), "CSV row 10.treasure: expected a whole number, got ''"),
])
def test_R1_4_blank_cells_and_short_csv_rows_are_named_not_a_crash(text, message):
    assert refused(parse_deck_text, text, "csv") == message


def test_R1_4_a_short_room_row_counts_one_card_and_the_format_is_toml_or_csv(tmp_path):
    deck = parse_deck_text(_csv_with("room,3,,,9,12,", "room,3,,,9,12"), "csv")
    assert deck.rooms[-1] == RoomCard(3, 9, 12) and len(deck.rooms) == 3
    for fmt in ("TOML", "json", ""):
        assert refused(parse_deck_text, deck.to_toml(), fmt) == f"deck format {fmt!r}: expected toml or csv"
    assert parse_deck_text(deck.to_toml()).rooms == deck.rooms  # TOML unless told
    path = tmp_path / "deck.Toml"
    path.write_text(deck.to_toml(), encoding="utf-8")
    assert load_deck(path).rooms == deck.rooms


def test_R1_4_the_reference_deck_is_read_from_the_package_once(monkeypatch):
    from importlib import resources

    from dungeon_guilds import cards

    text = resources.files("dungeon_guilds").joinpath("data/reference_deck.toml").read_text("utf-8")
    expected = parse_deck_text(text)
    monkeypatch.setattr(cards, "_REFERENCE", None)  # as in a fresh process
    first = cards.reference_deck()
    assert (first.name, first.heal_costs, dict(first.levels), first.rooms) == \
        (expected.name, expected.heal_costs, dict(expected.levels), expected.rooms)
    assert cards.reference_deck() is first
