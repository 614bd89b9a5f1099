"""``dungeon-guilds dashboard | notebooks | lab``: the dashboard, the lessons and JupyterLab from
an installed package (``pip install 'dungeon-guilds[dashboard]'`` or ``[lab]``), no repository
needed (standard library only at import; the commands start Voila or JupyterLab as a child
process, so a missing extra is said in one sentence, never a traceback).

* ``dashboard`` serves the dashboard notebook the package carries (:mod:`.bundle`) with the
  dashboard's Voila (:mod:`.voila_app`: kernel cap, preheated pool, no CDN) and its
  ``voila.json``, exactly as ``make dashboard`` does (the Makefile calls this command). The
  server's routine chatter is filtered (:mod:`.console`); one line says when it is ready.
* ``notebooks DIR`` copies the lesson series (``notebooks/``, the ``examples/`` records, the
  ``docs/`` the notebooks link to, the lesson plans into ``lessons/`` with their pages to print)
  into DIR and says how to open it; a file the learner changed
  is never overwritten unless ``--force`` (the command names them and copies nothing).
* ``tables`` serves the class tables alone; ``--workers N --tables-store redis://HOST:PORT/N``
  on N processes sharing the tables through Redis (issue 52, docs/school.md).
* ``lab [DIR]`` copies (keeping the learner's changed files) and opens JupyterLab on DIR at the
  index; as root (containers, school servers) it passes ``--allow-root``.
"""

from __future__ import annotations

import argparse
import os
import signal
import socket
import subprocess
import sys
from pathlib import Path

from ..extras import require
from . import bundle, console, kernels, page_extensions

DEFAULT_PORT = 8866
LAB_PORT = 8888
DEFAULT_MAX_KERNELS = kernels.MAX_KERNELS
LEARNER_DIR = "dungeon-guilds-notebooks"
DASHBOARD_MODULES = ("voila", "ipywidgets", "anywidget", "plotly", "pandas", "networkx")


class CommandError(Exception):
    """A problem the user can fix: printed as one line, exit status 2."""


def _count(minimum: int):
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if value < minimum:
            raise argparse.ArgumentTypeError(f"{text!r}: must be at least {minimum}")
        return value
    return parse


NEW_CLASS_HELP = ("start a class afresh: the class tables, records and reviews of earlier classes are put "
                  "away (moved to earlier/<date> in the tables folder, nothing deleted), so the teacher "
                  "page and its downloads show only the tables opened from now on")


def add_parsers(sub) -> None:
    """Add the commands to the ``dungeon-guilds`` parser's subcommands."""
    p = sub.add_parser("dashboard", help="serve the dashboard (Voila) for this computer or a class")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on: 127.0.0.1 (this computer, "
                   "the default) or 0.0.0.0 (every network: a classroom)")
    p.add_argument("--port", type=_count(1), default=DEFAULT_PORT, help=f"port (default {DEFAULT_PORT})")
    p.add_argument("--class", "--pool", dest="pool", type=_count(0), default=None, metavar="N",
                   help="students arriving at once: kernels prepared in advance (default 3; 0: none)")
    p.add_argument("--max-kernels", type=_count(1), default=None, metavar="N",
                   help=f"at most N pages at a time (default {DEFAULT_MAX_KERNELS}, or the class size + 10)")
    p.add_argument("--cull-idle", type=_count(1), default=None, metavar="S",
                   help="seconds a page gone without a goodbye keeps its kernel (default 600)")
    p.add_argument("--verbose", action="store_true", help="show every line the server prints")
    p.add_argument("--new-class", action="store_true", help=NEW_CLASS_HELP)
    p.set_defaults(func=cmd_dashboard)
    p = sub.add_parser("tables", help="serve the class tables alone (no notebooks), on one or several processes")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (0.0.0.0: every network)")
    p.add_argument("--port", type=_count(1), default=8870, help="port (default 8870)")
    p.add_argument("--workers", type=_count(1), default=1, metavar="N",
                   help="N processes on the one port; needs --tables-store (docs/school.md)")
    p.add_argument("--tables-store", default=None, metavar="redis://HOST:PORT/N",
                   help="the tables in Redis, shared by every process and server (default: JSON files)")
    p.add_argument("--tables-dir", default=None, help="where this server keeps its files (the JSON tables, the reviews)")
    p.add_argument("--behind-proxy", action="store_true", help="a reverse proxy (nginx) passes the client's address")
    p.add_argument("--new-class", action="store_true", help=NEW_CLASS_HELP)
    p.set_defaults(func=cmd_tables)
    p = sub.add_parser("notebooks", help="copy the lesson notebooks into a folder of yours")
    p.add_argument("dir", help="the folder (created if missing)")
    p.add_argument("--force", action="store_true", help="overwrite files you changed")
    p.set_defaults(func=cmd_notebooks)
    p = sub.add_parser("lab", help="copy the lessons (if needed) and open them in JupyterLab")
    p.add_argument("dir", nargs="?", default=LEARNER_DIR, help=f"the folder (default ./{LEARNER_DIR})")
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=_count(1), default=LAB_PORT)
    p.add_argument("--no-browser", action="store_true", help="do not open a browser")
    p.set_defaults(func=cmd_lab)


# ---------------------------------------------------------------------- dashboard
def check_port_free(host: str, port: int) -> None:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind((host, port))
        except OSError as err:
            raise CommandError(f"cannot listen on {host}:{port} ({err.strerror}): another program "
                               f"uses port {port}, or the address is not this computer's; "
                               "choose another with --port") from None


def shipped_root() -> Path:
    """:func:`bundle.root`, or a :class:`CommandError` saying the lessons are missing."""
    try:
        return bundle.root()
    except FileNotFoundError as err:
        raise CommandError(f"{err}; reinstall it: pip install --force-reinstall dungeon-guilds") from None


def dashboard_command(args: argparse.Namespace, max_kernels: int) -> list[str]:
    """The server's command line (the dashboard's Voila on the bundled dashboard notebook)."""
    cmd = [sys.executable, "-m", "dungeon_guilds.app.voila_app", "--no-browser", f"--Voila.ip={args.host}",
           f"--port={args.port}", "--Voila.port_retries=0", f"--PoolKeepingKernelManager.max_kernels={max_kernels}"]
    if args.cull_idle is not None:
        cmd.append(f"--MappingKernelManager.cull_idle_timeout={args.cull_idle}")
    return cmd + [str(shipped_root() / bundle.DASHBOARD)]


def _from_env(name: str, minimum: int, default: int) -> int:
    """``$name`` if set (a whole number ≥ ``minimum``), else ``default``."""
    raw = os.environ.get(name, "").strip()
    try:
        return _count(minimum)(raw) if raw else default
    except argparse.ArgumentTypeError as err:
        raise CommandError(f"{name}={err}") from None


def cmd_dashboard(args: argparse.Namespace) -> int:
    require("dungeon-guilds dashboard", "dashboard", *DASHBOARD_MODULES)
    pool = args.pool if args.pool is not None else _from_env(kernels.POOL_ENV, 0, 3)
    max_kernels = args.max_kernels or _from_env(kernels.MAX_KERNELS_ENV, 1, max(DEFAULT_MAX_KERNELS, pool + 10))
    check_port_free(args.host, args.port)
    if args.new_class:
        start_new_class(None)
    env = {**os.environ, kernels.POOL_ENV: str(pool), "PYTHONUNBUFFERED": "1"}
    view = console.ConsoleFilter(args.host, args.port, pool, max_kernels, verbose=args.verbose)
    print(f"Starting the Dungeon Guilds dashboard on port {args.port} ...", flush=True)
    proc = subprocess.Popen(dashboard_command(args, max_kernels), cwd=shipped_root(), env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, errors="replace")
    return _relay(proc, view)


def cmd_tables(args: argparse.Namespace) -> int:
    """The class tables alone (issue 52): ``table_server.main`` with these options."""
    require("dungeon-guilds tables", "dashboard", "tornado", "orjson")
    if args.tables_store or os.environ.get("DUNGEON_GUILDS_TABLES_STORE"):
        require("dungeon-guilds tables --tables-store", "school", "redis")
    if args.new_class and (args.tables_store or os.environ.get("DUNGEON_GUILDS_TABLES_STORE")):
        raise CommandError("--new-class puts away the JSON table files; with --tables-store, start "
                           "the new class on another Redis database number (redis://HOST:PORT/N)")
    check_port_free(args.host, args.port)
    if args.new_class:
        start_new_class(args.tables_dir)
    from .table_server import main as serve_tables

    argv = ["--ip", args.host, "--port", str(args.port), "--workers", str(args.workers)]
    argv += ["--tables-store", args.tables_store] if args.tables_store else []
    argv += ["--tables-dir", args.tables_dir] if args.tables_dir else []
    serve_tables(argv + (["--behind-proxy"] if args.behind_proxy else []))
    return 0


def start_new_class(tables_dir: str | None) -> None:
    """``--new-class``: the earlier classes' tables put away before the server starts
    (:func:`.tables.new_class.put_away`); the teacher is told how many and where."""
    from .tables.new_class import put_away
    from .tables.store import default_dir

    directory = Path(tables_dir) if tables_dir else default_dir()
    try:
        count, folder = put_away(directory)
    except OSError as err:
        raise CommandError(f"could not put the earlier classes' tables away in {directory} "
                           f"({err.strerror}); nothing was deleted") from None
    if folder is None:
        print(f"A new class: no earlier tables in {directory}.", flush=True)
    else:
        print(f"A new class: {count} table(s) of earlier classes put away in {folder}.", flush=True)


def _relay(proc: subprocess.Popen, view: console.ConsoleFilter) -> int:
    """Show the server's output through ``view`` until it exits; Ctrl-C stops it."""
    try:
        for line in proc.stdout:
            for shown in view.feed(line):
                print(shown, flush=True)
        for shown in view.flush():
            print(shown, flush=True)
        return proc.wait()
    except KeyboardInterrupt:  # the terminal sent SIGINT to the server too
        print("Stopping the dashboard (its kernels are shut down) ...", flush=True)
        try:
            proc.send_signal(signal.SIGTERM)
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
        return 0


# ---------------------------------------------------------------------- notebooks, lab
def copy_for_learner(dest: Path, *, force: bool, keep_edited: bool) -> bundle.CopyPlan:
    try:
        plan = bundle.copy_lessons(dest, force=force, keep_edited=keep_edited, source=shipped_root())
    except FileExistsError as err:
        names = ", ".join(err.args[0])
        raise CommandError(f"{dest}: you changed {names}; nothing was copied (your files are kept). "
                           "Copy into another folder, or add --force to replace them with the "
                           "originals") from None
    except (NotADirectoryError, PermissionError) as err:
        raise CommandError(str(err)) from None
    return plan


def _say_copied(dest: Path, plan: bundle.CopyPlan, forced: bool) -> None:
    written = len(plan.write) + (len(plan.edited) if forced else 0)
    print(f"{dest}: {written} files copied, {len(plan.same)} already up to date.")


def write_lesson_pages(dest: Path) -> None:
    """The lesson plans as pages to print (``lessons/*.html``, rebuilt each time from the
    Markdown), when the renderer is installed; else one line saying how to get them."""
    from ..teaching import lesson_pages

    folder = dest / bundle.LESSON_PLANS_DEST
    try:
        pages = lesson_pages.write_pages(folder)
    except lesson_pages.RendererMissing as err:
        print(f"The lesson plans are in {folder} as Markdown; {err}.")
        return
    print(f"The lesson plans to print: {folder / lesson_pages.INDEX} ({len(pages)} pages).")


def cmd_notebooks(args: argparse.Namespace) -> int:
    dest = Path(args.dir)
    plan = copy_for_learner(dest, force=args.force, keep_edited=False)
    _say_copied(dest, plan, args.force)
    write_lesson_pages(dest)
    if plan.edited:
        print("Replaced with the originals (--force): " + ", ".join(plan.edited))
    print(f"Open them with:  dungeon-guilds lab {dest}   (needs pip install 'dungeon-guilds[lab]'), or:  "
          f"cd {dest} && jupyter lab --notebook-dir=. {bundle.INDEX}")
    return 0


# the kernels JupyterLab starts keep every IOPub message (as the dashboard's: app/kernel_launcher.py)
LAB_KERNELS = ("--AsyncMappingKernelManager.kernel_manager_class="
               "dungeon_guilds.app.kernel_manager.SteadyIOPubKernelManager")


def lab_command(dest: Path, host: str, port: int, no_browser: bool) -> list[str]:
    """JupyterLab serving ``dest`` (so the index's links to ``../docs`` resolve), opening the
    index (the printed address goes there too, not to the Launcher), its kernels started as the
    dashboard's (:data:`LAB_KERNELS`), its pages with the widget manager's last look for a model
    (:mod:`~dungeon_guilds.app.page_extensions`)."""
    cmd = [sys.executable, "-m", "jupyterlab", f"--ServerApp.root_dir={dest.resolve()}",
           f"--ServerApp.ip={host}", f"--ServerApp.port={port}", "--ServerApp.port_retries=0",
           f"--LabApp.default_url=/lab/tree/{bundle.INDEX}", LAB_KERNELS, page_extensions.lab_option()]
    if no_browser:
        cmd.append("--no-browser")
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        cmd.append("--allow-root")  # JupyterLab refuses root otherwise (containers, school servers)
    return cmd + [str((dest / bundle.INDEX).resolve())]


def cmd_lab(args: argparse.Namespace) -> int:
    require("dungeon-guilds lab", "lab", "jupyterlab", "ipywidgets", "plotly", "pandas")
    dest = Path(args.dir)
    plan = copy_for_learner(dest, force=False, keep_edited=True)
    _say_copied(dest, plan, False)
    write_lesson_pages(dest)
    if plan.edited:
        print("Kept as you changed them: " + ", ".join(plan.edited)
              + f" (dungeon-guilds notebooks {dest} --force replaces them).")
    check_port_free(args.host, args.port)
    print(f"Opening JupyterLab at {dest / bundle.INDEX} (Ctrl-C stops it) ...", flush=True)
    cmd = lab_command(dest, args.host, args.port, args.no_browser)
    if os.name == "posix":  # JupyterLab takes this process over: Ctrl-C and signals reach it directly
        os.execv(cmd[0], cmd)
    return subprocess.call(cmd)
