"""Issue 24, item 4: no widget description is cut. ipywidgets gives a description label
80 px (``--jp-widgets-inline-label-width``) unless the widget's style says
``description_width="initial"`` (the label as wide as its words); notebook 07's slider read
"games / v…". Checked for every widget of the dashboard's tabs (both languages) and every
widget a notebook's code makes, with the text width estimated at the widgets' 13 px font."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

W = pytest.importorskip("ipywidgets")

ROOT = Path(__file__).resolve().parents[2]
LABEL_PX = 80 - 8  # the label's box, less its right padding
FONT_PX = 13


def width(text: str) -> float:
    plain = re.sub(r"<[^>]+>", "", text)
    return sum(FONT_PX * (1.0 if ord(c) > 0x2E7F else 0.6) for c in plain)


def cut_descriptions(widget, seen=None) -> list[str]:
    seen = set() if seen is None else seen
    if id(widget) in seen:
        return []
    seen.add(id(widget))
    out = []
    desc = getattr(widget, "description", "")
    style = getattr(widget, "style", None)
    beside = isinstance(widget, (W.Button, W.ToggleButton, W.Checkbox, W.Valid))  # not a fixed label
    beside = beside or "dg-sr-label" in getattr(widget, "_dom_classes", ())  # label for screen readers only
    if desc and not beside and style is not None and hasattr(style, "description_width"):
        if not style.description_width and width(desc) > LABEL_PX:
            out.append(f"{type(widget).__name__} {desc!r} ({width(desc):.0f} px > {LABEL_PX} px)")
    for child in getattr(widget, "children", ()) or ():
        out += cut_descriptions(child, seen)
    return out


def test_the_check_finds_notebook_07s_slider_label():
    slider = W.IntSlider(description="games / value")
    assert cut_descriptions(slider)
    assert not cut_descriptions(W.IntSlider(description="games / value", style={"description_width": "initial"}))


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_no_description_is_cut_on_any_tab(lang):
    from dungeon_guilds.app.dashboard import TABS, Dashboard

    d = Dashboard(lang=lang)
    for name in TABS:
        d.select_tab(name)
    d.lab_tabs.selected_index = 1  # the workshop
    cut = cut_descriptions(d)
    assert not cut, cut


@pytest.mark.parametrize("path", sorted((ROOT / "notebooks").glob("*.ipynb")), ids=lambda p: p.name)
def test_no_description_is_cut_in_a_notebook(path):
    """Each ``description="…"`` a notebook's code writes fits its label, or the same call
    widens the label (``description_width``)."""
    nb = json.loads(path.read_text(encoding="utf-8"))
    cut = []
    for cell in nb["cells"]:
        if cell["cell_type"] != "code":
            continue
        code = "".join(cell["source"])
        for m in re.finditer(r"""description=(["'])(.*?)\1""", code):
            end = code.find(")\n", m.end())
            call = code[code.rfind("W.", 0, m.start()):end if end >= 0 else len(code)]  # the whole call
            if "Button" in call[:20] or "Checkbox" in call[:20]:
                continue
            if "description_width" not in call and width(m.group(2)) > LABEL_PX:
                cut.append(m.group(2))
    assert not cut, f"{path.name}: descriptions cut at {LABEL_PX} px: {cut}"
