"""The incremental expected-gold computation (issue 18) against the reference: the algorithm as
it stood before it was made incremental, rebuilt from scratch for every decision
(``reference_values.py``). Many random states, every rule option; equal to 1e-9 (both are
exact sums of the same terms, in float)."""

from __future__ import annotations

import random

import pytest

from dungeon_guilds import Game, Rules
from dungeon_guilds.analysis.probability import RoundModel, action_values

from reference_values import reference_action_values

OPTIONS = [
    Rules(), Rules(lords="all"), Rules(lords="none"), Rules(npc=True), Rules(lords="all", npc=True),
    Rules(edition="fr", lords="all"), Rules(teams="2v2", lords="all"),
]
CONDITIONAL = ["naughty_kid", "boardgame_lord", "bigfun_king", "caveman"]


@pytest.mark.parametrize("k,rules", list(enumerate(OPTIONS)))
def test_action_values_equal_the_reference_on_random_states(k, rules):
    rng = random.Random(100 + k)
    compared = 0
    for game_no in range(6):
        n = 4 if rules.teams else rng.choice([3, 4, 5])
        lords = None
        if rules.lords == "all" and game_no % 2:
            lords = rng.sample(CONDITIONAL, min(n, 4)) + ["beholder"] * max(0, n - 4)
        game = Game(n, seed=f"fast/{k}/{game_no}", rules=rules, lords=lords)
        while not game.is_over:
            st = game.state
            fast = action_values(st)
            ref = reference_action_values(st)
            assert fast.keys() == ref.keys()
            for action, value in ref.items():
                assert fast[action] == pytest.approx(value, abs=1e-9), (str(action), game_no)
            compared += len(ref)
            game.push(rng.choice(game.legal_actions()))
    assert compared > 200


def test_round_models_are_reused_within_a_round_and_rebuilt_after_it():
    game = Game(4, seed=5, rules=Rules())
    game.exhaust_randomly()
    first = RoundModel.of(game.state)
    game.push(game.legal_actions()[0])
    assert RoundModel.of(game.state) is first  # same round, same public facts
    while game.state.round == 0 and not game.is_over:
        game.push(game.legal_actions()[0])
    assert RoundModel.of(game.state) is not first  # new rooms, new cards seen
