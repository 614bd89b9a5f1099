"""The dashboard: every app of the project in one page (served by Voila, ``make dashboard``).

``Dashboard()`` is an ipywidgets ``AppLayout``: a header with the title and one language toggle
shared by every tab, and a ``Tab`` in the centre:

=========  ===============================================================  ==================
tab        what                                                             app
=========  ===============================================================  ==================
Learn      step through a round one action at a time (bots or you)          :class:`RoundStepper`
Play       a whole game against bots, seeing only what your seat may know   :class:`PlayTable`
Rules      every rule as a card, live examples from the engine, the lords      :class:`RulesTab`
Explore    how a treasure is split; the order of turns and bumps            :class:`PayoutExplorer`, :class:`TurnOrderExplorer`
Lab        balance runs (metrics with 95 % CIs) and the design workshop     :class:`LabPanel`, :class:`WorkshopApp`
Compare    Dungeon Guilds and its sibling games side by side                :class:`CompareExplorer`
Challenges design challenges: change a card or a lord, Check says if the goal :class:`ChallengePanel`
           is met (with its interval)
=========  ===============================================================  ==================

Under the title, where a page of their own exists (the dashboard's server, the static site), the
lesson notebooks a lesson plan names (``notebook_links``, :mod:`.lesson_links`). Above the tabs,
folded, the teacher page (:class:`TeacherPanel`): which lesson for which time,
worksheets with answer keys to print, how to serve, what students need (``teacher``).

Only the first tab shown is built at start; the others are built the first time they are
opened, so the first render stays fast (see ``docs/dashboard.md``). Every callback goes through
the ``safe`` decorator: an error is a friendly message, never a traceback.

Headless use (tests)::

    d = Dashboard()
    d.select_tab("lab")           # select and build the Lab tab
    d.apps["lab"].run_button.click()
    d.lang = "zh"                 # every tab that has words follows
"""

from __future__ import annotations

import os
from html import escape
from typing import Callable

from ..extras import MissingExtra, require

require("dungeon_guilds.app.dashboard", "notebooks", "ipywidgets", "plotly")

import ipywidgets as W

from .. import i18n
from ..widgets.a11y import PageAccessibility
from .lesson_links import links_html
from ..widgets.common import App, safe

# set by the dashboard's own server (voila_app) for its kernels: the class tables' page (issue 26)
TABLES_URL_ENV = "DUNGEON_GUILDS_TABLES_URL"
TABS = ("learn", "play", "rules", "explore", "lab", "compare", "challenges")

# The games the Learn and Play tabs start with (a browser test replays them with the engine).
LEARN_SETTINGS = {"players": 3, "seats": ["human", "greedy", "greedy"], "seed": 1}
PLAY_SETTINGS = {"players": 4, "seat": 0, "opponents": ["greedy", "cooperator", "bully"], "seed": 1,
                 "bot_delay": 0.3}  # bots move one by one, the board locked meanwhile (seconds)

def text(key: str, lang: str) -> str:
    """A label of the dashboard (``[dash]`` in ``dungeon_guilds/strings/<lang>.toml``)."""
    return i18n.t(key, lang)


def workshop_session():
    """A new :class:`~dungeon_guilds.workshop.session.WorkshopSession` (standard library and
    traitlets: the static site has one too), or None where traitlets is missing."""
    try:
        from ..workshop.session import WorkshopSession
    except MissingExtra:
        return None
    return WorkshopSession()


class Dashboard(App):
    """The whole app. Sub-widgets: ``app_layout`` (the ``AppLayout``), ``title_html``,
    ``tabs`` (the ``Tab``; ``panels[name]`` its page boxes), ``teacher_fold`` (the folded teacher
    page, ``teacher``), ``language_toggle`` (shared by
    every tab), ``message``; ``apps[name]`` the app of each tab built so far (``"explore"``
    holds a ``VBox`` of the two explorers; ``payout_explorer`` / ``turn_explorer`` name them)."""

    css_class = "dg-dashboard"

    def __init__(self, lang: str = "en", tab: str = "learn", lang_state=None,
                 learn: dict | None = None, play: dict | None = None, lab: dict | None = None):
        from .pyodide_comm import install

        install()  # the static site: a trait set back to None reaches the page as null
        super().__init__(lang=lang, lang_state=lang_state)
        self._settings = {"learn": dict(LEARN_SETTINGS, **(learn or {})),
                          "play": dict(PLAY_SETTINGS, **(play or {})),
                          "lab": dict(lab or {})}
        self.apps: dict[str, W.Widget] = {}
        self.payout_explorer = None
        self.rules_explorer = None
        self.lab_tabs = None  # the Lab tab: balance run | design workshop
        self.workshop = None  # the WorkshopApp, built when its sub-tab is first opened
        # the workshop's decks and lords, shared by the Lab's workshop and Learn's and Play's set-ups
        self.session = workshop_session()
        self.turn_explorer = None
        self._builders: dict[str, Callable[[], W.Widget]] = {
            "learn": self._build_learn, "play": self._build_play, "explore": self._build_explore,
            "lab": self._build_lab, "compare": self._build_compare, "rules": self._build_rules,
            "challenges": self._build_challenges,
        }
        self.title_html = W.HTML().add_class("dg-dash-title")
        self.notebook_links = W.HTML().add_class("dg-notebook-links-box")  # lesson notebooks (lesson_links)
        self.panels = {name: W.VBox([W.HTML()]).add_class("dg-tab-page").add_class(f"dg-tab-{name}")
                       for name in TABS}
        self.tabs = W.Tab(children=[self.panels[n] for n in TABS]).add_class("dg-tabs")
        from ..widgets.teacher import TeacherPanel

        self.teacher = TeacherPanel(lang_state=self.lang_state)
        self.teacher_fold = W.Accordion(children=[self.teacher], selected_index=None).add_class("dg-teacher-fold")
        header = W.VBox([
            W.HBox([self.title_html, self.language_toggle],
                   layout=W.Layout(justify_content="space-between", align_items="center")),
            self.notebook_links,
            self.teacher_fold,
            self.message,
        ]).add_class("dg-dash-header")
        self.app_layout = W.AppLayout(header=header, center=self.tabs, footer=None,
                                      left_sidebar=None, right_sidebar=None)
        # the header's height follows its content (AppLayout only takes px / fr / %)
        self.app_layout.layout.grid_template_rows = "auto auto"
        self.app_layout.add_class("dg-app-layout")
        # the page's lang, names for unnamed sliders, the aria-live region, contrast and focus CSS
        self.accessibility = PageAccessibility()
        self.children = [self.app_layout, self.accessibility]
        self.tabs.observe(self._on_tab, "selected_index")
        self.relabel()
        self._start(tab)

    @safe
    def _start(self, tab: str) -> None:
        self.select_tab(tab)

    # ------------------------------------------------------------------ tabs
    @property
    def current(self) -> str:
        """The name of the tab shown."""
        return TABS[self.tabs.selected_index or 0]

    def select_tab(self, name: str) -> W.Widget | None:
        """Show tab ``name`` (building its app the first time). Returns the app."""
        if name not in TABS:
            raise ValueError(f"no tab {name!r} (tabs: {', '.join(TABS)})")
        index = TABS.index(name)
        if self.tabs.selected_index != index:
            self.tabs.selected_index = index  # the observer builds it
        else:
            self._ensure(name)
        return self.apps.get(name)

    @safe
    def _on_tab(self, change) -> None:
        if change["new"] is not None:
            self._ensure(TABS[change["new"]])

    def _ensure(self, name: str) -> None:
        if name in self.apps:
            return
        page = self.panels[name]
        page.children = [W.HTML(f'<p class="dg-note">{escape(text("dash.loading", self.lang))}</p>')]
        try:
            built = self._builders[name]()
        except Exception:
            page.children = []
            raise
        app, widget = built if isinstance(built, tuple) else (built, built)
        self.apps[name] = app
        page.children = [widget]

    def _shared(self) -> dict:
        return {"lang_state": self.lang_state, "show_language": False}

    def _build_learn(self) -> W.Widget:
        from ..widgets.stepper import RoundStepper

        return RoundStepper(**self._settings["learn"], **self._shared(), session=self.session)

    def _build_play(self) -> tuple[W.Widget, W.Widget]:
        """A game against bots; above it, folded, pass and play (several people on this device)
        and, on the dashboard's own server, the way to the class tables (issue 26)."""
        from ..widgets.play_table import PlayTable
        from .pass_and_play import PassAndPlay

        table = PlayTable(**self._settings["play"], **self._shared(), session=self.session)
        self.pass_and_play = PassAndPlay(**self._shared())
        self._pass_box = W.Accordion(children=[self.pass_and_play], selected_index=None).add_class("dg-pass-box")

        def one_game_on_screen(change) -> None:  # pass and play open: the game against bots steps aside
            table.layout.display = "none" if change["new"] == 0 else None

        self._pass_box.observe(one_game_on_screen, "selected_index")
        parts = [self._pass_box, table]
        if os.environ.get(TABLES_URL_ENV):  # the dashboard's own server holds class tables
            self._tables_link = W.HTML().add_class("dg-tables-link")
            parts.insert(0, self._tables_link)
        self._label_tables()
        return table, W.VBox(parts)

    def _label_tables(self) -> None:
        if getattr(self, "_pass_box", None) is not None:
            self._pass_box.titles = (text("tables.pass_title", self.lang),)
        if getattr(self, "_tables_link", None) is not None:
            url = escape(os.environ.get(TABLES_URL_ENV, ""))
            self._tables_link.value = (f'<p class="dg-note"><a href="{url}" target="_blank" rel="noopener" '
                                       'style="color:#0b4f7a;text-decoration:underline;font-weight:600">'
                                       f'{escape(text("tables.dashboard_link", self.lang))}</a> — '
                                       f'{escape(text("tables.dashboard_why", self.lang))}</p>')

    def _build_rules(self) -> W.Widget:
        """Every rule as a card with live examples, and the lord cards (issue 19)."""
        from ..widgets.rules_tab import RulesTab

        return RulesTab(**self._shared())

    def _build_explore(self) -> W.Widget:
        """The payout and turn-order explorers, and below them the rules explorer (every rule
        option and project ruling; two rule sets compared in words): ``payout_explorer``,
        ``turn_explorer``, ``rules_explorer``."""
        from ..widgets.explorers import PayoutExplorer, TurnOrderExplorer
        from ..widgets.rules_explorer import RulesExplorer

        self.payout_explorer = PayoutExplorer(**self._shared())
        self.turn_explorer = TurnOrderExplorer(**self._shared())
        self.rules_explorer = RulesExplorer(**self._shared())
        self._explore_titles = tuple(W.HTML().add_class("dg-explore-title") for _ in range(3))
        self._label_explore()
        return W.VBox([self._explore_titles[0], self.payout_explorer,
                       self._explore_titles[1], self.turn_explorer,
                       self._explore_titles[2], self.rules_explorer]).add_class("dg-explore")

    def _build_lab(self) -> tuple[W.Widget, W.Widget]:
        """The Lab: a balance run (:class:`LabPanel`, ``apps["lab"]``) and the design workshop
        (deck editor, lord builder, A/B experiment; built when its sub-tab is first opened)."""
        from ..widgets.lab import LabPanel

        panel = LabPanel(**self._settings["lab"], **self._shared())
        # the workshop takes seconds to build: its page says so from the start, so the sub-tab is
        # never blank while the kernel builds it (issue 40)
        self.workshop_loading = W.HTML().add_class("dg-workshop-loading")
        self.lab_tabs = W.Tab(children=[panel, W.VBox([self.workshop_loading])]).add_class("dg-lab-tabs")
        self.lab_tabs.observe(self._on_lab_tab, "selected_index")
        self._label_lab()
        return panel, self.lab_tabs

    @safe
    def _on_lab_tab(self, change) -> None:
        if change["new"] == 1 and self.workshop is None:
            from ..widgets.ab_experiment import WorkshopApp

            self.workshop = WorkshopApp(session=self.session, lang_state=self.lang_state)
            self.lab_tabs.children = [self.lab_tabs.children[0], self.workshop]

    def _build_challenges(self) -> W.Widget:
        """The design challenges (issue 28): standard library only, so they run on the static
        site too."""
        from ..widgets.challenges import ChallengePanel

        return ChallengePanel(**self._shared())

    def _build_compare(self) -> W.Widget:
        from ..widgets.compare import CompareExplorer

        self._compare_note = W.HTML().add_class("dg-compare-note")
        self._label_compare()
        return W.VBox([self._compare_note, CompareExplorer(**self._shared())]).add_class("dg-compare")

    # ------------------------------------------------------------------ words
    def _label_explore(self) -> None:
        if self.payout_explorer is not None:
            for html, key in zip(self._explore_titles, ("dash.payout", "dash.turns", "rules.title")):
                html.value = f"<h3>{escape(text(key, self.lang))}</h3>"

    def _label_lab(self) -> None:
        if self.lab_tabs is not None:
            self.lab_tabs.titles = (text("dash.lab_balance", self.lang), text("dash.lab_workshop", self.lang))
            self.workshop_loading.value = f'<p class="dg-note">{escape(text("dash.workshop_loading", self.lang))}</p>'

    def _label_compare(self) -> None:
        if hasattr(self, "_compare_note"):
            note = text("compare.facts_note", self.lang)
            self._compare_note.value = f'<p class="dg-note">{escape(note)}</p>'

    def relabel(self) -> None:
        lang = self.lang
        self.accessibility.set_language(lang)
        self.title_html.value = (f'<h2 class="dg-dash-h" style="margin:4px 0">{escape(text("dash.title", lang))}'
                                 f' <small style="font-weight:normal;color:#666">'
                                 f'{escape(text("dash.subtitle", lang))}</small></h2>')
        self.tabs.titles = tuple(text(f"dash.tab_{n}", lang) for n in TABS)
        self.notebook_links.value = links_html(lang)
        self.notebook_links.layout.display = None if self.notebook_links.value else "none"
        self.teacher_fold.titles = (i18n.t("teacher.title", lang),)
        self._label_explore()
        self._label_lab()
        self._label_compare()
        self._label_tables()

    def refresh(self) -> None:
        """The tab apps redraw themselves (they share the language state)."""


__all__ = ["Dashboard", "LEARN_SETTINGS", "PLAY_SETTINGS", "TABS", "text"]
