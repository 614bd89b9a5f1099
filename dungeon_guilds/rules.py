"""Rule options: one immutable value holding every option a table can switch (§7, §9, §10).

``Rules()`` is the Chinese rulebook with the six base lords. Each option is described in
``OPTIONS`` (values, default, description, source and whether it is a project ruling), which
``dungeon-guilds rules --json`` prints and the rules explorer shows.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Any, Mapping

LORDS_OPTIONS = ("none", "base", "all")
TEAM_OPTIONS = (None, "2v2", "3v3", "2v2v2")
EDITIONS = ("zh", "fr")
MIN_PLAYERS, MAX_PLAYERS = 3, 6


class RulesError(ValueError):
    """A rule option or combination of options that cannot be played. A player count the rules
    do not allow carries a ``code`` and ``params`` (see ``errors.CODES``) for translation."""

    def __init__(self, message: str, code: str | None = None, **params: Any):
        super().__init__(message)
        self.code, self.params = code, params


@dataclass(frozen=True, slots=True)
class OptionInfo:
    name: str
    values: tuple[Any, ...]
    default: Any
    description: str
    source: str
    ruling: bool


OPTIONS: tuple[OptionInfo, ...] = (
    OptionInfo(
        "lords", LORDS_OPTIONS, "base",
        "Which Dungeon Lord effects are in play: 'none' (first-game mode: lords only count "
        "rounds), 'base' (the six lords in the box), 'all' (base + the five promo lords).",
        "the Chinese rulebook (城主卡 section), docs/rules.md R1.3, R7.4", False),
    OptionInfo(
        "teams", TEAM_OPTIONS, None,
        "Team variant: '2v2' (4 players, partners opposite), '3v3' (6 players, seats alternate), "
        "'2v2v2' (6 players, partners opposite); absent for every player on their own. Team gold "
        "is summed; ties go to the team's unplayed strength.",
        "the Chinese rulebook (變體規則 組隊), docs/rules.md R10.1", False),
    OptionInfo(
        "npc", (False, True), False,
        "NPC adventurers (fewer than 6 players): one extra room a round, NPCs start in rooms 1 "
        "and 2 with strength equal to their room's level, can be replaced for $1, and take "
        "treasure shares back to the bank. Rulings: an NPC is replaced like any adventurer "
        "(strictly stronger, unlocked full room); with no free slot anywhere it leaves.",
        "the Chinese rulebook (變體規則 NPC), docs/rules.md R10.2", True),
    OptionInfo(
        "edition", EDITIONS, "zh",
        "Rules text: 'zh' the full Chinese rulebook (primary); 'fr' the short French summary, "
        "where replacing your own adventurer also needs the room to be full (R9.1). Where the "
        "French text is silent, the Chinese rules apply (R9.2-R9.5).",
        "the Chinese rulebook and the French summary, docs/rules.md §9", False),
)

# Rulings the engine always applies (shown by `dungeon-guilds rules` and the explorer).
RULINGS: tuple[tuple[str, str], ...] = (
    ("R2.4", "A lord's heal-cost modifier (the Guardian) does not change the setup gold."),
    ("R4.3", "A free slot in a locked room can still be filled by placing."),
    ("R4.5", "Replacing your own adventurer: the adventurer taken back is active again."),
    ("R4.6", "A player cannot pay more gold than they have: an action they cannot pay for is "
             "illegal."),
    ("R4.7", "A player with fewer than two adventurers placed but no legal action passes; the "
             "phase ends when no such player can act."),
    ("R4.3", "A room locks as soon as its total reaches the threshold, even with one adventurer "
             "(a 5 alone locks a Lv1 room)."),
    ("R5.3", "Treasure and defence after modifiers are never below 0."),
    ("R7.1", "A defence modifier moves the lock threshold by the same amount."),
    ("R7.2", "The Caveman acts in the start phase, and round 1 has none: as round 1's lord he "
             "changes nothing (the setup exhaust choice stands); as a later round's lord his start "
             "phase makes every strength 1–2 adventurer exhausted and every 3–5 adventurer active."),
    ("R7.3", "The Boardgame Lord pays every tied player."),
    ("R7.5", "A placement ban (the Succubus) applies to every way an adventurer enters the "
             "dungeon: place, bump and swap."),
    ("R8.1", "'Not played in the last round' means the active adventurers in hand when the last "
             "dispatch ends (one bumped back to hand counts as unplayed)."),
    ("R9.2", "FR edition: a remainder tie goes to the bank, as in the Chinese book."),
    ("R9.3", "FR edition: 'éjecter' costs what R4.4 says."),
    ("R9.5", "FR edition: where the French summary is silent (a strictly stronger adventurer to "
             "'éjecter', locking, the $0 floor of heal costs, the start-player marker, setup), the "
             "Chinese rules apply."),
    ("R10.2", "An NPC is replaced like any adventurer (strictly stronger, unlocked full room); "
              "with no free slot anywhere it leaves the dungeon."),
    ("R10.2", "NPCs pay no heal costs."),
)


@dataclass(frozen=True, slots=True)
class Rules:
    """Every rule option of a game. Immutable; use :meth:`with_options` to change one."""

    lords: str = "base"
    teams: str | None = None
    npc: bool = False
    edition: str = "zh"

    def __post_init__(self) -> None:
        if self.lords not in LORDS_OPTIONS:
            raise RulesError(f"rules.lords: expected one of {', '.join(LORDS_OPTIONS)}, got {self.lords!r}")
        if self.teams not in TEAM_OPTIONS:
            raise RulesError(f"rules.teams: expected one of 2v2, 3v3, 2v2v2 or none, got {self.teams!r}")
        if not isinstance(self.npc, bool):
            raise RulesError(f"rules.npc: expected true or false, got {self.npc!r}")
        if self.edition not in EDITIONS:
            raise RulesError(f"rules.edition: expected one of {', '.join(EDITIONS)}, got {self.edition!r}")

    # -- derived rule values the engine asks for -------------------------------------------
    @property
    def lord_effects(self) -> bool:
        return self.lords != "none"

    @property
    def swap_needs_full_room(self) -> bool:
        """R9.1: the French summary lets you replace your own adventurer only in a full room."""
        return self.edition == "fr"

    def check_players(self, n_players: int) -> None:
        """Refuse an option combination that this number of players cannot play."""
        if not MIN_PLAYERS <= n_players <= MAX_PLAYERS:
            raise RulesError(f"Dungeon Guilds is for 3-6 players, not {n_players}", "player_count",
                             players=n_players)
        need = {"2v2": 4, "3v3": 6, "2v2v2": 6}
        if self.teams is not None and n_players != need[self.teams]:
            raise RulesError(f"teams {self.teams} needs {need[self.teams]} players, not {n_players} (R10.1)",
                             "team_player_count", teams=self.teams, need=need[self.teams], players=n_players)
        if self.npc and n_players >= 6:
            raise RulesError("NPC adventurers are for games of fewer than 6 players (R10.2)",
                             "npc_player_count", players=n_players)

    def rooms_per_round(self, n_players: int) -> int:
        """R2.3 / R3.1: as many rooms a round as players; one more with NPCs (R10.2)."""
        return n_players + 1 if self.npc else n_players

    def rooms_dealt(self, n_players: int) -> int:
        """The room cards a whole game deals: one round per player (R3), each of
        :meth:`rooms_per_round` rooms."""
        return n_players * self.rooms_per_round(n_players)

    def team_of(self, n_players: int) -> tuple[int, ...] | None:
        """Team index of each seat (R10.1), or None when every player is on their own."""
        if self.teams is None:
            return None
        if self.teams == "2v2":
            return (0, 1, 0, 1)  # partners sit opposite
        if self.teams == "3v3":
            return (0, 1, 0, 1, 0, 1)  # seats alternate
        return (0, 1, 2, 0, 1, 2)  # 2v2v2: partners opposite

    def with_options(self, **changes: Any) -> "Rules":
        return replace(self, **changes)

    # -- records ---------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """Every option, explicitly (records carry all of them so replay honours them)."""
        return {f.name: getattr(self, f.name) for f in fields(self)}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any] | None) -> "Rules":
        if data is None:
            return cls()
        if not isinstance(data, Mapping):
            raise RulesError("rules: expected a table of options")
        known = {f.name for f in fields(cls)}
        for key in data:
            if key not in known:
                raise RulesError(f"rules.{key}: unknown option (known: {', '.join(sorted(known))})")
        return cls(**dict(data))


UNSTATED_FR = "unstated in FR"  # how EDITION_SILENCES marks a point the French text leaves open

# Points where the French summary is silent or agrees: shown when two editions are compared.
# Each point it leaves unstated says UNSTATED_FR (R9.2, R9.3, R9.5); R9.4 is a point it agrees on.
EDITION_SILENCES: tuple[tuple[str, str], ...] = (
    ("R9.2", "remainder on equal strengths — unstated in FR; ruling: to the bank, as in zh"),
    ("R9.3", "costs of 'éjecter' (bump) — unstated in FR; ruling: as R4.4"),
    ("R9.4", "tie-break — FR names the strongest unplayed adventurer; each player has exactly "
             "one, so it agrees with R8.1"),
    ("R9.5", "a strictly stronger adventurer to 'éjecter' (bump) — unstated in FR; ruling: "
             "required, as in zh (R4.4)"),
    ("R9.5", "locking (FR only says 'salle ouverte') — unstated in FR; ruling: a room locks as "
             "in zh (R4.3)"),
    ("R9.5", "the $0 floor of heal costs — unstated in FR; ruling: a player pays what they "
             "have, as in zh (R6.1)"),
    ("R9.5", "the start-player marker — unstated in FR; ruling: as in zh (R2.5, R6.3)"),
    ("R9.5", "setup — unstated in FR; ruling: as in zh (R2.1-R2.5)"),
)


def room_counts() -> list[int]:
    """Every number of rooms a round can have (R2.3, R10.2): 3 players to 6, or 3 to 5 with
    an NPC room, so 3 to 6 (issue 40: the Rules tab's lord explorer offered 7)."""
    return sorted({Rules(npc=npc).rooms_per_round(n) for n in range(MIN_PLAYERS, MAX_PLAYERS + 1)
                   for npc in (False, True) if not (npc and n >= MAX_PLAYERS)})


def unstated_in_fr() -> list[tuple[str, str]]:
    """The ``(R-number, point)`` of every point the French summary leaves unstated (R9.5):
    the Chinese rules apply to each."""
    return [(rule, text) for rule, text in EDITION_SILENCES if UNSTATED_FR in text]


def describe_value(option: str, value: Any) -> str:
    words = {
        ("lords", "none"): "lords only count rounds (no effects)",
        ("lords", "base"): "the six base lords' effects",
        ("lords", "all"): "base and promo lords' effects",
        ("teams", None): "no teams",
        ("npc", False): "no NPC adventurers",
        ("npc", True): "NPC adventurers (R10.2)",
        ("edition", "zh"): "the Chinese rulebook",
        ("edition", "fr"): "the French summary (R9.1: swap only in a full room)",
    }
    return words.get((option, value), f"teams {value} (R10.1)" if option == "teams" else str(value))


def differences(a: Rules, b: Rules) -> list[str]:
    """The differences between two rule sets, in words (for the rules explorer)."""
    out = []
    for info in OPTIONS:
        va, vb = getattr(a, info.name), getattr(b, info.name)
        if va != vb:
            out.append(f"{info.name}: {describe_value(info.name, va)} → {describe_value(info.name, vb)}")
    if a.edition != b.edition:
        out.append("replacing your own adventurer: "
                   + ("unlocked room" if a.edition == "zh" else "unlocked and full room")
                   + " → " + ("unlocked room" if b.edition == "zh" else "unlocked and full room")
                   + " (R9.1)")
        out += [f"{rule}: {text}" for rule, text in EDITION_SILENCES]
    return out
