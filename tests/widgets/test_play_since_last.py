"""Issue 24, item 8: in Play, what the bots did since your last move is beside the board (it
was only in the log below the fold): their moves in the engine's words, a bump of yours in bold,
other seats' exhaust choices kept secret (R2.4)."""

from __future__ import annotations

import re

import pytest

pytest.importorskip("ipywidgets")

from dungeon_guilds import i18n  # noqa: E402
from dungeon_guilds.widgets.play_table import SINCE_KINDS, PlayTable  # noqa: E402


def plain(html: str) -> str:
    return re.sub(r"<[^>]+>", " ", html)


def others_since(table, start):
    return [ev for ev in table.game.log[start:] if ev["kind"] in SINCE_KINDS and ev.get("player") != table.human]


def test_the_bots_moves_since_your_last_are_beside_the_board():
    table = PlayTable(players=4, seat=0, opponents=["greedy", "cooperator", "bully"], seed=1)
    side = table.children[3].children[1]  # side_by_side(board, side)
    assert table.since_html in side.children
    assert plain(table.since_html.value) == ""  # Ann moves first: nothing happened yet
    for _ in range(12):
        if table.game.is_over:
            break
        start = len(table.game.log)
        table.play(table.game.state.legal_actions()[-1])
        shown = plain(table.since_html.value)
        events = others_since(table, start)
        for ev in events[-6:]:
            assert i18n.event_text(ev, table.game.names, "en", secret_exhaust=True) in shown.replace("&#x27;", "'")
        if any(ev.get("victim") == 0 for ev in events):
            assert "<b>" in table.since_html.value.split("</b>", 1)[1]
        if events:
            assert "Since your last move:" in shown
    table.lang = "zh"
    assert table.since_html.value == "" or "你上一次行動之後" in table.since_html.value


def test_other_seats_exhaust_choices_stay_secret():
    """R2.4: every seat chooses its exhausted pair at once and in secret. The engine pays each
    choice's heal costs at once (public gold), so in Play the bots choose with the person: until
    the person has chosen, no bot's gold has moved and no choice is in the log (seat 4 of 4, the
    last in the engine's order: the three bots used to choose first, their gold showing the sum
    of their pair's heal costs); then all four go to the engine together, the pairs still secret."""
    table = PlayTable(players=4, seat=3, opponents=["greedy", "greedy", "greedy"], seed=2)
    game = table.game
    start = list(game.state.gold)
    assert len(set(start)) == 1 and not [ev for ev in game.log if ev["kind"] == "exhausted"]  # the starting gold
    assert table.shown_state().current == 3 and table.play_button.disabled is False  # the person chooses now
    table.try_move(table.shown_state().legal_actions()[0])
    assert game.phase != "setup" and sorted(ev["player"] for ev in game.log if ev["kind"] == "exhausted") == [0, 1, 2, 3]
    shown = plain(table.since_html.value)
    assert "exhausts two adventurers" in shown
    for ev in game.log:
        if ev["kind"] == "exhausted" and ev["player"] != 3:
            assert i18n.event_text(ev, game.names, "en") not in shown  # which two is secret
    table.undo()  # the person's choice taken back: nobody has chosen again
    assert game.phase == "setup" and game.state.gold == start