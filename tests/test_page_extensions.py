"""Issue 54, race (b): the page extension every route to the notebooks loads is where each route
looks for it (the browser tests check that the pages load it: test_widget_restore_race.py,
test_notebooks_in_voila.py, the JupyterLab series test, test_installed_package.py)."""

from __future__ import annotations

import json
from pathlib import Path

from dungeon_guilds.app import page_extensions
from dungeon_guilds.app.commands import lab_command

ROOT = Path(__file__).resolve().parents[1]


def test_the_extension_is_a_prebuilt_federated_extension_under_its_name():
    package = json.loads((page_extensions.PATH / page_extensions.NAME / "package.json").read_text("utf-8"))
    assert package["name"] == page_extensions.NAME
    build = package["jupyterlab"]["_build"]
    assert build["extension"] == "./extension"
    script = (page_extensions.PATH / page_extensions.NAME / build["load"]).read_text("utf-8")
    assert f'var NAME = "{page_extensions.NAME}"' in script  # the container it registers
    assert "window.__dgGetModelLastLook" in script


def test_voila_json_and_jupyterlab_name_the_same_folder():
    config = json.loads((ROOT / "voila.json").read_text("utf-8"))["VoilaConfiguration"]
    assert config["extra_labextensions_path"] == [page_extensions.RELATIVE]
    assert (ROOT / page_extensions.RELATIVE).resolve() == page_extensions.PATH.resolve()
    command = lab_command(ROOT / "notebooks", "127.0.0.1", 8888, True)
    assert f"--LabApp.extra_labextensions_path={page_extensions.PATH}" in command
    assert "page_extensions.PATH" in (ROOT / "binder" / "postBuild").read_text("utf-8")
