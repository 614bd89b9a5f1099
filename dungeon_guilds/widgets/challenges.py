"""The design challenges panel (issue 28): pick a goal, change one room card or one lord,
press Check, read the verdict with its interval.

``ChallengePanel()``: ``challenge_dropdown`` (challenge ids), ``goal_html``; for a room-card
challenge ``card_dropdown`` (the kind of card, by its index in ``card_kinds``),
``level_input``, ``defence_input``, ``treasure_input``; for a lord challenge ``effect_row`` (an
:class:`~.lord_builder.EffectRow`, filled with the lord's printed effect); ``check_button``,
``reset_button``, ``progress``, ``verdict_html``; ``result`` (the last
:class:`~dungeon_guilds.workshop.challenges.CheckResult`). The check plays the games in this
kernel (or the browser's Python on the static site): standard library only.
"""

from __future__ import annotations

from html import escape

import ipywidgets as W

from .. import i18n
from ..cards import RoomCard, reference_deck
from ..lords import get_lord
from ..workshop.challenge_words import baseline_line, ct, error_words as challenge_error_words, verdict_lines
from ..workshop.challenges import Challenge, ChallengeError, check, load, with_kind_changed
from ..workshop.errors import WorkshopError
from ..workshop.lord_edit import describe_lord, make_lord
from ..workshop.strings import error_text as workshop_error_text
from .common import App, safe, set_options
from .labels import label_all
from .inputs import checked_int, fit
from .lord_builder import EFFECT_ROW_STYLE, EffectRow

CARD_VALUE_MAX = 30  # a typed value above this is refused before the deck checks the ranges


def card_kinds() -> list[tuple[RoomCard, int]]:
    """The reference deck's kinds of room card with their copies, in deck order."""
    out: dict[RoomCard, int] = {}
    for card in reference_deck().rooms:
        out[card] = out.get(card, 0) + 1
    return list(out.items())


class ChallengePanel(App):
    css_class = "dg-challenges"
    LABELS = {"challenge_dropdown": "choose", "card_dropdown": "card_kind", "level_input": "new_level",  # challenges.*
              "defence_input": "new_defence", "treasure_input": "new_treasure", "check_button": "check",
              "reset_button": "reset"}

    def __init__(self, lang: str = "en", lang_state=None, show_language: bool = True,
                 challenges: list[Challenge] | None = None, games: tuple[int, int] | None = None):
        super().__init__(lang=lang, lang_state=lang_state, show_language=show_language)
        self.challenges = {c.id: c for c in (challenges or load())}
        self._games = games  # (pilot, cap): tests play fewer games
        self.card_kinds = card_kinds()
        self.result = None
        self.title_html, self.intro_html, self.goal_html = W.HTML(), W.HTML(), W.HTML()
        self.challenge_dropdown = W.Dropdown(options=list(self.challenges), layout=W.Layout(width="min(100%, 640px)"))
        self.card_dropdown = W.Dropdown(options=list(range(len(self.card_kinds))), layout=W.Layout(width="min(100%, 520px)"))
        self.level_input, self.defence_input, self.treasure_input = (
            W.IntText(layout=W.Layout(width="260px")).add_class(f"dg-challenge-{n}") for n in ("level", "defence", "treasure"))
        self.ranges_html = W.HTML()
        self.card_box = W.VBox([self.card_dropdown, W.HBox([self.level_input, self.defence_input, self.treasure_input],
                                                          layout=W.Layout(flex_flow="row wrap")), self.ranges_html])
        self.lord_title, self.lord_now_html = W.HTML(), W.HTML()
        self.effect_row = EffectRow(self.lang)
        self.effect_row.remove_button.layout.display = "none"
        self.lord_box = W.VBox([W.HTML(EFFECT_ROW_STYLE), self.lord_title, self.lord_now_html, self.effect_row])
        self.check_button = W.Button(button_style="primary", icon="check", layout=fit()).add_class("dg-challenge-check")
        self.reset_button = W.Button(icon="undo", layout=fit()).add_class("dg-challenge-reset")
        self.progress = W.IntProgress(min=0, max=1, value=0, layout=W.Layout(width="240px", visibility="hidden"))
        self.progress_html = W.HTML()
        self.verdict_html = W.HTML().add_class("dg-challenge-verdict")
        for w in (self.challenge_dropdown, self.card_dropdown):
            w.add_class("dg-challenge-choice")
        self.challenge_dropdown.observe(self._on_challenge, "value")
        self.card_dropdown.observe(self._on_card, "value")
        self.level_input.observe(lambda _c: self._label_ranges(), "value")
        self.check_button.on_click(self._on_check)
        self.reset_button.on_click(self._on_reset)
        self.children = [W.HBox([self.title_html, self.language_toggle], layout=W.Layout(justify_content="space-between")),
                         self.intro_html, self.challenge_dropdown, self.goal_html, self.card_box, self.lord_box,
                         W.HBox([self.check_button, self.reset_button, self.progress, self.progress_html],
                                layout=W.Layout(flex_flow="row wrap", align_items="center")),
                         self.message, self.verdict_html]
        self.relabel()
        self.reset()

    @property
    def challenge(self) -> Challenge:
        return self.challenges[self.challenge_dropdown.value]

    # ------------------------------------------------------------------ the change
    def reset(self) -> None:
        """The challenge's starting point: the reference card values, the printed lord."""
        ch = self.challenge
        # "flex", not None: the static site's widget manager keeps an inline "none" set before
        self.card_box.layout.display = "flex" if ch.change == "room_card" else "none"
        self.lord_box.layout.display = "flex" if ch.change == "lord" else "none"
        self._on_card(None)
        if ch.change == "lord":
            self.effect_row.set_effect(get_lord(ch.lord).effects[0])
        self.result = None
        self.verdict_html.value = ""
        self.say("")
        self.relabel()

    def _on_card(self, _change) -> None:
        card, _ = self.card_kinds[self.card_dropdown.value]
        self.level_input.value, self.defence_input.value, self.treasure_input.value = (
            card.level, card.defence, card.treasure)

    def deck(self):
        """The deck with the chosen kind of card changed (None: the values are the card's own)."""
        old, _ = self.card_kinds[self.card_dropdown.value]
        new = RoomCard(checked_int(self.level_input, 1, 3, "challenge.new_level"),
                       checked_int(self.defence_input, 0, CARD_VALUE_MAX, "challenge.new_defence"),
                       checked_int(self.treasure_input, 0, CARD_VALUE_MAX, "challenge.new_treasure"))
        return None if new == old else with_kind_changed(old, new)

    def lord(self):
        """The student's lord, in the place of the challenge's (the engine checks its effect)."""
        ch = self.challenge
        printed = get_lord(ch.lord)
        return make_lord(f"my_{ch.lord}", f"{printed.name_en} (yours)", [self.effect_row.effect_dict()],
                         name_zh=f"{printed.name_zh}（你的版本）")

    # ------------------------------------------------------------------ callbacks
    @safe
    def _on_challenge(self, _change) -> None:
        self.reset()

    @safe
    def _on_reset(self, _button=None) -> None:
        self.reset()

    @safe
    def _on_check(self, _button=None) -> None:
        self.run_check()

    def run_check(self):
        """Check the change (the button's work; tests call it directly)."""
        ch = self.challenge
        deck, lord = (self.deck(), None) if ch.change == "room_card" else (None, self.lord())
        self.say("")
        self.verdict_html.value = ""
        self.check_button.disabled = True
        self.progress.layout.visibility = "visible"
        try:
            self.result = check(ch, deck, lord, games=self._games, progress=self._progress)
        finally:
            self.check_button.disabled = False
            self.progress.layout.visibility = "hidden"
            self.progress_html.value = ""
        self._show_result()
        return self.result

    def _progress(self, done: int, total: int) -> None:
        self.progress.max, self.progress.value = max(total, 1), done
        self.progress_html.value = escape(ct("checking", self.lang, done=done, total=total))

    def _show_result(self) -> None:
        if self.result is None:
            self.verdict_html.value = ""
            return
        lines = verdict_lines(self.result, self.lang)
        status = self.result.status
        self.verdict_html.value = (f'<div class="dg-verdict dg-verdict-{status}" role="status" aria-live="polite">'
                                   f"<p><b>{escape(lines[0])}</b></p>"
                                   + "".join(f"<p>{escape(line)}</p>" for line in lines[1:]) + "</div>")

    @staticmethod
    def error_words(exc: BaseException, lang: str) -> str:
        if isinstance(exc, ChallengeError):
            return challenge_error_words(exc, lang)
        if isinstance(exc, WorkshopError):
            return workshop_error_text(exc, lang)
        return i18n.error_text(exc, lang)

    # ------------------------------------------------------------------ words
    def relabel(self) -> None:
        L = self.lang
        ch = self.challenge
        self.title_html.value = f"<h3>{escape(ct('tab_title', L))}</h3>"
        self.intro_html.value = f'<p class="dg-note">{escape(ct("intro", L))}</p>'
        set_options(self.challenge_dropdown, [(c.words("title", L), c.id) for c in self.challenges.values()])
        bots = i18n.join_list((i18n.t(f"bot.{b}", L) if i18n.has(f"bot.{b}", L) else b for b in ch.bots), L)
        self.goal_html.value = (f"<p><b>{escape(ct('goal', L))}</b> {escape(ch.words('goal_text', L))}</p>"
                                + (f"<p><b>{escape(ct('hint', L))}</b> {escape(ch.words('hint', L))}</p>"
                                   if ch.words("hint", L) else "")
                                + f'<p class="dg-note">{escape(ct("bots", L, bots=bots, players=ch.players))}</p>'
                                + f'<p class="dg-baseline">{escape(baseline_line(ch, L))}</p>')
        set_options(self.card_dropdown, [(ct("card_option", L, level=c.level, defence=c.defence, treasure=c.treasure,
                                             count=n), k) for k, (c, n) in enumerate(self.card_kinds)])
        label_all(self, self.LABELS, lambda key: ct(key, L))
        for w in (self.level_input, self.defence_input, self.treasure_input, self.challenge_dropdown, self.card_dropdown):
            w.style = {"description_width": "initial"}
        self._label_ranges()
        if ch.change == "lord":
            printed = get_lord(ch.lord)
            self.lord_title.value = f"<b>{escape(ct('lord_effect', L, lord=i18n.lord_name(printed, L)))}</b>"
            self.lord_now_html.value = f'<p class="dg-note">{escape(ct("lord_now", L, text=describe_lord(printed, L)))}</p>'
        self.effect_row.relabel(L)
        self._show_result()

    def _label_ranges(self) -> None:
        levels = reference_deck().levels
        level = self.level_input.value if self.level_input.value in levels else self.card_kinds[self.card_dropdown.value][0].level
        info = levels[level]
        self.ranges_html.value = (f'<p class="dg-note">{escape(ct("card_ranges", self.lang, level=level, dlow=info.defence[0], dhigh=info.defence[1], tlow=info.treasure[0], thigh=info.treasure[1]))}</p>')

    def refresh(self) -> None:
        """Nothing to redraw beyond the words (``relabel``)."""


__all__ = ["ChallengePanel", "card_kinds"]
