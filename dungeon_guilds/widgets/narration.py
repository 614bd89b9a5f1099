"""The resolution told room by room, and a round log that stays after the round ends.

:func:`resolution_steps` reads the engine's log of one round (``bonus``, ``revealed``,
``cleared`` / ``failed`` with the adventurers in the room, ``healed``) into sentences a
student can step through: who is in the room, whether the party clears it and why (their
strength against the needed defence, R5.1), the treasure and its split with the remainder
(R5.2), what the lord changed (printed front against the value used, §7), the rooms below a
failure (R5.1) and the healing paid or dropped (R6.1). Nothing is decided here: the numbers are
the engine's.

:class:`RoundStory` shows them with *previous* / *next* buttons and *Replay the narration*
(the whole story shown and said again in the page's ``aria-live`` region, issue 32); :func:`round_log_html` is the
whole game's log grouped by round, the latest round open, older rounds folded but kept;
:func:`log_html` its last events.
"""

from __future__ import annotations

from html import escape
from typing import Mapping, Sequence

import ipywidgets as W

from .. import i18n
from ..events import Bonus, Heal, RoomOutcome, entries, resolution_events, resolved_rounds
from .common import safe, set_options  # noqa: F401 - safe is used by the buttons


def _t(key: str, lang: str, **values) -> str:
    return i18n.t(f"narr.{key}", lang, **values)


def _who(names: Sequence[str], occupants, lang: str) -> str:
    return " + ".join(f"{i18n.player_name(names, o, lang)} {s}" for o, s in occupants) or "—"


def _room_step(out: RoomOutcome, names: Sequence[str], lang: str) -> str:
    room = out.room
    who = _who(names, out.occupants, lang)
    lord = ""
    if out.defence != out.printed_defence:
        lord = _t("lord_defence", lang, printed=out.printed_defence, used=out.defence)
    head = _join(lang, _t("room_head", lang, room=room, who=who, total=out.total, defence=out.defence), lord)
    if not out.cleared:
        below = [r for r in out.rooms if r != room]
        tail = _t("failed_below", lang, rooms=i18n.join_list(below, lang)) if below else _t("failed_last", lang)
        return _join(lang, head, _t("failed", lang), tail)
    parts = [i18n.t("word.share", lang, name=i18n.player_name(names, p, lang), gold=g)
             for p, g in out.shares.items()]
    split = i18n.join_list(parts, lang) or "—"
    treasure = _t("treasure", lang, treasure=out.treasure, split=split)
    if out.treasure != out.printed_treasure:
        treasure = _join(lang, treasure, _t("lord_treasure", lang, printed=out.printed_treasure, used=out.treasure))
    if out.to_bank:
        treasure = _join(lang, treasure, _t("remainder", lang, gold=out.to_bank))
    return _join(lang, head, _t("cleared", lang), treasure)


def _join(lang: str, *parts: str) -> str:
    return ("" if lang == "zh" else " ").join(p.strip() for p in parts if p)


def _step(ev: Bonus | RoomOutcome | Heal, names: Sequence[str], lang: str) -> str:
    if isinstance(ev, Bonus):
        return i18n.t("event.bonus", lang, player=i18n.player_name(names, ev.player, lang), gold=ev.gold,
                      total=ev.total)
    if isinstance(ev, RoomOutcome):
        return _room_step(ev, names, lang)
    key = "heal_dropped" if ev.dropped else "heal_paid"
    return _t(key, lang, player=i18n.player_name(names, ev.player, lang), cost=ev.cost, paid=ev.paid,
              dropped=ev.dropped)


def resolution_steps(log: Sequence[Mapping], round_no: int, names: Sequence[str], lang: str) -> list[str]:
    """The resolution of ``round_no`` as sentences, in the order the engine resolved it
    (empty if that round has not been resolved)."""
    events = resolution_events(log, round_no)
    steps = [_step(ev, names, lang) for ev in events]
    if steps and not any(isinstance(ev, Heal) for ev in events):
        failed = any(isinstance(ev, RoomOutcome) and not ev.cleared for ev in events)
        steps.append(_t("no_heal_cost" if failed else "no_heal", lang))  # a failed room whose heal costs are all $0
    return steps


def round_log_html(log: Sequence[Mapping], names: Sequence[str], lang: str, secret_for: int | None = None) -> str:
    """The log grouped by round (``<details>`` each, the latest open): it stays after a round
    ends. ``secret_for``: hide other players' setup exhaust choices from that seat (R2.4)."""
    rounds: dict[int, list[str]] = {}
    for entry in entries(log):
        text = i18n.event_text(entry.event, names, lang, secret_exhaust=entry.hidden_from(secret_for))
        rounds.setdefault(entry.round, []).append(
            f'<li class="dg-log-event" data-kind="{escape(entry.kind)}">{escape(text)}</li>')
    last = max(rounds) if rounds else 0
    parts = []
    for r in sorted(rounds):
        title = escape(_t("log_round", lang, round=r))
        parts.append(f'<details class="dg-round-log" data-round="{r}"{" open" if r == last else ""}>'
                     f'<summary>{title}</summary><ol class="dg-log">{"".join(rounds[r])}</ol></details>')
    return f'<div class="dg-log-rounds">{"".join(parts)}</div>'


def log_html(log: Sequence[dict], names: Sequence[str], lang: str, last: int = 14,
             secret_for: int | None = None) -> str:
    """The last events of the log, in words (``secret_for``: hide other players' exhaust
    choices from that seat)."""
    start = max(0, len(log) - last)
    items = []
    for entry in entries(log, start):
        text = i18n.event_text(entry.event, names, lang, secret_exhaust=entry.hidden_from(secret_for))
        items.append(f'<li class="dg-log-event" data-kind="{escape(entry.kind)}">{escape(text)}</li>')
    return f'<ol class="dg-log" start="{start + 1}">{"".join(items)}</ol>'


class RoundStory(W.VBox):
    """Step through the latest resolved round, room by room. ``show(log, names, lang)``
    after every change; ``prev_button``, ``next_button``, ``all_button``, ``replay_button``,
    ``text_html``; ``steps`` the sentences, ``index`` the one shown; ``on_step(index)`` is called
    when the student moves to another step (the table then draws that step on the board).
    ``replay_html`` holds, visually hidden, the story the live region says again after *Replay
    the narration* (:meth:`replay`)."""

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
        self.prev_button.description = _t("prev", lang)
        self.next_button.description = _t("next", lang)
        self.all_button.description = _t("all", lang)
        self.replay_button.description = _t("replay", lang)
        self.replay_button.tooltip = _t("replay_tip", lang)


__all__ = ["RoundStory", "log_html", "resolution_steps", "resolved_rounds", "round_log_html"]
