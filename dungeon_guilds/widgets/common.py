"""The base of the ipywidgets apps: the language state and toggle, the error policy (the
error-catching callback decorator and what it expects), the message area and the
:class:`App` / :class:`GameApp` base classes, and ``set_options`` for dropdowns.

The other shared pieces live by what they do: numeric inputs and their ranges in
:mod:`.inputs`, figures in :mod:`.figure_view`, who plays a seat and how a move is made (bots,
hints, the move builder) in :mod:`.moves`, the log in words in :mod:`.narration`.

No widget decides a rule: legal moves, refusals, payouts and orders come from the engine.
"""

from __future__ import annotations

import functools
import logging
from html import escape
from typing import Any, Callable, Sequence

import ipywidgets as W
import traitlets

from .. import i18n
from ..extras import MissingExtra
from ..rules import EDITIONS, LORDS_OPTIONS
from .labels import label_all

logger = logging.getLogger("dungeon_guilds.widgets")
logger.addHandler(logging.NullHandler())  # errors are shown in the widget; log only if asked

NONE = "none"  # the option value meaning "no teams" / "no lord" (a browser shows None as blank)


# ---------------------------------------------------------------------- language
class LanguageState(traitlets.HasTraits):
    """The language of one app, or of several apps sharing it (the dashboard)."""

    lang = traitlets.Unicode("en")

    @traitlets.validate("lang")
    def _check(self, proposal):
        lang = proposal["value"]
        i18n.strings(lang)  # refuse an unknown language
        return lang


def language_toggle(state: LanguageState) -> W.ToggleButtons:
    """English / 繁體中文 (every language with a strings table), linked to ``state``."""
    toggle = W.ToggleButtons(options=[(name, code) for code, name in i18n.languages().items()],
                             value=state.lang, style={"button_width": "auto"})
    traitlets.link((state, "lang"), (toggle, "value"))
    return toggle.add_class("dg-lang-toggle")


# ---------------------------------------------------------------------- errors
#: what a callback expects to meet: the library's refusals and bad-input errors (all
#: ``ValueError``: IllegalAction, GameError, RecordError, RulesError, DeckError, LordError ...)
#: and a missing optional extra (``MissingExtra``; any other ``ImportError`` is a bug)
EXPECTED_ERRORS: tuple[type[BaseException], ...] = (ValueError, MissingExtra)

#: re-raise an unexpected error (a bug) instead of showing it; the test suite sets it
#: (tests/conftest.py) so a bug fails a test instead of turning into a message on screen
RAISE_UNEXPECTED = False


def note_unexpected(exc: BaseException, where: str) -> None:
    """An error no callback expects: log it with its traceback on the ``dungeon_guilds.widgets``
    logger (the dashboard's server log, never the screen) and re-raise it if
    :data:`RAISE_UNEXPECTED` is set. Call it inside the ``except`` block."""
    logger.error("unexpected error in %s", where, exc_info=exc)
    if RAISE_UNEXPECTED:
        raise exc


def safe(method: Callable) -> Callable:
    """Decorate a widget callback: an expected error (:data:`EXPECTED_ERRORS`) is shown in the
    app's message area as a sentence (engine refusals as the engine words them); any other
    error is logged (:func:`note_unexpected`) and shown as a short 'something went wrong'. No
    traceback reaches the user; the exception is kept in ``app.last_error``."""

    @functools.wraps(method)
    def wrapper(self, *args, **kwargs):
        try:
            return method(self, *args, **kwargs)
        except EXPECTED_ERRORS as exc:
            self.show_error(exc)
        except Exception as exc:  # noqa: BLE001 - a bug: logged, re-raised under test, else a sentence
            note_unexpected(exc, method.__qualname__)
            self.show_error(exc)
        return None

    return wrapper


def message_html(text: str, level: str = "info") -> str:
    colours = {"info": "#1f4e79", "ok": "#2a7d2a", "warn": "#8a5a00", "error": "#b02020"}
    return (f'<div class="dg-msg dg-msg-{level}" data-level="{level}" '
            f'style="color:{colours.get(level, "#333")};min-height:1.4em">{escape(text)}</div>')


class App(W.VBox):
    """Base of the apps: a language state, a message area, error handling."""

    css_class = "dg-app"

    def __init__(self, lang: str = "en", lang_state: LanguageState | None = None,
                 show_language: bool = True, **kwargs):
        self.lang_state = lang_state or LanguageState(lang=lang)
        self.language_toggle = language_toggle(self.lang_state)
        self.language_toggle.layout.display = None if show_language else "none"
        self.message = W.HTML(message_html("")).add_class("dg-message")
        self.message_text = ""
        self.message_level = "info"
        self._message_fn: Callable[[], str] | None = None
        self.last_error: BaseException | None = None
        super().__init__(**kwargs)
        self.add_class("dg-app").add_class(self.css_class)
        self.lang_state.observe(self._on_language, "lang")

    @property
    def lang(self) -> str:
        return self.lang_state.lang

    @lang.setter
    def lang(self, value: str) -> None:
        self.lang_state.lang = value

    def t(self, key: str, **values: Any) -> str:
        return i18n.t(key, self.lang, **values)

    def say(self, text: str | Callable[[], str], level: str = "info") -> None:
        """Show a message. Given a function instead of text, the message is written again in
        the new language when the language changes."""
        self._message_fn = text if callable(text) else None
        self.message_text = text() if callable(text) else text
        self.message_level = level
        self.message.value = message_html(self.message_text, level)

    def show_error(self, exc: BaseException) -> None:
        self.last_error = exc
        logger.debug("widget callback error: %s", exc)
        level = "warn" if isinstance(exc, ValueError) else "error"  # refusals are ValueErrors
        self.say(lambda: self.error_words(exc, self.lang), level)

    @staticmethod
    def error_words(exc: BaseException, lang: str) -> str:
        """The words of an error (an app whose errors need other words overrides this)."""
        return i18n.error_text(exc, lang)

    @safe
    def _on_language(self, change) -> None:
        fn, level = self._message_fn, self.message_level
        self.relabel()
        self.refresh()
        if fn is not None:
            self.say(fn, level)

    def relabel(self) -> None:  # pragma: no cover - overridden
        """Set every label in the current language."""

    def refresh(self) -> None:  # pragma: no cover - overridden
        """Redraw what the app shows from the engine's state."""


class GameApp(App):
    """An app around one :class:`~dungeon_guilds.game.Game` with the rule-option widgets
    (``lords_dropdown``, ``edition_dropdown``, ``npc_checkbox``, ``seed_input``) and a hints
    checkbox: what the stepper and the play table share."""

    # the rule options' words (labels.py)
    RULE_LABELS = {"lords_dropdown": "ui.lords", "edition_dropdown": "ui.edition", "npc_checkbox": "ui.npc",
                   "seed_input": "ui.seed"}

    @safe
    def _on_hints(self, change) -> None:
        self._draw_hints()

    def _say_over(self) -> None:
        winners = self.game.winners()
        self.say(lambda: self.t("msg.game_over", winners=i18n.join_list(winners, self.lang)), "ok")

    def relabel_rule_options(self) -> None:
        t = self.t
        set_options(self.lords_dropdown, [(t(f"option.lords_{v}"), v) for v in LORDS_OPTIONS])
        set_options(self.edition_dropdown, [(t(f"option.edition_{v}"), v) for v in EDITIONS])
        label_all(self, self.RULE_LABELS, t)


def set_options(dropdown: W.Dropdown, options: Sequence[tuple[str, Any]]) -> None:
    """Replace a dropdown's options, keeping its value if it is still offered, else selecting
    the first option. (Option values must not be ``None``: a browser shows ``None`` as no
    selection; use a string such as ``"none"``.)"""
    old = dropdown.value
    options = list(options)
    if list(dropdown.options) != options:
        dropdown.options = options
        values = [v for _, v in options]
        if old in values and dropdown.value != old:
            dropdown.value = old
    if options and dropdown.index is None:
        dropdown.index = 0  # ipywidgets 8 leaves nothing selected after options change


__all__ = [
    "EXPECTED_ERRORS", "NONE", "RAISE_UNEXPECTED", "App", "GameApp", "LanguageState", "language_toggle",
    "logger", "message_html", "note_unexpected", "safe", "set_options",
]
