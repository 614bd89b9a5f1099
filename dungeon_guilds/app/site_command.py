"""``dungeon-guilds site DIR``: the static classroom site (issue 40), built from a pip install
or a clone.

The site is built by :mod:`.site` from what the wheel carries (the dashboard notebook, the
tools of ``site_tools/``, the installed package zipped again as the browser's wheel:
:mod:`.site_wheel`), with build tools that must live in an environment of their own
(``site_tools/requirements.txt``, from PyPI: JupyterLite's kernel extension breaks JupyterLab
beside it) and npm (the ``pyodide`` runtime, from npm's registry). So the command makes that
environment once — in a clone ``build/site/venv`` as ``make site`` does; from a pip install in
the user's cache folder (:func:`cache_dir`), where the installed package is installed too —
builds into DIR and says how long it took and how big the site is; ``--serve`` serves DIR on
this computer (building it first only if it holds no site). Without npm it says what to install (no traceback).
The build's tools print a few hundred lines: they go to ``site-build.log`` in the build's folder
and the terminal shows one line a step (``--verbose``: all of it, as ``make site`` does; issue 53).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

from .commands import CommandError

ROOT = Path(__file__).resolve().parents[2]
REQUIREMENTS = Path(__file__).with_name("site_tools") / "requirements.txt"
SITE_VENV = "build/site/venv"  # a clone's, as make site's
CACHE_ENV = "DUNGEON_GUILDS_CACHE"  # where a pip install's site build lives (default: cache_dir())
NEEDS_NPM = ("the site build needs Node.js with npm (they fetch Pyodide, the Python the browser "
             "runs, from npm's registry and prepare its wheels): install Node.js 18 or newer "
             "(https://nodejs.org, or e.g. `sudo apt install nodejs npm`, `brew install node`), then "
             "run this again. Or serve the class from this computer instead: "
             "dungeon-guilds dashboard --host 0.0.0.0 --class N")


def add_parser(sub) -> None:
    p = sub.add_parser("site", help="build the static classroom site into a folder (needs npm)")
    p.add_argument("dir", nargs="?", default="_site", help="the folder (default ./_site)")
    p.add_argument("--serve", action="store_true",
                   help="serve the folder on this computer (built first if it holds no site; Ctrl-C stops it)")
    p.add_argument("--port", type=int, default=0, help="the port to serve on (default: a free one)")
    p.add_argument("--host", default="127.0.0.1",
                   help="--serve on this address (0.0.0.0: the class's devices on this network; default this computer only)")
    p.add_argument("--verbose", action="store_true",
                   help="show the build's whole output here (by default it goes to a log file, and a few lines say each step)")
    p.set_defaults(func=cmd_site)


def in_a_clone(root: Path = ROOT) -> bool:
    """This package sits in a checkout of its repository (a clone, an editable install)."""
    return (root / "pyproject.toml").is_file() and (root / "setup.py").is_file() and (root / "dungeon_guilds").is_dir()


def cache_dir() -> Path:
    """The user's cache folder for this program (``$DUNGEON_GUILDS_CACHE`` if set): where a pip
    install keeps the site build's environment and downloads (~500 MB; deleting it is safe)."""
    if os.environ.get(CACHE_ENV):
        return Path(os.environ[CACHE_ENV])
    if os.name == "nt":
        return Path(os.environ.get("LOCALAPPDATA") or Path.home() / "AppData" / "Local") / "dungeon-guilds" / "Cache"
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Caches" / "dungeon-guilds"
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "dungeon-guilds"


def work_dir(root: Path = ROOT) -> Path:
    """Where the build keeps its environment and downloads: a clone's ``build/site``, else the cache."""
    return root / "build" / "site" if in_a_clone(root) else cache_dir() / "site"


# Where a quiet build writes its tools' output (issue 53: the build printed ~315 lines): set by
# :func:`cmd_site` for one build; None (``--verbose``, or a caller of its own): the terminal.
BUILD_LOG: dict[str, Path | None] = {"path": None, "started": None}
LOG_NAME = "site-build.log"
TAIL = 30  # lines of the log shown when a step fails


def _step(cmd: list[str]) -> str:
    """What a build command does, in a few words (a quiet build's line for it)."""
    if cmd[1:3] == ["-m", "venv"]:
        return "making the build environment (once)"
    if cmd[1:3] == ["-m", "pip"]:
        return "installing the build tools into it (when they changed)"
    return "building the site (a few minutes)"


def _run(cmd: list[str]) -> None:
    log = BUILD_LOG["path"]
    if log is None:  # --verbose: everything here, as make site shows it
        print("+", " ".join(cmd), flush=True)
        if subprocess.call(cmd) != 0:
            raise CommandError(f"the site build stopped: {' '.join(cmd[:4])} … failed (its output is above)")
        return
    print(f"  {_step(cmd)} …", flush=True)
    log.parent.mkdir(parents=True, exist_ok=True)
    with open(log, "a" if BUILD_LOG["started"] else "w", encoding="utf-8") as out:  # afresh for each build
        BUILD_LOG["started"] = log
        out.write("+ " + " ".join(cmd) + "\n")
        out.flush()
        code = subprocess.call(cmd, stdout=out, stderr=subprocess.STDOUT)
    if code != 0:
        tail = log.read_text("utf-8", errors="replace").splitlines()[-TAIL:]
        print("\n".join(tail), file=sys.stderr)
        raise CommandError(f"the site build stopped: {' '.join(cmd[:4])} … failed (the end of its output is "
                           f"above; all of it in {log})")


def _venv_python(venv: Path) -> Path:
    return venv / ("Scripts/python.exe" if os.name == "nt" else "bin/python")


def build_python(root: Path = ROOT) -> Path:
    """A clone's build environment's Python, created and given the tools once (as ``make site``)."""
    venv = root / SITE_VENV
    python = _venv_python(venv)
    marker = venv / ".site-installed"
    if not python.is_file():
        _run([sys.executable, "-m", "venv", str(venv)])
    newest = max(p.stat().st_mtime for p in (REQUIREMENTS, root / "pyproject.toml"))
    if not marker.is_file() or marker.stat().st_mtime < newest:
        _run([str(python), "-m", "pip", "install", "--quiet", "-r", str(REQUIREMENTS), "-e", str(root)])
        marker.touch()
    return python


def pip_build_python(work: Path) -> Path:
    """A pip install's build environment (``work/venv``): the site tools from PyPI and this
    installed package (zipped again into ``work/dist``), installed again only when either changed."""
    from .site_wheel import installed_wheel

    venv = work / "venv"
    python = _venv_python(venv)
    wheel = installed_wheel(work / "dist", bundle=True)
    want = {"requirements": hashlib.sha256(REQUIREMENTS.read_bytes()).hexdigest(),
            "package": hashlib.sha256(wheel.read_bytes()).hexdigest(), "python": sys.version}
    marker = venv / ".site-installed.json"
    have = json.loads(marker.read_text("utf-8")) if marker.is_file() else {}
    if not python.is_file() or have.get("python") != want["python"]:
        shutil.rmtree(venv, ignore_errors=True)
        _run([sys.executable, "-m", "venv", str(venv)])
        have = {}
    pip = [str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check"]
    if have.get("requirements") != want["requirements"]:
        _run([*pip, "-r", str(REQUIREMENTS)])
    if have.get("package") != want["package"]:
        _run([*pip, "--no-deps", "--force-reinstall", str(wheel)])
    marker.write_text(json.dumps(want), "utf-8")
    return python


def folder_size(path: Path) -> tuple[int, int]:
    files = [p for p in path.rglob("*") if p.is_file()]
    return sum(p.stat().st_size for p in files), len(files)


def built(dest: Path) -> bool:
    return (dest / "index.html").is_file() and (dest / "voici").is_dir()


def cmd_site(args: argparse.Namespace) -> int:
    dest = Path(args.dir).resolve()
    if args.serve and built(dest):
        print(f"Serving the site already built in {dest} (without --serve, the command builds it again).")
        return _serve(dest, args.port, args.host)
    if shutil.which("npm") is None or shutil.which("node") is None:
        raise CommandError(NEEDS_NPM)
    t0 = time.monotonic()
    work = work_dir()
    _quiet_build_log(work, args)
    try:
        python = build_python() if in_a_clone() else pip_build_python(work)
        _run([str(python), "-m", "dungeon_guilds.app.site", "build", "--out", str(dest), "--work", str(work)])
    finally:
        BUILD_LOG["path"] = BUILD_LOG["started"] = None
    size, files = folder_size(dest)
    print(f"The static site is in {dest}: {size / 1e6:.1f} MB in {files} files, built in "
          f"{time.monotonic() - t0:.0f} s (its build environment and downloads: {work}). "
          f"Put the folder on any web host, or serve it to the class from this computer: "
          f"dungeon-guilds site {args.dir} --serve --host 0.0.0.0")
    return _serve(dest, args.port, args.host) if args.serve else 0


def _quiet_build_log(work: Path, args: argparse.Namespace) -> None:
    """Unless ``--verbose``: the build's output goes to ``work/site-build.log`` (written afresh
    by the build's first step), and one line says so."""
    if getattr(args, "verbose", False):
        return
    log = work / LOG_NAME
    BUILD_LOG["path"], BUILD_LOG["started"] = log, None
    print(f"Building the static site into {Path(args.dir).resolve()} (the build's whole output goes to {log}; "
          "--verbose shows it here):", flush=True)


def _serve(dest: Path, port: int, host: str = "127.0.0.1") -> int:
    from .site_server import serve_forever

    return serve_forever(dest, port, "/", host)
