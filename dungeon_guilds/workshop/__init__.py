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
``workshop.strings``               the workshop's words in English and Chinese
=================================  ==============================================================

The widgets are in ``dungeon_guilds.widgets.deck_editor``, ``.lord_builder`` and
``.ab_experiment``. Nothing here decides a rule: decks and lords are data, the engine
(:class:`~dungeon_guilds.state.State`) plays them and the simulator
(:func:`~dungeon_guilds.analysis.simulate.simulate`) collects the tables. See
``docs/workshop.md``.
"""

from ..extras import require

require("dungeon_guilds.workshop", "analysis", "pandas", "plotly")

from .ab import Arm, ABResult, compare, run_ab, verdict
from .deck_edit import DeckTable, Problem, deck_from_table, table_from_deck, table_from_text, validate
from .lord_edit import copy_of, describe_lord, make_lord, replace_in_pool
from .preview import preview_lord

__all__ = ["ABResult", "Arm", "DeckTable", "Problem", "compare", "copy_of", "deck_from_table",
           "describe_lord", "make_lord", "preview_lord", "replace_in_pool", "run_ab",
           "table_from_deck", "table_from_text", "validate", "verdict"]
