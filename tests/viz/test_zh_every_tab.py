"""Issue 15: in 繁體中文 mode no dashboard tab shows an untranslated English UI string.

The dashboard is built in-process (no browser): every tab is opened, the Lab runs, the
workshop's three tools are opened and used (the A/B experiment runs and draws its charts, the
lord builder shows every kind of effect, the deck editor names a bad cell), the Compare tab
shows every pair of games, and the Learn tab plays a round. Then every visible text of the
widget tree (labels, descriptions, options, tab titles, HTML, plotly titles, axes, annotations,
legends and Sankey labels; see ``tests/ui_text.py``) is scanned for English words outside an
allow-list of proper names and units. Words a visitor typed (text boxes) are not scanned.
"""

from __future__ import annotations

import itertools

import pytest

from tests.ui_text import ALLOWED, english_words, untranslated, visible_texts

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def _use_everything(d) -> None:
    from dungeon_guilds.siblings import GAMES
    from dungeon_guilds.app.dashboard import TABS
    from dungeon_guilds.workshop.lord_edit import EFFECT_KINDS

    for name in TABS:
        d.select_tab(name)
    d.apps["learn"].round_button.click()
    lab = d.apps["lab"]
    lab.games_input.value = 10
    lab.run_button.click()
    d.lab_tabs.selected_index = 1  # the workshop is built when first opened
    ws = d.workshop
    ab = ws.ab_experiment
    ab.games_input.value = 6
    ab.arm_b.lords_dropdown.value = "all"
    ab.run_button.click()
    builder = ws.lord_builder
    for kind in EFFECT_KINDS[1:]:
        builder.add_effect(kind)
    ws.deck_editor.cells[("rooms", 0, "count")].value = "0"
    for app in (lab, ab, builder, ws.deck_editor):
        assert app.last_error is None or app is builder or app is ws.deck_editor, app.message_text
    compare = d.apps["compare"].children[1]  # the note, then the CompareExplorer
    return compare, list(itertools.combinations(GAMES, 2))


def _english_left(d) -> list[str]:
    return [f"{where}: {text!r} -> {words}" for where, text, words in untranslated(d)]


def test_the_scanner_finds_english_and_passes_chinese_names_and_units():
    assert english_words("Run the games") == ["Run", "the", "games"]
    assert english_words("勝率 (座位 1) −10.0 pp，Lv1，Ann 與 Bo，巫妖王 The Lich King") == []
    assert english_words("出自網頁：https://example.org/a-b_c") == []
    assert "pp" in ALLOWED and "run" not in ALLOWED


def test_every_tab_in_chinese_has_no_english_ui_string():
    from dungeon_guilds.app.dashboard import Dashboard

    d = Dashboard(lang="zh", lab={"games": 10, "players": 3})
    compare, pairs = _use_everything(d)
    left = _english_left(d)
    for a, b in pairs:  # every fact of every game, with its citations
        compare.game_a.value, compare.game_b.value = a, b
        left += _english_left(compare)
    assert d.last_error is None and compare.last_error is None
    assert not left, "English left in zh mode:\n" + "\n".join(left[:40])


def test_switching_back_to_english_leaves_no_chinese_in_the_labels():
    """The same tree in English: the scan has texts to read (it cannot pass by reading
    nothing), and the tab titles follow the language."""
    from dungeon_guilds.app.dashboard import Dashboard

    d = Dashboard(lang="zh", lab={"games": 10, "players": 3})
    _use_everything(d)
    d.lang = "en"
    texts = [text for _, text in visible_texts(d)]
    assert len(texts) > 500
    assert d.tabs.titles[0] == "Learn" and d.workshop.titles[2] == "A/B experiment"
    assert len(untranslated(d)) > 100  # English everywhere now
