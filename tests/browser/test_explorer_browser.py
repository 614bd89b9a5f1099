"""The design explorer (issue 41) in Chromium: Lab → Design workshop → Design explorer, on the
dashboard Voila serves and in the static site (Pyodide).

Dashboard (one page shared by the tests of this module, in order):

* the shipped reference map shows: the sorted bar chart (its bars = ``viz.explorer.bar_figure``
  of the shipped map, here) and the knob × measure grid; another measure redraws the chart;
* a goal search for a student's own goal the shipped map answers from its single steps (clear
  rate of level-1 rooms at most −3 points, room cards allowed): the proposal's words, after its
  check on fresh seeds, are this Python's for the same goal;
* 繁體中文: the panel's words (HTML, options, the charts' SVG text) have no English word left
  (``tests/ui_text.english_words``), the chart's knob steps and the proposal are this Python's
  in Chinese;
* axe-core: no serious or critical violation with the explorer shown, in both languages;
  screenshots of the panel at 1024×768 and 390×844 in en and zh to ``build/screenshots/``; at
  390 px every control of the panel is at least 44 px each way.

Static site (the built ``_site/``, served as test_static_site.py serves it): the explorer opens and
shows the shipped map, another measure redraws it; the reference deck's own map is computed in the
page with the fewest games the panel accepts (done, or stopped after OWN_MAP_WAIT s with the
shipped map kept: the timing is printed); then 繁體中文 with no English word left.
"""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest

from a11y_audit import audit
from test_dashboard_browser import click_tab, open_dashboard, settle
from test_static_site import FIRST_RENDER_TIMEOUT, site  # noqa: F401 - the static site's fixture
from ui_text import english_words, strip_html

from dungeon_guilds import i18n
from dungeon_guilds.workshop.explorer_words import et, measure_name

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
SHOTS = ROOT / "build" / "screenshots"
VIEWPORTS = {"1024": {"width": 1024, "height": 768}, "390": {"width": 390, "height": 844}}
PANEL = ".dg-explorer"
GOAL = dict(measure="clear_rate_1", direction="at_most", target="-0.03", allowed=("room",))
TAP = 44  # CSS px, each way

# the panel's plotly charts, found by their first trace's type (the bar chart, the grid's heatmap;
# no class of their own in a site built before they had one): that trace's y (knob steps, read
# without line breaks and spaces) and x
CHART_JS = """([sel, kind]) => { for (const p of document.querySelectorAll(sel + ' .js-plotly-plot'))
    if (p.data && p.data[0].type == kind)
      return {type: kind, y: Array.from(p.data[0].y, y => y.replace(/<br>| /g, '')),
              x: Array.from(p.data[0].x), title: p.layout.title.text};
  return null; }"""
# where each chart sits: the bar chart right under the measure menu, the grid last in the panel
PLACE_JS = """([sel, kind]) => { const panel = document.querySelector(sel);
  const box = kind == 'bar' ? panel.querySelector('.dg-explorer-measure').nextElementSibling : panel.lastElementChild;
  box.scrollIntoView({block: 'start'}); }"""
WORDS_JS = """(sel) => { const root = document.querySelector(sel);
  const parts = [root.innerText];
  for (const o of root.querySelectorAll('option')) parts.push(o.textContent);
  for (const t of root.querySelectorAll('svg text')) parts.push(t.textContent);
  for (const e of root.querySelectorAll('[placeholder], [title], [aria-label]')) {
    if (e.closest('.modebar')) continue;  // plotly's hover toolbar: plotly's own English, every chart
    const title = e.getAttribute('title');  // ipywidgets 8 writes a missing tooltip as "null"
    parts.push(e.getAttribute('placeholder') || '', title == 'null' ? '' : title || '',
               e.getAttribute('aria-label') || '');
  }
  return parts.join('\\n'); }"""
SMALL_JS = """(sel) => { const small = [];
  const hit = 'button, a[href], input, select, [role=button]';
  for (const e of document.querySelector(sel).querySelectorAll(hit)) {
    if (!e.getClientRects().length || e.closest('.modebar')) continue;  // plotly's hover toolbar
    const r = e.getBoundingClientRect();
    if (r.width < 44 - 0.01 || r.height < 44 - 0.01)
      small.push(`${e.tagName}.${e.className} "${(e.innerText || e.value || '').slice(0, 30)}" ` +
                 `${r.width.toFixed(0)}×${r.height.toFixed(0)}`);
  }
  return small; }"""
# what a pointer could show: titles that read "null" (ipywidgets 8's missing tooltip), and the
# words of plotly's toolbar buttons (plotly's English: hidden on a Chinese page)
NULL_TITLES_JS = "(sel) => document.querySelector(sel).querySelectorAll('[title=\"null\"]').length"
TOOLBAR_JS = """(sel) => Array.from(document.querySelector(sel).querySelectorAll('.modebar-btn'),
  b => b.getAttribute('data-title'))"""


def expected_bars(measure: str, lang: str, m=None) -> list[str]:
    """The bar chart's knob steps for ``measure`` of the map ``m`` (the shipped map), bottom to
    top, read without line breaks and spaces (a site built before labels were wrapped)."""
    from dungeon_guilds.viz.explorer import bar_figure
    from dungeon_guilds.workshop.explorer import reference_map

    return [re.sub(r"<br>| ", "", y) for y in bar_figure(m or reference_map(), measure, lang).data[0].y]


def chart(page, kind: str = "bar", timeout: int = 60_000) -> dict:
    """The chart of ``kind`` once drawn (scrolled into view: a LazyFigure draws when seen)."""
    page.evaluate(PLACE_JS, [PANEL, kind])
    page.wait_for_function(f"a => ({CHART_JS})(a) !== null", arg=[PANEL, kind], timeout=timeout)
    return page.evaluate(CHART_JS, [PANEL, kind])


def wait_bars(page, bars: list[str], timeout: int = 60_000) -> None:
    """Wait until the bar chart shows ``bars`` (its knob steps, bottom to top)."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    page.evaluate(PLACE_JS, [PANEL, "bar"])  # drawn when seen
    try:
        page.wait_for_function(f"([a, y]) => {{ const c = ({CHART_JS})(a); "
                               "return c && JSON.stringify(c.y) == JSON.stringify(y); }",
                               arg=[[PANEL, "bar"], bars], timeout=timeout)
    except PlaywrightTimeout:
        shown = page.evaluate(CHART_JS, [PANEL, "bar"])
        measure = page.locator(f"{PANEL} .dg-explorer-measure select").input_value()
        raise AssertionError(f"the chart never showed {bars[-3:]}: it shows {shown and shown['y'][-3:]}, "
                             f"the measure chosen is {measure!r}") from None


def open_explorer(page, lang: str = "en", timeout: int = 120_000) -> None:
    """Lab → Design workshop → Design explorer (the tabs' names in ``lang``)."""
    page.get_by_role("tab", name=i18n.t("dash.lab_workshop", lang)).click()
    tab = page.locator(".dg-workshop .lm-TabBar-tab", has_text=et("tab_title", lang)).first
    tab.wait_for(timeout=timeout)
    tab.click()
    page.locator(f"{PANEL} .dg-explorer-measure select").wait_for(timeout=timeout)


def searched_words(lang_after: str = "zh") -> tuple[str, str]:
    """The proposals' words (en, then ``lang_after``) of GOAL searched and checked here."""
    from dungeon_guilds.widgets.explorer_panel import OWN, ExplorerPanel

    panel = ExplorerPanel()
    panel.goal_dropdown.value = OWN
    panel.own_measure.value = GOAL["measure"]
    panel.direction.value = GOAL["direction"]
    panel.target_input.value = GOAL["target"]
    panel.allowed.value = GOAL["allowed"]
    for _ in panel._search_steps(panel.current_goal()):  # the steps the page's background task runs
        pass  # (drive() would hand them to Playwright's event loop, running in this thread)
    en = strip_html(panel.proposals_html.value)
    panel.lang_state.lang = lang_after
    return en, strip_html(panel.proposals_html.value)


def words(text: str) -> str:
    return re.sub(r"\s+", " ", text.replace("\xa0", " ")).strip()


def whole_panel(page, size: dict, path: Path) -> None:
    """The whole panel in one picture: the page's boxes scroll inside the viewport (an element
    below it would be blank in a screenshot), so the viewport is made as tall as the panel, at
    the same width, for the picture."""
    height = page.evaluate(f"document.querySelector('{PANEL}').scrollHeight")
    page.set_viewport_size({"width": size["width"], "height": height + 400})
    settle(page, PANEL, 500)
    page.locator(PANEL).screenshot(path=str(path))
    page.set_viewport_size(size)


def shoot(page, lang: str) -> dict[str, list[str]]:
    """The panel at 1024×768 and 390×844 (whole panel, scrolled) into build/screenshots/; the
    controls under 44 px at 390 px."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    small = {}
    for name, size in VIEWPORTS.items():
        page.set_viewport_size(size)
        settle(page, PANEL, 500)
        chart(page)
        chart(page, "heatmap")
        page.evaluate("s => document.querySelector(s).scrollIntoView({block: 'start'})", PANEL)
        page.screenshot(path=str(SHOTS / f"explorer-{lang}-{name}-top.png"))  # what the screen shows
        whole_panel(page, size, SHOTS / f"explorer-{lang}-{name}.png")
        if name == "390":
            small[lang] = page.evaluate(SMALL_JS, PANEL)
            width = page.evaluate(f"document.querySelector('{PANEL}').scrollWidth - "
                                  f"document.querySelector('{PANEL}').clientWidth")
            assert width <= 1, f"the panel scrolls sideways by {width} px at 390 px ({lang})"
    page.set_viewport_size(VIEWPORTS["1024"])
    return small


# ---------------------------------------------------------------------- the dashboard
@pytest.fixture(scope="module")
def explorer_page(browser, voila_server):
    """One dashboard page for the module's tests, with the explorer open."""
    context = browser.new_context(viewport=VIEWPORTS["1024"], locale="en-US")
    context.set_default_timeout(30_000)
    page = context.new_page()
    page.console_errors = []  # type: ignore[attr-defined]
    page.on("pageerror", lambda exc: page.console_errors.append(str(exc)))  # type: ignore[attr-defined]
    try:
        open_dashboard(page, voila_server)
        click_tab(page, "Lab")
        t0 = time.perf_counter()
        open_explorer(page)
        print(f"explorer opened in {time.perf_counter() - t0:.1f} s")
        yield page
    finally:
        context.close()


def test_the_explorer_shows_the_shipped_map_and_another_measure(explorer_page):
    page = explorer_page
    panel = page.locator(PANEL)
    source = panel.locator(".dg-explorer-source").inner_text()
    assert "computed beforehand" in source and "2000 games each, seed 1" in source, source
    bar = chart(page)
    assert bar["type"] == "bar" and bar["y"] == expected_bars("start_advantage", "en")
    assert [abs(x) for x in bar["x"]] == sorted(abs(x) for x in bar["x"])  # largest at the top
    grid = chart(page, "heatmap")
    assert grid["type"] == "heatmap" and len(grid["y"]) > 20 and len(grid["x"]) == 11, grid

    measure = measure_name("clear_rate_1", "en")
    panel.locator(".dg-explorer-measure select").select_option(label=measure)
    want = expected_bars("clear_rate_1", "en")
    assert want != bar["y"]
    wait_bars(page, want)
    title = chart(page)["title"].replace("<br>", " ")
    assert title == et("chart_title", "en", measure=measure)
    assert "Traceback" not in page.content() and not page.console_errors, page.console_errors


def test_a_goal_search_proposes_a_change_checked_on_fresh_seeds(explorer_page):
    page = explorer_page
    panel = page.locator(PANEL)
    panel.locator(".dg-explorer-goal select").select_option(label=et("goal_own", "en"))
    panel.locator(".dg-explorer-own-measure select").wait_for()
    panel.locator(".dg-explorer-own-measure select").select_option(label=measure_name(GOAL["measure"], "en"))
    panel.locator(".dg-explorer-direction button",
                  has_text=i18n.t(f"challenge.goal_{GOAL['direction']}", "en")).click()
    target = panel.locator(".dg-explorer-target input")
    target.fill(GOAL["target"])
    target.press("Enter")
    panel.locator(".dg-explorer-allowed select").select_option(
        label=[et("allowed_cards", "en") for k in GOAL["allowed"] if k == "room"])
    settle(page, PANEL)
    t0 = time.perf_counter()
    panel.locator("button.dg-explorer-find").click()
    panel.locator(".dg-explorer-proposals li").first.wait_for(timeout=90_000)
    print(f"goal search and its check on fresh seeds: {time.perf_counter() - t0:.1f} s")
    en, zh = searched_words("zh")
    shown = panel.locator(".dg-explorer-proposals").inner_text()
    assert words(shown) == words(en), (shown, en)
    assert "Lv1 card 4/3" in shown and "fresh games" in shown and "Goal met" in shown, shown
    page.explorer_zh_proposal = zh  # type: ignore[attr-defined]  # for the next test
    assert "Traceback" not in page.content() and not page.console_errors, page.console_errors


def test_the_explorer_in_both_languages_axe_screenshots_and_tap_targets(explorer_page):
    page = explorer_page
    page.locator(f"{PANEL} .dg-explorer-measure select").select_option(label=measure_name("clear_rate_1", "en"))
    wait_bars(page, expected_bars("clear_rate_1", "en"))
    found = {"en": audit(page, "explorer en")}
    assert page.evaluate(NULL_TITLES_JS, PANEL) == 0
    toolbar = page.evaluate(TOOLBAR_JS, PANEL)  # plotly's English on an English page, no upload
    assert "Download plot as a PNG" in toolbar and "Share chart..." not in toolbar, toolbar
    small = shoot(page, "en")
    page.locator(".dg-dash-header .dg-lang-toggle button", has_text="繁體中文").click()
    page.locator(PANEL, has_text=et("goal_title", "zh")).wait_for()
    wait_bars(page, expected_bars("clear_rate_1", "zh"))
    settle(page, PANEL, 500)
    text = page.evaluate(WORDS_JS, PANEL)
    assert not english_words(text), english_words(text)
    assert page.evaluate(NULL_TITLES_JS, PANEL) == 0 and page.evaluate(TOOLBAR_JS, PANEL) == []
    shown = page.locator(f"{PANEL} .dg-explorer-proposals").inner_text()
    want = getattr(page, "explorer_zh_proposal", None)
    if want is not None:  # the goal search ran (the test before)
        assert words(shown) == words(want), (shown, want)
    source = page.locator(f"{PANEL} .dg-explorer-source").inner_text()
    assert "隨機" in source, source  # the bots named in Chinese
    found["zh"] = audit(page, "explorer zh")
    small.update(shoot(page, "zh"))
    page.locator(".dg-dash-header .dg-lang-toggle button", has_text="English").click()
    assert found == {"en": {}, "zh": {}}, found
    assert small == {"en": [], "zh": []}, small
    assert not page.console_errors, page.console_errors


# ---------------------------------------------------------------------- the static site
OWN_MAP_GAMES, OWN_MAP_WAIT = 50, 45  # the smallest map the panel accepts; seconds given to it


def own_map_in_the_browser(page):
    """The reference deck's own map, computed in the page (Pyodide) with the fewest games the
    panel accepts: done within OWN_MAP_WAIT s (its bars = this Python's map of the same games and
    seed; returned), or stopped then, the shipped map kept (None) and the progress printed."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    from dungeon_guilds.workshop.explorer import sensitivity_map

    games = page.locator(f"{PANEL} input[type=number]").first
    games.fill(str(OWN_MAP_GAMES))
    games.press("Enter")
    settle(page, PANEL)
    t0 = time.perf_counter()
    page.locator(f"{PANEL} button.dg-explorer-run").click()
    done = et("done", "en", versions=0, games=0, seconds=0).split(":")[0]  # "Map computed"
    try:
        page.wait_for_function("([s, t]) => document.querySelector(s + ' .dg-message').innerText.startsWith(t)",
                               arg=[PANEL, done], timeout=OWN_MAP_WAIT * 1000)
        print(f"static site: own map ({OWN_MAP_GAMES} games a version) in {time.perf_counter() - t0:.1f} s")
        page.locator(f"{PANEL} .dg-explorer-source", has_text="This map: deck").wait_for(timeout=30_000)
        here = sensitivity_map(None, games=OWN_MAP_GAMES, seed=1)
        wait_bars(page, expected_bars("clear_rate_1", "en", here), timeout=60_000)
        return here
    except PlaywrightTimeout:
        progress = page.evaluate("s => { const bar = document.querySelector(s + ' .progress-bar');"
                                 " return [bar.style.width, bar.parentElement.closest('.widget-hbox').innerText]; }",
                                 PANEL)
    page.locator(f"{PANEL} button", has_text=et("stop", "en")).click()
    page.locator(f"{PANEL} .dg-message", has_text=et("stopped", "en")).wait_for(timeout=120_000)
    print(f"static site: own map ({OWN_MAP_GAMES} games a version) not done in {OWN_MAP_WAIT} s: "
          f"{progress!r}; stopped in {time.perf_counter() - t0 - OWN_MAP_WAIT:.1f} s more")
    assert "computed beforehand" in page.locator(f"{PANEL} .dg-explorer-source").inner_text()
    return None


def test_the_explorer_in_the_static_site(browser, site):  # noqa: F811
    context = browser.new_context(viewport=VIEWPORTS["1024"], locale="en-US")
    context.set_default_timeout(60_000)
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        t0 = time.perf_counter()
        page.goto(site, timeout=120_000)
        page.wait_for_selector(".dg-dashboard .dg-stepper .dg-board", timeout=FIRST_RENDER_TIMEOUT)
        t1 = time.perf_counter()
        page.get_by_role("tab", name="Lab").click()
        open_explorer(page, timeout=240_000)
        bar = chart(page, timeout=120_000)
        t2 = time.perf_counter()
        print(f"static site: first render {t1 - t0:.1f} s, explorer with its chart {t2 - t1:.1f} s")
        assert bar["type"] == "bar" and bar["y"] == expected_bars("start_advantage", "en")
        assert len(chart(page, "heatmap", timeout=120_000)["y"]) > 20
        page.locator(f"{PANEL} .dg-explorer-measure select").select_option(label=measure_name("clear_rate_1", "en"))
        wait_bars(page, expected_bars("clear_rate_1", "en"), timeout=120_000)
        whole_panel(page, VIEWPORTS["1024"], SHOTS / "explorer-site-en-1024.png")
        shown_map = own_map_in_the_browser(page)
        whole_panel(page, VIEWPORTS["1024"], SHOTS / "explorer-site-own-en-1024.png")
        page.locator(".dg-dash-header .dg-lang-toggle button", has_text="繁體中文").click()
        wait_bars(page, expected_bars("clear_rate_1", "zh", shown_map), timeout=120_000)
        settle(page, PANEL, 500)
        text = page.evaluate(WORDS_JS, PANEL)
        assert not english_words(text), english_words(text)
        print(f"static site: 繁體中文 in {time.perf_counter() - t2:.1f} s")
        whole_panel(page, VIEWPORTS["1024"], SHOTS / "explorer-site-zh-1024.png")
        assert "Traceback" not in page.content()
    finally:
        context.close()
    assert not errors, errors
