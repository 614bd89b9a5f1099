"""Nobody peeks (issue 48, item 1): every bot and search of the package, asked the same question
in two true games its seat cannot tell apart, answers the same.

:func:`~dungeon_guilds.analysis.knowledge.twin` builds the second game: the current rooms'
fronts, the undealt deck, the lords not yet revealed (R2.2, R3.1) and the other seats' secret
set-up pairs (R2.4, another pair that fits the public gold) re-drawn, the seat's view equal.
A bot whose choice (or, for the tree search, whose root visit counts) changes between the twins
read something its seat cannot know. The harness runs over every bot in ``BOTS`` (so a bot added
later is tested too), the judge (a review's decision and a hint), the win-chance curve's worlds
and the knowledge module's own draw.
"""

from __future__ import annotations

import random

import pytest

from dungeon_guilds.analysis.bots import BOTS, make_bot
from dungeon_guilds.analysis.judge import Budget, judge
from dungeon_guilds.analysis.knowledge import determinize, twin
from dungeon_guilds.analysis.opponents import playout_for
from dungeon_guilds.game import Game
from dungeon_guilds.rules import Rules

SMALL = {"mcts": dict(iterations=60), "strong": dict(iterations=60), "judge": dict(worlds=4)}
BUDGET = Budget(worlds=4, min_worlds=4, batch=4, check=4)


def _positions():
    """(state, seat to move) pairs: set-up after some choices, round-1 dispatch (secret pairs),
    a later round; 3, 4 and 6 players; base lords, all lords, NPCs."""
    out = []
    for players, rules, seed in ((4, Rules(), 481), (3, Rules(lords="all"), 482), (6, Rules(), 483),
                                 (3, Rules(npc=True), 484)):
        g = Game(players=players, seed=seed, rules=rules)
        bots = [make_bot("beginner", seed=seed + q) for q in range(players)]  # varied set-up pairs
        wanted = {players - 1, players + 2, players + 3 * players}  # set-up, round 1, later
        while not g.state.is_over and g.ply <= max(wanted):
            if g.ply in wanted:
                out.append(g.state.copy())
            g.push(bots[g.state.current].choose(g.state, g.state.current))
    return out


POSITIONS = _positions()


def _twin_of(state):
    seat = state.current
    t = twin(state, seat, random.Random(f"twin/{state.actions_taken}"))
    assert t.view(seat) == state.view(seat), "the twin must look the same to the seat"
    assert (t.rooms != state.rooms or t.lords != state.lords or t.exhausted != state.exhausted
            or t.deck[t.deck_pos:] != state.deck[state.deck_pos:]), "the twin must differ in what is hidden"
    return t


def test_the_twins_differ_in_every_kind_of_secret():
    kinds = set()
    for st in POSITIONS:
        t = _twin_of(st)
        kinds |= {k for k, differ in (("fronts", t.rooms != st.rooms), ("lords", t.lords != st.lords),
                                      ("pairs", t.exhausted != st.exhausted)) if differ}
    assert kinds == {"fronts", "lords", "pairs"}


def test_the_knowledge_module_draws_the_same_worlds_in_both_twins():
    for st in POSITIONS:
        seat, t = st.current, _twin_of(st)
        for k in range(4):
            a, b = determinize(st, seat, random.Random(k)), determinize(t, seat, random.Random(k))
            assert (a.rooms, a.deck[a.deck_pos:], a.lords, a.active, a.exhausted) == \
                   (b.rooms, b.deck[b.deck_pos:], b.lords, b.active, b.exhausted)


@pytest.mark.parametrize("name", sorted(BOTS))
def test_no_bot_chooses_differently_between_twins(name):
    for st in POSITIONS if name != "judge" else POSITIONS[1::3]:
        seat, t = st.current, _twin_of(st)
        one, two = make_bot(name, seed=7, **SMALL.get(name, {})), make_bot(name, seed=7, **SMALL.get(name, {}))
        assert one.choose(st, seat) == two.choose(t, seat), (name, st.round, st.phase)
        if hasattr(one, "last_visits"):  # the tree search: its whole root, not only its choice
            assert one.last_visits == two.last_visits, (name, st.round, st.phase)


def test_the_judge_values_twins_alike_in_a_review_and_a_hint():
    models = ["person", "greedy", "intermediate", "strong", "beginner", "cooperator"]
    for st in POSITIONS[1::3]:  # one position a game (the judge plays every move out)
        seat, t = st.current, _twin_of(st)
        made = st.legal_actions()[-1]
        names = models[:st.n]
        a = judge(st, seat, BUDGET, playout=playout_for(names), check=made)
        b = judge(t, seat, BUDGET, playout=playout_for(names), check=made)
        assert [(v.action, v.win, v.margin, v.loss) for v in a.moves] == \
               [(v.action, v.win, v.margin, v.loss) for v in b.moves]
        hint_a, hint_b = judge(st, seat, BUDGET), judge(t, seat, BUDGET)
        assert [v.action for v in hint_a.moves] == [v.action for v in hint_b.moves]


def test_the_old_determinization_that_kept_the_true_lords_fails_the_harness(monkeypatch):
    """The harness can fail: with the lords not re-drawn (the knowledge module before issue 48),
    the tree search's visit counts differ between twins."""
    import dungeon_guilds.analysis.knowledge as knowledge
    monkeypatch.setattr(knowledge, "_future_lords", lambda state, view, rng: state.lords)
    differ = 0
    for st in POSITIONS:
        seat, t = st.current, _twin_of(st)
        one, two = make_bot("mcts", seed=7, iterations=60), make_bot("mcts", seed=7, iterations=60)
        one.choose(st, seat), two.choose(t, seat)
        differ += one.last_visits != two.last_visits
    assert differ >= len(POSITIONS) // 2
