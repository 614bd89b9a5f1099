// Print and play (issue 29): shrink the text of a card (or of the rules sheet) whose words do
// not fit, 7 % a step, at most 10 steps, and mark how many steps it took (data-fit), which the
// browser test reads. Inlined at the end of the document by layout.py (FIT_SCRIPT).
(function () {
  function over(b) { return b.scrollHeight > b.clientHeight + 0.5 || b.scrollWidth > b.clientWidth + 0.5; }
  document.querySelectorAll('.card .body, .rules .cols').forEach(function (b) {
    var size = parseFloat(getComputedStyle(b).fontSize), n = 0;
    while (over(b) && n < 10) { size *= 0.93; b.style.fontSize = size + 'px'; n++; }
    b.dataset.fit = String(n);
  });
})();
