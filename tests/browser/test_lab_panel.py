"""The Lab panel, headless (no browser): the Run button plays the games through ``simulate``,
the progress bar follows ``simulate``'s progress callback, and the tables and chart show
``analysis.metrics`` with their 95 % intervals; refusals and bad input are friendly messages."""

from __future__ import annotations

import math
import re

import pytest

pytest.importorskip("pandas")

from dungeon_guilds.analysis import metrics  # noqa: E402
from dungeon_guilds.analysis.bots import BOTS  # noqa: E402
from dungeon_guilds.analysis.simulate import simulate  # noqa: E402
from dungeon_guilds.rules import Rules  # noqa: E402
from dungeon_guilds.widgets.common import LanguageState  # noqa: E402
from dungeon_guilds.analysis import intervals  # noqa: E402
from dungeon_guilds.widgets.lab import (DEFAULT_GAMES, PROGRESS_STEPS, VARIANTS,  # noqa: E402
                                        LabPanel, lab_bots, text)


def plain(html: str) -> str:
    import html as html_module

    return html_module.unescape(re.sub(r"<[^>]+>", " ", html))


@pytest.fixture(scope="module")
def ran() -> LabPanel:
    lab = LabPanel(players=3, bots=["greedy", "random", "cooperator"], games=60, seed=5)
    values = []
    lab.progress.observe(lambda change: values.append(change["new"]), "value")
    lab.run_button.click()
    lab.observed = values
    return lab


def test_defaults_are_a_small_classroom_run():
    lab = LabPanel()
    assert lab.games_input.value == DEFAULT_GAMES == 200
    assert int(lab.players_dropdown.value) == 4 and lab.bots == ["greedy"] * 4
    assert lab.variant_dropdown.value == "base" and lab.rules() == Rules()
    assert lab.result is None and "Run" in plain(lab.summary_html.value)
    assert "mcts" not in lab_bots() and set(lab_bots()) < set(BOTS)


def test_run_reports_progress_from_simulate_and_fills_the_bar(ran):
    assert ran.last_error is None, ran.message_text
    log = ran.progress_log
    sizes = [b - a for a, b in zip([0] + [d for d, _ in log], [d for d, _ in log])]
    # one report per chunk: the first is one game (to measure the rate), none above n / PROGRESS_STEPS
    assert sizes[0] == 1 and max(sizes) <= math.ceil(60 / PROGRESS_STEPS) and min(sizes) >= 1
    assert [d for d, _ in log] == sorted(d for d, _ in log) and log[-1] == (60, 60)
    assert ran.progress.value == ran.progress.max == 60 and ran.progress.bar_style == "success"
    assert len(set(ran.observed)) >= 10  # the bar moved in steps while the games were played
    assert ran.message_level == "ok" and ran.message_text.startswith("60 games in")
    assert not ran.run_button.disabled


def test_the_numbers_are_simulate_and_metrics_for_the_same_settings(ran):
    expected = simulate(60, ["greedy", "random", "cooperator"], 3, seed=5, rules=Rules())
    games = expected.games
    win = metrics.win_rate_by_seat(games)
    assert ran.seat_table["win_rate"].tolist() == pytest.approx(win["rate"].tolist())
    assert ran.seat_table["win_low"].tolist() == pytest.approx(win["ci_low"].tolist())
    assert ran.seat_table["win_high"].tolist() == pytest.approx(win["ci_high"].tolist())
    gold = metrics.gold_stats(games, by="seat")
    assert ran.seat_table["gold_mean"].tolist() == pytest.approx(gold["mean"].tolist())
    t_low = [intervals.t_interval(list(games[games.seat == s]["gold"]))[1] for s in range(3)]
    assert ran.seat_table["gold_low"].tolist() == pytest.approx(t_low)  # Student t (issue 27)
    assert ran.stats["balance"] == pytest.approx(metrics.balance(games))
    first = metrics.first_player_advantage(games)
    assert ran.stats["first_rate"] == pytest.approx(first["rate"])
    assert ran.stats["balance_low"] <= ran.stats["balance"] <= ran.stats["balance_high"] <= 1.0
    by_bot = metrics.win_rate_by_bot(games).set_index("bot")["rate"]
    assert dict(zip(ran.bot_table["bot"], ran.bot_table["win_rate"])) == pytest.approx(by_bot.to_dict())


def test_the_table_and_chart_show_rates_with_intervals(ran):
    html = ran.table_html.value
    assert html.count('class="dg-lab-row"') == 3 and html.count('class="dg-lab-bot-row"') == 3
    words = plain(html)
    assert "Win rate (likely range)" in words and "Mean gold (likely range)" in words and "rotating" in words
    r = ran.seat_table.iloc[0]
    assert f"{r.win_rate:.1%} ({r.win_low:.1%}–{r.win_high:.1%})" in words
    summary = plain(ran.summary_html.value)
    assert "Balance between the seats: " in summary and "95 % confidence interval" in summary
    assert summary.count("against a fair share of 33.3\u00a0%") == 3 and "Holm's correction" in summary
    fig = ran.figure
    assert [t.type for t in fig.data] == ["bar", "bar"]
    assert list(fig.data[0].y) == pytest.approx(ran.seat_table["win_rate"].tolist())
    assert fig.data[0].error_y.array is not None and fig.data[1].error_y.array is not None
    (out,) = ran.chart_output.outputs
    assert "application/vnd.plotly.v1+json" in out["data"]


def test_every_interval_on_screen_contains_its_estimate(ran):
    for table in (ran.seat_table, ran.bot_table):
        assert (table["win_low"] <= table["win_rate"]).all() and (table["win_rate"] <= table["win_high"]).all()
        assert (table["gold_low"] <= table["gold_mean"]).all() and (table["gold_mean"] <= table["gold_high"]).all()
    s = ran.stats
    assert s["balance_low"] <= s["balance"] <= s["balance_high"] and s["balance_enough"]


def test_too_few_games_say_so_instead_of_an_interval_in_both_languages():
    lab = LabPanel(players=3, bots="random", games=10, seed=2)
    lab.run_button.click()
    assert lab.last_error is None and not lab.seat_table["enough"].any()
    words = plain(lab.table_html.value)
    assert words.count("too few games for this measure") == 6  # win rate and gold of 3 seats
    assert "too few games for this measure to say how sure (play at least 50 games)" in plain(lab.summary_html.value)
    assert "numbers at once" not in plain(lab.summary_html.value)  # nothing was tested
    assert all(math.isnan(x) for x in lab.figure.data[0].error_y.array)  # no error bars drawn
    lab.lang = "zh"
    lab.relabel()
    lab.refresh()
    assert plain(lab.table_html.value).count("局數太少，無法衡量這一項") == 6
    assert "至少要玩 50 局" in plain(lab.summary_html.value)


def test_the_plan_says_how_many_games_and_offers_them():
    lab = LabPanel(players=4)
    # 5 points, 4 seats against the fair share 25 %: 837 games, rounded up to the field's step
    assert lab.plan.games == 840 and intervals.games_needed(0.05, rate=0.25, arms=1, tests=4) == 837
    assert "play about 840 games" in plain(lab.plan.plan_html.value)
    lab.plan.use_button.click()
    assert lab.games_input.value == 840
    lab.plan.delta_dropdown.value = 10
    lab.players_dropdown.value = 3
    assert lab.plan.games == 240 and "10-point difference" in plain(lab.plan.plan_html.value)
    lab.lang = "zh"
    lab.relabel()
    assert "大約要玩 240 局" in plain(lab.plan.plan_html.value) and lab.plan.use_button.description == "使用 240 局"


def test_a_plan_beyond_the_games_field_is_refused_in_words():
    import ipywidgets as W

    from dungeon_guilds.widgets.plan import PlanBox

    games = W.IntText(value=100)
    box = PlanBox("ab", lambda: 4, games, 10, 5000, delta=2)
    assert box.games is None and box.use_button.disabled  # 10,456 games an arm > 5,000
    assert "That needs more than 5,000 games: choose a bigger difference." in plain(box.plan_html.value)
    box.use_button.click()
    assert games.value == 100


def test_identical_bots_without_rotation_name_the_bot_per_seat():
    lab = LabPanel(players=3, bots="random", games=20, rotate=False)
    lab.run_button.click()
    assert lab.last_error is None
    assert "rotating" not in plain(lab.table_html.value)
    assert plain(lab.table_html.value).count("random bot") == 3
    assert 'class="dg-lab-bot-row"' not in lab.table_html.value  # one bot: no per-bot table


def test_a_rules_refusal_or_a_bad_count_is_a_friendly_message_and_nothing_runs():
    lab = LabPanel(players=6, games=20)
    lab.variant_dropdown.value = "npc"
    lab.run_button.click()
    assert lab.result is None and lab.message_level == "warn"
    assert "NPC" in lab.message_text and "Traceback" not in lab.message_text
    assert not lab.run_button.disabled
    lab.variant_dropdown.value = "base"
    lab.games_input.value = 10
    lab.run_button.click()
    assert lab.result is not None and lab.message_level == "ok"


def test_an_unexpected_error_is_caught_and_marks_the_bar(monkeypatch, widget_errors):
    import dungeon_guilds.analysis.simulate as sim

    def broken(*args, **kwargs):
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(sim, "run_chunk", broken)  # the Lab plays its chunks with the simulator's
    lab = LabPanel(players=3, games=20)
    lab.run_button.click()  # must not raise
    assert isinstance(lab.last_error, RuntimeError)
    assert lab.message_level == "error" and "Traceback" not in lab.message.value
    assert lab.progress.bar_style == "danger" and not lab.run_button.disabled
    assert [r.exc_info[0] for r in widget_errors] == [RuntimeError]  # a bug: logged with its traceback


def test_players_and_language_relabel_everything():
    state = LanguageState(lang="en")
    lab = LabPanel(players=3, lang_state=state, show_language=False)
    lab.players_dropdown.value = 5
    assert len(lab.seat_dropdowns) == 5 and lab.bots[3:] == ["greedy", "greedy"]
    state.lang = "zh"
    assert lab.run_button.description == "開始"
    assert lab.variant_dropdown.options[0][0] == text("lab.variant_base", "zh")
    assert lab.seat_dropdowns[0].options[0][0] != "random bot"  # bot names in Chinese too
    lab.games_input.value = 20
    lab.run_button.click()
    assert "局" in lab.message_text and "勝率" in plain(lab.table_html.value)
    state.lang = "en"
    assert lab.message_text.startswith("20 games in") and "Win rate" in plain(lab.table_html.value)


def test_every_label_exists_in_both_languages_with_the_same_fields():
    import string

    def fields(s: str) -> set[str]:
        return {f for _, f, _, _ in string.Formatter().parse(s) if f}

    from dungeon_guilds import i18n

    keys = [k for k in i18n.strings("en") if k.startswith("lab.")]
    assert keys
    for key in keys:  # the [lab] section (tests/viz/test_viz_i18n.py checks zh has every key)
        assert fields(i18n.t(key, "en")) == fields(i18n.t(key, "zh")), key
    for v in VARIANTS:
        assert f"lab.variant_{v}" in keys
    assert text("ui.players", "zh") == "玩家人數"  # the project's tables win when they have a key
