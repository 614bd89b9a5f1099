"""The Rules tab in a real browser (issue 19): Voila serves the dashboard, Chromium opens the
Rules tab, reads a card and a live example in English, types a treasure and sees the engine's
split, then switches to 繁體中文 and sees the same card in Chinese."""

from __future__ import annotations

import re

import pytest

from dungeon_guilds import i18n
from dungeon_guilds.payout import split
from dungeon_guilds.rule_cards import card

pytestmark = pytest.mark.browser

HALF = '.dg-example-split .dg-num[data-key="half"]'


def test_the_rules_tab_teaches_in_both_languages_with_the_engines_numbers(page, voila_server):
    page.goto(voila_server.url, timeout=90_000)
    page.wait_for_selector(".dg-dashboard .dg-stepper .dg-board", timeout=90_000)
    page.locator(".dg-tabs .lm-TabBar-tab", has_text="Rules").first.click()
    page.wait_for_selector('.dg-rules-tab .dg-rule-card[data-rule="R1.1"]', timeout=60_000)
    assert card("R1.1").line("en") in page.locator(".dg-rules-tab").first.inner_text()

    # the resolution group (its heading names its rules, "Resolution (R5)"): the split example, a treasure typed in
    from dungeon_guilds.rule_cards import group_title
    page.locator(".dg-rules-accordion .jupyter-widget-Collapse-header", has_text=group_title("resolution", "en")).first.click()
    page.wait_for_selector(HALF, state="visible")
    box = page.locator(".dg-example-split .dg-ex-treasure input").first
    box.fill("11")
    box.press("Enter")
    shares, bank = split(11, [(0, 3), (1, 2)])
    page.wait_for_function(f"document.querySelector('{HALF}').innerText == '5'", timeout=20_000)
    text = page.locator(".dg-example-split .dg-example-out").first.inner_text()
    assert f"Ann ${shares[0]}" in text and f"Bo ${shares[1]}" in text and f"${bank}" in text

    # 繁體中文: the tab's title, the cards and the example follow; the numbers stay
    page.locator(".dg-dash-header .dg-lang-toggle button", has_text="繁體中文").click()
    title = card("R5.2").title("zh")
    page.wait_for_function(f"document.querySelector('.dg-rules-tab').innerText.includes('{title}')",
                           timeout=20_000)
    assert "規則" in page.locator(".dg-tabs .lm-TabBar-tab").all_inner_texts()
    tab_text = page.locator(".dg-rules-tab").first.inner_text()
    assert i18n.t("rulecard.group.lords", "zh") in tab_text
    assert page.locator(HALF).first.inner_text() == "5"
    assert re.search(r"R5\.2", tab_text)
    assert "Traceback" not in page.content()
    assert not page.console_errors, page.console_errors
