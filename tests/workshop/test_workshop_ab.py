"""A/B experiments (issue 8): common random numbers, paired tests, the verdict, the report files
and the simulator's custom decks and lord pools."""

from __future__ import annotations

import math

import pytest

pd = pytest.importorskip("pandas")
pytest.importorskip("plotly")

from dungeon_guilds import Rules, reference_deck  # noqa: E402
from dungeon_guilds.analysis.simulate import simulate  # noqa: E402
from dungeon_guilds.effects import RoomModifier  # noqa: E402
from dungeon_guilds.lords import ALL_LORDS, LordError  # noqa: E402
from dungeon_guilds.workshop import stats  # noqa: E402
from dungeon_guilds.workshop.ab import COMPARISON_COLUMNS, Arm, run_ab  # noqa: E402
from dungeon_guilds.workshop.deck_edit import deck_from_table, table_from_deck  # noqa: E402
from dungeon_guilds.workshop.lord_edit import make_lord, replace_in_pool  # noqa: E402
from dungeon_guilds.workshop.report import (export_report, figures, load_comparison_csv,  # noqa: E402
                                            load_report, report_html)

BOTS = ["greedy", "random", "bully", "cooperator"]


def cheap_fives():
    t = table_from_deck()
    t.name = "cheap_fives"
    t.heal[4]["heal_cost"] = 0  # a strength-5 adventurer heals for free
    return deck_from_table(t)


@pytest.fixture(scope="module")
def identical():
    return run_ab(Arm("A"), Arm("B"), 60, BOTS, 4, seed=7)


@pytest.fixture(scope="module")
def changed():
    dear = make_lord("dear_dragon", "Dear Dragon", [RoomModifier(rooms=(-1,), treasure=30),
                                                    RoomModifier(rooms=(1, 2), treasure=4)])
    b = Arm("B", Rules(lords="base"), deck=cheap_fives(), lords=replace_in_pool("base", "red_dragon", dear))
    return run_ab(Arm("A"), b, 80, BOTS, 4, seed=7)


def test_identical_rule_sets_report_exactly_no_difference(identical):
    comp = identical.comparison
    assert list(comp.columns) == list(COMPARISON_COLUMNS)
    assert (comp["diff"] == 0).all() and (comp["diff_low"] == 0).all() and (comp["diff_high"] == 0).all()
    assert (comp["p"] == 1).all() and not comp["significant"].any()
    assert (comp["a"] == comp["b"]).all()
    assert identical.a.same_rules_as(identical.b)
    text = identical.verdict()
    assert text.startswith("The two rule sets played exactly the same games")
    m = int(comp["p"].notna().sum())
    assert f"None of the {m} numbers changed clearly" in text and "Holm's correction" in text
    assert "the same 60 deals" in text and "narrower" not in text  # identical games: no figure
    assert f"{m} 個數字都沒有明顯變化" in identical.verdict("zh")
    # every seat, every bot, the balance, the means and the levels are there
    assert set(comp["metric"]) == {"win_rate_seat", "win_rate_bot", "balance", "gold_seat", "gold_mean", "gold_gap",
                                   "paid_out", "paid_in", "game_length", "lead_changes", "rooms_cleared",
                                   "clear_rate_level"}
    assert comp["enough"].all()
    assert list(comp[comp.metric == "win_rate_seat"]["group"]) == ["seat 0", "seat 1", "seat 2", "seat 3"]


def test_the_arms_share_their_random_numbers(identical, changed):
    ga, gb = changed.sim_a.games, changed.sim_b.games
    assert list(ga.bot) == list(gb.bot)  # same line-ups, same seats
    same_lords = ga.lords.str.replace("red_dragon", "dear_dragon") == gb.lords
    assert same_lords.all()  # the replaced lord is drawn exactly where the printed one was
    assert identical.sim_a.games.equals(identical.sim_b.games)


def test_a_real_change_is_found_and_described(changed):
    comp = changed.comparison.set_index(["metric", "group"])
    paid = comp.loc[("paid_out", "")]
    assert paid["diff"] > 0 and paid["significant"] and paid["diff_low"] > 0
    assert paid["method"] == "t per arm; B − A: paired t-test"
    text = changed.verdict()
    assert "numbers changed clearly:" in text
    assert (f"With B, the gold the bank pays out goes up: +${paid['diff']:.2f} (+${paid['diff_low']:.2f} to "
            f"+${paid['diff_high']:.2f}) a game. This is unlikely to be chance.") in text  # the table's numbers
    # the deals were shared, and that made the intervals narrower (measured on this run)
    assert changed.deals_shared() and "This made the ranges about" in text
    assert "銀行支出的金幣上升：每局 +$" in changed.verdict("zh")
    lines = changed.b.describe()
    assert any("cheap_fives" in x and "heal cost of strength 5: $3 → $0" in x for x in lines)
    assert any("dear_dragon" in x and "treasure +$30" in x for x in lines)


def test_paired_statistics_agree_with_scipy():
    scipy_stats = pytest.importorskip("scipy.stats")
    import numpy as np

    rng = np.random.default_rng(3)
    d = list(rng.normal(0.2, 1.0, 40))
    mine = stats.paired_t(d)
    ref = scipy_stats.ttest_1samp(d, 0.0)
    assert math.isclose(mine["p"], ref.pvalue, rel_tol=1e-9)
    half = scipy_stats.t.ppf(0.975, 39) * np.std(d, ddof=1) / math.sqrt(40)
    assert math.isclose(mine["ci_high"] - mine["mean"], half, rel_tol=1e-9)
    for up, down in ((6, 1), (30, 12), (700, 650), (1500, 1440)):
        diffs = [1] * up + [-1] * down + [0] * 5
        assert math.isclose(stats.sign_test(diffs)["p"], scipy_stats.binomtest(up, up + down).pvalue, rel_tol=1e-7)
    assert stats.sign_test([0, 0, 0])["p"] == 1.0
    assert stats.paired_t([0.0] * 5)["p"] == 1.0 and stats.paired_t([2.0] * 5)["p"] == 0.0
    assert stats.holm([0.01, 0.04, 0.03, float("nan")])[:3] == [0.03, 0.06, 0.06]


def test_report_files_load_back(changed, tmp_path):
    paths = export_report(changed, tmp_path, "session1")
    assert set(paths) == {"html", "csv", "games_csv"}
    back = load_comparison_csv(paths["csv"])
    pd.testing.assert_frame_equal(back, changed.comparison, check_dtype=False)
    games = pd.read_csv(paths["games_csv"])
    assert len(games) == 2 * 80 * 4 and set(games.arm) == {"A", "B"}
    report = load_report(paths["html"])
    assert report["settings"]["games"] == 80 and report["settings"]["bots"] == BOTS
    a, b = report["arms"]
    assert a == changed.a and b == changed.b  # decks and custom lords rebuilt by the engine's parsers
    assert b.deck.heal_costs == cheap_fives().heal_costs
    pd.testing.assert_frame_equal(report["comparison"], changed.comparison, check_dtype=False)
    page = paths["html"].read_text(encoding="utf-8")
    assert page.count("plotly-graph-div") >= 4
    assert "<script src" not in page and "<link" not in page  # nothing loaded from another file or host
    assert page.count("Plotly.newPlot") == 4 and page.count("plotly.js v") == 1  # plotly.js inline once
    assert "dg-ab-table" in page and "Verdict" in page
    zh = report_html(changed, "zh")
    assert "結論" in zh and "配對" in zh
    assert set(figures(changed)) == {"win_rates", "differences", "gold", "clear_rates"}


def test_simulate_takes_a_deck_and_a_lord_pool_and_stays_compatible():
    base = simulate(12, BOTS, 4, seed=3)
    same = simulate(12, BOTS, 4, seed=3, lords=[lord.id for lord in ALL_LORDS[:6]], deck=reference_deck())
    assert base.games.equals(same.games) and base.rounds.equals(same.rounds)
    assert same.meta["deck"] == "reference" and same.meta["lords"][:2] == ["succubus", "vampire_lord"]
    # a deck edited but still named "reference" is used, not replaced by the real reference deck
    odd = reference_deck().with_values(heal_costs=(0, 5, 5, 5, 5, 5))
    import dataclasses
    odd = dataclasses.replace(odd, name="reference")
    dear = simulate(12, BOTS, 4, seed=3, deck=odd)
    assert not dear.games.equals(base.games)
    with pytest.raises(ValueError, match="lord pool has 3 lords"):
        simulate(2, ["random"], 4, lords=["succubus", "beholder", "guardian"])
    with pytest.raises(LordError, match="promo lord"):
        simulate(2, ["random"], 4, lords=[lord.id for lord in ALL_LORDS])
    with pytest.raises(ValueError, match="two lords with the id"):
        simulate(2, ["random"], 3, lords=["succubus", "succubus", "beholder"])
    small = reference_deck().with_values(rooms=reference_deck().rooms[:10])
    with pytest.raises(ValueError, match="has 10 room cards; a 4-player game deals 16"):
        simulate(2, ["random"], 4, deck=small)


def test_unpaired_runs_and_bad_arms_are_refused():
    from dungeon_guilds.workshop.ab import compare

    a = simulate(6, BOTS, 4, seed=1)
    b = simulate(6, ["random"], 4, seed=1)
    with pytest.raises(ValueError, match="not paired"):
        compare(a, b)
    with pytest.raises(ValueError, match="at least 2 games"):
        run_ab(Arm("A"), Arm("B"), 1, BOTS, 4)
    with pytest.raises(ValueError, match="NPC"):
        run_ab(Arm("A"), Arm("B", Rules(npc=True)), 4, ["random"], 6)
    calls = []
    run_ab(Arm("A"), Arm("B", Rules(edition="fr")), 4, ["random"], 3, progress=lambda d, t: calls.append((d, t)))
    assert calls[-1] == (8, 8) and calls[0][1] == 8


def test_both_arms_on_a_pool_of_workers_give_the_same_tables_and_steady_progress():
    """With workers both arms are played at once (issue 18: no worker waits for the other arm);
    the tables are those of a run in this process and the progress only goes up, to 2 × n."""
    b = Arm("B", Rules(lords="none"))
    here = run_ab(Arm("A"), b, 24, BOTS, 4, seed=3)
    calls = []
    pooled = run_ab(Arm("A"), b, 24, BOTS, 4, seed=3, jobs=2,
                    progress=lambda d, t: calls.append((d, t)))
    for name in ("sim_a", "sim_b"):
        pd.testing.assert_frame_equal(getattr(here, name).games, getattr(pooled, name).games)
        pd.testing.assert_frame_equal(getattr(here, name).rounds, getattr(pooled, name).rounds)
    done = [d for d, _ in calls]
    assert done == sorted(done) and calls[-1] == (48, 48)
    assert pooled.settings["seconds"] > 0


def test_too_few_games_are_said_not_shown_and_not_tested():
    few = run_ab(Arm("A"), Arm("B", Rules(lords="none")), 10, ["random"], 3, seed=1)
    comp = few.comparison
    assert not comp["enough"].any() and comp["diff_low"].isna().all() and comp["p"].isna().all()
    text = few.verdict()
    assert f"Too few games to measure {len(comp)} of the {len(comp)} numbers: play at least 20 games" in text
    assert "numbers at once" not in text  # nothing was tested
    assert f"局數太少，{len(comp)} 個數字中有 {len(comp)} 個無法衡量" in few.verdict("zh")
    assert "too few games for this measure" in report_html(few, "en")


def test_the_figures_fit_a_phone(changed):
    """Issue 40: on a phone the A/B box plot's legend sat beside the last seats (seat 3's
    whiskers cut), the two halves of the differences overlapped, titles were cut, and the wide
    table cut the explanations beside it."""
    from dungeon_guilds.workshop.report import LEGEND, comparison_html

    figs = figures(changed, "zh")
    for name in ("win_rates", "gold", "clear_rates"):
        assert figs[name].layout.legend.orientation == "h" and figs[name].layout.legend.y < 0, name
    diff = figs["differences"]
    assert diff.layout.xaxis.domain == diff.layout.xaxis2.domain  # stacked, not side by side
    assert diff.layout.yaxis.domain[0] > diff.layout.yaxis2.domain[1]
    assert [a.xanchor for a in diff.layout.annotations] == ["left", "left"]
    assert "<br>" in figs["win_rates"].layout.title.text and "公平比例 25 %" in figs["win_rates"].layout.title.text
    assert LEGEND["orientation"] == "h"
    assert comparison_html(changed, "en").startswith("<div class='dg-ab-table-wrap' style='max-width:100%;overflow-x:auto'>")
