"""Issue 17, item 5: a widget callback catches only what it expects.

An expected error (an engine refusal, bad input: ``ValueError``; a missing extra) is shown as a
sentence and nothing else happens. Any other error is a bug: it is logged with its traceback
on the ``dungeon_guilds.widgets`` logger (never shown as a traceback), and under test it is
re-raised (``RAISE_UNEXPECTED``, set for every test by tests/conftest.py) so it fails loudly.
"""

from __future__ import annotations

import logging

import pytest

from dungeon_guilds import parse
from dungeon_guilds.widgets import common, moves
from dungeon_guilds.widgets.moves import FALLBACK_BOT as FIRST
from dungeon_guilds.widgets.stepper import RoundStepper


class Broken:
    """A bot with a bug (not a refusal): it raises a ``RuntimeError``."""

    def choose(self, state, player):
        raise RuntimeError("bot bug")


class Cheat:
    def choose(self, state, player):
        return parse("bump 5 1a")


def _stepper_with(bot) -> RoundStepper:
    s = RoundStepper(players=3, seats=[FIRST] * 3, seed=1, timeline=False)
    s.phase_button.click()
    s._bots[(s.game.current, FIRST)] = bot
    return s


def test_the_test_suite_runs_widgets_strict():
    assert common.RAISE_UNEXPECTED is True


def test_an_expected_refusal_is_a_sentence_and_logs_no_error(caplog):
    """(tests/conftest.py would also fail this test if an error were logged.)"""
    s = _stepper_with(Cheat())
    with caplog.at_level(logging.DEBUG, logger="dungeon_guilds.widgets"):
        s.step_button.click()
    assert s.message_text.startswith("Not allowed: ")
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert "Traceback" not in s.message.value


def test_a_bug_in_a_callback_fails_loudly_under_test():
    s = _stepper_with(Broken())
    logger = logging.getLogger("dungeon_guilds.widgets")
    with pytest.raises(RuntimeError, match="bot bug"):
        s._on_step()  # what the Step button calls; ipywidgets would swallow the raise ...
    # ... so tests/conftest.py also fails any test after which the widgets' logger holds an
    # error: take this one's record out, it is the point of the test
    handler = next(h for h in logger.handlers if type(h).__name__ == "_Records")
    assert [r.exc_info[0] for r in handler.records] == [RuntimeError]
    handler.records.clear()


def test_a_bug_in_a_callback_is_logged_not_shown_in_the_dashboard(widget_errors):
    s = _stepper_with(Broken())
    s.step_button.click()
    assert len(widget_errors) == 1 and widget_errors[0].exc_info[0] is RuntimeError  # with its traceback
    assert isinstance(s.last_error, RuntimeError)
    assert s.message_text.startswith("Something went wrong (RuntimeError); nothing was changed.")
    assert "Traceback" not in s.message.value


def test_the_analysis_bots_and_hints_are_this_packages_own():
    """No fallback hides a broken analysis package: its bots are offered and made for real."""
    from dungeon_guilds.analysis.bots import BOTS

    assert set(BOTS) - {FIRST} <= set(moves.bot_names())
    assert type(moves.make_bot("random")).__module__.startswith("dungeon_guilds.analysis")
