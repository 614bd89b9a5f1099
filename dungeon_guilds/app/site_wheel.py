"""The installed package made into a wheel again (issue 40): how the static site is built
from a pip install, with no source to run ``pip wheel`` on.

The installed distribution lists its files (``RECORD``); :func:`installed_wheel` zips them back
into ``dungeon_guilds-<version>-py3-none-any.whl`` with a fresh ``RECORD`` (bytecode caches and
the installer's own notes left out). With ``bundle=False`` the notebooks and docs a pip install
carries (``dungeon_guilds/bundle/``) are left out too: the wheel the browser installs, as a
clone's ``pip wheel`` with ``DUNGEON_GUILDS_NO_BUNDLE=1`` makes it. Every entry has the same
date, so the same installed files make the same wheel, byte for byte (the site build's
environment reinstalls it only when it changed). Standard library only.
"""

from __future__ import annotations

import base64
import hashlib
import zipfile
from importlib.metadata import PackageNotFoundError, distribution
from pathlib import Path

NAME = "dungeon-guilds"
BUNDLE = "dungeon_guilds/bundle/"
# what pip writes beside an install, not part of a wheel (RECORD is written afresh)
INSTALLER_NOTES = {"RECORD", "INSTALLER", "REQUESTED", "direct_url.json"}
DATE = (2020, 1, 1, 0, 0, 0)


class NotAWheelInstall(RuntimeError):
    """The package is not installed from a wheel (an editable install, or not at all)."""


def _digest(data: bytes) -> str:
    return "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()


def installed_files(bundle: bool = True) -> tuple[str, list[tuple[str, Path]]]:
    """The installed distribution's dist-info folder name and its files (name in the wheel,
    file on disk), without caches, the installer's notes, scripts outside site-packages, and
    the bundle unless ``bundle``."""
    try:
        dist = distribution(NAME)
    except PackageNotFoundError as error:
        raise NotAWheelInstall(f"{NAME} is not installed") from error
    files = dist.files or []
    info = next((f.parts[0] for f in files if f.parts[0].endswith(".dist-info")), None)
    if info is None or not any(f.as_posix().startswith("dungeon_guilds/") for f in files):
        raise NotAWheelInstall(f"{NAME} is not installed from a wheel here (an editable install?): "
                               "build the site from its source instead (make site)")
    out = []
    for f in files:
        name = f.as_posix()
        if name.startswith("..") or "__pycache__" in f.parts or name.endswith(".pyc"):
            continue
        if f.parts[0] == info and f.name in INSTALLER_NOTES:
            continue
        if not bundle and name.startswith(BUNDLE):
            continue
        out.append((name, Path(f.locate())))
    return info, sorted(out)


def installed_wheel(dest: Path, bundle: bool = True) -> Path:
    """The installed package as a wheel in the folder ``dest``; its path."""
    info, files = installed_files(bundle)
    version = info[: -len(".dist-info")].split("-", 1)[1]
    dest.mkdir(parents=True, exist_ok=True)
    path = dest / f"dungeon_guilds-{version}-py3-none-any.whl"
    record = []
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for name, source in files:
            data = source.read_bytes()
            entry = zipfile.ZipInfo(name, DATE)
            entry.external_attr = 0o644 << 16
            z.writestr(entry, data, zipfile.ZIP_DEFLATED)
            record.append(f"{name},{_digest(data)},{len(data)}")
        record.append(f"{info}/RECORD,,")
        z.writestr(zipfile.ZipInfo(f"{info}/RECORD", DATE), "\n".join(record) + "\n", zipfile.ZIP_DEFLATED)
    return path
