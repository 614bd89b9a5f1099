// The drawn board made clickable (widgets/board.py, BoardWidget): a click, or Enter / Space on
// a focused target, sends the target's id to Python; the arrow keys move between the targets
// (the shared keyboard module, drawing/board_keys.js, inlined here by board.py).
import { boardTargets, listenBoardKeys } from '../drawing/board_keys.js';

function render({ model, el }) {
  el.classList.add('dg-board-widget');
  function draw() {
    const had = el.contains(document.activeElement);
    const was = had && document.activeElement.dataset ? document.activeElement.dataset.target : '';
    el.innerHTML = model.get('html') + model.get('description');
    const svg = el.querySelector('svg.dg-board-svg');
    const words = el.querySelector('.dg-board-text-lines');
    if (svg) {
      svg.setAttribute('tabindex', '-1');  // focus comes back here when no target is left
      if (words) svg.setAttribute('aria-describedby', words.id);  // the board in words
    }
    el.dataset.locked = model.get('locked') ? '1' : '0';
    const root = el.querySelector('.dg-board');
    if (root) {
      root.dataset.locked = el.dataset.locked;
      root.classList.toggle('dg-board-locked', model.get('locked'));
    }
    if (had) {
      const want = model.get('focus_target') || was;
      const next = el.querySelector(`[data-target="${want}"][aria-disabled="false"]`) || boardTargets(el)[0];
      if (next) next.focus();
      else if (svg) svg.focus();  // a bot's turn: keep the focus on the board, not lost to the page
    }
  }
  function send(t) {
    if (!t || model.get('locked')) return;
    model.send({ event: 'click', target: t.dataset.target });
  }
  el.addEventListener('click', (e) => send(e.target.closest('[data-target]')));
  listenBoardKeys(el, send);
  model.on('change:html', draw);
  model.on('change:locked', draw);
  model.on('change:description', draw);
  draw();
}
export default { render };
