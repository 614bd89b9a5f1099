"""LabPanel: balance experiments — many bot games, then the balance metrics with 95 % intervals.

Choose the players, a bot for each seat, one rules option (the *variant*), the number of games
and the seed, then *Run*. The games are played in the kernel a chunk at a time
(:class:`dungeon_guilds.analysis.simulate.ChunkedRun`, the simulator's own games; each chunk
about 0.2 s), as an asyncio task that gives the kernel a turn between chunks
(:mod:`.background`): an ``IntProgress`` bar moves after each chunk, the page stays
responsive, and *Stop* ends the run after the chunk being played (the numbers are then those
of the games played: an exact run of that many games). No pandas or numpy is needed: the
static site (Pyodide) runs the same code. The results
come from :mod:`dungeon_guilds.analysis.intervals` (standard library only, coverage measured:
``docs/metrics.md``): the win rate of each seat (Wilson 95 % interval), the mean final gold of
each seat (Student t), the balance (``1 − (best seat − worst seat)``, a test inverted with the
range's error simulated: the interval always contains the estimate) and the start player's rate,
shown as sentences (:mod:`~dungeon_guilds.analysis.verdicts`: each seat against its fair share,
Holm's correction named in plain words, the precise terms one click away), an HTML table and a
plotly chart (win rate and gold per seat, with error bars). A measure with too few games for
its interval says so instead of showing one. Before a run, a :class:`~.plan.PlanBox` says how
many games it takes to see a difference of a chosen size and offers that number.

With *rotate seats* on (the default, as in ``simulate``), game ``g`` shifts the line-up by ``g``
seats, so each bot sits in each seat equally often: the seat rates then measure the seats, and
the table by bot measures the strategies. Same seed, same settings → the same numbers.

Headless use (tests, scripts)::

    lab = LabPanel(players=3, games=60)
    lab.run_button.click()    # no event loop here: the run happens now
    lab.result.games          # the simulate() tables (pandas, where installed)
    lab.seat_rows             # the per-seat metrics (dicts; ``seat_table``: a pandas DataFrame)
"""

from __future__ import annotations

import math
import time
from html import escape
from typing import Sequence

import ipywidgets as W

from .. import i18n
from ..game import DEFAULT_NAMES
from ..rules import Rules
from .background import drive
from .common import App, safe, set_options
from .figures import show_figure
from .inputs import SEED_MAX, checked_int
from .labels import Words, label_all
from .moves import bot_label
from .plan import PlanBox

# The bots offered: every analysis bot except the tree search (seconds per game: too slow for a
# classroom run of hundreds of games; use ``dungeon-guilds simulate`` for it).
SLOW_BOTS = ("mcts", "judge")  # tree search, and the judge's play-outs: too slow for thousands of games
DEFAULT_BOT = "greedy"
DEFAULT_GAMES = 200
MIN_GAMES, MAX_GAMES, GAMES_STEP = 10, 20000, 10
PROGRESS_STEPS = 40  # about this many progress updates per run

# The one rules knob: a named variant -> the Rules it plays.
VARIANTS: dict[str, Rules] = {
    "base": Rules(),
    "no_lords": Rules(lords="none"),
    "all_lords": Rules(lords="all"),
    "npc": Rules(npc=True),
    "fr": Rules(edition="fr"),
}


def text(key: str, lang: str, **values) -> str:
    """A label of the Lab (``[lab]`` in ``dungeon_guilds/strings/<lang>.toml``)."""
    return i18n.t(key, lang, **values)


def lab_bots() -> list[str]:
    """The bots the Lab offers (``analysis.bots.BOTS`` without the slow tree search)."""
    from ..analysis.bots import BOTS

    return [b for b in BOTS if b not in SLOW_BOTS]


class LabPanel(App):
    """Main sub-widgets: ``players_dropdown``, ``seat_dropdowns`` (one bot per seat),
    ``variant_dropdown`` (the rules option, see ``VARIANTS``), ``games_input``, ``seed_input``,
    ``rotate_checkbox``, ``run_button``, ``progress`` (an ``IntProgress``), ``progress_html``,
    ``summary_html`` (balance, start player, length), ``table_html`` (per seat and per bot),
    ``chart_output`` (``figure`` is the figure last drawn), ``stop_button`` (enabled while a run
    plays), ``message``, ``language_toggle``. After a run: ``result`` (the
    :class:`~dungeon_guilds.analysis.simulate.SimResult`), ``seat_rows`` and ``bot_rows``
    (lists of dicts; ``seat_table`` / ``bot_table``: the same as pandas DataFrames), ``stats``
    (a dict of the headline numbers) and ``progress_log`` (the ``(done, total)`` pair after
    each chunk); ``task`` is the asyncio task of a run started by the button in a kernel."""

    css_class = "dg-lab"
    # every control's words (labels.py)
    LABELS = {"players_dropdown": "ui.players", "variant_dropdown": "lab.variant",
              "games_input": Words("lab.games", range=(MIN_GAMES, MAX_GAMES)),
              "seed_input": Words("ui.seed", range=(0, SEED_MAX)), "rotate_checkbox": "lab.rotate",
              "run_button": "lab.run", "stop_button": "lab.stop"}

    def __init__(self, players: int = 4, bots: Sequence[str] | str | None = None,
                 variant: str = "base", games: int = DEFAULT_GAMES, seed: int = 0,
                 rotate: bool = True, lang: str = "en", lang_state=None,
                 show_language: bool = True):
        super().__init__(lang=lang, lang_state=lang_state, show_language=show_language)
        self.result = None
        self.seat_rows: list[dict] | None = None
        self.bot_rows: list[dict] | None = None
        self.task = None
        self._stop = False
        self.stats: dict[str, float] = {}
        self.figure = None
        self.progress_log: list[tuple[int, int]] = []
        self._seconds = 0.0
        self.intro_html = W.HTML().add_class("dg-lab-intro")
        self.players_dropdown = W.Dropdown(options=[3, 4, 5, 6], value=players).add_class("dg-players")
        self.seats_box = W.HBox(layout=W.Layout(flex_flow="row wrap")).add_class("dg-lab-seats")
        self.seat_dropdowns: list[W.Dropdown] = []
        self.variant_dropdown = W.Dropdown(options=[(v, v) for v in VARIANTS], value=variant,
                                           layout=W.Layout(width="330px")).add_class("dg-lab-variant")
        # plain IntText (not Bounded): a value out of range is refused with a message, never
        # silently moved into range
        self.games_input = W.IntText(value=games, step=GAMES_STEP,
                                     layout=W.Layout(width="230px")).add_class("dg-lab-games")
        self.seed_input = W.IntText(value=seed, layout=W.Layout(width="250px")).add_class("dg-seed")
        self.rotate_checkbox = W.Checkbox(value=rotate, indent=False).add_class("dg-lab-rotate")
        self.run_button = W.Button(button_style="primary", icon="play").add_class("dg-lab-run")
        self.stop_button = W.Button(button_style="warning", icon="stop", disabled=True).add_class("dg-lab-stop")
        self.progress = W.IntProgress(value=0, min=0, max=games, bar_style="info",
                                      layout=W.Layout(width="360px")).add_class("dg-lab-progress")
        self.progress_html = W.HTML().add_class("dg-lab-progress-text")
        self.summary_html = W.HTML().add_class("dg-lab-summary")
        self.table_html = W.HTML().add_class("dg-lab-table")
        self.chart_output = W.Output().add_class("dg-lab-chart")
        self.plan = PlanBox("lab", lambda: int(self.players_dropdown.value), self.games_input, GAMES_STEP,
                            MAX_GAMES, self.lang)
        self.players_dropdown.observe(self._on_players, "value")
        self.run_button.on_click(self._on_run)
        self.stop_button.on_click(self._on_stop)
        if isinstance(bots, str):
            bots = [bots] * players
        self._make_seats(players, bots)
        self.children = [
            self.language_toggle, self.intro_html,
            W.HBox([self.players_dropdown, self.variant_dropdown]),
            self.seats_box, self.plan,
            W.HBox([self.games_input, self.seed_input, self.rotate_checkbox, self.run_button, self.stop_button]),
            W.HBox([self.progress, self.progress_html]),
            self.message, self.summary_html, self.table_html, self.chart_output,
        ]
        self.relabel()
        self.refresh()

    # ------------------------------------------------------------------ set-up
    def _make_seats(self, n: int, bots: Sequence[str] | None = None) -> None:
        old = [d.value for d in self.seat_dropdowns]
        options = [(bot_label(b, self.lang), b) for b in lab_bots()]
        values = [v for _, v in options]
        default = DEFAULT_BOT if DEFAULT_BOT in values else values[0]
        dropdowns = []
        for i in range(n):
            if bots is not None and i < len(bots):
                value = bots[i]
            elif i < len(old):
                value = old[i]
            else:
                value = default
            if value not in values:
                raise ValueError(f"unknown bot {value!r} for the Lab (choose from {', '.join(values)})")
            d = W.Dropdown(options=options, value=value, layout=W.Layout(width="210px"),
                           style={"description_width": "initial"})
            dropdowns.append(d.add_class("dg-lab-seat").add_class(f"dg-seat-{i}"))
        self.seat_dropdowns = dropdowns
        self.seats_box.children = dropdowns
        self._label_seats()

    def _label_seats(self) -> None:
        options = [(bot_label(b, self.lang), b) for b in lab_bots()]
        for i, d in enumerate(self.seat_dropdowns):
            d.description = f"{i + 1} · {DEFAULT_NAMES[i]}:"
            set_options(d, options)

    @property
    def bots(self) -> list[str]:
        """The bot of each seat (the line-up of game 0)."""
        return [d.value for d in self.seat_dropdowns]

    def rules(self) -> Rules:
        return VARIANTS[self.variant_dropdown.value]

    @safe
    def _on_players(self, change) -> None:
        self._make_seats(int(change["new"]))
        self.plan.update()

    # ------------------------------------------------------------------ running
    @safe
    def _on_run(self, _button=None) -> None:
        settings = self._checked()
        self.task = drive(self, self._steps(*settings), "LabPanel.run")

    @safe
    def _on_stop(self, _button=None) -> None:
        """End the run after the chunk being played (its games are kept)."""
        self._stop = True
        self.stop_button.disabled = True

    def _on_progress(self, done: int, total: int) -> None:
        """After each chunk: move the bar (each change reaches the browser at once)."""
        self.progress_log.append((done, total))
        self.progress.max = max(1, total)
        self.progress.value = done
        self.progress_html.value = escape(text("lab.progress", self.lang, done=done, total=total))

    def run(self):
        """Play the games with the chosen settings now and show the metrics. Returns the result."""
        for _ in self._steps(*self._checked()):
            pass
        return self.result

    def _checked(self) -> tuple[int, int, int, Rules]:
        """(games, seed, players, rules) from the inputs, or a refusal (old results cleared)."""
        try:
            n = checked_int(self.games_input, MIN_GAMES, MAX_GAMES, "lab.games")
            seed = checked_int(self.seed_input, 0, SEED_MAX, "ui.seed")
            players = int(self.players_dropdown.value)
            rules = self.rules()
            rules.check_players(players)  # a refusal (e.g. NPCs with 6 players) is shown, nothing runs
        except ValueError:
            self.clear_results()
            raise
        return n, seed, players, rules

    def _steps(self, n: int, seed: int, players: int, rules: Rules):
        """The run as a generator: one step a chunk of games (:func:`.background.drive`)."""
        from ..analysis.simulate import ChunkedRun

        run = ChunkedRun(n, self.bots, players, seed=seed, rules=rules, rotate=bool(self.rotate_checkbox.value),
                         max_chunk=max(1, math.ceil(n / PROGRESS_STEPS)))
        self._start_run(n)
        t0 = time.perf_counter()
        try:
            while not run.finished and not self._stop:
                run.step()
                self._on_progress(run.done, n)
                yield run.done
        except Exception:
            self.progress.bar_style = "danger"
            raise
        finally:
            self.run_button.disabled = False
            self.stop_button.disabled = True
        self._seconds = time.perf_counter() - t0
        self._finish(run.result(), n)

    def _start_run(self, n: int) -> None:
        self._asked = n
        self.progress_log = []
        self._refused = self._stop = False
        self.progress.bar_style = "info"
        self.progress.max = n
        self.progress.value = 0
        self.progress_html.value = escape(text("lab.progress", self.lang, done=0, total=n))
        self.say(lambda: text("lab.running", self.lang, games=n), "info")
        self.run_button.disabled = True
        self.stop_button.disabled = False

    def _finish(self, result, asked: int) -> None:
        """Show the games played (all of them, or those before Stop)."""
        self.result = result
        self._compute()
        done, seconds = result.n_games, self._seconds
        self.progress.bar_style = "success" if done == asked else "warning"
        self.refresh()
        rate = done / seconds if seconds else float("inf")
        if done == asked:
            self.say(lambda: text("lab.done", self.lang, games=done, seconds=seconds, rate=rate), "ok")
        else:
            self.say(lambda: text("lab.stopped", self.lang, games=done, total=asked, seconds=seconds,
                                  rate=rate), "ok")

    def clear_results(self) -> None:
        """Take the last results off the screen (after a refused run: old numbers must not
        pass for new ones); the summary says why."""
        self.result = None
        self.seat_rows = self.bot_rows = self.figure = None
        self.stats = {}
        self.progress_log = []
        self.progress.value = 0
        self.progress.bar_style = "danger"
        self.progress_html.value = ""
        self._refused = True
        self.refresh()

    def _compute(self) -> None:
        """The measures of the last result with their intervals (numbers only; drawing is in
        :meth:`refresh`): :mod:`~dungeon_guilds.analysis.intervals` on the per-game results
        (standard library only)."""
        from ..analysis import intervals as iv
        from ..analysis.per_game import per_game

        per = self.per_game = per_game(self.result)
        players = int(self.result.meta["players"])
        rows = []
        for seat in range(players):
            w, g = iv.estimate(per, "win_rate", seat), iv.estimate(per, "gold", seat)
            rows.append({"seat": seat, "n": w.n, "win_rate": w.value, "win_low": w.low, "win_high": w.high,
                         "gold_mean": g.value, "gold_low": g.low, "gold_high": g.high, "fair": 1.0 / players,
                         "enough": w.enough and g.enough})
        self.seat_rows = rows
        self.bot_rows = [self._bot_row(per, bot, players) for bot in sorted({b for g in per for b in g["bots"]})]
        bal, length = iv.estimate(per, "balance"), iv.estimate(per, "length")
        first = rows[0]
        self.stats = {"balance": bal.value, "balance_low": bal.low, "balance_high": bal.high,
                      "balance_enough": bal.enough, "first_rate": first["win_rate"], "first_low": first["win_low"],
                      "first_high": first["win_high"], "fair": 1.0 / players, "length": length.value,
                      "games": self.result.n_games,
                      "games_per_second": self.result.games_per_second}

    @property
    def seat_table(self):
        """The per-seat rows as a pandas DataFrame (None before a run)."""
        return None if self.seat_rows is None else _frame(self.seat_rows)

    @property
    def bot_table(self):
        """The per-bot rows as a pandas DataFrame (None before a run)."""
        return None if self.bot_rows is None else _frame(self.bot_rows)

    @staticmethod
    def _bot_row(per, bot: str, players: int) -> dict:
        from ..analysis import intervals as iv

        w = iv.estimate(per, "bot_win_rate", bot)
        gold, lo, hi = iv.t_interval([g["gold"][s] for g in per for s, b in enumerate(g["bots"]) if b == bot])
        seats = sum(1 for g in per for b in g["bots"] if b == bot)
        return {"bot": bot, "n": seats, "win_rate": w.value, "win_low": w.low, "win_high": w.high,
                "gold_mean": gold, "gold_low": lo, "gold_high": hi, "fair": 1.0 / players,
                "enough": w.enough and seats >= iv.min_games("gold")}

    # ------------------------------------------------------------------ drawing
    def relabel(self) -> None:
        lang = self.lang
        self.intro_html.value = f'<p class="dg-note">{escape(text("lab.intro", lang))}</p>'
        set_options(self.variant_dropdown, [(text(f"lab.variant_{v}", lang), v) for v in VARIANTS])
        label_all(self, self.LABELS, lambda key: text(key, lang))
        for w in (self.players_dropdown, self.variant_dropdown, self.games_input, self.seed_input):
            w.style = {"description_width": "initial"}
        self._label_seats()
        self.plan.relabel(lang)
        if self.result is None:
            self.progress_html.value = ""

    def refresh(self) -> None:
        """Draw the last result's tables and chart in the current language."""
        lang = self.lang
        if self.result is None:
            key = "lab.refused_results" if getattr(self, "_refused", False) else "lab.no_results"
            self.summary_html.value = f'<p class="dg-note dg-lab-empty">{escape(text(key, lang))}</p>'
            self.table_html.value = ""
            self.chart_output.outputs = ()
            return
        done = self.result.n_games
        total = getattr(self, "_asked", done)
        self.progress_html.value = escape(text("lab.progress", lang, done=done, total=total))
        self.summary_html.value = self._summary_html()
        self.table_html.value = self._tables_html()
        self.figure = self._figure()
        show_figure(self.chart_output, self.figure)

    def _summary_html(self) -> str:
        """The headline numbers and a sentence a seat, in plain words; the precise terms in a
        ``details`` one click away."""
        from ..analysis import intervals as iv
        from ..analysis.verdicts import fmt, seat_sentences, words

        lang, s = self.lang, self.stats
        players = int(self.result.meta["players"])
        if s["balance_enough"]:
            balance = words("balance_line", lang, value=fmt(s["balance"], "index", lang),
                            lo=fmt(s["balance_low"], "index", lang), hi=fmt(s["balance_high"], "index", lang))
        else:
            balance = words("balance_too_few", lang, value=fmt(s["balance"], "index", lang),
                            min=iv.min_games("balance"))
        first = self.seat_rows[0]
        start = (words("start_player", lang, rate=fmt(s["first_rate"], "rate", lang),
                       lo=fmt(s["first_low"], "rate", lang), hi=fmt(s["first_high"], "rate", lang),
                       fair=fmt(s["fair"], "rate", lang)) if first["enough"] else None)
        lines = [x for x in (balance, start, text("lab.length", lang, mean=s["length"])) if x]
        seats = seat_sentences(self.per_game, s["fair"], lang)
        items = "".join(f"<li>{escape(x)}</li>" for x in lines)
        seat_items = "".join(f'<li class="dg-lab-seat-verdict">{escape(x)}</li>' for x in seats)
        precise = words("precise_lab", lang, m=players)
        family = (f'<p class="dg-lab-family">{escape(words("family", lang, m=players))}</p>'
                  if any(r["enough"] for r in self.seat_rows) else "")  # nothing was tested with too few games
        return (f'<ul class="dg-lab-stats" data-balance="{s["balance"]:.6f}" '
                f'data-games-per-second="{s["games_per_second"]:.1f}">{items}</ul>'
                f'<ul class="dg-lab-verdicts">{seat_items}</ul>{family}'
                f'<details class="dg-how-sure"><summary>{escape(words("how_sure", lang))}</summary>'
                f"<small>{escape(precise)}</small></details>")

    def _tables_html(self) -> str:
        lang = self.lang
        rotate = bool(self.result.meta.get("rotate", True))
        lineup = list(self.result.meta["bots"])
        players = int(self.result.meta["players"])
        if len(lineup) == 1:
            lineup = lineup * players
        head = "".join(f"<th>{escape(text(k, lang))}</th>" for k in (
            "lab.seat", "lab.bot", "lab.win_rate", "lab.fair", "lab.mean_gold"))
        rows = []
        for r in map(_Row, self.seat_rows):
            seat = int(r.seat)
            if rotate and len(set(lineup)) > 1:
                bot = text("lab.rotating", lang)
            else:
                bot = bot_label(lineup[seat], lang)
            rows.append(
                f'<tr class="dg-lab-row" data-seat="{seat}" data-win="{r.win_rate:.6f}" '
                f'data-gold="{r.gold_mean:.6f}"><td>{seat + 1} · {escape(DEFAULT_NAMES[seat])}</td>'
                f"<td>{escape(bot)}</td><td>{self._cells(r)[0]}</td>"
                f"<td>{r.fair:.1%}</td><td>{self._cells(r)[1]}</td></tr>")
        out = [f'<h4>{escape(text("lab.by_seat", lang))}</h4>'
               f'<table class="dg-lab-seats-table"><tr>{head}</tr>{"".join(rows)}</table>']
        if len(self.bot_rows) > 1:
            head = "".join(f"<th>{escape(text(k, lang))}</th>" for k in (
                "lab.bot", "lab.seats_played", "lab.win_rate", "lab.fair", "lab.mean_gold"))
            rows = [f'<tr class="dg-lab-bot-row" data-bot="{escape(str(r.bot))}">'
                    f"<td>{escape(bot_label(str(r.bot), lang))}</td>"
                    f"<td>{int(r.n)}</td><td>{self._cells(r)[0]}</td>"
                    f"<td>{r.fair:.1%}</td><td>{self._cells(r)[1]}</td></tr>"
                    for r in map(_Row, self.bot_rows)]
            out.append(f'<h4>{escape(text("lab.by_bot", lang))}</h4>'
                       f'<table class="dg-lab-bots-table"><tr>{head}</tr>{"".join(rows)}</table>')
        style = ("<style>.dg-lab table{border-collapse:collapse;font-size:13px}"
                 ".dg-lab th,.dg-lab td{border-bottom:1px solid #ddd;padding:2px 8px;text-align:left}"
                 ".dg-lab th{background:#f4f4f4;word-break:keep-all}</style>")
        return style + "".join(out)

    def _cells(self, r) -> tuple[str, str]:
        """A row's win rate and gold with their intervals, or "too few games" instead."""
        if not r.enough:
            few = f'<span class="dg-too-few">{escape(text("stats.too_few_games", self.lang))}</span>'
            return (f"{r.win_rate:.1%} · {few}", f"{r.gold_mean:.2f} · {few}")
        return (f"{r.win_rate:.1%} ({r.win_low:.1%}–{r.win_high:.1%})",
                f"{r.gold_mean:.2f} ({r.gold_low:.2f}–{r.gold_high:.2f})")

    def _figure(self):
        import plotly.graph_objects as go
        from plotly.subplots import make_subplots

        from ..drawing.colours import colour

        lang, rows = self.lang, self.seat_rows
        nan = float("nan")

        def bars(key: str, low: str, high: str) -> dict:  # no error bar with too few games (NaN)
            return dict(type="data", symmetric=False,
                        array=[r[high] - r[key] if r["enough"] else nan for r in rows],
                        arrayminus=[r[key] - r[low] if r["enough"] else nan for r in rows])

        names = [f"{r['seat'] + 1} · {DEFAULT_NAMES[r['seat']]}" for r in rows]
        colours = [colour(r["seat"]) for r in rows]
        fair = float(rows[0]["fair"])
        # the fair share is named under the title, not beside its line: a label on the line sat
        # on the bars (issue 40, "公平比例 25%")
        win_title = (f"{text('lab.chart_win', lang)}<br><span style='font-size:11px'>"
                     f"{text('lab.chart_fair', lang, fair=f'{fair:.0%}')}</span>")
        fig = make_subplots(rows=1, cols=2, subplot_titles=(win_title, text("lab.chart_gold", lang)))
        fig.add_trace(go.Bar(
            x=names, y=[r["win_rate"] for r in rows], marker_color=colours, name=text("lab.win_rate", lang),
            error_y=bars("win_rate", "win_low", "win_high"),
            hovertemplate="%{x}: %{y:.1%}<extra></extra>"), row=1, col=1)
        fig.add_hline(y=fair, line_dash="dash", line_color="#555", row=1, col=1)
        fig.add_trace(go.Bar(
            x=names, y=[r["gold_mean"] for r in rows], marker_color=colours, name=text("lab.mean_gold", lang),
            error_y=bars("gold_mean", "gold_low", "gold_high"),
            hovertemplate="%{x}: %{y:.2f}<extra></extra>"), row=1, col=2)
        fig.update_yaxes(tickformat=".0%", rangemode="tozero", row=1, col=1)
        fig.update_yaxes(rangemode="tozero", row=1, col=2)
        fig.update_layout(showlegend=False, height=350, margin=dict(l=40, r=20, t=60, b=40),
                          template="plotly_white")
        return fig


class _Row:
    """A row dict read by attribute (``r.win_rate``), as the tables' cells read it."""

    def __init__(self, row: dict):
        self.__dict__.update(row)


def _frame(rows: list[dict]):
    """Rows as a pandas DataFrame (for notebooks and tests; pandas needed only here)."""
    from ..extras import require

    require("LabPanel.seat_table / bot_table", "analysis", "pandas")
    import pandas as pd

    return pd.DataFrame(rows)


__all__ = ["DEFAULT_GAMES", "LabPanel", "VARIANTS", "lab_bots", "text"]
