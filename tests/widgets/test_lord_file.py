"""A lord built in the workshop is a file a student downloads and loads again (issue 26, item 1):
the lord builder offers ``lord_<id>.json`` when the lord is added to the workshop, and loads such
a file back (a bad file names the wrong field and changes nothing). The same file opens a class
table (tests/tables/test_tables_logic.py)."""

from __future__ import annotations

import base64
import json
import re

import pytest

from dungeon_guilds.lords import LordError
from dungeon_guilds.widgets.lord_builder import LordBuilder


def downloaded(html: str) -> str:
    return base64.b64decode(re.search(r"base64,([^\"]+)", html).group(1)).decode("utf-8")


def test_download_then_load_gives_the_same_lord():
    b = LordBuilder()
    b.example_dropdown.value = "red_dragon"
    b.effect_rows[0].treasure_input.value = 6
    b.id_text.value = "gentle_dragon"
    lord = b.save()
    assert 'download="lord_gentle_dragon.json"' in b.lord_file_html.value
    text = downloaded(b.lord_file_html.value)
    again = LordBuilder(lang="zh")
    assert again.load_file(text) == lord and again.lord == lord
    assert "gentle_dragon" in again.message_text and "城主" in again.message_text


def test_a_bad_lord_file_is_refused_by_field():
    b = LordBuilder()
    before = b.lord
    with pytest.raises(LordError, match="effects"):
        b.load_file(json.dumps({"id": "x"}))
    with pytest.raises(LordError, match="not JSON"):
        b.load_file("{")
    assert b.lord == before


def test_play_offers_the_workshops_decks_and_lords():
    """A deck and a lord added in the Lab's workshop are offered in Play's set-up at once."""
    from dungeon_guilds.app.dashboard import Dashboard
    from dungeon_guilds.cards import reference_deck

    dash = Dashboard()
    dash.select_tab("play")
    play = dash.apps["play"]
    b = LordBuilder(session=dash.session)
    b.example_dropdown.value = "red_dragon"
    b.id_text.value = "gentle_dragon"
    lord = b.save()
    deck = reference_deck().with_values(heal_costs=[0, 1, 1, 2, 2, 3])
    dash.session.add_deck(deck)
    choice = play.workshop_choice
    assert ("gentle_dragon" in [v for _, v in choice.lord_dropdown.options]
            and deck.name in [v for _, v in choice.deck_dropdown.options])
    choice.lord_dropdown.value, choice.deck_dropdown.value = "gentle_dragon", deck.name
    play.start()
    assert play.game.lords[0] == lord and play.game.state.base_heal[5] == 3
    assert len({x.id for x in play.game.lords}) == len(play.game.lords)


def test_learn_offers_the_workshops_lords_too():
    from dungeon_guilds.app.dashboard import Dashboard

    dash = Dashboard()
    learn = dash.apps["learn"]
    b = LordBuilder(session=dash.session)
    b.example_dropdown.value = "lich_king"
    b.id_text.value = "my_lich"
    lord = b.save()
    learn.workshop_choice.lord_dropdown.value = "my_lich"
    learn.new_game()
    assert learn.game.lords[0] == lord
