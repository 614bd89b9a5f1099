"""Issue 24, item 9: every control of every explorer changes what the screen shows, and no
explorer opens on an error. A default that errors or a control that changes nothing teaches
nothing (the rules explorer's rule set B and a Dungeon Fighter control left the screen
identical).

Each explorer is built with its defaults; each of its controls (dropdowns, sliders, number
boxes, check boxes, toggle buttons) is set to another value in turn; what the screen shows
(every HTML text, every output — figures included — every label and option) must differ from
before. A control whose effect waits for a button says so on the screen (that counts)."""

from __future__ import annotations

import json

import pytest

W = pytest.importorskip("ipywidgets")

CONTROL_TYPES = (W.Dropdown, W.IntSlider, W.FloatSlider, W.IntText, W.BoundedIntText, W.Checkbox,
                 W.ToggleButtons, W.RadioButtons, W.SelectionSlider)


def walk(widget, skip=()):
    if widget in skip:
        return
    yield widget
    for child in getattr(widget, "children", ()) or ():
        yield from walk(child, skip)


def screen(app, exclude) -> str:
    """Everything the app shows but the control ``exclude`` itself."""
    parts = []
    for w in walk(app):
        if w is exclude:
            continue
        if isinstance(w, (W.HTML, W.HTMLMath, W.Label)):
            parts.append(w.value)
        if isinstance(w, W.Output):
            parts.append(json.dumps(w.outputs, sort_keys=True, default=str))
        if isinstance(w, W.Button):
            parts.append(repr((w.description, w.disabled, w.tooltip)))
        if isinstance(w, CONTROL_TYPES):
            parts.append(repr((getattr(w, "description", ""), getattr(w, "_options_labels", ()),
                               getattr(w, "disabled", None), getattr(w, "max", None))))
        if getattr(w, "layout", None) is not None:
            parts.append(str(w.layout.display))
    return "\n".join(parts)


def other_value(control):
    if isinstance(control, W.Checkbox):
        return not control.value
    if hasattr(control, "options") and not isinstance(control, (W.IntSlider, W.FloatSlider)):
        values = [v for _, v in control._options_items] if hasattr(control, "_options_items") else list(control.options)
        values = [v[1] if isinstance(v, tuple) else v for v in values]
        others = [v for v in values if v != control.value]
        return others[len(others) // 2] if others else control.value
    step = getattr(control, "step", 1) or 1
    hi = getattr(control, "max", control.value + step)
    return control.value + step if control.value + step <= hi else control.value - step


def controls(app):
    toggle = getattr(app, "language_toggle", None)
    return [w for w in walk(app, skip=(toggle,) if toggle is not None else ()) if isinstance(w, CONTROL_TYPES)
            and not w.disabled and getattr(w, "layout", None) is not None and w.layout.display != "none"]


def dead_controls(app) -> list[str]:
    dead = []
    for control in controls(app):
        before = screen(app, control)
        old = control.value
        control.value = other_value(control)
        if control.value == old:
            continue
        if screen(app, control) == before:
            dead.append(f"{type(control).__name__} {control.description!r} ({old!r} → {control.value!r})")
        control.value = old  # one control at a time, from the defaults
    return dead


def explorers():
    from dungeon_guilds.widgets.compare import CompareExplorer
    from dungeon_guilds.widgets.explorers import PayoutExplorer, TurnOrderExplorer
    from dungeon_guilds.widgets.rules_explorer import RulesExplorer

    return {"payout": PayoutExplorer, "turn_order": TurnOrderExplorer, "rules": RulesExplorer,
            "compare": CompareExplorer}


def test_the_check_finds_a_control_that_changes_nothing():
    box = W.VBox([W.Dropdown(options=[1, 2, 3], value=1), W.HTML("same")])
    assert dead_controls(box)


@pytest.mark.parametrize("name", sorted(explorers()))
def test_every_control_of_every_explorer_changes_the_view(name):
    app = explorers()[name]()
    assert getattr(app, "last_error", None) is None
    level = getattr(app, "message_level", "info")
    assert level not in ("warn", "error"), f"{name} opens on a warning: {getattr(app, 'message_text', '')}"
    assert controls(app), f"{name}: no controls found"
    dead = dead_controls(app)
    assert not dead, f"{name}: these controls change nothing on the screen: {dead}"
