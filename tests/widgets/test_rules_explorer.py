"""The rules explorer, driven headless: two rule sets compared in words (docs/rules.md §9), the
engine's refusal for a combination a table cannot play, every option and every project ruling
on show, the language switch; and its place in the dashboard's Explore tab."""

from __future__ import annotations

import itertools
import re

import pytest

from dungeon_guilds import Rules, i18n
from dungeon_guilds.rules import unstated_in_fr
from dungeon_guilds.rules import (EDITION_SILENCES, EDITIONS, LORDS_OPTIONS, OPTIONS, RULINGS,
                                  TEAM_OPTIONS, describe_value, differences)
from dungeon_guilds.widgets.common import LanguageState
from dungeon_guilds.widgets.rules_explorer import (RulesExplorer, difference_items, difference_text, option_help,
                                                   rule_label, source_words,
                                                   ruling_keys, silence_keys, value_key)


def plain(html: str) -> str:
    """The text a user reads (tags dropped, entities decoded, spaces squeezed)."""
    import html as _html

    return re.sub(r"\s+", " ", _html.unescape(re.sub(r"<[^>]+>", " ", html))).strip()


def items(html: str, css: str) -> list[str]:
    return [plain(m) for m in re.findall(rf'<li class="[^"]*\b{css}\b[^"]*"[^>]*>(.*?)</li>', html)]


ALL_RULES = [Rules(lords=l, teams=t, npc=n, edition=e)
             for l, t, n, e in itertools.product(LORDS_OPTIONS, TEAM_OPTIONS, (False, True), EDITIONS)]


# ---------------------------------------------------------------------- comparing two rule sets
def test_switching_b_to_the_french_edition_lists_r9_1_and_marks_r9_2_unstated_in_fr():
    e = RulesExplorer()
    assert "dg-rules-explorer" in e._dom_classes
    e.b_edition.value = "fr"
    assert e.last_error is None
    assert e.rules_b == Rules(edition="fr") and e.rules_a == Rules()
    html = e.differences_html.value
    changes = items(html, "dg-diff")
    assert any("R9.1" in line and "unlocked and full room" in line for line in changes), changes
    assert changes[0].startswith("edition: the Chinese rulebook → the French summary")
    assert 'data-rule="R9.1"' in html
    # R9.2 is marked as unstated in FR (and R9.3, and the five points of R9.5); R9.4 agrees
    unstated = re.findall(r'<li class="dg-diff dg-diff-silence dg-unstated" data-rule="([^"]+)"', html)
    assert unstated == ["R9.2", "R9.3"] + ["R9.5"] * 5
    r92 = next(line for line in items(html, "dg-diff-silence") if line.startswith("R9.2"))
    assert "unstated in FR" in r92
    # the English words are the engine's own
    assert e.differences == differences(Rules(), Rules(edition="fr"))
    assert changes == e.differences  # every item of both lists carries dg-diff


def test_R9_5_every_point_the_french_summary_leaves_unstated_is_listed_in_both_languages():
    """R9.5: the 'strictly stronger' requirement of éjecter, locking, the $0 heal floor, the
    start-player marker and setup are unstated in FR; the explorer always lists each, marked."""
    points = unstated_in_fr()
    assert [rule for rule, _ in points] == ["R9.2", "R9.3"] + ["R9.5"] * 5
    r95 = " ".join(text for rule, text in points if rule == "R9.5")
    for point in ("strictly stronger", "locking", "$0 floor of heal costs", "start-player marker", "setup"):
        assert point in r95, point
    state = LanguageState(lang="en")
    e = RulesExplorer(lang_state=state)  # A and B both zh: the list shows all the same
    listed = re.findall(r'<li class="dg-unstated" data-rule="([^"]+)" data-unstated="fr"', e.unstated_html.value)
    assert listed == [rule for rule, _ in points]
    assert "Points the French summary leaves unstated (R9.2, R9.3, R9.5)" in plain(e.unstated_html.value)
    state.lang = "zh"
    zh = plain(e.unstated_html.value)
    assert "法文摘要未說明的要點（R9.2、R9.3、R9.5）" in zh and zh.count("法文版未說明") == len(points)
    assert "unstated in FR" not in zh


def test_identical_rule_sets_say_there_is_no_difference():
    e = RulesExplorer(a=Rules(lords="all", npc=True), b=Rules(lords="all", npc=True))
    assert e.differences == []
    text = plain(e.differences_html.value)
    assert "no difference" in text and "<li" not in e.differences_html.value
    e.b_npc.value = False
    assert items(e.differences_html.value, "dg-diff") == ["npc: NPC adventurers (R10.2) → no NPC adventurers"]
    e.b_npc.value = True
    assert "no difference" in plain(e.differences_html.value)


def test_3v3_with_4_players_shows_the_engines_refusal_not_an_exception():
    e = RulesExplorer(players=4)
    assert e.message_level == "ok" and e.refusals == {}
    e.b_teams.value = "3v3"
    assert e.last_error is None
    with pytest.raises(ValueError) as refusal:
        Rules(teams="3v3").check_players(4)
    assert e.refusals == {"B": str(refusal.value)}
    assert e.message_level == "warn"
    assert str(refusal.value) in e.message_text and e.message_text.startswith("Rule set B")
    assert "Traceback" not in e.message.value
    # the differences are still shown; six players can play it
    assert items(e.differences_html.value, "dg-diff") == ["teams: no teams → teams 3v3 (R10.1)"]
    e.players_dropdown.value = 6
    assert e.refusals == {} and e.message_level == "ok"
    e.a_npc.value = True  # NPCs are for fewer than 6 players (R10.2)
    assert list(e.refusals) == ["A"] and "R10.2" in e.message_text
    e.lang = "zh"
    assert e.message_text == "規則組 A，6 位玩家：NPC 冒險者只用於少於 6 人的遊戲（R10.2）"


# ---------------------------------------------------------------------- every option and ruling
def test_every_ruling_and_every_option_appears():
    e = RulesExplorer()
    rows = re.findall(r'<tr class="dg-ruling" data-rule="([^"]+)">(.*?)</tr>', e.rulings_html.value)
    assert [(rule, plain(cells)) for rule, cells in rows] == [(rule, f"{rule_label(rule, 'en')} {text}")
                                                              for rule, text in RULINGS]
    options = e.options_html.value
    for info in OPTIONS:
        row = re.search(rf'<tr class="dg-option" data-option="{info.name}" data-ruling="(\w+)">(.*?)</tr>', options)
        assert row, info.name
        assert row.group(1) == str(info.ruling).lower()
        cells = plain(row.group(2))
        # sentences, not developer values (issue 15): the option's name, each value and the
        # default in words, what it does without option codes, the documents by name
        assert option_help(info.name, "en") in cells and source_words(info.source, "en") in cells
        assert "seed 0" not in cells and not re.search(r"\b(True|False|absent)\b|'(none|base|all|zh|fr)'", cells)
        assert f">{info.name}<" not in row.group(2)
        for value in info.values:
            assert describe_value(info.name, value) in cells
        assert ("project ruling" in cells) is info.ruling
    assert len(re.findall(r'<tr class="dg-option"', options)) == len(OPTIONS)


def test_the_english_table_repeats_the_engines_words_so_translations_match_them():
    en = i18n.strings("en")
    for info in OPTIONS:
        assert en[f"rules.option_{info.name}"] == info.description
        for value in info.values:
            assert en[value_key(info.name, value)] == describe_value(info.name, value)
    keys = ruling_keys()
    assert len(set(keys)) == len(RULINGS)
    for (rule, text), key in zip(RULINGS, keys):
        assert en[key] == text, rule
    assert len(set(silence_keys())) == len(EDITION_SILENCES)
    for (rule, text), key in zip(EDITION_SILENCES, silence_keys()):
        assert en[key] == text, rule
    zh = i18n.strings("zh")
    for key in keys + [f"rules.option_{o.name}" for o in OPTIONS]:
        assert zh[key] != en[key] and re.search(r"[\u4e00-\u9fff]", zh[key]), key


def test_the_sentences_built_from_keys_are_the_engines_sentences_for_every_pair():
    for a, b in itertools.product(ALL_RULES, repeat=2):
        built = [difference_text(item, "en") for item in difference_items(a, b)]
        assert built == differences(a, b), (a, b)
        zh = [difference_text(item, "zh") for item in difference_items(a, b)]
        assert all("{" not in line and "rules." not in line for line in zh)


# ---------------------------------------------------------------------- language
def test_the_language_switch_changes_labels_differences_and_ruling_texts():
    state = LanguageState(lang="en")
    e = RulesExplorer(b=Rules(edition="fr"), lang_state=state)
    assert e.b_edition.description == "Edition" and e.a_title.value == "<b>Rule set A</b>"
    assert "Every project ruling" in e.rulings_html.value
    state.lang = "zh"
    assert e.last_error is None
    assert e.b_edition.description == "版本" and "規則組 A" in e.a_title.value
    assert e.a_lords.description == "城主" and e.players_dropdown.description == "玩家人數"
    assert dict(e.b_edition.options)["法文摘要（R9.1）"] == "fr" and e.b_edition.value == "fr"
    rulings = plain(e.rulings_html.value)
    assert "所有專案裁定" in rulings
    assert i18n.t("rules.ruling_R4_7", "zh") in rulings and RULINGS[2][1] not in rulings
    assert "山頂洞人" in rulings
    html = e.differences_html.value
    assert items(html, "dg-diff-swap") == ["替換自己的冒險者：未鎖定的房間 → 未鎖定且已滿的房間（R9.1）"]
    r92 = items(html, "dg-diff-silence")[0]
    assert r92.startswith("R9.2：") and "法文版未說明" in r92
    assert 'data-rule="R9.2"' in html and "dg-unstated" in html
    assert "說明" in plain(e.options_html.value) and i18n.t("rules.help_npc", "zh") in plain(e.options_html.value)
    state.lang = "en"
    assert e.b_edition.description == "Edition" and RULINGS[2][1] in plain(e.rulings_html.value)
    assert items(e.differences_html.value, "dg-diff-swap") == [
        "replacing your own adventurer: unlocked room → unlocked and full room (R9.1)"]


def test_a_ruling_without_a_translation_is_shown_in_the_engines_english(monkeypatch):
    from dungeon_guilds.widgets import rules_explorer as rx

    monkeypatch.setattr(rx, "RULINGS", RULINGS + (("R99.1", "A brand-new ruling."),))
    e = RulesExplorer(lang="zh")
    assert "R99.1 A brand-new ruling." in plain(e.rulings_html.value)


def test_set_rules_and_a_bad_side():
    e = RulesExplorer()
    e.set_rules("b", Rules(lords="none", teams="2v2v2", edition="fr"))
    assert e.rules_b == Rules(lords="none", teams="2v2v2", edition="fr")
    assert e.b_teams.value == "2v2v2" and len(e.differences) == 3 + 1 + len(EDITION_SILENCES)
    with pytest.raises(ValueError):
        e.set_rules("C", Rules())


# ---------------------------------------------------------------------- in the dashboard
def test_the_dashboards_explore_tab_shows_the_rules_explorer_with_the_shared_language():
    from dungeon_guilds.app.dashboard import Dashboard

    d = Dashboard(tab="explore")
    explore = d.apps["explore"]
    rx = d.rules_explorer
    assert isinstance(rx, RulesExplorer) and rx in explore.children
    assert explore.children.index(rx) == len(explore.children) - 1
    title = explore.children[explore.children.index(rx) - 1]
    assert plain(title.value) == "Rule options and project rulings"
    assert rx.language_toggle.layout.display == "none" and rx.lang_state is d.lang_state
    d.language_toggle.value = "zh"
    assert plain(title.value) == "規則選項與專案裁定"
    assert rx.lang == "zh" and rx.a_edition.description == "版本"
    rx.b_teams.value = "3v3"
    assert rx.message_level == "warn" and "組隊 3v3 需要 6 位玩家" in rx.message_text
    assert rx.last_error is None and d.last_error is None
