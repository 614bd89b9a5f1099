"""`make lab` and Binder install the same thing and open the same page (issue 20); headless.

* binder/requirements.txt lists exactly the packages of the `lab` extra (pyproject.toml), each
  pinned to a version the extra allows;
* binder/overrides.json turns JupyterLab's news pop-up off, and `make lab` and binder/postBuild
  both put it where JupyterLab reads its settings overrides (<sys.prefix>/share/jupyter/lab/settings);
* `make lab` opens the index of the learner's own copy on loopback by default; Binder lands on
  the repository's index.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BINDER = ROOT / "binder"
INDEX = "notebooks/00_index.ipynb"


def lab_extra() -> dict:
    from packaging.requirements import Requirement

    extra = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"]["optional-dependencies"]["lab"]
    return {Requirement(r).name.lower(): Requirement(r) for r in extra}


def binder_pins() -> dict[str, str]:
    pins = {}
    for line in (BINDER / "requirements.txt").read_text("utf-8").splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            m = re.fullmatch(r"([A-Za-z0-9_.\-]+)==([\w.]+)", line)
            assert m, f"binder/requirements.txt: {line!r} is not name==version"
            pins[m.group(1).lower()] = m.group(2)
    return pins


def test_binder_requirements_are_the_lab_extra():
    pytest.importorskip("packaging")
    extra, pins = lab_extra(), binder_pins()
    assert set(pins) == set(extra), (f"binder/requirements.txt {sorted(pins)} != the lab extra "
                                     f"{sorted(extra)}: `make lab` and Binder must install the same")
    for name, version in pins.items():
        assert extra[name].specifier.contains(version, prereleases=True), \
            f"binder pins {name}=={version}, outside the lab extra's {extra[name].specifier}"


def test_news_pop_up_is_off_where_jupyterlab_reads_it():
    overrides = json.loads((BINDER / "overrides.json").read_text("utf-8"))
    assert overrides["@jupyterlab/apputils-extension:notification"]["fetchNews"] == "false"
    makefile = (ROOT / "Makefile").read_text("utf-8")
    assert "LAB_SETTINGS := $(VENV)/share/jupyter/lab/settings" in makefile
    assert "cp binder/overrides.json $(LAB_SETTINGS)/overrides.json" in makefile
    post = (BINDER / "postBuild").read_text("utf-8")
    assert "share/jupyter/lab/settings" in post and "cp binder/overrides.json" in post
    lab = pytest.importorskip("jupyterlab.labapp")
    settings = Path(lab.LabApp().app_settings_dir).resolve()
    assert settings == (Path(sys.prefix) / "share/jupyter/lab/settings").resolve(), \
        f"JupyterLab reads its overrides from {settings}, not where `make lab` writes them"


def test_make_lab_opens_the_index_on_loopback():
    out = subprocess.run(["make", "--no-print-directory", "-n", "-o", ".venv/.lab-installed", "lab"], cwd=ROOT, capture_output=True,
                         text=True, check=True).stdout
    command = " ".join(out.split("\\\n"))
    # the learner's own copy (git-ignored), opened at its index by `dungeon-guilds lab`
    # (tests/test_app_commands.py: the JupyterLab command line it runs)
    assert command.split() == [".venv/bin/dungeon-guilds", "lab", "dungeon-guilds-notebooks",
                               "--host", "127.0.0.1", "--port", "8888"], command
    assert "/dungeon-guilds-notebooks/" in (ROOT / ".gitignore").read_text("utf-8").splitlines()
    other = subprocess.run(["make", "--no-print-directory", "-n", "-o", ".venv/.lab-installed", "lab", "HOST=0.0.0.0", "PORT=9999"],
                           cwd=ROOT, capture_output=True, text=True, check=True).stdout
    assert "--host 0.0.0.0 --port 9999" in other


def test_binder_lands_on_the_index():
    start = (BINDER / "start").read_text("utf-8")
    assert f'JUPYTERHUB_DEFAULT_URL="/lab/tree/{INDEX}"' in start and 'exec "$@"' in start
    assert f'"default_url": "/lab/tree/{INDEX}"' in (BINDER / "postBuild").read_text("utf-8")
    index = json.loads((ROOT / INDEX).read_text("utf-8"))
    prose = "".join("".join(c["source"]) for c in index["cells"] if c["cell_type"] == "markdown")
    assert "](dashboard.ipynb)" in prose, "the index should link the dashboard (one click away)"


def test_no_extra_installs_jupyterlites_kernel_extension_beside_jupyterlab():
    """Any extras a user combines give a working JupyterLab (test_lab_command.py opens it, with
    every extra of the test environment, and sees no JavaScript error): JupyterLite's kernel
    lab extension, which breaks JupyterLab, is in no extra; the static site's build tools are
    installed only into build/site/venv."""
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"]["optional-dependencies"]
    assert "site" not in extras
    offenders = {name: r for name, reqs in extras.items() for r in reqs if re.match(r"(jupyterlite|voici)", r)}
    assert not offenders, offenders
    site_tools = (ROOT / "dungeon_guilds" / "app" / "site_tools" / "requirements.txt").read_text("utf-8")
    assert "jupyterlite-pyodide-kernel" in site_tools
    makefile = (ROOT / "Makefile").read_text("utf-8")
    assert "$(SITE_BIN)/python -m pip install --quiet -r dungeon_guilds/app/site_tools/requirements.txt" in makefile

