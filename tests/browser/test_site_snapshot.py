"""The static site's Pyodide snapshot (issue 31): the loader `make site` writes
(``dungeon_guilds/app/site_tools/pyodide-snapshot.js`` → ``_site/static/pyodide/dg-pyodide.js``) run by Node in a
stand-in for the kernel's worker, with the site's own Pyodide, lock and wheels
(``tests/site/snapshot_visits.mjs``): a first visit makes and stores the snapshot, a second one
restores it, and a damaged entry is refused and replaced; on each, the kernel's own start
(piplite, pyodide_kernel) and a Monte Carlo run by the engine give the same games, and Python's unseeded ``random`` is
reseeded (the memory holds the first visit's state).

The browser half (a reload in Chromium restores the snapshot and plays) is in
``test_static_site_offline.py``. Skipped (or failed in CI) when the site has not been built or
Node is missing.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

from conftest import unavailable

ROOT = Path(__file__).resolve().parents[2]
PYODIDE = ROOT / "_site" / "static" / "pyodide"


def test_the_second_visit_restores_the_snapshot_and_a_damaged_one_is_replaced():
    if not (PYODIDE / "dg-pyodide.js").exists():
        unavailable(f"the static site has not been built with its snapshot loader ({PYODIDE}: run `make site`)")
    node = shutil.which("node")
    if node is None:
        unavailable("Node is not installed")
    done = subprocess.run([node, str(ROOT / "tests" / "site" / "snapshot_visits.mjs"), str(PYODIDE)],
                          capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr[-3000:]
    visits = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
    assert [v["visit"] for v in visits] == [1, 2, 3], done.stdout[-2000:]
    first, second, third = visits
    assert not first["restored"] and first["stored"] == 1 and first["stored_mb"] > 40  # memory + files
    assert second["restored"] and not second["refused"]
    assert third["refused"] and not third["restored"] and third["stored"] == 1 and third["stored_mb"] > 40
    assert first["result"] == second["result"] == third["result"]  # the same games, byte for byte
    assert "greedy" in first["result"]
    # Python's own unseeded random state is not the first visit's (the memory held it)
    assert len({first["random"], second["random"], third["random"]}) == 3
    print({v["visit"]: v["seconds"] for v in visits})
