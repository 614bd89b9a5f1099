"""Store the notebooks' plotly figures in a form that shows without a kernel (issue 15).

``jupyter nbconvert --to html`` and GitHub's notebook viewer ignore plotly's own mimetype
(``application/vnd.plotly.v1+json``), so a notebook whose figures are stored only that way shows
none of them. This script runs each notebook of the series (nbclient, one kernel per notebook)
with plotly's renderer set to ``plotly_mimetype+png``: every figure cell then stores ONE output
holding both the plotly JSON (interactive in JupyterLab, even before the kernel runs) and a PNG
drawn by kaleido (what nbconvert and GitHub show). Nothing comes from a CDN: the PNG is inline.

What it writes, per notebook (``--check`` writes nothing and reports what would change):

* a cell whose run displays a plotly figure stores that output (plotly JSON + PNG);
* a ``# NBVAL_CHECK_OUTPUT`` cell keeps its stored output untouched (nbval compares it);
* every other code cell stores no output (no widget views, no tables).

kaleido 1.x draws with a Chromium-family browser; set ``BROWSER_PATH`` (``make figures`` uses
Debian's ``/usr/bin/chromium``). Run: ``make figures`` or
``BROWSER_PATH=/usr/bin/chromium python tools/notebook_figures.py [NOTEBOOK ...]``.
"""

from __future__ import annotations

import argparse
import io
import sys
from pathlib import Path

import nbformat
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = ROOT / "notebooks"
PLOTLY = "application/vnd.plotly.v1+json"
PNG = "image/png"
CHECK_MARK = "# NBVAL_CHECK_OUTPUT"
WIDTH, HEIGHT = 760, 420  # the PNG's size when a figure sets none (CSS pixels, scale 1)
SETUP = f"""\
import plotly.io as _pio
_pio.renderers.default = "plotly_mimetype+png"
_pio.renderers["png"].width, _pio.renderers["png"].height, _pio.renderers["png"].scale = {WIDTH}, {HEIGHT}, 1
"""


def series() -> list[Path]:
    """The numbered notebooks (the dashboard stores nothing)."""
    return sorted(p for p in NOTEBOOKS.glob("[0-9][0-9]_*.ipynb"))


def is_checked(cell) -> bool:
    return cell.cell_type == "code" and cell.source.lstrip().startswith(CHECK_MARK)


def smaller_png(data: str) -> str:
    """The PNG (base64) as a 256-colour palette PNG when Pillow is there and it is smaller."""
    try:
        from PIL import Image
    except ImportError:
        return data
    import base64

    raw = base64.b64decode(data)
    image = Image.open(io.BytesIO(raw)).convert("RGB").quantize(colors=256, method=Image.Quantize.MEDIANCUT)
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    small = base64.b64encode(out.getvalue()).decode("ascii")
    return small if len(small) < len(data) else data


def prune_template(figure: dict) -> dict:
    """The figure with its template's per-trace-type defaults kept only for the trace types it
    draws: plotly.js applies ``template.data.<type>`` to traces of that type only, so the figure
    looks the same and its JSON is ~7 kB smaller."""
    template = figure.get("layout", {}).get("template")
    if isinstance(template, dict) and isinstance(template.get("data"), dict):
        types = {trace.get("type", "scatter") for trace in figure.get("data", [])}
        template["data"] = {k: v for k, v in template["data"].items() if k in types}
    return figure


def figure_outputs(outputs) -> list:
    """The outputs of an executed cell that are plotly figures, as display_data with the plotly
    JSON and the PNG only."""
    figures = []
    for out in outputs:
        data = out.get("data", {})
        if out.get("output_type") in ("display_data", "execute_result") and PLOTLY in data:
            if PNG not in data:
                raise RuntimeError("a plotly figure has no PNG: is kaleido installed and BROWSER_PATH set?")
            figures.append(nbformat.v4.new_output("display_data", data={
                PLOTLY: prune_template(data[PLOTLY]), PNG: smaller_png(data[PNG])}))
    return figures


def execute(path: Path):
    """The notebook run top to bottom with plotly's renderer set to plotly JSON + PNG."""
    nb = nbformat.read(path, as_version=4)
    run = nbformat.from_dict(nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(SETUP)]
                                                       + [c for c in nb.cells], metadata=nb.metadata))
    NotebookClient(run, timeout=900, kernel_name="python3",
                   resources={"metadata": {"path": str(path.parent)}}).execute()
    return nb, run.cells[1:]


def store(path: Path, check: bool = False) -> tuple[list[str], int]:
    """Store ``path``'s figure outputs; return what changed (cell ids) and how many cells
    store a figure."""
    nb, executed = execute(path)
    changed = []
    for cell, ran in zip(nb.cells, executed):
        if cell.cell_type != "code" or is_checked(cell):
            continue
        new = figure_outputs(ran.get("outputs", []))
        old = [{k: o.get("data", {}).get(k) for k in (PLOTLY,)} for o in cell.get("outputs", [])]
        if old != [{PLOTLY: o["data"][PLOTLY]} for o in new]:
            changed.append(cell.get("id", "?"))
        cell.outputs = new
        # nbval refuses a stored output of a cell that "never ran"; the run's own count
        cell.execution_count = ran.get("execution_count") if new else None
    if not check:
        nbformat.write(nb, path)
    return changed, sum(bool(c.get("outputs")) for c in nb.cells if c.cell_type == "code" and not is_checked(c))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("notebooks", nargs="*", type=Path, help="default: the numbered series")
    parser.add_argument("--check", action="store_true",
                        help="write nothing; exit 1 if a stored figure differs from a fresh run")
    args = parser.parse_args(argv)
    stale = 0
    for path in args.notebooks or series():
        changed, figures = store(path, check=args.check)
        stale += bool(changed)
        print(f"{path.name}: {figures} figure(s) stored; "
              f"{'changed: ' + ', '.join(changed) if changed else 'unchanged'}", flush=True)
    return 1 if args.check and stale else 0


if __name__ == "__main__":
    sys.exit(main())
