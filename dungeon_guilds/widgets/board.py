"""The drawn board made clickable: an ``anywidget`` component (its JavaScript is ``board.js``
beside this file, with the keyboard of ``drawing/board_keys.js`` inlined; nothing is fetched from
another host) showing :func:`dungeon_guilds.drawing.board_svg.board_svg_html`.

A click (or Enter / Space on a focused target; Tab and the arrow keys move between targets)
sends the target's id to Python; :class:`GameBoard` turns it into a move:

* choose an adventurer of your hand (click it again to put it back), then a slot: an empty
  slot places it, another player's adventurer is bumped (R4.4), your own is swapped (R4.5);
  each target says what it costs and to whom before the click;
* at setup, choose two adventurers, then the "exhaust" button (R2.4);
* an illegal choice is not played: ``on_refused`` gets the engine's reason in words.

Only the seat given to :meth:`GameBoard.show` as ``player`` can click; with ``player=None``
(a bot's turn, the game over) the board is locked (``locked`` is True, the root element has
``data-locked="1"``); a board that had the focus keeps it (the picture itself, when no target is
left to focus), so a keyboard user is never sent back to the top of the page.

Beside the picture, visually hidden, is the board in words
(:func:`dungeon_guilds.drawing.board_text.board_text_html`, the ``description`` trait): the picture
names it with ``aria-describedby``, so a screen reader reads the rooms, occupants, gold and whose
turn it is as one description, redrawn with every move.

Headless use (tests): ``board.click("hand-3")``, ``board.click("slot-2-0")``.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Callable

import anywidget
import traitlets

from .. import i18n
from ..board_targets import Target, board_targets
from ..drawing.board_svg import board_svg_html
from ..drawing.board_text import board_text_html
from ..table_model import next_choice

HERE = Path(__file__).parent
# ``import {…} from '../drawing/x.js';`` in a widget's module: a file of this package
_PACKAGE_IMPORT = re.compile(r"^import \{[^}]*\} from '(\.\./[\w/]+\.js)';\n", re.M)


def inlined_module(path: Path) -> str:
    """The ES module ``path`` with each import of another file of the package replaced by that
    file's text: anywidget runs a widget's ``_esm`` as one module, which cannot fetch a file
    beside it. (So the board's keyboard, ``drawing/board_keys.js``, is one file for the widget
    board and the class-table page.)"""
    text = path.read_text(encoding="utf-8")
    return _PACKAGE_IMPORT.sub(lambda m: (path.parent / m.group(1)).resolve().read_text(encoding="utf-8"), text)


class BoardWidget(anywidget.AnyWidget):
    """The board's picture with clickable targets; ``on_click(target_id)`` callbacks."""

    _esm = inlined_module(HERE / "board.js")
    _css = HERE / "board.css"
    html = traitlets.Unicode("").tag(sync=True)
    locked = traitlets.Bool(False).tag(sync=True)
    focus_target = traitlets.Unicode("").tag(sync=True)
    # the board in words (drawing/board_text.py), visually hidden, the picture's aria-describedby
    description = traitlets.Unicode("").tag(sync=True)

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self._click_handlers: list[Callable[[str], None]] = []
        self.on_msg(self._on_msg)
        self.add_class("dg-board-box")

    def _on_msg(self, _widget, content, _buffers) -> None:
        if isinstance(content, dict) and content.get("event") == "click":
            target = content.get("target")
            if isinstance(target, str) and not self.locked:
                self.click(target)

    def on_click(self, handler: Callable[[str], None]) -> None:
        self._click_handlers.append(handler)

    def click(self, target: str) -> None:
        """What a click on the target ``target`` does (also the headless test API)."""
        for handler in self._click_handlers:
            handler(target)


class GameBoard(BoardWidget):
    """The board of a game for one seat to play on. Call :meth:`show` after every change;
    set ``on_move(action)``, ``on_refused(text)`` and ``on_note(text)`` (what a click said)."""

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.on_move: Callable = lambda action: None
        self.on_refused: Callable[[str], None] = lambda text: None
        self.on_note: Callable[[str], None] = lambda text: None
        self.selected: tuple[int, ...] = ()
        self.targets: dict[str, Target] = {}
        self._args: tuple = ()
        self._key = None
        self.on_click(self._clicked)

    def show(self, state, lang: str, player: int | None, viewer: int | None = None, log=None) -> None:
        """Draw ``state`` (as ``viewer`` may see it); ``player`` is the seat that may click now
        (None: locked). The choice in progress is kept while the position is the same."""
        key = (id(state), state.actions_taken, state.phase, player)
        if key != self._key:
            self.selected = ()
            self.focus_target = ""
        self._key = key
        self._args = (state, lang, player, viewer, log)
        self.description = board_text_html(state, lang, viewer, log, uid=f"dg{self.model_id[:8]}")
        self._draw()

    def show_resolution(self, state, lang: str, viewer: int | None, log, frame) -> None:
        """Draw one step of a round's resolution (``frame``, from
        :func:`dungeon_guilds.drawing.resolving.resolution_frame`) on ``state``, the dispatch's
        end; the board is locked (nothing to click until the next round is shown)."""
        self.selected = ()
        self.targets = {}
        self.focus_target = ""
        self._key = None
        self._args = ()
        self.locked = True
        self.html = board_svg_html(state, lang, viewer, log, uid=f"dg{self.model_id[:8]}", frame=frame)

    def _draw(self, focus: Callable[[dict], str] | None = None) -> None:
        state, lang, player, viewer, log = self._args
        self.targets = board_targets(state, player, self.selected, lang) if player is not None else {}
        if focus is not None:
            self.focus_target = focus(self.targets)  # before the picture: the browser reads it then
        self.locked = player is None
        self.html = board_svg_html(state, lang, viewer, log, self.targets, uid=f"dg{self.model_id[:8]}")

    def _clicked(self, target_id: str) -> None:
        if not self._args:
            return
        state, lang = self._args[0], self._args[1]
        target = self.targets.get(target_id)
        if target is None:
            return
        if target_id.startswith("hand-"):
            self._pick(int(target_id.split("-")[1]), target, state, lang)
        elif not target.enabled:
            self.on_refused(i18n.t("error.illegal", lang, reason=target.reason))
        else:
            self.selected = ()
            self.on_move(target.action)

    def _pick(self, strength: int, target: Target, state, lang: str) -> None:
        if not target.enabled:
            self.on_refused(i18n.t("error.illegal", lang, reason=target.reason))
            return
        chosen = next_choice(self.selected, strength, state.phase == "setup")  # the table model's rule
        self.selected = chosen
        if state.phase == "setup":
            self._draw(lambda targets: "exhaust" if len(chosen) == 2 else target.id)
            self.on_note(i18n.t("bd.note_exhaust", lang, n=len(chosen)))
        elif chosen:
            self._draw(lambda targets: next((k for k, x in targets.items() if k.startswith("slot-") and x.enabled), ""))
            self.on_note(i18n.t("bd.note_chosen", lang, strength=strength))
        else:
            self._draw(lambda targets: target.id)
            self.on_note(i18n.t("bd.note_none", lang))


__all__ = ["BoardWidget", "GameBoard"]
