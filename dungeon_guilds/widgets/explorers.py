"""Two small explorers.

* :class:`PayoutExplorer` — pick two adventurers (owner, strength), the card's treasure, a lord
  and the room's position; see how the engine splits it (R5.2, R10.2, §7).
* :class:`TurnOrderExplorer` — pick the players, the start player and some bumps; see the
  order of turns that results (R4.1, R4.2). The order is the engine's: the explorer plays a
  scenario on a real engine game (see :func:`bump_scenario`) and reads its log.
"""

from __future__ import annotations

from html import escape
from typing import Sequence

import ipywidgets as W

from .. import i18n
from ..actions import BUMP, PLACE, Action
from ..cards import STRENGTHS, RoomCard
from ..events import turns
from ..game import DEFAULT_NAMES, Game
from ..lords import ALL_LORDS, BASE_LORDS
from ..payout import NPC
from ..rules import Rules, room_counts
from ..turn_order import snake_order
from .common import NONE, App, safe, set_options
from .figures import show_figure
from .inputs import checked_int
from .labels import Words, label_all

# ---------------------------------------------------------------------- payout explorer
PAYOUT_NAMES = ("Ann", "Bo", "Cy")
BUMP_TURNS = (1, 60)  # the turn of a bump in the turn-order explorer


class PayoutExplorer(App):
    """Main sub-widgets: ``owner_a``, ``strength_a``, ``owner_b``, ``strength_b`` (owner: a
    seat or ``NPC``), ``treasure_slider``, ``lord_dropdown`` (``"none"`` = no lord),
    ``rooms_dropdown``, ``position_dropdown``; ``result_html``, ``figure_output`` (``figure``
    is the last figure, ``case`` the engine's :class:`~dungeon_guilds.viz.PayoutCase`),
    ``message``, ``language_toggle``."""

    css_class = "dg-payout-explorer"
    # every control's words (labels.py)
    LABELS = {"owner_a": "ui.owner_a", "owner_b": "ui.owner_b", "strength_a": "ui.strength",
              "strength_b": "ui.strength", "treasure_slider": "ui.treasure", "lord_dropdown": "ui.lord",
              "rooms_dropdown": "ui.rooms_count", "position_dropdown": "ui.position"}

    def __init__(self, treasure: int = 5, a: tuple[int, int] = (0, 3), b: tuple[int, int] = (1, 2),
                 lord: str | None = None, position: int = 1, rooms: int = 3,
                 names: Sequence[str] = PAYOUT_NAMES, lang: str = "en", lang_state=None,
                 show_language: bool = True):
        super().__init__(lang=lang, lang_state=lang_state, show_language=show_language)
        self.names = list(names)
        self.case = None
        self.figure = None
        owners = self._owner_options()
        self.owner_a = W.Dropdown(options=owners, value=a[0]).add_class("dg-owner-a")
        self.strength_a = W.Dropdown(options=list(STRENGTHS), value=a[1]).add_class("dg-strength-a")
        self.owner_b = W.Dropdown(options=owners, value=b[0]).add_class("dg-owner-b")
        self.strength_b = W.Dropdown(options=list(STRENGTHS), value=b[1]).add_class("dg-strength-b")
        self.treasure_slider = W.IntSlider(min=0, max=22, value=treasure).add_class("dg-treasure")
        self.lord_dropdown = W.Dropdown(options=self._lord_options(), value=lord or NONE).add_class("dg-lord-pick")
        self.rooms_dropdown = W.Dropdown(options=room_counts(), value=rooms).add_class("dg-rooms-count")
        self.position_dropdown = W.Dropdown(options=list(range(1, rooms + 1)), value=position).add_class("dg-position")
        self.result_html = W.HTML().add_class("dg-payout-result")
        self.figure_output = W.Output().add_class("dg-payout-figure")
        for w in (self.owner_a, self.strength_a, self.owner_b, self.strength_b, self.treasure_slider,
                  self.lord_dropdown, self.position_dropdown):
            w.observe(self._on_change, "value")
        self.rooms_dropdown.observe(self._on_rooms, "value")
        self.children = [
            self.language_toggle,
            W.HBox([self.owner_a, self.strength_a]), W.HBox([self.owner_b, self.strength_b]),
            self.treasure_slider, W.HBox([self.lord_dropdown, self.rooms_dropdown, self.position_dropdown]),
            self.message, self.result_html, self.figure_output,
        ]
        self.relabel()
        self.refresh()

    def _owner_options(self) -> list[tuple[str, int]]:
        return [(n, i) for i, n in enumerate(self.names)] + [(i18n.t("word.npc", self.lang), NPC)]

    def _lord_options(self) -> list[tuple[str, str | None]]:
        return [(i18n.t("ui.no_lord", self.lang), NONE)] + [
            (f"{i18n.lord_name(l, self.lang)} — {i18n.lord_text(l, self.lang)}", l.id) for l in ALL_LORDS]

    def relabel(self) -> None:
        t = self.t
        set_options(self.owner_a, self._owner_options())
        set_options(self.owner_b, self._owner_options())
        set_options(self.lord_dropdown, self._lord_options())
        label_all(self, self.LABELS, t)
        for w in (self.owner_a, self.owner_b, self.strength_a, self.strength_b, self.treasure_slider,
                  self.lord_dropdown, self.rooms_dropdown, self.position_dropdown):
            w.style = {"description_width": "initial"}
        self.lord_dropdown.layout.width = "520px"

    @safe
    def _on_change(self, change) -> None:
        self.refresh()

    @safe
    def _on_rooms(self, change) -> None:
        k = int(change["new"])
        set_options(self.position_dropdown, [(str(r), r) for r in range(1, k + 1)])
        self.refresh()

    @property
    def occupants(self) -> list[tuple[int, int]]:
        return [(self.owner_a.value, int(self.strength_a.value)),
                (self.owner_b.value, int(self.strength_b.value))]

    def _case_text(self, case, occ, lord) -> str:
        """The case in words (room, who, the lord and what it does here): every control shows."""
        who = [i18n.t("bd.token", self.lang, owner=self._owner_options()[[v for _, v in self._owner_options()]
                                                                           .index(o)][0], strength=s)
               for o, s in occ]
        if lord is None:
            lord_words = self.t("msg.payout_no_lord")
        else:
            name = i18n.lord_name(next(x for x in ALL_LORDS if x.id == lord), self.lang)
            key = "msg.payout_lord_changes" if case.treasure != case.printed else "msg.payout_lord_same"
            lord_words = self.t(key, lord=name, printed=case.printed, treasure=case.treasure)
        return self.t("msg.payout_case", position=case.position, rooms=case.n_rooms, a=who[0], b=who[1],
                      lord=lord_words)

    def refresh(self) -> None:
        from ..viz.payouts import explain, payout_case, payout_figure

        occ = self.occupants
        (oa, sa), (ob, sb) = occ
        if oa == ob and oa != NPC and sa == sb:
            self.say(lambda: self.t("msg.same_adventurer", strength=sa), "warn")
        else:
            self.say("", "info")
        lord = None if self.lord_dropdown.value == NONE else self.lord_dropdown.value
        case = payout_case(int(self.treasure_slider.value), occ, lord,
                           int(self.position_dropdown.value), int(self.rooms_dropdown.value))
        self.case = case
        self.result_html.value = (f'<div class="dg-payout-case">{escape(self._case_text(case, occ, lord))}</div>'
                                  f'<div class="dg-payout-text">{escape(explain(case, self.names, self.lang))}</div>')
        self.figure = payout_figure(case, self.names, self.lang)
        show_figure(self.figure_output, self.figure)


# ---------------------------------------------------------------------- turn order explorer
SCENARIO_ROOM = RoomCard(2, 5, 4)  # Lv2 rooms: lock at 7, so adventurers of strength 1-3 never lock
SCENARIO_EXHAUST = (4, 5)  # each player keeps 1, 2, 3 active and gains $5 (reference heal costs)


def bump_scenario(n_players: int, start: int = 0, bumps: Sequence[tuple[int, int]] = (),
                  names: Sequence[str] | None = None) -> tuple[Game, list[tuple[int, str, dict]]]:
    """Play round 1's dispatch on a real engine game where turn ``t`` (1-based, counting passes)
    of each ``(t, victim seat)`` in ``bumps`` is a bump of the victim, if the engine allows it.

    Every other turn places the player's weakest active adventurer, filling half-full rooms
    first (so that rooms are full and adventurers can be bumped). Lords are off; all rooms are
    Lv2 (lock at 7; a bump costs $1 to the bank and $1 to the victim); each player exhausts 4
    and 5. Returns the game (its log holds the order) and notes ``(turn, key, values)`` for the
    bumps that could not happen, with the engine's reason.
    """
    names = list(names or DEFAULT_NAMES[:n_players])
    game = Game(names, rooms=[SCENARIO_ROOM] * (n_players * n_players),
                lords=[lord.id for lord in BASE_LORDS[:n_players]], rules=Rules(lords="none"),
                start_player=start, exhaust={name: SCENARIO_EXHAUST for name in names})
    plan: dict[int, int] = {}
    for turn, victim in bumps:
        plan[int(turn)] = int(victim)
    notes: list[tuple[int, str, dict]] = []

    def turns_so_far() -> int:
        return len(turns(game.log, 1))

    guard = 0
    while not game.is_over and game.state.round == 0 and guard < 500:
        guard += 1
        st = game.state
        turn = turns_so_far() + 1
        seat = st.current
        legal = st.legal_actions()
        action = None
        if turn in plan:
            victim = plan[turn]
            if victim == seat:
                notes.append((turn, "msg.bump_self", {"player": names[seat], "turn": turn}))
            else:
                targets = [a for a in legal if a.kind == BUMP
                           and st.slot(a.room - 1, a.slot)[0] == victim]
                if targets:
                    action = min(targets, key=lambda a: (a.strength, a.room, a.slot))
                else:
                    notes.append((turn, "msg.bump_impossible",
                                  {"player": names[seat], "victim": names[victim],
                                   "reason": _why_no_bump(st, victim)}))
        if action is None:
            places = [a for a in legal if a.kind == PLACE]
            half = [a for a in places if (st.slot(a.room - 1, 0)[0] < 0) != (st.slot(a.room - 1, 1)[0] < 0)]
            pool = half or places or legal
            action = min(pool, key=lambda a: (a.strength, a.room))
        before = turns_so_far()
        game.push(action)
        done = turns(game.log, 1)
        for skipped in range(before + 2, len(done) + 1):  # turns the engine passed
            if skipped in plan:
                notes.append((skipped, "msg.bump_pass", {"player": names[done[skipped - 1].seat], "turn": skipped}))
    total = turns_so_far()
    for turn in sorted(plan):
        if turn > total:
            notes.append((turn, "msg.bump_late", {"turns": total}))
    return game, notes


def _why_no_bump(state, victim: int):
    """The engine's refusal (an ``IllegalAction``) of the player to move bumping an adventurer
    of ``victim``, or ``"__no_target__"`` when ``victim`` has none in the dungeon."""
    slots = [j for j, (o, _) in enumerate(state.slots()) if o == victim]
    if not slots:
        return "__no_target__"
    hand = [s for s in STRENGTHS if state.active[state.current] >> s & 1]
    strongest = max(hand) if hand else 5
    for j in slots:
        err = state.refusal(Action(BUMP, strongest, j // 2 + 1, j % 2))
        if err is not None:
            return err
    return "?"


class TurnOrderExplorer(App):
    """Main sub-widgets: ``players_dropdown``, ``start_dropdown``, ``bump_turn``,
    ``bump_victim``, ``add_bump_button``, ``clear_bumps_button``, ``bumps_html``,
    ``order_html``, ``timeline_output`` / ``graph_output`` (``timeline_figure`` and
    ``graph_figure`` the figures last drawn, ``graph`` the networkx graph), ``message``,
    ``language_toggle``. ``bumps`` is the list of ``(turn, victim seat)``; ``turns`` the engine's
    resulting turns."""

    css_class = "dg-turn-order-explorer"
    # every control's words (labels.py); the Add button's name the bump it adds (_label_add)
    LABELS = {"players_dropdown": "ui.players", "start_dropdown": "ui.start_player",
              "bump_turn": Words("ui.bump_turn", range=BUMP_TURNS), "bump_victim": "ui.bump_victim",
              "clear_bumps_button": "ui.clear_bumps"}

    def __init__(self, players: int = 4, start: int = 0, bumps: Sequence[tuple[int, int]] = (),
                 lang: str = "en", lang_state=None, show_language: bool = True):
        super().__init__(lang=lang, lang_state=lang_state, show_language=show_language)
        self.bumps: list[tuple[int, int]] = [(int(t), int(v)) for t, v in bumps]
        self.game = None
        self.turns = []
        self.notes = []
        self.graph = None
        self.timeline_figure = None
        self.graph_figure = None
        self.players_dropdown = W.Dropdown(options=[3, 4, 5, 6], value=players).add_class("dg-players")
        self.start_dropdown = W.Dropdown(options=self._seat_options(players), value=start).add_class("dg-start")
        # out of BUMP_TURNS: refused with a message, never clamped
        self.bump_turn = W.IntText(value=players + 2, layout=W.Layout(width="200px")).add_class("dg-bump-turn")
        self.bump_victim = W.Dropdown(options=self._seat_options(players), value=0).add_class("dg-bump-victim")
        self.add_bump_button = W.Button(icon="plus", layout=W.Layout(width="auto")).add_class("dg-add-bump")
        self.clear_bumps_button = W.Button(icon="trash").add_class("dg-clear-bumps")
        self.bumps_html = W.HTML().add_class("dg-bumps")
        self.order_html = W.HTML().add_class("dg-order")
        self.timeline_output = W.Output().add_class("dg-timeline")
        self.graph_output = W.Output().add_class("dg-graph")
        self.players_dropdown.observe(self._on_players, "value")
        self.start_dropdown.observe(self._on_change, "value")
        self.add_bump_button.on_click(self._on_add)
        self.bump_turn.observe(self._on_bump_input, "value")
        self.bump_victim.observe(self._on_bump_input, "value")
        self.clear_bumps_button.on_click(self._on_clear)
        self.children = [
            self.language_toggle, W.HBox([self.players_dropdown, self.start_dropdown]),
            W.HBox([self.bump_turn, self.bump_victim, self.add_bump_button, self.clear_bumps_button]),
            self.bumps_html, self.message, self.order_html,
            W.HBox([self.timeline_output, self.graph_output]),
        ]
        self.relabel()
        self.refresh()

    @property
    def names(self) -> list[str]:
        return list(DEFAULT_NAMES[:int(self.players_dropdown.value)])

    def _seat_options(self, n: int) -> list[tuple[str, int]]:
        return [(name, i) for i, name in enumerate(DEFAULT_NAMES[:n])]

    def relabel(self) -> None:
        t = self.t
        label_all(self, self.LABELS, t)
        self._label_add()
        for w in (self.players_dropdown, self.start_dropdown, self.bump_turn, self.bump_victim):
            w.style = {"description_width": "initial"}

    def _label_add(self) -> None:
        """The Add button says which bump it adds (the turn and victim boxes change it)."""
        names = self.names
        victim = int(self.bump_victim.value or 0)
        self.add_bump_button.description = self.t(
            "ui.add_bump_what", turn=self.bump_turn.value, victim=names[victim] if victim < len(names) else "")

    @safe
    def _on_bump_input(self, change) -> None:
        self._label_add()

    @safe
    def _on_players(self, change) -> None:
        n = int(change["new"])
        set_options(self.start_dropdown, self._seat_options(n))
        set_options(self.bump_victim, self._seat_options(n))
        self.bumps = [(t, v) for t, v in self.bumps if v < n]
        self.refresh()

    @safe
    def _on_change(self, change) -> None:
        self.refresh()

    @safe
    def _on_add(self, _button=None) -> None:
        self.add_bump(checked_int(self.bump_turn, *BUMP_TURNS, "ui.bump_turn"), int(self.bump_victim.value))

    def add_bump(self, turn: int, victim: int) -> None:
        self.bumps = [(t, v) for t, v in self.bumps if t != turn] + [(turn, victim)]
        self.bumps.sort()
        self.refresh()

    @safe
    def _on_clear(self, _button=None) -> None:
        self.bumps = []
        self.refresh()

    def refresh(self) -> None:
        from ..viz.turns import graph_figure, timeline_figure, transition_graph

        n = int(self.players_dropdown.value)
        start = int(self.start_dropdown.value)
        names = self.names
        game, notes = bump_scenario(n, start, self.bumps, names)
        self.game, self.notes = game, notes
        self.turns = turns(game.log, 1)
        t = self.t
        if self.bumps:
            items = i18n.join_list((t("msg.bump_added", turn=tn, victim=names[v]) for tn, v in self.bumps), self.lang)
        else:
            items = t("ui.no_bumps")
        self.bumps_html.value = f'<div class="dg-bump-list"><b>{escape(t("ui.bumps"))}:</b> {escape(items)}</div>'
        if notes:
            lines = []
            for turn, key, values in notes:
                values = dict(values)
                if values.get("reason") == "__no_target__":
                    values["reason"] = t("msg.bump_no_target", victim=values["victim"])
                elif "reason" in values and not isinstance(values["reason"], str):
                    values["reason"] = i18n.refusal_text(values["reason"], self.lang)
                note = t(key, **values)
                lines.append(t("msg.scenario_note", turn=turn, note=note))
            self.say("; ".join(lines), "warn")
        else:
            self.say("", "info")
        status = {"acted": "✓", "again": "★", "passed_full": "–", "passed_stuck": "✗"}
        engine = " ".join(f"{names[tr.seat]}{status[tr.status]}" for tr in self.turns)
        plain = " ".join(names[s] for s in snake_order(n, start, len(self.turns)))
        self.order_html.value = (
            f'<div class="dg-order-engine" data-seats="{",".join(str(tr.seat) for tr in self.turns)}">'
            f'{escape(t("msg.turns_order", order=engine))}</div>'
            f'<div class="dg-order-snake dg-note" style="color:#666">R4.1: {escape(plain)}</div>')
        self.timeline_figure = timeline_figure(game, 1, self.lang)
        show_figure(self.timeline_output, self.timeline_figure)
        self.graph = transition_graph(turn_list=self.turns, names=names)
        self.graph_figure = graph_figure(self.graph, t("fig.graph_title", round=1), self.lang)
        show_figure(self.graph_output, self.graph_figure)


__all__ = ["PayoutExplorer", "TurnOrderExplorer", "bump_scenario"]
