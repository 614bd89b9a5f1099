"""The static site's parts that need no browser (issue 13): every tab where pandas and numpy
cannot be imported (as in the browser: tests/test_lab_without_pandas.py checks the Lab's and
the A/B's numbers), the loopback server's sub-path handling, the sqlite3 placeholder wheel, and
the package importing without multiprocessing (Pyodide has none)."""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
import urllib.error
import urllib.request
import zipfile

import pytest

from dungeon_guilds.app import site, site_server


def test_every_tab_builds_where_pandas_and_numpy_cannot_be_imported():
    """As in the browser (Pyodide's core has neither): no tab says it needs the server; the Lab
    and the design workshop (deck editor, lord builder with its preview tables, A/B) are built
    and work in both languages."""
    pytest.importorskip("ipywidgets")
    code = (
        "import sys; sys.modules['pandas'] = None; sys.modules['numpy'] = None\n"
        "from dungeon_guilds.app.dashboard import Dashboard, TABS\n"
        "d = Dashboard(lab={'games': 20, 'players': 3})\n"
        "for name in TABS: d.select_tab(name)\n"
        "d.select_tab('lab'); d.apps['lab'].run_button.click()\n"
        "d.lab_tabs.selected_index = 1; w = d.workshop\n"
        "w.lord_builder.example_dropdown.value = 'red_dragon'\n"
        "ab = w.ab_experiment; ab.games_input.value = 20; ab.players_dropdown.value = 3\n"
        "ab.arm_b.lords_dropdown.value = 'none'; ab.run_button.click(); texts = ab.export(); d.lang = 'zh'\n"
        "print(d.apps['lab'].message_level, ab.message_level, d.message.value.count('error'),\n"
        "      'dg-preview-rooms' in w.lord_builder.preview_html.value, '攻略成功' in w.lord_builder.preview_html.value,\n"
        "      texts['html'].count('Plotly.newPlot'), texts['csv'].splitlines()[0].startswith('metric,group'),\n"
        "      '勝率' in d.apps['lab'].table_html.value, '顯著' in ab.table_html.value,\n"
        "      sys.modules['pandas'] is None, 'dg-needs-server' in repr(d.panels))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.splitlines()[-1].split() == ["ok", "ok", "0", "True", "True", "4", "True", "True", "True",
                                                   "True", "False"], out.stdout + out.stderr


def test_compare_works_where_pandas_and_numpy_cannot_be_imported():
    """As in the browser (Pyodide's core has neither): every Compare tab is drawn from the
    comparison's plain rows, the Lords simulation and its plotly chart included."""
    pytest.importorskip("ipywidgets")
    code = (
        "import sys; sys.modules['pandas'] = None; sys.modules['numpy'] = None\n"
        "from dungeon_guilds.app.dashboard import Dashboard\n"
        "d = Dashboard(); d.select_tab('compare'); w = d.apps['compare'].children[1]\n"
        "w.run.click(); d.lang = 'zh'\n"
        "print(type(w).__name__, '3–6 人' in w.table.value, '7/12' in w.odds.value,\n"
        "      '7/8' in w.eyes.value, len(w.lords_figure.data), 'pandas' in sys.modules and sys.modules['pandas'] is not None,\n"
        "      w.compare_status.value + w.odds_status.value + w.score_status.value + w.lords_status.value == '')\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.splitlines()[-1].split() == ["CompareExplorer", "True", "True", "True", "3", "False", "True"], out.stdout + out.stderr


def test_the_package_imports_its_sweeps_without_multiprocessing():
    code = ("import sys; sys.modules['multiprocessing'] = None; "
            "import dungeon_guilds.analysis.simulate, dungeon_guilds.app.dashboard; print('ok')")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "ok"


def test_the_sqlite3_placeholder_is_an_empty_pure_python_wheel(tmp_path):
    whl = site.placeholder_wheel(tmp_path, "sqlite3", "why")
    assert whl.name == "sqlite3-0.0.0-py3-none-any.whl"
    names = zipfile.ZipFile(whl).namelist()
    assert all(n.startswith("sqlite3-0.0.0.dist-info/") for n in names)  # no module: import still fails


def test_the_server_serves_the_site_only_under_its_sub_path(tmp_path):
    (tmp_path / "index.html").write_text("<p>site</p>")
    (tmp_path / "x.wasm").write_bytes(b"\0asm")
    server, url = site_server.start(tmp_path, 0, "dungeon-guilds")
    try:
        assert url.endswith("/dungeon-guilds/")
        assert urllib.request.urlopen(url).read() == b"<p>site</p>"
        with urllib.request.urlopen(url + "x.wasm") as r:
            assert r.headers["Content-Type"] == "application/wasm"
        assert urllib.request.urlopen(url[:-1]).geturl() == url  # /dungeon-guilds -> /dungeon-guilds/
        with pytest.raises(urllib.error.HTTPError) as e:
            urllib.request.urlopen(url.replace("/dungeon-guilds/", "/index.html"))
        assert e.value.code == 404
    finally:
        server.shutdown()
        server.server_close()


def test_the_server_refuses_a_folder_without_a_built_site(tmp_path):
    with pytest.raises(FileNotFoundError, match="make site"):
        site_server.make_server(tmp_path)


def test_the_site_build_points_font_awesome_links_at_its_own_copy(tmp_path):
    """Voici's pages link Font Awesome on another host; the build rewrites every such link (any
    host, any version) to the site's copy, relative to the page, and refuses to leave one."""
    from dungeon_guilds.app.site import local_fontawesome

    page = tmp_path / "voici" / "render" / "dashboard.html"
    page.parent.mkdir(parents=True)
    page.write_text('<link href="https://cdn.example.org/npm/@fortawesome/fontawesome-free@^5/css/all.min.css">'
                    '<link href="http://other.example/fontawesome-free@5.15.4/css/v4-shims.min.css">')
    local_fontawesome(tmp_path)
    html = page.read_text()
    assert "://" not in html
    assert html.count('href="../../static/fontawesome/css/') == 2
    assert (tmp_path / "static" / "fontawesome" / "css" / "all.min.css").exists()


def fake_site(folder):
    """The files ``site.offline`` works on: JupyterLite's worker, its config, a Voici page."""
    (folder / "voici" / "render").mkdir(parents=True)
    (folder / "service-worker.js").write_text('"use strict";const CACHE="precache";')
    (folder / "jupyter-lite.json").write_text('{"jupyter-config-data": {"appVersion": "0.7.6"}}')
    (folder / "voici" / "render" / "dashboard.html").write_text("<html><head><title>x</title></head></html>")
    (folder / "static").mkdir()
    (folder / "static" / "a.whl").write_bytes(b"wheel")
    (folder / "index.html").write_text("<html></html>")


def listed(folder) -> tuple[str, list[str]]:
    import json
    import re

    text = (folder / "service-worker.js").read_text()
    version = re.search(r'const VERSION = "([0-9a-f]+)"', text).group(1)
    return version, json.loads(re.search(r"const FILES = (\[.*?\]);", text).group(1))


def test_the_offline_worker_lists_every_file_and_a_rebuild_gets_a_new_version(tmp_path):
    """issue 31: the site's own service worker caches every file of the site (and the root),
    in front of JupyterLite's (renamed, imported last); its cache is named after a hash of the
    files, so a changed site replaces what browsers cached; the page keeps the worker."""
    a, b = tmp_path / "a", tmp_path / "b"
    for folder in (a, b):
        fake_site(folder)
    (b / "static" / "a.whl").write_bytes(b"another wheel")
    site.offline(a)
    site.offline(b)
    version_a, files = listed(a)
    assert set(files) == {"./", "index.html", "jupyter-lite.json", "jupyterlite-service-worker.js",
                          "static/a.whl", "voici/render/dashboard.html"}
    assert (a / "jupyterlite-service-worker.js").read_text() == '"use strict";const CACHE="precache";'
    worker = (a / "service-worker.js").read_text()
    assert worker.rstrip().endswith('importScripts("./jupyterlite-service-worker.js");')
    assert listed(b)[0] != version_a  # one file changed: another cache
    c = tmp_path / "c"
    fake_site(c)
    site.offline(c)
    assert listed(c)[0] == version_a  # the same files: the same cache (nothing fetched again)
    page = (a / "voici" / "render" / "dashboard.html").read_text()
    assert page.index("Dungeon Guilds (issue 31)") < page.index("<title>") and '"0.7.6"' in page


def test_the_site_preloads_the_kernels_packages_with_pyodide(tmp_path):
    """issue 31: loadPyodide loads every package the kernel installs at start (so it installs
    none itself), and the dashboard's, from the site's lock only."""
    import json

    site.lite_config(tmp_path)
    settings = json.loads((tmp_path / "jupyter-lite.json").read_text())[
        "jupyter-config-data"]["litePluginSettings"][site.KERNEL_PLUGIN]
    assert settings["disablePyPIFallback"] is True
    packages = settings["loadPyodideOptions"]["packages"]
    # the names JupyterLite's kernel checks before it installs anything (worker code, 0.7.0)
    assert {"micropip", "piplite", "sqlite3", "ipykernel", "comm", "pyodide_kernel", "jedi",
            "ipython"} <= set(packages)
    assert "dungeon-guilds" in packages


def test_the_snapshot_loader_is_keyed_by_the_lock_and_named_by_every_page(tmp_path):
    """issue 31: the kernel loads Pyodide through the snapshot loader (dungeon_guilds/app/site_tools/pyodide-snapshot.js);
    the loader's key changes with the lock (a site with other wheels never restores another's
    memory), and every page's pyodideUrl (the config JupyterLite's add-on wrote) names it."""
    import json

    pyodide = tmp_path / "static" / "pyodide"
    pyodide.mkdir(parents=True)
    (pyodide / "pyodide-lock.json").write_text('{"packages": {"a": {"sha256": "1"}}}')
    key_a = re.search(r'const KEY = "([0-9a-f]{16})"', site.snapshot_loader(pyodide, ['dungeon_guilds.viz.board']).read_text()).group(1)
    script = (pyodide / site.SNAPSHOT_SCRIPT).read_text()
    assert 'const FIRST_VIEW = ["dungeon_guilds.viz.board"];' in script
    assert "__KEY__" not in script and 'const IMPORTS = "piplite.piplite, pyodide_kernel, dungeon_guilds.app.dashboard"' in script
    (pyodide / "pyodide-lock.json").write_text('{"packages": {"a": {"sha256": "2"}}}')
    key_b = re.search(r'const KEY = "([0-9a-f]{16})"', site.snapshot_loader(pyodide, ['dungeon_guilds.viz.board']).read_text()).group(1)
    assert key_a != key_b

    config = {"jupyter-config-data": {"litePluginSettings": {site.KERNEL_PLUGIN: {
        "pyodideUrl": "./static/pyodide/pyodide.js"}}}}
    (tmp_path / "jupyter-lite.json").write_text(json.dumps(config))
    page = tmp_path / "voici" / "render" / "dashboard.html"
    page.parent.mkdir(parents=True)
    page.write_text('<script>{"litePluginSettings": {"x": {"pyodideUrl": "../../static/pyodide/pyodide.js"}}}</script>')
    site.use_snapshot_loader(tmp_path)
    assert '"pyodideUrl": "../../static/pyodide/dg-pyodide.js"' in page.read_text()
    written = json.loads((tmp_path / "jupyter-lite.json").read_text())
    assert written["jupyter-config-data"]["litePluginSettings"][site.KERNEL_PLUGIN]["pyodideUrl"] == \
        "./static/pyodide/dg-pyodide.js"


def test_the_build_refuses_a_site_whose_pages_do_not_name_the_snapshot_loader(tmp_path):
    (tmp_path / "static" / "pyodide").mkdir(parents=True)
    (tmp_path / "static" / "pyodide" / site.SNAPSHOT_SCRIPT).write_text("//")
    (tmp_path / "voici").mkdir()
    (tmp_path / "jupyter-lite.json").write_text('{"pyodideUrl": "https://cdn.example/pyodide.js"}')
    with pytest.raises(SystemExit, match="no page names the snapshot loader"):
        site.use_snapshot_loader(tmp_path)
    (tmp_path / "static" / "pyodide" / site.SNAPSHOT_SCRIPT).unlink()
    with pytest.raises(SystemExit, match="was not copied"):
        site.use_snapshot_loader(tmp_path)


def test_the_snapshot_imports_what_the_first_view_imports_when_it_is_built():
    """issue 31: the modules a Dashboard() imports lazily (its board, its bots…) are listed at
    build time, so a restored interpreter draws the first view without importing anything."""
    pytest.importorskip("ipywidgets")
    modules = site.first_view_modules()
    assert {"dungeon_guilds.drawing.board_svg", "dungeon_guilds.analysis.bots.greedy"} <= set(modules)
    assert "dungeon_guilds.app.dashboard" not in modules  # imported before, not by building one
    assert not [m for m in modules if m.startswith("dungeon_guilds.widgets")]  # may build widgets


def test_the_site_serves_the_lesson_plans_the_teacher_panel_links_to(tmp_path, monkeypatch):
    """Issue 40: the site carries every plan as a page; in the browser (no mistune) the teacher
    panel links to them, relative to the dashboard's page (voici/render/dashboard.html)."""
    import posixpath

    pytest.importorskip("mistune")
    pytest.importorskip("ipywidgets")
    from dungeon_guilds.teaching import lesson_pages
    from dungeon_guilds.widgets import teacher

    written = {p.relative_to(tmp_path).as_posix() for p in site.lesson_site_pages(tmp_path)}
    assert "lessons/index.html" in written and "lessons/lesson-2-design.zh.html" in written

    def no_renderer(*_a, **_k):
        raise lesson_pages.RendererMissing("no mistune")

    monkeypatch.setattr(teacher.lesson_pages, "page_html", no_renderer)
    monkeypatch.setattr(teacher.sys, "platform", "emscripten")
    panel = teacher.TeacherPanel()
    panel.plan_dropdown.value = "lesson-2-design"
    panel.plan_button.click()
    hrefs = re.findall(r'href="([^"]+)"', panel.plan_links_html.value)
    resolved = [posixpath.normpath(posixpath.join("voici/render", h)) for h in hrefs]
    assert resolved == ["lessons/lesson-2-design.html", "lessons/lesson-2-design.zh.html",
                        "lessons/lesson-2-design-quiz.html", "lessons/lesson-2-design-quiz.zh.html"]  # issue 53
    assert set(resolved) <= written and panel.message_text == ""


# what the site build reads from the package besides its code (site.py, site_command.py and the
# lesson pages): every file of these folders, these files, and the bundle's dashboard notebook
SITE_BUILD_READS = ("app/site_tools/", "app/keep_worker.js", "teaching/lessons/", "teaching/lesson_page.css")
INSTALLED_CHECK = """import json, sys
from pathlib import Path
from dungeon_guilds.app import bundle, site, site_command, site_wheel
assert not site.FROM_SOURCE and not site_command.in_a_clone()
files = [site.TOOLS / n for n in ("service-worker.js", "pyodide-snapshot.js", "compile_wheels.mjs")]
files += [site_command.REQUIREMENTS, bundle.root() / bundle.DASHBOARD]
assert all(f.is_file() for f in files), [str(f) for f in files if not f.is_file()]
whl = site_wheel.installed_wheel(Path(sys.argv[1]), bundle=False)
print(json.dumps([str(bundle.root()), whl.name]))"""


def test_the_wheel_carries_everything_the_site_build_reads(tmp_path):
    """Issue 40: ``dungeon-guilds site DIR`` builds from a pip install: the wheel built from this
    checkout carries the build's own scripts and requirements, the page script, the lesson
    plans and the dashboard notebook; installed (unpacked on the path, outside the checkout) it
    finds them where the build looks, and zips itself again into the browser's wheel: the same
    package files, without the bundle, with a RECORD that names each with its hash."""
    root = site.ROOT
    done = subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation",
                           "--wheel-dir", str(tmp_path / "dist"), str(root)], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    (wheel,) = (tmp_path / "dist").glob("*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    package = root / "dungeon_guilds"
    wanted = {f"dungeon_guilds/{p.relative_to(package).as_posix()}" for part in SITE_BUILD_READS
              for p in ([package / part] if not part.endswith("/") else (package / part).iterdir())
              if p.is_file()}
    assert len(wanted) > 8 and "dungeon_guilds/app/site_tools/requirements.txt" in wanted
    assert not wanted - names, f"add to [tool.setuptools.package-data]: {sorted(wanted - names)}"
    assert "dungeon_guilds/bundle/notebooks/dashboard.ipynb" in names
    installed = tmp_path / "site-packages"
    zipfile.ZipFile(wheel).extractall(installed)
    done = subprocess.run([sys.executable, "-c", INSTALLED_CHECK, str(tmp_path / "again")], capture_output=True,
                          text=True, cwd=tmp_path, env={"PYTHONPATH": str(installed), "PATH": "/usr/bin:/bin"},
                          timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    found, again = __import__("json").loads(done.stdout.strip().splitlines()[-1])
    assert found == str(installed / "dungeon_guilds" / "bundle")
    rebuilt = zipfile.ZipFile(tmp_path / "again" / again)
    package_files = {n for n in names if not n.startswith("dungeon_guilds/bundle/") and ".dist-info/" not in n}
    assert {n for n in rebuilt.namelist() if ".dist-info/" not in n} == package_files
    record = next(n for n in rebuilt.namelist() if n.endswith(".dist-info/RECORD"))
    rows = [line.split(",") for line in rebuilt.read(record).decode().splitlines()]
    assert {r[0] for r in rows} == set(rebuilt.namelist()) and all(r[1].startswith("sha256=") for r in rows if r[0] != record)


def test_the_build_lets_a_page_without_service_workers_render(tmp_path, capsys):
    """Issue 50: JupyterLite's manager settles ``ready`` where the browser has no service worker
    (plain http on a LAN address), so Voici renders; a JupyterLite whose code differs is refused.
    The LAN server says what plain http gives and what https adds, in both languages."""
    build = tmp_path / "voici" / "build"
    build.mkdir(parents=True)
    (build / "1.js").write_text("a();" + site.NO_WORKER_FOUND + "}b();", encoding="utf-8")
    (build / "2.js").write_text("c();", encoding="utf-8")
    assert site.start_without_worker(tmp_path) == build / "1.js"
    assert (build / "1.js").read_text(encoding="utf-8") == "a();" + site.NO_WORKER_FOUND + site.NO_WORKER_SETTLE + "}b();"
    with pytest.raises(SystemExit, match="not found once"):
        site.start_without_worker(tmp_path)  # patched already: the plain branch is gone
    note = site_server.http_note()
    assert "http" in note and "https" in note and "離線" in note and "every browser" in note
