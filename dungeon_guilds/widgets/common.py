"""Shared pieces of the ipywidgets apps: the language state and toggle, the error-catching
callback decorator, showing a plotly figure in an ``Output``, bots and hints from
``dungeon_guilds.analysis`` (imported lazily: the analysis extra may be missing), and
a move builder that lets a user try any move and read the engine's refusal.

No widget decides a rule: legal moves, refusals, payouts and orders come from the engine.
"""

from __future__ import annotations

import functools
import json
import logging
import random
from html import escape
from typing import Any, Callable, Sequence

import ipywidgets as W
import traitlets

from .. import i18n
from ..actions import BUMP, EXHAUST, PLACE, SWAP, Action
from ..extras import MissingExtra
from ..rules import EDITIONS, LORDS_OPTIONS

logger = logging.getLogger("dungeon_guilds.widgets")
logger.addHandler(logging.NullHandler())  # errors are shown in the widget; log only if asked

HUMAN = "human"
FALLBACK_BOT = "first"
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

    @safe
    def _on_hints(self, change) -> None:
        self._draw_hints()

    def _say_over(self) -> None:
        winners = ", ".join(self.game.winners())
        self.say(lambda: self.t("msg.game_over", winners=winners), "ok")

    def relabel_rule_options(self) -> None:
        t = self.t
        set_options(self.lords_dropdown, [(t(f"option.lords_{v}"), v) for v in LORDS_OPTIONS])
        self.lords_dropdown.description = t("ui.lords")
        set_options(self.edition_dropdown, [(t(f"option.edition_{v}"), v) for v in EDITIONS])
        self.edition_dropdown.description = t("ui.edition")
        self.npc_checkbox.description = t("ui.npc")
        self.seed_input.description = t("ui.seed")


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


# ---------------------------------------------------------------------- numeric inputs
SEED_MAX = 2**31 - 1


def fit() -> W.Layout:
    """The layout of a button as wide as its words (never cut off, never stretched)."""
    return W.Layout(width="max-content")


def with_range(label: str, low: int, high: int) -> str:
    """A numeric input's label with its range (``Games (10–20000)``): every numeric input says
    what it accepts."""
    return f"{label} ({signed(low)}–{signed(high)})"


def signed(n: int) -> str:
    """A whole number with a true minus sign (−20, not -20)."""
    return f"−{-n}" if n < 0 else str(n)


def checked_int(widget: W.Widget, low: int, high: int, field_key: str) -> int:
    """The widget's whole number if it lies in ``[low, high]``; else an
    :class:`~dungeon_guilds.i18n.Refusal` (a ``ValueError``) naming the field (strings key
    ``field_key``), the value and the range. The caller changes nothing: no value is silently
    moved into range."""
    value = widget.value
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise i18n.Refusal("ui.out_of_range", keys={"field": field_key}, value=value, low=signed(low),
                           high=signed(high))
    return int(value)


# ---------------------------------------------------------------------- figures
def figure_bundle(fig) -> dict:
    """A plotly figure as a Jupyter display bundle (plotly's own mimetype, rendered natively by
    JupyterLab, Notebook 7, Voila and VS Code through the extension plotly ships)."""
    data = json.loads(fig.to_json())
    data["config"] = {"displaylogo": False, "responsive": True}
    title = ((data.get("layout") or {}).get("title") or {}).get("text", "")
    return {"application/vnd.plotly.v1+json": data, "text/plain": f"<plotly figure {title!r}>"}


def show_figure(output: W.Output, fig) -> None:
    """Show ``fig`` in ``output``, replacing what was there (works with or without a kernel)."""
    show_figures(output, [fig])


def show_figures(output: W.Output, figs) -> None:
    """Show the figures ``figs`` one below the other in ``output``, replacing what was there:
    as plotly's display bundles, or, in a kernel of the dashboard's Voila server, as
    :class:`~dungeon_guilds.widgets.figure_view.LazyFigure` widgets (kept with the output and
    redrawn in place), which load plotly.js only when a figure is about to be seen."""
    bundles = [figure_bundle(fig) for fig in figs]
    from .figure_view import LazyFigure, lazy_figures, view_output

    if not lazy_figures():
        output.outputs = tuple({"output_type": "display_data", "data": b, "metadata": {}} for b in bundles)
        return
    views = list(getattr(output, "dg_figures", ()))[:len(bundles)]
    views += [LazyFigure() for _ in range(len(bundles) - len(views))]
    for view, bundle in zip(views, bundles):
        view.show(bundle)
    output.dg_figures = views
    shown = tuple(view_output(v, b["text/plain"]) for v, b in zip(views, bundles))
    if output.outputs != shown:  # the same views stay on the page: only their figures change
        output.outputs = shown


# ---------------------------------------------------------------------- bots and hints
class FirstLegalBot:
    """The deterministic first-legal-action bot (``"first"``): always there, and the stand-in
    when the analysis extra (and so its bots) is not installed."""

    name = FALLBACK_BOT

    def __init__(self, seed: int = 0, noise: float = 0.0):
        self.rng = random.Random(seed)

    def choose(self, state, player: int) -> Action:
        return state.legal_actions()[0]


def bot_names() -> list[str]:
    """The names of the bots available: ``dungeon_guilds.analysis.bots.BOTS`` if present, and
    always the deterministic first-legal-action bot (``"first"``, fast and handy in tests)."""
    try:
        from ..analysis.bots import BOTS  # type: ignore[import-not-found]
    except MissingExtra:  # the analysis extra is not installed
        return [FALLBACK_BOT]
    names = [b for b in BOTS if b != FALLBACK_BOT]
    return names + [FALLBACK_BOT]


def make_bot(name: str, seed: int = 0):
    if name == FALLBACK_BOT:
        return FirstLegalBot(seed)
    try:
        from ..analysis.bots import make_bot as real_make_bot  # type: ignore[import-not-found]
    except MissingExtra:  # the analysis extra is not installed
        return FirstLegalBot(seed)
    return real_make_bot(name, seed=seed)


def bot_label(name: str, lang: str) -> str:
    return i18n.t(f"bot.{name}", lang) if i18n.has(f"bot.{name}", lang) else name


def controller_options(lang: str) -> list[tuple[str, str]]:
    return [(i18n.t("bot.human", lang), HUMAN)] + [(bot_label(b, lang), b) for b in bot_names()]


def bot_move(bot, state, player: int) -> Action:
    """Ask a bot for a move on a copy of the state (a bot cannot change the game), and check
    it with the engine."""
    action = bot.choose(state.copy(), player)
    err = state.refusal(action, player)
    if err is not None:
        raise err
    return action


def action_options(state, lang: str) -> list[tuple[str, Action]]:
    """The legal actions of the player to move, labelled in words."""
    return [(i18n.action_text(a, lang, state), a) for a in state.legal_actions()]


def log_html(log: Sequence[dict], names: Sequence[str], lang: str, last: int = 14,
             secret_for: int | None = None) -> str:
    """The last events of the log, in words (``secret_for``: hide other players' exhaust
    choices from that seat)."""
    start = max(0, len(log) - last)
    items = []
    for i in range(start, len(log)):
        ev = log[i]
        secret = secret_for is not None and ev.get("kind") == "exhausted" and ev.get("player") != secret_for
        items.append(f'<li class="dg-log-event" data-kind="{ev.get("kind")}">'
                     f"{escape(i18n.event_text(ev, names, lang, secret_exhaust=secret))}</li>")
    return f'<ol class="dg-log" start="{start + 1}">{"".join(items)}</ol>'


# ---------------------------------------------------------------------- move builder
class MoveBuilder(W.HBox):
    """Build any move (kind, strength, room, slot) to try it: the engine says why an illegal
    one is refused. ``action`` is the move built."""

    def __init__(self, lang: str = "en", **kwargs):
        self._lang = lang
        self.kind_dropdown = W.Dropdown(options=[PLACE, BUMP, SWAP, EXHAUST], value=PLACE,
                                        layout=W.Layout(width="150px")).add_class("dg-kind")
        self.strength_dropdown = W.Dropdown(options=[1, 2, 3, 4, 5], value=1,
                                            layout=W.Layout(width="130px")).add_class("dg-strength")
        self.room_dropdown = W.Dropdown(options=list(range(1, 8)), value=1,
                                        layout=W.Layout(width="130px")).add_class("dg-room-pick")
        self.slot_dropdown = W.Dropdown(options=[("a", 0), ("b", 1)], value=0,
                                        layout=W.Layout(width="110px")).add_class("dg-slot-pick")
        self.try_button = W.Button(icon="check").add_class("dg-try")
        super().__init__([self.kind_dropdown, self.strength_dropdown, self.room_dropdown,
                          self.slot_dropdown, self.try_button], **kwargs)
        self.add_class("dg-move-builder")
        self.kind_dropdown.observe(lambda change: self._update_visibility(), "value")
        self._update_visibility()

    def _update_visibility(self) -> None:
        kind = self.kind_dropdown.value
        self.slot_dropdown.layout.display = None if kind in (BUMP, SWAP) else "none"
        # for 'exhaust A B' the second picker is the second strength
        self.room_dropdown.description = i18n.t("ui.strength" if kind == EXHAUST else "ui.room", self._lang)

    def relabel(self, lang: str, n_rooms: int) -> None:
        self._lang = lang
        set_options(self.kind_dropdown, [(i18n.t(f"turn.{k}", lang), k) for k in (PLACE, BUMP, SWAP, EXHAUST)])
        self.kind_dropdown.description = i18n.t("ui.kind", lang)
        self.strength_dropdown.description = i18n.t("ui.strength", lang)
        self._update_visibility()
        set_options(self.room_dropdown, [(str(r), r) for r in range(1, max(n_rooms, 5) + 1)])
        self.slot_dropdown.description = i18n.t("ui.slot", lang)
        self.try_button.description = i18n.t("ui.try_move", lang)
        for d in (self.kind_dropdown, self.strength_dropdown, self.room_dropdown, self.slot_dropdown):
            d.style = {"description_width": "initial"}

    @property
    def action(self) -> Action:
        kind = self.kind_dropdown.value
        s, r = int(self.strength_dropdown.value), int(self.room_dropdown.value)
        if kind == PLACE:
            return Action(PLACE, s, r)
        if kind == EXHAUST:
            return Action(EXHAUST, min(s, r), other=max(s, r))
        return Action(kind, s, r, int(self.slot_dropdown.value))

    def set(self, action: Action) -> None:
        """Fill the builder with ``action`` (for tests and for 'edit this move')."""
        self.kind_dropdown.value = action.kind
        self.strength_dropdown.value = action.strength
        if action.kind == EXHAUST:
            self.room_dropdown.value = action.other
        else:
            self.room_dropdown.value = action.room
        if action.kind in (BUMP, SWAP):
            self.slot_dropdown.value = action.slot


__all__ = [
    "App", "FALLBACK_BOT", "SEED_MAX", "checked_int", "fit", "with_range", "NONE", "FirstLegalBot", "HUMAN", "LanguageState", "MoveBuilder", "action_options",
    "action_values", "bot_label", "bot_move", "bot_names", "controller_options", "figure_bundle",
    "hints_html", "language_toggle", "log_html", "make_bot", "message_html", "safe", "set_options",
    "show_figure", "show_figures",
]
