"""Layout pieces the Learn and Play apps share: the board beside the player's controls (so at
1024×768 both are in view), a folding section, and the guided first round's prompts."""

from __future__ import annotations

import ipywidgets as W

from .. import i18n
from ..state import OVER, SETUP

CSS = W.HTML("""<style>
.dg-board-row{gap:12px;align-items:flex-start;flex-wrap:nowrap}
.dg-board-row>.dg-board-box{flex:1 1 560px;min-width:420px;max-width:600px}
.dg-side{gap:2px}
.dg-side .widget-button{width:auto;min-width:0;margin:2px}
.dg-side .dg-controls .widget-button{flex:0 0 auto}
.dg-guide-text{background:#fff4cc;border-left:4px solid #E69F00;padding:4px 8px;font-size:13px;line-height:1.35}
.dg-story{background:#f5f9fc;border-left:4px solid #0072B2;padding:2px 6px 6px;margin-top:4px}
.dg-story .widget-hbox{overflow:visible}
.dg-story-steps{margin:2px 0 2px 18px;padding:0;font-size:12.5px;line-height:1.35}
.dg-story-step{color:#555}.dg-story-now{color:#000;font-weight:600}
.dg-story-replay{position:absolute!important;width:1px;height:1px;padding:0;margin:-1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap;border:0}
.dg-log-rounds details{margin:2px 0}.dg-log-rounds summary{font-weight:600;cursor:pointer}
.dg-results{border-collapse:collapse;margin:6px 0;font-size:14px}
.dg-results th{background:#2e2440;color:#fff;padding:4px 12px;text-align:left}
.dg-results td{border-bottom:1px solid #ddd;padding:4px 12px;white-space:nowrap}
.dg-results th:not(:last-child){white-space:nowrap}
th{word-break:keep-all}
.dg-results td.dg-num{text-align:right;font-variant-numeric:tabular-nums}
.dg-results tr.dg-win td{background:#fff4cc;font-weight:700}
</style>""")


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
