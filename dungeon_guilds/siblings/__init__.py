"""The sibling dungeon games: small, executable rule kernels and a sourced comparison.

Dungeon Guilds (地城聯盟) has three siblings in the project's source documents:

=========================  ======================  ==========================================
module                     game                    seed file (``shared/seeds/``)
=========================  ======================  ==========================================
``siblings.dungeon``       Dungeon! 勇闖地下城     ``004_f0fac3abf2440055.txt``
``siblings.dungeon_lords`` Dungeon Lords 地城領主  ``003_0132bed87dd967ab.txt`` (building phase)
``siblings.dungeon_fighter`` Dungeon Fighter 地城鬥士 ``001_4f40b683dd2e496c.txt``
=========================  ======================  ==========================================

Each kernel implements only what its seed document specifies, and every fact carries a
:class:`Source`. The convention (docs/siblings.md):

* ``seed 004 line 23`` — the 1-based line of a seed file; the source stores a *keyword* that must
  appear on that line, so a test can catch a citation that has rotted;
* ``RULES.md R4.1`` — a numbered rule of the main game's rules reference (``shared/RULES.md``);
* ``outside fact`` — something the seeds do not say (a publisher, a play time), with its origin.

This package module holds only that citation machinery (standard library only). The kernels are
standard library too; ``comparison``, ``graphs`` and ``widgets.compare`` use pandas, networkx and
plotly.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

__all__ = [
    "GAMES",
    "SEED_FILES",
    "Source",
    "cite",
    "cite_rule",
    "outside_fact",
    "rules_path",
    "seed_line",
    "seeds_dir",
    "verify_source",
]

#: seed id -> file name in ``shared/seeds/``
SEED_FILES = {
    "000": "000_ad27d07d09409525.txt",  # Dungeon Guilds, Chinese rulebook (primary)
    "001": "001_4f40b683dd2e496c.txt",  # Dungeon Fighter
    "002": "002_de4353fc8c7a159a.txt",  # Dungeon Guilds, French summary
    "003": "003_0132bed87dd967ab.txt",  # Dungeon Lords, building phase
    "004": "004_f0fac3abf2440055.txt",  # Dungeon!
}

#: game id -> (English name, Chinese name, seed id)
GAMES = {
    "dungeon_guilds": ("Dungeon Guilds", "地城聯盟", "000"),
    "dungeon": ("Dungeon!", "勇闖地下城", "004"),
    "dungeon_lords": ("Dungeon Lords", "地城領主", "003"),
    "dungeon_fighter": ("Dungeon Fighter", "地城鬥士", "001"),
}


@dataclass(frozen=True)
class Source:
    """Where a fact comes from.

    ``kind`` is ``"seed"`` (``ref`` is the seed id, ``line`` the 1-based line number),
    ``"rules"`` (``ref`` is an R-number of RULES.md) or ``"outside"`` (``origin`` says where
    the fact was found). ``keyword`` is a short exact string of the cited line (or rule)
    that :func:`verify_source` checks.
    """

    kind: str
    ref: str = ""
    line: int = 0
    keyword: str = ""
    origin: str = ""

    def __str__(self) -> str:
        if self.kind == "seed":
            return f"seed {self.ref} line {self.line}"
        if self.kind == "rules":
            return f"RULES.md {self.ref}"
        return f"outside fact ({self.origin})"

    @property
    def is_outside(self) -> bool:
        return self.kind == "outside"

    @classmethod
    def from_dict(cls, data: dict) -> "Source":
        """Read the TOML form: ``{seed, line, keyword}``, ``{rule, keyword}`` or ``{outside, origin}``."""
        if "seed" in data:
            return cite(str(data["seed"]), int(data["line"]), str(data["keyword"]))
        if "rule" in data:
            return cite_rule(str(data["rule"]), str(data["keyword"]))
        if "origin" in data:
            return outside_fact(str(data["origin"]))
        raise ValueError(f"a source needs 'seed', 'rule' or 'origin': {data!r}")


def cite(seed: str, line: int, keyword: str) -> Source:
    """A seed citation: ``cite("004", 69, "殺了你")`` reads ``seed 004 line 69``."""
    if seed not in SEED_FILES:
        raise ValueError(f"unknown seed {seed!r}")
    if line < 1:
        raise ValueError("seed lines are 1-based")
    return Source("seed", seed, line, keyword)


def cite_rule(rule: str, keyword: str) -> Source:
    """A citation of the main game's RULES.md, e.g. ``cite_rule("R4.1", "Snake order")``."""
    return Source("rules", rule, 0, keyword)


def outside_fact(origin: str) -> Source:
    """A fact that is not in the seeds, with where it was found."""
    return Source("outside", origin=origin)


def seeds_dir() -> Path:
    """The folder of seed files: ``$DUNGEON_GUILDS_SEEDS``, else ``<repo>/../shared/seeds``."""
    env = os.environ.get("DUNGEON_GUILDS_SEEDS")
    if env:
        return Path(env)
    return Path(__file__).resolve().parents[2].parent / "shared" / "seeds"


def rules_path() -> Path:
    """RULES.md: ``$DUNGEON_GUILDS_RULES``, else next to the seeds folder."""
    env = os.environ.get("DUNGEON_GUILDS_RULES")
    return Path(env) if env else seeds_dir().parent / "RULES.md"


@lru_cache(maxsize=None)
def _seed_lines(seed: str) -> tuple[str, ...]:
    return tuple((seeds_dir() / SEED_FILES[seed]).read_text(encoding="utf-8").splitlines())


def seed_line(seed: str, line: int) -> str:
    """The text of ``seed {seed} line {line}`` (1-based). Raises if the seeds are not present."""
    lines = _seed_lines(seed)
    if not 1 <= line <= len(lines):
        raise IndexError(f"seed {seed} has {len(lines)} lines, not {line}")
    return lines[line - 1]


def _rule_text(rule: str) -> str | None:
    """The paragraph of RULES.md that starts with ``- {rule} ``, up to the next rule or blank line."""
    lines = rules_path().read_text(encoding="utf-8").splitlines()
    for i, text in enumerate(lines):
        if text.startswith(f"- {rule} "):
            block = [text]
            for more in lines[i + 1 :]:
                if not more.strip() or more.startswith("- ") or more.startswith("#"):
                    break
                block.append(more)
            return " ".join(block)
    return None


def verify_source(source: Source) -> str | None:
    """``None`` if the citation holds, else what is wrong with it.

    A seed citation holds when the line exists and contains the keyword; a rules citation when
    the rule exists in RULES.md and its paragraph contains the keyword; an outside fact when
    it names an origin.
    """
    if source.kind == "seed":
        try:
            text = seed_line(source.ref, source.line)
        except IndexError as exc:
            return str(exc)
        if not source.keyword or source.keyword not in text:
            return f"{source}: keyword {source.keyword!r} not in {text!r}"
        return None
    if source.kind == "rules":
        text = _rule_text(source.ref)
        if text is None:
            return f"{source}: no such rule in RULES.md"
        if not source.keyword or source.keyword not in text:
            return f"{source}: keyword {source.keyword!r} not in the rule's text"
        return None
    if source.kind == "outside":
        return None if source.origin.strip() else "an outside fact needs an origin"
    return f"unknown source kind {source.kind!r}"
