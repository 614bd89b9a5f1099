"""Issue 29, item 3: "Print and play" in the deck editor, the lord builder and the Rules tab — the
document of the variant on screen, as a browser download (a ``data:`` link); nothing is written
on the server."""

from __future__ import annotations

import base64
import re

from dungeon_guilds.cards import reference_deck
from dungeon_guilds.drawing.print_and_play import print_set
from dungeon_guilds.lords import ALL_LORDS, BASE_LORDS
from dungeon_guilds.widgets.deck_editor import DeckEditor
from dungeon_guilds.widgets.lord_builder import LordBuilder
from dungeon_guilds.widgets.rules_tab import RulesTab
from dungeon_guilds.workshop.session import WorkshopSession


def files(root) -> dict[str, tuple[int, int]]:
    return {str(p.relative_to(root)): (p.stat().st_size, p.stat().st_mtime_ns) for p in root.rglob("*") if p.is_file()}


def downloaded(panel) -> tuple[str, str]:
    """(file name, document) of the panel's download link."""
    m = re.search(r'download="([^"]+)" href="data:text/html;charset=utf-8;base64,([^"]+)"', panel.link_html.value)
    assert m, panel.link_html.value
    return m.group(1), base64.b64decode(m.group(2)).decode("utf-8")


def test_the_rules_tab_prints_the_reference_deck_and_the_11_lords_in_its_language():
    tab = RulesTab()
    tab.print_panel.paper.value = "letter"
    tab.print_panel.button.click()
    name, doc = downloaded(tab.print_panel)
    assert doc == print_set(None, ALL_LORDS, players=6, lang="en", paper="letter").html()
    assert name == "print-and-play_reference_en_letter.html"
    assert "88 cards, 21 pages" in tab.print_panel.link_html.value
    tab.lang = "zh"  # the dashboard's toggle
    assert tab.print_panel.link_html.value == "" and tab.print_panel.button.description == "列印即玩"
    tab.print_panel.players.value = 4
    tab.print_panel.button.click()
    _name, doc = downloaded(tab.print_panel)
    assert doc == print_set(None, ALL_LORDS, players=4, lang="zh", paper="letter").html()


def test_the_deck_editor_prints_the_deck_being_edited_with_the_workshops_lords():
    session = WorkshopSession()
    builder = LordBuilder(session=session, auto_preview=False)
    builder.save()  # a copy of the Red Dragon, in the session
    ed = DeckEditor(session=session)
    ed.cells[("rooms", 0, "count")].value = "9"
    ed.print_panel.button.click()
    _name, doc = downloaded(ed.print_panel)
    assert doc == print_set(ed.deck, BASE_LORDS + session.lords, players=6).html()
    assert ed.deck.rooms.count(ed.deck.rooms[0]) == 9 and ed.deck.name == "custom"
    ed.cells[("rooms", 0, "count")].value = "0"  # a bad cell: explained, nothing printed
    ed.print_panel.link_html.value = ""
    ed.print_panel.button.click()
    assert ed.print_panel.link_html.value == ""
    assert "count" in ed.message_text


def test_the_lord_builder_prints_its_lord_with_the_deck_the_workshop_saved_last():
    session = WorkshopSession()
    ed = DeckEditor(session=session)
    ed.cells[("heal", 4, "heal_cost")].value = "4"
    ed.name_text.value = "dear heroes"
    ed.use()
    b = LordBuilder(session=session, auto_preview=False)
    b.effect_rows[0].treasure_input.value = 6
    b.id_text.value, b.name_en_text.value = "gentle_dragon", "Gentle Dragon"
    b.print_panel.button.click()
    _name, doc = downloaded(b.print_panel)
    ps = b.print_panel.last
    assert ps.deck.name == "dear heroes" and ps.deck.heal_cost(5) == 4
    assert [x.id for x in ps.lords] == [x.id for x in BASE_LORDS] + ["gentle_dragon"]
    assert "Gentle Dragon" in ps.variant and "dear heroes" in ps.variant
    assert doc == ps.html() and doc.count('data-lord="gentle_dragon"') == 1


def test_printing_writes_nothing_on_the_server(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("HOME", str(tmp_path))
    before = files(tmp_path)
    for app in (RulesTab(), DeckEditor(reference_deck()), LordBuilder(auto_preview=False)):
        assert "dg-pnp-button" in app.print_panel.button._dom_classes  # what the browser tests find
        app.print_panel.button.click()
        assert 'href="data:text/html' in app.print_panel.link_html.value
    assert files(tmp_path) == before


def test_the_deck_editor_prints_only_the_changed_cards_for_a_playtest():
    """Issue 40: a changed deck's playtest reprint: only the cards that differ from the
    reference; an unchanged deck says there is nothing to print, in the dashboard's language."""
    ed = DeckEditor(session=WorkshopSession())
    ed.print_panel.only.value = "changed"
    ed.print_panel.button.click()
    assert ed.print_panel.link_html.value == "" and "reference" in ed.message_text
    ed.cells[("rooms", 0, "count")].value = str(ed.deck.rooms.count(ed.deck.rooms[0]) + 1)
    ed.print_panel.button.click()
    name, doc = downloaded(ed.print_panel)
    assert doc == print_set(ed.deck, BASE_LORDS, players=6, cards="changed").html()
    assert "_changed_" in name and ed.print_panel.last.cards and all(c.kind == "room" for c in ed.print_panel.last.cards)
    assert "1 cards, 2 pages" in ed.print_panel.link_html.value
    ed.lang = "zh"
    assert ed.print_panel.only.value == "changed" and "只印" in ed.print_panel.only.options[1][0]
