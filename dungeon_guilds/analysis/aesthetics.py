"""Two of the "aesthetic" measures of automated game design, for one game (standard library).

Browne's Ludi (C. Browne, *Automatic Generation and Evaluation of Recombination Games*, 2008;
Browne and Maire, *Evolutionary Game Design*, 2010) scores a game by measures taken over
self-play, among them **drama** (the eventual winner comes back from behind) and
**uncertainty** (the outcome stays open until late). Both read a *state evaluation* of each
player after each move; Dungeon Guilds has an exact one at the end of every round: gold, which
decides the game (R8.1). So both are measured at the checkpoints after rounds 1 … R−1 (the
last round's end is the result itself, where drama and uncertainty are 0 by definition):

* ``drama``: the eventual winner's mean deficit, in $, to the richest player over those
  checkpoints (0 where a winner led or shared the lead). Ludii's *Drama* metric is the same
  idea: the difference between the winner's evaluation and the best evaluation of any player,
  where the winner was behind. 0: the winner was never behind; $3: on average the winner
  trailed the leader by $3 before the last round.
* ``uncertainty``: 1 minus the winner's *standing* averaged over those checkpoints; the
  standing is the winner's share of all the players' gold rescaled so that an even share
  (1/n) is 0 and holding all the gold is 1 (clipped to [0, 1]). Browne measures uncertainty
  as the area between the winner's evaluation curve and certainty; this is that area per
  checkpoint. 1: before the last round the winner never stood out; 0: the winner held every
  dollar from round 1 on.

With several winners (a shared victory, R8.1) the best-placed winner counts. A game of one
round has no checkpoint: both are 0.
"""

from __future__ import annotations

from typing import Sequence

__all__ = ["drama", "uncertainty"]


def _checkpoints(gold_after: Sequence[Sequence[float]]) -> Sequence[Sequence[float]]:
    """The players' gold after rounds 1 … R−1 (the last round's end is the result)."""
    return gold_after[:-1]


def drama(winners: Sequence[int], gold_after: Sequence[Sequence[float]]) -> float:
    """The eventual winner's mean deficit to the richest player (in $) after rounds 1 … R−1.
    ``winners``: the winning seats; ``gold_after[k]``: every seat's gold after round k+1."""
    points = _checkpoints(gold_after)
    if not points or not winners:
        return 0.0
    return sum(max(gold) - max(gold[w] for w in winners) for gold in points) / len(points)


def uncertainty(winners: Sequence[int], gold_after: Sequence[Sequence[float]]) -> float:
    """1 − the eventual winner's mean standing after rounds 1 … R−1 (module doc): 1 when the
    winner never stood out before the last round, 0 when they held all the gold."""
    points = _checkpoints(gold_after)
    if not points or not winners:
        return 0.0
    total = 0.0
    for gold in points:
        n = len(gold)
        pot = sum(gold)
        share = max(gold[w] for w in winners) / pot if pot > 0 else 1.0 / n
        total += 1.0 - min(1.0, max(0.0, (share - 1.0 / n) / (1.0 - 1.0 / n)))
    return total / len(points)
