"""The Rules tab: every rule of the game as a short card, grouped as the game flows, with live
examples worked out by the engine, and the 11 Dungeon Lord cards (issue 19).

``RulesTab()`` shows an ``Accordion`` with one section a group of :data:`~dungeon_guilds.rule_cards.GROUPS`
(setup → placement → resolution → cleanup → end; lords; variants; editions). Each card shows
its R-number, title, one-line text and plain-words body; a card holding a project ruling is
marked ``RULING`` (class ``dg-ruling-card``) and shows the ruling. A card whose rule involves a
number has a live example (:mod:`.rule_example_panels`): change its inputs and the engine works
it out again. The lords section also holds every lord card (:func:`lord_card_html`): the 11
lords' effects, and for the lord picked its numbers in a dungeon of the size picked and the
rules touching it.

Words: ``[rulecard]`` in ``dungeon_guilds/strings/<lang>/rule_cards.toml``. The tab follows the
language state it is given (the dashboard's toggle).

Sub-widgets: ``accordion``, ``group_pages[group]``, ``card_html[rule]``, ``panels[rule]`` (the
example of a card), ``lord_dropdown``, ``lord_rooms_dropdown``, ``lord_detail_html``,
``lords_html``, ``print_panel`` (print and play: the reference deck and the 11 lords, the player
aid and the rules on one page, as a browser download). :meth:`show_rule` and :meth:`show_lord` open a card's or a lord's section.
"""

from __future__ import annotations

from html import escape
from pathlib import Path

import ipywidgets as W

from .. import i18n
from .. import rule_examples as E
from ..lords import ALL_LORDS, Lord
from ..rule_cards import CARDS, GROUPS, RuleCard, card, cards_in, group_title, lord_card, money, signed
from ..rules import room_counts
from .common import App, safe
from .labels import label_all
from .print_panel import PrintPanel
from .rule_example_panels import PANELS, ExamplePanel, num

_STYLE = "<style>" + Path(__file__).with_name("rules_tab.css").read_text(encoding="utf-8") + "</style>"
CARD_STYLE = "border:1px solid #ccd;border-radius:6px;padding:6px 10px;margin:4px 0;background:#fff"
RULING_STYLE = "border-left:4px solid #8a5a00"
BADGE = ("display:inline-block;font-size:11px;font-weight:bold;color:#fff;background:#8a5a00;"
         "border-radius:3px;padding:0 4px;margin-left:6px")
ID_STYLE = "display:inline-block;font-weight:bold;color:#1f4e79;min-width:3.2em;margin-right:4px"


def card_html(c: RuleCard, lang: str) -> str:
    """One rule card as HTML (R-number, title, one-line text, body, ruling)."""
    t = lambda key: i18n.t(f"rulecard.ui.{key}", lang)  # noqa: E731
    badge = f'<span class="dg-ruling-badge" style="{BADGE}">{escape(t("ruling"))}</span>' if c.ruling else ""
    ruling = (f'<div class="dg-rule-ruling" style="margin-top:3px;color:#5a3b00"><b>{escape(t("ruling_label"))}</b> '
              f"{escape(c.ruling_text(lang))}</div>") if c.ruling else ""
    style = CARD_STYLE + (";" + RULING_STYLE if c.ruling else "")
    cls = "dg-rule-card dg-ruling-card" if c.ruling else "dg-rule-card"
    return (f'<div class="{cls}" data-rule="{c.id}" data-ruling="{str(c.ruling).lower()}" style="{style}">'
            f'<div><span class="dg-rule-id" style="{ID_STYLE}">{c.id}</span>'
            f'<b class="dg-rule-title">{escape(c.title(lang))}</b>{badge}</div>'
            f'<div class="dg-rule-line" style="margin:2px 0">{escape(c.line(lang))}</div>'
            f'<div class="dg-rule-body" style="color:#444">{escape(c.body(lang))}</div>{ruling}</div>')


def _room_rows(lord: Lord, n_rooms: int, lang: str) -> str:
    """The lord's defence and treasure changes room by room in a dungeon of ``n_rooms`` rooms
    (the engine's ``lord_numbers``); its other effects do not depend on the rooms and are in
    the card's numbers."""
    d = E.lord_rooms(lord, n_rooms)
    t = lambda key, **v: i18n.t(f"rulecard.ui.{key}", lang, **v)  # noqa: E731
    rows = []
    for i in range(n_rooms):
        dd, dt = d["defence"][i], d["treasure"][i]
        eq = [(r, a, b) for r, a, b in d["equal"] if r == i + 1]
        if eq:
            dd, dt = eq[0][1], eq[0][2]
        if not (dd or dt):
            continue
        note = f' <i>({escape(t("lord_equal_note"))})</i>' if eq else ""
        rows.append(f"<tr><td>{i + 1}</td><td>{num(f'lord.defence.{i + 1}', signed(dd)) if dd else ''}</td>"
                    f"<td>{num(f'lord.treasure.{i + 1}', money(dt)) if dt else ''}{note}</td></tr>")
    out = ""
    if rows:
        out += (f"<table class='dg-ex-table dg-lord-rooms'><tr><th>{escape(t('lord_room_col'))}</th>"
                f"<th>{escape(t('lord_defence_col'))}</th><th>{escape(t('lord_treasure_col'))}</th></tr>"
                f"{''.join(rows)}</table>")
    return out


def lord_card_html(lord: Lord | str, lang: str | None = None, n_rooms: int | None = None) -> str:
    """A lord card as HTML: name (promo marked), effect, its numbers, and the rules touching it
    with their text; with ``n_rooms``, its changes room by room in a dungeon of that size (from
    the engine's ``lord_numbers``). The board shows it when a player points at the lord."""
    lang = lang or i18n.get_language()
    lc = lord_card(lord, lang)
    obj = lord if isinstance(lord, Lord) else next(x for x in ALL_LORDS if x.id == lc.id)
    t = lambda key: i18n.t(f"rulecard.ui.{key}", lang)  # noqa: E731
    kind = t("promo") if lc.promo else t("base")
    numbers = "".join(f"<li>{escape(x)}</li>" for x in lc.numbers)
    rulings = "".join(f'<li data-rule="{rid}"><b>{rid}</b> {escape(text)}</li>' for rid, text in lc.rulings)
    rooms = _room_rows(obj, n_rooms, lang) if n_rooms else ""
    return (f'<div class="dg-lord-card" data-lord="{escape(lc.id)}" data-promo="{str(lc.promo).lower()}" '
            f'style="{CARD_STYLE}"><div><b class="dg-lord-name" style="font-size:15px">{escape(lc.name)}</b> '
            f'<span style="color:#666">{escape(i18n.t("rulecard.ui.lord_kind", lang, kind=kind))}</span></div>'
            f'<div class="dg-lord-effect"><b>{escape(t("lord_effect"))}</b> {escape(lc.effect)}</div>'
            f'<div><b>{escape(t("lord_numbers"))}</b><ul class="dg-lord-numbers" style="margin:2px 0">{numbers}</ul>'
            f"{rooms}</div><div><b>{escape(t('lord_rulings'))}</b>"
            f'<ul class="dg-lord-rulings" style="margin:2px 0">{rulings or "<li>" + escape(t("lord_none")) + "</li>"}'
            f"</ul></div></div>")


def lords_table_html(lang: str) -> str:
    """All 11 lords: name, base or promo, effect text."""
    t = lambda key: i18n.t(f"rulecard.ui.{key}", lang)  # noqa: E731
    rows = "".join(
        f'<tr class="dg-lord-row" data-lord="{lord.id}"><td><b>{escape(i18n.lord_name(lord, lang))}</b></td>'
        f'<td>{escape(t("promo") if lord.promo else t("base"))}</td>'
        f'<td class="dg-lord-text">{escape(i18n.lord_text(lord, lang))}</td></tr>' for lord in ALL_LORDS)
    return (f'<h4 style="margin:6px 0 2px">{escape(t("lords_title"))}</h4>'
            f'<p class="dg-note" style="margin:2px 0">{escape(t("lords_intro"))}</p>'
            f'<table class="dg-lords-table" data-count="{len(ALL_LORDS)}">{rows}</table>')


class RulesTab(App):
    """See the module docstring. ``RulesTab(lang="zh")``; in the dashboard it shares the
    dashboard's language state."""

    css_class = "dg-rules-tab"
    LORD_LABELS = {"lord_dropdown": "lord_pick", "lord_rooms_dropdown": "lord_rooms"}  # rulecard.ui.*

    def __init__(self, lang: str = "en", lang_state=None, show_language: bool = True):
        super().__init__(lang=lang, lang_state=lang_state, show_language=show_language)
        self.intro_html = W.HTML().add_class("dg-rules-tab-intro")
        self.card_html: dict[str, W.HTML] = {c.id: W.HTML().add_class("dg-rule-card-w") for c in CARDS}
        self.panels: dict[str, ExamplePanel] = {}
        for c in CARDS:
            if c.example:
                panel = PANELS[c.example]()
                panel.on_change(self._on_example)
                self.panels[c.id] = panel
        self.example_titles: dict[str, W.HTML] = {rid: W.HTML() for rid in self.panels}
        self.lords_html = W.HTML().add_class("dg-lords-all")
        self.lord_dropdown = W.Dropdown(options=[(x.id, x.id) for x in ALL_LORDS], value=ALL_LORDS[0].id,
                                        layout=W.Layout(width="280px")).add_class("dg-lord-pick")
        self.lord_rooms_dropdown = W.Dropdown(options=room_counts(), value=4,
                                              layout=W.Layout(width="240px")).add_class("dg-lord-rooms-pick")
        self.lord_detail_html = W.HTML().add_class("dg-lord-detail")
        for w in (self.lord_dropdown, self.lord_rooms_dropdown):
            w.observe(self._on_lord, "value")
        self.group_pages = {g: W.VBox([self._card_box(c) for c in cards_in(g)]).add_class(f"dg-rules-group-{g}")
                            for g in GROUPS}
        lords_page = self.group_pages["lords"]
        lords_page.children = tuple(lords_page.children) + (
            self.lords_html, W.HBox([self.lord_dropdown, self.lord_rooms_dropdown]), self.lord_detail_html)
        self.accordion = W.Accordion(children=[self.group_pages[g] for g in GROUPS], selected_index=0
                                     ).add_class("dg-rules-accordion")
        self.print_panel = PrintPanel(lambda: (None, ALL_LORDS), lang)  # the reference deck, all 11 lords
        self.print_panel.button.on_click(self._on_print)
        self.children = [W.HTML(_STYLE), self.language_toggle, self.intro_html, self.message, self.accordion,
                         self.print_panel]
        self.relabel()
        self.refresh()

    def _card_box(self, c: RuleCard) -> W.Widget:
        parts: list[W.Widget] = [self.card_html[c.id]]
        if c.id in self.panels:
            box = W.VBox([self.example_titles[c.id], self.panels[c.id]],
                         layout=W.Layout(margin="0 0 8px 3.2em", padding="4px 8px", border="1px dashed #99b"))
            parts.append(box.add_class("dg-example-box"))
        return W.VBox(parts).add_class("dg-rule").add_class(f"dg-rule-{c.id.replace('.', '_')}")

    # ------------------------------------------------------------------ navigation
    def show_rule(self, rule_id: str) -> None:
        """Open the section holding rule ``rule_id``."""
        self.accordion.selected_index = GROUPS.index(card(rule_id).group)

    def show_lord(self, lord_id: str) -> None:
        """Open the lords section with lord ``lord_id`` picked."""
        if lord_id not in [v for _, v in self.lord_dropdown.options]:
            raise ValueError(f"no lord {lord_id!r}")
        self.accordion.selected_index = GROUPS.index("lords")
        self.lord_dropdown.value = lord_id

    # ------------------------------------------------------------------ words and drawing
    def relabel(self) -> None:
        lang = self.lang
        t = lambda key: i18n.t(f"rulecard.ui.{key}", lang)  # noqa: E731
        self.intro_html.value = f'<p class="dg-note" style="margin:4px 0">{escape(t("intro"))}</p>'
        self.accordion.titles = tuple(group_title(g, lang) for g in GROUPS)
        for rid, title in self.example_titles.items():
            title.value = f'<b class="dg-example-title">▶ {escape(t("example"))} ({rid})</b>'
        for panel in self.panels.values():
            panel.relabel(lang)
        value = self.lord_dropdown.value
        self.lord_dropdown.options = [
            (i18n.t("rulecard.ui.lord_option", lang, name=i18n.lord_name(x, lang), kind=t("promo") if x.promo else t("base")),
             x.id) for x in ALL_LORDS]
        self.lord_dropdown.value = value
        self.print_panel.relabel(lang)
        label_all(self, self.LORD_LABELS, t)
        for w in (self.lord_dropdown, self.lord_rooms_dropdown):
            w.style = {"description_width": "initial"}

    def refresh(self) -> None:
        lang = self.lang
        for c in CARDS:
            self.card_html[c.id].value = card_html(c, lang)
        for panel in self.panels.values():
            panel.refresh(lang)
        self.lords_html.value = lords_table_html(lang)
        self._draw_lord()

    def _draw_lord(self) -> None:
        self.lord_detail_html.value = lord_card_html(self.lord_dropdown.value, self.lang,
                                                     int(self.lord_rooms_dropdown.value))

    @safe
    def _on_example(self, change) -> None:
        owner = change["owner"]
        for panel in self.panels.values():
            if owner in panel.controls:
                panel.refresh(self.lang)

    @safe
    def _on_print(self, _button=None) -> None:
        self.print_panel.prepare()

    @safe
    def _on_lord(self, change) -> None:
        self._draw_lord()


__all__ = ["RulesTab", "card_html", "lord_card_html", "lords_table_html"]
