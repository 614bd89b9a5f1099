// The board's keyboard (issue 39): one module for the widget board (widgets/board.js, where
// widgets/board.py inlines it into the anywidget) and the class-table page
// (app/tables/static/tables.js, which imports it as a file the table server serves).
// The targets are the ones board_svg.py draws: [data-target], aria-disabled "false" when the
// engine allows the move now. Enter / Space on a target activates it; the arrow keys move the
// focus to the next / previous allowed target (round the end).

const STEPS = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 };

/** The targets of `root` a click may choose now, in the board's order. */
export function boardTargets(root) {
  return Array.from(root.querySelectorAll('[data-target][aria-disabled="false"]'));
}

/** A keydown inside `root`: Enter / Space calls `activate(target)`; an arrow moves the focus. */
export function onBoardKey(root, e, activate) {
  const t = e.target.closest ? e.target.closest('[data-target]') : null;
  if (!t) return;
  if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); activate(t); return; }
  const step = STEPS[e.key];
  if (!step) return;
  e.preventDefault();
  const all = boardTargets(root);
  const next = all[(all.indexOf(t) + step + all.length) % all.length];
  if (next) next.focus();
}

/** Listen for the board's keys on `root` (the element that holds the drawn board). */
export function listenBoardKeys(root, activate) {
  root.addEventListener('keydown', (e) => onBoardKey(root, e, activate));
}
