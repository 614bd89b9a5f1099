"""The table model (issue 39, item 1; ``dungeon_guilds/table_model/``): the secret simultaneous
setup choice (R2.4), a round's resolution shown step by step (issue 24, R4.8 -> R5) and bot
turns, the one implementation under Learn, Play, pass-and-play and class tables."""

from __future__ import annotations

import pytest

from dungeon_guilds import Game, Rules
from dungeon_guilds.actions import EXHAUST, PLACE, Action
from dungeon_guilds.analysis.bots.first import FirstLegalBot
from dungeon_guilds.app.tables.table import Table
from dungeon_guilds.errors import IllegalAction
from dungeon_guilds.events import resolved_rounds
from dungeon_guilds.table_model import (Resolution, Seat, SecretSetup, Session, bot_move, bot_turn,
                                        choosing_state, make_bot)
from dungeon_guilds.state import strengths_of
from dungeon_guilds.table_model.seats import BOT, HUMAN

NAMES = ["Ann", "Bo", "Cy"]
CHOICES = {0: (1, 2), 1: (4, 5), 2: (2, 4)}


def setup_done(seed: int = 3) -> Game:
    game = Game(NAMES, seed=seed)
    secret = SecretSetup()
    for seat, (a, b) in CHOICES.items():
        secret.choose(game, seat, Action(EXHAUST, a, other=b))
    return game


# ---------------------------------------------------------------------- R2.4 the secret setup choice
def test_r2_4_choices_are_held_until_the_last_seat_has_chosen_then_revealed_in_the_engines_order():
    game = Game(NAMES, seed=3)
    secret, gold, engine_order = SecretSetup(), list(game.state.gold), list(game.state.setup_left)
    for seat in (2, 0):  # not the engine's order: every seat chooses at once
        a, b = CHOICES[seat]
        assert secret.choose(game, seat, Action(EXHAUST, b, other=a)) is False
    assert game.phase == "setup" and game.ply == 0 and game.state.gold == gold  # nothing public yet
    assert secret.pending == {2: (2, 4), 0: (1, 2)} and secret.still_choosing(3) == [1]
    assert secret.choose(game, 1, Action(EXHAUST, 4, other=5)) is True
    assert game.phase == "dispatch" and secret.pending == {}
    assert game.exhaust_choices == {NAMES[s]: pair for s, pair in CHOICES.items()}
    assert [e["player"] for e in game.log if e["kind"] == "exhausted"] == engine_order


def test_r2_4_a_refused_choice_changes_nothing():
    game = Game(NAMES, seed=3)
    secret = SecretSetup({0: (1, 2)})
    with pytest.raises(IllegalAction) as err:
        secret.choose(game, 1, Action(PLACE, 3, 1))  # no setup choice: worded for seat 2, not the engine's current
    assert err.value.code == "exhaust_first" and err.value.params["player"] == 1
    with pytest.raises(IllegalAction):
        secret.choose(game, 1, Action(EXHAUST, 3, other=3))
    assert secret.pending == {0: (1, 2)} and game.ply == 0


def test_r2_4_the_state_for_a_choosing_seat_is_a_copy_with_that_seat_choosing():
    game = Game(NAMES, seed=3)
    for seat in range(3):
        st = choosing_state(game.state, seat)
        assert st.current == seat and st.refusal(Action(EXHAUST, 1, other=2), seat) is None
        assert all(a.kind == EXHAUST for a in st.legal_actions())
    assert game.state.current == game.state.setup_left[0] and game.ply == 0  # the engine's own untouched


# ---------------------------------------------------------------------- a round shown resolving
def round_ended(game: Game) -> int:
    """Play first-legal moves up to the move that ends round 1's dispatch (R4.8); the log length before it."""
    while True:
        log_len = len(game.log)
        game.push(game.state.legal_actions()[0])
        if resolved_rounds(game.log[log_len:]):
            return log_len


def test_the_round_a_dispatch_ends_is_shown_until_everyone_looking_steps_on():
    game = setup_done()
    shown = Resolution()
    assert shown.watch(game, 0) is False and not shown.showing  # the setup resolved no round
    log_len = round_ended(game)
    assert shown.watch(game, log_len, now=10.0) and shown.round == 1 and shown.since == 10.0
    end = shown.dispatch_end(game)
    assert end is not None and end is shown.dispatch_end(game)  # asked of the engine once
    assert end.slot_owner == game.dispatch_end(1).slot_owner  # the rooms as the dispatch left them
    assert shown.waiting_for([0, 2]) == [0, 2]
    assert shown.step_on(2) and not shown.step_on(2)  # said twice: nothing changes
    assert shown.waiting_for([0, 2]) == [0]
    assert not shown.expired(20.0, 60.0, [0, 2]) and shown.showing
    assert shown.expired(20.0, 60.0, [2]) and not shown.showing  # nobody left to wait for
    assert shown.ready == set() and shown.dispatch_end(game) is None


def test_a_resolution_nobody_steps_on_ends_after_its_time():
    game = setup_done()
    shown = Resolution()
    shown.watch(game, round_ended(game), now=0.0)
    assert not shown.expired(59.9, 60.0, [0]) and shown.expired(60.0, 60.0, [0])


# ---------------------------------------------------------------------- bot turns
def test_bot_turns_in_the_secret_setup_ask_every_bot_seat_still_to_choose_r2_4():
    game = Game(NAMES, seed=3)
    bots = {1, 2}
    turn = bot_turn(game, bots.__contains__, pending={1: (1, 2)})
    assert turn.seat == 2 and turn.setup and turn.state.current == 2
    assert bot_turn(game, bots.__contains__, pending={1: (1, 2)}, order=[1, 0, 2]).seat == 2
    assert bot_turn(game, bots.__contains__, pending={1: (1, 2), 2: (1, 3)}) is None  # only a person left
    # Learn and Play: the engine's order, one seat at a time (its seat to move: a bot's or nobody's)
    turn = bot_turn(game, lambda s: s == game.current)
    assert turn.seat == game.current and not turn.setup
    assert bot_turn(game, lambda s: s != game.current) is None


def test_bot_turns_in_the_dispatch_follow_the_engines_seat_to_move():
    game = setup_done()
    seat = game.current
    turn = bot_turn(game, lambda s: s == seat, pending={})
    assert turn.seat == seat and not turn.setup and turn.state is not game.state
    assert bot_turn(game, lambda s: s != seat) is None


def test_a_bots_move_is_asked_on_a_copy_and_judged_by_the_engine():
    game = setup_done()
    seat, ply = game.current, game.ply
    assert bot_move(FirstLegalBot(0), game.state, seat) == game.state.legal_actions()[0]

    class Cheat:
        def choose(self, state, player):
            state.gold[player] += 100  # a bot that changes what it is shown changes only its copy
            return Action(PLACE, 9, 1)

    gold = list(game.state.gold)
    with pytest.raises(IllegalAction):
        bot_move(Cheat(), game.state, seat)
    assert game.state.gold == gold and game.ply == ply


def test_the_bots_are_the_analysis_bots_by_name():
    assert type(make_bot("first", seed=1)) is FirstLegalBot
    assert type(make_bot("greedy", seed="7/1")).__module__.startswith("dungeon_guilds.analysis.bots")


# ---------------------------------------------------------------------- one model under the views
def test_class_tables_and_the_game_apps_hold_the_same_model():
    """Learn, Play, pass-and-play and class tables each hold one Session (issue 39): its game,
    seats, secret setup and round shown are what the view reads and plays through."""
    from dungeon_guilds.app.pass_and_play import PassAndPlay
    from dungeon_guilds.widgets.play_table import PlayTable
    from dungeon_guilds.widgets.stepper import RoundStepper

    table, _ = Table.open("ABCD", 3, "Ann", Rules(), None, 0.0, seed=1)
    assert isinstance(table.session, Session) and table.shown is table.session.shown
    assert table.secret is table.session.secret and table.seats is table.session.seats
    learn = RoundStepper()
    learn.new_game()
    assert isinstance(learn.session, Session) and learn.game is learn.session.game and learn.resolving is None
    assert learn.session.secret_setup is False and len(learn.session.seats) == len(learn.game.names)
    play = PlayTable()
    play.start()
    assert play.game is play.session.game and play.session.secret_setup is True
    kinds = [s.kind for s in play.session.seats]
    assert kinds[play.human] == HUMAN and kinds.count(BOT) == len(kinds) - 1
    hotseat = PassAndPlay()
    hotseat.start()
    assert isinstance(hotseat.table.session, Session) and hotseat.table.session.secret_setup


def test_a_session_plays_a_whole_game_by_its_calls_alone():
    """The calls every view makes: R2.4's choices held in secret and revealed in the engine's
    order, a second choice refused, the bots' turns taken, a round shown until everyone looking
    steps on (issue 24) and no bot moving meanwhile, to the game's end."""
    game = Game(NAMES, seed=5)
    seats = [Seat(HUMAN, "Ann", connected=1), Seat(BOT, "Bo", bot="first"), Seat(BOT, "Cy", bot="first")]
    session, bots = Session(seats, game), {1: FirstLegalBot(1), 2: FirstLegalBot(2)}
    session.move(0, Action(EXHAUST, 4, other=5))
    assert game.phase == "setup" and session.secret.pending == {0: (4, 5)}
    with pytest.raises(IllegalAction) as again:
        session.move(0, Action(EXHAUST, 1, other=2))
    assert again.value.code == "exhaust_chosen" and session.secret.pending == {0: (4, 5)}
    while session.in_setup:  # the bots choose, each on the state before anyone's choice
        turn = session.bot_turn()
        assert turn.setup and turn.state.gold == game.state.gold
        session.take(turn, bot_move(bots[turn.seat], turn.state, turn.seat))
    assert session.secret.pending == {} and list(strengths_of(game.state.exhausted[0])) == [4, 5]
    shown = 0
    while not session.is_over or session.shown.showing:
        if session.shown.showing:
            assert session.bot_turn() is None and session.waiting_for() == [0]  # the bots wait for Ann
            assert session.step_on(0) and not session.shown.showing
            shown += 1
        elif (turn := session.bot_turn()) is not None:
            session.take(turn, bot_move(bots[turn.seat], turn.state, turn.seat))
        else:
            assert game.current == 0 and session.refusal(0, Action(PLACE, 9, 1)) is not None
            session.move(0, FirstLegalBot(0).choose(session.seen_by(0).copy(), 0))
    assert shown == game.state.rounds  # every round shown resolving, the last one too


def test_learn_takes_the_setup_in_the_engines_order():
    """Learn's session (``secret_setup=False``): one student sets every seat's pair, and the
    engine takes them one after another (its seat to move), each public at once."""
    game = Game(NAMES, seed=3)
    session = Session([Seat(HUMAN, n) for n in NAMES], game, secret_setup=False)
    first = game.current
    session.move(None, Action(EXHAUST, 1, other=2))
    assert session.secret.pending == {} and game.ply == 1 and game.current != first


# ---------------------------------------------------------------------- seats
def test_a_seat_is_played_by_a_bot_when_it_is_a_bots_or_its_person_is_away_long_enough():
    from dungeon_guilds.table_model.seats import AWAY_BOT, BOT, BOT_KIND, HUMAN, Seat

    bot, old_bot = Seat(BOT, "Bo", bot="strong"), Seat(BOT, "Cy")
    assert bot.plays_bot(0.0, None) and bot.level() == "strong" and old_bot.level() == BOT_KIND
    ann = Seat(HUMAN, "Ann", connected=1)
    assert not ann.plays_bot(100.0, 30.0) and ann.level() == AWAY_BOT and ann.looking()
    ann.connected, ann.away_since = 0, 50.0
    assert not ann.plays_bot(79.9, 30.0) and ann.plays_bot(80.0, 30.0) and not ann.plays_bot(80.0, None)
    assert not ann.looking() and ann.looking(everyone=True) and not bot.looking(everyone=True)
    assert Seat(BOT, "Bo", "x", bot="greedy", connected=2).to_dict() == {
        "kind": "bot", "name": "Bo", "token_hash": "x", "bot": "greedy"}  # the saved form, pages not saved


def test_r2_4_a_click_on_a_card_chooses_two_at_the_setup_and_one_in_the_dispatch():
    from dungeon_guilds.table_model import choice_key, next_choice

    assert next_choice((), 3, setup=True) == (3,)
    assert next_choice((3,), 5, setup=True) == (3, 5)  # the pair exhausted together (R2.4)
    assert next_choice((3, 5), 1, setup=True) == (5, 1)  # a third card drops the oldest
    assert next_choice((3, 5), 3, setup=True) == (5,)  # a chosen card unchosen
    assert next_choice((), 4, setup=False) == (4,)  # one adventurer goes in at a time (R4.1)
    assert next_choice((4,), 2, setup=False) == (2,)
    assert next_choice((2,), 2, setup=False) == ()
    assert choice_key((5, 1)) == "1,5" and choice_key(()) == ""


@pytest.mark.parametrize("setup", [True, False])
def test_the_class_tables_page_and_the_widget_board_choose_by_the_same_rule(tmp_path, setup):
    """The page follows ``picks[choice]["next"]`` (tables.js holds no rule of its own); each is
    the table model's ``next_choice``, which the widget board asks too, and names a choice sent."""
    from dungeon_guilds.app.tables.render import seat_parts
    from dungeon_guilds.table_model import choice_key, next_choice

    table, _ = Table.open("NEXT", 3, "Ann", Rules(), None, 0.0, seed=2)
    for name in ("Bo", "Cy"):
        table.join(name, 0.0)
    if not setup:
        for seat in range(3):
            table.act(seat, "exhaust 1 2", table.version, 0.0)
        assert not table.in_setup
    seat = 0 if setup else table.game.current
    picks = seat_parts(table, seat, "en")["picks"]
    assert "" in picks and len(picks) == (16 if setup else 4)
    for key, entry in picks.items():
        chosen = tuple(int(s) for s in key.split(",") if s)
        for s, after in entry["next"].items():
            assert after == choice_key(next_choice(chosen, int(s), setup)) and after in picks
