"""The app layer: what assembles and serves the dashboard.

* :mod:`dungeon_guilds.app.dashboard` — the dashboard (every widget app of the project in tabs);
* :mod:`dungeon_guilds.app.serving` — the kernel manager ``voila.json`` names and the helpers
  that run Voila for ``make dashboard``, the browser tests and the benchmarks.

Imports point down only: ``app`` uses ``widgets`` (and below); nothing below imports ``app``.
Importing this package imports neither ipywidgets nor Voila.
"""
