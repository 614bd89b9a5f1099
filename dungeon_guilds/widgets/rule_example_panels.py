"""The live examples of the Rules tab's cards (issue 19): small controls and a sentence or table
worked out by the engine (:mod:`dungeon_guilds.rule_examples`) each time a control changes.

Each panel is an ``ipywidgets.VBox`` with ``controls`` (a list of widgets), ``html`` (what it
shows) and ``data`` (the engine's answer it last showed). Every number shown is wrapped in
``<b class="dg-num" data-key="…">``, so a test can read the numbers the card shows and compare
them with the engine's. The Rules tab owns the panels: it calls :meth:`ExamplePanel.relabel`
and :meth:`ExamplePanel.refresh` with the language, and routes control changes through its
``safe`` callback (an error is a message, never a traceback).
"""

from __future__ import annotations

from html import escape
from itertools import combinations
from typing import Any, Callable

import ipywidgets as W

from .. import i18n
from .. import rule_examples as E
from ..cards import STRENGTHS
from ..payout import NPC
from ..rule_cards import money, signed
from .common import NONE, set_options
from .labels import label_all

PAIRS = [p for p in combinations(STRENGTHS, 2)]


def num(key: str, value: Any) -> str:
    """A number the card shows, marked for tests: ``<b class="dg-num" data-key="gain">5</b>``."""
    return f'<b class="dg-num" data-key="{escape(key)}">{escape(str(value))}</b>'


def sentence(lang: str, key: str, **values: Any) -> str:
    """The strings template ``rulecard.ui.<key>`` as HTML; ``values`` already HTML (use
    :func:`num` for numbers, ``escape`` for words)."""
    return escape(i18n.t(f"rulecard.ui.{key}", lang)).format(**values)


def ui(lang: str, key: str, **values: Any) -> str:
    return i18n.t(f"rulecard.ui.{key}", lang, **values)


def refusal_words(reason: Any, lang: str) -> str:
    """An engine refusal (an ``IllegalAction`` value) in ``lang``."""
    return i18n.refusal_text(reason, lang)


def _money_list(values: list[int], prefix: str) -> str:
    return " + ".join(num(f"{prefix}.{i}", f"${v}") for i, v in enumerate(values))


def _pair_options(lang: str, pairs) -> list[tuple[str, tuple[int, int]]]:
    return [(ui(lang, "pair", a=a, b=b), (a, b)) for a, b in pairs]


def _units(text: str) -> int:
    """Rough width of ``text`` in half-em units (a CJK character counts 2)."""
    return sum(2 if ord(ch) > 0x2E80 else 1 for ch in text)


def _fit(dropdown: W.Dropdown) -> str:
    """A width that holds the description and the longest option label."""
    longest = max((_units(label) for label in getattr(dropdown, "_options_labels", ())),
                  default=0)
    return f"{7 * (_units(dropdown.description or '') + longest) + 60}px"


class ExamplePanel(W.VBox):
    """Base of the example panels. Each panel defines ``refresh(lang)``: ask the engine its
    example's numbers and show them (a test builds every panel and calls it)."""

    name = ""
    LABELS: dict = {}  # each control's words, ``rulecard.ui.<key>`` (labels.py)

    def __init__(self, controls: list[W.Widget]):
        self.controls = controls
        self.html = W.HTML().add_class("dg-example-out")
        self.data: Any = None
        super().__init__([W.HBox(controls, layout=W.Layout(flex_flow="row wrap")), self.html]
                         if controls else [self.html])
        self.add_class("dg-example").add_class(f"dg-example-{self.name}")

    def on_change(self, callback: Callable) -> None:
        for c in self.controls:
            c.observe(callback, "value")

    def relabel(self, lang: str) -> None:
        label_all(self, self.LABELS, lambda key: ui(lang, key))
        for c in self.controls:
            c.style = {"description_width": "initial"}
            if isinstance(c, W.Dropdown):
                c.layout.width = _fit(c)

    def show(self, body: str) -> None:
        self.html.value = f'<div class="dg-example-body" data-example="{self.name}">{body}</div>'


def _dropdown(options, value, width="auto", cls="") -> W.Dropdown:
    return W.Dropdown(options=options, value=value, layout=W.Layout(width=width)).add_class(cls or "dg-ex-pick")


# ---------------------------------------------------------------------- R2.4
class SetupGoldPanel(ExamplePanel):
    name = "setup_gold"
    LABELS = {"pair": "setup_pair", "guardian": "setup_guardian"}

    def __init__(self):
        self.pair = _dropdown(_pair_options("en", PAIRS), (4, 5), cls="dg-ex-pair")
        self.guardian = W.Checkbox(value=False, indent=False).add_class("dg-ex-guardian")
        super().__init__([self.pair, self.guardian])

    def relabel(self, lang):
        set_options(self.pair, _pair_options(lang, PAIRS))
        super().relabel(lang)

    def refresh(self, lang):
        d = self.data = E.setup_gold(self.pair.value, self.guardian.value)
        result = sentence(lang, "setup_result", costs=_money_list(d["printed"], "printed"),
                          gain=num("gain", d["gain"]), gold=num("gold", d["gold"]))
        self.show(f"<p>{result}</p>"
                  f"<p>{sentence(lang, 'setup_round_heal', costs=_money_list(d['round_heal'], 'round_heal'))}</p>")


# ---------------------------------------------------------------------- R4.1
class SnakePanel(ExamplePanel):
    name = "snake"
    LABELS = {"players": "snake_players", "start": "snake_start"}

    def __init__(self):
        self.players = _dropdown(list(range(3, 7)), 4, "150px", "dg-ex-players")
        self.start = _dropdown([(str(i + 1), i) for i in range(4)], 0, "150px", "dg-ex-start")
        super().__init__([self.players, self.start])

    def refresh(self, lang):
        n = int(self.players.value)
        set_options(self.start, [(str(i + 1), i) for i in range(n)])
        seats = E.snake(n, int(self.start.value))
        self.data = seats
        cycle = seats + E.snake(n, int(self.start.value))
        chips = " → ".join(num(f"turn.{i}", s + 1) for i, s in enumerate(cycle))
        self.show(f"<p>{sentence(lang, 'snake_result')}<br>{chips} …</p>")


# ---------------------------------------------------------------------- R4.3 / R7.1
class LockPanel(ExamplePanel):
    name = "lock"
    LORDS = (NONE, "lich_king", "bigfun_king")
    LABELS = {"level": "lock_level", "a": "lock_a", "b": "lock_b", "lord": "lock_lord"}

    def __init__(self, level=1, a=5, b=1, lord=NONE):
        self.level = _dropdown([1, 2, 3], level, "150px", "dg-ex-level")
        self.a = _dropdown(list(STRENGTHS), a, "150px", "dg-ex-a")
        self.b = _dropdown(list(STRENGTHS), b, "170px", "dg-ex-b")
        self.lord = _dropdown(list(self.LORDS), lord, "230px", "dg-ex-lord")
        super().__init__([self.level, self.a, self.b, self.lord])

    def relabel(self, lang):
        set_options(self.level, [(ui(lang, "lv", level=lv), lv) for lv in (1, 2, 3)])
        set_options(self.lord, [(ui(lang, "lock_no_lord") if x == NONE else i18n.lord_name(x, lang), x)
                                for x in self.LORDS])
        super().relabel(lang)

    def refresh(self, lang):
        lord = None if self.lord.value == NONE else self.lord.value
        a, b = int(self.a.value), int(self.b.value)
        d = self.data = E.lock(int(self.level.value), a, b, lord)
        cells = "".join(f"<td>{escape(ui(lang, 'lv', level=lv))}: {num(f'threshold.{lv}', t)}</td>"
                        for lv, t in zip((1, 2, 3), d["thresholds"]))
        out = f"<p>{sentence(lang, 'lock_thresholds')}</p><table class='dg-ex-table'><tr>{cells}</tr></table>"
        out += self._changed(lang, lord, d["defence_change"], d["levels"])
        if d["locked_alone"]:
            free = escape(ui(lang, "yes" if d["free_slot_ok"] else "no"))
            alone = sentence(lang, "lock_alone_yes", a=num("a", a), threshold=num("threshold", d["threshold"]),
                             free=free)
            out += f"<p>{alone}</p>"
        else:
            out += f"<p>{sentence(lang, 'lock_alone_no', a=num('a', a), threshold=num('threshold', d['threshold']))}</p>"
        state = escape(ui(lang, "locked" if d["locked"] else "unlocked"))
        out += (f"<p data-locked='{str(d['locked']).lower()}'>"
                + sentence(lang, "lock_result", total=num("total", d["total"]),
                           threshold=num("threshold_end", d["threshold"]), state=state) + "</p>")
        self.show(out)

    @staticmethod
    def _changed(lang: str, lord: str | None, changes: list[int], levels: list[int]) -> str:
        """Which thresholds the lord moved (issue 40: "Lv1: 5, Lv2: 9, Lv3: 9" did not say only
        room 2 changed, R7.1)."""
        if lord is None:
            return ""
        moved = [sentence(lang, "lock_change_item", room=escape(str(r)), level=escape(str(lv)),
                          delta=num(f"change.{r}", signed(c))) for r, (c, lv) in enumerate(zip(changes, levels), 1) if c]
        if not moved:
            return f"<p>{sentence(lang, 'lock_unchanged')}</p>"
        return f"<p>{sentence(lang, 'lock_changed', changes=i18n.join_list(moved, lang))}</p>"


# ---------------------------------------------------------------------- R4.4 / R4.5 / R10.2
class ReplaceCostPanel(ExamplePanel):
    name = "replace_costs"

    def __init__(self):
        super().__init__([])

    def refresh(self, lang):
        d = self.data = E.replace_costs()
        head = "".join(f"<th>{escape(ui(lang, 'lv', level=lv))}</th>" for lv in (1, 2, 3))
        rows = []
        for who in ("other", "own", "npc"):
            cells = "".join(
                "<td>" + sentence(lang, "cost_cell" if c["victim"] else "cost_cell_bank",
                                  **{k: num(f"{who}.{c['level']}.{k}", c[k]) for k in ("payer", "bank", "victim")})
                + "</td>" for c in d[who])
            rows.append(f"<tr data-who='{who}'><th>{escape(ui(lang, f'cost_{who}'))}</th>{cells}</tr>")
        answer = escape(ui(lang, "yes" if all(c["returned_active"] for c in d["other"]) else "no"))
        self.show(f"<table class='dg-ex-table dg-cost-table'><tr><th>{escape(ui(lang, 'cost_who'))}</th>{head}</tr>"
                  f"{''.join(rows)}</table><p>{sentence(lang, 'cost_returned', answer=answer)}</p>")


class SwapPanel(ExamplePanel):
    name = "swap_own"

    def __init__(self):
        super().__init__([])

    def refresh(self, lang):
        d = self.data = {case: {ed: E.swap_check(case, ed) for ed in ("zh", "fr")} for case in E.SWAP_CASES}
        rows = []
        for case, verdicts in d.items():
            cells = ""
            for ed, reason in verdicts.items():
                ok = reason is None
                text = ui(lang, "allowed") if ok else refusal_words(reason, lang)
                cells += (f"<td class='dg-verdict' data-case='{case}' data-edition='{ed}' data-allowed='{str(ok).lower()}'"
                          f" style='color:{'#2a7d2a' if ok else '#8a5a00'}'>{'✔ ' if ok else '✘ '}{escape(text)}</td>")
            rows.append(f"<tr><th>{escape(ui(lang, f'swap_{case}'))}</th>{cells}</tr>")
        cost = E.swap_cost(1)
        self.show(f"<table class='dg-ex-table'><tr><th>{escape(ui(lang, 'swap_case'))}</th>"
                  f"<th>{escape(ui(lang, 'swap_zh'))}</th><th>{escape(ui(lang, 'swap_fr'))}</th></tr>{''.join(rows)}</table>"
                  f"<p>{sentence(lang, 'swap_cost', cost=num('swap_cost', cost['payer']))}</p>")


# ---------------------------------------------------------------------- R5.2
class SplitPanel(ExamplePanel):
    name = "split"
    OWNERS = ("other", "same", "npc")
    LABELS = {"treasure": "split_treasure", "a": "split_a", "b": "split_b", "owner": "split_owner"}

    def __init__(self):
        self.treasure = W.BoundedIntText(value=7, min=0, max=99, layout=W.Layout(width="160px")).add_class("dg-ex-treasure")
        self.a = _dropdown(list(STRENGTHS), 3, "200px", "dg-ex-a")
        self.b = _dropdown(list(STRENGTHS), 2, "220px", "dg-ex-b")
        self.owner = _dropdown(list(self.OWNERS), "other", "180px", "dg-ex-owner")
        super().__init__([self.treasure, self.a, self.b, self.owner])

    def relabel(self, lang):
        set_options(self.owner, [(ui(lang, f"owner_{o}"), o) for o in self.OWNERS])
        super().relabel(lang)

    def refresh(self, lang):
        d = self.data = E.split_example(int(self.treasure.value), int(self.a.value), int(self.b.value),
                                        self.owner.value)
        names = {"Ann": "Ann", "Bo": "Bo"}
        shares = i18n.join_list((f"{escape(names[n])} {num(f'share.{n}', f'${v}')}" for n, v in d["shares"].items()), lang) or "—"
        out = f"<p>{sentence(lang, 'split_result', half=num('half', d['half']), remainder=num('remainder', d['remainder']))}"
        if self.owner.value == "other" and d["remainder"]:
            a, b = int(self.a.value), int(self.b.value)
            who = ui(lang, "bank") if a == b else ("Ann" if a > b else "Bo")
            out += sentence(lang, "split_remainder_to", who=escape(who))
        out += f"</p><p>{sentence(lang, 'split_shares', shares=shares, bank=num('bank', d['bank']))}</p>"
        self.show(out)


class FloorPanel(ExamplePanel):
    name = "floor"
    CARDS = ((1, "low"), (1, "high"), (2, "low"), (3, "low"))
    LABELS = {"card": "floor_pick"}

    def __init__(self):
        self.card = _dropdown([(f"{lv} {w}", (lv, w)) for lv, w in self.CARDS], (1, "low"), cls="dg-ex-card")
        super().__init__([self.card])

    def relabel(self, lang):
        options = []
        for lv, which in self.CARDS:
            c = E.room(lv, which)
            options.append((ui(lang, "floor_card", level=lv, defence=c.defence, treasure=c.treasure), (lv, which)))
        set_options(self.card, options)
        super().relabel(lang)

    def refresh(self, lang):
        d = self.data = E.floor(*self.card.value)
        (pd, pt), (ad, at), (cd, ct) = d["printed"], d["after"], d["change"]
        self.show("<p>" + sentence(lang, "floor_result", defence=num("printed_defence", pd),
                                   d_change=num("defence_change", signed(cd)), d_after=num("defence", ad),
                                   treasure=num("printed_treasure", pt), t_change=num("treasure_change", money(ct)),
                                   t_after=num("treasure", at)) + "</p>")


# ---------------------------------------------------------------------- R6.1
class HealPanel(ExamplePanel):
    name = "heal"
    LABELS = {"exhausted": "heal_exhaust", "placed": "heal_placed", "guardian": "heal_guardian"}

    def __init__(self):
        self.exhausted = _dropdown(_pair_options("en", PAIRS), (1, 2), cls="dg-ex-exhausted")
        self.placed = _dropdown(_pair_options("en", [(4, 5)]), (4, 5), cls="dg-ex-placed")
        self.guardian = W.Checkbox(value=False, indent=False).add_class("dg-ex-guardian")
        super().__init__([self.exhausted, self.placed, self.guardian])

    def relabel(self, lang):
        set_options(self.exhausted, _pair_options(lang, PAIRS))
        self._placed_options(lang)
        super().relabel(lang)

    def _placed_options(self, lang):
        left = [s for s in STRENGTHS if s not in self.exhausted.value]
        set_options(self.placed, _pair_options(lang, list(combinations(left, 2))))

    def refresh(self, lang):
        self._placed_options(lang)
        d = self.data = E.heal(self.exhausted.value, self.placed.value, self.guardian.value)
        costs = _money_list(list(d["costs"].values()), "cost_of")
        dropped = (sentence(lang, "heal_dropped", dropped=num("dropped", d["dropped"])) if d["dropped"]
                   else escape(ui(lang, "heal_nothing_dropped")))
        result = sentence(lang, "heal_result", gold=num("gold_before", d["gold_before"]), costs=costs,
                          cost=num("cost", d["cost"]))
        paid = sentence(lang, "heal_paid", paid=num("paid", d["paid"]), after=num("gold_after", d["gold_after"]),
                        dropped=dropped)
        self.show(f"<p>{result}</p><p>{paid}</p>")


# ---------------------------------------------------------------------- R8.1
class TiebreakPanel(ExamplePanel):
    name = "tiebreak"

    def __init__(self):
        self.kept = [_dropdown([3, 4, 5], v, "150px", f"dg-ex-kept-{p}") for p, v in enumerate((5, 4, 5))]
        super().__init__(self.kept)

    def relabel(self, lang):
        for name, w in zip(E.NAMES, self.kept):
            w.description = f"{name} {ui(lang, 'tie_kept')}"
        super().relabel(lang)

    def refresh(self, lang):
        d = self.data = E.tiebreak([int(w.value) for w in self.kept])
        head = "".join(f"<th>{escape(ui(lang, k))}</th>" for k in ("tie_player", "tie_gold", "tie_unplayed", "tie_sum"))
        rows = "".join(
            f"<tr><td>{escape(n)}</td><td>{num(f'gold.{p}', '$' + str(d['gold'][p]))}</td>"
            f"<td>{escape(i18n.join_list(d['unplayed'][p], lang))}</td><td>{num(f'tiebreak.{p}', d['tiebreak'][p])}</td></tr>"
            for p, n in enumerate(E.NAMES))
        winners = i18n.join_list((num(f"winner.{i}", w) for i, w in enumerate(d["winners"])), lang)
        self.show(f"<table class='dg-ex-table'><tr>{head}</tr>{rows}</table>"
                  f"<p>{sentence(lang, 'tie_winners', winners=winners)}</p>")


# ---------------------------------------------------------------------- R7.2 / R7.3 / R7.5
class CavemanPanel(ExamplePanel):
    name = "caveman"
    LABELS = {"pick": "cave_pick"}

    def __init__(self):
        self.pick = _dropdown(_pair_options("en", [(3, 4), (3, 5), (4, 5)]), (4, 5), cls="dg-ex-pick")
        super().__init__([self.pick])

    def relabel(self, lang):
        set_options(self.pick, _pair_options(lang, [(3, 4), (3, 5), (4, 5)]))
        super().relabel(lang)

    def refresh(self, lang):
        picks = {0: self.pick.value, 1: (3, 4), 2: (3, 5)}
        d = self.data = E.caveman(picks)
        rows = ""
        for key, label in (("without", "cave_without"), ("with", "cave_with")):
            active, exhausted = d[key]
            words = lambda values: i18n.join_list(values, lang)  # noqa: E731
            cells = "".join(
                "<td>" + sentence(lang, "cave_active", active=num(f"{key}.active.{p}", words(active[p])),
                                  exhausted=num(f"{key}.exhausted.{p}", words(exhausted[p]))) + "</td>"
                for p in range(3))
            rows += f"<tr><th>{escape(ui(lang, label))}</th>{cells}</tr>"
        head = "".join(f"<th>{escape(n)}</th>" for n in E.NAMES)
        self.show(f"<table class='dg-ex-table'><tr><th></th>{head}</tr>{rows}</table>")


class BoardgamePanel(ExamplePanel):
    name = "boardgame"

    def __init__(self):
        self.picks = [_dropdown(_pair_options("en", PAIRS), v, cls=f"dg-ex-bg-{p}")
                      for p, v in enumerate(((1, 2), (1, 3), (4, 5)))]
        super().__init__(self.picks)

    def relabel(self, lang):
        for name, w in zip(E.NAMES, self.picks):
            set_options(w, _pair_options(lang, PAIRS))
            w.description = f"{name} {ui(lang, 'bg_places')}"
        super().relabel(lang)

    def refresh(self, lang):
        d = self.data = E.boardgame({p: w.value for p, w in enumerate(self.picks)})
        totals = i18n.join_list((f"{escape(n)} {num(f'total.{p}', d['totals'][p])}" for p, n in enumerate(E.NAMES)), lang)
        events = "".join(f"<li data-kind='{e.kind}'>{escape(i18n.event_text(e.event, E.NAMES, lang))}</li>"
                         for e in d["events"])
        bonus = "".join(num(f"bonus.{n}", v) for n, v in d["bonus"].items())
        self.show(f"<p>{sentence(lang, 'bg_totals', totals=totals)}</p><p>{sentence(lang, 'bg_events')}</p>"
                  f"<ol class='dg-ex-events'>{events}</ol><span hidden>{bonus}</span>")


class SuccubusPanel(ExamplePanel):
    name = "succubus"

    def __init__(self):
        super().__init__([])

    def refresh(self, lang):
        d = self.data = E.succubus()
        out = ""
        for key in ("place_1", "place_2"):
            reason = d[key]
            text = ui(lang, "allowed") if reason is None else refusal_words(reason, lang)
            out += (f"<p data-case='{key}' data-allowed='{str(reason is None).lower()}'>"
                    f"{sentence(lang, 'succ_' + key)} {'✔' if reason is None else '✘'} {escape(text)}</p>")
        self.show(out)


# ---------------------------------------------------------------------- R10.2
class NpcPanel(ExamplePanel):
    name = "npc"
    LABELS = {"scenario": "npc_scenario"}

    def __init__(self):
        self.scenario = _dropdown(list(E.NPC_SCENARIOS), "other_level", "420px", "dg-ex-scenario")
        super().__init__([self.scenario])

    def relabel(self, lang):
        set_options(self.scenario, [(ui(lang, f"npc_{s}"), s) for s in E.NPC_SCENARIOS])
        super().relabel(lang)

    def _dungeon(self, lang, rooms, levels, key) -> str:
        out = []
        for i, (occ, lv) in enumerate(zip(rooms, levels)):
            who = i18n.join_list((f"{escape(ui(lang, 'npc_word') if o == NPC else E.NAMES[o])} {num(f'{key}.{i + 1}.{j}', s)}"
                                  for j, (o, s) in enumerate(occ)), lang) or escape(ui(lang, "npc_empty"))
            out.append(f"<td>{escape(ui(lang, 'npc_room', room=i + 1, level=lv))}<br>{who}</td>")
        return "".join(out)

    def refresh(self, lang):
        d = self.data = E.npc_move(self.scenario.value)
        rows = "".join(f"<tr><th>{escape(ui(lang, label))}</th>{self._dungeon(lang, d[key], d['levels'], key)}</tr>"
                       for key, label in (("before", "npc_before"), ("after", "npc_after")))
        if d["to_room"] is None:
            result = sentence(lang, "npc_left")
        else:
            result = sentence(lang, "npc_result", src=num("from_room", d["from_room"]), dst=num("to_room", d["to_room"]),
                              strength=num("strength", d["strength"]), fee=num("fee", d["fee"]))
        self.show(f"<table class='dg-ex-table'>{rows}</table><p>{result}</p>")


PANELS: dict[str, Callable[[], ExamplePanel]] = {
    "setup_gold": SetupGoldPanel, "snake": SnakePanel, "lock": LockPanel,
    "lord_lock": lambda: LockPanel(level=2, a=3, b=3, lord="lich_king"),
    "replace_costs": ReplaceCostPanel, "swap_own": SwapPanel, "split": SplitPanel, "heal": HealPanel,
    "tiebreak": TiebreakPanel, "floor": FloorPanel, "caveman": CavemanPanel, "boardgame": BoardgamePanel,
    "succubus": SuccubusPanel, "npc": NpcPanel,
}

__all__ = ["PANELS", "ExamplePanel", "num", "refusal_words", "sentence"]
