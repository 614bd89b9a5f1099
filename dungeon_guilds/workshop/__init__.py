"""The design workshop (issue 8): change the game, play it many times, read what changed.

The Machinations loop on Dungeon Guilds — *edit, run many times, read the charts*:

=================================  ==============================================================
``workshop.deck_edit``             the deck as editable cells ↔ :class:`~dungeon_guilds.cards.Deck`;
                                   validation naming each cell; TOML/CSV in and out
``workshop.lord_edit``             lords composed from the engine's effect vocabulary (§7)
``workshop.preview``               a lord's effect on a sample dungeon, with and without it
``workshop.ab``                    A/B experiments with common random numbers; paired tests
``workshop.report``                the charts and the HTML/CSV workshop report (and reading it back)
``workshop.stats``                 the exact sign test (intervals: ``analysis.intervals``)
``workshop.challenges``            design challenges (``data/challenges.toml``): the check and its
                                   verdict, standard library only (``challenge_words``: in words)
``workshop.strings``               the workshop's words in English and Chinese
=================================  ==============================================================

The widgets are in ``dungeon_guilds.widgets.deck_editor``, ``.lord_builder`` and
``.ab_experiment``. Nothing here decides a rule: decks and lords are data, the engine
(:class:`~dungeon_guilds.state.State`) plays them and the simulator
(:func:`~dungeon_guilds.analysis.simulate.simulate`) collects the tables. See
``docs/workshop.md``.

The package's names (``from dungeon_guilds.workshop import run_ab``) need the ``analysis`` extra
and say so when it is missing; its standard-library modules (``deck_edit``, ``lord_edit``,
``stats``, ``challenges``) import without it, so the static site (no pandas) checks the design
challenges (:mod:`.challenges`).
"""

from importlib import import_module

from ..extras import require

_WHERE = {"ABResult": "ab", "Arm": "ab", "compare": "ab", "run_ab": "ab", "verdict": "ab",
          "DeckTable": "deck_edit", "Problem": "deck_edit", "deck_from_table": "deck_edit",
          "table_from_deck": "deck_edit", "table_from_text": "deck_edit", "validate": "deck_edit",
          "copy_of": "lord_edit", "describe_lord": "lord_edit", "make_lord": "lord_edit",
          "replace_in_pool": "lord_edit", "preview_lord": "preview"}


def __getattr__(name: str):
    """The package's names, imported when first asked for (PEP 562)."""
    if name not in _WHERE:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    require("dungeon_guilds.workshop", "analysis", "pandas", "plotly")
    return getattr(import_module(f".{_WHERE[name]}", __name__), name)


__all__ = sorted(_WHERE)
