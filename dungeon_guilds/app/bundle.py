"""The files a pip-installed package carries besides its code: the lesson notebooks, the
dashboard notebook, the example records, the rules reference the notebooks link to, and
``voila.json``; a learner's copy also gets the lesson plans (package data in
``dungeon_guilds/teaching/lessons/``, copied into ``lessons/``) (standard library only; ``setup.py`` runs this file to know what to ship).

In a wheel they live under ``dungeon_guilds/bundle/`` (``setup.py`` copies them there from the
repository at build time, in the repository's layout: ``notebooks/``, ``examples/``, ``docs/``);
in a checkout or an editable install they are the repository's own files. :func:`root` says
which. :func:`copy_lessons` copies them into a learner's folder (``dungeon-guilds notebooks
DIR``) and never overwrites a file the learner changed unless told to: it remembers what it
wrote in :data:`MANIFEST` (each file's SHA-256), so a file still as it was copied is updated
and any other is the learner's.
"""

from __future__ import annotations

import hashlib
import json
import shutil
from dataclasses import dataclass, field
from pathlib import Path

#: what is shipped, relative to the repository's root: (folder, file pattern)
SHIPPED = (
    ("notebooks", "*.ipynb"),
    ("examples/records", "*.json"),
    ("docs", "*.md"),
    (".", "voila.json"),
)
#: what a learner's copy holds (not voila.json: a server setting, not a lesson)
LESSONS = tuple(entry for entry in SHIPPED if entry[0] != ".")
#: the lesson plans (package data, not the bundle: one copy, in the package) and where a
#: learner's copy puts them
LESSON_PLANS = ("teaching/lessons", "*.md")
LESSON_PLANS_DEST = "lessons"
INDEX = "notebooks/00_index.ipynb"
DASHBOARD = "notebooks/dashboard.ipynb"
VOILA_CONFIG = "voila.json"
MANIFEST = ".dungeon-guilds-copy.json"  # in a learner's copy: what was copied, and its hash
PACKAGE_DIR = Path(__file__).resolve().parent.parent  # dungeon_guilds/
BUNDLE_DIR = PACKAGE_DIR / "bundle"  # in a wheel


def shipped_files(source: Path, entries=SHIPPED) -> list[str]:
    """The shipped files under ``source`` (a repository or a bundle), as POSIX paths."""
    out = []
    for folder, pattern in entries:
        base = source / folder
        out += sorted(p.relative_to(source).as_posix() for p in base.glob(pattern) if p.is_file())
    return out


def root() -> Path:
    """Where the shipped files are: the wheel's bundle, else the repository this package sits in
    (a checkout, an editable install). FileNotFoundError if neither holds the index."""
    for candidate in (BUNDLE_DIR, PACKAGE_DIR.parent):
        if (candidate / INDEX).is_file() and (candidate / DASHBOARD).is_file():
            return candidate
    raise FileNotFoundError(f"the lesson notebooks are not installed with this package (no {BUNDLE_DIR / INDEX})")


def copy_into(source: Path, build_dir: Path) -> list[str]:
    """Copy the shipped files from a repository ``source`` into ``build_dir`` (setup.py)."""
    names = shipped_files(source)
    for name in names:
        (build_dir / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source / name, build_dir / name)
    return names


def _sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@dataclass
class CopyPlan:
    """What :func:`plan_copy` found: files to write, files already as shipped, and files the
    learner changed (or made) that a copy would overwrite."""

    write: list[str] = field(default_factory=list)
    same: list[str] = field(default_factory=list)
    edited: list[str] = field(default_factory=list)


def _read_manifest(dest: Path) -> dict[str, str]:
    try:
        data = json.loads((dest / MANIFEST).read_text("utf-8"))
        return {str(k): str(v) for k, v in data.get("files", {}).items()}
    except (OSError, ValueError, AttributeError):
        return {}


def learner_files(source: Path, package: Path = PACKAGE_DIR) -> dict[str, Path]:
    """What a learner's copy holds: its name in the copy -> the file to copy (the shipped
    lessons under ``source``, and the lesson plans from the package under ``lessons/``)."""
    files = {name: source / name for name in shipped_files(source, LESSONS)}
    folder, pattern = LESSON_PLANS
    for path in sorted((package / folder).glob(pattern)):
        files[f"{LESSON_PLANS_DEST}/{path.name}"] = path
    return files


def plan_copy(dest: Path, source: Path | None = None) -> CopyPlan:
    """Compare the lessons with ``dest``: a file missing, or still as this command last wrote
    it, is to be written; one equal to the shipped file is the same; any other is edited."""
    source = root() if source is None else source
    copied = _read_manifest(dest)
    plan = CopyPlan()
    for name, original in learner_files(source).items():
        target = dest / name
        if not target.exists():
            plan.write.append(name)
            continue
        now = _sha(target) if target.is_file() else "not a file"
        if now == _sha(original):
            plan.same.append(name)
        elif copied.get(name) == now:
            plan.write.append(name)
        else:
            plan.edited.append(name)
    return plan


def copy_lessons(dest: Path, *, force: bool = False, keep_edited: bool = False,
                 source: Path | None = None) -> CopyPlan:
    """Copy the lessons into ``dest``. Files the learner edited are overwritten with ``force``,
    left as they are with ``keep_edited``, else nothing is written and FileExistsError names
    them. Returns the plan carried out."""
    source = root() if source is None else source
    dest = Path(dest)
    if dest.exists() and not dest.is_dir():
        raise NotADirectoryError(f"{dest} is a file, not a folder")
    plan = plan_copy(dest, source)
    if plan.edited and not (force or keep_edited):
        raise FileExistsError(plan.edited)
    names = plan.write + (plan.edited if force else [])
    manifest = _read_manifest(dest)
    originals = learner_files(source)
    for name in names:
        target = dest / name
        target.parent.mkdir(parents=True, exist_ok=True)
        if target.is_dir():
            shutil.rmtree(target)
        shutil.copyfile(originals[name], target)
    for name in names + plan.same:
        manifest[name] = _sha(originals[name])
    dest.mkdir(parents=True, exist_ok=True)
    (dest / MANIFEST).write_text(json.dumps({"files": manifest}, indent=1, sort_keys=True) + "\n", "utf-8")
    return plan
