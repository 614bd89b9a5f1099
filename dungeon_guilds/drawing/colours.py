"""The seats' colours: Okabe & Ito's palette, safe for the common colour-vision deficiencies;
each seat also has a pattern (``PATTERNS``) and its name on every token. The drawn board, the
notebook display and the figures (:mod:`dungeon_guilds.viz`) use the same colours."""

from __future__ import annotations

from ..payout import NPC

COLOURS = ("#E69F00", "#56B4E9", "#009E73", "#D55E00", "#0072B2", "#CC79A7")
NPC_COLOUR = "#999999"
BANK_COLOUR = "#bcbd22"
PATTERNS = ("none", "diag", "dots", "hlines", "cross", "vlines")  # one per seat (and its colour)


def colour(owner: int) -> str:
    """The colour of a seat (or the NPC)."""
    if owner == NPC:
        return NPC_COLOUR
    return COLOURS[owner % len(COLOURS)]


__all__ = ["BANK_COLOUR", "COLOURS", "NPC_COLOUR", "PATTERNS", "colour"]
