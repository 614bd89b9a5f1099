"""Issue 24, item 4: no text of the drawn board overlaps another or leaves its room, measured
in Chromium (``getBBox`` of every ``<text>``), for every room level and every lord (base and
promo), in English and 繁體中文: rooms with adventurers, cost tags under the slots (a
strength chosen), locked rooms, revealed fronts and their outcome. The English cost tags of a
Lv2 room used to run into each other and out of the room ("…1 to the ban").

Boards are drawn by :func:`dungeon_guilds.drawing.board_svg.board_html` into a blank page (no server).
"""

from __future__ import annotations

import random

import pytest

from dungeon_guilds import Game, Rules
from dungeon_guilds.board_targets import board_targets
from dungeon_guilds.drawing.board_svg import board_svg_html as board_html
from dungeon_guilds.lords import ALL_LORDS
from dungeon_guilds.state import strengths_of

pytestmark = pytest.mark.browser

CHECK_JS = """() => {
  const box = e => { const b = e.getBBox(); return {x: b.x, y: b.y, r: b.x + b.width, b: b.y + b.height,
                                                   t: (e.textContent || '').slice(0, 40)}; };
  const inside = (a, o) => a.x >= o.x - .5 && a.r <= o.r + .5 && a.y >= o.y - .5 && a.b <= o.b + .5;
  const meet = (a, b) => Math.min(a.r, b.r) - Math.max(a.x, b.x) > .5 && Math.min(a.b, b.b) - Math.max(a.y, b.y) > .5;
  const bad = [];
  document.querySelectorAll('svg').forEach((svg, n) => {
    svg.querySelectorAll('g.dg-room, g.dg-lord').forEach(card => {
      const frame = box(card.querySelector(':scope > rect'));
      const texts = [...card.querySelectorAll('text')].filter(t => t.textContent.trim()).map(box);
      const tags = [...card.querySelectorAll('rect.dg-cost-tag')].map(box);
      const what = `board ${n} ${card.getAttribute('class')} ${card.dataset.room || card.dataset.lord}`;
      texts.concat(tags).forEach(t => { if (!inside(t, frame)) bad.push(`${what}: "${t.t}" leaves its card`); });
      for (let i = 0; i < texts.length; i++)
        for (let j = i + 1; j < texts.length; j++)
          if (meet(texts[i], texts[j])) bad.push(`${what}: "${texts[i].t}" overlaps "${texts[j].t}"`);
      for (let i = 0; i < tags.length; i++)
        for (let j = i + 1; j < tags.length; j++)
          if (meet(tags[i], tags[j])) bad.push(`${what}: two cost tags overlap`);
    });
  });
  return bad;
}"""


def _tagged(state, lang):
    """The targets of the player to move with the strength that shows the most cost tags."""
    p = state.current
    best = {}
    for s in strengths_of(state.active[p]):
        tg = board_targets(state, p, (s,), lang)
        if sum(1 for k, x in tg.items() if k.startswith("slot-") and x.enabled and x.cost) > \
                sum(1 for k, x in best.items() if k.startswith("slot-") and x.enabled and x.cost):
            best = tg
    return best


def boards(lang: str) -> list[str]:
    """For each lord: a game (3 to 6 players) reaching a round of that lord; drawn at its
    fullest dispatch moment with cost tags, and after it resolved (fronts and outcomes)."""
    out = []
    for lord in ALL_LORDS:
        seed = next(s for s in range(500)
                    if lord in Game(["A", "B", "C", "D", "E", "F"][:3 + s % 4], seed=s,
                                    rules=Rules(lords="all")).state.lords)
        names = ["Ann", "Bo", "Cy", "Di", "Eve", "Fay"][:3 + seed % 4]
        game = Game(names, seed=seed, rules=Rules(lords="all"))
        rnd = game.state.lords.index(lord)
        rng = random.Random(seed)
        fullest = None
        while not game.is_over and game.state.round <= rnd:
            st = game.state
            if st.round == rnd and st.phase == "dispatch":
                tg = _tagged(st, lang)
                if tg and (fullest is None or st.actions_taken >= fullest[0].actions_taken):
                    fullest = (st.copy(), list(game.log), tg)
            game.push(rng.choice(game.legal_actions()))
        if fullest is not None:
            out.append(board_html(fullest[0], lang, None, fullest[1], fullest[2]))
        out.append(board_html(game.state, lang, None, game.log))  # round rnd resolved
    return out


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_no_text_on_the_board_overlaps_or_leaves_its_card(browser, lang):
    drawn = boards(lang)
    html = "".join(drawn)
    for level in (1, 2, 3):  # every room level drawn, and cost tags shown
        assert f'data-level="{level}"' in html
    assert html.count('class="dg-cost-tag"') >= 10 and 'data-locked="1"' in html
    assert 'data-status="cleared"' in html and 'data-status="failed"' in html
    assert all(f'data-lord="{lord.id}"' in html for lord in ALL_LORDS)
    context = browser.new_context(viewport={"width": 1024, "height": 768})
    try:
        page = context.new_page()
        page.set_content(f'<html lang="{"zh-Hant" if lang == "zh" else "en"}"><body>'
                         + "".join(f'<div style="width:640px">{b}</div>' for b in drawn) + "</body></html>")
        page.evaluate("document.fonts.ready")
        bad = page.evaluate(CHECK_JS)
    finally:
        context.close()
    assert not bad, f"{len(bad)} problems, e.g.:\n" + "\n".join(bad[:15])
