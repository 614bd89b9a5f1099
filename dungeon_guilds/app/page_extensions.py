"""The page extension the project's Voila and JupyterLab pages load (issue 54, race (b)).

:data:`PATH` holds one prebuilt federated extension, ``dungeon-guilds-widgets`` (its one
script, ``static/remoteEntry.js``, says what it does and why): the widget manager of
ipywidgets 8.1.9 looks for a model once more before it says "model not found". Every route
that serves the notebooks finds it through ``extra_labextensions_path``:

* the dashboard's server (:class:`~dungeon_guilds.app.voila_app.DashboardVoila`, ``make
  dashboard``, ``dungeon-guilds dashboard``) adds :data:`PATH`;
* ``voila notebooks/`` from the repository root and Binder's ``voila/render`` read
  ``voila.json``, which names :data:`RELATIVE` (relative to the repository root);
* ``dungeon-guilds lab`` passes :func:`lab_option` (``make lab`` runs it), and Binder's
  JupyterLab gets the same from ``binder/postBuild``.

Nothing is installed into ``share/jupyter``: an editable install would not place it there.
"""

from __future__ import annotations

from pathlib import Path

PATH = Path(__file__).with_name("labextensions")
NAME = "dungeon-guilds-widgets"
RELATIVE = "dungeon_guilds/app/labextensions"  # voila.json's entry, from the repository root


def lab_option() -> str:
    """JupyterLab's command-line option that makes its pages load the extension."""
    return f"--LabApp.extra_labextensions_path={PATH}"
