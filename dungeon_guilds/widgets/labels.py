"""A widget's words declared once (issue 39, item 4): a table from each control (the app's
attribute name) to its strings key, which the app's ``relabel`` walks when the language changes.
Adding a control is one line of the table; adding a language is a strings file, no widget file.

    LABELS = {"game_a": "compare.game_a",                             # description
              "gold": Words("compare.gold", range=(0, 60)),           # "Gold (0–60)"
              "hint_html": Words("effect_rooms_hint", html="<small>{}</small>"),  # an HTML's value
              "step_button.tooltip": "ui.step_tip"}                   # another trait than description
    ...
    label_all(self, LABELS, self.t)

Words that depend on the state of the moment (a title with the arm's name, a seat's number) stay
in ``relabel`` as they were.
"""

from __future__ import annotations

from dataclasses import dataclass
from html import escape
from typing import Callable, Mapping, Union

from .inputs import with_range


@dataclass(frozen=True)
class Words:
    """One control's words: the strings ``key``; ``range`` a number box's bounds shown after
    them; ``html`` for an HTML widget: its ``value`` is the escaped words inside this markup."""

    key: str
    range: tuple[int, int] | None = None
    html: str | None = None


Label = Union[str, Words]


def words_of(label: Label, say: Callable[[str], str]) -> str:
    """The text of one declared label, ``say`` giving a key's words."""
    spec = Words(label) if isinstance(label, str) else label
    text = say(spec.key)
    if spec.range is not None:
        text = with_range(text, *spec.range)
    return text if spec.html is None else spec.html.format(escape(text))


def target(owner: object, name: str, label: Label) -> tuple[object, str]:
    """(the control, the trait set): ``"control"`` sets its ``description`` (an HTML widget's
    ``value`` for a label with ``html``), ``"control.trait"`` that trait (``tooltip``,
    ``placeholder``)."""
    control, _, trait = name.partition(".")
    default = "value" if isinstance(label, Words) and label.html is not None else "description"
    return getattr(owner, control), trait or default


def label_all(owner: object, labels: Mapping[str, Label], say: Callable[[str], str]) -> None:
    """Give every control of ``labels`` (attribute names of ``owner``) its words."""
    for name, label in labels.items():
        control, trait = target(owner, name, label)
        setattr(control, trait, words_of(label, say))


def no_null_tooltips(root) -> None:
    """Every widget under ``root`` (its boxes' children, walked) without a tooltip gets an
    empty one: ipywidgets 8 writes a missing tooltip into the page as ``title="null"``, which a
    pointer shows as the word "null" (on a button, and on every described control's label)."""
    stack = [root]
    while stack:
        w = stack.pop()
        if getattr(w, "tooltip", "") is None:
            w.set_trait("tooltip", "")  # no words: not a label (tests/widgets/test_labels.py counts those)
        stack.extend(getattr(w, "children", ()) or ())


__all__ = ["Label", "Words", "label_all", "no_null_tooltips", "target", "words_of"]
