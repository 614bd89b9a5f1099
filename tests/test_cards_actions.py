"""The deck file (R1.4) and the move notation."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dungeon_guilds import DeckError, Game, from_record, load_deck, reference_deck
from dungeon_guilds.actions import Action, ActionSyntaxError, parse, parse_move
from dungeon_guilds.cards import parse_deck_text


def test_R1_4_reference_deck_is_consistent_and_large_enough():
    deck = reference_deck()
    assert deck.is_reference
    assert deck.heal_costs[1:] == (0, 1, 1, 2, 3)
    # R1.2: every card's front lies in the ranges printed on its back
    for card in deck.rooms:
        info = deck.levels[card.level]
        assert info.defence[0] <= card.defence <= info.defence[1]
        assert info.treasure[0] <= card.treasure <= info.treasure[1]
    assert len(deck.rooms) >= 36  # a 6-player game deals 6 x 6 rooms
    assert len(deck.rooms) >= 5 * 6  # a 5-player NPC game deals 5 x 6


@pytest.mark.parametrize("fmt", ["toml", "csv"])
def test_deck_round_trips_through_files(tmp_path, fmt):
    deck = reference_deck()
    path = tmp_path / f"deck.{fmt}"
    path.write_text(deck.to_toml() if fmt == "toml" else deck.to_csv())
    again = load_deck(path)
    assert again.rooms == deck.rooms and again.heal_costs == deck.heal_costs
    assert dict(again.levels) == dict(deck.levels)


def test_a_loaded_deck_plays_and_travels_in_its_record():
    renamed = parse_deck_text(reference_deck().to_toml().replace('name = "reference"', 'name = "mine"'))
    assert renamed.is_reference  # same values: the reference deck, whatever its name
    text = reference_deck().to_toml().replace("5 = 3", "5 = 1", 1)
    deck = parse_deck_text(text.replace('name = "reference"', 'name = "cheap fives"'))
    assert not deck.is_reference and deck.heal_costs[5] == 1
    g = Game(3, seed=1, deck=deck)
    g.exhaust_randomly()
    record = g.to_record()
    assert record["deck"]["name"] == "cheap fives"
    again = from_record(record)
    assert again.deck.heal_costs[5] == 1
    assert again.state.unseen_cards() == g.state.unseen_cards()  # the public card list travels


def test_replayed_game_knows_the_whole_card_list():
    """A record lists only the rooms dealt; the replay still knows the deck's card list, so
    chances of unseen cards are the same (R1.4 reference deck)."""
    g = Game(4, seed=5)
    g.exhaust_randomly()
    for _ in range(5):
        g.push(g.legal_actions()[0])
    again = from_record(g.to_record())
    assert len(again.state.unseen_cards()) == len(reference_deck().rooms)
    assert again.state.unseen_cards() == g.state.unseen_cards()


BAD_TOML = [
    ("[heal_costs]\n1=0\n2=1\n3=1\n4=2\n", "heal_costs.5: missing"),
    ("[heal_costs]\n1=0\n2=1\n3=1\n4=2\n5=-1\n", "heal_costs.5: must be at least 0"),
    ("[heal_costs]\n1=0\n2=1\n3=1\n4=2\n5='x'\n", "heal_costs.5: expected a whole number"),
    ("[heal_costs]\n1=0\n2=1\n3=1\n4=2\n5=3\n6=3\n", "heal_costs.6: unknown strength"),
]


def _deck_with(heal=None, level1=None, rooms=None) -> str:
    text = reference_deck().to_toml()
    if heal is not None:
        start = text.index("[heal_costs]")
        end = text.index("[levels.1]")
        text = text[:start] + heal + "\n" + text[end:]
    if level1 is not None:
        start = text.index("[levels.1]")
        end = text.index("[levels.2]")
        text = text[:start] + level1 + "\n" + text[end:]
    if rooms is not None:
        text = text[: text.index("[[rooms]]")] + rooms
    return text


@pytest.mark.parametrize("heal,message", BAD_TOML)
def test_bad_heal_costs_name_the_field(heal, message):
    with pytest.raises(DeckError, match=message):
        parse_deck_text(_deck_with(heal=heal))


@pytest.mark.parametrize("rooms,message", [
    ("[[rooms]]\nlevel = 1\ndefence = 4\ntreasure = 3\n[[rooms]]\nlevel = 4\ndefence = 4\ntreasure = 3\n",
     "rooms row 2.level: unknown level 4"),
    ("[[rooms]]\nlevel = 1\ndefence = 9\ntreasure = 3\n", "rooms row 1.defence: 9 is outside the Lv1 range 3-5"),
    ("[[rooms]]\nlevel = 2\ndefence = 6\ntreasure = 5\ncount = 0\n", "rooms row 1.count: must be at least 1"),
    ("[[rooms]]\nlevel = 2\ndefence = 6\n", "rooms row 1.treasure: missing"),
    ("[[rooms]]\nlevel = 2\ndefence = -6\ntreasure = 5\n", "rooms row 1.defence: must be at least 0"),
])
def test_bad_room_rows_name_the_row_and_field(rooms, message):
    with pytest.raises(DeckError, match=message):
        parse_deck_text(_deck_with(rooms=rooms))


def test_bad_level_range_and_csv_rows():
    with pytest.raises(DeckError, match=r"levels.1.defence: the low end 6 is above the high end 3"):
        parse_deck_text(_deck_with(level1="[levels.1]\ndefence = [6, 3]\ntreasure = [2, 4]"))
    csv_text = reference_deck().to_csv().replace("room,1,,,3,2,4", "room,1,,,3,2,many")
    with pytest.raises(DeckError, match=r"CSV row \d+.count: expected a whole number"):
        parse_deck_text(csv_text, "csv")
    with pytest.raises(DeckError, match="column section"):
        parse_deck_text(reference_deck().to_csv() + "rooom,1,,,3,2,1\n", "csv")


def test_small_deck_is_refused_for_many_players():
    deck = parse_deck_text(_deck_with(rooms="[[rooms]]\nlevel = 1\ndefence = 4\ntreasure = 3\ncount = 10\n"))
    Game(3, seed=1, deck=deck)  # 9 rooms needed
    with pytest.raises(ValueError, match="deals 16"):
        Game(4, seed=1, deck=deck)


@given(st.sampled_from(["place", "bump", "swap", "exhaust"]), st.integers(1, 5), st.integers(1, 7),
       st.sampled_from("ab"))
def test_notation_prints_back_identically(kind, s, r, x):
    text = {"place": f"place {s} {r}", "exhaust": f"exhaust {s} {r}"}.get(kind, f"{kind} {s} {r}{x}")
    assert str(parse(text)) == text
    name, action = parse_move(f"Ann: {text}")
    assert name == "Ann" and str(action) == text


@pytest.mark.parametrize("text", ["place 3", "bump 3 2", "place 3 2a", "jump 3 2", "", "Ann:", "3 place 2"])
def test_bad_notation_is_refused_with_a_hint(text):
    with pytest.raises(ActionSyntaxError, match="cannot read"):
        parse(text)


def test_action_values_are_small_and_hashable():
    assert parse("bump 4 1a") == Action("bump", 4, 1, 0)
    assert len({parse("place 1 1"), parse("place 1 1")}) == 1
