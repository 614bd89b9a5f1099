"""Tests that kill the mutants mutation testing found alive in the rule modules (issue 54,
item 3; `make mutation`, docs/architecture.md "Mutation testing"). Each cites its rule."""

from __future__ import annotations

import re
from dataclasses import replace
from itertools import islice
from pathlib import Path

import pytest

from dungeon_guilds import Game, Rules
from dungeon_guilds.lords import ALL_LORDS, get_lord, lord_from_dict
from dungeon_guilds.payout import NPC, split
from dungeon_guilds.scoring import result
from dungeon_guilds.turn_order import seat_at, snake, snake_order


def test_R5_2_a_lone_adventurer_takes_the_whole_treasure():
    """A cleared room with one adventurer (possible after R4.7 ends dispatch early): its owner
    takes it all (R5.2, one owner); a lone NPC's gold stays in the bank (R10.2)."""
    assert split(5, [(0, 3)]) == ({0: 5}, 0)
    assert split(4, [(2, 1)]) == ({2: 4}, 0)
    assert split(3, [(NPC, 2)]) == ({}, 3)
    assert split(7, []) == ({}, 7)


def test_R5_2_R10_2_npc_half_and_the_tied_remainder_both_go_to_the_bank():
    """An NPC beside a player of equal strength, odd treasure: the NPC's half returns to the
    bank (R10.2) and so does the remainder of the tie (R5.2) — both, added together."""
    assert split(5, [(NPC, 2), (0, 2)]) == ({0: 2}, 3)
    assert split(5, [(1, 3), (NPC, 3)]) == ({1: 2}, 3)
    assert split(7, [(NPC, 3), (0, 2)]) == ({0: 3}, 4)  # the NPC is stronger: it wins the rest
    assert split(7, [(0, 4), (NPC, 2)]) == ({0: 4}, 3)


def test_R4_1_the_snake_starts_at_seat_0_unless_told_and_one_player_plays_alone():
    """R4.1 from its text, 1-2-3-4-4-3-2-1, with the start seat defaulting to seat 0 in every
    reader of turn_order; a one-player snake is that player twice; no player is an error."""
    four = [0, 1, 2, 3, 3, 2, 1, 0]
    assert snake_order(4) == four
    assert [seat_at(k, 4) for k in range(8)] == four
    assert list(islice(snake(4), 10)) == four + [0, 1]
    assert snake_order(4, 2) == [2, 3, 0, 1, 1, 0, 3, 2]
    assert snake_order(1) == [0, 0]
    with pytest.raises(ValueError, match="^the snake needs at least one player$"):
        snake_order(0)


@pytest.mark.parametrize("teams", [None, "2v2"])
def test_R8_1_nobody_has_won_before_the_last_round_ends(teams):
    """The winners are decided at the end of the game (R6.4, R8.1): mid-game, with or without
    teams (R10.1), the result names none, though gold and tie-break are already counted."""
    game = Game(4, seed=3, rules=Rules(teams=teams))
    while game.state.round < 2:
        game.push(game.legal_actions()[0])
    res = result(game.state)
    assert not res.finished and res.winners == ()
    assert res.gold == tuple(game.state.gold)
    assert teams is None or res.winning_teams == ()


def rules_md_lords() -> dict[str, tuple[str, bool]]:
    """docs/rules.md §7's table: {'English name 中文名': (effect, promo)}."""
    text = (Path(__file__).resolve().parents[1] / "docs" / "rules.md").read_text("utf-8")
    section = text.split("## 7.", 1)[1].split("\n## ", 1)[0]
    rows = {}
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 2 and cells[0] not in ("lord", "---"):
            name, promo = cells[0].removesuffix(" (promo)"), cells[0].endswith("(promo)")
            rows[name] = (cells[1], promo)
    return rows


@pytest.mark.parametrize("lord", ALL_LORDS, ids=lambda lord: lord.id)
def test_S7_each_lord_card_says_what_the_rules_table_says(lord):
    """§7: a lord's English and Chinese names, its English effect text and whether it is a
    promo card (R7.4) are those of docs/rules.md's table; its Chinese texts are Chinese."""
    effect, promo = rules_md_lords()[f"{lord.name_en} {lord.name_zh}"]
    assert lord.text_en.endswith(".") and lord.text_en[0].isupper()
    assert lord.text_en[0].lower() + lord.text_en[1:-1] == effect
    assert lord.promo == promo
    assert lord.name("en") == lord.name_en and lord.name("zh") == lord.name_zh
    assert lord.text("en") == lord.text_en and lord.text("zh") == lord.text_zh
    for zh in (lord.name_zh, lord.text_zh):
        assert not re.search(r"[A-Za-z]", zh), zh
    assert get_lord(lord.id) is lord
    assert lord_from_dict(lord.to_dict()) == replace(lord, rule="")
