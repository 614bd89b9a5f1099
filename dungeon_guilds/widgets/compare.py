"""The Compare tab: Dungeon Guilds and its sibling games side by side.

``CompareExplorer()`` is an ipywidgets app with four tabs:

1. **Side by side** — pick two games; every fact is shown with its source
   (``seed 004 line 38``, ``RULES.md R4.1`` or ``outside fact``), plus their shared mechanisms
   and the Jaccard similarity.
2. **Dungeon! odds** — the exact hero win chance for every monster number (with a magic sword
   bonus), the counter-attack distribution and the expected treasure lost per failed attack.
3. **Fighter score** — the Dungeon Fighter score calculator with its rating tier, and the eye
   tables of the coloured and white dice.
4. **Lords orders** — the order-contention simulation: how often a chosen order finds no slot,
   by position in the order of play, with a plotly chart.

The widget only calls the rule kernels in ``dungeon_guilds.siblings`` (it never decides a rule).
Every callback catches exceptions and shows a short message in the tab instead of a traceback.
"""

from __future__ import annotations

import html
import logging
from functools import wraps

import ipywidgets as widgets
from IPython import get_ipython
from IPython.display import display

from ..siblings import GAMES, comparison, dungeon, dungeon_fighter, dungeon_lords, graphs

log = logging.getLogger(__name__)

_STYLE = """<style>
.dg-cmp table {border-collapse: collapse; font-size: 0.9em}
.dg-cmp th, .dg-cmp td {border: 1px solid #ddd; padding: 3px 6px; text-align: left; vertical-align: top}
.dg-cmp .src {color: #666; font-size: 0.85em}
.dg-err {color: #a40000; background: #fff0f0; padding: 4px 8px; border-radius: 4px}
</style>"""


def _error(message: str) -> str:
    return f'<div class="dg-err">{html.escape(message)}</div>'


def _friendly(status_attr: str):
    """Decorate a callback: on any exception, show a friendly message in ``self.<status_attr>``
    (never a traceback) and log the details at debug level."""
    def wrap(method):
        @wraps(method)
        def inner(self, *args, **kwargs):
            status = getattr(self, status_attr)
            try:
                status.value = ""
                return method(self, *args, **kwargs)
            except Exception as exc:  # noqa: BLE001 - the user must never see a traceback
                log.debug("CompareExplorer callback failed", exc_info=True)
                reason = str(exc) or type(exc).__name__
                status.value = _error(f"Sorry, that did not work: {reason}. "
                                      "Try other values.")
                return None
        return inner
    return wrap


def _table(df, index: bool = False) -> str:
    return df.to_html(index=index, escape=True, border=0)


class CompareExplorer(widgets.VBox):
    """Pick two games and compare them; explore the siblings' numbers."""

    def __init__(self, game_a: str = "dungeon_guilds", game_b: str = "dungeon", *,
                 lords_years: int = 40, seed: int = 0, **kwargs):
        options = [(f"{name} {zh}", key) for key, (name, zh, _) in GAMES.items()]

        # --- side by side --------------------------------------------------------------------
        self.game_a = widgets.Dropdown(options=options, value=game_a, description="Game A")
        self.game_b = widgets.Dropdown(options=options, value=game_b, description="Game B")
        self.table = widgets.HTML()
        self.compare_status = widgets.HTML()
        side = widgets.VBox([widgets.HBox([self.game_a, self.game_b]), self.compare_status, self.table])

        # --- Dungeon! odds --------------------------------------------------------------------
        self.sword = widgets.IntSlider(value=0, min=0, max=4, description="Sword bonus")
        self.hand = widgets.IntSlider(value=3, min=0, max=12, description="Cards in hand")
        self.odds = widgets.HTML()
        self.odds_status = widgets.HTML()
        odds = widgets.VBox([widgets.HBox([self.sword, self.hand]), self.odds_status, self.odds])

        # --- Fighter score ---------------------------------------------------------------------
        self.difficulty = widgets.Dropdown(options=list(dungeon_fighter.DIFFICULTY_POINTS),
                                           value="normal", description="Difficulty")
        self.boss = widgets.Checkbox(value=True, description="Boss defeated")
        self.survivors = widgets.BoundedIntText(value=4, min=0, max=6, description="Survivors")
        self.dead = widgets.BoundedIntText(value=0, min=0, max=6, description="Dead heroes")
        self.white = widgets.BoundedIntText(value=2, min=0, max=20, description="White dice")
        self.gold = widgets.BoundedIntText(value=7, min=0, max=60, description="Gold")
        self.tokens = widgets.BoundedIntText(value=0, min=0, max=30, description="Damage tokens")
        self.eye_die = widgets.ToggleButtons(options=["coloured", "white"], value="coloured",
                                             description="Eye table")
        self.score = widgets.HTML()
        self.eyes = widgets.HTML()
        self.score_status = widgets.HTML()
        fighter = widgets.VBox([
            widgets.HBox([self.difficulty, self.boss]),
            widgets.HBox([self.survivors, self.dead]),
            widgets.HBox([self.white, self.gold, self.tokens]),
            self.score_status, self.score, self.eye_die, self.eyes])

        # --- Lords orders ----------------------------------------------------------------------
        self.players = widgets.SelectMultiple(options=[2, 3, 4], value=(2, 3, 4), description="Players",
                                              rows=3)
        self.policy = widgets.Dropdown(options=list(dungeon_lords.POLICIES), value="random",
                                       description="Policy")
        self.years = widgets.IntSlider(value=lords_years, min=5, max=500, step=5, description="Years")
        self.sim_seed = widgets.IntText(value=seed, description="Seed")
        self.run = widgets.Button(description="Simulate", button_style="primary")
        self.lords_table = widgets.HTML()
        self.lords_plot = widgets.Output()
        self.lords_status = widgets.HTML()
        self.lords_figure = None
        lords = widgets.VBox([
            widgets.HBox([self.players, widgets.VBox([self.policy, self.years, self.sim_seed, self.run])]),
            self.lords_status, self.lords_table, self.lords_plot])

        self.tabs = widgets.Tab(children=[side, odds, fighter, lords])
        for i, title in enumerate(["Side by side", "Dungeon! odds", "Fighter score", "Lords orders"]):
            self.tabs.set_title(i, title)
        super().__init__([widgets.HTML(_STYLE), self.tabs], **kwargs)
        self.add_class("dg-cmp")

        for w in (self.game_a, self.game_b):
            w.observe(self._on_compare, names="value")
        for w in (self.sword, self.hand):
            w.observe(self._on_odds, names="value")
        for w in (self.difficulty, self.boss, self.survivors, self.dead, self.white, self.gold,
                  self.tokens, self.eye_die):
            w.observe(self._on_score, names="value")
        self.run.on_click(self._on_run)

        self._on_compare()
        self._on_odds()
        self._on_score()
        self._on_run()

    # --- callbacks ---------------------------------------------------------------------------

    @_friendly("compare_status")
    def _on_compare(self, change=None) -> None:
        a, b = self.game_a.value, self.game_b.value
        df = comparison.side_by_side(a, b)
        body = ["<table><tr><th>attribute</th>"]
        names = [GAMES[a][0]] + ([GAMES[b][0]] if b != a else [])
        body += [f"<th>{html.escape(n)}</th>" for n in names]
        body.append("</tr>")
        for _, row in df.iterrows():
            body.append(f"<tr><td>{html.escape(row['attribute'])}</td>")
            for n in names:
                body.append(f"<td>{html.escape(row[n])}<div class='src'>"
                            f"{html.escape(row[f'{n} — sources'])}</div></td>")
            body.append("</tr>")
        body.append("</table>")
        shared = comparison.shared_mechanisms(a, b)
        sim = comparison.jaccard(a, b)
        body.append(f"<p>Shared mechanisms: {html.escape(', '.join(shared) or 'none')}. "
                    f"Jaccard similarity: {sim} ≈ {float(sim):.2f}.</p>")
        self.table.value = "".join(body)

    @_friendly("odds_status")
    def _on_odds(self, change=None) -> None:
        bonus, hand = self.sword.value, self.hand.value
        win = comparison.win_chance_frame(bonus)
        counter = comparison.counter_attack_frame()[["roll", "outcome", "P", "≈", "effect", "source"]]
        lost = dungeon.expected_cards_lost(hand)
        self.odds.value = (
            f"<h4>Hero wins: P(2d6 + {bonus} ≥ needed) — seed 004 lines 60, 99</h4>{_table(win)}"
            f"<h4>Monster's counter-attack — seed 004 lines 66-80</h4>{_table(counter)}"
            f"<p>Holding {hand} treasure cards, a failed attack costs on average "
            f"<b>{lost}</b> ≈ {float(lost):.3f} cards.</p>")

    @_friendly("score_status")
    def _on_score(self, change=None) -> None:
        score = dungeon_fighter.final_score(
            self.difficulty.value, self.boss.value, self.survivors.value, self.dead.value,
            self.white.value, self.gold.value, self.tokens.value)
        rows = "".join(f"<tr><td>{html.escape(k)}</td><td>{v:+d}</td><td class='src'>"
                       f"{dungeon_fighter.SCORE_SOURCES[k]}</td></tr>" for k, v in score.parts)
        tier = score.tier
        self.score.value = (
            f"<table><tr><th>part</th><th>points</th><th>source</th></tr>{rows}"
            f"<tr><th>total</th><th>{score.total}</th><th></th></tr></table>"
            f"<p>Rating: <b>{html.escape(tier.name_zh)}</b> “{html.escape(tier.name)}” "
            f"({tier.label}; <span class='src'>{tier.source}</span>)</p>")
        die = dungeon_fighter.DICE[self.eye_die.value]
        self.eyes.value = (f"<h4>{die.name} dice: {die.eyes} eye face(s) of {die.faces} "
                           f"({die.source})</h4>{_table(comparison.eye_frame(die.name))}")

    @_friendly("lords_status")
    def _on_run(self, button=None) -> None:
        counts = tuple(sorted(self.players.value))
        if not counts:
            raise ValueError("choose at least one player count")
        frame = comparison.contention_frame(counts, years=self.years.value, seed=self.sim_seed.value,
                                            policy=self.policy.value)
        shown = frame.assign(**{"no-slot rate": frame["no-slot rate"].map(lambda r: f"{r:.2%}")})
        exact = []
        for n in counts:
            ex = dungeon_lords.first_card_no_slot_exact(n)
            exact.append(f"{n} players, last position: {ex[n - 1]}")
        self.lords_table.value = (
            f"<p>{self.years.value} years × 4 rounds, policy <i>{html.escape(self.policy.value)}</i>, "
            f"seed {self.sim_seed.value}. Position 1 is the start player (seed 003 line 46).</p>"
            f"{_table(shown)}<p class='src'>Exact chance that the <i>first</i> order card finds no "
            f"slot (random policy): {html.escape('; '.join(exact))}.</p>")
        self.lords_figure = graphs.draw_contention(frame)
        self.lords_plot.clear_output()
        if get_ipython() is not None:  # headless (tests): keep the figure, draw nothing
            with self.lords_plot:
                display(self.lords_figure)
