"""Numeric inputs of the apps: every numeric input says its range in its label, and a value
out of range is refused with a sentence naming the field (never moved into range); buttons as
wide as their words."""

from __future__ import annotations

import ipywidgets as W

from .. import i18n

__all__ = ["SEED_MAX", "checked_int", "fit", "signed", "with_range"]

SEED_MAX = 2**31 - 1


def fit() -> W.Layout:
    """The layout of a button as wide as its words (never cut off, never stretched)."""
    return W.Layout(width="max-content")


def with_range(label: str, low: int, high: int) -> str:
    """A numeric input's label with its range (``Games (10–20000)``): every numeric input says
    what it accepts."""
    return f"{label} ({signed(low)}–{signed(high)})"


def signed(n: int) -> str:
    """A whole number with a true minus sign (−20, not -20)."""
    return f"−{-n}" if n < 0 else str(n)


def checked_int(widget: W.Widget, low: int, high: int, field_key: str) -> int:
    """The widget's whole number if it lies in ``[low, high]``; else an
    :class:`~dungeon_guilds.i18n.Refusal` (a ``ValueError``) naming the field (strings key
    ``field_key``), the value and the range. The caller changes nothing: no value is silently
    moved into range."""
    value = widget.value
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise i18n.Refusal("ui.out_of_range", keys={"field": field_key}, value=value, low=signed(low),
                           high=signed(high))
    return int(value)
