"""Confidence intervals that need nothing but the standard library (the CLI's summary uses
them without loading pandas; :mod:`~dungeon_guilds.analysis.metrics` re-exports them)."""

from __future__ import annotations

import math

Z95 = 1.959963984540054


def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a rate ``successes / n`` (works for shared wins too)."""
    if n <= 0:
        return (float("nan"), float("nan"))
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


__all__ = ["Z95", "wilson"]
