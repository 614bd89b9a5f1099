"""Read the engine's event log into plain data for the figures and the board (no plotly here),
and name the words of each kind of event.

:data:`KINDS` is the one place per event kind: the fields the engine writes (``State._ev``), the
rule it records, its words (the templates ``event.<key>`` in ``strings/<lang>/events.toml``) and
how the event's fields fill them; :func:`dungeon_guilds.i18n.event_text` says them. A new kind
is a row there, its ``_ev`` call and its words in each language (tests/test_event_kinds.py
checks all three).

Core: the notebook display (:mod:`dungeon_guilds.drawing.display`) and the figures
(:mod:`dungeon_guilds.viz`) both read the log through this module.

Everything below *reads* what the engine wrote (``State.log``); nothing decides a rule. The
turn timeline relies on one fact of the engine's log: during dispatch every turn of the snake
writes exactly one event, ``placed``, ``bumped``, ``swapped`` or ``passed`` (with the engine's
reason), in turn order; the seat of each turn is the event's ``player``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import islice
from typing import Any, Callable, Iterable, Mapping, NamedTuple, Protocol, Sequence

from .payout import NPC

BANK = "bank"
TURN_KINDS = ("placed", "bumped", "swapped", "passed")
# Turn statuses shown on the timeline
ACTED, AGAIN, PASSED_FULL, PASSED_STUCK = "acted", "again", "passed_full", "passed_stuck"
STATUSES = (ACTED, AGAIN, PASSED_FULL, PASSED_STUCK)
# Money-flow kinds: bank -> player, player -> bank, player -> player
IN_KINDS = ("setup", "exhaust", "treasure", "bonus")
OUT_KINDS = ("bump_fee", "swap_fee", "heal")
FLOW_KINDS = IN_KINDS + OUT_KINDS + ("compensation",)


def state_and_log(obj) -> tuple[Any, list[dict]]:
    """(engine state, event log) of a :class:`Game` or a :class:`State` (log may be off)."""
    state = getattr(obj, "state", obj)
    log = getattr(obj, "log", None)
    if log is None:
        log = state.log or []
    return state, log


def n_players(log: Sequence[Mapping[str, Any]], default: int = 0) -> int:
    for ev in log:
        if ev.get("kind") == "setup":
            return len(ev.get("players", ()))
    return default


def rounds_seen(log: Sequence[Mapping[str, Any]]) -> list[int]:
    """The rounds (1-based) whose rooms have been dealt, in order."""
    return [ev["round"] for ev in log if ev.get("kind") == "dealt"]


def current_round(log: Sequence[Mapping[str, Any]]) -> int:
    seen = rounds_seen(log)
    return seen[-1] if seen else 1


# ---------------------------------------------------------------------- the kinds of event
class Say(Protocol):
    """What an event's words need, given by :func:`dungeon_guilds.i18n.event_text` (in one
    language, with the seats' names)."""

    secret_exhaust: bool  # another player's setup exhaust is secret (R2.4)

    def who(self, seat: int) -> str: ...  # a seat's name (the NPC's word for NPC)

    def list(self, values: Iterable[Any]) -> str: ...  # i18n.join_list

    def lord(self, lord: str) -> str: ...

    def reason(self, code: str) -> str: ...  # a pass's reason (R4.2, R4.7)

    def share(self, seat: int | None, gold: int) -> str: ...  # "name $gold" (None: the bank)


Words = Callable[[Mapping[str, Any], Say], "tuple[str, dict[str, Any]]"]


def _as_logged(ev: Mapping[str, Any], say: Say) -> tuple[str, dict[str, Any]]:
    """Most kinds: the template ``event.<kind>`` with the event's fields, the player named."""
    values = dict(ev)
    if "player" in values:
        values["player"] = say.who(values["player"])
    return str(ev["kind"]), values


def _setup(ev, say):
    return "setup", {"players": say.list(ev.get("players", ())), "gold": ev.get("gold", 0)}


def _dealt(ev, say):  # with lord effects off the lord only counts the round (R7.4)
    return ("dealt" if ev.get("effects", True) else "dealt_no_effects",
            {"round": ev.get("round"), "levels": say.list(ev.get("levels", ())),
             "lord": say.lord(ev.get("lord", "?"))})


def _exhausted(ev, say):
    return ("exhausted_secret" if say.secret_exhaust else "exhausted",
            {"player": say.who(ev["player"]), "strengths": say.list(ev.get("strengths", ())), "gold": ev.get("gold", 0)})


def _bumped(ev, say):
    _, values = _as_logged(ev, say)
    values["victim"] = say.who(ev.get("victim"))
    return ("bumped_npc" if ev.get("victim") == NPC else "bumped"), values


def _passed(ev, say):
    return "passed", {"player": say.who(ev["player"]), "reason": say.reason(ev.get("code", ""))}


def _flipped(ev, say):
    return "flipped", {"lord": say.lord(ev.get("lord", "?")),
                       "exhausted": say.list(ev.get("exhausted", ())), "activated": say.list(ev.get("activated", ()))}


def _revealed(ev, say):  # the printed front, then the lord's when it changed them (§7)
    changed = (ev.get("defence_now", ev.get("defence")) != ev.get("defence")
               or ev.get("treasure_now", ev.get("treasure")) != ev.get("treasure"))
    return ("revealed_lord" if changed else "revealed"), dict(ev)


def _cleared(ev, say):
    parts = [say.share(int(p), g) for p, g in ev.get("shares", {}).items()]
    if ev.get("to_bank"):
        parts.append(say.share(None, ev["to_bank"]))
    return "cleared", {"room": ev["room"], "total": ev["total"], "defence": ev["defence"],
                       "treasure": ev["treasure"], "shares": say.list(parts) or "—"}


def _failed(ev, say):
    return "failed", {"room": ev["room"], "total": ev["total"], "defence": ev["defence"],
                      "rooms": say.list(ev.get("rooms", ()))}


def _marker_passed(ev, say):
    return "marker_passed", {"player": say.who(ev.get("start", -1))}


def _game_over(ev, say):
    return "game_over", {"gold": say.list(f"{say.who(p)} ${g}" for p, g in enumerate(ev.get("gold", ())))}


@dataclass(frozen=True)
class EventKind:
    """One kind of event the engine logs: the fields ``State._ev`` writes besides ``kind`` and
    ``round``, the rule it records, the keys of its words (``event.<key>``; the first is the
    usual one, the others its variants), how its fields fill them, and for a step of the round's
    resolution its typed value (:func:`resolution_events`; the round story, ``narration``, words
    each step: ``Bonus`` as its event, a room and healing in ``strings/<lang>/narration.toml``)."""

    fields: tuple[str, ...]
    rule: str
    keys: tuple[str, ...]
    words: Words = _as_logged
    step: Callable[[Mapping[str, Any], "Mapping[str, Any] | None"], Any] | None = None


_SLOT = ("player", "strength", "room", "slot")
KINDS: dict[str, EventKind] = {
    "setup": EventKind(("players", "start", "gold"), "R2.1", ("setup",), _setup),
    "exhausted": EventKind(("player", "strengths", "gold"), "R2.4", ("exhausted", "exhausted_secret"), _exhausted),
    "dealt": EventKind(("levels", "lord", "start", "effects"), "R3.1", ("dealt", "dealt_no_effects"), _dealt),
    "flipped": EventKind(("lord", "exhausted", "activated"), "R7.2", ("flipped",), _flipped),
    "npc_placed": EventKind(("room", "strength"), "R10.2", ("npc_placed",)),
    "placed": EventKind(_SLOT, "R4.3", ("placed",)),
    "bumped": EventKind(_SLOT + ("victim", "victim_strength", "fee_bank", "fee_victim"), "R4.4",
                        ("bumped", "bumped_npc"), _bumped),
    "swapped": EventKind(_SLOT + ("returned", "fee_bank"), "R4.5", ("swapped",)),
    "npc_moved": EventKind(("from_room", "to_room", "strength"), "R10.2", ("npc_moved",)),
    "npc_left": EventKind(("from_room",), "R10.2", ("npc_left",)),
    "locked": EventKind(("room", "total", "threshold"), "R4.3", ("locked",)),
    "passed": EventKind(("player", "code", "reason"), "R4.2, R4.7", ("passed",), _passed),
    "bonus": EventKind(("player", "gold", "total"), "R7.3", ("bonus",),
                       step=lambda ev, rev: Bonus(ev["player"], ev["gold"], ev.get("total", 0))),
    "revealed": EventKind(("room", "defence", "treasure", "defence_now", "treasure_now"), "R5.1",
                          ("revealed", "revealed_lord"), _revealed),
    "cleared": EventKind(("room", "total", "defence", "treasure", "shares", "to_bank", "occupants"), "R5.2",
                         ("cleared",), _cleared, step=lambda ev, rev: _outcome(ev, rev)),
    "failed": EventKind(("room", "total", "defence", "rooms", "occupants"), "R5.1", ("failed",), _failed,
                        step=lambda ev, rev: _outcome(ev, rev)),
    "healed": EventKind(("player", "cost", "paid"), "R6.1", ("healed",),
                        step=lambda ev, rev: Heal(ev["player"], ev["cost"], ev["paid"])),
    "marker_passed": EventKind(("start",), "R6.3", ("marker_passed",), _marker_passed),
    "game_over": EventKind(("gold",), "R8.1", ("game_over",), _game_over),
}


# ---------------------------------------------------------------------- the turn timeline
@dataclass(frozen=True)
class Turn:
    """One turn of the dispatch snake, as the engine logged it."""

    position: int  # 0-based position in the round's snake (the engine's ``pos``)
    seat: int
    status: str  # ACTED, AGAIN, PASSED_FULL or PASSED_STUCK
    kind: str  # the log event: placed, bumped, swapped or passed
    event_index: int  # index of the event in the log
    event: Mapping[str, Any] = field(compare=False, repr=False)

    @property
    def acted(self) -> bool:
        return self.kind != "passed"


def round_start(log: Sequence[Mapping[str, Any]], round_no: int) -> int | None:
    """The start player of a round, from the engine's ``dealt`` event."""
    for ev in log:
        if ev.get("kind") == "dealt" and ev.get("round") == round_no:
            return ev.get("start")
    return None


def turns(log: Sequence[Mapping[str, Any]], round_no: int | None = None) -> list[Turn]:
    """The dispatch turns of a round (default: the latest dealt round), in snake order.

    A turn is *again* when the player enters the dungeon (place or bump) for the third time or
    more this round: they act only because one of their adventurers was bumped (R4.2).
    A pass carries the engine's reason: two adventurers placed (R4.2) or no legal action (R4.7).
    """
    if round_no is None:
        round_no = current_round(log)
    out: list[Turn] = []
    entered: dict[int, int] = {}
    for i, ev in enumerate(log):
        kind = ev.get("kind")
        if kind not in TURN_KINDS or ev.get("round") != round_no:
            continue
        seat = ev["player"]
        if kind == "passed":
            status = PASSED_FULL if ev.get("code") == "two_placed" else PASSED_STUCK  # R4.2 / R4.7
        elif kind == "swapped":
            status = ACTED
        else:
            before = entered.get(seat, 0)
            entered[seat] = before + 1
            status = AGAIN if before >= 2 else ACTED
        out.append(Turn(len(out), seat, status, kind, i, ev))
    return out


def transitions(turn_list: Sequence[Turn]) -> list[tuple[int, int]]:
    """Consecutive (seat, next seat) pairs of a timeline."""
    return [(a.seat, b.seat) for a, b in zip(turn_list, turn_list[1:])]


# ---------------------------------------------------------------------- money
@dataclass(frozen=True)
class Flow:
    """Gold moving between the bank (``BANK``) and players (seats), from one log event."""

    source: int | str
    target: int | str
    kind: str
    amount: int
    round: int
    event_index: int


def money_flows(log: Sequence[Mapping[str, Any]], round_no: int | None = None) -> list[Flow]:
    """Every movement of gold the engine logged (of one round, or of the whole log).

    bank → player: setup gold (R2.1), exhaust gold (R2.4), treasure shares (R5.2), lord bonus
    (§7); player → bank: bump fees (R4.4, R10.2), swap fees (R4.5), heal costs paid (R6.1);
    player → player: the Lv2/Lv3 bump compensation (R4.4). Remainders left in the bank move
    nothing and are not flows.
    """
    out: list[Flow] = []

    def add(src, dst, kind, amount, ev, i):
        if amount:
            out.append(Flow(src, dst, kind, int(amount), ev.get("round", 0), i))

    for i, ev in enumerate(log):
        if round_no is not None and ev.get("round") != round_no:
            continue
        kind = ev.get("kind")
        if kind == "setup":
            for p in range(len(ev.get("players", ()))):
                add(BANK, p, "setup", ev.get("gold", 0), ev, i)
        elif kind == "exhausted":
            add(BANK, ev["player"], "exhaust", ev.get("gold", 0), ev, i)
        elif kind == "bumped":
            add(ev["player"], BANK, "bump_fee", ev.get("fee_bank", 0), ev, i)
            if ev.get("victim", NPC) >= 0:
                add(ev["player"], ev["victim"], "compensation", ev.get("fee_victim", 0), ev, i)
        elif kind == "swapped":
            add(ev["player"], BANK, "swap_fee", ev.get("fee_bank", 0), ev, i)
        elif kind == "bonus":
            add(BANK, ev["player"], "bonus", ev.get("gold", 0), ev, i)
        elif kind == "cleared":
            for p, amount in ev.get("shares", {}).items():
                add(BANK, int(p), "treasure", amount, ev, i)
        elif kind == "healed":
            add(ev["player"], BANK, "heal", ev.get("paid", 0), ev, i)
    return out


def net_by_player(flows: Iterable[Flow], n: int) -> list[int]:
    """Gold in minus gold out, per seat."""
    net = [0] * n
    for f in flows:
        if isinstance(f.target, int):
            net[f.target] += f.amount
        if isinstance(f.source, int):
            net[f.source] -= f.amount
    return net


def gold_series(log: Sequence[Mapping[str, Any]], n: int | None = None) -> tuple[list[int], list[list[int]]]:
    """Each player's gold after every log event: ``(event indices, [gold per seat per event])``,
    accumulated from :func:`money_flows` (so it ends at the engine's final gold)."""
    n = n if n is not None else n_players(log)
    by_event: dict[int, list[Flow]] = {}
    for f in money_flows(log):
        by_event.setdefault(f.event_index, []).append(f)
    gold = [0] * n
    xs: list[int] = []
    ys: list[list[int]] = [[] for _ in range(n)]
    for i in range(len(log)):
        for f in by_event.get(i, ()):
            if isinstance(f.target, int):
                gold[f.target] += f.amount
            if isinstance(f.source, int):
                gold[f.source] -= f.amount
        xs.append(i)
        for p in range(n):
            ys[p].append(gold[p])
    return xs, ys


# ---------------------------------------------------------------------- resolution results
@dataclass(frozen=True)
class RoomResult:
    room: int  # 1-based
    status: str  # "cleared", "failed" or "not_reached"
    defence: int | None = None  # printed front (revealed), None when not revealed
    treasure: int | None = None
    shares: Mapping[str, int] | None = None
    to_bank: int = 0
    total: int | None = None
    effective_defence: int | None = None
    effective_treasure: int | None = None


def resolution(log: Sequence[Mapping[str, Any]], round_no: int) -> list[RoomResult] | None:
    """What the engine's resolution of ``round_no`` revealed, room by room (None if that round
    has not been resolved). Rooms below a failed room stay face down (R5.1)."""
    levels: list[int] | None = None
    revealed: dict[int, Mapping[str, Any]] = {}
    outcome: dict[int, Mapping[str, Any]] = {}
    resolved = False
    for ev in log:
        if ev.get("round") != round_no:
            continue
        kind = ev.get("kind")
        if kind == "dealt":
            levels = list(ev.get("levels", ()))
        elif kind == "revealed":
            revealed[ev["room"]] = ev
            resolved = True
        elif kind in ("cleared", "failed"):
            outcome[ev["room"]] = ev
    if not resolved or levels is None:
        return None
    out = []
    for r in range(1, len(levels) + 1):
        rev = revealed.get(r)
        res = outcome.get(r)
        if res is not None and res.get("kind") == "cleared":
            out.append(RoomResult(r, "cleared", rev["defence"], rev["treasure"], res.get("shares", {}),
                                  res.get("to_bank", 0), res.get("total"), res.get("defence"),
                                  res.get("treasure")))
        elif res is not None:
            out.append(RoomResult(r, "failed", rev["defence"], rev["treasure"], None, 0,
                                  res.get("total"), res.get("defence")))
        else:  # below a failed room, or never reached: face down (R5.1)
            out.append(RoomResult(r, "not_reached"))
    return out


# ---------------------------------------------------------------------- typed events
class LogEntry(NamedTuple):
    """One event of the log as a round log lists it (its words: ``i18n.event_text(event)``); a
    named tuple: the round logs list every event on every redraw."""

    index: int
    round: int
    kind: str
    player: int | None
    event: Mapping[str, Any]

    def hidden_from(self, seat: int | None) -> bool:
        """Whether ``seat`` may not see it: another player's secret exhaust choice (R2.4)."""
        return seat is not None and self.kind == "exhausted" and self.player != seat


def entries(log: Sequence[Mapping[str, Any]], start: int = 0) -> list[LogEntry]:
    """The log's events from ``start`` on, typed for listing (built as plain tuples: the round
    logs list the whole log on every redraw)."""
    new = tuple.__new__
    return [new(LogEntry, (i, ev.get("round", 1), str(ev.get("kind")), ev.get("player"), ev))
            for i, ev in enumerate(islice(log, start, None), start)]


@dataclass(frozen=True)
class Bonus:
    """A lord's bonus as resolution starts (R7.3): ``gold`` to ``player`` with ``total``."""

    player: int
    gold: int
    total: int


@dataclass(frozen=True)
class Heal:
    """Healing at cleanup (R6.1): what ``player`` owed and paid (never below $0)."""

    player: int
    cost: int
    paid: int

    @property
    def dropped(self) -> int:
        return self.cost - self.paid


@dataclass(frozen=True)
class RoomOutcome:
    """A room resolved (R5.1, R5.2): the printed front, the numbers used (the lord's changes
    in), who was in it, and for a cleared room the shares (by seat) and the remainder; for a
    failed room, ``rooms`` is it and every room below it."""

    room: int  # 1-based
    cleared: bool
    total: int
    defence: int  # used
    treasure: int  # used (0 for a failed room)
    printed_defence: int | None
    printed_treasure: int | None
    occupants: tuple[tuple[int, int], ...]
    shares: Mapping[int, int]
    to_bank: int = 0
    rooms: tuple[int, ...] = ()


@dataclass(frozen=True)
class NpcMove:
    """An NPC moved down (or out of the dungeon, ``to_room`` None) when replaced (R4.6)."""

    from_room: int
    to_room: int | None
    strength: int | None


def _outcome(ev: Mapping[str, Any], rev: Mapping[str, Any] | None) -> RoomOutcome:
    cleared = ev["kind"] == "cleared"
    return RoomOutcome(ev["room"], cleared, ev["total"], ev["defence"], ev.get("treasure", 0),
                       rev["defence"] if rev else None, rev["treasure"] if rev else None,
                       tuple((int(o), int(s)) for o, s in ev.get("occupants", ())),
                       {int(p): g for p, g in ev.get("shares", {}).items()}, ev.get("to_bank", 0),
                       tuple(ev.get("rooms", ())))


def resolution_events(log: Sequence[Mapping[str, Any]],
                      round_no: int | None = None) -> list[Bonus | RoomOutcome | Heal]:
    """A round's resolution and cleanup in the order the engine logged them (bonuses, each
    room's outcome with its revealed front, healing), of one round or of the whole log (such as
    :meth:`State.preview_resolution`'s events)."""
    out: list[Bonus | RoomOutcome | Heal] = []
    revealed: dict[int, Mapping[str, Any]] = {}
    for ev in log:
        if round_no is not None and ev.get("round") != round_no:
            continue
        kind = ev.get("kind")
        if kind == "revealed":
            revealed[ev["room"]] = ev
        elif kind in KINDS and KINDS[kind].step is not None:  # bonus, cleared, failed, healed
            out.append(KINDS[kind].step(ev, revealed.get(ev.get("room"))))
    return out


def gold_after(gold: Sequence[int], steps: Iterable[Bonus | RoomOutcome | Heal]) -> list[int]:
    """Each seat's gold after the resolution events ``steps`` (from :func:`resolution_events`),
    starting from ``gold`` at the end of dispatch: the engine's logged amounts added up (a
    bonus and treasure shares in, healing paid out; R7.3, R5.2, R6.1), nothing worked out anew."""
    out = list(gold)
    for ev in steps:
        if isinstance(ev, Bonus):
            out[ev.player] += ev.gold
        elif isinstance(ev, RoomOutcome):
            for p, g in ev.shares.items():
                out[p] += g
        else:
            out[ev.player] -= ev.paid
    return out


def resolution_start(log: Sequence[Mapping[str, Any]], round_no: int) -> int | None:
    """The index in the log of the first event of round ``round_no``'s resolution (the lord's
    bonus or the top room revealed; R7.3, R5.1), None if that round has not been resolved."""
    return next((i for i, ev in enumerate(log) if ev.get("round") == round_no
                 and ev.get("kind") in ("bonus", "revealed")), None)


def resolved_rounds(log: Sequence[Mapping[str, Any]]) -> list[int]:
    """The rounds (1-based) whose dungeon has been resolved."""
    return sorted({ev["round"] for ev in log if ev.get("kind") == "revealed"})


def dealt_levels(log: Sequence[Mapping[str, Any]], round_no: int) -> list[int]:
    """The levels of the rooms dealt in ``round_no`` (R3.1), top room first."""
    return next((list(ev.get("levels", ())) for ev in log
                 if ev.get("kind") == "dealt" and ev.get("round") == round_no), [])


def npc_moves(log: Sequence[Mapping[str, Any]]) -> list[NpcMove]:
    """The NPCs moved down or out of the dungeon (R4.6), in order."""
    return [NpcMove(ev["from_room"], ev.get("to_room"), ev.get("strength")) for ev in log
            if ev.get("kind") in ("npc_moved", "npc_left")]



def rooms_round(state) -> int:
    """The round (1-based) of the rooms now on the table: after the last cleanup the finished
    round's rooms stay; otherwise they are the current round's."""
    return state.round if state.phase == "over" else state.round + 1


__all__ = [
    "ACTED", "AGAIN", "BANK", "Bonus", "EventKind", "FLOW_KINDS", "Flow", "Heal", "IN_KINDS", "KINDS", "LogEntry",
    "NpcMove", "OUT_KINDS", "PASSED_FULL", "PASSED_STUCK", "RoomOutcome", "RoomResult", "STATUSES",
    "Say", "Turn", "current_round", "dealt_levels", "entries", "gold_after", "gold_series", "money_flows", "n_players",
    "net_by_player", "npc_moves", "resolution", "resolution_events", "resolution_start", "resolved_rounds",
    "round_start", "rooms_round", "rounds_seen", "state_and_log", "transitions", "turns",
]
