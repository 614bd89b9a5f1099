"""Layout pieces the Learn and Play apps share: the board beside the player's controls (so at
1024×768 both are in view), a folding section, and the guided first round's prompts."""

from __future__ import annotations

from pathlib import Path

import ipywidgets as W

from .. import i18n
from ..state import OVER, SETUP

CSS = W.HTML("<style>" + Path(__file__).with_name("layout.css").read_text(encoding="utf-8") + "</style>")


def side_by_side(board: W.Widget, side: W.Widget) -> W.HBox:
    return W.HBox([board, side]).add_class("dg-board-row")


def fold(content: W.Widget, css_class: str) -> W.Accordion:
    """A section that folds away (closed at first); its title is set by ``relabel``."""
    acc = W.Accordion(children=[content], selected_index=None).add_class(css_class)
    return acc


def guide_text(state, human_turn: bool, lang: str) -> str:
    """What to do now, for a first game: round 1, and the first turn after it resolved."""
    if state.phase == OVER:
        return ""
    if state.round >= 1:
        return i18n.t("play.guide_resolved", lang) if state.round == 1 and state.pos == 0 else ""
    if state.phase == SETUP:
        return i18n.t("play.guide_setup" if human_turn else "play.guide_setup_bot", lang)
    return i18n.t("play.guide_dispatch" if human_turn else "play.guide_bot", lang)


__all__ = ["CSS", "fold", "guide_text", "side_by_side"]
