"""Pictures of the print-and-play pages for the docs (issue 29): one page of each kind, in English
and 繁體中文, as Chromium lays them out (A4, 96 px to the inch): a sheet of room and lord fronts, a
sheet with the last adventurers, the start-player marker and the player aids (front and back),
and the rules sheet. Writes ``docs/print-and-play/<lang>-<page>.png`` and prints the size and
page count of the PDF Chromium makes of each document (its "Save as PDF"; the PDF is not kept).

Run: ``python tools/print_and_play_pages.py`` (needs Playwright and Debian's ``/usr/bin/chromium``,
or ``DG_CHROMIUM``).
"""

from __future__ import annotations

import os
from pathlib import Path

from playwright.sync_api import sync_playwright

from dungeon_guilds.drawing.print_and_play import print_set

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "docs" / "print-and-play"
# page name -> the sheet's data-sheet and data-side (the reference deck, base lords, six seats:
# sheet 5 holds the last Lv3 rooms and the first lords, sheet 9 the sixth seat's adventurers,
# the marker and the player aids)
PAGES = {"rooms-lords-front": ("5", "front"), "aids-front": ("9", "front"), "aids-back": ("9", "back"),
         "rules": ("rules", "rules")}


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    chromium = os.environ.get("DG_CHROMIUM", "/usr/bin/chromium")
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium, args=["--no-sandbox", "--disable-gpu"])
        try:
            for lang in ("en", "zh"):
                page = browser.new_page(viewport={"width": 900, "height": 1200})
                page.set_content(print_set(lang=lang).html(), wait_until="load")
                page.evaluate("document.fonts.ready")
                for name, (sheet, side) in PAGES.items():
                    path = OUT / f"{lang}-{name}.png"
                    page.locator(f'section.sheet[data-sheet="{sheet}"][data-side="{side}"]').screenshot(path=str(path))
                    print(path.relative_to(ROOT))
                pdf = page.pdf(prefer_css_page_size=True, print_background=True)
                print(f"{lang}: PDF {len(pdf) / 1e6:.2f} MB, {pdf.count(b'/Type /Page') - pdf.count(b'/Type /Pages')} pages")
                page.close()
        finally:
            browser.close()


if __name__ == "__main__":
    main()
