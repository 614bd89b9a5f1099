"""ABExperiment: two rule sets, the same bots and seeds, the balance metrics side by side.

Each rule set (arm) chooses the options (lords, edition, NPCs, teams), a deck from the
workshop session (the reference deck, or one saved in the deck editor) and, optionally, a
workshop lord — in place of a printed lord (the tight design: every game draws the same lords
except that one) or added to the pool. The bots (one per seat) and the number of games are
common; a :class:`~.plan.PlanBox` says before the run how many games an arm it takes to see a
change of a chosen size and offers that number. ``Run`` plays both arms with the same seeds
(:class:`dungeon_guilds.workshop.ab.ABRun`, a chunk of pairs at a time, as an asyncio task that
gives the kernel a turn between chunks, :mod:`.background`; a progress bar while it runs, and
``Stop`` ends it after the chunk being played, keeping the pairs played), then shows the
verdict in plain words (each clear change a sentence, the correction for many tests named,
whether the deals were shared and how much narrower that made the ranges; the precise terms
one click away), the table of metrics with 95 % intervals and the paired differences,
and four charts. ``Prepare downloads`` offers the HTML report (with the charts) and the CSV
files as browser downloads; nothing is written on the server. No pandas is needed anywhere
here: the static site (Pyodide) runs the same code.

:class:`WorkshopApp` puts the deck editor, the lord builder and the A/B experiment in three
tabs sharing one :class:`~dungeon_guilds.workshop.session.WorkshopSession` and one language
(for the dashboard's Lab tab and notebook 09).

Headless use::

    ab = ABExperiment(games=50)
    ab.arm_b.lords_dropdown.value = "all"
    ab.run_button.click()
    ab.result.comparison, ab.verdict_html.value
"""

from __future__ import annotations

import html
import math
from typing import Sequence

import ipywidgets as W

from .. import i18n
from ..lords import lord_pool
from ..rules import EDITIONS, LORDS_OPTIONS, TEAM_OPTIONS, Rules
from ..workshop.ab import ABResult, ABRun, Arm
from ..workshop.lord_edit import replace_in_pool
from ..workshop.report import comparison_csv, comparison_html, figures, games_csv, report_html, verdict_html
from ..workshop.session import WorkshopSession
from ..workshop.strings import error_text as workshop_error_text
from ..workshop.strings import wt
from .background import drive
from .explorer_panel import attach_explorer
from .lab import lab_bots
from .common import NONE, App, LanguageState, message_html, safe, set_options
from .figures import show_figure
from .inputs import SEED_MAX, checked_int, fit
from .labels import Words, label_all
from .moves import bot_label
from ..extras import MissingExtra
from .common import EXPECTED_ERRORS, logger, note_unexpected
from .deck_editor import DeckEditor, download_link
from .lord_builder import LordBuilder
from .plan import PlanBox

ADD = "__add__"
MIN_GAMES, MAX_GAMES = 2, 100000
DEFAULT_BOTS = ("greedy", "random", "bully", "cooperator", "greedy", "random")


def _sim_bots() -> list[str]:
    """The bots the experiment offers: the Lab's (issue 40: not the slow tree search)."""
    try:
        return lab_bots()
    except MissingExtra:  # the analysis extra is missing
        return []


class ArmPanel(W.VBox):
    """One rule set. Sub-widgets: ``name_text``, ``lords_dropdown``, ``edition_dropdown``,
    ``npc_checkbox``, ``teams_dropdown``, ``deck_dropdown``, ``custom_lord_dropdown``,
    ``replaces_dropdown``, ``pool_html``; ``arm()`` is the :class:`Arm`."""

    # every control's words (labels.py)
    LABELS = {"name_text": "name", "lords_dropdown": "ab_lords", "edition_dropdown": "ab_edition",
              "npc_checkbox": "ab_npc", "teams_dropdown": "ab_teams", "deck_dropdown": "ab_deck",
              "custom_lord_dropdown": "ab_custom_lord", "replaces_dropdown": "ab_replaces"}

    def __init__(self, name: str, session: WorkshopSession, lang: str = "en"):
        self.session = session
        self._lang = lang
        self.title_html = W.HTML()
        self.name_text = W.Text(value=name, layout=W.Layout(width="260px")).add_class("dg-arm-name")
        self.lords_dropdown = W.Dropdown(options=list(LORDS_OPTIONS), value="base").add_class("dg-arm-lords")
        self.edition_dropdown = W.Dropdown(options=list(EDITIONS), value="zh").add_class("dg-arm-edition")
        self.npc_checkbox = W.Checkbox(value=False, indent=False).add_class("dg-arm-npc")
        self.teams_dropdown = W.Dropdown(options=[("—", NONE)] + [(x, x) for x in TEAM_OPTIONS if x],
                                         value=NONE).add_class("dg-arm-teams")
        self.deck_dropdown = W.Dropdown(options=["reference"], value="reference").add_class("dg-arm-deck")
        self.custom_lord_dropdown = W.Dropdown(options=[("—", NONE)], value=NONE).add_class("dg-arm-custom-lord")
        self.replaces_dropdown = W.Dropdown(options=[("—", ADD)], value=ADD).add_class("dg-arm-replaces")
        self.pool_html = W.HTML().add_class("dg-arm-pool")
        super().__init__([self.title_html, self.name_text, self.lords_dropdown, self.edition_dropdown,
                          self.npc_checkbox, self.teams_dropdown, self.deck_dropdown, self.custom_lord_dropdown,
                          self.replaces_dropdown, self.pool_html],
                         layout=W.Layout(border="1px solid #ddd", padding="4px", margin="2px", width="50%"))
        self.add_class("dg-arm")
        for w in (self.lords_dropdown, self.custom_lord_dropdown, self.replaces_dropdown, self.deck_dropdown,
                  self.name_text, self.edition_dropdown, self.npc_checkbox, self.teams_dropdown):
            w.observe(self._changed, "value")
        session.observe(self._session_changed, ["decks", "lords"])
        self.relabel(lang)

    def _changed(self, _change=None) -> None:
        try:
            self.update_options()
        except EXPECTED_ERRORS as exc:  # a bad combination: the app says it when it runs
            logger.debug("arm options: %s", exc)
        except Exception as exc:  # noqa: BLE001 - a bug: logged, re-raised under test
            note_unexpected(exc, "ArmPanel.update_options")

    def _session_changed(self, _change=None) -> None:
        self._changed()  # a session change comes from another app: never raise into it

    def update_options(self) -> None:
        L = self._lang
        set_options(self.lords_dropdown, [(i18n.t(f"option.lords_{v}", L), v) for v in LORDS_OPTIONS])
        set_options(self.edition_dropdown, [(i18n.t(f"option.edition_{v}", L), v) for v in EDITIONS])
        set_options(self.teams_dropdown, [(i18n.t("option.teams_none", L), NONE)] + [
            (wt("ab_teams_n", L, teams=x), x) for x in TEAM_OPTIONS if x])
        set_options(self.deck_dropdown, [(wt("ab_reference_deck", L) if name == "reference" else name, name)
                                         for name in self.session.decks])
        set_options(self.custom_lord_dropdown, [(wt("ab_none", L), NONE)] + [
            (f"{lord.name(L)} ({lord.id})", lord.id) for lord in self.session.lords])
        pool = lord_pool(self.lords_dropdown.value)
        set_options(self.replaces_dropdown, [(wt("ab_add_to_pool", L), ADD)] + [
            (lord.name(L), lord.id) for lord in pool])
        self.replaces_dropdown.layout.display = None if self.custom_lord_dropdown.value != NONE else "none"
        try:
            arm = self.arm()
            ids = i18n.join_list((lord.name(L) for lord in arm.pool), L)
            note = "" if arm.rules.lord_effects else f"<br><small>{html.escape(wt('arm_no_effects', L))}</small>"
            codes = " ".join(lord.id for lord in arm.pool)
            self.pool_html.value = (f"<small class='dg-pool' data-ids='{html.escape(codes)}'>"
                                    f"{html.escape(wt('ab_pool', L, ids=ids))}</small>{note}")
        except EXPECTED_ERRORS as exc:  # a bad combination is explained here
            self.pool_html.value = message_html(workshop_error_text(exc, L), "warn")

    def relabel(self, lang: str) -> None:
        self._lang = lang
        self.title_html.value = f"<b>{html.escape(wt('ab_arm', lang, name=self.name_text.value))}</b>"
        label_all(self, self.LABELS, lambda key: wt(key, lang))
        for w in (self.lords_dropdown, self.edition_dropdown, self.teams_dropdown, self.deck_dropdown,
                  self.custom_lord_dropdown, self.replaces_dropdown, self.name_text):
            w.style = {"description_width": "110px"}
        self.update_options()

    def rules(self) -> Rules:
        teams = self.teams_dropdown.value
        return Rules(lords=self.lords_dropdown.value, teams=None if teams == NONE else teams,
                     npc=bool(self.npc_checkbox.value), edition=self.edition_dropdown.value)

    def arm(self) -> Arm:
        rules = self.rules()
        deck_name = self.deck_dropdown.value
        deck = self.session.decks.get(deck_name)
        deck = None if deck_name == "reference" else deck
        lords = None
        if self.custom_lord_dropdown.value != NONE:
            custom = self.session.lord(self.custom_lord_dropdown.value)
            if self.replaces_dropdown.value == ADD:
                lords = tuple(lord_pool(rules.lords)) + (custom,)
            else:
                lords = replace_in_pool(rules.lords, self.replaces_dropdown.value, custom)
        return Arm(self.name_text.value.strip() or "?", rules, deck, lords)

    def copy_from(self, other: "ArmPanel") -> None:
        for attr in ("lords_dropdown", "edition_dropdown", "npc_checkbox", "teams_dropdown", "deck_dropdown",
                     "custom_lord_dropdown"):
            getattr(self, attr).value = getattr(other, attr).value
        self.update_options()
        self.replaces_dropdown.value = other.replaces_dropdown.value


class ABExperiment(App):
    """The A/B experiment. Sub-widgets: ``players_dropdown``, ``bot_dropdowns`` (one per seat,
    in ``seats_box``), ``games_input``, ``seed_input``, ``rotate_checkbox``; ``arm_a``,
    ``arm_b`` (:class:`ArmPanel`), ``copy_button`` (A → B); ``run_button``, ``stop_button``, ``progress``
    (IntProgress), ``progress_label``; ``verdict_html``, ``table_html``, ``figure_outputs``
    {name: Output} (``figures``: the plotly figures last drawn); ``export_button``
    (prepares the downloads: nothing is written on the server), ``download_html``; ``message``, ``language_toggle``. ``result`` is the
    last :class:`~dungeon_guilds.workshop.ab.ABResult`."""

    css_class = "dg-ab"
    # every control's words (labels.py); the copy button's and the seats' words name an arm / a seat
    LABELS = {"players_dropdown": "players", "games_input": Words("games", range=(MIN_GAMES, MAX_GAMES)),
              "seed_input": Words("seed", range=(0, SEED_MAX)), "rotate_checkbox": "ab_rotate",
              "run_button": "ab_run", "stop_button": "ab_stop", "export_button": "ab_export"}
    error_words = staticmethod(workshop_error_text)  # the workshop's messages in the language

    def __init__(self, session: WorkshopSession | None = None, players: int = 4, bots: Sequence[str] | None = None,
                 games: int = 200, seed: int = 0, lang: str = "en",
                 lang_state=None, show_language: bool = True, draw_figures: bool = True):
        super().__init__(lang=lang, lang_state=lang_state, show_language=show_language)
        self.session = session or WorkshopSession()
        self.result: ABResult | None = None
        self.figures: dict = {}
        self._draw = draw_figures
        self.title_html = W.HTML()
        self.players_dropdown = W.Dropdown(options=[3, 4, 5, 6], value=players).add_class("dg-ab-players")
        self.seats_box = W.HBox().add_class("dg-ab-seats")
        self.bot_dropdowns: list[W.Dropdown] = []
        # plain IntText: an out-of-range value is refused with a message, not silently clamped
        self.games_input = W.IntText(value=games, step=50).add_class("dg-ab-games")
        self.seed_input = W.IntText(value=seed).add_class("dg-ab-seed")
        self.rotate_checkbox = W.Checkbox(value=True, indent=False).add_class("dg-ab-rotate")
        self.arm_a = ArmPanel("A", self.session, lang)
        self.arm_b = ArmPanel("B", self.session, lang)
        self.arm_a.add_class("dg-arm-a")
        self.arm_b.add_class("dg-arm-b")
        self.copy_button = W.Button(icon="copy", layout=fit()).add_class("dg-ab-copy")
        self.run_button = W.Button(button_style="success", icon="play", layout=fit()).add_class("dg-ab-run")
        self.stop_button = W.Button(button_style="warning", icon="stop", disabled=True, layout=fit()).add_class("dg-ab-stop")
        self.task = None
        self._stop = False
        self.progress = W.IntProgress(value=0, min=0, max=1, layout=W.Layout(width="420px")).add_class("dg-ab-progress")
        self.progress_label = W.HTML().add_class("dg-ab-progress-label")
        self.verdict_html = W.HTML().add_class("dg-ab-verdict")
        self.table_html = W.HTML().add_class("dg-ab-table-html")
        self.figure_outputs = {k: W.Output().add_class(f"dg-ab-fig-{k.replace('_', '-')}")
                               for k in ("win_rates", "differences", "gold", "clear_rates")}
        self.export_button = W.Button(icon="download", layout=fit()).add_class("dg-ab-export")
        self.download_html = W.HTML().add_class("dg-ab-downloads")
        self.plan = PlanBox("ab", lambda: int(self.players_dropdown.value), self.games_input, 10, MAX_GAMES, lang)
        self.players_dropdown.observe(self._on_players, "value")
        self.copy_button.on_click(self._on_copy)
        self.run_button.on_click(self._on_run)
        self.stop_button.on_click(self._on_stop)
        self.export_button.on_click(self._on_export)
        self._make_seats(players, bots)
        self.children = [
            self.language_toggle, self.title_html,
            W.HBox([self.players_dropdown, self.games_input, self.seed_input, self.rotate_checkbox]),
            self.seats_box, W.HBox([self.arm_a, self.arm_b]), self.copy_button, self.plan,
            W.HBox([self.run_button, self.stop_button, self.progress, self.progress_label]), self.message,
            self.verdict_html, self.table_html, *self.figure_outputs.values(),
            W.HBox([self.export_button, self.download_html]),
        ]
        self.relabel()

    # ------------------------------------------------------------------ set-up
    def _make_seats(self, n: int, bots: Sequence[str] | None = None) -> None:
        names = _sim_bots()
        old = [d.value for d in self.bot_dropdowns]
        if bots and len(bots) == 1:
            wanted = list(bots) * n
        else:
            wanted = (list(bots or old) + list(DEFAULT_BOTS))[:n]
        self.bot_dropdowns = []
        for seat in range(n):
            d = W.Dropdown(options=[(bot_label(b, self.lang), b) for b in names],
                           value=wanted[seat] if wanted[seat] in names else names[0],
                           layout=W.Layout(width="190px")).add_class("dg-ab-bot")
            d.description = wt("seat_n", self.lang, seat=seat + 1)
            d.style = {"description_width": "initial"}
            self.bot_dropdowns.append(d)
        self.seats_box.children = tuple(self.bot_dropdowns)

    @property
    def bots(self) -> list[str]:
        return [d.value for d in self.bot_dropdowns]

    def relabel(self) -> None:
        L = self.lang
        self.title_html.value = f"<h3>{html.escape(wt('ab_title', L))}</h3><p>{html.escape(wt('ab_intro', L))}</p>"
        label_all(self, self.LABELS, lambda key: wt(key, L))
        for w in (self.players_dropdown, self.games_input, self.seed_input):
            w.style = {"description_width": "initial"}
        self.arm_a.relabel(L)
        self.arm_b.relabel(L)
        self.copy_button.description = wt("ab_copy", L, a=self.arm_a.name_text.value, b=self.arm_b.name_text.value)
        for seat, d in enumerate(self.bot_dropdowns):
            d.description = wt("seat_n", L, seat=seat + 1)
            set_options(d, [(bot_label(b, L), b) for b in _sim_bots()])
        self.plan.relabel(L)

    def refresh(self) -> None:
        if self.result is not None:
            self._show_result(self.result)

    # ------------------------------------------------------------------ running
    @safe
    def _on_players(self, change) -> None:
        self._make_seats(int(change["new"]))
        self.plan.update()

    @safe
    def _on_copy(self, _button=None) -> None:
        self.arm_b.copy_from(self.arm_a)

    @safe
    def _on_run(self, _button=None) -> None:
        self.task = drive(self, self._steps(*self._checked()), "ABExperiment.run")

    @safe
    def _on_stop(self, _button=None) -> None:
        """End the run after the chunk of pairs being played (the pairs played are kept)."""
        self._stop = True
        self.stop_button.disabled = True

    def _progress(self, done: int, total: int) -> None:
        self.progress.max = max(1, total)
        self.progress.value = done
        self.progress_label.value = html.escape(wt("ab_running", self.lang, done=done, total=total))

    def run(self) -> ABResult:
        """Play both arms (same seeds) now and show the comparison."""
        for _ in self._steps(*self._checked()):
            pass
        return self.result

    def _checked(self) -> tuple[int, ABRun]:
        """(games per arm, the run to play) from the inputs, or a refusal (old results cleared)."""
        try:
            n = checked_int(self.games_input, MIN_GAMES, MAX_GAMES, "workshop.games")
            seed = checked_int(self.seed_input, 0, SEED_MAX, "workshop.seed")
            a, b = self.arm_a.arm(), self.arm_b.arm()
            run = ABRun(a, b, n, self.bots, int(self.players_dropdown.value), seed=seed,
                        rotate=bool(self.rotate_checkbox.value), max_chunk=max(1, math.ceil(n / 50)))
        except ValueError:
            self.clear_results()
            raise
        return n, run

    def _steps(self, n: int, run: ABRun):
        """The run as a generator: one step a chunk of pairs (:func:`.background.drive`)."""
        self.progress.value = 0
        self.progress.max = 2 * n
        self._stop = False
        self.run_button.disabled = True
        self.stop_button.disabled = False
        try:
            while not run.finished and not self._stop:
                run.step()
                self._progress(2 * run.done, 2 * n)
                yield run.done
        finally:
            self.run_button.disabled = False
            self.stop_button.disabled = True
        result = self.result = run.result()
        self._show_result(result)
        seconds, done = result.settings.get("seconds", 0.0), run.done
        if done == n:
            self.say(lambda: wt("ab_done", self.lang, games=n, seconds=seconds), "ok")
        else:
            self.say(lambda: wt("ab_stopped", self.lang, games=done, total=n, seconds=seconds), "ok")

    def clear_results(self) -> None:
        """Take the last comparison off the screen (a refused run must not leave old numbers
        looking new)."""
        self.result = None
        self.figures = {}
        self.verdict_html.value = self.table_html.value = self.download_html.value = ""
        self.progress_label.value = ""
        self.progress.value = 0
        for output in self.figure_outputs.values():
            output.outputs = ()

    def _show_result(self, result: ABResult) -> None:
        L = self.lang
        self.progress_label.value = ""
        self.verdict_html.value = verdict_html(result, L)
        self.table_html.value = comparison_html(result, L)
        self.download_html.value = ""
        if self._draw:
            self.figures = figures(result, L)
            for key, fig in self.figures.items():
                show_figure(self.figure_outputs[key], fig)

    # ------------------------------------------------------------------ export
    @safe
    def _on_export(self, _button=None) -> None:
        self.export()

    def export(self, stem: str = "workshop_ab") -> dict[str, str]:
        """Offer the report as browser downloads (``data:`` links): the HTML report, the
        comparison table and every game (CSV). Nothing is written on the server (a dashboard
        visitor never chooses a server path); in a notebook, the report module's
        ``export_report``, called with ``ab.result`` and a folder, writes the same files.
        Returns the texts by kind (``html``, ``csv``, ``games_csv``)."""
        if self.result is None:
            raise ValueError("run the experiment first")
        texts = {"html": report_html(self.result, self.lang),  # opens offline: plotly.js inline
                 "csv": comparison_csv(self.result),
                 "games_csv": games_csv(self.result)}
        names = {"html": f"{stem}.html", "csv": f"{stem}.csv", "games_csv": f"{stem}_games.csv"}
        size_mb = f"{len(texts['html'].encode('utf-8')) / 1e6:.1f}"
        labels = {"html": wt("ab_download_html", self.lang, mb=size_mb), "csv": wt("ab_download_csv", self.lang),
                  "games_csv": wt("ab_download_games", self.lang)}
        mimes = {"html": "text/html", "csv": "text/csv", "games_csv": "text/csv"}
        self.download_html.value = " · ".join(download_link(texts[k], names[k], labels[k], mimes[k]) for k in texts)
        files = list(names.values())
        self.say(lambda: wt("ab_exported", self.lang, files=i18n.join_list(files, self.lang)), "ok")
        return texts


class WorkshopApp(W.Tab):
    """The three workshop apps in tabs, sharing a session and a language: ``deck_editor``,
    ``lord_builder``, ``ab_experiment``; ``session``, ``lang_state``."""

    def __init__(self, session: WorkshopSession | None = None, lang: str = "en",
                 lang_state: LanguageState | None = None, games: int = 200, **kwargs):
        self.session = session or WorkshopSession()
        self.lang_state = lang_state or LanguageState(lang=lang)
        self.deck_editor = DeckEditor(session=self.session, lang_state=self.lang_state, show_language=False)
        self.lord_builder = LordBuilder(session=self.session, lang_state=self.lang_state, show_language=False)
        self.ab_experiment = ABExperiment(session=self.session, lang_state=self.lang_state, show_language=False,
                                          games=games)
        super().__init__(children=[self.deck_editor, self.lord_builder, self.ab_experiment], **kwargs)
        self.add_class("dg-workshop")
        self._titles()
        self.lang_state.observe(lambda _c: self._titles(), "lang")
        attach_explorer(self)  # issue 41: the design explorer, the workshop's last tab

    def _titles(self) -> None:
        L = self.lang_state.lang
        self.titles = (wt("deck_title", L), wt("lord_title", L), wt("ab_title", L))


__all__ = ["ABExperiment", "ArmPanel", "WorkshopApp"]
