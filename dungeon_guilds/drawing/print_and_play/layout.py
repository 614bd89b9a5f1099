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
words do not fit (a long workshop lord), step by step, and marks it (``data-fit``).
"""

from __future__ import annotations

from html import escape
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


# The cards and the rules sheet (the page-independent part of the style sheet).
CARD_CSS = f"""
.card {{ position: absolute; width: {CARD_W}mm; height: {CARD_H}mm; box-sizing: border-box; padding: 3mm 3.5mm;
  display: flex; flex-direction: column; overflow: hidden; border: 0.15mm solid #bbb; font-size: 7.5pt; line-height: 1.25 }}
.card.aid-front {{ font-size: 8.5pt }}
.card .head {{ font-size: 7pt; font-weight: 700; letter-spacing: .02em; border-bottom: 0.3mm solid #000;
  padding-bottom: .6mm; margin-bottom: 1.2mm; white-space: nowrap; overflow: hidden }}
.card .body {{ flex: 1 1 auto; overflow: hidden; min-height: 0 }}
.card .foot {{ font-size: 5.5pt; color: #333; border-top: 0.2mm solid #777; padding-top: .5mm; margin-top: 1mm;
  overflow: hidden; max-height: 2.6em }}
.card h4 {{ margin: .8mm 0 .4mm; font-size: 1.02em }}
.card ul, .card ol {{ margin: 0; padding-left: 1.2em }}
.card li {{ margin: .2mm 0 }}
.rid {{ font-weight: 700; font-size: .9em; color: #222 }}
.snake {{ border-collapse: collapse; margin: 0 0 .3mm }} .snake th {{ text-align: left; padding: 0 1.2mm 0 0; white-space: nowrap }}
.snake td {{ padding: 0; white-space: nowrap }}
.small {{ font-size: .9em }}
.level {{ font-size: 2em; font-weight: 700; display: flex; justify-content: space-between; align-items: center }}
.pips {{ font-size: .6em; letter-spacing: .1em }}
.big {{ margin-top: 2mm; display: flex; align-items: baseline; gap: 1.5mm }}
.big .label {{ font-size: 1.2em; min-width: 16mm }}
.num {{ font-size: 3.4em; font-weight: 700; line-height: 1.05 }}
.num.huge {{ font-size: 6em }}
.heal {{ margin-top: 2mm; font-size: 1.2em }} .heal .num {{ font-size: 2em }}
.range {{ font-size: 1.5em; margin-top: 3mm }} .lock {{ font-size: 1.15em; margin-top: 1mm }}
.room-back {{ background: repeating-linear-gradient(45deg, #fff 0 2mm, #f0f0f0 2mm 4mm) }}
.room-back.lv2 .level, .room-front.lv2 .level {{ border-bottom: 0.6mm double #000 }}
.room-back.lv3 .level, .room-front.lv3 .level {{ border-bottom: 1.2mm double #000 }}
.names .name {{ font-size: 1.7em; font-weight: 700; line-height: 1.15 }} .names .name2 {{ font-size: 1.2em; margin-bottom: 1.5mm }}
.effect {{ font-size: 1.15em; font-weight: 600; margin-bottom: 1.5mm }}
.rulings {{ font-size: .92em }}
.crest {{ font-size: 9em; text-align: center; line-height: 1.1; color: #444 }}
.note {{ font-size: 1em; text-align: center }}
.marker .name {{ font-size: 2em; font-weight: 700; text-align: center }}
.seatrow {{ display: flex; flex-direction: column; gap: 1mm }} .band {{ width: 100%; height: 8mm; border: .3mm solid #000; box-sizing: border-box }}
.seatrow.tall .band {{ height: 22mm }}
.seat {{ font-size: 1.3em; font-weight: 700 }} .bigseat {{ font-size: 2.4em; text-align: center; margin-top: 2mm }}
.exhausted {{ font-size: 1.8em; text-align: center; margin-top: 2mm; letter-spacing: .05em }}
.rules {{ position: absolute; left: 12mm; top: 10mm; right: 12mm; bottom: 10mm; display: flex; flex-direction: column; font-size: 7.4pt; line-height: 1.22 }}
.rules h2 {{ margin: 0 0 1mm; font-size: 1.9em; line-height: 1.5 }} .rules .intro {{ margin: 0 0 2mm }}
.rules .cols {{ flex: 1 1 auto; min-height: 0; column-count: 2; column-gap: 6mm; column-fill: auto; overflow: hidden }}
.rules h3 {{ font-size: 1.15em; margin: 1.2mm 0 .5mm; break-after: avoid }}
.rules ul {{ margin: 0; padding-left: 0; list-style: none }} .rules li {{ margin: 0 0 .6mm; break-inside: avoid }}
.rules .ruling {{ font-style: italic }} .rules .ruling b {{ font-style: normal; font-size: .85em; border: .2mm solid #000; padding: 0 .5mm }}
.rules .here {{ font-weight: 600 }} .rules .asked {{ border-top: .3mm solid #000; margin-top: 1.5mm }}
.deckbox {{ border: .3mm solid #000; padding: 1mm 2mm; margin-top: 2mm; break-inside: avoid }}
"""


def css(paper: str, lang: str) -> str:
    w, h = paper_size(paper)
    size = "A4" if paper == "a4" else "letter"
    return f"""
@page {{ size: {size}; margin: 0 }}
html, body {{ margin: 0; padding: 0 }}
body {{ font-family: {font_stack(lang)}; color: #000; -webkit-print-color-adjust: exact; print-color-adjust: exact }}
.sheet {{ position: relative; width: {w}mm; height: {h}mm; overflow: hidden; break-after: page; background: #fff }}
.sheet:last-child {{ break-after: auto }}
@media screen {{ body {{ background: #777 }} .sheet {{ margin: 8mm auto; box-shadow: 0 0 4mm #333 }}
  .howto {{ max-width: {w}mm; margin: 6mm auto 0; background: #fff; padding: 3mm; font-size: 11pt }} }}
@media print {{ .howto {{ display: none }} }}
.crop {{ position: absolute; left: 0; top: 0 }}
.pagelabel {{ position: absolute; left: 1.5mm; top: 50%; transform-origin: 0 0; transform: rotate(-90deg) translateX(-50%);
  white-space: nowrap; font-size: 6.5pt; color: #333 }}
""" + CARD_CSS


FIT_SCRIPT = """<script>
(function () {
  function over(b) { return b.scrollHeight > b.clientHeight + 0.5 || b.scrollWidth > b.clientWidth + 0.5; }
  document.querySelectorAll('.card .body, .rules .cols').forEach(function (b) {
    var size = parseFloat(getComputedStyle(b).fontSize), n = 0;
    while (over(b) && n < 10) { size *= 0.93; b.style.fontSize = size + 'px'; n++; }
    b.dataset.fit = String(n);
  });
})();
</script>"""


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
