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
    table = PlayTable(players=4, seat=3, opponents=["greedy", "greedy", "greedy"], seed=2)
    shown = plain(table.since_html.value)
    assert "Before your first move:" in shown and "exhausts two adventurers" in shown
    for ev in table.game.log:
        if ev["kind"] == "exhausted" and ev["player"] != 3:
            assert i18n.event_text(ev, table.game.names, "en") not in shown  # which two is secret
