"""LordBuilder: compose a Dungeon Lord from the effect vocabulary the engine uses (§7).

The 11 printed lords are the examples: choose one and its effects fill the builder, exactly as
the engine stores them (``dungeon_guilds.lords``). Change a number, add or remove an effect
(a room's defence/treasure with a room selector and a condition; a heal-cost change; a
placement ban; a start-phase flip; a bonus to the lowest total), give the lord an id and a
name, and read what it does to a sample dungeon — round 1 of a seeded game, played by the
engine with and without the lord (:func:`dungeon_guilds.workshop.preview.preview_lord`): defence,
lock threshold, treasure, result and payout per room, and each player's round. ``Add to the
workshop`` puts the lord in the session (the A/B experiment offers it); ``Play a game with it``
lets bots play a game with the lord in round 1 and offers its record, which replays exactly.

Headless use::

    b = LordBuilder()
    b.example_dropdown.value = "red_dragon"            # load a printed lord
    b.effect_rows[0].treasure_input.value = 6          # a gentler dragon
    b.id_text.value = "gentle_dragon"; b.name_en_text.value = "Gentle Dragon"
    b.save_button.click(); b.lord                      # in b.session.lords
"""

from __future__ import annotations

import html
import json
from pathlib import Path
from typing import Any

import ipywidgets as W

from .. import i18n
from ..effects import ALWAYS, CONDITIONS, RoomModifier, effect_to_dict
from ..game import Game, rng
from ..lords import ALL_LORDS, BASE_LORDS, LORDS_BY_ID, Lord, LordError, lord_from_dict
from ..money_html import dollars_as_text
from ..record import dumps
from ..rules import Rules
from ..workshop.lord_edit import EFFECT_KINDS, ROOM_POSITIONS, canonical_rooms, describe_lord, make_lord
from ..workshop.preview import preview_lord
from ..workshop.session import WorkshopSession
from ..workshop.strings import error_text as workshop_error_text
from ..workshop.strings import wt
from .common import App, message_html, safe, set_options
from .downloads import download_link
from .inputs import SEED_MAX, checked_int, fit
from .labels import Words, label_all
from .moves import bot_names, make_bot
from .print_panel import PrintPanel

NEW = "__new__"
EFFECT_RANGE = (-20, 20)  # a lord's change to a defence, treasure, heal cost or bonus (printed: at most 10)
# an effect row's own style, wherever a row is shown (the lord builder, the design challenges)
EFFECT_ROW_STYLE = "<style>" + Path(__file__).with_name("effect_row.css").read_text(encoding="utf-8") + "</style>"
_STYLE = "<style>" + Path(__file__).with_name("lord_builder.css").read_text(encoding="utf-8") + "</style>" + EFFECT_ROW_STYLE


_RESULTS = {"failed (a room above failed)": "pv_failed_above", "not reached": "pv_not_reached",
            "cleared": "pv_cleared", "failed": "pv_failed"}  # longest first


def _in_words(rows: list[dict], lang: str) -> tuple[list[str], list[list]]:
    """A preview's rows (:mod:`workshop.preview` writes English column names and results) as
    headings and cells in ``lang``."""
    import re

    def word(value):
        if not isinstance(value, str):
            return value
        for english, key in _RESULTS.items():
            if english in value:
                value = value.replace(english, wt(key, lang))
        return re.sub(r"\bbank\b", wt("pv_bank", lang), value)

    columns = list(rows[0]) if rows else []
    return ([wt(f"pv_{c.replace(' ', '_')}", lang) for c in columns],
            [[word(row[c]) for c in columns] for row in rows])


def _html_table(rows: list[dict], lang: str, classes: str) -> str:
    """A preview's rows as an HTML table in ``lang`` (headings in ``th``, every cell escaped)."""
    heads, cells = _in_words(rows, lang)
    head = "".join(f"<th>{html.escape(str(h))}</th>" for h in heads)
    body = "".join("<tr>" + "".join(f"<td>{html.escape(str(c))}</td>" for c in row) + "</tr>" for row in cells)
    return f'<table class="{classes}"><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>'


# an effect's field -> the control that edits it
_FIELD_WIDGETS = {"rooms": "rooms_select", "defence": "defence_input", "treasure": "treasure_input",
                  "when": "when_dropdown", "strengths": "strengths_select", "delta": "delta_input",
                  "exhaust": "exhaust_select", "activate": "activate_select", "amount": "amount_input"}


class EffectRow(W.VBox):
    """One effect. Sub-widgets: ``kind_dropdown``; room: ``rooms_select``, ``defence_input``,
    ``treasure_input``, ``when_dropdown``; heal: ``strengths_select``, ``delta_input``; ban:
    ``strengths_select``; flip: ``exhaust_select``, ``activate_select``; bonus:
    ``amount_input``; ``remove_button``. ``effect_dict()`` is the effect as data."""

    # every control's words (labels.py). The lists' own labels are visually hidden (.dg-sr-label)
    # but name them for a screen reader: the words shown above each list (WCAG 4.1.2)
    LABELS = {"kind_dropdown": "effect_kind", "rooms_label": Words("effect_rooms", html="{}"),
              "rooms_hint": Words("effect_rooms_hint", html="<small>{}</small>"),
              "defence_input": Words("effect_defence", range=EFFECT_RANGE),
              "treasure_input": Words("effect_treasure", range=EFFECT_RANGE), "when_dropdown": "effect_when",
              "strengths_label": Words("effect_strengths", html="{}"),
              "delta_input": Words("effect_delta", range=EFFECT_RANGE),
              "exhaust_label": Words("effect_exhaust", html="{}"), "activate_label": Words("effect_activate", html="{}"),
              "amount_input": Words("effect_amount", range=EFFECT_RANGE), "remove_button": "effect_remove",
              "rooms_select": "effect_rooms", "strengths_select": "effect_strengths",
              "exhaust_select": "effect_exhaust", "activate_select": "effect_activate"}

    def __init__(self, lang: str = "en", on_change=None):
        self._lang = lang
        layout = W.Layout(width="auto")
        self.kind_dropdown = W.Dropdown(options=[(k, k) for k in EFFECT_KINDS], value="room",
                                        layout=W.Layout(width="300px")).add_class("dg-effect-kind")
        # every position visible at once: a chosen "last" room is never scrolled out of sight
        self.rooms_select = W.SelectMultiple(options=[(str(p), p) for p in ROOM_POSITIONS], value=(),
                                             rows=len(ROOM_POSITIONS),
                                             layout=W.Layout(width="150px"))\
            .add_class("dg-effect-rooms").add_class("dg-sr-label")
        self.rooms_hint = W.HTML()
        self.defence_input = W.IntText(value=0, layout=W.Layout(width="240px")).add_class("dg-effect-defence")
        self.treasure_input = W.IntText(value=0, layout=W.Layout(width="240px")).add_class("dg-effect-treasure")
        self.when_dropdown = W.Dropdown(options=[(c, c) for c in CONDITIONS], value=ALWAYS,
                                        layout=W.Layout(width="360px")).add_class("dg-effect-when")
        self.strengths_select = W.SelectMultiple(options=[1, 2, 3, 4, 5], value=(), rows=5,
                                                 layout=W.Layout(width="110px"))\
            .add_class("dg-effect-strengths").add_class("dg-sr-label")
        self.delta_input = W.IntText(value=0, layout=W.Layout(width="240px")).add_class("dg-effect-delta")
        self.exhaust_select = W.SelectMultiple(options=[1, 2, 3, 4, 5], value=(), rows=5,
                                               layout=W.Layout(width="110px"))\
            .add_class("dg-effect-exhaust").add_class("dg-sr-label")
        self.activate_select = W.SelectMultiple(options=[1, 2, 3, 4, 5], value=(), rows=5,
                                                layout=W.Layout(width="110px"))\
            .add_class("dg-effect-activate").add_class("dg-sr-label")
        self.amount_input = W.IntText(value=0, layout=W.Layout(width="240px")).add_class("dg-effect-amount")
        self.remove_button = W.Button(icon="trash", layout=W.Layout(width="auto")).add_class("dg-effect-remove")
        self.rooms_label, self.strengths_label = W.HTML(), W.HTML()
        self.exhaust_label, self.activate_label = W.HTML(), W.HTML()
        self.room_box = W.HBox([W.VBox([self.rooms_label, self.rooms_select, self.rooms_hint]),
                                W.VBox([self.defence_input, self.treasure_input, self.when_dropdown])])
        self.heal_box = W.HBox([W.VBox([self.strengths_label, self.strengths_select]), self.delta_input])
        self.flip_box = W.HBox([W.VBox([self.exhaust_label, self.exhaust_select]),
                                W.VBox([self.activate_label, self.activate_select])])
        self.bonus_box = W.HBox([self.amount_input])
        super().__init__([W.HBox([self.kind_dropdown, self.remove_button]), self.room_box, self.heal_box,
                          self.flip_box, self.bonus_box], layout=layout)
        self.add_class("dg-effect-row")
        self._on_change = on_change
        for w in (self.kind_dropdown, self.rooms_select, self.defence_input, self.treasure_input,
                  self.when_dropdown, self.strengths_select, self.delta_input, self.exhaust_select,
                  self.activate_select, self.amount_input):
            w.observe(self._changed, "value")
        self.relabel(lang)
        self._show()

    def _changed(self, change) -> None:
        self._show()
        if self._on_change is not None:
            self._on_change()

    def _show(self) -> None:
        kind = self.kind_dropdown.value
        # "flex", not None: the static site's widget manager keeps an inline "none" set before
        shown = {self.room_box: kind == "room", self.heal_box: kind in ("heal", "ban"),
                 self.delta_input: kind == "heal", self.flip_box: kind == "flip", self.bonus_box: kind == "bonus"}
        for box, show in shown.items():
            box.layout.display = "flex" if show else "none"

    def relabel(self, lang: str) -> None:
        self._lang = lang
        set_options(self.kind_dropdown, [(wt(f"kind_{k}", lang), k) for k in EFFECT_KINDS])
        value = self.rooms_select.value
        self.rooms_select.options = [(wt(f"pos_{p}", lang), p) for p in ROOM_POSITIONS]
        self.rooms_select.value = value
        set_options(self.when_dropdown, [(wt(f"when_{c}", lang), c) for c in CONDITIONS])
        label_all(self, self.LABELS, lambda key: wt(key, lang))
        for w in (self.defence_input, self.treasure_input, self.when_dropdown, self.delta_input,
                  self.amount_input, self.kind_dropdown):
            w.style = {"description_width": "initial"}

    def effect_dict(self) -> dict[str, Any]:
        """The effect as data (checked later by the engine's vocabulary, ``effect_from_dict``)."""
        kind = self.kind_dropdown.value

        def number(name: str) -> int:  # out of EFFECT_RANGE: refused, never clamped
            return checked_int(getattr(self, f"{name}_input"), *EFFECT_RANGE, f"workshop.effect_{name}")

        if kind == "room":
            return {"kind": "room", "rooms": list(canonical_rooms(self.rooms_select.value)),
                    "defence": number("defence"), "treasure": number("treasure"), "when": self.when_dropdown.value}
        if kind == "heal":
            return {"kind": "heal", "strengths": sorted(self.strengths_select.value), "delta": number("delta")}
        if kind == "ban":
            return {"kind": "ban", "strengths": sorted(self.strengths_select.value)}
        if kind == "flip":
            return {"kind": "flip", "exhaust": sorted(self.exhaust_select.value),
                    "activate": sorted(self.activate_select.value)}
        return {"kind": "bonus", "amount": number("amount")}

    def set_effect(self, effect) -> None:
        """Fill the row from an effect object."""
        hold, self._on_change = self._on_change, None
        try:
            self.kind_dropdown.value = effect.kind
            for name, value in effect_to_dict(effect).items():
                if name in _FIELD_WIDGETS:  # each field of the effect has its control
                    getattr(self, _FIELD_WIDGETS[name]).value = tuple(value) if isinstance(value, list) else value
        finally:
            self._on_change = hold
        self._show()


class LordBuilder(App):
    """Build a lord. Sub-widgets: ``example_dropdown`` (``"__new__"``, a printed lord's id, or a
    workshop lord's id), ``id_text``, ``name_en_text``, ``name_zh_text``, ``effect_rows`` (each an
    :class:`EffectRow`) in ``effects_box``, ``add_effect_button``, ``card_html`` (the card text
    in words), ``players_dropdown``, ``sample_seed_input``, ``preview_button``, ``preview_html``,
    ``save_button``, ``play_button``, ``game_html``, ``print_panel`` (print and play), ``message``,
    ``language_toggle``.
    ``lord`` is the lord built (or the engine's refusal), ``preview`` the last preview,
    ``game`` the last game played with it."""

    css_class = "dg-lord-builder"
    # every control's words (labels.py)
    LABELS = {"example_dropdown": "lord_start", "id_text": "lord_id", "name_en_text": "lord_name_en",
              "name_zh_text": "lord_name_zh", "effects_label": Words("lord_effects", html="<b>{}</b>"),
              "add_effect_button": "lord_add_effect", "players_dropdown": "players",
              "sample_seed_input": Words("seed", range=(0, SEED_MAX)), "preview_button": "lord_preview",
              "save_button": "lord_save", "play_button": "lord_play", "upload": "lord_upload"}
    error_words = staticmethod(workshop_error_text)  # the workshop's messages in the language

    def __init__(self, session: WorkshopSession | None = None, example: str = "red_dragon", players: int = 4,
                 seed: int = 0, lang: str = "en", lang_state=None, show_language: bool = True,
                 auto_preview: bool = True):
        super().__init__(lang=lang, lang_state=lang_state, show_language=show_language)
        self.session = session or WorkshopSession()
        self.auto_preview = auto_preview
        self.preview = None
        self.game: Game | None = None
        self._loading = False
        self.style_html = W.HTML(_STYLE)
        self.title_html = W.HTML()
        self.example_dropdown = W.Dropdown(layout=W.Layout(width="640px")).add_class("dg-lord-example")
        self.id_text = W.Text(continuous_update=False).add_class("dg-lord-id")
        # names update the card and the preview as they are typed (a name typed with a Chinese
        # input method is never "entered" with the Enter key, issue 15)
        self.name_en_text = W.Text(continuous_update=True).add_class("dg-lord-name-en")
        self.name_zh_text = W.Text(continuous_update=True).add_class("dg-lord-name-zh")
        self.effects_label = W.HTML()
        self.effects_box = W.VBox().add_class("dg-effects")
        self.effect_rows: list[EffectRow] = []
        self.add_effect_button = W.Button(icon="plus", layout=fit()).add_class("dg-add-effect")
        self.card_html = W.HTML().add_class("dg-lord-card")
        self.players_dropdown = W.Dropdown(options=[3, 4, 5, 6], value=players,
                                           layout=W.Layout(width="180px")).add_class("dg-preview-players")
        self.sample_seed_input = W.IntText(value=seed, layout=W.Layout(width="320px")).add_class("dg-preview-seed")
        self.preview_button = W.Button(icon="eye", layout=fit()).add_class("dg-lord-preview-button")
        self.preview_html = W.HTML().add_class("dg-lord-preview")
        self.save_button = W.Button(button_style="primary", icon="check", layout=fit()).add_class("dg-lord-save")
        self.play_button = W.Button(icon="play", layout=fit()).add_class("dg-lord-play")
        self.game_html = W.HTML().add_class("dg-lord-game")
        self.lord_file_html = W.HTML().add_class("dg-lord-file")
        self.upload = W.FileUpload(accept=".json", multiple=False).add_class("dg-lord-upload")
        self.print_panel = PrintPanel(self._print_source, lang)
        # wiring
        self.upload.observe(self._on_upload, "value")
        self.example_dropdown.observe(self._on_example, "value")
        for w in (self.id_text, self.name_en_text, self.name_zh_text, self.players_dropdown, self.sample_seed_input):
            w.observe(self._on_field, "value")
        self.add_effect_button.on_click(self._on_add_effect)
        self.preview_button.on_click(self._on_preview)
        self.save_button.on_click(self._on_save)
        self.play_button.on_click(self._on_play)
        self.print_panel.button.on_click(self._on_print)
        self.session.observe(self._on_session, "lords")
        self.children = [
            self.style_html, self.language_toggle, self.title_html, self.example_dropdown,
            W.HBox([self.id_text, self.name_en_text, self.name_zh_text]),
            self.effects_label, self.effects_box, self.add_effect_button, self.card_html, self.message,
            W.HBox([self.save_button, self.play_button, self.lord_file_html, self.upload]),
            W.HBox([self.players_dropdown, self.sample_seed_input, self.preview_button]), self.preview_html,
            self.game_html, self.print_panel,
        ]
        self.relabel()
        if example in LORDS_BY_ID or example == NEW:
            self.example_dropdown.value = example
            if example == NEW:
                self.load(None)
        else:
            self.load(None)

    # ------------------------------------------------------------------ options and labels
    def _example_options(self) -> list[tuple[str, str]]:
        opts = [(wt("lord_new", self.lang), NEW)]
        opts += [(wt("lord_printed", self.lang, name=f"{lord.name(self.lang)} — {lord.text(self.lang)}"), lord.id)
                 for lord in ALL_LORDS]
        opts += [(wt("lord_custom", self.lang, name=f"{lord.name(self.lang)} ({lord.id})"), lord.id)
                 for lord in self.session.lords]
        return opts

    def relabel(self) -> None:
        L = self.lang
        self.title_html.value = f"<h3>{html.escape(wt('lord_title', L))}</h3><p>{html.escape(wt('lord_intro', L))}</p>"
        hold, self._loading = self._loading, True
        try:
            set_options(self.example_dropdown, self._example_options())
        finally:
            self._loading = hold
        label_all(self, self.LABELS, lambda key: wt(key, L))
        for w in (self.players_dropdown, self.sample_seed_input, self.example_dropdown, self.id_text):
            w.style = {"description_width": "initial"}  # the label in full, never cut off
        self.print_panel.relabel(L)
        for row in self.effect_rows:
            row.relabel(L)

    # ------------------------------------------------------------------ loading and building
    def load(self, lord: Lord | None) -> None:
        """Fill the builder from a lord (a printed one becomes ``my_<id>``), or empty it."""
        self._loading = True
        try:
            if lord is None:
                self.id_text.value, self.name_en_text.value, self.name_zh_text.value = "my_lord", "My Lord", ""
                effects = (RoomModifier(rooms=(1,), treasure=1),)
            else:
                printed = LORDS_BY_ID.get(lord.id) == lord
                self.id_text.value = f"my_{lord.id}" if printed else lord.id
                self.name_en_text.value = f"{lord.name_en} (copy)" if printed else lord.name_en
                self.name_zh_text.value = f"{lord.name_zh}（複製）" if printed else lord.name_zh
                effects = lord.effects
            self.effect_rows = []
            for effect in effects:
                row = self._new_row()
                row.set_effect(effect)
            self.effects_box.children = tuple(self.effect_rows)
        finally:
            self._loading = False
        self.refresh()

    def _new_row(self) -> EffectRow:
        row = EffectRow(self.lang, on_change=self._on_effect_change)
        row.remove_button.on_click(lambda _b, row=row: self._remove_row(row))
        self.effect_rows.append(row)
        return row

    @safe
    def _remove_row(self, row: EffectRow) -> None:
        self.effect_rows = [r for r in self.effect_rows if r is not row]
        self.effects_box.children = tuple(self.effect_rows)
        self.refresh()

    def add_effect(self, kind: str = "room") -> EffectRow:
        row = self._new_row()
        hold, row._on_change = row._on_change, None
        row.kind_dropdown.value = kind
        row._on_change = hold
        self.effects_box.children = tuple(self.effect_rows)
        self.refresh()
        return row

    @property
    def lord(self) -> Lord:
        """The lord the builder describes (the engine's vocabulary checks every effect)."""
        return make_lord(self.id_text.value, self.name_en_text.value, [r.effect_dict() for r in self.effect_rows],
                         name_zh=self.name_zh_text.value)

    def refresh(self) -> None:
        """Rebuild the card text and (if ``auto_preview``) the preview; a bad lord is explained."""
        if self._loading:
            return
        try:
            lord = self.lord
        except ValueError as exc:
            self.card_html.value = ""
            self.preview_html.value = ""
            self.show_error(exc)
            return
        self.say("")
        self.card_html.value = message_html(wt("lord_card", self.lang, text=describe_lord(lord, self.lang)), "info")
        if self.auto_preview:
            self.show_preview(lord)

    def show_preview(self, lord: Lord | None = None) -> None:
        lord = lord or self.lord
        deck = None
        p = preview_lord(lord, players=int(self.players_dropdown.value), seed=checked_int(self.sample_seed_input, 0, SEED_MAX, "workshop.seed"),
                         deck=deck)
        self.preview = p
        L = self.lang
        heal_a = " ".join(f"${p.without.heal_costs[s]}" for s in range(1, 6))
        heal_b = " ".join(f"${p.with_lord.heal_costs[s]}" for s in range(1, 6))
        heal = heal_a if heal_a == heal_b else f"{heal_a} → {heal_b}"
        self.preview_html.value = dollars_as_text(  # money is text, never MathJax's mathematics (issue 40)
            f"<div class='dg-preview-title'><b>{html.escape(wt('lord_preview_title', L, seed=p.seed, players=p.players, name=lord.name(L)))}</b></div>"
            + _html_table(p.room_rows(), L, "dg-preview-table dg-preview-rooms")
            + f"<div>{html.escape(wt('lord_heal_costs', L, costs=heal))}</div>"
            + f"<div><b>{html.escape(wt('lord_preview_players', L))}</b></div>"
            + _html_table(p.player_rows(), L, "dg-preview-table dg-preview-players")
            + f"<p><small>{html.escape(wt('lord_preview_note', L))}</small></p>")

    # ------------------------------------------------------------------ callbacks
    @safe
    def _on_example(self, change) -> None:
        if self._loading:
            return
        value = change["new"]
        if value == NEW or value is None:
            self.load(None)
        elif value in LORDS_BY_ID:
            self.load(LORDS_BY_ID[value])
        else:
            self.load(self.session.lord(value))

    @safe
    def _on_field(self, _change) -> None:
        self.refresh()

    @safe
    def _on_effect_change(self) -> None:
        self.refresh()

    @safe
    def _on_add_effect(self, _button=None) -> None:
        self.add_effect()

    @safe
    def _on_preview(self, _button=None) -> None:
        self.show_preview()

    @safe
    def _on_upload(self, change) -> None:
        files = change["new"]
        if files:
            text = bytes(files[0].get("content", b"")).decode("utf-8")
            self.upload.value = ()
            self.load_file(text)

    def load_file(self, text: str) -> Lord:
        """Fill the builder from a lord file (the JSON :meth:`save` offers); a bad file raises
        ``LordError`` naming the field, and the builder is unchanged."""
        try:
            data = json.loads(text)
        except ValueError as err:
            raise LordError(f"lord file: not JSON ({err})") from None
        lord = lord_from_dict(data, "lord file")
        self.load(lord)
        self.refresh()
        self.say(lambda: wt("lord_loaded", self.lang, id=lord.id), "ok")
        return lord

    @safe
    def _on_save(self, _button=None) -> None:
        self.save()

    def save(self) -> Lord:
        """Add the lord to the workshop session (replacing a workshop lord of the same id) and
        offer it as a file (``lord_<id>.json``, :meth:`Lord.to_dict`) to load again or to open a
        class table with."""
        lord = self.lord
        self.session.add_lord(lord)
        self.say(lambda: wt("lord_saved", self.lang, id=lord.id), "ok")
        self.lord_file_html.value = download_link(json.dumps(lord.to_dict(), ensure_ascii=False, indent=1),
                                                  f"lord_{lord.id}.json", wt("lord_download", self.lang),
                                                  "application/json")
        return lord

    @safe
    def _on_session(self, _change) -> None:
        hold, self._loading = self._loading, True
        try:
            set_options(self.example_dropdown, self._example_options())
        finally:
            self._loading = hold

    def _print_source(self):
        """Print and play: the base lords, the workshop's lords and this one (the builder's lord,
        checked by the engine's vocabulary), with the deck the workshop saved last."""
        lord = self.lord
        others = tuple(x for x in self.session.lords if x.id != lord.id)
        return list(self.session.decks.values())[-1], BASE_LORDS + others + (lord,)

    @safe
    def _on_print(self, _button=None) -> None:
        self.print_panel.prepare()

    @safe
    def _on_play(self, _button=None) -> None:
        self.play()

    def play(self, bot: str = "greedy") -> Game:
        """Bots play a game with the lord in round 1 (the other rounds' lords drawn from the base
        lords by the seed); shows the result and offers the record."""
        lord = self.lord
        n = int(self.players_dropdown.value)
        seed = checked_int(self.sample_seed_input, 0, SEED_MAX, "workshop.seed")
        others = rng(seed, "workshop-lords").sample(list(BASE_LORDS), n - 1)
        game = Game(n, seed=seed, rules=Rules(lords="all"), lords=[lord] + others)
        name = bot if bot in bot_names() else bot_names()[0]
        bots = [make_bot(name, seed=seed * 10 + seat) for seat in range(n)]
        while not game.is_over:
            seat = game.current
            game.push(bots[seat].choose(game.state.copy(), seat))
        self.game = game
        res = game.result()
        text = i18n.join_list((f"{nm} ${g}" for nm, g in zip(game.names, res.gold)), self.lang)
        winners = i18n.join_list((game.names[s] for s in res.winners), self.lang)
        record = dumps(game.to_record())
        self.game_html.value = dollars_as_text(message_html(wt("lord_game_done", self.lang, seed=seed,
                                                               result=f"{text} — {winners}"), "ok")
                                + download_link(record, f"game_{lord.id}_{seed}.json", wt("lord_record", self.lang),
                                                "application/json"))
        return game


__all__ = ["EffectRow", "LordBuilder", "NEW"]
