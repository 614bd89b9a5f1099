"""Figure data (traces, values, labels) checked against engine states for fixed seeds."""

from __future__ import annotations

import itertools
import random
from fractions import Fraction

import networkx as nx
import pytest

from dungeon_guilds import Game, Rules, i18n
from dungeon_guilds.actions import BUMP
from dungeon_guilds.payout import NPC, split
from dungeon_guilds.state import DISPATCH, EMPTY
from dungeon_guilds.turn_order import seat_at, snake_order
from dungeon_guilds import viz
from dungeon_guilds.viz import events
from dungeon_guilds.widgets.explorers import bump_scenario


def played(n=4, seed=3, rules=None, play_seed=1, stop=None, prefer_bumps=0.3) -> Game:
    """A game played with random legal moves (bumps favoured, so that fees flow)."""
    g = Game(n, seed=seed, rules=rules or Rules(lords="all", npc=n < 6))
    rng = random.Random(play_seed)
    while not g.is_over and (stop is None or not stop(g)):
        legal = g.legal_actions()
        bumps = [a for a in legal if a.kind == BUMP]
        g.push(rng.choice(bumps) if bumps and rng.random() < prefer_bumps else rng.choice(legal))
    return g


FINISHED = [played(n, seed, rules, seed + 7) for n, seed, rules in (
    (3, 1, Rules()), (4, 3, Rules(lords="all", npc=True)), (5, 11, Rules(lords="all", edition="fr")),
    (6, 2, Rules(lords="all")), (4, 8, Rules(lords="none", teams="2v2")), (3, 4, Rules(lords="all", npc=True)),
)]


# ---------------------------------------------------------------------- turn order
@pytest.mark.parametrize("game", FINISHED[:4])
def test_timeline_turns_follow_the_engines_snake(game):
    st = game.state
    for r in range(1, st.rounds + 1):
        start = events.round_start(game.log, r)
        assert start == (r - 1) % st.n  # seat 0 starts; the marker passes left (R6.3)
        tl = events.turns(game.log, r)
        assert tl, f"round {r} has no turns"
        for tr in tl:
            assert tr.seat == seat_at(tr.position, st.n, start)  # R4.1 via the engine's turn_order
        # a pass carries the engine's reason; entering a third time means acting after a bump
        for tr in tl:
            if tr.status == events.PASSED_FULL:
                assert "R4.2" in tr.event["reason"]
            if tr.status == events.AGAIN:
                assert tr.kind in ("placed", "bumped")
                assert any(e.get("kind") == "bumped" and e.get("victim") == tr.seat and e["round"] == r
                           for e in game.log[:tr.event_index])


def test_timeline_figure_traces_match_the_turns():
    game = FINISHED[1]
    tl = events.turns(game.log, 2)
    fig = viz.timeline_figure(game, round_no=2)
    path = fig.data[0]
    assert path.name == "path"
    assert list(path.x) == [tr.position + 1 for tr in tl]
    assert list(path.y) == [tr.seat for tr in tl]
    marks = [(cd[0], cd[1], cd[2]) for tr in fig.data[1:] for cd in tr.customdata]
    assert sorted(marks) == sorted((tr.position + 1, tr.seat, tr.status) for tr in tl)
    for trace in fig.data[1:]:
        assert trace.meta in events.STATUSES
    assert list(fig.layout.yaxis.ticktext) == list(game.names)
    assert "round 2" in fig.layout.title.text


def test_bumped_players_act_again_in_the_engines_order():
    # 4 players, Cy bumps Ann at turn 6, Ann bumps Bo at turn 8: Ann and Bo come back in
    game, notes = bump_scenario(4, 0, [(6, 0), (8, 1)])
    assert notes == []
    tl = events.turns(game.log, 1)
    assert [tr.seat for tr in tl] == [seat_at(k, 4, 0) for k in range(len(tl))]
    assert [tr.seat for tr in tl] == [0, 1, 2, 3, 3, 2, 1, 0, 0, 1]
    assert [tr.status for tr in tl][-2:] == [events.AGAIN, events.AGAIN]
    assert tl[5].kind == "bumped" and tl[5].event["victim"] == 0
    fig = viz.timeline_figure(game, 1, lang="zh")
    again = [t for t in fig.data if t.meta == events.AGAIN][0]
    assert [cd[0] for cd in again.customdata] == [9, 10]
    assert again.name == "再次行動（被替換後）"


def test_transition_graph_counts_consecutive_turns():
    game = FINISHED[0]
    tl = events.turns(game.log, 1)
    g = viz.transition_graph(game, 1)
    assert isinstance(g, nx.DiGraph)
    assert sorted(g.nodes) == list(range(game.n_players))
    assert sum(d["weight"] for _, _, d in g.edges(data=True)) == len(tl) - 1
    for (a, b) in events.transitions(tl):
        assert g.has_edge(a, b)
    assert [g.nodes[s]["name"] for s in sorted(g.nodes)] == list(game.names)
    fig = viz.transition_figure(game, 1)
    seats = [t for t in fig.data if t.name == "seats"][0]
    assert [cd[1] for cd in seats.customdata] == list(game.names)


def test_snake_graph_is_the_plain_snake():
    g = viz.snake_graph(4, start=1, names=["A", "B", "C", "D"])
    order = snake_order(4, 1)
    assert order == [1, 2, 3, 0, 0, 3, 2, 1]
    assert set(g.edges) == set(zip(order, order[1:]))
    assert g[0][0]["weight"] == 1  # the last player acts twice in a row (R4.1)
    fig = viz.snake_figure(4, 1, ["A", "B", "C", "D"])
    loops = [t for t in fig.data if t.name == "loops"][0]
    assert list(loops.text) == ["↻ 1"]


# ---------------------------------------------------------------------- board
def test_board_figure_shows_every_slot_of_the_engine_state():
    game = played(4, 3, Rules(lords="all", npc=True), 1, stop=lambda g: g.ply >= 12)
    st = game.state
    fig = viz.board_figure(game)
    seen = {}
    for trace in fig.data:
        if trace.customdata is not None and trace.name not in ("results",) and trace.mode == "markers+text":
            for room, slot, owner, strength in trace.customdata:
                seen[(room, slot)] = (owner, strength)
                assert trace.name == ("NPC" if owner == NPC else game.names[owner])
    expected = {(j // 2 + 1, "ab"[j % 2]): (st.slot_owner[j], st.slot_str[j])
                for j in range(len(st.slot_owner)) if st.slot_owner[j] != EMPTY}
    assert seen == expected
    empty = [t for t in fig.data if t.marker.symbol == "square-open"][0]
    assert len(empty.x) == list(st.slot_owner).count(EMPTY)
    backs = [t for t in fig.data if t.name == "backs"][0]
    for i, text in enumerate(backs.text):
        assert f"Locks at {st.lock_threshold(i)}" in text
        assert ("(locked)" in text) == bool(st.locked[i])  # a word, never 🔒 (no glyph in CJK fonts)
    assert not [t for t in fig.data if t.name == "results"]  # nothing revealed in dispatch


def test_board_figure_after_the_game_shows_the_engines_resolution():
    game = FINISHED[1]
    st = game.state
    fig = viz.board_figure(game, lang="zh")
    res = [t for t in fig.data if t.name == "results"][0]
    statuses = [cd[1] for cd in res.customdata]
    cleared = st.round_results[-1]["cleared"]
    assert statuses[:cleared] == ["cleared"] * cleared
    assert all(s != "cleared" for s in statuses[cleared:])
    assert st.lord.name_zh in fig.layout.title.text


# ---------------------------------------------------------------------- payout
@pytest.mark.parametrize("treasure, occ, lord, position, n_rooms, shares, to_bank, paid", [
    (5, [(0, 3), (1, 2)], None, 1, 3, {0: 3, 1: 2}, 0, 5),  # odd remainder to the stronger (R5.2)
    (5, [(0, 3), (1, 3)], None, 1, 3, {0: 2, 1: 2}, 1, 5),  # equal strength: remainder to the bank
    (5, [(0, 3), (0, 2)], None, 2, 3, {0: 5}, 0, 5),  # one owner takes it all
    (5, [(0, 1), (NPC, 2)], None, 1, 4, {0: 2}, 3, 5),  # NPC half and remainder to the bank (R10.2)
    (4, [(0, 3), (1, 2)], "beholder", 1, 3, {0: 4, 1: 3}, 0, 7),  # first room +$3
    (4, [(0, 3), (1, 2)], "beholder", 2, 3, {0: 2, 1: 2}, 0, 4),  # only the first room
    (1, [(0, 3), (1, 2)], "vampire_lord", 2, 3, {0: 0, 1: 0}, 0, 0),  # -$2 floors at $0 (R5.3)
    (5, [(0, 3), (1, 3)], "naughty_kid", 3, 3, {0: 4, 1: 4}, 0, 8),  # equal strengths +$3
    (5, [(0, 4), (1, 3)], "naughty_kid", 3, 3, {0: 3, 1: 2}, 0, 5),
    (8, [(0, 4), (1, 3)], "red_dragon", 5, 5, {0: 9, 1: 9}, 0, 18),  # last room +$10
    (8, [(0, 4), (1, 3)], "bigfun_king", 6, 6, {0: 2, 1: 1}, 0, 3),  # last room -$5
    (8, [(0, 4), (1, 3)], "hello_duck", 3, 4, {0: 6, 1: 6}, 0, 12),  # last two rooms +$4
])
def test_payout_case_is_what_the_engine_pays(treasure, occ, lord, position, n_rooms, shares, to_bank, paid):
    case = viz.payout_case(treasure, occ, lord, position, n_rooms)
    assert case.cleared
    assert dict(case.shares) == shares
    assert case.to_bank == to_bank
    assert case.treasure == paid
    assert (dict(case.shares), case.to_bank) == split(paid, occ)  # consistent with payout.split
    fig = viz.payout_figure(case, ["Ann", "Bo", "Cy"])
    totals: dict[str, int] = {}
    for trace in fig.data:
        assert trace.meta in ("even", "rest", "whole")
        for x, y in zip(trace.x, trace.y):
            totals[y] = totals.get(y, 0) + x
    names = {0: "Ann", 1: "Bo"}
    for p, v in shares.items():
        assert totals[names[p]] == v
    assert totals.get("Bank", 0) == to_bank
    assert sum(totals.values()) == paid


def test_payout_figure_labels_and_explanation_in_chinese():
    case = viz.payout_case(5, [(0, 3), (1, 3)])
    fig = viz.payout_figure(case, ["Ann", "Bo"], lang="zh")
    assert [t.name for t in fig.data] == ["平分的一半", "無法平分的餘數"]
    assert list(fig.data[0].y) == ["Ann", "Bo", "銀行"]
    assert "餘數 <span>$1</span> → 銀行" in fig.layout.title.text  # each amount its own tspan (issue 40)


# ---------------------------------------------------------------------- money
@pytest.mark.parametrize("game", FINISHED)
def test_game_sankey_balances_with_the_engines_final_gold(game):
    st = game.state
    d = viz.sankey_data(game)
    links = d["links"]
    n = st.n
    inflow = [0] * len(d["labels"])
    outflow = [0] * len(d["labels"])
    for s, t, v in zip(links["source"], links["target"], links["value"]):
        assert v > 0
        outflow[s] += v
        inflow[t] += v
    for p, node in enumerate(d["player_nodes"]):
        assert inflow[node] == outflow[node], game.names[p]  # every player node balances
        kept = sum(v for s, t, v, k in zip(links["source"], links["target"], links["value"], links["kind"])
                   if s == node and k == "kept")
        assert kept == st.gold[p]
    # the same, from the flows: setup + exhaust + treasure + bonus + compensation received
    # - fees - heal paid - compensation paid = final gold
    flows = events.money_flows(game.log)
    assert events.net_by_player(flows, n) == st.gold
    kinds = {f.kind for f in flows}
    assert {"setup", "exhaust", "treasure"} <= kinds
    # bank balance: what the bank paid minus what it took equals the gold in players' hands
    assert sum(f.amount for f in flows if f.source == events.BANK) == st.bank_out
    assert sum(f.amount for f in flows if f.target == events.BANK) == st.bank_in


def test_the_test_games_exercise_every_kind_of_flow():
    kinds = set()
    for game in FINISHED:
        kinds |= {f.kind for f in events.money_flows(game.log)}
    assert kinds == set(events.FLOW_KINDS)


@pytest.mark.parametrize("game", FINISHED[:3])
def test_round_sankeys_balance_with_the_round_results(game):
    st = game.state
    prev = [0] * st.n
    for res in st.round_results:
        r = res["round"]
        d = viz.sankey_data(game, r)
        links = d["links"]
        for p, node in enumerate(d["player_nodes"]):
            inn = sum(v for t, v in zip(links["target"], links["value"]) if t == node)
            out = sum(v for s, v in zip(links["source"], links["value"]) if s == node)
            assert inn == out
            carried = sum(v for s, t, v, k in zip(links["source"], links["target"], links["value"], links["kind"])
                          if t == node and k == "carried")
            end = sum(v for s, t, v, k in zip(links["source"], links["target"], links["value"], links["kind"])
                      if s == node and k == "end")
            assert carried == prev[p]
            assert end == res["gold"][p]
        prev = res["gold"]
        fig = viz.sankey_figure(game, r, lang="zh")
        assert fig.data[0].node.customdata[0] == "銀行（支出）"
        # every node is labelled with its name and the gold through it (issue 15)
        paid = sum(v for s, v in zip(links["source"], links["value"]) if s == 0)
        assert fig.data[0].node.label[0] == f"銀行（支出） · ${paid}"
        assert fig.data[0].node.label[1].startswith(game.names[0] + " · $")
        assert f"第 {r} 回合" in fig.layout.title.text


def test_gold_figure_follows_the_engine():
    game = FINISHED[1]
    st = game.state
    fig = viz.gold_figure(game)
    assert [t.name for t in fig.data] == list(game.names)
    for p, trace in enumerate(fig.data):
        assert trace.y[-1] == st.gold[p]
    ends = [i for i, ev in enumerate(game.log) if ev["kind"] == "marker_passed"]
    for i, res in zip(ends, st.round_results):
        for p, trace in enumerate(fig.data):
            assert trace.y[i] == res["gold"][p]
    assert len([s for s in fig.layout.shapes]) == st.rounds  # a line where each round is dealt


# ---------------------------------------------------------------------- clear probabilities
def _late_dispatch(seed: int, rules: Rules) -> Game:
    def stop(g):
        st = g.state
        return st.phase == DISPATCH and sum(st.placed) >= 2 * st.n - 1
    return played(3, seed, rules, seed, stop=stop, prefer_bumps=0.0)


@pytest.mark.parametrize("seed, rules, totals", [
    (1, Rules(lords="none"), None), (6, Rules(lords="base"), None), (9, Rules(lords="all"), None),
    (1, Rules(lords="none"), (4, 4, 6)), (1, Rules(lords="none"), (5, 4, 8)),
    (6, Rules(lords="base"), (6, 6, 8)), (9, Rules(lords="all"), (4, 5, 6)),
    (1, Rules(lords="base"), (4, 6, 8)),  # the Lich King: room 2's defence +2
    (15, Rules(lords="all"), (6, 5, 2)),  # Bigfun King: the last room's defence -3
])
def test_clear_probabilities_match_the_engines_resolution_over_every_deal(seed, rules, totals):
    """Enumerate every way the unseen cards can be the rooms' fronts, let the engine resolve
    each (``with_fronts`` then its own resolution), and compare. ``totals`` overrides the
    strength in each room (one adventurer of that strength) to reach fractional chances."""
    game = _late_dispatch(seed, rules)
    st = game.state.copy()
    if totals is not None:
        for i, total in enumerate(totals):
            st.slot_owner[2 * i], st.slot_str[2 * i] = 0, total
            st.slot_owner[2 * i + 1], st.slot_str[2 * i + 1] = EMPTY, 0
    probs = viz.clear_probabilities(st)
    unseen = st.unseen_cards()
    idx_by_level = {}
    for i, c in enumerate(unseen):
        idx_by_level.setdefault(c.level, []).append(i)
    levels = [c.level for c in st.rooms]
    per_level = {lv: [i for i, l in enumerate(levels) if l == lv] for lv in set(levels)}
    cleared_counts = [0] * len(levels)
    total = 0
    choices = [itertools.permutations(idx_by_level[lv], len(rooms)) for lv, rooms in per_level.items()]
    for combo in itertools.product(*choices):
        fronts = [None] * len(levels)
        used = set()
        for (lv, rooms), picks in zip(per_level.items(), combo):
            for room, pick in zip(rooms, picks):
                fronts[room] = unseen[pick]
                used.add(pick)
        rest = [c for i, c in enumerate(unseen) if i not in used]
        world = st.with_fronts(fronts, rest)
        world.log = []
        failed_from = world._resolve()
        for i in range(failed_from):
            cleared_counts[i] += 1
        total += 1
    for i, (alone, cleared) in enumerate(probs):
        assert cleared == Fraction(cleared_counts[i], total), i
        assert 0 <= cleared <= alone <= 1


def test_clear_probability_alone_agrees_with_the_analysis_module():
    from dungeon_guilds.analysis import probability as prob
    game = _late_dispatch(6, Rules(lords="all"))
    st = game.state
    for i, (alone, _) in enumerate(viz.clear_probabilities(st)):
        assert alone == prob.clear_probability(st, i)


def test_clear_probability_figure_data():
    game = _late_dispatch(1, Rules())
    st = game.state
    fig = viz.clear_probability_figure(game, lang="zh")
    probs = viz.clear_probabilities(st)
    assert [t.meta for t in fig.data] == ["alone", "cleared"]
    assert list(fig.data[0].y) == [float(a) for a, _ in probs]
    assert list(fig.data[1].y) == [float(c) for _, c in probs]
    assert fig.data[0].x[0].startswith("房間 1")


def test_clear_probabilities_after_the_game_are_certain():
    game = FINISHED[0]
    probs = viz.clear_probabilities(game)
    cleared = game.state.round_results[-1]["cleared"]
    assert [c for _, c in probs] == [1] * cleared + [0] * (len(probs) - cleared)


def test_timeline_markers_are_words_not_codes():
    """Issue 24.8: a marker says "3 / room 1" (and "replaces" for a bump), in the page's
    language, never "3→1" / "3→1a"; its hover is the log's whole sentence."""
    game, _ = bump_scenario(4, 0, [(6, 0)])
    tl = {tr.position + 1: tr for tr in events.turns(game.log, 1)}
    for lang, word, bump_word in (("en", "<br>room", "replaces"), ("zh", "<br>房間", "替換別人")):
        fig = viz.timeline_figure(game, 1, lang=lang)
        for trace in fig.data[1:]:
            for text, cd, hover in zip(trace.text, trace.customdata, trace.hovertext):
                turn = tl[cd[0]]
                assert "→" not in text
                if turn.kind == "passed":
                    continue
                assert text.startswith(str(turn.event['strength'])) and f"{word} {turn.event['room']}" in text
                assert (bump_word in text) == (turn.kind == "bumped")
                assert hover == i18n.event_text(turn.event, game.names, lang)
