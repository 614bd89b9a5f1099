"""``dungeon-guilds site DIR``: the static classroom site (issue 40), as ``make site`` builds it.

The site is built from the project's source (:mod:`.site`: the dashboard notebook, the project's
own wheel for the browser, the tools of ``tools/site/``), with build tools that must live in
their own environment (``tools/site-requirements.txt``: JupyterLite's kernel extension breaks
JupyterLab beside it) and npm (the ``pyodide`` runtime). So, in a clone, the command does what
``make site`` does — creates ``build/site/venv`` once, installs the tools there, builds into DIR
and says how long it took and how big the site is; ``--serve`` then serves DIR on this computer.
From a pip install (no source) it says exactly what the build needs and how to serve the class
instead (standard library only; no traceback).
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

from .commands import CommandError

ROOT = Path(__file__).resolve().parents[2]
REQUIREMENTS = "tools/site-requirements.txt"
SITE_VENV = "build/site/venv"
NEEDS = ("the static site is built from the project's source (a clone of its repository): its "
         "build tools (" + REQUIREMENTS + ", in an environment of their own), npm, and the internet "
         "while it builds; in a clone run `dungeon-guilds site DIR` (or `make site`). With this "
         "install, serve the class from this computer instead: dungeon-guilds dashboard --host 0.0.0.0")


def add_parser(sub) -> None:
    p = sub.add_parser("site", help="build the static classroom site into a folder (from a clone)")
    p.add_argument("dir", nargs="?", default="_site", help="the folder (default ./_site)")
    p.add_argument("--serve", action="store_true", help="then serve it on this computer (Ctrl-C stops it)")
    p.add_argument("--port", type=int, default=0, help="the port to serve on (default: a free one)")
    p.set_defaults(func=cmd_site)


def in_a_clone(root: Path = ROOT) -> bool:
    return (root / REQUIREMENTS).is_file() and (root / "pyproject.toml").is_file() and (root / "tools" / "site").is_dir()


def _run(cmd: list[str]) -> None:
    print("+", " ".join(cmd), flush=True)
    if subprocess.call(cmd) != 0:
        raise CommandError(f"the site build stopped: {' '.join(cmd[:4])} … failed (its output is above)")


def build_python(root: Path = ROOT) -> Path:
    """The build environment's Python, created and given the tools once (as ``make site``)."""
    venv = root / SITE_VENV
    python = venv / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
    marker = venv / ".site-installed"
    if not python.is_file():
        _run([sys.executable, "-m", "venv", str(venv)])
    newest = max((root / f).stat().st_mtime for f in (REQUIREMENTS, "pyproject.toml"))
    if not marker.is_file() or marker.stat().st_mtime < newest:
        _run([str(python), "-m", "pip", "install", "--quiet", "-r", str(root / REQUIREMENTS), "-e", str(root)])
        marker.touch()
    return python


def folder_size(path: Path) -> tuple[int, int]:
    files = [p for p in path.rglob("*") if p.is_file()]
    return sum(p.stat().st_size for p in files), len(files)


def cmd_site(args: argparse.Namespace) -> int:
    dest = Path(args.dir).resolve()
    if not in_a_clone():
        if args.serve and (dest / "index.html").is_file():
            return _serve(dest, args.port)
        raise CommandError(NEEDS)
    if shutil.which("npm") is None:
        raise CommandError("the site build needs npm (Node.js) to fetch the browser's Python runtime: "
                           "install Node.js, then run this again")
    t0 = time.monotonic()
    python = build_python()
    _run([str(python), "-m", "dungeon_guilds.app.site", "build", "--out", str(dest)])
    size, files = folder_size(dest)
    print(f"The static site is in {dest}: {size / 1e6:.1f} MB in {files} files, built in "
          f"{time.monotonic() - t0:.0f} s. Put the folder on any web host, or: dungeon-guilds site {args.dir} --serve")
    return _serve(dest, args.port) if args.serve else 0


def _serve(dest: Path, port: int) -> int:
    from .site_server import serve_forever

    return serve_forever(dest, port, "/")
