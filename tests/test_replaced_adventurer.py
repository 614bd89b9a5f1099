"""Issue 24, item 7: an adventurer replaced back to its owner's hand and never placed again that
round. The R4.4 rule card now says what happens (the engine's answer, checked here over many
seeded games): it stays **active** for the next round — only the adventurers in the dungeon at
the end of the round come back exhausted (R6.2) — and it does **not** count in the Boardgame
Lord's total (only the adventurers in the dungeon as resolution starts do, R7.3)."""

from __future__ import annotations

import random

from dungeon_guilds import Game, Rules, i18n
from dungeon_guilds.lords import LORDS_BY_ID

NAMES = ["Ann", "Bo", "Cy", "Di", "Eve"]


def dungeon_at_resolution(log, rnd: int) -> dict[tuple[int, str], tuple[int, int]]:
    """(room, slot) -> (owner, strength) after round ``rnd``'s dispatch, from the log."""
    slots = {}
    for ev in log:
        if ev.get("round") == rnd and ev["kind"] in ("placed", "bumped", "swapped"):
            slots[(ev["room"], ev["slot"])] = (ev["player"], ev["strength"])
    return slots


def left_out(log, rnd: int) -> list[tuple[int, int]]:
    """(owner, strength) of each adventurer replaced in round ``rnd`` and not in the dungeon
    when the round resolved."""
    there = set(dungeon_at_resolution(log, rnd).values())
    out = []
    for ev in log:
        if ev.get("round") == rnd and ev["kind"] == "bumped" and ev["victim"] >= 0:
            if (ev["victim"], ev["victim_strength"]) not in there:
                out.append((ev["victim"], ev["victim_strength"]))
        if ev.get("round") == rnd and ev["kind"] == "swapped" and (ev["player"], ev["returned"]) not in there:
            out.append((ev["player"], ev["returned"]))
    return out


def test_a_replaced_adventurer_never_placed_again_is_active_next_round():
    seen = 0
    for seed in range(60):
        game = Game(NAMES[:3 + seed % 3], seed=seed, rules=Rules(lords="none"))
        rng = random.Random(seed)
        while not game.is_over:
            rnd = game.state.round
            game.push(rng.choice(game.legal_actions()))
            if game.state.round != rnd and not game.is_over:
                for owner, strength in left_out(game.log, rnd + 1):
                    seen += 1
                    assert game.state.active[owner] >> strength & 1, (seed, rnd, owner, strength)
                    assert not game.state.exhausted[owner] >> strength & 1
    assert seen >= 5, "no replaced adventurer was left out of the dungeon in 60 games"


def test_a_replaced_adventurer_does_not_count_for_the_boardgame_lord():
    lord = LORDS_BY_ID["boardgame_lord"]
    seen = 0
    for seed in range(400):
        game = Game(NAMES[:3 + seed % 3], seed=seed, rules=Rules(lords="all"))
        if lord not in game.state.lords:
            continue
        rnd = game.state.lords.index(lord) + 1
        rng = random.Random(seed)
        while not game.is_over and game.state.round < rnd:
            game.push(rng.choice(game.legal_actions()))
        if not left_out(game.log, rnd):
            continue
        totals = [0] * game.state.n
        for owner, strength in dungeon_at_resolution(game.log, rnd).values():
            if owner >= 0:
                totals[owner] += strength
        bonus = [ev for ev in game.log if ev.get("round") == rnd and ev["kind"] == "bonus"]
        assert bonus and all(ev["total"] == min(totals) for ev in bonus)
        assert {ev["player"] for ev in bonus} == {p for p, x in enumerate(totals) if x == min(totals)}
        seen += 1
    assert seen >= 3


def test_the_rule_card_says_it_in_both_languages():
    assert "stays active for the next round" in i18n.t("rulecard.R4_4.body", "en")
    assert "Boardgame Lord" in i18n.t("rulecard.R4_4.body", "en")
    assert "下一回合仍是啟動" in i18n.t("rulecard.R4_4.body", "zh")


def test_a_pass_uses_up_its_turn_of_the_snake():
    """R4.1, R4.2 (rule card R4.2): a player with two adventurers in the dungeon passes and the
    pass counts as a turn: the seats acting (passes included) follow the plain snake exactly."""
    from dungeon_guilds.turn_order import snake_order

    passes = 0
    for seed in range(30):
        game = Game(NAMES[:3 + seed % 3], seed=seed, rules=Rules(lords="none"))
        rng = random.Random(seed)
        starts = {}
        while not game.is_over:
            starts.setdefault(game.state.round + 1, game.state.start)
            game.push(rng.choice(game.legal_actions()))
        for rnd, start in starts.items():
            turns = [ev for ev in game.log if ev.get("round") == rnd
                     and ev["kind"] in ("placed", "bumped", "swapped", "passed")]
            passes += sum(1 for ev in turns if ev["kind"] == "passed" and ev.get("code") == "two_placed")
            assert [ev["player"] for ev in turns] == snake_order(game.state.n, start, len(turns)), (seed, rnd)
    assert passes > 50
    assert "uses up that turn of the snake" in i18n.t("rulecard.R4_2.body", "en")
