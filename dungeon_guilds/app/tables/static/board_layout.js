// The class table page on a phone or a tablet (issue 37): the board the server drew is one picture
// 660 units wide, in which a hand card is 40 units: 22 CSS px on a 390 px phone. On a screen up to
// NARROW wide (or a touch screen) the picture is split in two, the dungeon (title, turn track, rooms, lord) and the
// seats (each player's name, gold and hand), so tables.css can set them side by side or one above
// the other, each scaled to the screen: a hand card, a slot and the green button at least 44 × 44
// CSS px. Nothing is redrawn or decided here: the seats' groups are moved as they are into a second
// <svg> (their targets and the click and key handlers on #board are unchanged); wider, they go back.
(function () {
  'use strict';
  const NS = 'http://www.w3.org/2000/svg';
  // tables.css stacks the page up to the same width; a touch screen wider than that (a tablet
  // held sideways) keeps the seats' list beside the board, split as well
  const NARROW = '(max-width: 900px), (pointer: coarse)';
  const PAD = 3;                        // viewBox units kept around a part (its outline's stroke)
  const board = document.getElementById('board');
  const narrow = window.matchMedia(NARROW);

  function frame(svg, x, y, w, h) {
    svg.setAttribute('viewBox', [x, y, w, h].map((v) => Math.round(v)).join(' '));
    svg.setAttribute('width', Math.round(w));
    svg.setAttribute('height', Math.round(h));
  }

  function around(boxes) {
    const x = Math.min(...boxes.map((b) => b.x)) - PAD, y = Math.min(...boxes.map((b) => b.y)) - PAD;
    return [x, y, Math.max(...boxes.map((b) => b.x + b.width)) + PAD - x,
      Math.max(...boxes.map((b) => b.y + b.height)) + PAD - y];
  }

  function split(root, svg) {
    const seats = Array.from(svg.querySelectorAll(':scope > g.dg-player'));
    if (!seats.length) return;
    const focused = document.activeElement;
    const part = document.createElementNS(NS, 'svg');
    part.setAttribute('class', 'dg-board-svg dg-seats-svg');
    part.setAttribute('role', 'group');
    const heading = document.querySelector('[data-t="seats_heading"]');
    if (heading) part.setAttribute('aria-label', heading.textContent);
    part.setAttribute('font-family', svg.getAttribute('font-family'));
    frame(part, ...around(seats.map((g) => g.getBBox())));
    svg.dataset.whole = [svg.getAttribute('viewBox'), svg.getAttribute('width'), svg.getAttribute('height')].join('|');
    seats.forEach((g) => part.appendChild(g));
    const rest = svg.getBBox();
    frame(svg, 0, 0, rest.x + rest.width + PAD, rest.y + rest.height + PAD);
    root.appendChild(part);
    root.classList.add('dg-split');
    if (focused && part.contains(focused)) focused.focus();  // a node moved loses the focus
  }

  function join(root, svg) {
    const part = root.querySelector(':scope > svg.dg-seats-svg');
    const focused = document.activeElement;
    Array.from(part.children).forEach((g) => svg.appendChild(g));
    const [box, w, h] = svg.dataset.whole.split('|');
    svg.setAttribute('viewBox', box); svg.setAttribute('width', w); svg.setAttribute('height', h);
    delete svg.dataset.whole;
    part.remove();
    root.classList.remove('dg-split');
    if (focused && svg.contains(focused)) focused.focus();
  }

  function fit() {
    const root = board.querySelector('.dg-board');
    const svg = root && root.querySelector(':scope > svg.dg-board-svg:not(.dg-seats-svg)');
    if (!svg || !board.offsetParent) return;  // getBBox needs the board on screen
    const stale = root.querySelector(':scope > svg.dg-seats-svg');
    if (stale && !svg.dataset.whole) {  // a new picture drawn into a split board: the old seats go
      stale.remove();
      root.classList.remove('dg-split');
    }
    const isSplit = root.classList.contains('dg-split');
    if (narrow.matches && !isSplit) split(root, svg);
    else if (!narrow.matches && isSplit) join(root, svg);
  }

  // a board drawn anew (#board's content), or redrawn in part by the page: fit() does nothing twice
  new MutationObserver(fit).observe(board, { childList: true, subtree: true });
  narrow.addEventListener('change', fit);
})();
