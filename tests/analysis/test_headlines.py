"""The review's headlines say one true thing in game words (issue 49, items 1 and 4).

Every headline's claim is checked against the play-outs it came from: the fresh worlds of the
decision are played again (the same seeds, the same models) and the bump, failed-room, gold and
win figures recomputed; a lock is asked of the engine (R4.3). Over ≥ 200 judged decisions, in
English and 繁體中文: the best's shown chance is never below the move made's, the loss shown is
exactly the difference of the two chances shown, the mark follows the loss (``judge_mark``), and
no headline carries "±", a statistical word, more than one figure, more than 25 English words or
more than 45 Chinese characters.
"""

from __future__ import annotations

import random
import re

import pytest

from dungeon_guilds.analysis.bots import make_bot
from dungeon_guilds.analysis.judge import Budget, _mean_se, _play, _seed_of, judge_mark
from dungeon_guilds.analysis.judge_headline import headline, headline_text
from dungeon_guilds.analysis.judge_review import judge_review
from dungeon_guilds.analysis.opponents import playout_for
from dungeon_guilds.game import Game

BUDGET = Budget(worlds=8, min_worlds=8, batch=8, check=8)
STATISTICAL = re.compile(r"±|noise|standard|error|estimate|continuation|world|margin|significan|interval|"
                         r"誤差|雜訊|估計|標準|區間|信賴|後續")
FIGURE = re.compile(r"\d+\s*%|\$\d+")


def _reviews():
    """Seat 1 (a person, played on as intermediate) and seat 2 (beginner) of a few small games."""
    out = []
    for seed in range(490, 516):
        players = 3 + seed % 2
        line = ["beginner", "greedy", "intermediate", "greedy"][:players]
        g = Game(players=players, seed=seed)
        bots = [make_bot(name, seed=seed * 10 + q) for q, name in enumerate(line)]
        while not g.state.is_over:
            g.push(bots[g.state.current].choose(g.state, g.state.current))
        models = ["person"] + line[1:]
        for seat in (0, 1):
            review = list(judge_review(g, seat, BUDGET, curve_worlds=1, models=models))[-1].review
            out.append((review, models))
    return out


REVIEWS = _reviews()
DECISIONS = [(d, models) for review, models in REVIEWS for d in review.decisions]


def _replayed(d, models):
    """The decision's fresh worlds played again: {move: outcomes} for the best and the move made
    (as many as the judge played: it plays more while a mark is not settled)."""
    moves = [d.best.action] if d.best.action == d.action else [d.best.action, d.action]
    fresh = {a: [] for a in moves}
    key = _seed_of(d.state, d.seat, 0)
    _play(d.state, d.seat, moves, range(10**6, 10**6 + d.best.n), key, playout_for(models), fresh,
          d.state.view(d.seat))
    return fresh


def _share(outcomes, f):
    return sum(f(o) for o in outcomes) / len(outcomes)


def test_there_are_enough_decisions_of_every_kind():
    assert len(DECISIONS) >= 200
    kinds = {headline(d).kind for d, _ in DECISIONS}
    assert {"best", "only"} <= kinds and len(kinds - {"best", "only", "fine"}) >= 2, kinds


def test_every_headline_claim_holds_in_the_play_outs_it_came_from():
    for d, models in DECISIONS:
        h = headline(d)
        if h.kind in ("best", "only"):
            assert d.made.action == d.best.action or d.n_moves == 1
            continue
        if h.kind == "fine":
            assert d.mark == "good"
            continue
        fresh = _replayed(d, models)
        made, best = fresh[d.action], fresh[d.best.action]
        bumped = (_share(made, lambda o: o.bumped), _share(best, lambda o: o.bumped))
        won = (_share(made, lambda o: o.win), _share(best, lambda o: o.win))
        earned = (_share(made, lambda o: o.earned), _share(best, lambda o: o.earned))
        assert won[1] > won[0], "a marked move won less often than the best"
        if h.kind == "locked":
            after = d.state.after(d.best.action)
            assert after.locked[d.best.action.room - 1] and bumped[0] > bumped[1]
        elif h.kind == "bumped":
            assert bumped[0] > 0.5 and bumped[0] > bumped[1] and h.figures["pct"] == round(100 * bumped[0])
        elif h.kind == "failed":
            room = d.action.room
            failed = _share(made, lambda o: o.rooms > 0 and o.cleared < room)
            assert failed > 0.5 and h.figures["pct"] == round(100 * failed)
        elif h.kind == "earned":
            assert earned[1] - earned[0] >= 1 and h.figures["dollars"] == int(earned[1] - earned[0])
        elif h.kind == "later":
            assert earned[0] >= earned[1]
        else:
            assert h.kind == "wins" and h.figures["games"] == max(1, round(100 * (won[1] - won[0])))


def test_the_figures_shown_cannot_contradict_each_other():
    for d, _ in DECISIONS:
        made, best = d.made, d.best
        assert best.win >= made.win
        assert made.loss == pytest.approx(best.win - made.win, abs=1e-12) or made.action == best.action
        assert d.mark == ("good" if d.n_moves == 1 else judge_mark(made.loss, made.loss_se))


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_headlines_are_short_plain_and_hold_one_figure_at_most(lang):
    for d, _ in DECISIONS:
        text = headline_text(d, lang)
        assert not STATISTICAL.search(text), text
        assert len(FIGURE.findall(text)) <= 1, text
        if lang == "en":
            assert len(text.split()) <= 25, text
        else:
            assert len(text) <= 45 and "{" not in text, text
