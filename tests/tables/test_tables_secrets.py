"""A seat's page receives only what that seat may see (issue 26, item 2; R2.4 and the hidden
fronts): during whole games, every seat's message is the same whatever the secrets it may not
know are (the other seats' setup choices before they are revealed, the unrevealed room fronts,
the undealt deck). The websocket and the page (DOM) are checked in test_tables_server.py and
tests/browser/test_tables_browser.py."""

from __future__ import annotations

import random

import pytest

from dungeon_guilds.app.tables.render import seat_message

from tables_helpers import lobby_in, other_choices, other_fronts, random_move, seated_table, send


def same_for_every_seat(table, variant, seats, lang):
    for seat in seats:
        assert seat_message(table, seat, lang) == seat_message(variant, seat, lang), (
            f"seat {seat + 1} would learn a secret ({lang})")


@pytest.mark.parametrize("seed,n,rules", [(1, 4, None), (2, 3, {"npc": True}), (3, 5, {"lords": "all"})])
def test_no_seat_message_depends_on_a_secret_it_may_not_know(tmp_path, seed, n, rules):
    lobby = lobby_in(tmp_path)
    table, conns = seated_table(lobby, n, rules=rules)
    rng = random.Random(seed)
    checked_fronts = checked_choices = 0
    while not table.is_over:
        lang = rng.choice(("en", "zh"))
        if table.in_setup and table.pending:
            for seat in range(n):
                same_for_every_seat(table, other_choices(table, seat, rng), [seat], lang)
            checked_choices += 1
        variant = other_fronts(table, rng)
        if variant is not None and rng.random() < 0.5:
            same_for_every_seat(table, variant, range(n), lang)
            checked_fronts += 1
        seat, move = random_move(table, rng)
        out = send(lobby, conns[seat], {"op": "act", "action": move, "version": table.version})
        assert out.reply is None
    assert checked_choices == n - 1 and checked_fronts >= 5


def test_the_variants_do_change_what_they_hide(tmp_path):
    """The test above could not fail if its variants changed nothing: they change the state."""
    lobby = lobby_in(tmp_path)
    table, conns = seated_table(lobby, 4)
    rng = random.Random(9)
    send(lobby, conns[0], {"op": "act", "action": "exhaust 1 2", "version": table.version})
    assert other_choices(table, 1, rng).pending[0] != table.pending[0]
    while table.in_setup:
        seat, move = random_move(table, rng)
        send(lobby, conns[seat], {"op": "act", "action": move, "version": table.version})
    variant = other_fronts(table, rng)
    assert variant.game.state.deck != table.game.state.deck
    # seat 1's own choice is in its own message, never in the others'
    table2, conns2 = seated_table(lobby_in(tmp_path / "b"), 3)
    send(lobby_in(tmp_path / "b"), conns2[0], {"op": "act", "action": "exhaust 2 5", "version": 0})
    table2.pending[0] = (2, 5)
    own = seat_message(table2, 0, "en")["status"]
    assert "2 and 5" in own and "2 and 5" not in seat_message(table2, 1, "en")["status"]


def test_a_strong_bots_move_depends_on_no_secret_it_may_not_know(tmp_path):
    """Issue 30: a bot seat at a class table decides from its seat's view (as Play's bots do:
    ``analysis/bots/base.py``): the strong level's tree search and the greedy stand-in choose the
    same move when every unrevealed front and the undealt deck are changed. A bot that peeks at
    the fronts is caught by the same comparison (so the comparison can fail)."""
    from dungeon_guilds.app.tables.protocol import Conn
    from dungeon_guilds.app.tables.table import think

    lobby, opener = lobby_in(tmp_path, think_off_loop=True), Conn()
    code = send(lobby, opener, {"op": "open", "seats": 4, "name": "Ann"}).reply["code"]
    table = lobby.tables[code]
    table.seed = 30  # the deal is fixed (a table's seed is otherwise drawn at random when it opens)
    assert send(lobby, opener, {"op": "bots", "levels": {"2": "strong", "3": "strong", "4": "greedy"}}).reply is None
    rng = random.Random(30)
    checked = caught = 0
    while not table.is_over:
        job = table.bot_job(0.0, None)  # the table waits for its strong bot (the server's way)
        if job is None:
            seat, move = random_move(table, rng)
            send(lobby, opener, {"op": "act", "action": move, "version": table.version})
            continue
        variant = other_fronts(table, rng)
        if variant is not None and checked < 6:
            other = variant.bot_job(0.0, None)
            assert other.state.rooms != job.state.rooms or other.state.deck != job.state.deck
            for level in ("strong", "greedy"):
                assert think(level, job.seed, other.state, job.seat) == think(level, job.seed, job.state, job.seat)
            checked += 1
            caught += peeking_move(job.state) != peeking_move(other.state)
        table.take_bot_move(job, job.think(), 0.0, None)
    assert checked == 6 and caught >= 1


def peeking_move(state):
    """A cheating bot: the legal move into the room whose true (hidden) front is weakest."""
    def weakness(a):
        return state.rooms[a.room - 1].defence if a.kind == "place" else 99
    return min(state.legal_actions(), key=weakness)
