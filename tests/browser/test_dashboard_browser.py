"""The dashboard in a real browser: Voila serves notebooks/dashboard.ipynb, headless Chromium
clicks through it (fixtures in conftest.py).

* Learn: play round 1 by clicking (a legal action chosen in the dropdown + *Step* for the human
  seat, *end of round* for the bots), then check that the gold the page shows equals the
  engine's for the same seed and moves, replayed here with ``dungeon_guilds`` and the same
  seeded bots; switch to 繁體中文; take a screenshot (into pytest's tmp dir).
* Lab: run a small experiment; the progress bar moves in steps while the games are played, and
  the win rates shown equal ``simulate`` + ``metrics`` computed here.
* Play, Explore, Compare open; an illegal move gets the engine's refusal as a friendly message;
  no traceback anywhere.

Elements are found by the apps' stable CSS classes (``dg-...``).
"""

from __future__ import annotations

import math
import random
import re

import pytest

from dungeon_guilds import Game, Rules, i18n
from dungeon_guilds.analysis.bots import make_bot
from dungeon_guilds.game import DEFAULT_NAMES
from dungeon_guilds.widgets.moves import HUMAN
from dungeon_guilds.app.dashboard import LEARN_SETTINGS

pytestmark = pytest.mark.browser

SETTLE_JS = """([selector, quiet, limit]) => new Promise((resolve, reject) => {
  const root = document.querySelector(selector) || document.body;
  const t0 = performance.now();
  let timer = null;
  const obs = new MutationObserver(() => {
    clearTimeout(timer);
    if (performance.now() - t0 > limit) { obs.disconnect(); reject(new Error('never settled')); return; }
    timer = setTimeout(done, quiet);
  });
  function done() { obs.disconnect(); resolve(performance.now() - t0); }
  obs.observe(root, {subtree: true, childList: true, characterData: true, attributes: true});
  timer = setTimeout(done, quiet);
})"""


# ---------------------------------------------------------------------- helpers
def open_dashboard(page, server) -> None:
    page.goto(server.url, timeout=90_000)
    page.wait_for_selector(".dg-dashboard .dg-stepper .dg-board", timeout=90_000)


def settle(page, selector: str = ".dg-dashboard", quiet_ms: int = 250) -> None:
    """Wait until the part of the page under ``selector`` stops changing."""
    page.evaluate(SETTLE_JS, [selector, quiet_ms, 20_000])


def click_tab(page, label: str) -> None:
    page.locator(".dg-tabs .lm-TabBar-tab", has_text=label).first.click()


def ply(page) -> str:
    return page.locator(".dg-stepper .dg-jump .widget-readout").first.inner_text()


def wait_changed(page, selector: str, before: str) -> None:
    page.wait_for_function("([s, b]) => { const e = document.querySelector(s); return e && e.innerText != b; }",
                           arg=[selector, before], timeout=20_000)


def shown_gold(page, root: str) -> dict[int, int]:
    """The gold each player's box on the drawn board shows."""
    rows = page.eval_on_selector_all(
        f"{root} .dg-board svg .dg-player",
        "rows => rows.map(r => [Number(r.dataset.seat), r.querySelector('.dg-gold').textContent])")
    return {seat: int(re.sub(r"[^0-9-]", "", text)) for seat, text in rows}


def open_fold(page, root: str, fold: str) -> None:
    """Unfold a folded section (the set-up, the advanced controls) of an app."""
    page.locator(f"{root} .{fold} .jupyter-widget-Collapse-header, {root} .{fold} .p-Collapse-header, "
                 f"{root} .{fold} .lm-AccordionPanel-title").first.click()
    settle(page, root)


def label(text: str) -> str:
    return text.replace("\xa0", " ").strip()


def play_round_one_by_clicking(page, rng: random.Random) -> list[tuple[int, str]]:
    """Click through round 1 of the Learn tab; return the human's choices (index, label). The
    round ends on the board showing its resolution (issue 24): "Next round ▶" deals round 2."""
    seats = LEARN_SETTINGS["seats"]
    stepper = page.locator(".dg-stepper")
    open_fold(page, ".dg-stepper", "dg-advanced")  # the move list is the advanced way to play
    choices: list[tuple[int, str]] = []
    for _ in range(100):
        board = stepper.locator(".dg-board").first
        if board.get_attribute("data-resolving") == "1":  # round 1 resolving on the board: step on
            stepper.locator("button.dg-next-round").first.click()
            page.wait_for_function("() => !document.querySelector('.dg-stepper .dg-board').dataset.resolving",
                                   timeout=60_000)
            settle(page, ".dg-stepper")
            continue
        if int(board.get_attribute("data-round")) >= 2 or board.get_attribute("data-phase") == "over":
            return choices
        seat = int(stepper.locator(".dg-status .dg-to-move").first.get_attribute("data-seat"))
        before = ply(page)
        if seats[seat] == HUMAN:
            select = stepper.locator(".dg-actions select").first
            options = select.locator("option")
            index = rng.randrange(options.count())
            choices.append((index, label(options.nth(index).inner_text())))
            select.select_option(index=index)
            stepper.locator("button.dg-step").first.click()
        else:
            stepper.locator("button.dg-to-round").first.click()
        wait_changed(page, ".dg-stepper .dg-jump .widget-readout", before)
        settle(page, ".dg-stepper")
    raise AssertionError("round 1 did not end after 100 clicks")


def replay_with_engine(choices: list[tuple[int, str]]) -> Game:
    """The same round, computed here: the human's choices by index into the engine's legal
    actions (their labels must match what the page offered), the bots seeded as the app seeds
    them (``seed * 10 + seat``, one bot per seat)."""
    s = LEARN_SETTINGS
    n, seats, seed = s["players"], s["seats"], s["seed"]
    game = Game(list(DEFAULT_NAMES[:n]), seed=seed, rules=Rules())
    bots = {i: make_bot(c, seed=seed * 10 + i) for i, c in enumerate(seats) if c != HUMAN}
    human = iter(choices)
    while game.state.round == 0 and not game.is_over:
        st = game.state
        seat = st.current
        if seats[seat] == HUMAN:
            index, shown = next(human)
            action = st.legal_actions()[index]
            assert i18n.action_text(action, "en", st) == shown
        else:
            action = bots[seat].choose(st.copy(), seat)
        game.push(action)
    assert next(human, None) is None, "the page asked the human fewer times than the engine"
    return game


# ---------------------------------------------------------------------- tests
def test_a_round_played_by_clicking_shows_the_engines_gold_in_both_languages(page, voila_server, tmp_path):
    open_dashboard(page, voila_server)
    # before the round's first move the timeline is a line saying the chart comes with it (an
    # empty chart teaches nothing, and the page loads no charting library for it)
    page.wait_for_selector(".dg-stepper .dg-timeline .dg-timeline-later")
    assert "appears with the first move" in page.locator(".dg-stepper .dg-timeline").inner_text()
    assert page.locator(".dg-tabs .lm-TabBar-tab").all_inner_texts() == [
        "Learn", "Play", "Rules", "Explore", "Lab", "Compare", "Challenges"]
    assert page.locator(".dg-stepper .dg-board svg .dg-room").count() == LEARN_SETTINGS["players"]
    assert shown_gold(page, ".dg-stepper") == {0: 2, 1: 2, 2: 2}  # the setup gold (R2.4)

    choices = play_round_one_by_clicking(page, random.Random(2024))
    assert len(choices) >= 2  # the exhaust choice and at least one dispatch move
    assert choices[0][1].startswith("exhaust") and not choices[1][1].startswith("exhaust")
    game = replay_with_engine(choices)

    assert int(ply(page)) == game.ply
    gold = shown_gold(page, ".dg-stepper")
    assert gold == dict(enumerate(game.state.gold)), (gold, game.state.gold, game.moves)
    assert sum(gold.values()) > 6  # round 1 paid something out
    assert page.locator(".dg-stepper .dg-board").first.get_attribute("data-round") == "2"

    # 繁體中文: every label follows, the numbers stay
    page.locator(".dg-dash-header .dg-lang-toggle button", has_text="繁體中文").click()
    page.wait_for_function("document.querySelector('button.dg-step').innerText.includes('下一步')")
    settle(page)
    assert page.locator(".dg-tabs .lm-TabBar-tab").all_inner_texts() == [
        "學習", "對戰", "規則", "探索", "實驗室", "比較", "挑戰"]
    assert page.locator(".dg-stepper .dg-board").first.get_attribute("lang") == "zh-Hant"
    assert shown_gold(page, ".dg-stepper") == gold
    assert "Traceback" not in page.content()

    shot = tmp_path / "dashboard-learn-zh.png"
    page.screenshot(path=str(shot), full_page=True)
    assert shot.stat().st_size > 20_000
    assert not page.console_errors, page.console_errors


def test_the_lab_runs_with_a_moving_progress_bar_and_shows_simulate_metrics(page, voila_server):
    from dungeon_guilds.analysis import metrics
    from dungeon_guilds.analysis.simulate import simulate
    from dungeon_guilds.widgets.lab import DEFAULT_BOT, PROGRESS_STEPS

    games = 120
    open_dashboard(page, voila_server)
    click_tab(page, "Lab")
    lab = page.locator(".dg-lab")
    lab.locator("button.dg-lab-run").wait_for()
    games_input = lab.locator(".dg-lab-games input")
    games_input.fill(str(games))
    games_input.press("Enter")
    settle(page, ".dg-lab")
    page.evaluate("""() => {
      window.dgWidths = [];
      const bar = document.querySelector('.dg-lab-progress .progress-bar');
      new MutationObserver(() => window.dgWidths.push(bar.style.width))
        .observe(bar, {attributes: true, attributeFilter: ['style']});
    }""")
    lab.locator("button.dg-lab-run").click()
    page.wait_for_function(f"document.querySelector('.dg-lab .dg-message').innerText.startsWith('{games} games in')",
                           timeout=60_000)
    lab.locator(".dg-lab-chart").scroll_into_view_if_needed()  # a chart is drawn once in view
    lab.locator(".dg-lab-chart .js-plotly-plot .main-svg").first.wait_for()
    settle(page, ".dg-lab")

    widths = [float(w.rstrip("%")) for w in page.evaluate("window.dgWidths") if w]
    assert widths and widths[-1] == 100.0
    steps = {w for w in widths if 0 < w < 100}
    assert len(steps) >= 3, widths  # the bar moved while the games were played
    assert widths == sorted(widths)  # it only goes forward

    expected = simulate(games, [DEFAULT_BOT], 4, seed=0, rules=Rules(),
                        chunk_size=math.ceil(games / PROGRESS_STEPS)).games
    rates = metrics.win_rate_by_seat(expected).set_index("seat")["rate"]
    gold = metrics.gold_stats(expected, by="seat").set_index("seat")["mean"]
    rows = page.eval_on_selector_all(
        ".dg-lab .dg-lab-row",
        "rows => rows.map(r => [Number(r.dataset.seat), Number(r.dataset.win), Number(r.dataset.gold)])")
    assert len(rows) == 4
    for seat, win, mean_gold in rows:
        assert abs(win - rates[seat]) < 1e-5
        assert abs(mean_gold - gold[seat]) < 1e-5
    balance = float(page.locator(".dg-lab .dg-lab-stats").get_attribute("data-balance"))
    assert abs(balance - metrics.balance(expected)) < 1e-5
    assert "Traceback" not in page.content()


def test_every_tab_opens_and_an_illegal_move_gets_a_friendly_refusal(page, voila_server):
    open_dashboard(page, voila_server)
    click_tab(page, "Play")
    table = page.locator(".dg-play-table")
    table.locator(".dg-board").first.wait_for()
    open_fold(page, ".dg-play-table", "dg-advanced")
    before = table.locator(".dg-message").first.inner_text()
    table.locator(".dg-actions select").first.select_option(index=0)
    table.locator("button.dg-play").first.click()
    wait_changed(page, ".dg-play-table .dg-message", before)
    assert table.locator(".dg-message").first.inner_text().startswith("Ann: exhaust")
    settle(page, ".dg-play-table")

    # build a move the engine refuses: bump in an empty room
    table.locator(".dg-move-builder .dg-kind select").select_option(index=1)  # bump
    settle(page, ".dg-play-table")
    table.locator("button.dg-try").click()
    page.wait_for_selector(".dg-play-table .dg-msg-warn")
    assert table.locator(".dg-msg-warn").inner_text().startswith("Not allowed")

    click_tab(page, "Explore")
    page.wait_for_selector(".dg-payout-explorer .dg-payout-result")
    page.wait_for_selector(".dg-turn-order-explorer .dg-order")
    click_tab(page, "Compare")
    page.wait_for_selector(".dg-cmp table", timeout=30_000)
    settle(page)
    assert "Traceback" not in page.content()
    assert not page.console_errors, page.console_errors


def test_the_page_skips_plotlys_extension_and_loads_plotly_js_from_the_server_for_a_chart(page, voila_server):
    """Issue 12: plotly's page extension (all of plotly.js) is not part of the dashboard's page;
    a chart (a LazyFigure) loads plotly.js from this server, once, when it is about to be seen."""
    from urllib.parse import urlsplit

    from dungeon_guilds.widgets.figure_view import PLOTLY_URL

    asked: list[str] = []
    page.on("request", lambda request: asked.append(request.url))
    open_dashboard(page, voila_server)
    settle(page)
    assert not [u for u in asked if "plotly" in u], "the first view loaded plotly"
    click_tab(page, "Explore")
    chart = page.locator(".dg-payout-explorer .js-plotly-plot .main-svg").first
    chart.wait_for(timeout=60_000)
    plotly = [u for u in asked if "plotly" in u]
    assert [urlsplit(u).path for u in plotly] == [f"/{PLOTLY_URL}"]
    assert {urlsplit(u).netloc for u in plotly} == {urlsplit(voila_server.url).netloc}
    click_tab(page, "Learn")
    click_tab(page, "Explore")  # the same page: plotly.js is not asked for again
    chart.wait_for()
    assert len([u for u in asked if "plotly" in u]) == 1
    assert not page.console_errors, page.console_errors


def test_a_chart_whose_library_cannot_load_says_so_and_draws_on_a_click_later(page, voila_server, tmp_path):
    """If plotly.js cannot be fetched (a network blip, the server restarting), the chart's box
    says so in English and 繁體中文 instead of staying empty, and a click tries again."""
    from dungeon_guilds.widgets.figure_view import PLOTLY_URL

    page.route(f"**/{PLOTLY_URL}", lambda route: route.abort())
    open_dashboard(page, voila_server)
    click_tab(page, "Explore")
    failed = page.locator(".dg-payout-explorer .dg-lazy-plot-failed").first
    failed.wait_for(timeout=60_000)
    words = failed.inner_text()
    assert "could not be loaded" in words and "無法從伺服器載入圖表" in words
    page.screenshot(path=str(tmp_path / "chart-failed.png"))
    page.unroute(f"**/{PLOTLY_URL}")
    failed.click()
    page.locator(".dg-payout-explorer .js-plotly-plot .main-svg").first.wait_for(timeout=60_000)
    assert page.locator(".dg-payout-explorer .dg-lazy-plot-failed").count() == 0
    assert not page.console_errors, page.console_errors


def test_a_long_lab_run_can_be_stopped_on_the_server(page, voila_server):
    """The run is an asyncio task on the kernel's loop (widgets/background.py): the Stop click
    reaches the kernel while the games are played, and the games kept are shown (issue 31)."""
    open_dashboard(page, voila_server)
    click_tab(page, "Lab")
    lab = page.locator(".dg-lab")
    lab.locator("button.dg-lab-run").wait_for()
    games_input = lab.locator(".dg-lab-games input")
    games_input.fill("20000")
    games_input.press("Enter")
    settle(page, ".dg-lab")
    lab.locator("button.dg-lab-run").click()
    page.wait_for_function("Number((document.querySelector('.dg-lab .dg-lab-progress-text').innerText"
                           ".match(/^(\\d+) \\/ 20000 /) || [0, 0])[1]) >= 20", timeout=60_000)
    lab.locator("button.dg-lab-stop").click()
    page.wait_for_function("document.querySelector('.dg-lab .dg-message').innerText.startsWith('Stopped after')",
                           timeout=30_000)
    said = lab.locator(".dg-message").first.inner_text()
    assert "of 20000 games" in said and 20 <= int(said.split()[2]) < 20000, said
    assert lab.locator(".dg-lab-row").count() == 4 and "Traceback" not in page.content()
