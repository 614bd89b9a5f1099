"""What the dashboard page does for students who use a keyboard, a screen reader, a magnifier or
who do not tell red from green apart (issue 32). One small ``anywidget`` component placed once in
the page (its JavaScript and CSS are inline here; nothing is fetched from another host):

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

import anywidget
import traitlets

HTML_LANG = {"en": "en", "zh": "zh-Hant"}

_ESM = r"""
const LIVE_SOURCES = '.dg-message, .dg-story-now, .dg-story-replay';
function labelSliders(root) {
  // a slider's handle and its editable value box; named (again, when the language changes) from
  // the widget's label; a name the page's own code gave is left alone
  for (const node of root.querySelectorAll('[role="slider"], .widget-readout[contenteditable="true"]')) {
    if (node.hasAttribute('aria-labelledby')) continue;
    if (node.hasAttribute('aria-label') && !node.dataset.dgNamed) continue;
    const box = node.closest('.widget-inline-hbox, .widget-slider, .jupyter-widgets');
    const label = box ? box.querySelector('.widget-label') : null;
    const name = (label && label.textContent.trim()) || (box && box.getAttribute('title')) || '';
    if (name && node.getAttribute('aria-label') !== name) {
      node.setAttribute('aria-label', name);
      node.dataset.dgNamed = '1';
      if (!node.hasAttribute('role')) node.setAttribute('role', 'textbox');
    }
  }
}
// ipywidgets 8 draws a fold's (Accordion's) title as a plain <div>: no Tab stop, no key. Each
// gets a button's role, a Tab stop, aria-expanded, and Enter / Space.
function foldHeaders(root) {
  for (const head of root.querySelectorAll('.jupyter-widget-Collapse-header')) {
    const open = head.parentElement.classList.contains('jupyter-widget-Collapse-open');
    if (!head.hasAttribute('tabindex')) {
      head.setAttribute('tabindex', '0');
      head.setAttribute('role', 'button');
      head.addEventListener('keydown', (e) => {
        if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); head.click(); }
      });
    }
    if (head.getAttribute('aria-expanded') !== String(open)) head.setAttribute('aria-expanded', String(open));
  }
  // an icon inside a button is decoration: its font glyph is not part of the button's name
  for (const icon of root.querySelectorAll('button i.fa:not([aria-hidden]), .jupyter-widget-Collapse-header i.fa:not([aria-hidden])')) {
    icon.setAttribute('aria-hidden', 'true');
  }
}
// When the focused control is disabled, hidden or redrawn away (a button that waits for your
// move, the set-up folding after "Start"), the browser drops the focus to the page's top. Put it
// back in the same app: on the board's first target, else on the board itself.
const APP_ROOTS = '.dg-stepper, .dg-play-table, .dg-app';
let lastFocused = null, lastRoot = null;
function gone(node) {
  return !node.isConnected || node.disabled || node.getAttribute('aria-disabled') === 'true'
    || node.offsetParent === null;
}
function keepFocus() {
  const now = document.activeElement;
  if (!lastFocused || (now && now !== document.body) || !gone(lastFocused)) return;
  if (!lastRoot || !lastRoot.isConnected || lastRoot.offsetParent === null) return;
  const next = lastRoot.querySelector('[data-target][aria-disabled="false"]')
    || lastRoot.querySelector('svg.dg-board-svg');
  if (next) next.focus();
}
document.addEventListener('focusin', (e) => {
  if (e.target === document.body || !e.target.closest) return;
  lastFocused = e.target;
  lastRoot = e.target.closest(APP_ROOTS);
});
function render({ model, el }) {
  el.classList.add('dg-a11y');
  const live = document.createElement('div');
  live.className = 'dg-live dg-visually-hidden';
  live.setAttribute('aria-live', 'polite');
  live.setAttribute('role', 'status');
  el.appendChild(live);
  // what was said last, per app and per kind of source: a redraw that puts the same words in a
  // new node (the story shown whole again) is not said twice; a replay (a new counter) is
  const last = new WeakMap();
  let saying = 0;
  function setLang() {
    document.documentElement.lang = model.get('html_lang');
    live.setAttribute('lang', model.get('html_lang'));
  }
  function say(said) {
    const mine = ++saying;
    if (live.textContent === said) {  // the same words again (a replay): empty, then say them
      live.textContent = '';
      setTimeout(() => { if (mine === saying) live.textContent = said; }, 60);
    } else live.textContent = said;
    model.set('announced', said);
    model.save_changes();
  }
  function announce() {
    for (const node of document.querySelectorAll(LIVE_SOURCES)) {
      if (node.offsetParent === null) continue;  // not on screen (another tab)
      const said = node.textContent.trim();
      const root = node.closest('.dg-app') || document.body;
      const kind = node.matches('.dg-message') ? 'message' : node.matches('.dg-story-now') ? 'now' : 'replay';
      const key = kind === 'replay' ? `${node.dataset.replay}#${said}` : said;
      const seen = last.get(root) || {};
      last.set(root, seen);
      if (said && seen[kind] !== key) {
        seen[kind] = key;
        say(said);
      }
    }
  }
  let pending = false;
  const observer = new MutationObserver(() => {
    if (pending) return;
    pending = true;
    requestAnimationFrame(() => {
      pending = false; labelSliders(document); foldHeaders(document); announce(); keepFocus();
    });
  });
  observer.observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true,
                                    attributeFilter: ['disabled', 'class', 'aria-disabled'] });
  model.on('change:html_lang', setLang);
  setLang();
  labelSliders(document);
  foldHeaders(document);
  return () => observer.disconnect();
}
export default { render };
"""

_CSS = r"""
.dg-visually-hidden { position: absolute !important; width: 1px; height: 1px; padding: 0;
  margin: -1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; border: 0; }
.dg-dashboard .widget-tab > .widget-tab-bar .lm-TabBar-tab, .dg-app .widget-tab > .widget-tab-bar .lm-TabBar-tab { color: #3d3d3d !important; }
.dg-dashboard .widget-tab > .widget-tab-bar .lm-TabBar-tab.lm-mod-current { color: #000 !important; }
.dg-dashboard .jupyter-widget-Collapse-header, .dg-app .jupyter-widget-Collapse-header { color: #3d3d3d !important; }
.dg-dashboard .jupyter-button.mod-success, .dg-app .jupyter-button.mod-success { background-color: #2e7d32; }
.dg-dashboard .jupyter-button.mod-primary, .dg-app .jupyter-button.mod-primary { background-color: #1565c0; }
.dg-dashboard .jupyter-button.mod-info, .dg-app .jupyter-button.mod-info { background-color: #01579b; }
.dg-dashboard .jupyter-button.mod-warning, .dg-app .jupyter-button.mod-warning { background-color: #a84f00; }
.dg-dashboard .jupyter-button.mod-danger, .dg-app .jupyter-button.mod-danger { background-color: #c62828; }
.dg-dashboard :focus-visible, .dg-app :focus-visible { outline: 3px solid #0072B2 !important;
  outline-offset: 2px; }
/* a fold's title and a tab fill their box, whose edge would cut a ring drawn outside them */
.dg-dashboard .jupyter-widget-Collapse-header:focus-visible, .dg-app .jupyter-widget-Collapse-header:focus-visible,
.dg-dashboard .lm-TabBar-tab:focus-visible, .dg-app .lm-TabBar-tab:focus-visible { outline-offset: -3px !important; }
/* ipywidgets turns text and number boxes' outline off with a stronger selector (outline: none !important) */
.dg-dashboard .jupyter-widgets input:focus-visible, .dg-app .jupyter-widgets input:focus-visible,
.dg-dashboard .jupyter-widgets textarea:focus-visible, .dg-app .jupyter-widgets textarea:focus-visible {
  outline: 3px solid #0072B2 !important; outline-offset: 1px; }
@media (max-width: 900px) {  /* 200 % zoom on a 1024 px screen, a tablet held upright: the side panel goes under the board */
  .dg-dashboard .dg-board-row { flex-wrap: wrap !important; }
  .dg-dashboard .dg-board-row > * { min-width: 0 !important; max-width: 100% !important; flex: 1 1 100% !important; }
  .dg-dashboard .widget-hbox { flex-wrap: wrap; }
  .dg-dashboard .widget-toggle-buttons .btn-group { display: flex; flex-wrap: wrap; }
  .dg-dashboard .widget-toggle-buttons { flex-wrap: wrap; height: auto; }
  .dg-dashboard .widget-inline-hbox { max-width: 100% !important; }
  .dg-dashboard .widget-inline-hbox > select { min-width: 0; }
}
/* a phone or a tablet (issue 37): a tab bar wraps onto a second line instead of cutting its labels
   ("Learr", "Explc", "Chall" at 390 px), and each tab is a 44 px tap target */
@media (max-width: 900px), (pointer: coarse) {
  .dg-dashboard .widget-tab > .lm-TabBar .lm-TabBar-content { flex-wrap: wrap; }
  .dg-dashboard .widget-tab > .lm-TabBar .lm-TabBar-tab { flex: 1 0 auto !important; min-width: 44px !important;
    max-width: none !important; min-height: 44px !important; align-items: center; transform: none !important; }
  .dg-dashboard .widget-tab > .lm-TabBar .lm-TabBar-tabLabel { overflow: visible; line-height: 1.3; }
}
@media (prefers-reduced-motion: reduce) {
  .dg-dashboard *, .dg-app *, .dg-dashboard *::before, .dg-dashboard *::after {
    animation: none !important; transition: none !important; scroll-behavior: auto !important; }
}
"""


class PageAccessibility(anywidget.AnyWidget):
    """Placed once in a page: the page's ``lang``, names for unnamed sliders, the live region
    (``announced``: what it said last, for tests), contrast, focus and reduced-motion CSS."""

    _esm = _ESM
    _css = _CSS
    html_lang = traitlets.Unicode("en").tag(sync=True)
    announced = traitlets.Unicode("").tag(sync=True)

    def set_language(self, lang: str) -> None:
        """Follow the language toggle (``"en"`` or ``"zh"``)."""
        self.html_lang = HTML_LANG.get(lang, "en")
