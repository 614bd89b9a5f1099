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


# resolves once nothing under the dashboard has changed for ``quiet`` ms (or after ``limit`` ms:
# then the audit runs on the page as it is, as it did after a fixed wait)
QUIET_JS = """([quiet, limit]) => new Promise(resolve => {
  const root = document.querySelector('.dg-dashboard') || document.body;
  const t0 = performance.now();
  let timer = null;
  const done = () => { obs.disconnect(); clearTimeout(cap); resolve(performance.now() - t0); };
  const obs = new MutationObserver(() => { clearTimeout(timer); timer = setTimeout(done, quiet); });
  obs.observe(root, {subtree: true, childList: true, characterData: true, attributes: true});
  timer = setTimeout(done, quiet);
  const cap = setTimeout(done, limit);
})"""
# every tab page shown (of the top tabs and of the tab bars inside them) holds something: a tab
# or sub-tab built when first opened (the kernel fills it) is there
SHOWN_JS = """() => [...document.querySelectorAll('.dg-dashboard .widget-tab-contents > *')]
  .filter(e => e.offsetParent !== null).every(e => e.innerText.trim().length > 0)"""
HTML_LANG = {"en": "en", "zh": "zh-Hant"}


def _settle(page, quiet_ms: int = 500, limit_ms: int = 15_000) -> None:
    """Until the dashboard has not changed for ``quiet_ms`` (no fixed wait: issue 39.6)."""
    page.evaluate(QUIET_JS, [quiet_ms, limit_ms])


def _shown(page, timeout_ms: int = 120_000) -> None:
    page.wait_for_function(SHOWN_JS, timeout=timeout_ms)


def _built(page, lang: str, timeout_ms: int = 120_000) -> None:
    """Until the tab shown no longer says "Loading…" (``dash.loading``): a tab is built when it is
    first opened, and its sub-tabs only exist then."""
    from dungeon_guilds import i18n

    page.wait_for_function(
        """(loading) => { const p = Array.from(document.querySelectorAll('.dg-tabs > .widget-tab-contents > .dg-tab-page'))
             .find(e => e.offsetParent !== null);
           return p && !Array.from(p.querySelectorAll('.dg-note')).some(n => n.textContent.trim() === loading); }""",
        arg=i18n.t("dash.loading", lang), timeout=timeout_ms)
    _settle(page)


def audit_every_tab(page, langs=("en", "zh")) -> dict[str, dict[str, list[dict]]]:
    """Click every top tab and every tab of a tab bar inside it, in each language, and audit each
    screen. Returns ``{"<lang> <tab> / <sub-tab>": {rule: [nodes]}}`` (screens with no blocking
    violation included, as ``{}``)."""
    screens: dict[str, dict[str, list[dict]]] = {}
    for lang in langs:
        page.locator(".dg-lang-toggle button", has_text=LANG_BUTTON[lang]).first.click()
        page.wait_for_function("lang => document.documentElement.lang === lang", arg=HTML_LANG[lang])
        _settle(page)
        top = page.locator(".dg-tabs > .lm-TabBar .lm-TabBar-tab")
        for i in range(top.count()):
            tab = top.nth(i)
            tab.click()
            _shown(page)
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
                    _shown(page)
                    _settle(page)
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
