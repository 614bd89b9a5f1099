"""Issue 30, item 1: the game review (analysis/review.py) — decisions, marks, sentences, the
curve, the board at a decision, and a loaded record."""

from __future__ import annotations

import pytest

from dungeon_guilds import Game, Rules
from dungeon_guilds.analysis.bots import make_bot
from dungeon_guilds.analysis.probability import action_values
from dungeon_guilds.analysis.review import (GOOD, INACCURACY, INACCURACY_AT, MISTAKE, MISTAKE_AT,
                                            mark_of, moment, money, move_sentence, review_game,
                                            sentence, top_moves)
from dungeon_guilds.record import dumps, from_record
from dungeon_guilds.state import DISPATCH, SETUP


def played(lineup=("random", "greedy", "greedy", "greedy"), seed=3, rules=None) -> Game:
    game = Game(len(lineup), seed=seed, rules=rules or Rules())
    bots = [make_bot(name, seed=s) for s, name in enumerate(lineup)]
    while not game.is_over:
        seat = game.current
        game.push(bots[seat].choose(game.state, seat))
    return game


def test_marks_follow_the_documented_thresholds():
    assert mark_of(0) == GOOD and mark_of(INACCURACY_AT - 0.01) == GOOD
    assert mark_of(INACCURACY_AT) == INACCURACY and mark_of(MISTAKE_AT - 0.01) == INACCURACY
    assert mark_of(MISTAKE_AT) == MISTAKE and mark_of(7.5) == MISTAKE
    assert money(2.4) == "$2.40" and money(-0.5) == "−$0.50"


def test_every_decision_of_the_seat_is_reviewed_against_the_model():
    game = played()
    review = review_game(game, [0])
    plies = [p for p in range(game.ply) if game.state_at(p).phase in (SETUP, DISPATCH)
             and game.state_at(p).current == 0]
    assert [d.ply for d in review.decisions] == plies and len(plies) >= 8
    for d in review.decisions:
        state = game.state_at(d.ply)
        values = action_values(state, 0)
        assert d.action == game.line[d.ply]
        assert d.made == pytest.approx(values[d.action])
        assert d.best == pytest.approx(max(values.values()))
        assert d.loss == pytest.approx(max(values.values()) - values[d.action], abs=1e-9)
        assert d.top == tuple(top_moves(state, 0, 3)) and len(d.top) == min(3, len(values))
        assert [v for _, v in d.top] == sorted((v for _, v in d.top), reverse=True)
    # a random player makes mistakes the model sees
    assert review.counts(0)[MISTAKE] >= 1 and review.lost(0) > 1


def test_the_greedy_bot_plays_the_models_best_move_every_time():
    game = played(("greedy", "random", "greedy", "random"), seed=8)
    review = review_game(game, [0, 2])
    assert review.decisions and all(d.is_best and d.mark == GOOD for d in review.decisions)
    assert review.counts() == {GOOD: len(review.decisions), INACCURACY: 0, MISTAKE: 0}


def test_sentences_in_both_languages():
    review = review_game(played(), [0])
    for d in review.decisions:
        en, zh = sentence(d, "en"), sentence(d, "zh")
        assert en and zh and en != zh and "review." not in en + zh
        if d.n_moves > 1 and not d.is_best:
            assert money(d.made) in en and money(d.best) in en
            assert money(d.made) in zh and money(d.best) in zh
        if d.action.kind != "exhaust" and d.n_moves > 1:
            assert f"room {d.action.room}" in en.lower() and f"房間 {d.action.room}" in zh
    state = played(seed=4).state_at(6)
    for action, value in top_moves(state, state.current, 3):
        assert money(value) in move_sentence(state, action, value, "en")
        assert money(value) in move_sentence(state, action, value, "zh")


def test_the_curve_ends_at_the_final_gold_and_starts_at_the_setup_gold():
    game = played(seed=5)
    curve = review_game(game).curve
    assert len(curve) == game.ply + 1
    assert curve[-1] == tuple(float(g) for g in game.state.gold)
    assert curve[0] == tuple(float(g) for g in game.state_at(0).gold)


def test_the_board_at_a_decision_comes_from_the_engines_undo_and_leaves_the_game_alone():
    game = played(seed=6)
    gold, ply, line = list(game.state.gold), game.ply, game.line
    for d in review_game(game, [0]).decisions:
        state, log = moment(game, d.ply)
        then = game.state_at(d.ply)
        assert (state.slots(), state.gold, state.round, state.current) == \
               (then.slots(), then.gold, then.round, then.current)
        assert all(ev.get("kind") != "game_over" for ev in log)
    assert (list(game.state.gold), game.ply, game.line) == (gold, ply, line)


def test_a_loaded_record_is_reviewed_like_the_game_it_records():
    game = played(seed=7)
    loaded = from_record(dumps(game.to_record()))
    a, b = review_game(game, [1]), review_game(loaded, [1])
    dispatch = [(d.action, round(d.made, 9), round(d.best, 9)) for d in a.decisions if d.action.kind != "exhaust"]
    assert [(d.action, round(d.made, 9), round(d.best, 9)) for d in b.decisions] == dispatch
    assert b.curve[-1] == a.curve[-1]


def test_a_review_of_the_game_so_far():
    game = played(seed=9)
    game.undo_to(12)
    review = review_game(game, [0])
    assert all(d.ply < 12 for d in review.decisions) and len(review.curve) == 13
