"""One game played by bots, its rows for the simulation's tables (standard library only).

:func:`play_game` is the simulator's unit of work (:mod:`.simulate` runs it in chunks and
frames the rows with pandas); it needs no pandas, so the design challenges
(:mod:`dungeon_guilds.workshop.challenges`) play games with it in the browser too. Game ``g``
of a run seeded ``s`` is fully determined by ``(s, g)`` (see :mod:`.simulate`).
"""

from __future__ import annotations

from typing import Sequence

from ..cards import Deck
from ..game import DEFAULT_NAMES, drawn_lords, rng, shuffled_rooms
from ..lords import Lord
from ..rules import Rules
from ..scoring import result
from ..actions import BUMP
from ..state import OVER, SETUP, State
from .bots import make_bot, parse_spec

__all__ = ["draw_lords", "lineup_for", "play_game"]


def lineup_for(bots: Sequence[str], players: int, game: int, rotate: bool) -> list[str]:
    if len(bots) == 1:
        return list(bots) * players
    if len(bots) != players:
        raise ValueError(f"give one bot per seat ({players}) or a single bot, not {len(bots)}")
    k = game % players if rotate else 0
    return list(bots[k:]) + list(bots[:k])


def draw_lords(pool: Sequence[Lord] | None, rules: Rules, n: int, gseed: str) -> list[Lord]:
    """R2.2: the lords of game seed ``gseed``: ``n`` drawn from ``pool`` by the game's ``lords``
    stream (exactly :func:`~dungeon_guilds.game.drawn_lords` when ``pool`` is None). Two pools
    of the same size draw the same positions, so replacing one lord of a pool by another keeps
    every other draw (the tightest common random numbers for an A/B experiment)."""
    if pool is None:
        return drawn_lords(rules, n, gseed)
    return rng(gseed, "lords").sample(list(pool), n)


def play_game(game: int, seed: int | str, lineup: Sequence[str], rules: Rules, deck: Deck,
              bot_options: dict | None = None, out: dict | None = None,
              lords: Sequence[Lord] | None = None) -> dict:
    """Play game ``game`` of a run seeded ``seed`` and append its rows to ``out`` (a dict of
    row lists: ``out["games"]``, ``out["rounds"]``, ``out["rooms"]``; rows are tuples in the
    order of ``GAME_COLUMNS``, ``ROUND_COLUMNS`` and ``ROOM_COLUMNS``). ``lords``: the pool the
    lords are drawn from (default: the pool the ``lords`` option allows)."""
    if out is None:
        out = _empty()
    bot_options = bot_options or {}
    n = len(lineup)
    gseed = f"{seed}/{game}"
    st = State.new(DEFAULT_NAMES[:n], shuffled_rooms(deck, gseed), draw_lords(lords, rules, n, gseed),
                   deck.levels, deck.heal_costs, rules=rules, start=0, log=False)
    bots = []
    labels = []
    for seat, spec in enumerate(lineup):
        name, noise = parse_spec(spec)
        bot = make_bot(name, seed=f"{gseed}/{seat}", noise=noise or 0.0, **bot_options.get(name, {}))
        bots.append(bot)
        labels.append(bot.label)
    decisions = [0] * n
    branching = [0] * n
    bumps = [0] * n  # R4.4 replacements of another player's adventurer, by the seat that paid
    round_levels = [[c.level for c in st.rooms]]
    rounds_done = 0
    before = [st.gold[:]]  # the starting gold: the setup gold counts in round 1's gain
    choosers = [b.fast_choose() for b in bots]
    legal_actions = st.legal_actions
    apply = st.apply_unchecked
    while st.phase == SETUP:  # R2.4 the secret exhaust choices
        p = st.current
        legal = legal_actions()
        decisions[p] += 1
        branching[p] += len(legal)
        apply(choosers[p](st, p, legal))
    bank = [(st.bank_out, st.bank_in)]  # at each round's dispatch start (setup gold excluded)
    while st.phase != OVER:
        p = st.current
        legal = legal_actions()
        decisions[p] += 1
        branching[p] += len(legal)
        action = choosers[p](st, p, legal)
        if action.kind == BUMP:
            bumps[p] += 1
        apply(action)
        if st.round != rounds_done:  # a round was resolved (st.round == len(st.round_results))
            _rounds_resolved(st, rounds_done, round_levels, bank, before)
            rounds_done = st.round
    _game_rows(game, st, labels, decisions, branching, bumps, out["games"])
    _round_rows(game, st, labels, round_levels, bank, before, out)
    return out


def _rounds_resolved(st: State, rounds_done: int, round_levels: list, bank: list, before: list) -> None:
    """Note the rounds resolved since ``rounds_done``: their bank flows, gold and the next
    round's room backs. Usually one; several when a round passed with no move at all (R4.7: a
    lord that bans every strength a player has active, e.g. a workshop ban of 1-3): such a
    round's rooms are not seen, so its backs are noted as the next round's and its bank flows
    (none: nobody placed) fall in the round before."""
    for r in range(rounds_done + 1, st.round + 1):
        if r < st.round or st.phase != OVER:
            round_levels.append([c.level for c in st.rooms])  # the new round's backs
        bank.append((st.bank_out, st.bank_in))
        before.append(list(st.round_results[r - 1]["gold"]))


def _game_rows(game: int, st: State, labels: list, decisions: list, branching: list, bumps: list,
               g: list) -> None:
    """One row a seat: final gold, rank and the share of the victory (R8.1, R10.1)."""
    n = st.n
    res = result(st)
    winners = res.winners
    share = 1.0 / len(winners) if winners else 0.0
    if res.team_gold is None:  # R8.1: gold, then unplayed strength
        scores = list(zip(res.gold, res.tiebreak))
        seat_score = scores
    else:  # R10.1: a seat ranks as its team, on team gold and team tie-break
        scores = list(zip(res.team_gold, res.team_tiebreak))
        seat_score = [scores[st.team[s]] for s in range(n)]
    lords = ",".join(lord.id for lord in st.lords)
    for seat in range(n):
        rank = 1 + sum(1 for sc in scores if sc > seat_score[seat])
        g.append((game, seat, labels[seat], n, res.gold[seat], res.tiebreak[seat], rank,
                  seat in winners, share if seat in winners else 0.0, st.actions_taken,
                  decisions[seat], branching[seat] / decisions[seat] if decisions[seat] else 0.0,
                  lords, bumps[seat]))


def _round_rows(game: int, st: State, labels: list, round_levels: list, bank: list, before: list,
                out: dict) -> None:
    """One row a round and seat (gold, gain, bank flows) and one a round and room."""
    r = out["rounds"]
    m = out["rooms"]
    for k, rr in enumerate(st.round_results):
        gold = rr["gold"]
        top = max(gold)
        sole = gold.count(top) == 1
        paid_out = bank[k + 1][0] - bank[k][0]
        paid_in = bank[k + 1][1] - bank[k][1]
        for seat in range(st.n):
            r.append((game, rr["round"], seat, labels[seat], rr["lord"], gold[seat],
                      gold[seat] - before[k][seat], sole and gold[seat] == top, rr["rooms"],
                      rr["cleared"], paid_out, paid_in))
        for i, level in enumerate(round_levels[k]):
            m.append((game, rr["round"], i + 1, level, i < rr["cleared"], rr["lord"]))


def _empty() -> dict:
    return {"games": [], "rounds": [], "rooms": []}
