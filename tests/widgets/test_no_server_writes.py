"""Issue 12 item 1: nothing a dashboard visitor does writes a file on the server.

Every tab of the dashboard is opened (and the Lab's workshop sub-tab), then every button of the
whole page is clicked — the exports and saves first (after the A/B run, so it has a report), then
every button, exports again — from an empty working directory with ``$HOME`` pointed at another empty directory.
Neither may gain or change a file; the exports must be browser downloads (``data:`` links)."""

from __future__ import annotations

import re
from pathlib import Path

import ipywidgets as W

from dungeon_guilds.app.dashboard import TABS, Dashboard

EXPORT = re.compile(r"export|save|download")


def files(root: Path) -> dict[str, tuple[int, int]]:
    """Every file under ``root``: its size and modification time (ns)."""
    return {str(p.relative_to(root)): (p.stat().st_size, p.stat().st_mtime_ns)
            for p in root.rglob("*") if p.is_file() or p.is_symlink()}


def walk(widget) -> list[W.Widget]:
    out, todo, seen = [], [widget], set()
    while todo:
        w = todo.pop()
        if id(w) in seen:
            continue
        seen.add(id(w))
        out.append(w)
        for name in ("children", "center", "header", "footer", "left_sidebar", "right_sidebar"):
            value = getattr(w, name, None)
            if isinstance(value, W.Widget):
                todo.append(value)
            elif isinstance(value, (tuple, list)):
                todo.extend(v for v in value if isinstance(v, W.Widget))
    return out


def buttons(widget) -> list[W.Button]:
    return [w for w in walk(widget) if isinstance(w, W.Button)]


def is_export(button: W.Button) -> bool:
    return any(EXPORT.search(c) for c in button._dom_classes)


def test_every_button_of_every_tab_writes_nothing_on_the_server(tmp_path, monkeypatch):
    work, home = tmp_path / "work", tmp_path / "home"
    work.mkdir(), home.mkdir()
    monkeypatch.chdir(work)
    monkeypatch.setenv("HOME", str(home))
    before = {"work": files(work), "home": files(home)}

    d = Dashboard(lab={"games": 20})
    for name in TABS:
        d.select_tab(name)
    d.lab_tabs.selected_index = 1  # the design workshop
    ab = d.workshop.ab_experiment
    ab.games_input.value = 10
    ab.draw = False
    every = buttons(d)
    exports = [b for b in every if is_export(b)]
    ab.run_button.click()  # something to export
    for button in exports:  # the exports of the starting decks, lords and the A/B run
        button.click()
    deck = d.workshop.deck_editor
    downloads = (ab.download_html.value, deck.download_html.value)
    for button in [b for b in every if not is_export(b)] + exports:  # then everything, once more
        button.click()

    kinds = {c for b in exports for c in b._dom_classes}
    assert {"dg-ab-export", "dg-export", "dg-lord-save"} <= kinds, kinds
    assert len(every) >= 20
    assert ab.result is not None, ab.message_text
    assert downloads[0].count('href="data:') == 3, ab.message_text
    assert downloads[1].count('href="data:') == 1, deck.message_text
    assert not any(isinstance(w, W.Text) and "folder" in (w.description or "").lower() for w in walk(d))
    assert {"work": files(work), "home": files(home)} == before
