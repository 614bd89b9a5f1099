"""The design explorer's bar chart on a narrow screen: long knob-step labels on two lines, broken
at a space outside brackets or after a full-width closing bracket (issue 41; a phone at 390 px
cut them)."""

from __future__ import annotations

import pytest

pytest.importorskip("plotly")

from dungeon_guilds.viz.explorer import bar_figure, wrapped  # noqa: E402
from dungeon_guilds.workshop.explorer import reference_map  # noqa: E402


def test_long_labels_break_once_outside_brackets():
    assert wrapped("Lv2 lock threshold 7→8") == "Lv2 lock threshold 7→8"
    assert wrapped("defence of the Lv1 card 4/3 (× 6) 4→5") == "defence of the Lv1<br>card 4/3 (× 6) 4→5"
    assert wrapped("Lv1 卡 4/3（× 6）的難度 4→5") == "Lv1 卡 4/3（× 6）<br>的難度 4→5"


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_bar_label_is_at_most_two_lines_of_the_same_words(lang):
    m = reference_map()
    for measure in m.measures():
        for y in bar_figure(m, measure, lang).data[0].y:
            assert y.count("<br>") <= 1 and "(<br>" not in y and "（<br>" not in y, y
