"""What the dashboard page does for students who use a keyboard, a screen reader, a magnifier or
who do not tell red from green apart (issue 32). One small ``anywidget`` component placed once in
the page (its JavaScript and CSS are ``a11y.js`` and ``a11y.css`` beside this file; nothing is fetched
from another host):

* **the page's language** — ``<html lang>`` follows the language toggle (``en`` / ``zh-Hant``),
  so a screen reader switches voice for 繁體中文;
* **names for controls that have none** — ipywidgets 8 draws a slider's handle as a
  ``role="slider"`` element with no accessible name, and its editable value beside it likewise;
  both get the text of their widget's label (or, when the label is empty, the widget's ``title``);
* **heard, not only seen** — a visually hidden ``aria-live="polite"`` region in the page's
  language repeats each new text of the apps' message lines (``.dg-message``: every move and
  refusal), the round story's current step (``.dg-story-now``: each room's resolution) and the
  whole story again when the student asks for it (``.dg-story-replay``: "Replay the narration");
* **keyboard** — the folds' titles (ipywidgets draws them as plain ``div`` elements) become buttons
  with a Tab stop, ``aria-expanded`` and Enter / Space; an icon's font glyph is hidden from a
  button's name; when the focused control is disabled, folded away or redrawn (the end-of-round
  button once it is your move, *Start* once the set-up folds), the focus goes back to the same
  app's board (its first target, else the picture) instead of the top of the page;
* **seeing** — text contrast of at least 4.5:1 where the widget libraries' defaults fall short
  (the tab bar's and the folds' labels: #6d6d6d on #eeeeee is 4.45:1; the coloured buttons'
  white text: ipywidgets' green #388e3c is 4.11:1, now #2e7d32, 5.1:1), a focus ring on every focusable control
  (``:focus-visible``), and no transitions or animations when the student's system asks for
  reduced motion (``prefers-reduced-motion``); at 200 % zoom on a 1024 px screen (a page 512 px
  wide) rows of controls wrap and the side panel goes under the board, so nothing is cut off; on a
  phone or a tablet (up to 900 px, or a touch screen) a tab bar wraps and its tabs are 44 px tall.

The checks are in ``tests/browser/test_accessibility.py`` (axe-core over every tab, in both
languages); ``docs/accessibility.md`` says what was checked and how.
"""

from __future__ import annotations

from pathlib import Path

import anywidget
import traitlets

HERE = Path(__file__).parent
HTML_LANG = {"en": "en", "zh": "zh-Hant"}




class PageAccessibility(anywidget.AnyWidget):
    """Placed once in a page: the page's ``lang``, names for unnamed sliders, the live region
    (``announced``: what it said last, for tests), contrast, focus and reduced-motion CSS."""

    _esm = HERE / "a11y.js"
    _css = HERE / "a11y.css"
    html_lang = traitlets.Unicode("en").tag(sync=True)
    announced = traitlets.Unicode("").tag(sync=True)

    def set_language(self, lang: str) -> None:
        """Follow the language toggle (``"en"`` or ``"zh"``)."""
        self.html_lang = HTML_LANG.get(lang, "en")
