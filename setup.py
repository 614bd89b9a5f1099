"""Build step: the wheel carries the lesson notebooks, the dashboard notebook, the example
records, the docs the notebooks link to and voila.json under ``dungeon_guilds/bundle/``
(the list: ``dungeon_guilds/app/bundle.py``, ``SHIPPED``). Everything else is in pyproject.toml."""

import importlib.util
import os
import sys
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent


def _bundle_module():
    spec = importlib.util.spec_from_file_location("_dg_bundle", HERE / "dungeon_guilds" / "app" / "bundle.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


class BuildWithLessons(build_py):
    """build_py, then the shipped files into ``<build>/dungeon_guilds/bundle/``."""

    def run(self):
        super().run()
        # an editable install reads them from the repository; the static site's wheel (run in
        # the browser, which never opens them) is built with DUNGEON_GUILDS_NO_BUNDLE=1
        if not self.editable_mode and os.environ.get("DUNGEON_GUILDS_NO_BUNDLE") != "1":
            _bundle_module().copy_into(HERE, Path(self.build_lib) / "dungeon_guilds" / "bundle")


setup(cmdclass={"build_py": BuildWithLessons})
