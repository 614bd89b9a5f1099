"""A class started afresh (issue 53): the tables of earlier classes put away, nothing deleted.

``dungeon-guilds dashboard --new-class`` and ``dungeon-guilds tables --new-class`` call
:func:`put_away` on the server's tables directory before the server starts (never while one
runs on it): every table file — open, closed, moved aside as damaged — and every stored review
moves into ``earlier/<date and time>/`` of the same directory, in the same layout, so the
teacher page, its CSV and its class mistakes show only the tables opened from then on, and an
earlier class's records can still be read (or moved back by hand). Redis tables are put away by
starting on another database number (docs/school.md); this module knows only the JSON files.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

EARLIER = "earlier"
FOLDERS = ("", "closed", "damaged", "reviews")  # the table store's and the class reviews' folders


def _files(directory: Path) -> list[Path]:
    """The files of the tables directory a class leaves behind, by folder (``earlier/`` untouched)."""
    found = []
    for folder in FOLDERS:
        place = directory / folder
        if place.is_dir():
            found += sorted(p for p in place.iterdir() if p.is_file())
    return found


def put_away(directory: Path | str, now: float | None = None) -> tuple[int, Path | None]:
    """Move the earlier classes' files of ``directory`` into ``earlier/<stamp>/``.

    Returns (the number of tables put away, open and closed; the folder they went to), or
    (0, None) when there was nothing to put away. An :class:`OSError` (a read-only disk) leaves
    the files already moved in the new folder and the rest where they were: nothing is lost."""
    directory = Path(directory)
    files = _files(directory) if directory.is_dir() else []
    if not files:
        return 0, None
    stamp = time.strftime("%Y-%m-%d_%H-%M-%S", time.localtime(time.time() if now is None else now))
    target = directory / EARLIER / stamp
    while target.exists():  # two new classes within a second: the first's folder is kept whole
        target = target.with_name(target.name + "+")
    tables = 0
    for path in files:
        folder = path.parent.relative_to(directory)
        (target / folder).mkdir(parents=True, exist_ok=True)
        os.replace(path, target / folder / path.name)
        tables += path.suffix == ".json" and str(folder) in (".", "closed")
    return tables, target


__all__ = ["EARLIER", "put_away"]
