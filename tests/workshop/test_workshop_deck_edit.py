"""Deck editing (issue 8): validation naming the cell, TOML/CSV in and out, decks in records."""

from __future__ import annotations

import pytest

from dungeon_guilds import Game, Rules, dumps, from_record, reference_deck
from dungeon_guilds.cards import DeckError, parse_deck_text
from dungeon_guilds.workshop.deck_edit import (DeckTable, clear_chances, deck_changes, deck_from_table, errors_of,
                                               max_players, table_from_deck, table_from_text, table_to_text,
                                               validate)


def edited(changes: dict | None = None) -> DeckTable:
    """The reference table, renamed, with ``changes`` as {(table, row, column): value}."""
    changes = changes or {}
    t = table_from_deck()
    t.name = "test"
    for (table, row, column), value in changes.items():
        getattr(t, table)[row][column] = value
    return t


def messages(t: DeckTable) -> list[str]:
    return [str(p) for p in errors_of(validate(t))]


def test_the_reference_table_is_valid_and_builds_the_reference_deck():
    t = table_from_deck()
    assert validate(t) == []
    assert deck_from_table(t) == reference_deck()
    assert len(t.rooms) == 11 and sum(int(r["count"]) for r in t.rooms) == 40


@pytest.mark.parametrize("value, words", [
    (0, "Rooms, row 3, count: must be at least 1, got 0"),
    (-2, "Rooms, row 3, count: must be at least 1, got -2"),
    ("many", "Rooms, row 3, count: expected a whole number, got 'many'"),
    ("", "Rooms, row 3, count: empty: expected a whole number"),
    ("2.5", "Rooms, row 3, count: expected a whole number, got '2.5'"),
])
def test_bad_counts_are_named_by_cell(value, words):
    msgs = messages(edited({("rooms", 2, "count"): value}))
    assert msgs and msgs[0].startswith(words), msgs
    with pytest.raises(DeckError, match="Rooms, row 3, count"):
        deck_from_table(edited({("rooms", 2, "count"): value}))


def test_negative_values_are_refused_in_every_table():
    msgs = messages(edited({("heal", 1, "heal_cost"): -1, ("rooms", 0, "treasure"): "-3",
                               ("levels", 2, "treasure_low"): -8}))
    assert "Heal costs, row 2, heal cost: negative values are not allowed, got -1" in msgs
    assert "Rooms, row 1, treasure: negative values are not allowed, got -3" in msgs
    assert "Levels, row 3, treasure low: negative values are not allowed, got -8" in msgs


def test_unknown_levels_are_named():
    msgs = messages(edited({("rooms", 4, "level"): 4}))
    assert msgs == ["Rooms, row 5, level: unknown level 4 (rooms have levels 1-3)"]
    msgs = messages(edited({("levels", 0, "level"): "0"}))
    assert "Levels, row 1, level: unknown level '0' (rooms have levels 1-3)" in msgs
    assert "Levels, level: level 1 is missing (every level 1-3 needs its ranges)" in msgs
    t = edited()
    t.heal.append({"strength": 6, "heal_cost": 4})
    assert "Heal costs, row 6, strength: unknown strength 6 (adventurers have strengths 1-5)" in messages(t)


def test_ranges_and_cards_must_agree():
    # a card outside its level's back (R1.2)
    assert messages(edited({("rooms", 0, "defence"): 6})) == [
        "Rooms, row 1, defence: 6 is outside the Lv1 range 3-5 printed on the back (R1.2)"]
    # a range upside down
    assert "Levels, row 2, defence low: the low end 8 is above the high end 7" in messages(
        edited({("levels", 1, "defence_low"): 8}))
    # widening a range makes room for new cards; the lock threshold is the top of the range (R4.3)
    t = edited({("levels", 0, "defence_high"): 6, ("rooms", 0, "defence"): 6})
    deck = deck_from_table(t)
    assert deck.levels[1].lock_threshold == 6
    assert "Lv1 defence range 3-5 → 3-6 (lock threshold 5 → 6)" in deck_changes(deck)


def test_names_size_and_warnings():
    t = table_from_deck()
    t.rooms[0]["count"] = 5  # edited but still called "reference"
    assert messages(t)[0].startswith("Deck, name: 'reference' is the name of the project's reference deck")
    t.name = " "
    assert messages(t)[0].startswith("Deck, name: empty")
    small = edited()
    small.rooms = [{"level": 1, "defence": 3, "treasure": 2, "count": 8}]
    assert messages(small) == ["Rooms, count: 8 cards: even a 3-player game deals 9 rooms (3 rounds × 3)"]
    small.rooms[0]["count"] = 20
    warnings = [str(p) for p in validate(small) if p.severity == "warning"]
    assert "Rooms, count: 20 cards: enough for games of up to 4 players (a 6-player game deals 36 rooms)" in warnings
    assert "Rooms, level: no Lv2 card: rooms of that level never appear" in warnings
    dup = edited()
    dup.rooms.append(dict(dup.rooms[0]))
    assert any("the same card as row 1" in str(p) for p in validate(dup))
    assert len(deck_from_table(dup).rooms) == 44  # counts add up
    assert [max_players(n) for n in (8, 9, 16, 35, 36)] == [0, 3, 4, 5, 6]
    assert max_players(30, npc=True) == 5


@pytest.mark.parametrize("fmt", ["toml", "csv"])
def test_exported_text_loads_back(fmt):
    t = edited({("heal", 4, "heal_cost"): 2, ("rooms", 10, "count"): 5})
    text = table_to_text(t, fmt)
    deck = deck_from_table(t)
    assert parse_deck_text(text, fmt).rooms == deck.rooms  # the engine's loader reads it back
    assert parse_deck_text(text, fmt).heal_costs == deck.heal_costs
    again = table_from_text(text, fmt)
    assert validate(again) == [] or fmt == "csv"  # CSV carries no name: "custom"
    assert deck_from_table(again).rooms == deck.rooms


def test_import_is_lenient_so_every_bad_cell_is_shown():
    text = ("section,level,strength,heal_cost,defence,treasure,count\n"
            + "".join(f"heal,,{s},{c},,,\n" for s, c in zip(range(1, 6), (0, 1, "x", 2, 3)))
            + "level,1,,,3-5,2-4,\nlevel,2,,,5-7,4-7,\nlevel,3,,,7-9,8-12,\n"
            + "room,1,,,3,2,many\nroom,4,,,5,5,1\nroom,2,,,6,5,0\n" + "room,3,,,9,12,12\n")
    t = table_from_text(text, "csv")
    msgs = messages(t)
    assert msgs == ["Heal costs, row 3, heal cost: expected a whole number, got 'x'",
                    "Rooms, row 1, count: expected a whole number, got 'many'",
                    "Rooms, row 2, level: unknown level '4' (rooms have levels 1-3)",
                    "Rooms, row 3, count: must be at least 1, got 0 (delete the row to take this card out of the deck)"]
    with pytest.raises(DeckError, match="CSV row 2, column section"):
        table_from_text("section,level\nbogus,1\n", "csv")
    with pytest.raises(DeckError, match="TOML"):
        table_from_text("[[rooms]\n", "toml")


def test_clear_chances_match_the_reference_table_of_the_docs():
    ch = clear_chances(reference_deck())
    assert round(ch[1][3], 2) == 0.29 and round(ch[1][4], 2) == 0.71 and ch[1][5] == 1
    assert round(ch[2][5], 2) == 0.21 and round(ch[2][6], 2) == 0.71 and ch[2][7] == 1
    assert ch[3][7] == 0.25 and ch[3][8] == 0.75 and ch[3][9] == 1


def test_a_game_with_a_custom_deck_travels_into_its_record_and_replays():
    t = edited({("heal", 4, "heal_cost"): 5, ("rooms", 0, "treasure"): 4})
    t.name = "expensive_fives"
    deck = deck_from_table(t)
    g = Game(4, seed=3, deck=deck, rules=Rules(lords="all"))
    g.exhaust_randomly()
    while not g.is_over:
        g.push(g.legal_moves()[-1])
    rec = g.to_record()
    assert rec["deck"]["name"] == "expensive_fives" and rec["heal_costs"]["5"] == 5
    assert sum(row["count"] for row in rec["deck"]["rooms"]) == len(deck.rooms)  # card list travels
    again = from_record(dumps(rec))
    assert again.result() == g.result()
    assert again.deck.rooms == tuple(sorted(deck.rooms, key=lambda c: (c.level, c.defence, c.treasure)))
    assert again.deck.name == "expensive_fives" and again.deck.heal_costs == deck.heal_costs
    assert dumps(again.to_record()) == dumps(rec)


def test_a_renamed_reference_deck_does_not_call_itself_the_reference():
    """Issue 40: the TOML of a renamed deck still said "The project's reference deck…"."""
    from dungeon_guilds.cards import reference_deck
    from dungeon_guilds.workshop.deck_edit import deck_from_table, table_from_deck, table_to_text

    table = table_from_deck()
    table.name = "our_deck"
    assert deck_from_table(table).description == ""
    assert reference_deck().description not in table_to_text(table)
    assert deck_from_table(table_from_deck()).description == reference_deck().description
