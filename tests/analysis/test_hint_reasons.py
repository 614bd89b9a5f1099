"""The hints' reasons say one true thing in game words (issue 49, item 5).

Over the hints of many positions (three seats' turns in a few games, the hint's own budget and
models), each of the three moves' reason is checked against the figures it came from: "Best
here" only for the judge's best; a lock is the engine's (R4.3) with the candidate bumped more
often than the best; a bump or a failed room in most games (R4.4, R5.1) with its percentage;
gold this round with its dollars; "fewer games" only when the best won more. No reason has
"±", a statistical word or more than one figure, in English and 繁體中文; a hint takes at most
2 s (:data:`~dungeon_guilds.widgets.review.HINT_BUDGET`).
"""

from __future__ import annotations

import re
import time

import pytest

from dungeon_guilds.analysis.bots import make_bot
from dungeon_guilds.analysis.judge import Budget, judge
from dungeon_guilds.analysis.judge_headline import headline
from dungeon_guilds.analysis.review_lesson import Candidate, hint_reason
from dungeon_guilds.game import Game
from dungeon_guilds.widgets.review import HINT_BUDGET, hint_playout, hints_html

# the headlines' test's words (tests/analysis/test_headlines.py), not imported: it judges 200 decisions on import
STATISTICAL = re.compile(r"±|noise|standard|error|estimate|continuation|world|margin|significan|interval|"
                         r"誤差|雜訊|估計|標準|區間|信賴|後續")
FIGURE = re.compile(r"\d+\s*%|\$\d+")

MODELS = ("person", "greedy", "intermediate")
SMALL = Budget(worlds=8, min_worlds=8, batch=8, check=0)  # the claims hold at any budget: a test's


def _positions():
    """Every 3rd decision of two 3-player games (set-up and dispatch), with the judge's answer."""
    out = []
    for seed in (71, 72):
        g = Game(players=3, seed=seed)
        bots = [make_bot(name, seed=seed + q) for q, name in enumerate(("beginner", "greedy", "intermediate"))]
        k = 0
        while not g.state.is_over:
            s = g.state.copy(keep_log=True)
            if k % 3 == 0 and len(s.legal_actions()) > 1:
                out.append((s, judge(s, s.current, SMALL, playout=hint_playout(MODELS))))
            g.push(bots[s.current].choose(g.state, s.current))
            k += 1
    return out


POSITIONS = _positions()


def test_every_hint_reason_holds_for_the_figures_it_came_from():
    kinds = set()
    for state, j in POSITIONS:
        best = j.best
        for v in j.moves[:3]:
            h = headline(Candidate(v, best, state, len(j.moves)))
            kinds.add(h.kind)
            if h.kind == "best":
                assert v.action == best.action
            elif h.kind == "fine":
                assert v.mark == "good"
            elif h.kind == "locked":
                assert state.after(best.action).locked[best.action.room - 1] and v.bumped > best.bumped
            elif h.kind == "bumped":
                assert v.bumped > 0.5 and v.bumped > best.bumped and h.figures["pct"] == round(100 * v.bumped)
            elif h.kind == "failed":
                assert v.failed > 0.5 and h.figures["pct"] == round(100 * v.failed)
            elif h.kind == "earned":
                assert best.earned - v.earned >= 1 and h.figures["dollars"] == int(best.earned - v.earned)
            elif h.kind == "later":
                assert v.earned >= best.earned and best.win > v.win
            else:
                assert h.kind == "wins" and best.win > v.win
    assert len(POSITIONS) >= 12 and "best" in kinds and len(kinds) >= 3, kinds


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_hint_reasons_are_plain_with_one_figure_at_most(lang):
    for state, j in POSITIONS:
        for v in j.moves[:3]:
            text = hint_reason(v, j.best, state, len(j.moves), lang)
            assert not STATISTICAL.search(text) and "{" not in text, text
            assert len(FIGURE.findall(text)) <= 1, text
            assert len(text.split()) <= 25 if lang == "en" else len(text) <= 45, text


def test_a_hint_names_three_moves_with_a_reason_within_two_seconds():
    """A position and models no hint has seen (nothing cached): the hint's own budget, timed."""
    g = Game(players=4, seed=73)
    bot = make_bot("greedy", seed=1)
    for _ in range(7):  # the set-up (R2.4) and three placements of round 1
        g.push(bot.choose(g.state, g.state.current))
    state = g.state
    started = time.perf_counter()
    html = hints_html(state, state.current, "en", models=("person", "greedy", "beginner", "greedy"))
    took = time.perf_counter() - started
    assert html.count('class="dg-hint"') == 3 and html.count("dg-hint-why") == 3
    assert "±" not in html and "Best here" in html
    assert re.search(r"\$\d", html) is None  # money is text: each amount in its own element
    assert took < 2.0, took  # measured: see docs/review.md, "Timings"
