"""One moment of a round's resolution, for drawing it on the board (issue 24).

The engine resolves a round and cleans it up in the same step as the move that ends the
dispatch, so the board after that move already shows the next round. To show the resolution
*on the board*, room by room, the picture is put together from two answers of the engine:

* the dungeon as the dispatch left it (:meth:`dungeon_guilds.Game.dispatch_end`: the rooms with
  their occupants, no front revealed), and
* the round's typed resolution events (:func:`dungeon_guilds.events.resolution_events`: the
  lord's bonus, each room's outcome with its revealed front and split, the healing paid).

:func:`resolution_frame` keeps the first ``step + 1`` events — the same steps, in the same
order, as the narration (:func:`dungeon_guilds.widgets.narration.resolution_steps`) — and
:func:`dungeon_guilds.drawing.board_svg.board_svg` draws them: rooms reached so far show their
front and outcome (R5.1), the split under each token of a cleared room (R5.2), the heal cost
under each adventurer of a failed room and the rooms below it (R6.1), the seats' gold after those
events (:func:`dungeon_guilds.events.gold_after`). Nothing is decided here.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping, Sequence

from ..events import Bonus, Heal, RoomOutcome, RoomResult, gold_after, resolution, resolution_events


@dataclass(frozen=True)
class ResolutionFrame:
    """What the board shows at one step of a round's resolution."""

    round: int  # 1-based
    step: int  # 0-based index of the step shown (the narration's)
    results: Mapping[int, RoomResult]  # 0-based room index -> its outcome, for the rooms reached
    now: tuple[int, ...]  # 0-based rooms reached at this very step (drawn highlighted)
    gold: tuple[int, ...]  # each seat's gold after the steps shown
    delta: tuple[int, ...]  # what this step changed, per seat
    shares: Mapping[int, Mapping[int, int]] = field(default_factory=dict)  # room -> seat -> gold (R5.2)
    healing: frozenset[int] = frozenset()  # 0-based rooms whose adventurers pay healing (R6.1)
    kind: str = "room"  # what this step is: "bonus", "room", "heal" or "done" (no healing)
    heal_seat: int | None = None  # the seat paying at a heal step


def _reached(ev: RoomOutcome) -> list[int]:
    """The rooms (0-based) an outcome settles: the room, and for a failure every room below."""
    return [ev.room - 1] + ([r - 1 for r in ev.rooms if r != ev.room] if not ev.cleared else [])


def resolution_frame(end_state, log: Sequence[Mapping], round_no: int, step: int) -> ResolutionFrame | None:
    """The frame of step ``step`` (0-based, clamped) of round ``round_no``'s resolution, drawn on
    ``end_state`` (the dispatch's end: :meth:`Game.dispatch_end`). None if the round has not
    been resolved in ``log``."""
    events = resolution_events(log, round_no)
    results = resolution(log, round_no)
    if not events or results is None:
        return None
    step = max(0, step)
    shown = events[:step + 1]
    before = gold_after(end_state.gold, shown[:-1]) if step < len(events) else gold_after(end_state.gold, events)
    gold = gold_after(end_state.gold, shown)
    reached: dict[int, RoomResult] = {}
    now: list[int] = []
    shares: dict[int, Mapping[int, int]] = {}
    healing: set[int] = set()
    for k, ev in enumerate(shown):
        if not isinstance(ev, RoomOutcome):
            continue
        rooms = _reached(ev)
        for i in rooms:
            reached[i] = results[i]
        if ev.cleared:
            shares[ev.room - 1] = ev.shares
        else:
            healing.update(rooms)
        if k == step:
            now = rooms
    last = events[step] if step < len(events) else None
    kind = {Bonus: "bonus", RoomOutcome: "room", Heal: "heal"}.get(type(last), "done")
    return ResolutionFrame(round_no, step, reached, tuple(now), tuple(gold),
                           tuple(a - b for a, b in zip(gold, before)), shares, frozenset(healing), kind,
                           last.player if isinstance(last, Heal) else None)


__all__ = ["ResolutionFrame", "resolution_frame"]
