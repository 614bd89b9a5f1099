// The drawn board made clickable (widgets/board.py, BoardWidget): a click, or Enter / Space on
// a focused target, sends the target's id to Python; the arrow keys move between the targets
// (the shared keyboard module, drawing/board_keys.js, inlined here by board.py).
import { boardTargets, listenBoardKeys } from '../drawing/board_keys.js';

// A phone (issue 50): the picture is 660 units wide, so a hand card (40 units) would be 20 CSS px
// in the dashboard's 330 px. On a narrow or touch screen the seats' groups (each player's name,
// gold and hand) are moved as they are into a second <svg> under the dungeon, each part as wide
// as the screen (board.css): a hand card and a room slot at least 44 × 44 CSS px. Nothing is
// redrawn or decided here (the class tables' page does the same, app/tables/static/board_layout.js);
// a picture drawn anew comes whole, and is split again when shown.
const NARROW = '(max-width: 600px), (pointer: coarse)';
const NS = 'http://www.w3.org/2000/svg';
const PAD = 3; // viewBox units kept around a part (its outline's stroke)

// the width and height too: the browser takes a picture's proportions from them (board.css
// sets its width), so a part kept the whole board's and was drawn small inside them
function frame(svg, [x, y, w, h]) {
  svg.setAttribute('viewBox', [x, y, w, h].map((v) => Math.round(v)).join(' '));
  svg.setAttribute('width', Math.round(w));
  svg.setAttribute('height', Math.round(h));
}

function around(boxes) {
  const x = Math.min(...boxes.map((b) => b.x)) - PAD, y = Math.min(...boxes.map((b) => b.y)) - PAD;
  return [x, y, Math.max(...boxes.map((b) => b.x + b.width)) + PAD - x,
    Math.max(...boxes.map((b) => b.y + b.height)) + PAD - y];
}

// the seats into their own picture, once the board is on screen (getBBox needs it laid out)
function split(el) {
  const root = el.querySelector('.dg-board');
  const svg = root && root.querySelector(':scope > svg.dg-board-svg');
  const seats = svg ? Array.from(svg.querySelectorAll(':scope > g.dg-player')) : [];
  if (!seats.length || !el.offsetParent || root.querySelector(':scope > svg.dg-seats-svg')) return;
  const focused = document.activeElement;
  const part = document.createElementNS(NS, 'svg');
  part.setAttribute('class', 'dg-board-svg dg-seats-svg');
  part.setAttribute('role', 'group');
  part.setAttribute('font-family', svg.getAttribute('font-family'));
  frame(part, around(seats.map((g) => g.getBBox())));
  seats.forEach((g) => part.appendChild(g));
  const rest = svg.getBBox();
  frame(svg, [0, 0, rest.x + rest.width + PAD, rest.y + rest.height + PAD]);
  root.appendChild(part);
  root.classList.add('dg-split');
  if (focused && part.contains(focused)) focused.focus(); // a node moved loses the focus
}

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
  const narrow = window.matchMedia(NARROW);
  const fit = () => { if (narrow.matches) split(el); else if (el.querySelector('.dg-split')) draw(); };
  const drawAndFit = () => { draw(); fit(); };
  new ResizeObserver(fit).observe(el); // shown (a tab opened), or its width changed
  narrow.addEventListener('change', fit);
  el.addEventListener('click', (e) => send(e.target.closest('[data-target]')));
  listenBoardKeys(el, send);
  model.on('change:html', drawAndFit);
  model.on('change:locked', drawAndFit);
  model.on('change:description', drawAndFit);
  drawAndFit();
}
export default { render };
