"""Predict, then check (issue 38, item 5): a guess first, the measured figure after.

``PredictCheck(question, guess, reveal)``: the question, the student's guess (a slider or a
choice), a *Check* button and, once pressed, what ``reveal(guess)`` says — the measured figure
with its interval beside the guess. Notebook 10 (the strategy lesson) has one a claim; the
figures come from the shipped data (:func:`dungeon_guilds.analysis.strategy_facts.shipped`), so
checking costs nothing. Money in the answer is text, never mathematics
(:func:`~dungeon_guilds.money_html.dollars_as_text`).
"""

from __future__ import annotations

from html import escape
from typing import Any, Callable, Sequence

import ipywidgets as W

from ..money_html import dollars_as_text

__all__ = ["PredictCheck", "choice_guess", "share_guess"]

TAP = "44px"  # the smallest tap target on a phone


def share_guess(description: str = "your guess (%)") -> W.BoundedIntText:
    """A guess of a share, 0–100 %."""
    return W.BoundedIntText(value=50, min=0, max=100, step=1, description=description,
                            style={"description_width": "initial"}, layout=W.Layout(width="min(100%, 260px)", height=TAP))


def choice_guess(options: Sequence[tuple[str, Any]], description: str = "your guess") -> W.Dropdown:
    """A guess among named options (a pair, a room, a seat)."""
    return W.Dropdown(options=list(options), description=description, style={"description_width": "initial"},
                      layout=W.Layout(width="min(100%, 420px)", height=TAP))


class PredictCheck(W.VBox):
    """A question, a guess, a *Check* button and the answer it reveals."""

    def __init__(self, question: str, guess: W.Widget, reveal: Callable[[Any], str], check: str = "Check"):
        self.reveal = reveal
        self.question = W.HTML(f"<p><b>{escape(question)}</b></p>")
        self.guess = guess
        self.button = W.Button(description=check, button_style="info",
                               layout=W.Layout(width="auto", min_width="120px", height=TAP, align_self="flex-start"))
        self.answer = W.HTML()
        self.button.on_click(self.check)
        super().__init__([self.question, guess, self.button, self.answer],
                         layout=W.Layout(border="1px solid #ccc", padding="8px", margin="8px 0"))

    def check(self, _button=None) -> str:
        """Show (and return) what the figures say about the guess."""
        self.answer.value = dollars_as_text(self.reveal(self.guess.value))
        return self.answer.value
