"""The optional extras of ``pip install dungeon-guilds`` and the message a user sees when one is
missing (standard library only).

The engine, the record tools and the ``rules`` / ``lords`` / ``replay`` / ``random-game``
commands need nothing beyond Python. The rest needs an extra (pyproject.toml):

* ``analysis``  — bots, simulation, metrics, tournaments, figures, the design workshop and the
  sibling-game comparison: pandas, networkx, plotly, tqdm;
* ``notebooks`` — the teaching notebooks, the widgets and the Voila dashboard: ipywidgets, voila,
  ipykernel, nbval (and the analysis libraries);
* ``test``      — the test suite; ``bench`` — the benchmarks.

A package that needs an extra calls :func:`require` first thing; a missing module then raises
:class:`MissingExtra` (an ``ImportError``) whose message is one sentence naming the extra and
the command that installs it. The CLI prints that sentence and exits with status 2.
"""

from __future__ import annotations

from importlib.util import find_spec

__all__ = ["EXTRAS", "MissingExtra", "require", "missing_extra_message"]

#: extra -> what it is for (the README's install section says the same)
EXTRAS = {
    "analysis": "bots, simulation, metrics, tournaments, figures, the design workshop and the "
                "sibling-game comparison",
    "notebooks": "the teaching notebooks, the widgets and the Voila dashboard",
    "test": "the test suite",
    "bench": "the benchmarks",
}


class MissingExtra(ImportError):
    """An optional dependency is not installed; the message says which extra to install."""

    def __init__(self, feature: str, extra: str, module: str):
        self.feature, self.extra, self.module = feature, extra, module
        super().__init__(missing_extra_message(feature, extra, module), name=module)


def missing_extra_message(feature: str, extra: str, module: str) -> str:
    return (f"{feature} needs the optional '{extra}' extra ({module} is not installed): "
            f"pip install 'dungeon-guilds[{extra}]'")


def require(feature: str, extra: str, *modules: str) -> None:
    """Raise :class:`MissingExtra` for the first of ``modules`` that is not installed.

    Looks the modules up without importing them (``find_spec``), so checking costs nothing and a
    module that is present is imported only where it is used."""
    for name in modules:
        try:
            found = find_spec(name) is not None
        except (ImportError, ValueError):
            found = False
        if not found:
            raise MissingExtra(feature, extra, name)
