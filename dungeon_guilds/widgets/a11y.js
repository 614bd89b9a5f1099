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
