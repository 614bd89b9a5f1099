"""``dungeon-guilds dashboard | notebooks | lab`` without starting a server (issue 33): the
learner's copy and its refusals, JupyterLab's command line, the missing-extra sentence, and what
the teacher's terminal shows (tests/browser/test_installed_package.py and test_lab_command.py
run the real servers)."""

from __future__ import annotations

import json
import socket
from pathlib import Path

import pytest

from dungeon_guilds import cli, extras
from dungeon_guilds.app import bundle, commands, console


def test_the_lessons_are_copied_with_the_files_they_link_to(tmp_path, capsys):
    assert cli.main(["notebooks", str(tmp_path / "mine")]) == 0
    out = capsys.readouterr().out
    copied = bundle.shipped_files(tmp_path / "mine", bundle.LESSONS)
    assert copied == bundle.shipped_files(bundle.root(), bundle.LESSONS)
    assert {"notebooks/00_index.ipynb", "notebooks/dashboard.ipynb", "docs/rules.md"} <= set(copied)
    assert any(name.startswith("examples/records/") for name in copied)
    # the index's link to the rules reference resolves inside the copy
    index = (tmp_path / "mine" / bundle.INDEX).read_text("utf-8")
    assert "../docs/rules.md" in index and (tmp_path / "mine" / "docs" / "rules.md").is_file()
    shipped = bundle.learner_files(bundle.root())
    assert f"dungeon-guilds lab {tmp_path / 'mine'}" in out and f"{len(shipped)} files copied" in out
    # the lesson plans (issue 40): every Markdown file of the package's folder, and a page to
    # print for each plan in both languages, the index linking them all
    plans = sorted(p.name for p in (bundle.PACKAGE_DIR / "teaching" / "lessons").glob("*.md"))
    lessons = tmp_path / "mine" / "lessons"
    assert plans and sorted(p.name for p in lessons.glob("*.md")) == plans
    index = (lessons / "index.html").read_text("utf-8")
    for name in plans:
        if name != "README.md":
            assert f'href="{name[:-3]}.html"' in index and (lessons / f"{name[:-3]}.html").is_file()
    assert "lessons/index.html" in out


def test_a_learners_edited_notebook_is_never_overwritten_without_force(tmp_path, capsys):
    dest = tmp_path / "mine"
    bundle.copy_lessons(dest)
    edited = dest / "notebooks" / "01_first_round.ipynb"
    edited.write_text(edited.read_text("utf-8").replace("round", "ROUND"), "utf-8")
    mine = edited.read_bytes()
    (dest / "notebooks" / "02_snake_turn_order.ipynb").unlink()  # gone: copied again
    assert cli.main(["notebooks", str(dest)]) == 2
    err = capsys.readouterr().err
    assert "notebooks/01_first_round.ipynb" in err and "--force" in err and "nothing was copied" in err
    assert edited.read_bytes() == mine and not (dest / "notebooks" / "02_snake_turn_order.ipynb").exists()
    # lab keeps it and copies the rest
    plan = bundle.copy_lessons(dest, keep_edited=True)
    assert plan.edited == ["notebooks/01_first_round.ipynb"] and edited.read_bytes() == mine
    assert (dest / "notebooks" / "02_snake_turn_order.ipynb").is_file()
    assert cli.main(["notebooks", str(dest), "--force"]) == 0
    assert edited.read_bytes() == (bundle.root() / "notebooks" / "01_first_round.ipynb").read_bytes()


def test_a_file_the_learner_did_not_touch_is_updated_to_the_new_version(tmp_path):
    source = tmp_path / "v1"
    for name in bundle.shipped_files(bundle.root(), bundle.LESSONS):
        (source / name).parent.mkdir(parents=True, exist_ok=True)
        (source / name).write_bytes((bundle.root() / name).read_bytes())
    dest = tmp_path / "mine"
    bundle.copy_lessons(dest, source=source)
    (source / "docs" / "rules.md").write_text("new rules\n", "utf-8")  # a new release
    (dest / "docs" / "bots.md").write_text("my notes\n", "utf-8")  # the learner's own change
    plan = bundle.copy_lessons(dest, source=source, keep_edited=True)
    assert plan.write == ["docs/rules.md"] and plan.edited == ["docs/bots.md"]
    assert (dest / "docs" / "rules.md").read_text("utf-8") == "new rules\n"
    assert (dest / "docs" / "bots.md").read_text("utf-8") == "my notes\n"
    manifest = json.loads((dest / bundle.MANIFEST).read_text("utf-8"))["files"]
    assert set(manifest) == set(bundle.learner_files(source))


def test_a_file_in_place_of_the_folder_is_refused_in_one_line(tmp_path, capsys):
    (tmp_path / "f").write_text("x", "utf-8")
    assert cli.main(["notebooks", str(tmp_path / "f")]) == 2
    assert "is a file, not a folder" in capsys.readouterr().err


def test_a_package_without_its_lessons_says_so_in_one_line(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(bundle, "BUNDLE_DIR", tmp_path / "none")
    monkeypatch.setattr(bundle, "PACKAGE_DIR", tmp_path / "pkg" / "dungeon_guilds")
    assert cli.main(["notebooks", str(tmp_path / "mine")]) == 2
    err = capsys.readouterr().err
    assert "the lesson notebooks are not installed with this package" in err and "--force-reinstall" in err
    assert not (tmp_path / "mine").exists()


def test_lab_opens_the_index_of_the_copy_and_allows_root(tmp_path, monkeypatch):
    monkeypatch.setattr(commands.os, "geteuid", lambda: 0)
    cmd = commands.lab_command(tmp_path, "127.0.0.1", 8888, no_browser=True)
    assert f"--ServerApp.root_dir={tmp_path.resolve()}" in cmd  # ../docs/rules.md is inside the root
    assert "--allow-root" in cmd and "--no-browser" in cmd
    assert "--LabApp.default_url=/lab/tree/notebooks/00_index.ipynb" in cmd  # the printed address
    assert cmd[-1] == str((tmp_path / bundle.INDEX).resolve())
    # issue 54: its kernels keep every IOPub message, as the dashboard's do
    assert "--AsyncMappingKernelManager.kernel_manager_class=dungeon_guilds.app.kernel_manager.SteadyIOPubKernelManager" in cmd
    monkeypatch.setattr(commands.os, "geteuid", lambda: 1000)
    assert "--allow-root" not in commands.lab_command(tmp_path, "127.0.0.1", 8888, no_browser=False)


@pytest.mark.parametrize("command, extra, module", [(["lab", "x"], "lab", "jupyterlab"),
                                                    (["dashboard"], "dashboard", "voila")])
def test_a_missing_extra_is_said_in_one_sentence(command, extra, module, monkeypatch, capsys, tmp_path):
    real = extras.find_spec
    monkeypatch.setattr(extras, "find_spec", lambda name: None if name == module else real(name))
    monkeypatch.chdir(tmp_path)
    assert cli.main(command) == 2
    err = capsys.readouterr().err.strip()
    assert err == (f"dungeon-guilds: dungeon-guilds {command[0]} needs the optional '{extra}' extra "
                   f"({module} is not installed): pip install 'dungeon-guilds[{extra}]'")
    assert not (tmp_path / "x").exists()


def test_a_busy_port_is_refused_in_one_line(capsys):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        port = s.getsockname()[1]
        with pytest.raises(commands.CommandError, match=f"another program uses port {port}"):
            commands.check_port_free("127.0.0.1", port)


def test_the_dashboard_command_is_the_dashboards_voila_on_the_bundled_notebook():
    args = cli.build_parser().parse_args(["dashboard", "--host", "0.0.0.0", "--port", "9000", "--class", "30",
                                          "--cull-idle", "300"])
    cmd = commands.dashboard_command(args, 40)
    assert cmd[1:3] == ["-m", "dungeon_guilds.app.voila_app"]
    assert "--Voila.ip=0.0.0.0" in cmd and "--port=9000" in cmd and "--PoolKeepingKernelManager.max_kernels=40" in cmd
    assert "--MappingKernelManager.cull_idle_timeout=300" in cmd and args.pool == 30
    assert Path(cmd[-1]) == bundle.root() / bundle.DASHBOARD and (bundle.root() / bundle.VOILA_CONFIG).is_file()


# ---------------------------------------------------------------------- the teacher's terminal
VOILA_START = """\
[DashboardVoila] Using /tmp to store connection files
[DashboardVoila] Storing connection files in /tmp/voila_4cq59pr6.
[DashboardVoila] Serving static files from /x/voila/static.
[DashboardVoila] Voilà is running at:
http://vm:8931/
[DashboardVoila] WARNING | Notebook dashboard.ipynb is not trusted
[DashboardVoila] Kernel started: 1720c057-0735-4d89-9bf1-36da2f6ac88d
[IPKernelApp] WARNING | Kernel is running over TCP without encryption. All communication is sent in plain text
[DashboardVoila] Kernel pool of dashboard.ipynb is filled with 3 kernel(s)
[DashboardVoila] WARNING | kernel cap reached (40 kernels): 503 for 10.0.0.7
""".splitlines(keepends=True)


def test_the_terminal_shows_the_students_address_one_ready_line_and_no_routine_warnings(monkeypatch):
    monkeypatch.setattr(console, "lan_addresses", lambda: ["192.168.1.23"])
    view = console.ConsoleFilter("0.0.0.0", 8931, pool=3, max_kernels=40)
    shown = "\n".join(line for raw in VOILA_START for line in view.feed(raw))
    assert "not trusted" not in shown and "without encryption" not in shown and "connection files" not in shown
    assert "http://vm:" not in shown and "http://192.168.1.23:8931/" in shown
    assert shown.count("READY: ready for 3 students at once") == 1
    assert "firewall" in shown and "client isolation" in shown and "8931/tcp" in shown
    assert shown.splitlines()[-1].endswith("503 for 10.0.0.7")  # a real warning still shows
    local = console.ConsoleFilter("127.0.0.1", 8866, pool=0, max_kernels=40)
    shown = "\n".join(line for raw in VOILA_START[:5] for line in local.feed(raw))
    assert "READY" in shown and "--host 0.0.0.0" in shown and "http://127.0.0.1:8866/" in shown


def test_the_lan_address_is_this_computers_not_its_host_name():
    for url in console.student_urls("0.0.0.0", 8866):
        host = url.split("//")[1].rsplit(":", 1)[0]
        socket.inet_aton(host)  # an IPv4 address, typed as is by a student
        assert not host.startswith("127.") or console.lan_addresses() == []


CLOSED_TAB_TRACEBACK = """\
[DashboardVoila] ERROR | Exception in callback <bound method ZMQChannelsWebsocketConnection._on_zmq_reply>
Traceback (most recent call last):
  File "/x/tornado/ioloop.py", line 919, in _run
    val = self.callback()
  File "/x/jupyter_server/services/kernels/connection/channels.py", line 580, in _on_zmq_reply
    self.write_message(msg, binary=isinstance(msg, bytes))
  File "/x/tornado/websocket.py", line 332, in write_message
    raise WebSocketClosedError()
tornado.websocket.WebSocketClosedError
[DashboardVoila] Adapting from protocol version 5.3 (kernel b2359400) to 5.4 (client).
[DashboardVoila] Connecting to kernel b2359400-9a4b-4ba9-be8f-c2ce4d0726a2.
The websocket_ping_timeout (90000) cannot be longer than the websocket_ping_interval (30000).
Setting websocket_ping_timeout=30000
403 GET /voila/files/favicon.ico (127.0.0.1): File not allowlisted
403 GET /voila/files/favicon.ico (127.0.0.1) 1.80ms
[DashboardVoila] ERROR | Uncaught exception GET /voila/render
Traceback (most recent call last):
  File "/x/a.py", line 1, in f
ValueError: a real problem
""".splitlines(keepends=True)


def test_a_quiet_terminal_hides_each_pages_routine_and_a_closed_tabs_traceback():
    """Issue 40: no line per page's kernel connection or favicon, no traceback for a closed tab;
    a real traceback still shows whole (released when the output ends)."""
    view = console.ConsoleFilter("127.0.0.1", 8866, pool=3, max_kernels=40)
    shown = [line for raw in CLOSED_TAB_TRACEBACK for line in view.feed(raw)] + view.flush()
    assert not any("WebSocketClosedError" in s or "write_message" in s for s in shown)
    assert not any(w in s for s in shown for w in ("Adapting", "Connecting to kernel", "favicon", "ping_timeout"))
    assert shown == [raw.rstrip("\n") for raw in CLOSED_TAB_TRACEBACK[-4:]]
    verbose = console.ConsoleFilter("127.0.0.1", 8866, pool=3, max_kernels=40, verbose=True)
    assert len([line for raw in CLOSED_TAB_TRACEBACK for line in verbose.feed(raw)]) == len(CLOSED_TAB_TRACEBACK)


def test_the_teacher_page_address_is_printed_beside_its_code(monkeypatch):
    monkeypatch.setattr(console, "lan_addresses", lambda: ["192.168.1.23"])
    view = console.ConsoleFilter("0.0.0.0", 8931, pool=3, max_kernels=40)
    shown = view.feed("Class tables: 0 table(s) read back from /t; teacher code: 69655620\n")
    assert shown[-1] == "Teacher page: http://192.168.1.23:8931/dungeon-guilds/teacher (code 69655620)"


def test_the_ready_line_says_the_pool_grows_and_how_to_prepare_more(monkeypatch):
    monkeypatch.setattr(console, "lan_addresses", lambda: ["192.168.1.23"])
    view = console.ConsoleFilter("0.0.0.0", 8931, pool=3, max_kernels=40)
    shown = "\n".join(line for raw in VOILA_START for line in view.feed(raw))
    assert "prepares more, up to 40" in shown and "--class N" in shown
    grown = [line for n in range(4, 12)
             for line in view.feed(f"[DashboardVoila] Kernel pool grows to {n} kernels (pages arrived ...)\n")]
    assert len(grown) == 3 and "preparing 4 kernels now" in grown[0] and "--class 10" in grown[-1]
    assert not any("[DashboardVoila]" in line for line in grown)


def test_the_site_command_builds_in_a_clone_and_from_a_pip_install_and_says_when_npm_is_missing(
        tmp_path, monkeypatch, capsys):
    """Issue 40: ``dungeon-guilds site DIR``: the build environment (a clone's build/site/venv, a
    pip install's in the user's cache), then the build into DIR with its size and time; without
    npm or node, one sentence naming what to install and how to serve the class instead."""
    from dungeon_guilds.app import site_command

    ran: list[list[str]] = []
    monkeypatch.setattr(site_command.shutil, "which", lambda name: None)
    assert cli.main(["site", str(tmp_path / "s")]) == 2
    err = capsys.readouterr().err
    assert "Node.js" in err and "npm" in err and "https://nodejs.org" in err
    assert "dungeon-guilds dashboard --host 0.0.0.0" in err and len(err.strip().splitlines()) == 1
    monkeypatch.setattr(site_command.shutil, "which", lambda name: f"/usr/bin/{name}")
    monkeypatch.setattr(site_command, "_run", ran.append)
    monkeypatch.setattr(site_command, "build_python", lambda: ran.append(["clone venv"]) or Path("clone-python"))
    monkeypatch.setattr(site_command, "pip_build_python", lambda work: ran.append(["pip venv", str(work)]) or Path("pip-python"))
    monkeypatch.setenv(site_command.CACHE_ENV, str(tmp_path / "cache"))
    for clone, venv, python, work in ((True, ["clone venv"], "clone-python", site_command.ROOT / "build" / "site"),
                                      (False, ["pip venv", str(tmp_path / "cache" / "site")], "pip-python",
                                       tmp_path / "cache" / "site")):
        ran.clear()
        monkeypatch.setattr(site_command, "in_a_clone", lambda root=None, clone=clone: clone)
        assert cli.main(["site", str(tmp_path / "s")]) == 0
        assert ran[0] == venv
        assert ran[1] == [python, "-m", "dungeon_guilds.app.site", "build", "--out", str(tmp_path / "s"), "--work", str(work)]
        assert "The static site is in" in capsys.readouterr().out


def test_the_site_build_environment_is_made_once(tmp_path, monkeypatch):
    from dungeon_guilds.app import site_command

    root = tmp_path / "clone"
    root.mkdir()
    (root / "pyproject.toml").write_text("", "utf-8")
    ran: list[list[str]] = []

    def run(cmd):
        ran.append(cmd)
        if cmd[1:3] == ["-m", "venv"]:
            (root / "build/site/venv/bin").mkdir(parents=True)
            (root / "build/site/venv/bin/python").write_text("", "utf-8")

    monkeypatch.setattr(site_command, "_run", run)
    python = site_command.build_python(root)
    assert python == root / "build/site/venv/bin/python"
    assert [c[1:3] for c in ran] == [["-m", "venv"], ["-m", "pip"]] and "-r" in ran[1]
    assert str(site_command.REQUIREMENTS) in ran[1]
    site_command.build_python(root)
    assert len(ran) == 2, "the tools are installed once"


def test_a_pip_install_builds_in_the_cache_and_reinstalls_only_what_changed(tmp_path, monkeypatch):
    """Issue 40: from a pip install, the build environment is in the user's cache (not beside
    the package): the tools from PyPI once, the installed package (zipped again) again only when
    its files changed."""
    from dungeon_guilds.app import site_command, site_wheel

    monkeypatch.setenv(site_command.CACHE_ENV, str(tmp_path / "cache"))
    assert site_command.work_dir(tmp_path / "not-a-clone") == tmp_path / "cache" / "site"
    assert site_command.work_dir(site_command.ROOT) == site_command.ROOT / "build" / "site"
    monkeypatch.delenv(site_command.CACHE_ENV)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    if site_command.os.name != "nt" and site_command.sys.platform != "darwin":
        assert site_command.cache_dir() == tmp_path / "xdg" / "dungeon-guilds"
    package = {"bytes": b"one"}

    def wheel(dest, bundle=True):
        assert bundle, "the build environment's package carries the dashboard notebook"
        dest.mkdir(parents=True, exist_ok=True)
        (dest / "dg.whl").write_bytes(package["bytes"])
        return dest / "dg.whl"

    monkeypatch.setattr(site_wheel, "installed_wheel", wheel)
    work = tmp_path / "cache" / "site"
    ran: list[list[str]] = []

    def run(cmd):
        ran.append(cmd)
        if cmd[1:3] == ["-m", "venv"]:
            (work / "venv/bin").mkdir(parents=True)
            (work / "venv/bin/python").write_text("", "utf-8")

    monkeypatch.setattr(site_command, "_run", run)
    assert site_command.pip_build_python(work) == work / "venv/bin/python"
    assert [c[1:3] for c in ran] == [["-m", "venv"], ["-m", "pip"], ["-m", "pip"]]
    assert str(site_command.REQUIREMENTS) in ran[1] and str(work / "dist" / "dg.whl") in ran[2]
    ran.clear()
    site_command.pip_build_python(work)
    assert ran == [], "nothing changed: nothing installed"
    package["bytes"] = b"two"
    site_command.pip_build_python(work)
    assert len(ran) == 1 and "--force-reinstall" in ran[0] and str(work / "dist" / "dg.whl") in ran[0]
