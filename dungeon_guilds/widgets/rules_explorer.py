"""The rules explorer: every rule option and every project ruling, and two rule sets compared in
words (docs/rules.md: "every ruling should be visible to users", §9 "switch edition and see the
difference").

``RulesExplorer()`` shows

* two rule-set pickers side by side, A and B (lords ``none``/``base``/``all``, teams
  ``none``/``2v2``/``3v3``/``2v2v2``, NPC adventurers on/off, edition ``zh``/``fr``) and a player
  count 3–6. Both rule sets are checked with :meth:`Rules.check_players`: a combination the
  engine refuses (3v3 with 4 players) is shown as the engine's refusal in the message area,
  never as an exception;
* what changes from A to B, from :func:`dungeon_guilds.rules.differences`; the points where
  the French summary is silent (R9.2, R9.3, and the five points of R9.5) or agrees (R9.4) are
  listed apart, and those it leaves unstated are marked (class ``dg-unstated``, "unstated in
  FR");
* a table of every option of :data:`~dungeon_guilds.rules.OPTIONS` (values, default,
  description, source, whether it is a project ruling) and a table of every ruling of
  :data:`~dungeon_guilds.rules.RULINGS`;
* always, the points the French summary leaves unstated (R9.5,
  :func:`~dungeon_guilds.rules.unstated_in_fr`), each marked "unstated in FR".

Words. Labels come from the ``[rules]`` section of ``dungeon_guilds/strings/<lang>.toml`` (the
pickers reuse ``ui.*`` and ``option.*``). **In English the explorer shows the engine's own text
verbatim**: the difference sentences of :func:`~dungeon_guilds.rules.differences`, the option
descriptions, the value words of :func:`~dungeon_guilds.rules.describe_value` and the ruling
texts, all from ``rules.py``. **Another language builds the same sentences from keys**: the
structure of :func:`difference_items` (which mirrors ``differences()`` item for item) worded
with ``rules.diff_option`` / ``diff_swap`` / ``diff_silence``, option names ``rules.name_<option>``,
value words ``rules.value_<option>_<value>``, silences ``rules.silence_<R>`` (numbered like
rulings, see :func:`silence_keys`), descriptions
``rules.option_<name>`` and rulings ``rules.ruling_<R>`` (dots as underscores; an R-number that
occurs again in ``RULINGS`` gets ``_2``, ``_3`` …, see :func:`ruling_keys`). The English table
repeats ``rules.py`` word for word (a test checks it), so a translator translates exactly what
the engine says. A text with no key in a language (a ruling added to ``rules.py`` later) is
shown in the engine's English rather than lost; if ``differences()`` ever says something
:func:`difference_items` does not know, its English sentences are shown.

Sub-widgets: ``a_lords``, ``a_teams``, ``a_npc``, ``a_edition`` and the same ``b_*``,
``a_title`` / ``b_title``, ``players_dropdown``, ``intro_html``, ``differences_html``,
``options_html``, ``rulings_html``, ``unstated_html``, ``message``, ``language_toggle``. ``rules_a`` / ``rules_b``
are the :class:`Rules` picked, ``differences`` the engine's English sentences last shown and
``refusals`` ``{"A"|"B": reason}`` the engine's refusals for the player count. CSS class
``dg-rules-explorer``.
"""

from __future__ import annotations

import re
from html import escape
from typing import Any

import ipywidgets as W

from .. import i18n
from ..reference import _numbered_keys
from ..rules import (EDITION_SILENCES, EDITIONS, LORDS_OPTIONS, MAX_PLAYERS, MIN_PLAYERS, OPTIONS,
                     RULINGS, TEAM_OPTIONS, UNSTATED_FR, Rules, RulesError, describe_value,
                     differences, unstated_in_fr)
from .common import NONE, App, safe, set_options
from .labels import label_all

SIDES = ("A", "B")


# ---------------------------------------------------------------------- keys and words
def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9]+", "_", text).strip("_")


def value_code(value: Any) -> str:
    """An option value as the records and the CLI write it (``absent`` for no teams)."""
    if value is None:
        return "absent"
    if isinstance(value, bool):
        return str(value).lower()
    return str(value)


def value_key(option: str, value: Any) -> str:
    slug = "none" if value is None else str(value).lower() if isinstance(value, bool) else _slug(str(value))
    return f"rules.value_{option}_{slug}"


def ruling_keys() -> list[str]:
    """The strings key of each entry of ``RULINGS``, in order: ``rules.ruling_R4_7``; an
    R-number met again gets ``_2``, ``_3`` … (``RULINGS`` holds two R4.3 rulings)."""
    return _numbered_keys("ruling", RULINGS)


def silence_keys() -> list[str]:
    """The strings key of each entry of ``EDITION_SILENCES``, in order: ``rules.silence_R9_2``;
    an R-number met again gets ``_2``, ``_3`` … (R9.5 lists five unstated points)."""
    return _numbered_keys("silence", EDITION_SILENCES)


def _silence_key(rule: str, text: str) -> str:
    try:
        return silence_keys()[EDITION_SILENCES.index((rule, text))]
    except ValueError:  # a silence this module does not list: its own R-number's key
        return f"rules.silence_{_slug(rule)}"


def _word(key: str, english: str, lang: str) -> str:
    """``english`` (the engine's text) in English; else the language's ``key``, or the
    engine's English when no table has that key."""
    if lang == i18n.FALLBACK or not i18n.has(key, lang):
        return english
    return i18n.t(key, lang)


def value_word(option: str, value: Any, lang: str) -> str:
    return _word(value_key(option, value), describe_value(option, value), lang)


def option_description(name: str, lang: str) -> str:
    info = next(o for o in OPTIONS if o.name == name)
    return _word(f"rules.option_{name}", info.description, lang)


def rule_label(rule: str, lang: str) -> str:
    """A ruling's rule number as shown (a ruling not numbered in the rules reference, such as
    ``PB``, gets a name: ``rules.rule_<code>``)."""
    key = f"rules.rule_{_slug(rule)}"
    return i18n.t(key, lang) if i18n.has(key, lang) else rule


def option_name(name: str, lang: str) -> str:
    """An option's name for people (``rules.title_<option>``)."""
    return i18n.t(f"rules.title_{name}", lang)


def option_help(name: str, lang: str) -> str:
    """What an option does, in sentences without option codes (``rules.help_<option>``)."""
    return i18n.t(f"rules.help_{name}", lang)


def source_words(source: str, lang: str) -> str:
    """An option's source (``the Chinese rulebook (城主卡 section), docs/rules.md R1.3``) with
    names a student can read: each source document by its name in ``lang``, the rules file as
    the rules reference."""
    from ..siblings import DOCUMENTS

    text = source.replace(" section)", ")")
    text = re.sub(r"\(([^()]+)\)", lambda m: i18n.t("rules.source_section", lang, section=m.group(1)), text)
    for doc in DOCUMENTS.values():
        key = f"cite.doc_{doc.id}"
        if i18n.has(key, lang):
            text = text.replace(doc.name, i18n.t(key, lang))
    text = text.replace("docs/rules.md", i18n.t("rules.source_rules", lang))
    return text.replace(" and ", i18n.t("rules.source_and", lang))


def ruling_texts(lang: str) -> list[tuple[str, str]]:
    """Every ``(R-number, text)`` of ``RULINGS`` with the text in ``lang``."""
    return [(rule, _word(key, text, lang)) for (rule, text), key in zip(RULINGS, ruling_keys())]


def difference_items(a: Rules, b: Rules) -> list[tuple]:
    """What :func:`~dungeon_guilds.rules.differences` says, as data, item for item:
    ``("option", name, value_a, value_b)``, ``("swap", edition_a, edition_b)`` (R9.1) and
    ``("silence", rule, english_text)`` (EDITION_SILENCES)."""
    items: list[tuple] = []
    for info in OPTIONS:
        va, vb = getattr(a, info.name), getattr(b, info.name)
        if va != vb:
            items.append(("option", info.name, va, vb))
    if a.edition != b.edition:
        items.append(("swap", a.edition, b.edition))
        items += [("silence", rule, text) for rule, text in EDITION_SILENCES]
    return items


def difference_text(item: tuple, lang: str) -> str:
    """One item of :func:`difference_items` as a sentence built from the strings table."""
    t = lambda key, **v: i18n.t(key, lang, **v)  # noqa: E731
    kind = item[0]
    if kind == "option":
        _, name, va, vb = item
        option = i18n.t(f"rules.name_{name}", lang) if i18n.has(f"rules.name_{name}", lang) else name
        return t("rules.diff_option", option=option, a=value_word(name, va, lang), b=value_word(name, vb, lang))
    if kind == "swap":
        room = lambda edition: t("rules.swap_full" if Rules(edition=edition).swap_needs_full_room  # noqa: E731
                                 else "rules.swap_unlocked")
        return t("rules.diff_swap", a=room(item[1]), b=room(item[2]))
    _, rule, text = item
    return t("rules.diff_silence", rule=rule, text=_word(_silence_key(rule, text), text, lang))


# ---------------------------------------------------------------------- the app
class RulesExplorer(App):
    """See the module docstring. ``RulesExplorer(a=Rules(), b=Rules(edition="fr"), players=4)``."""

    css_class = "dg-rules-explorer"
    LABELS = {"players_dropdown": "ui.players"}  # and each set's four options (relabel)

    def __init__(self, a: Rules | None = None, b: Rules | None = None, players: int = 4,
                 lang: str = "en", lang_state=None, show_language: bool = True):
        super().__init__(lang=lang, lang_state=lang_state, show_language=show_language)
        a, b = a or Rules(), b or Rules()
        self.rules_a, self.rules_b = a, b
        self.differences: list[str] = []
        self.refusals: dict[str, str] = {}
        self.intro_html = W.HTML().add_class("dg-rules-intro")
        for side, rules in (("a", a), ("b", b)):
            title = W.HTML().add_class(f"dg-rules-title-{side}")
            lords = W.Dropdown(options=list(LORDS_OPTIONS), value=rules.lords).add_class(f"dg-rules-{side}-lords")
            teams = W.Dropdown(options=[NONE if v is None else v for v in TEAM_OPTIONS],
                               value=rules.teams or NONE).add_class(f"dg-rules-{side}-teams")
            npc = W.Checkbox(value=rules.npc, indent=False).add_class(f"dg-rules-{side}-npc")
            edition = W.Dropdown(options=list(EDITIONS), value=rules.edition).add_class(f"dg-rules-{side}-edition")
            for name, widget in (("title", title), ("lords", lords), ("teams", teams), ("npc", npc),
                                 ("edition", edition)):
                setattr(self, f"{side}_{name}", widget)
            for widget in (lords, teams, npc, edition):
                widget.observe(self._on_change, "value")
        self.players_note = W.HTML().add_class("dg-rules-players-note")
        self.players_dropdown = W.Dropdown(options=list(range(MIN_PLAYERS, MAX_PLAYERS + 1)),
                                           value=players).add_class("dg-players")
        self.players_dropdown.observe(self._on_change, "value")
        self.differences_html = W.HTML().add_class("dg-rules-differences")
        self.options_html = W.HTML().add_class("dg-rules-options")
        self.rulings_html = W.HTML().add_class("dg-rules-rulings")
        self.unstated_html = W.HTML().add_class("dg-rules-unstated")
        column = lambda side: W.VBox(  # noqa: E731
            [getattr(self, f"{side}_{n}") for n in ("title", "lords", "teams", "npc", "edition")],
            layout=W.Layout(margin="0 24px 0 0")).add_class(f"dg-rules-set-{side}")
        self.children = [
            self.language_toggle, self.intro_html,
            W.HBox([column("a"), column("b")]).add_class("dg-rules-sets"),
            W.HBox([self.players_note, self.players_dropdown], layout=W.Layout(align_items="center")),
            self.message, self.differences_html, self.options_html, self.rulings_html,
            self.unstated_html,
        ]
        self.relabel()
        self.refresh()

    # ------------------------------------------------------------------ pickers
    def _picked(self, side: str) -> Rules:
        teams = getattr(self, f"{side}_teams").value
        return Rules(lords=getattr(self, f"{side}_lords").value, teams=None if teams == NONE else teams,
                     npc=bool(getattr(self, f"{side}_npc").value), edition=getattr(self, f"{side}_edition").value)

    def set_rules(self, side: str, rules: Rules) -> None:
        """Show ``rules`` in the picker of ``side`` (``"A"`` or ``"B"``)."""
        s = side.lower()
        if s not in ("a", "b"):
            raise ValueError(f"no rule set {side!r} (A or B)")
        getattr(self, f"{s}_lords").value = rules.lords
        getattr(self, f"{s}_teams").value = rules.teams or NONE
        getattr(self, f"{s}_npc").value = rules.npc
        getattr(self, f"{s}_edition").value = rules.edition
        self.refresh()

    def relabel(self) -> None:
        t = self.t
        for side, key in (("a", "rules.set_a"), ("b", "rules.set_b")):
            getattr(self, f"{side}_title").value = f"<b>{escape(t(key))}</b>"
            lords, teams = getattr(self, f"{side}_lords"), getattr(self, f"{side}_teams")
            npc, edition = getattr(self, f"{side}_npc"), getattr(self, f"{side}_edition")
            set_options(lords, [(t(f"option.lords_{v}"), v) for v in LORDS_OPTIONS])
            set_options(teams, [(t("option.teams_none"), NONE) if v is None else (v, v) for v in TEAM_OPTIONS])
            set_options(edition, [(t(f"option.edition_{v}"), v) for v in EDITIONS])
            label_all(self, {f"{side}_{name}": f"ui.{name}" for name in ("lords", "teams", "npc", "edition")}, t)
            for w in (lords, teams, edition):
                w.style = {"description_width": "initial"}
        self.players_note.value = f"<span>{escape(t('rules.players_note'))}</span>&nbsp;"
        label_all(self, self.LABELS, t)
        self.players_dropdown.style = {"description_width": "initial"}
        self.intro_html.value = f'<p class="dg-note">{escape(t("rules.intro"))}</p>'

    @safe
    def _on_change(self, change) -> None:
        self.refresh()

    # ------------------------------------------------------------------ drawing
    def refresh(self) -> None:
        lang = self.lang
        a, b = self._picked("a"), self._picked("b")
        self.rules_a, self.rules_b = a, b
        n = int(self.players_dropdown.value)
        self.refusals = {}
        errors: dict[str, RulesError] = {}
        for side, rules in zip(SIDES, (a, b)):
            try:
                rules.check_players(n)
            except RulesError as exc:  # the engine's refusal, shown in its words
                self.refusals[side] = str(exc)
                errors[side] = exc
        if errors:
            self.say(lambda: "; ".join(
                self.t("rules.refused", side=side, players=n, reason=i18n.refusal_text(exc, self.lang))
                for side, exc in errors.items()), "warn")
        else:
            self.say(lambda: self.t("rules.playable", players=n), "ok")
        self.differences = differences(a, b)
        self.differences_html.value = self._differences_html(a, b, lang)
        self.options_html.value = self._options_html(lang)
        self.rulings_html.value = self._rulings_html(lang)
        self.unstated_html.value = self._unstated_html(lang)

    def _differences_html(self, a: Rules, b: Rules, lang: str) -> str:
        t = lambda key, **v: i18n.t(key, lang, **v)  # noqa: E731
        head = f'<h4 style="margin:8px 0 4px">{escape(t("rules.differences"))}</h4>'
        english = self.differences
        items = difference_items(a, b)
        if not english:
            return (f'{head}<p class="dg-rules-same" data-count="0">'
                    f'{escape(t("rules.no_difference"))}</p>')
        if len(items) != len(english):  # differences() says something this module does not know
            items, words = [("text", line) for line in english], list(english)
        elif lang == i18n.FALLBACK:  # the engine's own sentences
            words = list(english)
        else:
            words = [difference_text(item, lang) for item in items]
        changes, silences = [], []
        for item, line in zip(items, words):
            kind = item[0]
            attrs = f'class="dg-diff dg-diff-{kind}"'
            if kind == "option":
                attrs += f' data-option="{escape(item[1])}"'
            elif kind == "swap":
                attrs += ' data-rule="R9.1"'
            elif kind == "silence":
                unstated = UNSTATED_FR in item[2]
                attrs = (f'class="dg-diff dg-diff-silence{" dg-unstated" if unstated else ""}" '
                         f'data-rule="{escape(item[1])}"')
                if unstated:
                    attrs += (f' data-unstated="fr" title="{escape(t("rules.unstated"))}"'
                              ' style="border-left:3px solid #8a5a00;padding-left:4px"')
            (silences if kind == "silence" else changes).append(f"<li {attrs}>{escape(line)}</li>")
        out = f'{head}<ul class="dg-diff-list" data-count="{len(changes)}">{"".join(changes)}</ul>'
        if silences:
            out += (f'<div class="dg-note" style="margin-top:4px">{escape(t("rules.silences"))}</div>'
                    f'<ul class="dg-silence-list">{"".join(silences)}</ul>')
        return out

    def _options_html(self, lang: str) -> str:
        """Every option in sentences: its name, each value in words (★ the default), what it
        does, where the rule comes from, whether it is a project ruling (no raw values)."""
        t = lambda key: i18n.t(key, lang)  # noqa: E731
        cols = ("option", "values", "default", "description", "source", "ruling")
        header = "".join(f"<th>{escape(t(f'rules.col_{c}'))}</th>" for c in cols)
        rows = []
        for info in OPTIONS:
            values = "".join(
                f"<li data-value='{escape(value_code(v))}'>{escape(value_word(info.name, v, lang))}"
                f"{' ★' if v == info.default else ''}</li>" for v in info.values)
            ruling = t("rules.ruling_yes") if info.ruling else t("rules.ruling_no")
            rows.append(
                f'<tr class="dg-option" data-option="{escape(info.name)}" data-ruling="{str(info.ruling).lower()}">'
                f"<td><b>{escape(option_name(info.name, lang))}</b></td>"
                f"<td><ul style='margin:0;padding-left:1.1em'>{values}</ul></td>"
                f"<td>{escape(value_word(info.name, info.default, lang))}</td>"
                f"<td>{escape(option_help(info.name, lang))}</td>"
                f"<td>{escape(source_words(info.source, lang))}</td><td>{escape(ruling)}</td></tr>")
        return (f'<h4 style="margin:12px 0 4px">{escape(t("rules.options_title"))}</h4>'
                f'<table class="dg-rules-option-table" style="border-collapse:collapse">'
                f"<tr>{header}</tr>{''.join(rows)}</table>"
                f'<p class="dg-note">{escape(t("rules.default_mark"))}</p>')

    def _rulings_html(self, lang: str) -> str:
        t = lambda key: i18n.t(key, lang)  # noqa: E731
        rows = "".join(f'<tr class="dg-ruling" data-rule="{escape(rule)}"><td><b>{escape(rule_label(rule, lang))}</b></td>'
                       f"<td>{escape(text)}</td></tr>" for rule, text in ruling_texts(lang))
        return (f'<h4 style="margin:12px 0 4px">{escape(t("rules.rulings_title"))}</h4>'
                f'<table class="dg-rules-ruling-table" data-count="{len(RULINGS)}">'
                f'<tr><th>{escape(t("rules.col_rule"))}</th><th>{escape(t("rules.col_text"))}</th></tr>'
                f"{rows}</table>")

    def _unstated_html(self, lang: str) -> str:
        """Every point the French summary leaves unstated (R9.5), marked "unstated in FR"."""
        t = lambda key: i18n.t(key, lang)  # noqa: E731
        items = "".join(
            f'<li class="dg-unstated" data-rule="{escape(rule)}" data-unstated="fr" '
            f'title="{escape(t("rules.unstated"))}" style="border-left:3px solid #8a5a00;padding-left:4px">'
            f'<b>{escape(rule)}</b> {escape(_word(_silence_key(rule, text), text, lang))}</li>'
            for rule, text in unstated_in_fr())
        return (f'<h4 style="margin:12px 0 4px">{escape(t("rules.unstated_title"))}</h4>'
                f'<ul class="dg-unstated-list" data-count="{len(unstated_in_fr())}">{items}</ul>')


__all__ = ["RulesExplorer", "difference_items", "difference_text", "ruling_keys", "ruling_texts",
           "silence_keys", "value_word"]
