"""PlanBox: before a run, how many games are needed to see a difference (issue 27).

"To see a 5-point difference between a seat's win rate and its fair share, play about 840
games." — a dropdown chooses the difference (in percentage points), the sentence gives the
number (:func:`dungeon_guilds.analysis.verdicts.plan_games`: 80 % power, 95 % level,
Bonferroni over the seats), and a button puts it into the app's games field. The precise
terms are one click away (a ``details`` element). Used by the Lab (``kind="lab"``: one arm
against the fair share) and the A/B experiment (``kind="ab"``: two arms, games an arm).
"""

from __future__ import annotations

import math
from html import escape
from typing import Callable

import ipywidgets as W

from ..analysis.verdicts import fmt, plan_games, words

DELTAS = (2, 3, 5, 10, 15, 20)  # percentage points


class PlanBox(W.VBox):
    """Sub-widgets: ``delta_dropdown`` (points), ``plan_html`` (the sentence and the precise
    terms), ``use_button`` (puts ``games`` into the games field). ``games`` is the planned
    number (None: more than the field allows)."""

    def __init__(self, kind: str, players: Callable[[], int], games_input: W.IntText, step: int,
                 max_games: int, lang: str = "en", delta: int = 5):
        self.kind = kind
        self._players = players
        self._games_input = games_input
        self._step = step
        self._max = max_games
        self.lang = lang
        self.games: int | None = None
        self.delta_dropdown = W.Dropdown(options=[(str(d), d) for d in DELTAS], value=delta,
                                         layout=W.Layout(width="260px"),
                                         style={"description_width": "initial"}).add_class("dg-plan-delta")
        self.plan_html = W.HTML().add_class("dg-plan-text")
        self.use_button = W.Button(icon="check", layout=W.Layout(width="auto")).add_class("dg-plan-use")
        self.delta_dropdown.observe(lambda _c: self.update(), "value")
        self.use_button.on_click(self._use)
        super().__init__([self.plan_html, W.HBox([self.delta_dropdown, self.use_button])])
        self.add_class("dg-plan")
        self.update()

    def relabel(self, lang: str) -> None:
        self.lang = lang
        self.update()

    def update(self) -> None:
        """Recompute the number for the players and the difference chosen, and say it."""
        lang = self.lang
        players = int(self._players())
        delta = int(self.delta_dropdown.value)
        self.delta_dropdown.description = words("plan_label", lang)
        self.delta_dropdown.options = [(f"{d} {words('plan_unit', lang)}", d) for d in DELTAS]
        self.delta_dropdown.value = delta
        need = plan_games(delta, players, self.kind)
        need = int(math.ceil(need / self._step) * self._step)
        self.games = need if need <= self._max else None
        if self.games is None:
            sentence = words("plan_too_many", lang, max=f"{self._max:,}")
        else:
            sentence = words(f"plan_{self.kind}", lang, delta=delta, games=f"{need:,}")
        precise = words("plan_precise", lang, m=players, fair=fmt(1 / players, "rate", lang))
        self.plan_html.value = (f'<p class="dg-plan-sentence" data-games="{self.games or 0}">{escape(sentence)}</p>'
                                f'<details class="dg-plan-precise"><summary>{escape(words("how_sure", lang))}'
                                f"</summary><small>{escape(precise)}</small></details>")
        self.use_button.description = words("plan_use", lang, games=f"{need:,}")
        self.use_button.disabled = self.games is None

    def _use(self, _button=None) -> None:
        if self.games is not None:
            self._games_input.value = self.games


__all__ = ["DELTAS", "PlanBox"]
