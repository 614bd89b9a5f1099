"""Money read back from a rendered page (issue 40, item 7): shared by the Voila and JupyterLab
renders of every notebook (tests/browser/test_notebooks_in_voila.py,
tests/jupyterlab/test_notebooks_in_jupyterlab.py).

Both run MathJax over the page, HTML outputs included: two dollar amounts in one run of text were
typeset as italic mathematics ("Heal costs this round: 1:1 3:2 5:$3"). On a settled page:

* nothing is typeset as mathematics (no MathJax element: the notebooks hold no formula);
* every seat's gold on every board reads ``$N`` where ``N`` is the engine's value the drawing
  wrote beside it (``data-gold`` of the seat's group);
* every board's heal-cost line reads five ``S:$N`` pairs, and no run of text MathJax reads holds
  two dollars (Markdown and HTML outputs, labels, figures; not code cells' sources, nor an
  ipywidgets ``HTML`` widget's content, which MathJax leaves alone): each amount is in an
  element of its own.
"""

from __future__ import annotations

MONEY_JS = r"""() => {
  const found = [];
  const text = (e) => (e.textContent || '').replace(/\s+/g, ' ').trim();
  for (const m of document.querySelectorAll('mjx-container, .MathJax, .MathJax_Display, .MathJax_SVG, .MathJax_CHTML'))
    found.push('typeset as maths: ' + text(m.parentElement || m).slice(0, 80));
  let golds = 0, heals = 0;
  for (const p of document.querySelectorAll('.dg-player[data-gold]')) {
    const g = p.querySelector('.dg-gold');
    if (!g) continue;
    golds += 1;
    if (text(g) !== '$' + p.dataset.gold) found.push(`seat gold reads ${JSON.stringify(text(g))}, the engine's is $${p.dataset.gold}`);
  }
  for (const h of document.querySelectorAll('.dg-heal')) {
    heals += 1;
    if ((text(h).match(/\b[1-5]:\$\d+/g) || []).length !== 5) found.push('heal costs read ' + JSON.stringify(text(h)));
  }
  // the text a reader sees, code excepted (JupyterLab shows the cells' sources, f-strings and all):
  // no run of text holds two dollars (what MathJax pairs; each amount is in its own element)
  // an ipywidgets HTML widget's content is not typeset by MathJax (its Label and HTMLMath are):
  // JupyterLab shows narration lines with several amounts there untypeset (checked: no MathJax
  // element on those pages), so only the runs MathJax reads are held to one dollar
  const skip = 'script, style, textarea, code, pre, .cm-editor, .jp-InputArea-editor, .jp-InputPrompt, .widget-html-content';
  const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  let paired = 0;
  for (let n = walk.nextNode(); n; n = walk.nextNode()) {
    if ((n.data.match(/\$/g) || []).length < 2 || n.parentElement.closest(skip)) continue;
    if (paired++ < 5) found.push('two dollars in one run of text: ' + JSON.stringify(n.data.slice(0, 80)));
  }
  return {found, golds, heals};
}"""


def money_problems(page, where: str) -> tuple[list[str], int]:
    """What reads wrong about money on ``page`` (see the module), and how many seats' gold was read."""
    got = page.evaluate(MONEY_JS)
    return [f"{where}: {f}" for f in got["found"]], got["golds"]
