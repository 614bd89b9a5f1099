"""Pass and play (issue 26, item 6): several people on one device. Between two people the
screen hides the board; each sees only their own seat's view; the setup choices stay secret
until everyone has chosen (R2.4); every move is the engine's to judge."""

from __future__ import annotations

import random

from dungeon_guilds.app.dashboard import Dashboard
from dungeon_guilds.app.pass_and_play import PassAndPlay
from dungeon_guilds.record import from_record


def test_a_whole_game_passed_around_keeps_every_secret():
    app = PassAndPlay(seed=3)
    app.players_dropdown.value = 4
    app.name_texts[1].value = "Bea"
    app.start()
    rng = random.Random(4)
    hand_offs = 0
    while not app.table.is_over:
        if app.shown is None:  # the curtain (a player moving twice in a row keeps the device)
            assert app.board.html == "" and app.log_html.value == ""
            name = app.table.seats[app.next_seat()].name
            assert name in app.curtain_html.value and app.curtain.layout.display is None
            app._on_ready()
            hand_offs += 1
        else:
            assert app.shown == app.next_seat()
        seat, table = app.shown, app.table
        page = app.board.html + app.status_html.value + app.log_html.value
        if table.in_setup:
            assert table.game.state.gold == [2, 2, 2, 2]  # no choice reached the engine yet (R2.4)
            for other, (a, b) in table.pending.items():
                assert f"{a} and {b}" not in page and f"{a}, {b}" not in page, (seat, other)
            a, b = sorted(rng.sample(range(1, 6), 2))
            app.move(f"exhaust {a} {b}")
        else:
            assert f'data-seat="{seat}"' in app.board.html and 'aria-disabled="false"' in app.board.html
            app.move(rng.choice(table.game.legal_moves()))
    assert hand_offs >= 4 and app.board.html and "Bea" in app.table.names()
    assert from_record(app.table.game.to_record()).state.gold == app.table.game.state.gold


def test_an_illegal_move_is_refused_in_words_and_changes_nothing():
    app = PassAndPlay(lang="zh")
    app.start()
    app._on_ready()
    version = app.table.version
    app.move("place 1 1")
    assert app.table.version == version and app.message_level == "warn" and "R2.4" in app.message_text
    app.name_texts[0].value = ""
    app.start()
    assert app.message_text == "請輸入你的名字。"


def test_the_play_tab_offers_pass_and_play():
    dash = Dashboard()
    dash.select_tab("play")
    assert dash.pass_and_play.start_button.description == "Start the game"
    assert dash._pass_box.titles[0].startswith("Pass and play")
    play = dash.apps["play"]
    dash._pass_box.selected_index = 0  # unfolded: only the shared device's game is on screen
    assert play.layout.display == "none"
    dash._pass_box.selected_index = None
    assert play.layout.display is None


def test_pass_and_play_runs_where_pandas_and_numpy_cannot_be_imported():
    """The static site's Python (Pyodide's core) has no pandas or numpy: pass and play still
    works there, and so do the workshop's deck and lord choices (the session is standard library)."""
    import subprocess
    import sys

    code = ("import sys; sys.modules['pandas'] = None; sys.modules['numpy'] = None\n"
            "from dungeon_guilds.app.dashboard import Dashboard\n"
            "d = Dashboard(); d.select_tab('play'); p = d.pass_and_play; p.start(); p._on_ready()\n"
            "choice = d.apps['play'].workshop_choice\n"
            "print(d.session is not None, choice.children[0].options[0][1] == 'reference', 'R2.4' in p.status_html.value)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["True", "True", "True"]
