"""Tests that kill the mutants mutation testing found alive in the rule modules (issue 54,
item 3; `make mutation`, docs/architecture.md "Mutation testing"). Each cites its rule."""

from __future__ import annotations

import random
import re
from dataclasses import replace
from itertools import islice
from pathlib import Path

import pytest

from dungeon_guilds import Game, Rules
from dungeon_guilds.actions import ActionSyntaxError, parse_move
from dungeon_guilds.lords import ALL_LORDS, LordError, get_lord, lord_from_dict
from dungeon_guilds.cards import strengths_of
from dungeon_guilds.payout import EMPTY, NPC, split
from dungeon_guilds.scoring import result
from dungeon_guilds.turn_order import seat_at, snake, snake_order
from dungeon_guilds.view import KnownHands, RoomView


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


def test_R7_a_lord_names_its_rulings_and_speaks_english_by_default():
    """A lord's rules include its own ruling (R7.2 the Caveman, R5.3 the Vampire Lord's floor)
    and R7.4 for a promo card; name() and text() default to English."""
    caveman, vampire = get_lord("caveman"), get_lord("vampire_lord")
    assert caveman.rules() == ["R7.2", "R7.4"]
    assert vampire.rules() == ["R5.3"]
    assert (caveman.name(), caveman.text()) == ("The Caveman", caveman.text_en)
    with pytest.raises(LordError, match=r"^unknown lord id 'zz' \(known: succubus, vampire_lord, "
                                        r"beholder, lich_king, .*, boardgame_lord\)$"):
        get_lord("zz")


def test_R7_4_a_custom_lord_from_a_table_gets_its_id_as_names_and_no_promo():
    """A workshop lord (a table, as Lord.to_dict writes it) needs only an id and effects: its
    names default to the id, its texts to empty, and it is not a promo card (R7.4)."""
    lord = lord_from_dict({"id": "mine", "effects": [{"kind": "room", "rooms": [1], "treasure": 2}]})
    assert (lord.name_en, lord.name_zh, lord.text_en, lord.text_zh) == ("mine", "mine", "", "")
    assert lord.promo is False and lord.rule == ""
    assert len(lord.effects) == 1
    assert lord_from_dict({"id": 7, "effects": []}).name_en == "7"


@pytest.mark.parametrize("data, message", [
    ([], "lord: expected a table with id, names and effects"),
    ({"effects": []}, "lord.id: missing"),
    ({"id": "x"}, "lord.effects: missing"),
    ({"id": "x", "effects": {}}, "lord.effects: expected a list of effects"),
    ({"id": "x", "effects": [{"kind": "nope"}]},
     "lord.effects[0].kind: unknown effect kind 'nope' (known: room, heal, ban, flip, bonus)"),
])
def test_a_custom_lord_that_cannot_be_used_is_refused_naming_the_field(data, message):
    """A malformed lord table is refused with a sentence naming the field (the lord builder
    shows it); nothing is half made."""
    with pytest.raises(ValueError) as err:
        lord_from_dict(data)
    assert str(err.value) == message


def test_unreadable_move_text_carries_the_code_a_language_words():
    """Move text outside the notation (R4.3-R4.5, R2.4 moves) is refused with the code
    ``move_unreadable`` unless a more precise one applies, so each language can word it."""
    assert ActionSyntaxError("cannot read it").code == "move_unreadable"
    with pytest.raises(ActionSyntaxError) as err:
        parse_move("jump 3")
    assert err.value.code == "move_unreadable" and err.value.params == {"text": "'jump 3'"}


def unrevealed_levels(state) -> tuple[int, ...]:
    """Levels of the rooms dealt in finished rounds whose fronts nobody saw (R2.3 backs are
    public, R5.1 resolution stopped above them), worked out from the deck and the seen fronts."""
    done = state.deck_pos if state.is_over else state.deck_pos - len(state.rooms)
    left = [card.level for card in state.deck[:done]]
    for card in state.seen:
        left.remove(card.level)
    return tuple(sorted(left))


def check_view(state, seat: int) -> None:
    view = state.view(seat)
    public = state.round > 0 and state.phase != "setup"  # R2.4 secret until round 2, then R6.2
    for p in range(state.n):
        known = p == seat or public
        assert view.active[p] == (state.active[p] if known else -1)
        assert view.exhausted[p] == (state.exhausted[p] if known else -1)
        assert view.knows_hand(p) == known
    assert state.known_hands(seat) == KnownHands(seat, view.active, view.exhausted)
    assert view.hand() == strengths_of(state.active[seat])
    shown_round = min(state.round, state.rounds - 1)  # the last round stays shown once over
    assert (view.player, view.names, view.round, view.rounds) == (seat, state.names, shown_round + 1, state.n)
    assert (view.phase, view.current, view.start) == (state.phase, state.current, state.start)
    assert (view.lord_id, view.lord_effects_on) == (state.lord.id, state.rules.lords != "none")
    assert view.lords_shown == tuple(lord.id for lord in state.lords[:shown_round + 1])  # R3.1
    assert view.gold == tuple(state.gold) and view.heal_costs == tuple(state.heal)
    assert view.printed_heal == tuple(state.base_heal) and view.setup_gain == tuple(state.setup_gain)
    assert view.shown == tuple(state.shown)
    assert view.seen == tuple(state.seen) and view.unseen == tuple(state.unseen_cards())
    assert view.deck_left == len(state.deck) - state.deck_pos
    assert view.hidden_levels == unrevealed_levels(state)
    assert len(view.rooms) == len(state.rooms)
    for i, room in enumerate(view.rooms):
        card = state.rooms[i]
        slots = tuple(None if state.slot(i, x)[0] == EMPTY else state.slot(i, x) for x in (0, 1))
        assert room == RoomView(i + 1, card.level, state.levels[card.level], state.lock_threshold(i),
                                state.lord_defence_change(i), state.locked[i], slots)


@pytest.mark.parametrize("n, rules", [(3, Rules(npc=True)), (4, Rules(lords="all", teams="2v2")),
                                      (6, Rules(lords="all", edition="fr"))])
def test_R2_4_R6_2_what_a_player_sees_at_every_step_of_a_game(n, rules):
    """A player's view (view.py) at every step of whole games, for every seat: their own hand
    always; the others' hands hidden in round 1 (the secret exhaust choice, R2.4) and public
    from round 2 (R6.2: the exhausted are those seen placed); room backs, locks, thresholds and
    slots as the table shows them (R2.3, R4.3, R7.1), the lords revealed so far (R3.1), the
    levels of earlier rooms never revealed (R5.1), and gold, fronts seen, the deck left."""
    state = Game(n, seed=11, rules=rules).state
    chooser = random.Random(5)
    steps = 0
    while True:
        for seat in range(n):
            check_view(state, seat)
        if state.is_over:
            break
        state.apply_action(chooser.choice(state.legal_actions()))
        steps += 1
    assert steps > 2 * n * n  # the setup choices and at least two placements a player a round
