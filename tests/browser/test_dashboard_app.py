"""The dashboard app and its serving set-up, headless (no browser): tabs built on first view,
one language for every tab, friendly errors, the committed notebook, voila.json, ``make
dashboard``, the kernel manager that keeps the preheated kernel, and the browser tests' rule
that they fail (not skip) in CI."""

from __future__ import annotations

import asyncio
import json
import re
import shutil
import subprocess
import sys
from datetime import timedelta
from pathlib import Path
from types import SimpleNamespace

import ipywidgets as W
import pytest

from dungeon_guilds.app.dashboard import LEARN_SETTINGS, TABS, Dashboard, text

ROOT = Path(__file__).resolve().parents[2]


def plain(html: str) -> str:
    return re.sub(r"<[^>]+>", " ", html)


def test_the_layout_is_an_applayout_with_tabs_and_only_learn_is_built_at_start():
    d = Dashboard()
    assert isinstance(d.app_layout, W.AppLayout) and d.app_layout.center is d.tabs
    assert d.tabs.titles == ("Learn", "Play", "Rules", "Explore", "Lab", "Compare", "Challenges")
    assert d.current == "learn" and list(d.apps) == ["learn"]
    learn = d.apps["learn"]
    assert learn.seats == LEARN_SETTINGS["seats"] and learn.game.seed == LEARN_SETTINGS["seed"]
    assert learn.language_toggle.layout.display == "none"  # one toggle, in the header
    assert d.last_error is None


def test_tabs_are_built_when_first_opened_and_work():
    d = Dashboard()
    d.tabs.selected_index = TABS.index("play")  # as a click on the tab does
    assert "play" in d.apps and d.apps["play"].game is not None
    for name in TABS:
        app = d.select_tab(name)
        page = d.lab_tabs if name == "lab" else app  # the Lab page holds the panel in a sub-tab
        if name == "play":  # Play: pass and play (folded) above the game against bots
            (page,) = d.panels[name].children
            assert page.children == (d._pass_box, app)
            continue
        assert app is d.apps[name] and d.panels[name].children == (page,)
    assert d.payout_explorer is not None and d.turn_explorer is not None
    lab = d.apps["lab"]
    lab.games_input.value = 10
    lab.run_button.click()
    assert lab.result is not None and lab.last_error is None
    stepper = d.apps["learn"]
    stepper.round_button.click()
    assert stepper.last_error is None


def test_one_language_toggle_drives_every_tab():
    d = Dashboard()
    for name in TABS:
        d.select_tab(name)
    d.language_toggle.value = "zh"
    assert d.tabs.titles == tuple(text(f"dash.tab_{n}", "zh") for n in TABS)
    assert d.apps["learn"].step_button.description.startswith("下一步")
    assert d.apps["play"].play_button.description == "執行"
    assert d.apps["lab"].run_button.description == "開始"
    assert d.payout_explorer.lang == d.turn_explorer.lang == "zh"
    assert "地城聯盟" in plain(d.title_html.value)
    d.lang = "en"
    assert d.tabs.titles[0] == "Learn" and d.apps["learn"].step_button.description.startswith("Step")


def test_a_tab_that_fails_to_build_shows_a_message_not_a_traceback(monkeypatch, widget_errors):
    d = Dashboard()

    def broken():
        raise RuntimeError("no luck")

    monkeypatch.setitem(d._builders, "compare", broken)
    d.tabs.selected_index = TABS.index("compare")
    assert "compare" not in d.apps and isinstance(d.last_error, RuntimeError)
    assert d.message_level == "error" and "Traceback" not in d.message.value
    assert "Dashboard" not in d.message.value
    assert [r.exc_info[0] for r in widget_errors] == [RuntimeError]  # a bug: logged with its traceback
    with pytest.raises(ValueError):
        d.select_tab("nope")
    bad = Dashboard(tab="nope")  # refused in the constructor: a message, the app still shows
    assert bad.message_level == "warn" and bad.apps == {}


def test_labels_exist_in_both_languages():
    from dungeon_guilds import i18n

    # the [dash] section of both tables (tests/viz/test_viz_i18n.py checks zh has every key)
    assert {"dash.title", "dash.tab_learn", "dash.tab_compare"} <= set(i18n.strings("en"))
    assert text("dash.tab_lab", "zh") == "實驗室" and text("ui.players", "en") == "Players"


def test_the_committed_notebook_is_one_short_cell_without_outputs():
    nb = json.loads((ROOT / "notebooks" / "dashboard.ipynb").read_text("utf-8"))
    code = [c for c in nb["cells"] if c["cell_type"] == "code"]
    assert 1 <= len(nb["cells"]) <= 3 and len(code) == 1
    source = "".join(code[0]["source"])
    assert "Dashboard()" in source and len(source.splitlines()) <= 5
    assert all(not c.get("outputs") and c.get("execution_count") is None for c in code)
    assert "widgets" not in nb["metadata"]  # no stored widget state (megabytes)
    assert nb["metadata"]["kernelspec"]["name"] == "python3"


def test_voila_json_serves_preheated_culled_timed_and_without_tracebacks():
    config = json.loads((ROOT / "voila.json").read_text("utf-8"))
    vc = config["VoilaConfiguration"]
    assert vc["preheat_kernel"] is True and vc["default_pool_size"] >= 1
    assert vc["show_tracebacks"] is False and config["VoilaExecutor"]["show_tracebacks"] is False
    assert vc["template"] == "lab"
    assert config["NotebookClient"]["timeout"] > 0
    assert config["NotebookClient"]["iopub_timeout"] >= 60  # nbclient's 4 s drops output under load
    cull = config["MappingKernelManager"]
    assert cull["cull_idle_timeout"] > 0 and cull["cull_interval"] > 0 and cull["cull_connected"] is False
    from traitlets.utils.importstring import import_item

    cls = import_item(vc["multi_kernel_manager_class"])
    from jupyter_server.services.kernels.kernelmanager import MappingKernelManager

    assert issubclass(cls, MappingKernelManager)


@pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")
def test_make_dashboard_serves_the_dashboard_on_loopback_with_a_port_option():
    out = subprocess.run(["make", "--no-print-directory", "-n", "dashboard", "PORT=9123"], cwd=ROOT, capture_output=True,
                         text=True, check=True).stdout
    line = next(line for line in out.replace("\\\n", " ").splitlines() if "dungeon-guilds dashboard" in line)
    # one way to serve: the command a pip-installed package has (tests/test_app_commands.py:
    # the dashboard's Voila on the bundled notebook; test_installed_package.py serves it)
    assert line.split() == [".venv/bin/dungeon-guilds", "dashboard", "--host", "127.0.0.1", "--port", "9123",
                            "--class", "3"], line


@pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")
def test_make_dashboard_takes_host_cap_and_culling_and_installs_only_the_dashboard_extra(tmp_path):
    out = subprocess.run(["make", "--no-print-directory", "-n", "-B", "dashboard", "HOST=0.0.0.0", "MAX_KERNELS=12", "CULL_IDLE=300",
                          f"VENV={tmp_path / 'venv'}"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    text = out.replace("\\\n", " ")
    line = next(line for line in text.splitlines() if "dungeon-guilds dashboard" in line)
    assert "--host 0.0.0.0" in line and "--max-kernels 12" in line and "--cull-idle 300" in line
    installs = [line for line in text.splitlines() if "pip install" in line and " -e " in line]
    assert installs and all("'.[dashboard]'" in line for line in installs), installs
    # the first start shows what it installs (not 80 s of silence)
    assert all("--quiet" not in line and "Collecting" in line for line in installs), installs
    assert "first time only" in text
    import tomllib

    extras = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"]["optional-dependencies"]
    names = {re.split(r"[<>=\[]", d)[0] for d in extras["dashboard"]}
    assert {"voila", "ipywidgets", "fontawesome-free"} <= names
    assert not names & {"playwright", "dask", "hypothesis", "open_spiel", "scipy", "pytest", "pyinstrument"}


def test_the_kernel_manager_never_culls_a_preheated_kernel_waiting_in_the_pool():
    from jupyter_server._tz import utcnow

    from dungeon_guilds.app.kernel_manager import PoolKeepingKernelManager

    culled = []

    class Probe(PoolKeepingKernelManager):
        async def shutdown_kernel(self, kernel_id, *args, **kwargs):
            culled.append(kernel_id)

    m = Probe(cull_idle_timeout=5)
    old = utcnow() - timedelta(hours=1)

    async def check():
        done = asyncio.get_running_loop().create_future()
        done.set_result({"kernel_id": "pooled"})
        m._pools = {"dashboard.ipynb": [done]}
        m._preheated = {"pooled"}
        kernel = SimpleNamespace(last_activity=old, execution_state="idle", kernel_name="python3",
                                 kernel_spec=SimpleNamespace(metadata={}))
        m._kernels = {"pooled": kernel}
        await m.cull_kernel_if_idle("pooled")  # waiting in the pool: kept, counted as active
        assert culled == [] and kernel.last_activity > old and "pooled" in m._preheated
        m._pools = {"dashboard.ipynb": []}  # a page took it
        kernel.last_activity = old
        await m.cull_kernel_if_idle("pooled")  # the hand-over counts as activity once
        assert culled == [] and kernel.last_activity > old and "pooled" not in m._preheated
        kernel.last_activity = old
        m._kernel_connections = {}
        await m.cull_kernel_if_idle("pooled")  # then, idle with no page: culled as usual
        assert culled == ["pooled"]

    asyncio.run(check())


def test_the_kernel_cap_admits_pages_while_the_count_is_below_it(monkeypatch):
    from dungeon_guilds.app import kernel_manager, kernels

    monkeypatch.setenv(kernels.MAX_KERNELS_ENV, "4")
    m = kernel_manager.PoolKeepingKernelManager()
    assert m.max_kernels == 4
    m._kernels = {"pool-1": None, "pool-2": None}
    assert m.admit_page() and m.admit_page()  # two reserved: 2 kernels + 2 reservations = 4
    assert not m.admit_page() and m.kernel_count() == 4
    m._reserved.pop()  # a reservation's kernel started and then went (a tab closed)
    assert m.admit_page() and not m.admit_page()
    assert kernel_manager.PoolKeepingKernelManager(max_kernels=9).max_kernels == 9
    for bad in ("x", "0", "-3"):
        monkeypatch.setenv(kernels.MAX_KERNELS_ENV, bad)
        with pytest.raises(ValueError, match=kernels.MAX_KERNELS_ENV):
            kernels.max_kernels_default()
    monkeypatch.delenv(kernels.MAX_KERNELS_ENV)
    assert kernels.max_kernels_default() == kernels.MAX_KERNELS == 40


def test_the_full_page_and_the_waiting_line_speak_both_languages():
    from dungeon_guilds.app.voila_app import fontawesome_dir, full_page, waiting_css

    page = full_page()
    assert "The class is full" in page and "教室已滿" in page and "try again in a minute" in page
    assert "<script" not in page and "http" not in page
    css = waiting_css()
    assert "Starting your dashboard" in css and "正在啟動" in css and "#loading::after" in css
    assert (fontawesome_dir() / "webfonts" / "fa-solid-900.woff2").is_file()
    template = (ROOT / "dungeon_guilds" / "app" / "templates" / "index.html.j2").read_text("utf-8")
    assert "dungeon-guilds/fontawesome/css/all.min.css" in template and "https:" not in template


def test_browser_tests_fail_in_ci_and_skip_only_locally(monkeypatch):
    import importlib.util

    spec = importlib.util.spec_from_file_location("dg_browser_conftest", Path(__file__).with_name("conftest.py"))
    fixtures = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, spec.name, fixtures)  # its dataclass looks itself up there
    spec.loader.exec_module(fixtures)
    browser_required, unavailable = fixtures.browser_required, fixtures.unavailable
    for env, required in (({"CI": "true"}, True), ({"DG_BROWSER": "1"}, True),
                          ({"CI": "false"}, False), ({}, False)):
        monkeypatch.delenv("CI", raising=False)
        monkeypatch.delenv("DG_BROWSER", raising=False)
        for k, v in env.items():
            monkeypatch.setenv(k, v)
        assert browser_required() is required
        with pytest.raises(pytest.fail.Exception if required else pytest.skip.Exception):
            unavailable("no browser here")


def test_binder_builds_the_dashboard_environment_and_the_readme_names_its_url():
    requirements = (ROOT / "binder" / "requirements.txt").read_text("utf-8")
    for package in ("voila", "ipywidgets", "plotly", "pandas"):
        assert re.search(rf"^{package}\b", requirements, re.M), package
    post_build = ROOT / "binder" / "postBuild"
    assert "pip install" in post_build.read_text("utf-8") and post_build.stat().st_mode & 0o111
    assert (ROOT / "binder" / "runtime.txt").read_text("utf-8").strip().startswith("python-3.")
    readme = (ROOT / "README.md").read_text("utf-8")
    url = re.search(r"https://mybinder\.org/v2/gh/\S+", readme)  # no public repository yet: no badge
    assert url and "urlpath=voila/render/notebooks/dashboard.ipynb" in url.group(0)


def test_the_lab_tab_holds_the_balance_run_and_the_design_workshop():
    """Issue 8: the dashboard's Lab tab uses the workshop tools (built when first opened)."""
    from dungeon_guilds.widgets.ab_experiment import WorkshopApp
    from dungeon_guilds.widgets.lab import LabPanel

    d = Dashboard()
    d.select_tab("lab")
    assert isinstance(d.apps["lab"], LabPanel) and d.workshop is None
    assert d.lab_tabs.titles == (text("dash.lab_balance", "en"), text("dash.lab_workshop", "en"))
    d.lab_tabs.selected_index = 1
    assert isinstance(d.workshop, WorkshopApp) and d.lab_tabs.children[1] is d.workshop
    d.lang = "zh"
    assert d.lab_tabs.titles == ("平衡實驗", "設計工作坊")
    assert d.workshop.lang_state is d.lang_state  # one toggle for the whole page


def test_the_design_workshop_says_it_is_loading_before_it_is_built():
    """Issue 40: the sub-tab was blank for ~3 s while the kernel built the workshop; its page
    holds a loading line from the start, in the page's language."""
    d = Dashboard()
    d.select_tab("lab")
    assert d.workshop is None and list(d.lab_tabs.children[1].children) == [d.workshop_loading]
    assert text("dash.workshop_loading", "en") in d.workshop_loading.value
    d.lang = "zh"
    assert "正在載入設計工作坊" in d.workshop_loading.value
    d.lab_tabs.selected_index = 1
    assert d.lab_tabs.children[1] is d.workshop


def test_the_pool_size_option_reads_the_environment_and_names_it_when_wrong(monkeypatch):
    from dungeon_guilds.app import kernels, serving

    monkeypatch.delenv(kernels.POOL_ENV, raising=False)
    assert kernels.pool_size_from_env() is None  # voila.json's default_pool_size applies
    for raw, value in (("30", 30), (" 0 ", 0)):
        monkeypatch.setenv(kernels.POOL_ENV, raw)
        assert kernels.pool_size_from_env() == value
    for bad in ("x", "-1", "2.5"):
        monkeypatch.setenv(kernels.POOL_ENV, bad)
        with pytest.raises(ValueError, match=kernels.POOL_ENV):
            kernels.pool_size_from_env()
    makefile = (ROOT / "Makefile").read_text("utf-8")
    # a few kernels for one teacher trying it; POOL=30 (or CLASS=30) for a class
    assert re.search(r"^CLASS\s+\?= 3$", makefile, re.M) and re.search(r"^POOL\s+\?= \$\(CLASS\)$", makefile, re.M)
    assert "--class $(POOL)" in makefile
    assert serving.voila_command(1, pages_at_once=3)[-2] == "--PoolKeepingKernelManager.pages_at_once=3"


def _paced_manager(**kwargs):
    """A PoolKeepingKernelManager under a stand-in for Voila's pooling subclass: ``_initialize``
    records how many pool kernels execute the notebook at once."""
    from dungeon_guilds.app import kernel_manager, kernels

    class FakeVoilaPool(kernel_manager.PoolKeepingKernelManager):
        running = peak = 0

        async def _initialize(self, notebook_name, kernel_id=None, **kw):
            cls = type(self)
            cls.running += 1
            cls.peak = max(cls.peak, cls.running)
            self._kernels[f"k{len(self._kernels)}"] = None

            async def execute():
                await asyncio.sleep(0.05)
                cls.running -= 1

            return {"task": asyncio.ensure_future(execute()), "kernel_id": "k", "renderer": None}

    return FakeVoilaPool(**kwargs)


def test_pool_refills_execute_at_most_refills_at_once_and_wait_for_pages_and_the_cap():
    async def check():
        m = _paced_manager(max_kernels=40, refills_at_once=2)
        assert m.get_pool_size == m.ready_pool_size  # Voila's handler sees only ready kernels
        tasks = [asyncio.ensure_future(m._initialize("nb")) for _ in range(6)]
        m._pools = {"nb": tasks}
        assert m.ready_kernels() == 0
        await asyncio.gather(*tasks)
        assert type(m).peak == 2 and m.ready_kernels() == 6
        m.pages_executing = 1  # a page executes the notebook: a refill waits
        waiting = asyncio.ensure_future(m._initialize("nb"))
        await asyncio.sleep(0.6)
        assert not waiting.done() and len(m._kernels) == 6
        m.pages_executing = 0
        await waiting
        assert len(m._kernels) == 7
        m.max_kernels = 7  # at the cap: a refill waits for room
        at_cap = asyncio.ensure_future(m._initialize("nb"))
        await asyncio.sleep(0.6)
        assert not at_cap.done()
        assert m.admit_page(), "a ready pool kernel is handed out even at the cap"
        m._pools = {"nb": []}
        assert not m.admit_page(), "no ready pool kernel and the cap reached: 503"
        m._closing = True  # shutting down: the waiting refill gives up, no kernel started
        with pytest.raises(RuntimeError, match="shutting down"):
            await at_cap
        assert len(m._kernels) == 7

    asyncio.run(check())


def test_a_refill_waits_while_the_machine_is_busy_soon_after_the_last_page(monkeypatch):
    """A class that just arrived needs the CPUs for its pages: within ``refill_busy`` seconds of
    the last page a refill also waits while the 1-minute load average is at least the number of
    CPUs (kernels.machine_busy); later, or on a quiet machine, it goes ahead."""
    import time as clock

    from dungeon_guilds.app import kernels

    busy = [True]
    monkeypatch.setattr(kernels, "machine_busy", lambda: busy[0])

    async def check():
        m = _paced_manager(max_kernels=40, refill_quiet=0, refill_busy=30)
        m.last_page_at = clock.monotonic()  # a page was just served
        waiting = asyncio.ensure_future(m._initialize("nb"))
        await asyncio.sleep(0.6)
        assert not waiting.done() and not m._kernels, "a refill started on a busy machine"
        busy[0] = False  # the pages are drawn: the machine is quiet again
        await waiting
        assert len(m._kernels) == 1
        busy[0] = True
        m.last_page_at = clock.monotonic() - 31  # the last page came longer ago than refill_busy
        await asyncio.wait_for(m._initialize("nb"), 5)
        assert len(m._kernels) == 2

    asyncio.run(check())
    monkeypatch.undo()
    assert isinstance(kernels.machine_busy(), bool)


def test_a_page_beyond_the_pool_waits_while_pages_at_once_pages_execute_or_a_pool_kernel_warms():
    from dungeon_guilds.app.voila_app import queued_page

    m = _paced_manager(pages_at_once=2)
    assert m.page_slot_free()
    m.pages_executing = 2
    assert not m.page_slot_free()
    # a page in line asking again keeps waiting while a pool kernel executes the notebook (it
    # takes that kernel), though a slot is free; a new page then executes it itself
    m.pages_executing = 0
    m._refilling = 1
    assert m.page_waits(in_line=True) and not m.page_waits(in_line=False)
    m._refilling = 0
    assert not m.page_waits(in_line=True), "no pool kernel coming: the page executes the notebook"
    m.pages_executing = 2
    assert m.page_waits(in_line=False) and m.page_waits(in_line=True)
    page = queued_page()
    assert "Your dashboard is in line" in page and "你的儀表板正在排隊" in page
    assert "id='loading'" in page and "http-equiv='refresh'" in page


def test_the_pool_grows_to_the_cap_and_refills_at_once_while_pages_wait(monkeypatch):
    """Issue 40: a page finding no pool kernel ready grows the pool by one (Voila's
    ``kernel_pools_config``), never past ``max_kernels`` nor from a pool of 0; while a page waits
    in line a refill starts at once, though the class is still arriving."""
    import time as clock

    from dungeon_guilds.app import kernels

    monkeypatch.setattr(kernels, "machine_busy", lambda: True)

    async def check():
        m = _paced_manager(max_kernels=5, refill_quiet=60, refill_busy=120)
        filled: list[str] = []
        m.fill_if_needed = lambda delay=None, notebook_name=None, **kw: filled.append(notebook_name)
        m.kernel_pools_config = {"default": {"pool_size": 3, "kernel_env_variables": {}}}
        m._pools = {"nb": []}
        assert [m.grow_pool() for _ in range(3)] == [True, True, False]
        assert m.pool_target() == 5 and filled == ["nb", "nb"]
        m.kernel_pools_config = {"default": {"pool_size": 0}}
        assert not m.grow_pool(), "--class 0: no pool, none grown"
        m.kernel_pools_config = {"default": {"pool_size": 3}}
        m._reserved = [clock.monotonic()] * 5  # five pages admitted: the cap is reached
        assert not m.grow_pool() and m.pool_target() == 3, "at the cap nothing grows"
        m._reserved = []
        m.last_page_at = clock.monotonic()  # a class arriving: a refill waits ...
        waiting = asyncio.ensure_future(m._initialize("nb"))
        await asyncio.sleep(0.6)
        assert not waiting.done() and not m._kernels
        m.note_waiting()  # ... until a page is told it is in line
        await asyncio.wait_for(waiting, 5)
        assert len(m._kernels) == 1 and m.pages_waiting() == 1

    asyncio.run(check())
    from dungeon_guilds.app.kernel_manager import PoolKeepingKernelManager

    plain = PoolKeepingKernelManager()  # Voila without preheating: no pool to grow, no error
    assert plain.pool_target() == 0 and plain.grow_pool() is False


def test_a_servers_pool_size_reads_the_growth_from_its_log(tmp_path):
    from dungeon_guilds.app.serving import VoilaServer

    log = tmp_path / "voila.log"
    log.write_text("[Voila] Kernel pool of dashboard.ipynb is filled with 3 kernel(s)\n", "utf-8")
    server = VoilaServer(None, 1, log)
    assert server.pool_size(3) == 3
    log.write_text(log.read_text("utf-8") + "[Voila] Kernel pool grows to 4 kernels (...)\n"
                   "[Voila] Kernel pool grows to 5 kernels (...)\n", "utf-8")
    assert server.pool_size(3) == 5
