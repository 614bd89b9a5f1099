"""The notebooks' statements of a rule, checked against the engine (issue 15, teaching gaps).

Each test reads a sentence of a notebook's prose (by cell id), takes the numbers it states and
recomputes them with the engine or the sibling kernels, so a rule change (or a text edit) that
makes the prose wrong fails here. Statements that are not numbers are checked for being there
(the complete statement) and, where they describe an engine behaviour, that behaviour is tested.
"""

from __future__ import annotations

import json
import re
import tomllib
from fractions import Fraction
from pathlib import Path

import pytest

from dungeon_guilds import Game, RoomCard, Rules
from dungeon_guilds.i18n import event_text, t
from dungeon_guilds.siblings import dungeon
from dungeon_guilds.state import strengths_of

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = ROOT / "notebooks"


def text(name: str, cell_id: str) -> str:
    nb = json.loads((NOTEBOOKS / name).read_text(encoding="utf-8"))
    cell = next(c for c in nb["cells"] if c.get("id") == cell_id)
    src = cell["source"]
    prose = "".join(src) if isinstance(src, list) else src
    prose = re.sub(r"<span>&#36;([0-9]*)</span>", r"$\1", prose)  # money as written (issue 24) read as $N
    return " ".join(prose.split())


def number(pattern: str, prose: str) -> int:
    m = re.search(pattern, prose)
    assert m, f"the statement {pattern!r} is no longer in the notebook text: {prose[:300]!r}"
    return int(m.group(1))


# ------------------------------------------------------------------ 08: Dungeon!'s counter-attack
def test_dungeon_counter_attack_counts_are_the_kernels():
    """08: 'Only 1 roll in 36 kills you … The 6–10 band — 23 rolls in 36 — costs exactly one
    treasure card, an 11 (2 in 36) half of them: in all, 26 rolls in 36 … the 10 rolls of 5 or
    less nothing' (seed 004 lines 66-79)."""
    prose = text("08_sibling_games.ipynb", "ba5dc10d")
    dist = {k: v * 36 for k, v in dungeon.counter_attack_distribution().items()}
    assert number(r"Only (\d+) rolls? in 36 kills you", prose) == dist["killed"]
    assert number(r"6–10 band — (\d+) rolls in 36", prose) == dist["wounded"] + dist["scared"]
    assert number(r"an 11 \((\d+) in 36\)", prose) == dist["badly_wounded"]
    assert number(r"in all, (\d+) rolls in 36 cost you treasure", prose) == 36 - dist["missed"]
    assert number(r"the (\d+) rolls of 5 or less nothing", prose) == dist["missed"]
    bands = {b.key: (b.low, b.high) for b in dungeon.COUNTER_ATTACK}
    assert bands["scared"][0] == 6 and bands["wounded"][1] == 10 and bands["badly_wounded"] == (11, 11)


def test_dungeon_fighter_is_stated_fully_cooperative():
    """08 says Dungeon Fighter is fully cooperative (seed 001 line 5: all win or all lose), as the
    comparison data does."""
    for cell_id in ("000b2ae7", "f05900dc"):
        assert "fully cooperative" in text("08_sibling_games.ipynb", cell_id)
    data = tomllib.loads((ROOT / "dungeon_guilds/siblings/data/comparison.toml").read_text("utf-8"))
    coop = [r["value"] for r in data["cell"] if r.get("game") == "dungeon_fighter"
            and r.get("attribute") == "cooperation"]
    assert len(coop) == 1 and coop[0].startswith("Fully cooperative")


# ------------------------------------------------------------------ 03: healing (R6.1)
def test_unpaid_heal_costs_are_dropped_not_carried():
    """03 §2: 'A player who cannot pay everything pays what they have and the rest is dropped:
    nobody goes below $0, and no debt is carried into a later round' (R6.1)."""
    prose = text("03_payouts_and_healing.ipynb", "c08")
    assert "the rest is **dropped**" in prose and "no debt is carried" in prose
    rooms = [RoomCard(1, 5, 3), RoomCard(2, 6, 5), RoomCard(3, 8, 9)] * 3
    g = Game(["Ann", "Bo", "Cy"], rooms=rooms, lords=["succubus", "beholder", "guardian"],
             rules=Rules(lords="none"), exhaust={"Ann": (1, 2), "Bo": (4, 5), "Cy": (4, 5)})
    assert g.state.gold[0] == 2 + g.deck.heal_cost(1) + g.deck.heal_cost(2) == 3
    for move in ["place 5 2", "place 1 1", "place 2 1", "place 3 3", "place 3 3", "place 4 2"]:
        g.push(move)  # room 1 (1 + 2 < 5) fails, and every room below it (R5.1)
    healed = {e["player"]: e for e in g.log if e["kind"] == "healed" and e["round"] == 1}
    owed = g.deck.heal_cost(5) + g.deck.heal_cost(4)
    assert (healed[0]["paid"], healed[0]["cost"]) == (3, owed) and owed > 3
    assert g.state.gold[0] == 0
    # round 2: Ann's round-2 heal costs only; the $2 she could not pay is gone
    gold_before = g.state.gold[0]
    for move in ["place 4 1", "place 5 3", "place 3 1", "place 2 2", "place 4 2", "place 5 3"]:
        g.push(move)  # Bo starts round 2 (R6.3); every room clears
    assert not [e for e in g.log if e["kind"] == "healed" and e["round"] == 2]
    paid_in = sum(v for e in g.log if e["kind"] == "cleared" and e["round"] == 2
                  for p, v in e["shares"].items() if int(p) == 0)
    assert g.state.gold[0] == gold_before + paid_in


# ------------------------------------------------------------------ 01: bump, swap, stronger
def test_swap_and_bump_statements_of_notebook_01():
    """01 §3: 'strictly stronger … a 4 never replaces a 4'; the swapped-out adventurer returns
    to its owner's hand, active, and may be placed again this round (R4.4, R4.5)."""
    prose = text("01_first_round.ipynb", "c11")
    assert "**strictly** stronger" in prose and "a 4 never replaces a 4" in prose
    g = Game(["Ann", "Bo", "Cy"], seed=7, rules=Rules(lords="none"),
             exhaust={"Ann": (1, 2), "Bo": (1, 2), "Cy": (1, 2)})
    g.push("place 3 3")
    assert g.why_illegal("swap 3 3a")  # not strictly stronger: refused
    before = g.state.gold[0]
    g.push("place 4 3"); g.push("place 4 2"); g.push("place 3 2"); g.push("place 3 1")
    assert g.current_name == "Ann"
    g.push("swap 5 3a")  # Ann's 3 out of room 3, her 5 in
    assert g.state.gold[0] == before - number(r"paying \$(\d+) to the bank \(R4\.5\)", prose)
    assert 3 in strengths_of(g.state.active[0])  # back in hand, active: Ann may place it again
    assert g.current_name == "Ann" and "place 3 1" in g.legal_moves()


def test_bump_in_lv2_pays_as_notebook_01_says():
    """01 §3: 'Cy paid $2 for the bump: $1 to the bank and $1 to Bo (a Lv2 room, R4.4)' and
    'Room 2 locked at once: 4 + 4 = 8 ≥ 7 (R4.3)'."""
    prose = text("01_first_round.ipynb", "c17")
    g = Game(["Ann", "Bo", "Cy"], seed=7, rules=Rules(lords="none"),
             exhaust={"Ann": (1, 2), "Bo": (4, 5), "Cy": (2, 3)})
    for move in ["place 4 2", "place 2 2", "place 5 3", "bump 4 2b"]:
        g.push(move)
    bump = next(e for e in g.log if e["kind"] == "bumped")
    assert number(r"Cy paid \$(\d+) for the bump", prose) == bump["fee_bank"] + bump["fee_victim"]
    assert number(r"\$(\d+) to the bank and \$\d+ to Bo", prose) == bump["fee_bank"]
    assert number(r"to the bank and \$(\d+) to Bo", prose) == bump["fee_victim"]
    lock = next(e for e in g.log if e["kind"] == "locked" and e["room"] == 2)
    assert f"= {lock['total']} ≥ {lock['threshold']}" in prose


# ------------------------------------------------------------------ 04: the Lich King
def test_lich_king_statement_and_what_the_board_and_log_show():
    """04 §1: the Lich King moves room 2's lock threshold 7 → 9 and its treasure by $3; the board's
    range column moves with "Locks at" (7–9 instead of 5–7); the reveal log prints the card's
    numbers, then the numbers with the lord (R7.1, §7)."""
    from dungeon_guilds.drawing.display import rooms_table

    prose = text("04_dungeon_lords.ipynb", "c08")
    rooms = [RoomCard(1, 3, 2), RoomCard(2, 6, 5), RoomCard(3, 8, 9)]
    names = ["Ann", "Bo", "Cy"]
    plain = Game(names, rooms=rooms * 3, lords=["succubus", "vampire_lord", "beholder"],
                 rules=Rules(lords="none"), exhaust={n: (1, 2) for n in names})
    lich = Game(names, rooms=rooms * 3, lords=["lich_king", "vampire_lord", "beholder"],
                rules=Rules(lords="all"), exhaust={n: (1, 2) for n in names})
    m = re.search(r"lock threshold with it\*: (\d+) → (\d+)", prose)
    assert m and (int(m.group(1)), int(m.group(2))) == (plain.state.lock_threshold(1), lich.state.lock_threshold(1))
    assert number(r"its treasure by \$(\d+)", prose) == lich.state.lord_treasure_change(1) == 3
    m = re.search(r"Lv2: (\d+)–(\d+) instead of the printed (\d+)–(\d+)", prose)
    lo, hi = lich.state.levels[2].defence
    d = lich.state.lord_defence_change(1)
    assert m and tuple(map(int, m.groups())) == (lo + d, hi + d, lo, hi)
    table = rooms_table(lich.state, lich.log, "en")
    row2 = table.split('data-room="2"')[1].split("</tr>")[0]
    assert f"<b>{lo + d}–{hi + d}</b>" in row2 and f"<td>{lich.state.lock_threshold(1)}" in row2
    assert t("board.printed_range", "en", range=f"{lo}–{hi}") in row2
    for move in ["place 3 1", "place 3 1", "place 4 2", "place 5 2", "place 4 3", "place 5 3"]:
        lich.push(move)
    revealed = next(e for e in lich.log if e["kind"] == "revealed" and e["room"] == 2)
    line = event_text(revealed, names, "en")
    assert "defence 6, treasure $5" in line and "with the lord: defence 8, treasure $8" in line
    cleared = next(e for e in lich.log if e["kind"] == "cleared" and e["room"] == 2)
    assert (cleared["defence"], cleared["treasure"]) == (revealed["defence_now"], revealed["treasure_now"])


# ------------------------------------------------------------------ 05: lords="none" with NPCs
def test_npc_example_log_says_the_lord_only_counts_the_round():
    """05 §3 runs with lords="none": its stored log must not say the lord acts (R7.4)."""
    nb = json.loads((NOTEBOOKS / "05_variants.ipynb").read_text(encoding="utf-8"))
    out = "".join("".join(o.get("text", "")) for c in nb["cells"] if c.get("id") == "c11" for o in c["outputs"])
    assert "only counts the round" in out and "the lord is" not in out
    g = Game(["Ann", "Bo", "Cy"], seed=7, rules=Rules(lords="none", npc=True))
    dealt = next(e for e in g.log if e["kind"] == "dealt")
    assert dealt["effects"] is False
    assert "only counts the round" in event_text(dealt, g.names, "en")
    assert "只用來計算回合" in event_text(dealt, g.names, "zh")


# ------------------------------------------------------------------ "left" and "clockwise"
@pytest.mark.parametrize("name", ["01_first_round.ipynb", "02_snake_turn_order.ipynb", "08_sibling_games.ipynb"])
def test_left_is_always_said_to_be_clockwise(name):
    """R6.3: the marker passes to the left, the next player clockwise. Wherever a notebook says
    the marker moves or passes left, it says clockwise in the same sentence."""
    nb = json.loads((NOTEBOOKS / name).read_text(encoding="utf-8"))
    for cell in nb["cells"]:
        if cell["cell_type"] != "markdown":
            continue
        prose = " ".join("".join(cell["source"]).split())
        for sentence in re.split(r"(?<=[.;:])\s", prose):
            if re.search(r"\b(passes|passing|moves|move) (one seat )?(to the )?left\b", sentence):
                assert "clockwise" in sentence, f"{name}: 'left' without 'clockwise': {sentence!r}"


# ------------------------------------------------------------------ the stepper's buttons
def test_notebooks_name_the_stepper_buttons_as_they_read():
    """01, 03, 05 and 06 tell the reader which button to press: the label must be the button's
    (issue 20: the text said "To end of round", the button reads "▶▶ end of round")."""
    labels = {t("ui.to_round", "en"), t("ui.to_game", "en"), t("ui.step", "en")}
    for name in ("01_first_round.ipynb", "03_payouts_and_healing.ipynb", "05_variants.ipynb",
                 "06_strategies_tournament.ipynb"):
        nb = json.loads((NOTEBOOKS / name).read_text(encoding="utf-8"))
        prose = "".join("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "markdown")
        assert "To end of" not in prose, f"{name} names a button that does not exist"
        named = set(re.findall(r"\*\*([^*]*(?:end of|Step)[^*]*)\*\*", prose))
        assert named and named <= labels, f"{name}: {named - labels} are not button labels {labels}"
    assert "stops whenever it is Ann's turn" in text("01_first_round.ipynb", "c02")


def test_fractions_are_exact():
    assert sum(dungeon.counter_attack_distribution().values()) == Fraction(1)
