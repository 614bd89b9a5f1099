"""Cards laid out nine to a page, as one HTML document with print CSS (issue 29, item 2).

Geometry, in millimetres: poker cards of 63 × 88 mm in a 3 × 3 grid centred on the page (A4
or US Letter, ``@page`` margin 0), crop marks in the margin at every cut line. Each sheet of
fronts is followed by its sheet of backs with the columns mirrored (column ``c`` → ``2 − c``):
printed double-sided and flipped on the long edge, each back lands behind its front, because
the grid is centred, so mirroring the page mirrors the grid exactly (:func:`card_box` gives both
positions; a browser test measures them). After the card sheets comes the one-page rules sheet.

Fonts are the browser's: a stack that starts with Noto Sans CJK TC (on Debian: fonts-noto-cjk)
and the usual Traditional Chinese system fonts, so the Chinese glyphs are there; Chromium's
PDF embeds only the glyphs used (subset). A small script shrinks the text of a card whose
words do not fit (a long workshop lord), step by step, and marks it (``data-fit``). The style
sheet and the script are package files (``print.css``, ``fit.js``), the sizes in CSS variables
set here from :data:`PAPER` and :data:`CARD_W` / :data:`CARD_H` (issue 53, item 3).
"""

from __future__ import annotations

from html import escape
from pathlib import Path
from typing import Sequence

from .cards import Card, t

PAPER = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}  # mm
CARD_W, CARD_H = 63.0, 88.0
COLS = ROWS = 3
PER_SHEET = COLS * ROWS
MARK, MARK_GAP = 4.0, 1.0  # crop mark length and its gap from the grid, mm
EDGE = 3.0  # crop marks stay this far from the paper's edge (most printers print from ~3 mm)

FONT_LATIN = "'Noto Sans','DejaVu Sans','Segoe UI',Arial"
FONT_CJK = "'Noto Sans CJK TC','Noto Sans TC','Source Han Sans TC','PingFang TC','Microsoft JhengHei','Heiti TC'"


def font_stack(lang: str) -> str:
    """Latin first in English (its punctuation), CJK first in Chinese; both carry the other."""
    first, second = (FONT_CJK, FONT_LATIN) if lang == "zh" else (FONT_LATIN, FONT_CJK)
    return f"{first},{second},system-ui,sans-serif"


def paper_size(paper: str) -> tuple[float, float]:
    try:
        return PAPER[paper]
    except KeyError:
        raise ValueError(f"paper: expected one of {', '.join(PAPER)}, got {paper!r}") from None


def grid_origin(paper: str) -> tuple[float, float]:
    """The top-left corner of the card grid, in mm: the grid is centred on the page."""
    w, h = paper_size(paper)
    return (w - COLS * CARD_W) / 2, (h - ROWS * CARD_H) / 2


def card_box(index: int, paper: str, back: bool = False) -> tuple[float, float]:
    """(left, top) in mm of card ``index`` (0–8) on its sheet; on the back, the column is mirrored."""
    x0, y0 = grid_origin(paper)
    row, col = divmod(index, COLS)
    if back:
        col = COLS - 1 - col
    return x0 + col * CARD_W, y0 + row * CARD_H


def crop_marks(paper: str) -> str:
    """Short lines in the margin at every cut line (never over a card, at least ``EDGE`` from the
    paper's edge)."""
    w, h = paper_size(paper)
    x0, y0 = grid_origin(paper)
    x1, y1 = x0 + COLS * CARD_W, y0 + ROWS * CARD_H
    mx, my = min(MARK, x0 - MARK_GAP - EDGE), min(MARK, y0 - MARK_GAP - EDGE)  # Letter: 3.7 mm at top
    lines = []
    for c in range(COLS + 1):
        x = x0 + c * CARD_W
        lines += [(x, y0 - MARK_GAP - my, x, y0 - MARK_GAP), (x, y1 + MARK_GAP, x, y1 + MARK_GAP + my)]
    for r in range(ROWS + 1):
        y = y0 + r * CARD_H
        lines += [(x0 - MARK_GAP - mx, y, x0 - MARK_GAP, y), (x1 + MARK_GAP, y, x1 + MARK_GAP + mx, y)]
    path = "".join(f"M{a:.2f} {b:.2f}L{c:.2f} {d:.2f}" for a, b, c, d in lines)
    return (f'<svg class="crop" viewBox="0 0 {w} {h}" width="{w}mm" height="{h}mm" aria-hidden="true">'
            f'<path d="{path}" stroke="#000" stroke-width="0.2" fill="none"/></svg>')


PATTERN_DEFS = (
    '<svg width="0" height="0" style="position:absolute" aria-hidden="true"><defs>'
    '<pattern id="pnp-diag" width="5" height="5" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">'
    '<rect width="1.6" height="5" fill="#000" fill-opacity=".55"/></pattern>'
    '<pattern id="pnp-dots" width="5" height="5" patternUnits="userSpaceOnUse">'
    '<circle cx="2.5" cy="2.5" r="1.2" fill="#000" fill-opacity=".6"/></pattern>'
    '<pattern id="pnp-hlines" width="5" height="5" patternUnits="userSpaceOnUse">'
    '<rect width="5" height="1.5" fill="#000" fill-opacity=".55"/></pattern>'
    '<pattern id="pnp-cross" width="6" height="6" patternUnits="userSpaceOnUse">'
    '<path d="M0 0L6 6M6 0L0 6" stroke="#000" stroke-opacity=".6" stroke-width="0.9"/></pattern>'
    '<pattern id="pnp-vlines" width="5" height="5" patternUnits="userSpaceOnUse">'
    '<rect width="1.5" height="5" fill="#000" fill-opacity=".55"/></pattern>'
    '</defs></svg>')


HERE = Path(__file__).resolve().parent
# The style sheet of the sheets, cards and rules sheet, and the fit script: package files
# (``print.css``, ``fit.js``), inlined, since the document is saved and opened on its own.
PRINT_CSS = (HERE / "print.css").read_text(encoding="utf-8")
FIT_SCRIPT = "<script>\n" + (HERE / "fit.js").read_text(encoding="utf-8") + "</script>"


def css(paper: str, lang: str) -> str:
    """The page's size and the sizes and fonts ``print.css`` reads as CSS variables, then it."""
    w, h = paper_size(paper)
    size = "A4" if paper == "a4" else "letter"
    return (f"@page {{ size: {size}; margin: 0 }}\n"
            f":root {{ --paper-w: {w}mm; --paper-h: {h}mm; --card-w: {CARD_W}mm; --card-h: {CARD_H}mm; "
            f"--font: {font_stack(lang)} }}\n" + PRINT_CSS)


def _card_html(card: Card, index: int, number: int, paper: str, back: bool) -> str:
    face = card.back if back else card.front
    left, top = card_box(index, paper, back)
    return (f'<div class="card {face.kind}" data-card="{number}" data-kind="{card.kind}" '
            f'data-side="{"back" if back else "front"}" {face.attrs} '
            f'style="left:{left:.2f}mm;top:{top:.2f}mm">{face.html}</div>')


def sheets_html(cards: Sequence[Card], paper: str, lang: str) -> list[str]:
    """The card sheets: fronts of cards 1–9, their backs, fronts of 10–18, …"""
    out = []
    n_sheets = -(-len(cards) // PER_SHEET)
    for s in range(n_sheets):
        chunk = cards[s * PER_SHEET:(s + 1) * PER_SHEET]
        for back in (False, True):
            label = t("page_backs" if back else "page_fronts", lang, sheet=s + 1, sheets=n_sheets)
            body = "".join(_card_html(c, i, s * PER_SHEET + i + 1, paper, back) for i, c in enumerate(chunk))
            out.append(f'<section class="sheet" data-sheet="{s + 1}" data-side="{"back" if back else "front"}">'
                       f'{crop_marks(paper)}<div class="pagelabel">{escape(label)}</div>{body}</section>')
    return out


def document(cards: Sequence[Card], rules_html: str | None, paper: str, lang: str, variant: str) -> str:
    """The whole printable document: card sheets, then the rules sheet (unless None)."""
    html_lang = "zh-Hant" if lang == "zh" else lang
    pages = sheets_html(cards, paper, lang)
    if rules_html is not None:
        pages.append(f'<section class="sheet" data-sheet="rules" data-side="rules">{rules_html}</section>')
    return (f'<!DOCTYPE html><html lang="{html_lang}"><head><meta charset="utf-8">'
            f'<title>{escape(t("title", lang))} — {escape(variant)}</title><style>{css(paper, lang)}</style></head>'
            f'<body data-paper="{paper}" data-lang="{lang}">{PATTERN_DEFS}'
            f'<p class="howto">{escape(t("howto", lang))}</p>{"".join(pages)}{FIT_SCRIPT}</body></html>')


__all__ = ["CARD_H", "CARD_W", "EDGE", "PAPER", "PER_SHEET", "card_box", "crop_marks", "document", "font_stack",
           "grid_origin", "paper_size"]
