"""The notebooks' figures outside Jupyter (issue 15): ``jupyter nbconvert --to html`` of each
notebook of the series, opened in Chromium with the network cut off, shows every stored plotly
figure (the PNG that ``make figures`` stores beside plotly's JSON), drawn from the page itself.

That the stored figures are all the figures is checked in the real client
(``test_notebooks_in_jupyterlab``: the cells that draw a figure after Run All are exactly the
cells that store one; by default for the notebooks it renders, ``DG_LAB_NOTEBOOKS=all`` for
every one), and in Voila a page of each notebook draws at least the figures it stores.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytestmark = pytest.mark.jupyterlab

ROOT = Path(__file__).resolve().parents[2]
SERIES = sorted(p.name for p in (ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
PLOTLY = "application/vnd.plotly.v1+json"

# visible, decoded inline PNGs in the exported page's outputs
IMAGES_JS = """() => [...document.querySelectorAll('.jp-OutputArea-output img')].map(img => ({
  inline: img.src.startsWith('data:image/png;base64,'),
  drawn: img.complete && img.naturalWidth > 100 && img.naturalHeight > 100,
  visible: img.getBoundingClientRect().width > 100,
}))"""


def stored_figures(name: str) -> int:
    nb = json.loads((ROOT / "notebooks" / name).read_text(encoding="utf-8"))
    return sum(PLOTLY in o.get("data", {}) and "image/png" in o.get("data", {})
               for c in nb["cells"] if c["cell_type"] == "code" for o in c.get("outputs", []))


def test_the_series_stores_its_figures():
    counts = {name: stored_figures(name) for name in SERIES}
    assert sum(counts.values()) >= 16, f"stored figures per notebook: {counts} (run `make figures`)"


@pytest.fixture(scope="module")
def exported(tmp_path_factory) -> dict[str, Path]:
    nbconvert = pytest.importorskip("nbconvert")
    out = tmp_path_factory.mktemp("html")
    pages = {}
    for name in SERIES:
        body, _ = nbconvert.HTMLExporter().from_filename(str(ROOT / "notebooks" / name))
        pages[name] = out / name.replace(".ipynb", ".html")
        pages[name].write_text(body, encoding="utf-8")
    return pages


@pytest.mark.parametrize("name", SERIES)
def test_exported_html_shows_every_figure_offline(name, exported, lab_browser):
    want = stored_figures(name)
    context = lab_browser.new_context(offline=True, viewport={"width": 1280, "height": 900})
    outside: list[str] = []

    def cut_off(route):  # nothing but the file itself: no CDN, no network
        if route.request.url.startswith(("file:", "data:")):
            route.continue_()
        else:
            outside.append(route.request.url)
            route.abort()

    context.route("**/*", cut_off)
    try:
        page = context.new_page()
        page.goto(exported[name].as_uri(), wait_until="load")
        images = page.evaluate(IMAGES_JS)
    finally:
        context.close()
    figures = [i for i in images if i["inline"]]
    assert len(figures) == want, f"{name}: {len(figures)} inline figure images in the HTML, {want} stored"
    assert all(i["drawn"] and i["visible"] for i in figures), f"{name}: a figure image is not drawn: {images}"
    assert "plotly" not in " ".join(outside), f"{name}: the page asks the network for plotly: {outside}"
