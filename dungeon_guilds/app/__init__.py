"""The app layer: what assembles and serves the dashboard.

* :mod:`dungeon_guilds.app.dashboard` — the dashboard (every widget app of the project in tabs);
* :mod:`dungeon_guilds.app.serving` — ``make dashboard``'s Voila command and starting it, for
  the browser tests, the benchmarks and the screenshot tour;
* :mod:`dungeon_guilds.app.kernels` — the classroom server's kernel settings (cap, pool, pacing);
  :mod:`~dungeon_guilds.app.kernel_manager` — the kernel manager ``voila.json`` names (it keeps
  the preheated pool, counts kernels for the cap and paces refills);
* :mod:`dungeon_guilds.app.processes` — process groups, ``/proc`` trees, a free loopback port;
* :mod:`dungeon_guilds.app.voila_app` — ``dungeon-guilds-voila``, the Voila application ``make
  dashboard`` runs: the kernel cap's 503 page, kernels freed on tab close, no CDN (with
  ``templates/index.html.j2``);
* :mod:`dungeon_guilds.app.page_extensions` — the page extension every Voila and JupyterLab page
  of the project loads (ipywidgets' widget manager looks for a model once more: issue 54).
* :mod:`dungeon_guilds.app.site` — the static site (``make site``: Voici + Pyodide, the
  dashboard running in each browser, every tab), :mod:`~dungeon_guilds.app.site_server`
  serving it on loopback.

Imports point down only: ``app`` uses ``widgets`` (and below); nothing below imports ``app``.
Importing this package imports neither ipywidgets nor Voila.
"""
