"""DeckEditor: edit the deck as three small tables, with validation that names each cell.

The tables are those of ``docs/reference-deck.md``: heal cost per strength (R1.1); the
defence and treasure ranges printed on each level's back (R1.2; the top of the defence range is
the lock threshold, R4.3); one row per kind of room card, with its count. Every cell is a text
box, so anything a student types (or a file holds) can be shown and named: a bad cell is marked
(CSS class ``dg-cell-error``, its message as tooltip) and listed under the tables, e.g. ``Rooms,
row 3, count: must be at least 1, got 0``. A valid table is built into a
:class:`~dungeon_guilds.cards.Deck` by the engine's own parser; ``Use this deck`` adds it to the
workshop session (the A/B experiment and new games offer it; the deck travels into game
records). Import and export: TOML or CSV text (paste, upload, download).

Headless use (tests, scripts)::

    ed = DeckEditor()
    ed.cells[("rooms", 0, "count")].value = "0"      # the first room row's count
    ed.problems                                       # [Problem('rooms', 1, 'count', ...)]
    ed.cells[("rooms", 0, "count")].value = "5"
    ed.use_button.click(); ed.deck                    # a valid Deck, in ed.session.decks
"""

from __future__ import annotations

import html
from pathlib import Path
from typing import Any

import ipywidgets as W

from .. import i18n
from ..cards import Deck, DeckError, reference_deck
from ..lords import BASE_LORDS
from ..workshop.deck_edit import (RESERVED_NAME, HEAL_COLUMNS, LEVEL_COLUMNS, ROOM_COLUMNS, DeckTable,
                                  DeckTableError, Problem, clear_chances, deck_changes, deck_from_table, deck_summary, errors_of,
                                  shown_deck_name, stored_deck_name, table_from_deck,
                                  table_from_text, table_to_text, validate)
from ..workshop.session import WorkshopSession
from ..workshop.strings import error_text as workshop_error_text
from ..workshop.strings import wt
from .common import App, message_html, safe
from .downloads import download_link
from .inputs import fit
from .labels import Words, label_all
from .print_panel import PrintPanel

_STYLE = "<style>" + Path(__file__).with_name("deck_editor.css").read_text(encoding="utf-8") + "</style>"

_COLUMNS = {"heal": HEAL_COLUMNS, "levels": LEVEL_COLUMNS, "rooms": ROOM_COLUMNS}
_CELL_WIDTH = "92px"


def problem_text(problem: Problem, lang: str) -> str:
    """A problem in ``lang``: the cell (table, row, column) and the message (the workshop's
    problem's code worded by the language's template, ``workshop/errors.py``)."""
    if lang == i18n.FALLBACK:
        return str(problem)
    where = wt(f"deck_table_{problem.table}", lang)
    if problem.row:
        where += wt("deck_row", lang, row=problem.row)
    if problem.column:
        where += "，" + wt(f"col_{problem.column}", lang)
    return f"{where}：{problem.text(lang)}"


class DeckEditor(App):
    """Edit a deck. Sub-widgets (for notebooks and headless/browser tests):

    ``name_text``, ``description_text``; ``cells`` {(table, row index from 0, column): Text}
    for the tables ``heal`` (strength, heal_cost), ``levels`` (level, defence_low,
    defence_high, treasure_low, treasure_high) and ``rooms`` (level, defence, treasure,
    count); ``remove_buttons`` (one per room row), ``add_room_button``; ``problems_html``
    (every problem, naming its cell), ``summary_html``, ``chances_html``; ``reset_button``
    (the reference deck), ``use_button`` (validate and add to ``session.decks``);
    ``import_format``, ``import_text``, ``upload``, ``import_button``; ``export_format``,
    ``export_button``, ``export_text``, ``download_html``; ``print_panel`` (print and play: this
    deck's cards as a browser download); ``message``, ``language_toggle``.
    ``table`` is the :class:`DeckTable` shown, ``deck`` the Deck it makes (or a DeckError).
    """

    css_class = "dg-deck-editor"
    # every control's words (labels.py)
    LABELS = {"name_text": "name", "description_text": "description",
              "heal_label": Words("deck_heal", html="<b>{}</b> (R1.1)"),
              "levels_label": Words("deck_levels", html="<b>{}</b> (R1.2, R4.3)"),
              "rooms_label": Words("deck_rooms", html="<b>{}</b>"), "add_room_button": "deck_add_room",
              "reset_button": "deck_reset", "use_button": "deck_use", "import_button": "deck_import",
              "import_text.placeholder": "deck_paste", "upload": "deck_upload",
              "export_button": "deck_export"}

    @staticmethod
    def error_words(exc: BaseException, lang: str) -> str:
        """The workshop's errors in the language; a table that makes no deck names each bad cell."""
        if isinstance(exc, DeckTableError):
            sep = "; " if lang == i18n.FALLBACK else "；"
            return i18n.t("error.invalid", lang, message=sep.join(problem_text(p, lang) for p in exc.problems))
        return workshop_error_text(exc, lang)

    def __init__(self, deck: Deck | None = None, session: WorkshopSession | None = None, lang: str = "en",
                 lang_state=None, show_language: bool = True):
        super().__init__(lang=lang, lang_state=lang_state, show_language=show_language)
        self.session = session or WorkshopSession()
        self.table: DeckTable = table_from_deck(deck)
        self.cells: dict[tuple[str, int, str], W.Text] = {}
        self.remove_buttons: list[W.Button] = []
        self._problems: list[Problem] = []
        self._building = False
        self.style_html = W.HTML(_STYLE)
        self.title_html = W.HTML().add_class("dg-title")
        self.name_text = W.Text(continuous_update=False).add_class("dg-deck-name")
        self.description_text = W.Text(continuous_update=False, layout=W.Layout(width="480px")).add_class(
            "dg-deck-description")
        self.heal_label = W.HTML()
        self.levels_label = W.HTML()
        self.rooms_label = W.HTML()
        self.heal_box = W.VBox().add_class("dg-grid").add_class("dg-grid-heal")
        self.levels_box = W.VBox().add_class("dg-grid").add_class("dg-grid-levels")
        self.rooms_box = W.VBox().add_class("dg-grid").add_class("dg-grid-rooms")
        self.add_room_button = W.Button(icon="plus", layout=fit()).add_class("dg-add-room")
        self.problems_html = W.HTML().add_class("dg-problems")
        self.summary_html = W.HTML().add_class("dg-deck-summary")
        self.chances_html = W.HTML().add_class("dg-chances")
        self.reset_button = W.Button(icon="undo", layout=fit()).add_class("dg-deck-reset")
        self.use_button = W.Button(button_style="primary", icon="check", layout=fit()).add_class("dg-deck-use")
        self.import_format = W.ToggleButtons(options=["toml", "csv"], value="toml").add_class("dg-import-format")
        self.import_text = W.Textarea(layout=W.Layout(width="560px", height="120px")).add_class("dg-import-text")
        self.upload = W.FileUpload(accept=".toml,.csv", multiple=False).add_class("dg-upload")
        self.import_button = W.Button(icon="upload", layout=fit()).add_class("dg-import")
        self.export_format = W.ToggleButtons(options=["toml", "csv"], value="toml").add_class("dg-export-format")
        self.export_button = W.Button(icon="download", layout=fit()).add_class("dg-export")
        self.export_text = W.Textarea(layout=W.Layout(width="560px", height="120px")).add_class("dg-export-text")
        self.download_html = W.HTML().add_class("dg-download-html")
        self.print_panel = PrintPanel(self._print_source, lang)
        # wiring
        self.name_text.observe(self._on_meta, "value")
        self.description_text.observe(self._on_meta, "value")
        self.add_room_button.on_click(self._on_add_room)
        self.reset_button.on_click(self._on_reset)
        self.use_button.on_click(self._on_use)
        self.import_button.on_click(self._on_import)
        self.export_button.on_click(self._on_export)
        self.print_panel.button.on_click(self._on_print)
        self.children = [
            self.style_html, self.language_toggle, self.title_html,
            W.HBox([self.name_text, self.description_text]),
            self.heal_label, self.heal_box, self.levels_label, self.levels_box,
            self.rooms_label, self.rooms_box, self.add_room_button,
            self.problems_html, self.message, W.HBox([self.reset_button, self.use_button]),
            self.summary_html, self.chances_html,
            W.HBox([self.import_format, self.upload, self.import_button]), self.import_text,
            W.HBox([self.export_format, self.export_button, self.download_html]), self.export_text,
            self.print_panel,
        ]
        self.relabel()
        self.load_table(self.table)

    # ------------------------------------------------------------------ the tables
    def load_table(self, table: DeckTable) -> None:
        """Show ``table`` (rebuilds every cell) and validate it."""
        self._building = True
        try:
            self.table = table
            self._show_meta()
            self.cells = {}
            self.remove_buttons = []
            self.heal_box.children = self._grid("heal", table.heal)
            self.levels_box.children = self._grid("levels", table.levels)
            self.rooms_box.children = self._grid("rooms", table.rooms, removable=True)
        finally:
            self._building = False
        self.refresh()

    def _grid(self, name: str, rows: list[dict[str, Any]], removable: bool = False) -> list[W.Widget]:
        columns = _COLUMNS[name]
        head = [W.HTML(html.escape(wt(f"col_{c}", self.lang)), layout=W.Layout(width=_CELL_WIDTH))
                .add_class("dg-grid-head") for c in columns]
        out: list[W.Widget] = [W.HBox(head).add_class("dg-grid-header")]
        for i, row in enumerate(rows):
            cells = []
            for c in columns:
                value = row.get(c, "")
                cell = W.Text(value="" if value is None else str(value), continuous_update=False,
                              layout=W.Layout(width=_CELL_WIDTH))
                cell.add_class("dg-cell").add_class(f"dg-{name}-{c.replace('_', '-')}").add_class(f"dg-row-{i + 1}")
                cell.observe(self._cell_observer(name, i, c), "value")
                self.cells[(name, i, c)] = cell
                cells.append(cell)
            if removable:
                button = W.Button(description=wt("deck_remove", self.lang), layout=W.Layout(width="40px"))
                button.add_class("dg-remove-room").add_class(f"dg-row-{i + 1}")
                button.on_click(self._remove_observer(i))
                self.remove_buttons.append(button)
                cells.append(button)
            out.append(W.HBox(cells).add_class("dg-grid-row").add_class(f"dg-{name}-row"))
        return out

    def _cell_observer(self, name: str, i: int, column: str):
        @safe
        def changed(_self, change) -> None:
            rows = getattr(self.table, name)
            if i < len(rows):
                rows[i][column] = change["new"]
            if not self._building:
                self._rename_if_edited()
                self.refresh()
        return lambda change: changed(self, change)

    def _remove_observer(self, i: int):
        @safe
        def clicked(_self, _button) -> None:
            self.remove_room(i)
        return lambda button: clicked(self, button)

    def _rename_if_edited(self) -> None:
        """An edited reference deck is no longer the reference deck: call it "custom" (as
        ``Deck.with_values`` does), unless the user named it."""
        if self.table.name.strip() != RESERVED_NAME:
            return
        try:
            same = deck_from_table(self.table) == reference_deck()
        except DeckError:
            same = False
        if not same:
            self.table.name = "custom"
            if self.table.description.strip() == reference_deck().description.strip():
                # the reference deck's description no longer describes it (issue 15)
                self.table.description = wt("deck_custom_description", self.lang)
            self._show_meta()

    def remove_room(self, i: int) -> None:
        table = self.table.copy()
        del table.rooms[i]
        self.table = table
        self._rename_if_edited()
        self.load_table(self.table)

    def add_room(self, level: int = 1, defence: Any = "", treasure: Any = "", count: Any = 1) -> None:
        table = self.table.copy()
        if defence == "" and level in (1, 2, 3):
            lv = next((r for r in table.levels if str(r.get("level")) == str(level)), None)
            if lv is not None:
                defence, treasure = lv.get("defence_low", ""), lv.get("treasure_low", "")
        table.rooms.append({"level": level, "defence": defence, "treasure": treasure, "count": count})
        self.table = table
        self._rename_if_edited()
        self.load_table(self.table)

    # ------------------------------------------------------------------ what the table makes
    @property
    def problems(self) -> list[Problem]:
        return list(self._problems)

    @property
    def deck(self) -> Deck:
        """The deck the table describes (raises :class:`DeckError` naming every bad cell)."""
        return deck_from_table(self.table)

    def refresh(self) -> None:
        self._problems = validate(self.table)
        marked = {}
        for p in self._problems:
            if p.row > 0:
                key = (p.table, p.row - 1, p.column)
                if key in self.cells and p.severity == "error":
                    marked.setdefault(key, []).append(p.text(self.lang))
        for key, cell in self.cells.items():
            if key in marked:
                cell.add_class("dg-cell-error")
                cell.tooltip = "; ".join(marked[key])
            else:
                cell.remove_class("dg-cell-error")
                cell.tooltip = None
        errors = errors_of(self._problems)
        items = "".join(f'<li class="dg-problem dg-problem-{p.severity}" data-table="{p.table}" '
                        f'data-row="{p.row}" data-column="{html.escape(p.column)}">{html.escape(problem_text(p, self.lang))}</li>'
                        for p in self._problems)
        head = wt("deck_invalid", self.lang, n=len(errors)) if errors else ""
        self.problems_html.value = (f"<div>{html.escape(head)}</div><ul>{items}</ul>" if items else "")
        if errors:
            self.summary_html.value = ""
            self.chances_html.value = ""
            self.name_text.remove_class("dg-cell-error")
            if any(p.table == "deck" for p in errors):
                self.name_text.add_class("dg-cell-error")
            return
        self.name_text.remove_class("dg-cell-error")
        deck = self.deck
        s = deck_summary(deck)
        changes = deck_changes(deck, lang=self.lang)
        text = wt("deck_valid", self.lang, cards=s["cards"], lv1=s["levels"][1]["cards"], lv2=s["levels"][2]["cards"],
                  lv3=s["levels"][3]["cards"], most=s["max_players"])
        more = (wt("deck_changes", self.lang, changes="; ".join(changes)) if changes
                else wt("deck_no_changes", self.lang))
        self.summary_html.value = message_html(text, "ok") + f"<div class='dg-deck-changes'>{html.escape(more)}</div>"
        chances = clear_chances(deck)
        totals = list(next(iter(chances.values())).keys())
        head_row = "".join(f"<th>{t}</th>" for t in totals)
        body = "".join(f"<tr><th>Lv{lv}</th>" + "".join(
            f"<td>{'—' if v != v else f'{v:.2f}'}</td>" for v in row.values()) + "</tr>" for lv, row in chances.items())
        self.chances_html.value = (f"<div>{html.escape(wt('deck_chances', self.lang))}</div>"
                                   f"<table class='dg-chances'><tr><th>t</th>{head_row}</tr>{body}</table>")

    def relabel(self) -> None:
        L = self.lang
        self.title_html.value = f"<h3>{html.escape(wt('deck_title', L))}</h3><p>{html.escape(wt('deck_intro', L))}</p>"
        label_all(self, self.LABELS, lambda key: wt(key, L))
        self.description_text.style = {"description_width": "initial"}  # the label in full, never cut off
        self.print_panel.relabel(L)
        if hasattr(self, "table"):
            self._show_meta()
        for grid, name in ((self.heal_box, "heal"), (self.levels_box, "levels"), (self.rooms_box, "rooms")):
            if grid.children:
                for label, column in zip(grid.children[0].children, _COLUMNS[name]):
                    label.value = html.escape(wt(f"col_{column}", L))

    # ------------------------------------------------------------------ callbacks
    @safe
    def _on_meta(self, change) -> None:
        if self._building:
            return
        self.table.name = stored_deck_name(self.name_text.value)
        described = self.description_text.value
        if described.strip() in {wt("deck_reference_description", lang) for lang in ("en", "zh")}:
            described = reference_deck().description
        self.table.description = described
        self.refresh()

    def _show_meta(self) -> None:
        """The name and description fields in the page's language: the names the workshop gives
        decks itself ("reference", "custom") and the reference deck's description are shown
        translated (the deck file keeps the stored ones; issue 24.10)."""
        building, self._building = self._building, True
        try:
            self.name_text.value = shown_deck_name(self.table.name, self.lang)
            described = self.table.description
            if described.strip() == reference_deck().description.strip():
                described = wt("deck_reference_description", self.lang)
            elif described.strip() in {wt("deck_custom_description", lang) for lang in ("en", "zh")}:
                described = wt("deck_custom_description", self.lang)
            self.description_text.value = described
        finally:
            self._building = building

    @safe
    def _on_add_room(self, _button=None) -> None:
        self.add_room()

    @safe
    def _on_reset(self, _button=None) -> None:
        self.load_table(table_from_deck())
        self.say("")

    @safe
    def _on_use(self, _button=None) -> None:
        self.use()

    def use(self) -> Deck:
        """Validate and add the deck to the session (a :class:`DeckError` lists the bad cells)."""
        deck = self.deck
        self.session.add_deck(deck)
        self.say(lambda: wt("deck_saved", self.lang, name=shown_deck_name(deck.name, self.lang)), "ok")
        return deck

    @safe
    def _on_import(self, _button=None) -> None:
        files = self.upload.value
        if files:
            item = files[0]
            name = str(item.get("name", ""))
            text = bytes(item.get("content", b"")).decode("utf-8")
            fmt = "csv" if name.lower().endswith(".csv") else "toml"
            self.upload.value = ()
        else:
            text, fmt = self.import_text.value, self.import_format.value
        self.import_deck(text, fmt)

    def import_deck(self, text: str, fmt: str = "toml") -> None:
        """Fill the tables from TOML/CSV text (bad values stay in their cells, named below)."""
        table = table_from_text(text, fmt)
        self.load_table(table)
        self.say(lambda: wt("deck_imported", self.lang), "info" if not errors_of(self._problems) else "warn")

    def _print_source(self):
        """Print and play: this deck (a table with bad cells is refused, naming them) with the
        base lords and the workshop's lords."""
        return self.deck, BASE_LORDS + tuple(self.session.lords)

    @safe
    def _on_print(self, _button=None) -> None:
        self.print_panel.prepare()

    @safe
    def _on_export(self, _button=None) -> None:
        self.export()

    def export(self, fmt: str | None = None) -> str:
        """The deck as TOML or CSV text (shown, and offered as a download)."""
        fmt = fmt or self.export_format.value
        text = table_to_text(self.table, fmt)
        self.export_text.value = text
        name = (self.table.name or "deck").strip() or "deck"
        self.download_html.value = download_link(text, f"{name}.{fmt}", wt("deck_download", self.lang, fmt=fmt.upper()),
                                                 "text/csv" if fmt == "csv" else "application/toml")
        return text


__all__ = ["DeckEditor", "DeckError", "download_link"]
