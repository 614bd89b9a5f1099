"""The resolution told room by room in a widget, and a round log that stays after the round ends.

The sentences and the log's HTML are :mod:`dungeon_guilds.drawing.story`'s (widget-free, so that
the class-table server needs no widget library); :class:`RoundStory` shows them with *previous* /
*next* buttons and *Replay the narration* (the whole story shown and said again in the page's
``aria-live`` region, issue 32).
"""

from __future__ import annotations

from html import escape
from typing import Mapping, Sequence  # noqa: F401 - the annotations of RoundStory.show

import ipywidgets as W

from ..drawing.story import _join, _t, log_html, resolution_steps, resolved_rounds, round_log_html
from .common import safe, set_options  # noqa: F401 - safe is used by the buttons
from .labels import label_all


class RoundStory(W.VBox):
    """Step through the latest resolved round, room by room. ``show(log, names, lang)``
    after every change; ``prev_button``, ``next_button``, ``all_button``, ``replay_button``,
    ``text_html``; ``steps`` the sentences, ``index`` the one shown; ``on_step(index)`` is called
    when the student moves to another step (the table then draws that step on the board).
    ``replay_html`` holds, visually hidden, the story the live region says again after *Replay
    the narration* (:meth:`replay`)."""

    LABELS = {"prev_button": "prev", "next_button": "next", "all_button": "all",  # story.* (drawing.story._t)
              "replay_button": "replay", "replay_button.tooltip": "replay_tip"}

    def __init__(self, **kwargs):
        self.title_html = W.HTML().add_class("dg-story-title")
        self.text_html = W.HTML().add_class("dg-story-text")
        self.prev_button = W.Button(icon="arrow-left", layout=W.Layout(width="auto")).add_class("dg-story-prev")
        self.next_button = W.Button(icon="arrow-right", layout=W.Layout(width="auto")).add_class("dg-story-next")
        self.all_button = W.Button(layout=W.Layout(width="auto")).add_class("dg-story-all")
        self.replay_button = W.Button(icon="volume-up", layout=W.Layout(width="auto")).add_class("dg-story-replay-button")
        self.replay_html = W.HTML().add_class("dg-story-replay-box")
        super().__init__([self.title_html, self.text_html,
                          W.HBox([self.prev_button, self.next_button, self.all_button, self.replay_button],
                                 layout=W.Layout(flex_flow="row wrap")), self.replay_html], **kwargs)
        self.add_class("dg-story")
        self.steps: list[str] = []
        self.index = 0
        self.round = 0
        self._lang = "en"
        self._shown_all = False
        self.replays = 0  # how many times the story was replayed (each replay's words differ in the page)
        self.replay_button.on_click(lambda _b: self.replay())
        self.on_step = lambda index: None
        self.prev_button.on_click(lambda _b: self.go(self.index - 1))
        self.next_button.on_click(lambda _b: self.go(self.index + 1))
        self.all_button.on_click(lambda _b: self.show_all())
        self.layout.display = "none"

    def show(self, log: Sequence[Mapping], names: Sequence[str], lang: str) -> None:
        rounds = resolved_rounds(log)
        self._lang = lang
        self.replay_html.value = ""  # a replay is said once; the next change starts afresh
        if not rounds:
            self.steps, self.round = [], 0
            self.layout.display = "none"
            return
        r = rounds[-1]
        steps = resolution_steps(log, r, names, lang)
        if r != self.round:
            self.index, self._shown_all = 0, False  # a new round resolved: start at its top room
        self.round, self.steps = r, steps
        self.index = min(self.index, len(steps) - 1)
        self.layout.display = None
        self._draw()

    def go(self, index: int) -> None:
        if self.steps:
            self.index = max(0, min(index, len(self.steps) - 1))
            self._shown_all = False
            self._draw()
            self.on_step(self.index)

    def show_all(self) -> None:
        self._shown_all = True
        self._draw()
        self.on_step(len(self.steps) - 1)

    def replay(self) -> None:
        """Show the whole story again and have the page's live region say it, title first, in
        the story's language (the same words each time: a counter in the page tells a new replay
        from the last one)."""
        if not self.steps:
            return
        self.show_all()
        self.replays += 1
        lang = self._lang
        said = _t("replay_said", lang, title=_t("title", lang, round=self.round), steps=_join(lang, *self.steps))
        self.replay_html.value = (f'<div class="dg-story-replay dg-visually-hidden" data-replay="{self.replays}">'
                                  f"{escape(said)}</div>")

    def _draw(self) -> None:
        lang = self._lang
        self.title_html.value = (f'<b class="dg-story-head" data-round="{self.round}">'
                                 f'{escape(_t("title", lang, round=self.round))}</b> '
                                 f'<span class="dg-note">{self.index + 1}/{len(self.steps)}</span>')
        shown = self.steps if self._shown_all else self.steps[:self.index + 1]
        items = "".join(f'<li class="dg-story-step{" dg-story-now" if k == self.index else ""}">{escape(s)}</li>'
                        for k, s in enumerate(shown))
        self.text_html.value = f'<ol class="dg-story-steps">{items}</ol>'
        self.prev_button.disabled = self.index == 0
        self.next_button.disabled = self.index >= len(self.steps) - 1
        label_all(self, self.LABELS, lambda key: _t(key, lang))


__all__ = ["RoundStory", "log_html", "resolution_steps", "resolved_rounds", "round_log_html"]
