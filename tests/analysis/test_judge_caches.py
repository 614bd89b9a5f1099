"""Every cache of the judge is keyed by everything that changes its answer (issue 48, item 6).

The play-outs keep greedy's best moves by the mover's view; a hint keeps its play-outs for the
whole kernel. Before issue 48 the key left out the rules: a hint after a game with the base
lords could answer for a game with no lord effects. Here the same :class:`Playout` answers a
position of one game and then a position that looks the same under the old key in a game with
other rules (R7.4), another deck's heal costs (R1.1), other lords (R7) or another seat count;
its answer must be the one a fresh cache gives — and for each kind of change some answer must
differ, or the test could not fail.
"""

from __future__ import annotations

import dataclasses

import pytest

from dungeon_guilds.analysis.bots import make_bot
from dungeon_guilds.analysis.judge_worlds import Playout, game_key
from dungeon_guilds.cards import reference_deck
from dungeon_guilds.game import Game
from dungeon_guilds.lords import BASE_LORDS
from dungeon_guilds.rules import Rules


def _old_key(s):
    p = s.current
    return (s.phase, s.round, p, s.gold[p], s.active[p], s.ban, s.lord.id, tuple(s.slots()),
            tuple(s.locked), tuple(s.seen), tuple(c.level for c in s.rooms), len(s.deck) - s.deck_pos)


def _positions(game: Game, plies: int = 12):
    bot = make_bot("greedy", seed=1)
    out = []
    while not game.state.is_over and len(out) < plies:
        st = game.state
        if len(st.legal_actions()) > 1:
            out.append(st.copy())
        game.push(bot.choose(st, st.current))
    return out


HEAL = dataclasses.replace(reference_deck(), heal_costs=(0, 0, 0, 3, 3, 3))
# workshop lords keep a lord's id with other numbers (the lord editor's copies): the old key
# held only the id
EDITED_LORDS = [dataclasses.replace(lord, effects=()) for lord in BASE_LORDS]

CHANGES = {
    "rules": lambda seed, n: Game(players=n, seed=seed, rules=Rules(lords="none")),
    "deck": lambda seed, n: Game(players=n, seed=seed, deck=HEAL),
    "lords": lambda seed, n: Game(players=n, seed=seed, lords=[
        EDITED_LORDS[BASE_LORDS.index(lord)] for lord in Game(players=n, seed=seed).lords]),
    "seats": lambda seed, n: Game(players=n + 1, seed=seed),
}


@pytest.mark.parametrize("change", sorted(CHANGES))
def test_a_shared_cache_answers_as_a_fresh_one_when_the_game_changes(change):
    differ = 0
    for seed in range(6):
        shared = Playout()
        first = _positions(Game(players=4, seed=seed))
        for st in first:
            shared.best_moves(st, st.legal_actions(), game_key(st))
        for st in _positions(CHANGES[change](seed, 4)):
            legal = st.legal_actions()
            fresh = Playout().best_moves(st, legal, game_key(st))
            assert shared.best_moves(st, legal, game_key(st)) == fresh, (change, seed)
            twins = [a for a in first if _old_key(a) == _old_key(st)]
            differ += any(Playout().best_moves(a, a.legal_actions(), game_key(a)) != fresh for a in twins)
    if change == "seats":  # another seat count never looked the same: the key holds it anyway
        assert game_key(Game(players=4).state) != game_key(Game(players=5).state)
    else:
        assert differ >= 1, f"no position where a {change} change alters the answer under the old key"
