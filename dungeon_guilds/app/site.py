"""The static classroom site (issue 13): the dashboard rendered by Voici, running in each
student's browser with Pyodide — no server kernel, nothing fetched from any other host.

``python -m dungeon_guilds.app.site build [--out _site] [--work FOLDER]`` (``make site``,
``dungeon-guilds site DIR``) needs the tools of ``site_tools/requirements.txt`` (voici-core,
jupyterlite-core, jupyterlite-pyodide-kernel, pyodide-lock; in their own environment, never
beside JupyterLab) and the npm package ``pyodide`` (the core runtime the installed kernel
expects, in ``WORK/npm``). Everything else it reads is in the wheel (issue 40: the tools of
``site_tools/``, the dashboard notebook in the bundle), so it builds from a pip install as from
a clone. It builds, in ``WORK`` (a clone's ``build/site/``, git-ignored; else the folder
``dungeon-guilds site`` gives it, in the user's cache):

1. the project's wheel (from the checkout; from a pip install, the installed files zipped
   again: :mod:`.site_wheel`), the pure-Python wheels the dashboard imports
   (ipywidgets, plotly, networkx, micropip and what they need) with ``pip download``, and
   JupyterLite's own kernel wheels (its ipykernel and widgetsnbextension shims, pyodide_kernel,
   piplite); jedi and sqlite3 are empty placeholders;
2. a ``pyodide-lock.json`` listing exactly those wheels (``pyodide-lock``), beside the core
   runtime in ``lite/static/pyodide`` (a lock entry without its file would be fetched from
   nowhere, so none is kept); each wheel is then rewritten with bytecode instead of sources
   and without the desktop extensions and tests it carries (``site_tools/compile_wheels.mjs``,
   run by Node with the site's own Pyodide);
3. ``voici build`` of ``notebooks/dashboard.ipynb`` (and of the lesson notebooks the browser can
   run, :data:`.lesson_links.SITE_NOTEBOOKS`: lesson 4's ``10_strategy``, issue 50) with the PyPI fallback turned off and every
   package the kernel and the dashboard need preloaded by ``loadPyodide`` (:data:`PRELOAD`), into
   ``--out``, and an ``index.html`` that opens the dashboard by a relative link (the site
   works at a host's root and under a sub-path such as GitHub Pages' ``/<repo>/``);
   The lesson plans are written beside it as pages to print (``lessons/``, issue 40);
4. JupyterLite's own app code, which the Voici page never loads, left out (:func:`prune`), and
   the offline service worker written (:func:`offline`, ``site_tools/service-worker.js``): after
   a first visit every file of the site is in the browser's cache, named after a hash of the
   site, so a rebuilt site replaces it.

``python -m dungeon_guilds.app.site serve [--port N] [--prefix /name/]`` serves a built site
on loopback (``make serve-site``).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

from . import bundle
from .lesson_links import SITE_NOTEBOOKS
from .site_wheel import installed_wheel

ROOT = Path(__file__).resolve().parents[2]
# a clone (or an editable install of one): the project's wheel is built from its source
FROM_SOURCE = (ROOT / "pyproject.toml").is_file() and (ROOT / "setup.py").is_file()
WORK = ROOT / "build" / "site"
NO_BUNDLE_ENV = "DUNGEON_GUILDS_NO_BUNDLE"  # setup.py: a wheel without the lessons
KERNEL_PLUGIN = "@jupyterlite/pyodide-kernel-extension:kernel"
# what the dashboard imports in the browser, beyond the project (pure-Python wheels)
BROWSER_REQUIREMENTS = ["ipywidgets>=8.1", "anywidget>=0.9", "plotly>=5.20", "networkx>=3.2", "comm", "ipython"]
DASHBOARD_DEPENDS = {"ipywidgets", "anywidget", "plotly", "networkx"}
# the kernel's own wheels (JupyterLite's shims of ipykernel and widgetsnbextension, pyodide_kernel,
# piplite) must win; jedi (completion, 5 MB) gives way to a placeholder: a dashboard completes
# nothing, and IPython does without it (``import jedi`` fails: no Jedi completer)
SKIP = {"ipykernel", "pyodide-kernel", "piplite", "pyzmq", "tornado", "jupyter-client",
        "jupyter-core", "debugpy", "nest-asyncio", "psutil", "appnope", "platformdirs",
        "pexpect", "ptyprocess", "widgetsnbextension", "jedi", "parso"}
KERNEL_WHEELS = ("ipykernel-", "piplite-", "pyodide_kernel-", "widgetsnbextension-4.")
# issue 31: every package the kernel and the first view need, loaded by ``loadPyodide`` itself in
# one go (downloaded in parallel, no resolver), instead of the kernel's one ``piplite.install``
# after another and the notebook cell's own load. The kernel installs nothing it finds named here.
PRELOAD = ["micropip", "piplite", "sqlite3", "ipykernel", "comm", "pyodide_kernel", "jedi", "ipython",
           "widgetsnbextension", "dungeon-guilds"]
# the build's own scripts, package data (issue 40: a pip install builds the site too)
TOOLS = Path(__file__).with_name("site_tools")
# issue 31: the kernel's worker loads Pyodide through ``site_tools/pyodide-snapshot.js``, which
# saves Pyodide's memory after these imports on a first visit and restores it on the next ones:
# the kernel's own modules first (pyodide_kernel builds the IPython shell when imported, so
# ipywidgets and plotly, imported next with the dashboard, find it as they do in a kernel)
SNAPSHOT_SCRIPT = "dg-pyodide.js"
SNAPSHOT_IMPORTS = ("piplite.piplite", "pyodide_kernel", "dungeon_guilds.app.dashboard")
PYODIDE_URL = re.compile(r'("pyodideUrl": "[^"]*static/pyodide/)pyodide\.js"')


def run(*cmd: str, cwd: Path | None = None, env: dict | None = None) -> None:
    print("+", " ".join(cmd), flush=True)
    subprocess.run(cmd, check=True, cwd=cwd, env=None if env is None else {**os.environ, **env})


def kernel_pyodide_version() -> str:
    """The Pyodide version the installed jupyterlite-pyodide-kernel was made for."""
    from jupyterlite_pyodide_kernel.constants import PYODIDE_VERSION

    return PYODIDE_VERSION


def npm_pyodide(work: Path) -> Path:
    """``npm install pyodide@<the kernel's version>`` into ``work/npm``; its folder."""
    version = kernel_pyodide_version()
    npm = work / "npm"
    folder = npm / "node_modules" / "pyodide"
    installed = folder / "package.json"
    if not (installed.exists() and json.loads(installed.read_text())["version"] == version):
        npm.mkdir(parents=True, exist_ok=True)
        (npm / "package.json").write_text('{"private": true}\n')
        run("npm", "install", "--no-audit", "--no-fund", "--save-exact", f"pyodide@{version}", cwd=npm)
    return folder


def placeholder_wheel(folder: Path, name: str, why: str) -> Path:
    """A wheel with metadata only. The Pyodide kernel installs ``sqlite3`` at start, but the
    core runtime has no sqlite3 build: this empty distribution satisfies the install and
    ``import sqlite3`` still raises ModuleNotFoundError, which IPython's history handles."""
    path = folder / f"{name}-0.0.0-py3-none-any.whl"
    info = f"{name}-0.0.0.dist-info"
    with zipfile.ZipFile(path, "w") as z:
        z.writestr(f"{info}/METADATA", f"Metadata-Version: 2.1\nName: {name}\nVersion: 0.0.0\nSummary: {why}\n")
        z.writestr(f"{info}/WHEEL", "Wheel-Version: 1.0\nGenerator: dungeon_guilds.app.site\nRoot-Is-Purelib: true\nTag: py3-none-any\n")
        z.writestr(f"{info}/RECORD", f"{info}/METADATA,,\n{info}/WHEEL,,\n{info}/RECORD,,\n")
    return path


def kernel_wheels(folder: Path) -> list[Path]:
    """JupyterLite's own wheels for its Pyodide kernel (the extension's ``static/pypi``) into
    ``folder``, to be listed in the lock and preloaded with the rest."""
    pypi = (Path(sys.prefix) / "share" / "jupyter" / "labextensions" / "@jupyterlite"
            / "pyodide-kernel-extension" / "static" / "pypi")
    found = [w for w in sorted(pypi.glob("*.whl")) if w.name.startswith(KERNEL_WHEELS)]
    if len(found) != len(KERNEL_WHEELS):
        raise SystemExit(f"{pypi}: expected the kernel's wheels {KERNEL_WHEELS}, found {[w.name for w in found]}")
    for whl in found:
        shutil.copy2(whl, folder / whl.name)
    return [folder / whl.name for whl in found]


def compile_wheels(core: Path, folder: Path, names: list[str]) -> None:
    """The wheels ``names`` of ``folder`` rewritten with bytecode for the site's own Python
    (issue 31): ``site_tools/compile_wheels.mjs`` runs in Node with the site's Pyodide."""
    run("node", str(TOOLS / "compile_wheels.mjs"), str(core), str(folder), *names)


def wheels(work: Path, python: str) -> list[Path]:
    """The project's wheel and every pure-Python wheel it needs in the browser."""
    folder = work / "wheels"
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    pip = [sys.executable, "-m", "pip"]
    # without the lessons a pip-installed wheel carries (setup.py): the browser never opens them
    if FROM_SOURCE:
        run(*pip, "wheel", "--quiet", "--no-deps", "--wheel-dir", str(folder), str(ROOT), env={NO_BUNDLE_ENV: "1"})
    else:
        print(f"+ the installed package as a wheel: {installed_wheel(folder, bundle=False).name}", flush=True)
    # pure-Python wheels only (the browser runs no other); markers as on the target Python
    run(*pip, "download", "--quiet", "--only-binary=:all:", "--python-version", python,
        "--platform", "any", "--platform", "pyodide_2025_0_wasm32", "--implementation", "py",
        "--abi", "none", "--dest", str(folder), *BROWSER_REQUIREMENTS, "micropip==0.11.0")
    keep = []
    for whl in sorted(folder.glob("*.whl")):
        name = whl.name.split("-")[0].lower().replace("_", "-")
        if name in SKIP:
            whl.unlink()
        elif not whl.name.endswith("-none-any.whl"):
            raise SystemExit(f"{whl.name} is not a pure-Python wheel: it has no build for the browser")
        else:
            keep.append(whl)
    return keep + kernel_wheels(folder)


def write_lock(core: Path, wheel_files: list[Path], target: Path) -> None:
    """Copy the core runtime to ``target`` with a lock that lists only ``wheel_files``."""
    from pyodide_lock import PackageSpec, PyodideLockSpec
    from pyodide_lock.utils import add_wheels_to_spec, update_package_sha256

    shutil.rmtree(target, ignore_errors=True)
    target.mkdir(parents=True)
    for f in core.iterdir():
        if f.is_file() and not f.name.endswith((".map", ".d.ts", ".html", ".md")) and f.name != "package.json":
            shutil.copy2(f, target / f.name)
    for whl in wheel_files:
        shutil.copy2(whl, target / whl.name)
    spec = PyodideLockSpec.from_json(core / "pyodide-lock.json")
    spec.packages = {}
    # jedi's entry is a placeholder, added below
    spec = add_wheels_to_spec(spec, [target / w.name for w in wheel_files], base_path=target,
                              ignore_missing_dependencies=True)
    # bytecode once the lock has read each wheel's metadata and import names (from its sources)
    compile_wheels(core, target, [w.name for w in wheel_files])
    for package in spec.packages.values():
        update_package_sha256(package, target / package.file_name)
    # the project's wheel declares no dependencies (the engine needs none); the dashboard needs
    # these, so loading dungeon_guilds from the lock loads them too
    spec.packages["dungeon-guilds"].depends = sorted(DASHBOARD_DEPENDS)
    for name, why in (("sqlite3", "no sqlite3 in the Pyodide core runtime"),
                      ("jedi", "no completion on the static site: IPython does without jedi")):
        stub = placeholder_wheel(target, name, why)
        spec.packages[name] = update_package_sha256(
            PackageSpec(name=name, version="0.0.0", file_name=stub.name, install_dir="site"), stub)
    spec.to_json(target / "pyodide-lock.json", indent=1)


# what a Dashboard() imports when it is built (its tabs' lazy imports), beyond its module's own;
# not the widget layer, whose modules may build a widget when imported (a shared Layout), which
# a snapshot cannot hold (site_tools/pyodide-snapshot.js refuses them; tried twice, they cost a
# first visit more than they save a second)
FIRST_VIEW_CODE = """import json, sys
import dungeon_guilds.app.dashboard as dashboard
before = set(sys.modules)
dashboard.Dashboard()
widgets = ("dungeon_guilds.widgets", "dungeon_guilds.app")
print(json.dumps(sorted(m for m in set(sys.modules) - before if not m.startswith(widgets))))"""


def first_view_modules() -> list[str]:
    """The modules the first view imports lazily, found by building a Dashboard in this Python
    (the snapshot imports them too, so a second visit imports nothing to draw it; one the
    browser lacks is passed over there)."""
    done = subprocess.run([sys.executable, "-c", FIRST_VIEW_CODE], capture_output=True, text=True,
                          cwd=ROOT if FROM_SOURCE else TOOLS)
    if done.returncode != 0:
        raise SystemExit(f"building a Dashboard to list its imports failed:\n{done.stderr[-2000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def snapshot_loader(target: Path, first_view: list[str] | None = None) -> Path:
    """``site_tools/pyodide-snapshot.js`` into the site's Pyodide folder ``target``, keyed by a
    hash of the lock (every wheel's sha256), the imports and the script itself: a site whose
    Python differs in any of them never restores another's snapshot."""
    script = (TOOLS / "pyodide-snapshot.js").read_text(encoding="utf-8")
    imports = ", ".join(SNAPSHOT_IMPORTS)
    first = json.dumps(first_view if first_view is not None else first_view_modules())
    digest = hashlib.sha256()
    for part in ((target / "pyodide-lock.json").read_bytes(), imports.encode(), first.encode(), script.encode()):
        digest.update(hashlib.sha256(part).digest())
    script = script.replace("__KEY__", digest.hexdigest()[:16]).replace("__IMPORTS__", imports)
    script = script.replace('"__FIRST_VIEW__"', first)
    path = target / SNAPSHOT_SCRIPT
    path.write_text(script, encoding="utf-8")
    return path


def use_snapshot_loader(out: Path) -> None:
    """Point the built site's kernel at the snapshot loader: JupyterLite's Pyodide add-on names
    ``static/pyodide/pyodide.js`` itself when it copies the runtime, whatever the lite folder's
    settings said, in ``jupyter-lite.json`` and in the configuration each Voici page carries."""
    if not (out / "static" / "pyodide" / SNAPSHOT_SCRIPT).exists():
        raise SystemExit(f"{out}: the snapshot loader {SNAPSHOT_SCRIPT} was not copied into the site")
    pages = [out / "jupyter-lite.json", *(out / "voici").rglob("*.html")]
    for page in pages:
        text = page.read_text(encoding="utf-8")
        text = PYODIDE_URL.sub(lambda m: m.group(1) + SNAPSHOT_SCRIPT + '"', text)
        page.write_text(text, encoding="utf-8")
    if not any(f"static/pyodide/{SNAPSHOT_SCRIPT}" in p.read_text(encoding="utf-8") for p in pages):
        raise SystemExit(f"{out}: no page names the snapshot loader (JupyterLite's pyodideUrl not found)")


# issue 50: a page on ``http://<LAN address>`` is not a secure context, so the browser has no
# service workers there (nor Cache Storage). JupyterLite's ServiceWorkerManager then only logs
# "ServiceWorkers not supported" and never settles its ``ready`` promise, and Voici's page awaits
# that promise before it renders any widget: the page stayed on "Running …" for ever. The build
# makes the manager reject ``ready`` there, as it does when registering fails; Voici catches the
# rejection and renders. The Pyodide kernel needs no worker (it mounts no drive without one: the
# dashboard reads no file of the site), so only the offline cache and the snapshot are lost on http.
NO_WORKER_FOUND = 'else console.warn("ServiceWorkers not supported in this browser")'
NO_WORKER_SETTLE = ",this._ready.reject(void 0)"
NO_WORKER_BRANCH = re.compile(re.escape(NO_WORKER_FOUND) + "(?!" + re.escape(NO_WORKER_SETTLE) + ")")


def start_without_worker(out: Path) -> Path:
    """Patch JupyterLite's ServiceWorkerManager in the built site (:data:`NO_WORKER_FOUND`) so a
    browser without service workers settles its ``ready`` promise; the file patched. SystemExit
    if the code is not found exactly once (another JupyterLite: look at its manager again)."""
    texts = {f: f.read_text(encoding="utf-8") for f in sorted((out / "voici" / "build").glob("*.js"))}
    found = {f: len(NO_WORKER_BRANCH.findall(t)) for f, t in texts.items() if NO_WORKER_BRANCH.search(t)}
    if list(found.values()) != [1]:
        raise SystemExit(f"{out}: JupyterLite's 'ServiceWorkers not supported' branch not found once "
                         f"(in {[f.name for f in found]}): a page on plain http would never render")
    (path,) = found
    path.write_text(NO_WORKER_BRANCH.sub(lambda m: m.group(0) + NO_WORKER_SETTLE, texts[path]), encoding="utf-8")
    return path


def lite_config(lite: Path) -> None:
    """``jupyter-lite.json``: the local Pyodide through the snapshot loader, no PyPI fallback."""
    settings = {"disablePyPIFallback": True, "pyodideUrl": f"./static/pyodide/{SNAPSHOT_SCRIPT}",
                "loadPyodideOptions": {"packages": PRELOAD}}
    config = {"jupyter-lite-schema-version": 0,
              "jupyter-config-data": {"litePluginSettings": {KERNEL_PLUGIN: settings}}}
    (lite / "jupyter-lite.json").write_text(json.dumps(config, indent=1))


# Voici's page templates link Font Awesome's css folder on another host (any host, any version);
# the build points every such link at the site's own copy
FONTAWESOME_REMOTE = re.compile(r"https?://[^\"' ]*/fontawesome-free@[^/\"' ]*/css/")


def local_fontawesome(out: Path) -> None:
    """Voici's pages link Font Awesome from a CDN: copy it from the ``fontawesome-free``
    package (a dashboard dependency) into the site and point the pages at the copy."""
    from importlib.metadata import distribution

    folder = Path(distribution("fontawesome-free").locate_file("fontawesome-free/static/fontawesome_free"))
    for part in ("css", "webfonts"):  # not the package's SVGs, sprites, JS and sources (60 MB)
        shutil.copytree(folder / part, out / "static" / "fontawesome" / part, dirs_exist_ok=True)
    for page in (out / "voici").rglob("*.html"):
        depth = len(page.relative_to(out).parts) - 1
        html = page.read_text(encoding="utf-8")
        html = FONTAWESOME_REMOTE.sub("../" * depth + "static/fontawesome/css/", html)
        if "fontawesome-free@" in html:
            raise SystemExit(f"{page}: a Font Awesome link on another host is left (not rewritten)")
        page.write_text(html, encoding="utf-8")


# JupyterLite's own app (``build/``: JupyterLab's and Notebook's code, 17 MB) is not what the
# Voici page runs (``voici/build/``); the page reads only the settings schemas, the themes and the
# licence list there (issue 31: the site shrinks, and the offline cache with it)
LITE_APP_KEEP = {"schemas", "themes", "third-party-licenses.json"}


def prune(out: Path) -> None:
    """Leave out of the site what its page never asks for (:data:`LITE_APP_KEEP`)."""
    for part in (out / "build").iterdir():
        if part.name not in LITE_APP_KEEP:
            shutil.rmtree(part) if part.is_dir() else part.unlink()


JUPYTERLITE_WORKER = "jupyterlite-service-worker.js"
# set before JupyterLite's page code runs: it would otherwise unregister the site's service worker
# on the second visit (it only records the version it registered under this key then; offline,
# registering again fails and the third visit would find no worker); and, once the dashboard is
# on screen, the page tells the worker it may store the rest of the site (site_tools/service-worker.js)
KEEP_WORKER = "<script>" + Path(__file__).with_name("keep_worker.js").read_text(encoding="utf-8") + "</script>"


def site_version(files: list[Path], out: Path) -> str:
    """A hash of every file of the site (names and contents): a rebuild that changes anything
    gets a new version, so browsers replace their cached copy."""
    digest = hashlib.sha256()
    for f in files:
        digest.update(f.relative_to(out).as_posix().encode() + b"\0" + hashlib.sha256(f.read_bytes()).digest())
    return digest.hexdigest()[:16]


def offline(out: Path) -> None:
    """The site keeps working offline after the first visit (issue 31): ``service-worker.js``
    (``site_tools/service-worker.js``) caches every file, in front of JupyterLite's own worker."""
    (out / "service-worker.js").rename(out / JUPYTERLITE_WORKER)
    files = sorted(f for f in out.rglob("*") if f.is_file() and f.name != ".nojekyll")
    names = ["./"] + [f.relative_to(out).as_posix() for f in files]
    worker = (TOOLS / "service-worker.js").read_text(encoding="utf-8")
    worker = worker.replace("__VERSION__", site_version(files, out)).replace("__FILES__", json.dumps(names))
    (out / "service-worker.js").write_text(worker, encoding="utf-8")
    version = json.loads((out / "jupyter-lite.json").read_text())["jupyter-config-data"]["appVersion"]
    script = KEEP_WORKER.replace("__APP_VERSION__", version)
    for page in (out / "voici").rglob("*.html"):
        html = page.read_text(encoding="utf-8")
        head = html.index("<head>") + len("<head>")
        page.write_text(html[:head] + script + html[head:], encoding="utf-8")


INDEX = """<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<title>Dungeon Guilds · 地城聯盟</title>
<meta http-equiv="refresh" content="0; url=voici/render/dashboard.html">
</head><body>
<p><a href="voici/render/dashboard.html">Open the dashboard · 開啟儀表板</a></p>
<p><a href="lessons/index.html">Lesson plans to print · 可列印的教案</a></p>
<p><a href="voici/render/10_strategy.html">Lesson 4: notebook 10 · 第 4 課：第 10 號筆記本</a></p>
</body></html>
"""


def lesson_site_pages(out: Path) -> list[Path]:
    """The lesson plans as pages to print in ``out/lessons/`` (issue 40; the dashboard's teacher
    panel links there in the browser, where no Markdown renderer is loaded)."""
    from ..teaching.lesson_pages import write_pages

    return write_pages(out / "lessons")


def build(out: Path, work: Path = WORK) -> Path:
    """Build the site into ``out``; returns ``out``."""
    core = npm_pyodide(work)
    python = json.loads((core / "pyodide-lock.json").read_text())["info"]["python"]
    lite = work / "lite"
    shutil.rmtree(lite, ignore_errors=True)
    (lite / "static").mkdir(parents=True)
    write_lock(core, wheels(work, ".".join(python.split(".")[:2])), lite / "static" / "pyodide")
    snapshot_loader(lite / "static" / "pyodide")
    lite_config(lite)
    contents = work / "contents"
    shutil.rmtree(contents, ignore_errors=True)
    contents.mkdir()
    notebook = bundle.root() / bundle.DASHBOARD  # the clone's, or the one the wheel carries
    shutil.copy2(notebook, contents / Path(bundle.DASHBOARD).name)
    for name in SITE_NOTEBOOKS:  # issue 50: lesson 4's notebook, a page beside the dashboard
        shutil.copy2(notebook.with_name(f"{name}.ipynb"), contents / f"{name}.ipynb")
    shutil.rmtree(out, ignore_errors=True)
    voici = Path(sys.executable).with_name("voici")
    run(str(voici), "build", "--lite-dir", str(lite), "--contents", str(contents),
        "--output-dir", str(out.resolve()), "--no-sourcemaps", cwd=lite)
    local_fontawesome(out)
    use_snapshot_loader(out)
    start_without_worker(out)
    (out / "index.html").write_text(INDEX, encoding="utf-8")
    lesson_site_pages(out)
    (out / ".nojekyll").write_text("")  # GitHub Pages: serve folders starting with _ as they are
    prune(out)
    offline(out)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m dungeon_guilds.app.site", description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    b = sub.add_parser("build", help="build the static site")
    b.add_argument("--out", type=Path, default=ROOT / "_site")
    b.add_argument("--work", type=Path, default=WORK, help="where the build keeps its downloads (default build/site)")
    s = sub.add_parser("serve", help="serve a built site on loopback")
    s.add_argument("--dir", type=Path, default=ROOT / "_site")
    s.add_argument("--port", type=int, default=0, help="0: a free port")
    s.add_argument("--prefix", default="/", help="serve under this sub-path, e.g. /dungeon-guilds/")
    args = parser.parse_args(argv)
    if args.command == "build":
        print(f"site built in {build(args.out, args.work)}")
        return 0
    from .site_server import serve_forever

    return serve_forever(args.dir, args.port, args.prefix)


if __name__ == "__main__":
    sys.exit(main())
