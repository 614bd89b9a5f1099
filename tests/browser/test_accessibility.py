"""Accessibility of the served dashboard (issue 32), checked in Chromium:

* **axe-core** (WCAG 2.1 A/AA rules) over every tab and sub-tab, in English and 繁體中文, after
  round 1 of Learn has been played by clicking: no violation of impact "serious" or "critical"
  (the static site gets the same audit in ``test_static_site.py``);
* the page's ``<html lang>`` follows the language toggle (``en`` → ``zh-Hant``), so a screen
  reader switches voice;
* each move and refusal is spoken: the ``aria-live`` region repeats the message line's new text;
* a student who asks for reduced motion gets no transitions.

The audit itself is ``a11y_audit.py`` (also a script: the counts in docs/accessibility.md).
"""

from __future__ import annotations

import random

import pytest

from a11y_audit import audit_every_tab, counts
from test_dashboard_browser import open_dashboard, play_round_one_by_clicking, settle

pytestmark = pytest.mark.browser


def test_no_serious_accessibility_violation_on_any_tab_in_either_language(browser, voila_server):
    context = browser.new_context(viewport={"width": 1024, "height": 768}, reduced_motion="reduce")
    page = context.new_page()
    try:
        open_dashboard(page, voila_server)
        assert page.evaluate("document.documentElement.lang") == "en"
        live = page.locator(".dg-live[aria-live='polite']")
        assert live.count() == 1

        play_round_one_by_clicking(page, random.Random(7))
        settle(page)
        said = page.locator(".dg-stepper .dg-message").first.inner_text().strip()
        page.wait_for_function("(s) => document.querySelector('.dg-live').textContent.trim().length > 0",
                               arg=said)
        assert live.inner_text().strip()  # the last move or story step was spoken

        moving = page.evaluate("""() => Array.from(document.querySelectorAll('.dg-dashboard *'))
            .filter(e => { const s = getComputedStyle(e);
                           return parseFloat(s.transitionDuration) > 0 || s.animationName !== 'none'; })
            .map(e => e.className).slice(0, 5)""")
        assert moving == [], f"transitions left with prefers-reduced-motion: {moving}"

        screens = audit_every_tab(page)
        assert page.evaluate("document.documentElement.lang") == "zh-Hant"
        assert len(screens) >= 20, sorted(screens)  # 6 tabs and their sub-tabs, twice
        blocking = counts(screens)
        assert blocking == {}, (blocking, [n for v in screens.values() for ns in v.values() for n in ns][:8])
    finally:
        context.close()
