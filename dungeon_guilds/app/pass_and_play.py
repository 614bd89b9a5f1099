"""Pass and play (issue 26, item 6): several people share one device, in the dashboard and on
the static site.

A class table (:class:`~dungeon_guilds.app.tables.table.Table`) whose seats are all on this
device: the same simultaneous secret setup choice (R2.4: every choice is kept until the last
seat has chosen, then all go to the engine), the same engine judging every click. Between two
people the screen hides the board ("Pass the device to Bo — tap when ready"); the board is
then drawn for that seat only (``viewer=seat``: the others' hands face down, their pending
choices and the hidden fronts nowhere in the page), and its log hides the others' setup
choices. At the end of the game the board is shown to everyone.
"""

from __future__ import annotations

import time
from html import escape

import ipywidgets as W

from ..actions import ActionSyntaxError
from ..cards import reference_deck
from ..errors import IllegalAction
from ..rules import Rules
from ..table_model import choosing_state
from ..widgets.board import GameBoard
from ..widgets.common import App, safe
from ..widgets.narration import round_log_html
from .tables.refusal import TableRefusal, refusal_words
from .tables.render import status_text
from .tables.table import HUMAN, Seat, Table, clean_name

NAMES = ("Ann", "Bo", "Cy", "Di", "Ed", "Flo")


class PassAndPlay(App):
    """``players_dropdown``, ``name_texts``, ``start_button``; ``curtain`` (the hiding screen)
    with ``ready_button``; ``board`` (:class:`GameBoard`), ``status_html``, ``log_html``;
    ``table`` once started, ``shown`` the seat whose eyes the screen has now (None: hidden)."""

    css_class = "dg-pass-and-play"

    def __init__(self, seed: int = 1, **kwargs):
        super().__init__(**kwargs)
        self.seed = seed
        self.table: Table | None = None
        self.shown: int | None = None
        self.players_dropdown = W.Dropdown(options=[3, 4, 5, 6], value=3, layout=W.Layout(width="auto"))
        self.name_texts = [W.Text(value=n, layout=W.Layout(width="8em")) for n in NAMES]
        self.start_button = W.Button(button_style="primary", layout=W.Layout(width="auto"))
        self.setup_html = W.HTML()
        self.curtain_html = W.HTML().add_class("dg-curtain-text")
        self.ready_button = W.Button(button_style="success", layout=W.Layout(width="auto"))
        self.curtain = W.VBox([self.curtain_html, self.ready_button]).add_class("dg-curtain")
        self.board = GameBoard()
        self.status_html = W.HTML().add_class("dg-status")
        self.log_html = W.HTML().add_class("dg-pass-log")
        self.play_box = W.VBox([self.status_html, self.board, self.log_html])
        self.names_box = W.HBox(self.name_texts[:3])
        self.setup_box = W.VBox([self.setup_html, W.HBox([self.players_dropdown, self.names_box]),
                                 self.start_button])
        self.children = [self.language_toggle, self.setup_box, self.message, self.curtain, self.play_box]
        self.players_dropdown.observe(self._on_players, "value")
        self.start_button.on_click(self._on_start)
        self.ready_button.on_click(self._on_ready)
        self.board.on_move = self._on_move
        self.board.on_refused = lambda text: self.say(text, "warn")
        self.relabel()
        self.refresh()

    # ------------------------------------------------------------------ set-up
    @safe
    def _on_players(self, change) -> None:
        self.names_box.children = self.name_texts[: change["new"]]

    @safe
    def _on_start(self, _button=None) -> None:
        self.start()

    def start(self) -> None:
        """A new game for the names typed (all on this device)."""
        n = self.players_dropdown.value
        try:
            names = [clean_name(t.value) for t in self.name_texts[:n]]
        except TableRefusal as err:
            self.say(lambda: err.text(self.lang), "warn")
            return
        if len(set(names)) < n:
            self.say(lambda: self.t("tables.refusal.name_taken", name=names[0]), "warn")
            return
        now = time.time()
        table = Table("HOTSEAT", [Seat(HUMAN, name) for name in names], Rules(), reference_deck(), self.seed, now, now)
        table._maybe_start()
        self.table, self.shown = table, None
        self.say("")
        self._draw()

    # ------------------------------------------------------------------ turns
    def next_seat(self) -> int | None:
        """Who uses the device now: in the setup the first seat still to choose (R2.4), then
        the engine's player to move; None when the game is over."""
        table = self.table
        if table is None or table.is_over:
            return None
        if table.in_setup:
            return table.secret.still_choosing(len(table.seats))[0]
        return table.game.current

    @safe
    def _on_ready(self, _button=None) -> None:
        self.shown = self.next_seat()
        self._draw()

    @safe
    def _on_move(self, action) -> None:
        self.move(str(action))

    def move(self, text: str) -> None:
        """The seat shown plays ``text``; the engine refuses an illegal move (nothing changes)."""
        table = self.table
        try:
            table.act(self.shown, text, table.version, time.time())
        except (TableRefusal, IllegalAction, ActionSyntaxError) as err:
            self.say(lambda: refusal_words(err, self.lang), "warn")
            return
        self.say("")
        if self.next_seat() != self.shown:
            self.shown = None  # the screen hides the board until the next person is ready
        self._draw()

    # ------------------------------------------------------------------ drawing
    def _draw(self) -> None:
        table = self.table
        self.setup_box.layout.display = None if table is None or table.is_over else "none"
        if table is None:
            self.curtain.layout.display = self.play_box.layout.display = "none"
            return
        over = table.is_over
        hidden = not over and self.shown is None
        self.curtain.layout.display = None if hidden else "none"
        self.play_box.layout.display = "none" if hidden else None
        if hidden:
            name = table.seats[self.next_seat()].name
            self.curtain_html.value = f'<p class="dg-pass-to">{escape(self.t("tables.pass_to", name=name))}</p>'
            self.ready_button.description = self.t("tables.pass_ready", name=name)
            self.board.locked, self.board.html = True, ""  # nothing of anyone's on screen
            self.log_html.value = ""
            return
        seat = self.shown
        state = table.game.state
        if not over and table.in_setup:
            state = choosing_state(state, seat)  # every seat chooses now (R2.4); nobody's choice is in it yet
        self.board.show(state, self.lang, None if over else seat, None if over else seat, table.game.log)
        self.status_html.value = f"<b>{escape(status_text(table, 0 if over else seat, self.lang, 0, None))}</b>"
        self.log_html.value = round_log_html(table.game.log, table.game.names, self.lang,
                                             secret_for=None if over else seat)

    def relabel(self) -> None:
        self.setup_html.value = (f"<h3>{escape(self.t('tables.pass_heading'))}</h3>"
                                 f"<p>{escape(self.t('tables.pass_intro'))}</p>")
        self.players_dropdown.description = self.t("tables.seats")
        self.start_button.description = self.t("tables.pass_start")

    def refresh(self) -> None:
        self._draw()


__all__ = ["PassAndPlay"]
