"""The design explorer in the Lab's Design workshop (issue 41): the sensitivity map as a sorted
bar chart per measure and a knob × measure grid, a deck's own map computed in the background
(progress bar, Stop; the page stays usable: :mod:`.background`), and the goal search with each
proposal checked on fresh seeds.

``ExplorerPanel(session=…)``: ``measure_dropdown``, ``chart_output`` / ``grid_output`` (the
figures last drawn: ``bar``, ``grid``), ``deck_dropdown``, ``games_input``, ``run_button``,
``stop_button``, ``progress``, ``source_html``; ``goal_dropdown`` (the challenges and "my own
goal"), ``own_measure``, ``direction``, ``target_input``, ``allowed``, ``find_button``,
``proposals_html``. It opens with the reference deck's map shipped with the package.
:func:`attach_explorer` adds it to the workshop's tabs (the one hook in ``ab_experiment``).
"""

from __future__ import annotations

import time
from html import escape

import ipywidgets as W

from .. import i18n
from ..workshop import challenges as chmod
from ..workshop.cli_goals import allowed_knobs
from ..workshop.explorer import MEASURES, map_iter, reference_map
from ..workshop.explorer_games import Settings
from ..workshop.explorer_words import et, measure_name, no_proposal_lines, proposal_lines
from ..workshop.goals import Goal, check_iter, goal_of_challenge, search_iter
from .background import drive
from .common import App, safe, set_options
from .labels import label_all, no_null_tooltips
from .figures import show_figure
from .inputs import checked_int
from .moves import bot_label

__all__ = ["ExplorerPanel", "attach_explorer"]

OWN = "own"
KIND_KEYS = ("room", "heal", "lock", "lord")
BUTTON = {"height": "44px", "width": "auto"}


class ExplorerPanel(App):
    css_class = "dg-explorer"
    # the controls' words (strings: explorer.<key>), given again when the language changes
    LABELS = {"measure_dropdown": "measure_choice", "deck_dropdown": "deck_choice", "games_input": "games",
              "run_button": "run", "stop_button": "stop", "goal_dropdown": "goal_choice",
              "own_measure": "measure_choice", "target_input": "goal_target", "allowed": "allowed",
              "find_button": "find", "run_button.tooltip": "run_tip", "stop_button.tooltip": "stop_tip",
              "find_button.tooltip": "find_tip"}

    def __init__(self, session=None, games: int = 2000, **kwargs):
        super().__init__(**kwargs)
        self.session = session
        self.map, self.shipped = reference_map(), True
        self.knobs = None  # the knobs a deck's map turns (None: every knob)
        self.check_games = (200, 2000)  # a proposal's check on fresh seeds: pilot, at most
        self.bar = self.grid = self.search_result = self.goal = None
        self._stop = False
        self._progress_words = None  # (strings key, done, total) of the progress line
        self.intro = W.HTML()
        self.measure_dropdown = W.Dropdown(layout=W.Layout(width="auto", height="44px")).add_class("dg-explorer-measure")
        self.chart_output = W.Output().add_class("dg-explorer-chart")
        self.grid_output = W.Output().add_class("dg-explorer-grid")
        self.grid_note = W.HTML()
        self.source_html = W.HTML().add_class("dg-explorer-source")
        self.deck_dropdown = W.Dropdown(layout=W.Layout(width="auto", height="44px"))
        self.games_input = W.IntText(value=games, layout=W.Layout(width="220px", height="44px"))
        self.run_button = W.Button(button_style="primary", layout=W.Layout(**BUTTON)).add_class("dg-explorer-run")
        self.stop_button = W.Button(button_style="warning", icon="stop", disabled=True,
                                    layout=W.Layout(**BUTTON)).add_class("dg-explorer-stop")
        self.progress = W.IntProgress(value=0, min=0, max=1, layout=W.Layout(width="240px"))
        self.progress_html = W.HTML().add_class("dg-explorer-progress-text")
        self._build_goal_widgets()
        self.measure_dropdown.observe(self._on_measure, "value")
        self.run_button.on_click(self._on_run)
        self.stop_button.on_click(self._on_stop)
        self.children = [self.language_toggle, self.intro, self.source_html, self.measure_dropdown, self.chart_output,
                         W.HBox([self.deck_dropdown, self.games_input, self.run_button, self.stop_button],
                                layout=W.Layout(flex_flow="row wrap")),
                         W.HBox([self.progress, self.progress_html], layout=W.Layout(flex_flow="row wrap")),
                         self.message, self.goal_box, self.grid_note, self.grid_output]
        if session is not None:
            session.observe(lambda _c: self.relabel(), "decks")
        self.relabel()
        no_null_tooltips(self)
        if "start_advantage" in self.map.measures():
            self.measure_dropdown.value = "start_advantage"  # the first question
        self.refresh()

    def _build_goal_widgets(self) -> None:
        self.goal_title = W.HTML()
        self.goal_dropdown = W.Dropdown(layout=W.Layout(width="auto", height="44px")).add_class("dg-explorer-goal")
        self.own_measure = W.Dropdown(layout=W.Layout(width="auto", height="44px")).add_class("dg-explorer-own-measure")
        self.direction = W.ToggleButtons(style={"button_width": "auto"}, layout=W.Layout(height="auto")).add_class(
            "dg-explorer-direction")
        self.target_input = W.Text(layout=W.Layout(width="200px", height="44px")).add_class("dg-explorer-target")
        self.allowed = W.SelectMultiple(rows=4, layout=W.Layout(width="auto")).add_class("dg-explorer-allowed")
        self.find_button = W.Button(button_style="success", layout=W.Layout(**BUTTON)).add_class("dg-explorer-find")
        self.proposals_html = W.HTML().add_class("dg-explorer-proposals")
        self.own_box = W.HBox([self.own_measure, self.direction, self.target_input, self.allowed],
                              layout=W.Layout(flex_flow="row wrap"))
        self.goal_dropdown.observe(lambda _c: self._show_own(), "value")
        self.find_button.on_click(self._on_find)
        self.goal_box = W.VBox([self.goal_title, self.goal_dropdown, self.own_box, self.find_button,
                                self.proposals_html])

    # ------------------------------------------------------------------ words
    def relabel(self) -> None:
        L = self.lang
        self.intro.value = f"<h3>{escape(et('tab_title', L))}</h3><p>{escape(et('intro', L))}</p>"
        self.grid_note.value = f"<h3>{escape(et('grid_short', L))}</h3><p>{escape(et('grid_title', L))}</p>"
        set_options(self.measure_dropdown, [(measure_name(m, L), m) for m in self.map.measures()])
        decks = list(self.session.decks) if self.session is not None else ["reference"]
        from ..workshop.deck_edit import shown_deck_name

        set_options(self.deck_dropdown, [(shown_deck_name(d, L), d) for d in decks])
        for w in (self.measure_dropdown, self.deck_dropdown, self.games_input, self.goal_dropdown, self.own_measure,
                  self.target_input, self.allowed):
            w.style = {"description_width": "initial"}
        label_all(self, self.LABELS, lambda key: et(key, L))
        self._relabel_goal(L)
        self._show_source()
        self._show_progress()

    def _relabel_goal(self, L: str) -> None:
        self.goal_title.value = f"<h3>{escape(et('goal_title', L))}</h3><p>{escape(et('goal_intro', L))}</p>"
        set_options(self.goal_dropdown, [(et("goal_own", L), OWN)] + [(c.words("title", L), c.id) for c in chmod.load()])
        set_options(self.own_measure, [(measure_name(m, L), m) for m in self.map.measures()])
        old = self.direction.value
        self.direction.options = [(i18n_goal(L, "at_least"), "at_least"), (i18n_goal(L, "at_most"), "at_most")]
        self.direction.value = old or "at_least"
        self.target_input.placeholder = "+0.02"
        kept = set(self.allowed.value)
        self.allowed.options = [(et(f"allowed_{'cards' if k == 'room' else k + ('s' if k == 'lord' else '')}", L), k)
                                for k in KIND_KEYS]
        self.allowed.value = tuple(k for k in KIND_KEYS if k in kept)
        self._show_own()
        self._show_proposals()

    def _show_own(self) -> None:
        self.own_box.layout.display = None if self.goal_dropdown.value == OWN else "none"

    def _show_source(self) -> None:
        from ..workshop.deck_edit import shown_deck_name

        m, L = self.map, self.lang
        bots = i18n.join_list((bot_label(b, L) for b in m.settings["bots"]), L)
        key = "shipped" if self.shipped else "computed"
        deck = "" if self.shipped else shown_deck_name(self.deck_dropdown.value, L)  # not its id ("reference")
        self.source_html.value = (f'<p class="dg-note">{escape(et(key, L, versions=m.meta["versions"], games=m.games, seed=m.seed, bots=bots, deck=deck))}</p>')

    # ------------------------------------------------------------------ figures
    def refresh(self) -> None:
        from ..viz.explorer import bar_figure, grid_figure

        measure = self.measure_dropdown.value or self.map.measures()[0]
        self.bar = bar_figure(self.map, measure, self.lang)
        self.grid = grid_figure(self.map, self.lang)
        show_figure(self.chart_output, self.bar)
        show_figure(self.grid_output, self.grid)

    @safe
    def _on_measure(self, _change) -> None:
        from ..viz.explorer import bar_figure

        if self.measure_dropdown.value:
            self.bar = bar_figure(self.map, self.measure_dropdown.value, self.lang)
            show_figure(self.chart_output, self.bar)

    # ------------------------------------------------------------------ the map in the background
    @safe
    def _on_run(self, _button=None) -> None:
        games = checked_int(self.games_input, 50, 5000, "explorer.games")
        deck = self.session.decks.get(self.deck_dropdown.value) if self.session is not None else None
        self.task = drive(self, self._map_steps(deck, games), "ExplorerPanel.map")

    @safe
    def _on_stop(self, _button=None) -> None:
        self._stop = True
        self.stop_button.disabled = True

    def _start(self, total_words: str) -> None:
        self._stop = False
        self.progress.value, self.progress.bar_style = 0, "info"
        self.run_button.disabled = self.find_button.disabled = True
        self.stop_button.disabled = False
        self.say(total_words, "info")

    def _end(self) -> None:
        self.run_button.disabled = self.find_button.disabled = False
        self.stop_button.disabled = True

    def _step(self, done: int, total: int, key: str = "progress") -> None:
        self.progress.max, self.progress.value = max(1, total), done
        self._progress_words = (key, done, total)
        self._show_progress()

    def _finished(self, key: str) -> None:
        """The bar full and green, and the line under it saying the run is over (not the last
        "3600 of 3600 games played", which reads as if it were still running)."""
        self.progress.value, self.progress.bar_style = self.progress.max, "success"
        total = self._progress_words[2] if self._progress_words is not None else 0
        self._progress_words = (key, total, total)
        self._show_progress()

    def _show_progress(self) -> None:
        """The progress line in the current language (kept after a run: a language switch
        rewrites it rather than leave it in the language it was written in)."""
        if self._progress_words is not None:
            key, done, total = self._progress_words
            self.progress_html.value = escape(et(key, self.lang, done=done, total=total))

    def _map_steps(self, deck, games: int):
        """The map as a generator: one step a chunk of games (:func:`.background.drive`)."""
        t0 = time.perf_counter()
        run = map_iter(deck, Settings(), games=games, seed=1, knobs=self.knobs, chunk=max(25, games // 8))
        self._start(et("running", self.lang, versions="…", games=games))
        try:
            while True:
                try:
                    done, total = next(run)
                except StopIteration as end:
                    new = end.value
                    break
                self._step(done, total)
                if self._stop:
                    run.close()
                    self.progress.bar_style = "warning"
                    self.say(lambda: et("stopped", self.lang), "warn")
                    return
                yield done
        finally:
            self._end()
        self.map, self.shipped = new, False
        self._finished("progress_done")
        seconds = f"{time.perf_counter() - t0:.0f}"
        self.say(lambda: et("done", self.lang, versions=new.meta["versions"], games=games, seconds=seconds), "ok")
        self.relabel()
        self.refresh()

    # ------------------------------------------------------------------ the goal search
    def current_goal(self) -> Goal:
        """The goal the inputs describe (a refusal, ValueError, for a target that is no number)."""
        if self.goal_dropdown.value != OWN:
            ch = next(c for c in chmod.load() if c.id == self.goal_dropdown.value)
            return goal_of_challenge(ch)
        try:
            target = float(self.target_input.value.replace("−", "-").replace("%", "").strip())
        except ValueError:
            raise ValueError(et("target_invalid", self.lang)) from None
        m, measure = self.map, self.own_measure.value
        settings = Settings.from_dict(m.settings)
        deck = m.deck_object()
        knobs = allowed_knobs(",".join(self.allowed.value), deck, settings.pool())
        reach = max((abs(c["high"] - c["low"]) / 2 for c in m.cells if c["measure"] == measure), default=0.01)
        return Goal(measure, "change", self.direction.value, target, margin=reach / 2, unit=MEASURES[measure],
                    knobs=knobs, settings=settings, deck=deck, search_games=min(m.games, 1000),
                    min_games=self.check_games[0], max_games=self.check_games[1], seed=int(m.seed) + 1,
                    fresh_seed=int(m.seed) + 1_000_001)

    @safe
    def _on_find(self, _button=None) -> None:
        goal = self.current_goal()
        self.task = drive(self, self._search_steps(goal), "ExplorerPanel.search")

    def _search_steps(self, goal: Goal, checks: int = 2):
        self.goal, self.search_result = goal, None
        self._start(et("searching", self.lang, done=0, total="…"))
        try:
            result = yield from self._follow(search_iter(goal, known=self.map), "searching")
            if result is None:
                return
            self.goal = goal = result.goal  # on the map's seeds when the map gave the single knobs
            for p in result.proposals[:checks]:
                if (yield from self._follow(check_iter(goal, p), "checking")) is None:
                    return
            self.search_result = result
        finally:
            self._end()
        self._finished("search_done")
        self._show_proposals()
        self.say("", "info")

    def _follow(self, gen, key: str):
        """Step a generator of ``(done, total)``, showing progress; None if stopped."""
        while True:
            try:
                done, total = next(gen)
            except StopIteration as end:
                return end.value
            self._step(done, total, key)
            if self._stop:
                gen.close()
                self.progress.bar_style = "warning"
                return None
            yield done

    def _show_proposals(self) -> None:
        r, L = self.search_result, self.lang
        if r is None:
            self.proposals_html.value = ""
            return
        if not r.proposals:
            self.proposals_html.value = "".join(f"<p>{escape(x)}</p>" for x in no_proposal_lines(self.goal, r, L))
            return
        items = "".join("<li>" + "<br>".join(escape(x) for x in proposal_lines(self.goal, p, L)) + "</li>"
                        for p in r.proposals if p.check is not None)
        self.proposals_html.value = f"<p>{escape(et('proposals', L))}</p><ol>{items}</ol>"


def i18n_goal(lang: str, goal: str) -> str:
    return i18n.t(f"challenge.goal_{goal}", lang)


def attach_explorer(workshop) -> None:
    """Add the explorer as the workshop's last tab (``workshop.explorer``), titled in its
    language; built when the tab is first opened, so the workshop opens as fast as before."""
    workshop.explorer = None
    workshop.children = list(workshop.children) + [W.VBox()]

    def titles(_change=None) -> None:
        workshop.titles = tuple(workshop.titles[:len(workshop.children) - 1]) + (et("tab_title", workshop.lang_state.lang),)

    def opened(change) -> None:
        if change["new"] == len(workshop.children) - 1 and workshop.explorer is None:
            workshop.explorer = ExplorerPanel(session=workshop.session, lang_state=workshop.lang_state,
                                              show_language=False)
            workshop.children = list(workshop.children[:-1]) + [workshop.explorer]

    titles()
    workshop.lang_state.observe(titles, "lang")
    workshop.observe(opened, "selected_index")
