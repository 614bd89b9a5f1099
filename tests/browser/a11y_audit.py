"""axe-core over every tab and sub-tab of a dashboard page (server or static site), in English and
繁體中文 (issue 32). axe-core comes with the ``axe-playwright-python`` package (its
``axe.min.js`` is injected into the page; nothing is fetched). Used by
``test_accessibility.py`` and, for the counts in docs/accessibility.md, run as a script::

    .venv/bin/python tests/browser/a11y_audit.py            # serves the dashboard itself

which prints the serious and critical violations by rule and screen as JSON.
"""

from __future__ import annotations

import json
import time
from collections import Counter

# WCAG 2.1 A and AA: the rules axe tags with these
WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
BLOCKING = ("serious", "critical")
LANG_BUTTON = {"en": "English", "zh": "繁體中文"}

def audit(page, where: str) -> dict[str, list[dict]]:
    """Run axe-core on the page as it is; the serious/critical violations:
    ``{rule: [{"target", "summary"}]}``, each tagged with ``where``."""
    from axe_playwright_python.sync_playwright import Axe

    result = Axe().run(page, options={"runOnly": {"type": "tag", "values": WCAG_TAGS},
                                      "resultTypes": ["violations"]})
    found: dict[str, list[dict]] = {}
    for v in result.response["violations"]:
        if v.get("impact") in BLOCKING:
            found[v["id"]] = [{"where": where, "target": n["target"],
                               "summary": n.get("failureSummary", "")[:300]} for n in v["nodes"]]
    return found


def _settle(page, seconds: float = 0.6) -> None:
    page.wait_for_timeout(int(seconds * 1000))


def _built(page, lang: str, timeout_ms: int = 120_000) -> None:
    """Until the tab shown no longer says "Loading…" (``dash.loading``): a tab is built when it is
    first opened, and its sub-tabs only exist then."""
    from dungeon_guilds import i18n

    page.wait_for_function(
        """(loading) => { const p = Array.from(document.querySelectorAll('.dg-tabs > .widget-tab-contents > .dg-tab-page'))
             .find(e => e.offsetParent !== null);
           return p && !Array.from(p.querySelectorAll('.dg-note')).some(n => n.textContent.trim() === loading); }""",
        arg=i18n.t("dash.loading", lang), timeout=timeout_ms)
    _settle(page, 1.0)


def audit_every_tab(page, langs=("en", "zh")) -> dict[str, dict[str, list[dict]]]:
    """Click every top tab and every tab of a tab bar inside it, in each language, and audit each
    screen. Returns ``{"<lang> <tab> / <sub-tab>": {rule: [nodes]}}`` (screens with no blocking
    violation included, as ``{}``)."""
    screens: dict[str, dict[str, list[dict]]] = {}
    for lang in langs:
        page.locator(".dg-lang-toggle button", has_text=LANG_BUTTON[lang]).first.click()
        _settle(page, 1.5)
        top = page.locator(".dg-tabs > .lm-TabBar .lm-TabBar-tab")
        for i in range(top.count()):
            tab = top.nth(i)
            tab.click()
            _settle(page, 2.0)
            _built(page, lang)  # a tab built on its first opening: its sub-tabs are there now
            name = f"{lang} {tab.inner_text().strip()}"
            screens[name] = audit(page, name)
            panel = page.locator(".dg-tabs > .widget-tab-contents > .dg-tab-page:visible").first
            inner = panel.locator(".lm-TabBar .lm-TabBar-tab")
            j = 0
            while j < inner.count():  # counted again: a sub-tab may bring a tab bar of its own
                sub = inner.nth(j)
                j += 1
                if sub.is_visible():
                    sub.click()
                    _settle(page, 1.5)
                    where = f"{name} / {sub.inner_text().strip()}"
                    screens[where] = audit(page, where)
    return screens


def counts(screens: dict[str, dict[str, list[dict]]]) -> dict[str, int]:
    """Blocking violations by rule, summed over the screens (a node seen on two screens counts
    twice, as it is met twice)."""
    total: Counter = Counter()
    for found in screens.values():
        for rule, nodes in found.items():
            total[rule] += len(nodes)
    return dict(sorted(total.items()))


def main() -> None:  # pragma: no cover - the report for docs/accessibility.md
    from pathlib import Path

    from playwright.sync_api import sync_playwright

    from dungeon_guilds.app import serving

    root = Path(__file__).resolve().parents[2]
    server = serving.start_voila(root, "/tmp/dg-a11y-voila.log", pool=1, wait_pool=True,
                                 extra_args=("--PoolKeepingKernelManager.refill_busy=0",))
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path="/usr/bin/chromium",
                                         args=["--no-sandbox", "--disable-gpu",
                                               "--disable-background-networking"])
            page = browser.new_page(viewport={"width": 1024, "height": 768})
            page.goto(server.url, timeout=120_000)
            page.wait_for_selector(".dg-dashboard .dg-stepper .dg-board", timeout=120_000)
            time.sleep(2)
            screens = audit_every_tab(page)
            browser.close()
    finally:
        server.stop()
    print(json.dumps({"by_rule": counts(screens),
                      "screens": {k: {r: len(n) for r, n in v.items()} for k, v in screens.items()},
                      "nodes": [n for v in screens.values() for nodes in v.values() for n in nodes]},
                     ensure_ascii=False, indent=1))


if __name__ == "__main__":  # pragma: no cover
    main()
