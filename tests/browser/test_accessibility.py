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


CUT_OFF_JS = """() => Array.from(document.querySelectorAll(
      '.dg-dashboard button, .dg-dashboard select, .dg-dashboard input, .dg-dashboard [role=button]'))
  .filter(e => e.offsetParent !== null)
  .map(e => [e.getBoundingClientRect(), (e.textContent || '').trim().slice(0, 30) || e.getAttribute('aria-label')])
  .filter(([r]) => r.width > 0 && (r.right > window.innerWidth + 1 || r.left < -1))
  .map(([r, name]) => `${name} (${Math.round(r.left)}-${Math.round(r.right)} px)`)"""


def test_at_200_percent_zoom_on_a_1024_px_screen_no_control_is_cut_off(browser, voila_server, tmp_path):
    """200 % zoom at 1024 × 768 is a page 512 CSS px wide at device scale 2: no horizontal scroll
    of the whole page, and every visible control of every tab lies inside the page's width."""
    context = browser.new_context(viewport={"width": 512, "height": 384}, device_scale_factor=2)
    page = context.new_page()
    try:
        page.goto(voila_server.url, timeout=120_000)
        page.wait_for_selector(".dg-dashboard .dg-stepper .dg-board", timeout=120_000)
        cut: dict[str, list[str]] = {}
        for tab in ("Learn", "Play", "Rules", "Explore", "Lab", "Compare", "Challenges"):
            page.locator(".dg-tabs > .lm-TabBar .lm-TabBar-tab", has_text=tab).first.click()
            settle(page)
            page.wait_for_timeout(1500)
            width = page.evaluate("[document.scrollingElement.scrollWidth, window.innerWidth]")
            assert width[0] <= width[1], (tab, width)
            if found := page.evaluate(CUT_OFF_JS):
                cut[tab] = found
        page.locator(".dg-tabs > .lm-TabBar .lm-TabBar-tab", has_text="Learn").first.click()
        page.screenshot(path=str(tmp_path / "zoom-200-learn.png"))
        assert cut == {}, cut
    finally:
        context.close()


ACTIVE_JS = """() => { const e = document.activeElement;
  const t = e && e.closest ? e.closest('[data-target]') : null;
  return {target: t ? t.dataset.target : null, disabled: t ? t.getAttribute('aria-disabled') : null,
          cls: e ? String(e.className && e.className.baseVal !== undefined ? e.className.baseVal : e.className) : '',
          text: e ? (e.innerText || e.textContent || '').trim().slice(0, 40) : ''}; }"""


def tab_to(page, wanted, limit: int = 120) -> dict:
    """Press Tab until the focused element satisfies ``wanted(active)``; fail after ``limit``
    presses (the element cannot be reached by keyboard)."""
    for _ in range(limit):
        page.keyboard.press("Tab")
        active = page.evaluate(ACTIVE_JS)
        if wanted(active):
            return active
    raise AssertionError("not reachable with the Tab key")


def board_state(page) -> tuple[int, str, int]:
    """(round, phase, seat to move) as the board shows them; phase "resolving" (seat -1) while a
    round's resolution is shown on the board (issue 24)."""
    board = page.locator(".dg-stepper .dg-board").first
    if board.get_attribute("data-resolving"):
        return int(board.get_attribute("data-round")), "resolving", -1
    seat = int(page.locator(".dg-stepper .dg-status .dg-to-move").first.get_attribute("data-seat"))
    return int(board.get_attribute("data-round")), board.get_attribute("data-phase"), seat


def test_a_whole_round_of_learn_by_keyboard_only(browser, voila_server):
    """Tab / Enter / Space only (no mouse event): exhaust two adventurers on the drawn board,
    place adventurers, step the bots with the end-of-round button until round 1 is shown
    resolving on the board, then "Next round ▶", until round 2 is dealt; every focused control
    shows a focus ring."""
    from test_dashboard_browser import ply, wait_changed

    context = browser.new_context(viewport={"width": 1024, "height": 768})
    page = context.new_page()
    try:
        page.goto(voila_server.url, timeout=120_000)
        page.wait_for_selector(".dg-dashboard .dg-stepper .dg-board", timeout=120_000)
        settle(page)
        page.locator("body").focus()
        hand = lambda s: lambda a: a["target"] == f"hand-{s}"  # noqa: E731
        for s in (4, 5):
            tab_to(page, hand(s))
            ring = page.evaluate("getComputedStyle(document.activeElement).outlineStyle + '|' + "
                                 "getComputedStyle(document.activeElement.closest('[data-target]')).outlineStyle")
            page.keyboard.press("Enter" if s == 4 else " ")
            page.wait_for_selector(f".dg-stepper [data-target='hand-{s}'][aria-pressed='true']")
        assert ring  # a focused target is drawn with its ring (board_svg's focus style)
        before = ply(page)
        tab_to(page, lambda a: a["target"] == "exhaust" and a["disabled"] == "false")
        page.keyboard.press("Enter")
        wait_changed(page, ".dg-stepper .dg-jump .widget-readout", before)
        settle(page, ".dg-stepper")
        assert page.locator(".dg-stepper .dg-message").first.inner_text().startswith("Ann: exhaust 4 and 5")

        resolved = False
        for _ in range(40):
            rnd, phase, seat = board_state(page)
            if rnd >= 2 or phase == "over":
                break
            if phase == "resolving":  # round 1's rooms, with their occupants, revealed on the board
                assert rnd == 1 and page.locator(".dg-stepper .dg-board .dg-token").count() >= 6
                tab_to(page, lambda a: "dg-next-round" in a["cls"])
                page.keyboard.press("Enter")
                page.wait_for_function("() => !document.querySelector('.dg-stepper .dg-board').dataset.resolving",
                                       timeout=30_000)
                settle(page, ".dg-stepper")
                resolved = True
                continue
            before = ply(page)
            if seat == 0:  # the student: an adventurer of the hand, then a free slot
                tab_to(page, lambda a: (a["target"] or "").startswith("hand-") and a["disabled"] == "false")
                page.keyboard.press("Enter")
                settle(page, ".dg-stepper")
                tab_to(page, lambda a: (a["target"] or "").startswith("slot-") and a["disabled"] == "false")
                page.keyboard.press("Enter")
            else:  # the bots' turns, stepped with the end-of-round button
                tab_to(page, lambda a: "dg-to-round" in a["cls"])
                page.keyboard.press("Enter")
            wait_changed(page, ".dg-stepper .dg-jump .widget-readout", before)
            settle(page, ".dg-stepper")
        assert board_state(page)[0] >= 2, "round 1 did not end by keyboard"
        assert resolved, "round 1's resolution was not shown on the board"
    finally:
        context.close()
