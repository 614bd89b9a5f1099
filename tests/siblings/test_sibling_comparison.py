"""The sourced comparison: every cell has a source, and every cited line still says what we cite.

Document citations are checked against the lines the package quotes
(``dungeon_guilds/siblings/data/quotes.toml``, each with its document and section) and rule
citations against docs/rules.md, so the checks run in a clone with nothing beside it.
"""

from __future__ import annotations

from fractions import Fraction

import pandas as pd
import pytest

from dungeon_guilds.siblings import (
    DOCUMENTS, GAMES, Source, comparison, dungeon, dungeon_fighter, dungeon_lords, graphs,
    quote, rules_path, verify_source,
)
from dungeon_guilds.siblings import _quotes_data
from dungeon_guilds.turn_order import snake_order



def all_cell_sources():
    for cell in comparison._data()["cell"]:
        for s in comparison.cell_sources(cell):
            yield f"{cell['game']}/{cell['attribute']}", s


def all_kernel_sources():
    for module in (dungeon, dungeon_lords, dungeon_fighter):
        for key, s in module.CITATIONS.items():
            yield f"{module.__name__.rsplit('.', 1)[-1]}: {key}", s
    for key, (_, s) in dungeon_lords.PHASES.items():
        yield f"dungeon_lords phase {key}", s
    for text, s in dungeon_lords.YEAR_TWO_CHANGES:
        yield f"dungeon_lords year two: {text}", s
    for b in dungeon.COUNTER_ATTACK:
        yield f"dungeon counter {b.key}", b.source
    for s in graphs.phase_sources():
        yield "graphs", s
    for m in comparison._data()["mechanism"]:
        yield f"mechanism {m['game']}/{m['name']}", Source.from_dict(m["source"])


def test_every_game_has_every_attribute_once():
    df = comparison.facts()
    assert len(df) == len(GAMES) * len(comparison.attributes()) == 44
    assert not df.duplicated(["game", "attribute"]).any()
    assert set(df["game"]) == set(GAMES)


def test_every_cell_has_a_source():
    df = comparison.facts()
    assert (df["n_sources"] >= 1).all()
    assert df["sources"].str.len().gt(0).all()
    for where, s in all_cell_sources():
        assert s.kind in ("doc", "rules", "outside"), where
        if s.kind == "doc":
            assert s.line >= 1 and s.keyword, where


def test_outside_facts_are_marked_with_their_origin():
    df = comparison.facts()
    outside = df[df["outside"]]
    assert set(outside["attribute"]) >= {"play_time"}
    assert outside["sources"].str.contains("outside fact").all()
    for where, s in all_cell_sources():
        if s.is_outside:
            assert len(s.origin) > 10, where
    # Dungeon Guilds' play time is in its rulebook, not outside
    guilds = df.set_index(["game", "attribute"]).loc[("dungeon_guilds", "play_time")]
    assert not guilds["outside"] and guilds["sources"] == "the Chinese rulebook § 基本資訊, line 11"


def test_every_comparison_citation_holds():
    problems = [f"{where}: {verify_source(s)}" for where, s in all_cell_sources() if verify_source(s)]
    assert not problems, "\n".join(problems)


def test_every_kernel_citation_holds():
    problems = [f"{where}: {verify_source(s)}" for where, s in all_kernel_sources() if verify_source(s)]
    assert not problems, "\n".join(problems)


def test_verify_source_catches_rot():
    assert verify_source(Source("doc", "dungeon", 69, "怪物殺了你")) is None
    assert verify_source(Source("doc", "dungeon", 70, "怪物殺了你")) is not None  # wrong line
    assert verify_source(Source("doc", "dungeon", 999, "x")) is not None  # not quoted
    assert verify_source(Source("doc", "nowhere", 1, "x")) is not None
    assert verify_source(Source("rules", "R4.1", keyword="Snake order")) is None
    assert verify_source(Source("rules", "R99.9", keyword="x")) is not None
    assert verify_source(Source("outside", origin="")) is not None


def test_the_rules_reference_is_in_the_repository():
    assert rules_path().is_file() and rules_path().parent.name == "docs"


def test_every_quote_is_cited_names_a_known_document_and_a_section():
    """The quotes are data the package needs, not a copy of the documents: every quoted line
    is cited somewhere, and every quote says which document and section it comes from."""
    cited = {(s.ref, s.line) for _, s in list(all_cell_sources()) + list(all_kernel_sources())
             if s.kind == "doc"}
    quoted = {(q["doc"], q["line"]) for q in _quotes_data()["quote"]}
    assert quoted == cited
    for q in _quotes_data()["quote"]:
        assert q["doc"] in DOCUMENTS and q["section"].strip() and q["text"].strip(), q
    assert {d.name for d in DOCUMENTS.values()} >= {"the Chinese rulebook", "the French summary"}
    assert {d.game for d in DOCUMENTS.values()} == set(GAMES)


def test_a_source_reads_as_document_section_and_line_and_keeps_them_as_data():
    s = dungeon_lords.CITATIONS["reveal together, start player first"]
    assert str(s) == "the Dungeon Lords building notes § 命令階段(Order Phase), line 46"
    ref = s.reference()
    assert ref["game"] == "dungeon_lords" and ref["document"] == "the Dungeon Lords building notes"
    assert ref["section"] == "命令階段(Order Phase)" and ref["line"] == 46
    assert s.keyword in ref["quote"] == quote("lords", 46)[1]
    rule = Source.from_dict({"rule": "R4.1", "keyword": "Snake order"})
    assert str(rule) == "docs/rules.md R4.1" and rule.reference()["section"] == "R4.1"
    with pytest.raises(ValueError, match="unknown document"):
        Source.from_dict({"doc": "000", "line": 1, "keyword": "x"})


def test_tables():
    table = comparison.comparison_table()
    assert table.shape == (11, 4) and not table.isna().any().any()
    sbs = comparison.side_by_side("dungeon_guilds", "Dungeon!")
    assert list(sbs.columns) == ["attribute", "Dungeon Guilds", "Dungeon Guilds — sources",
                                 "Dungeon!", "Dungeon! — sources"]
    assert sbs.loc[sbs["attribute"] == "Turn-order scheme", "Dungeon! — sources"].item() == "the Dungeon! rules post § 遊戲流程, line 38"
    assert "docs/rules.md R4.1" in comparison.comparison_table(with_sources=True).loc["Turn-order scheme", "Dungeon Guilds 地城聯盟"]
    with pytest.raises(KeyError):
        comparison.side_by_side("chess", "dungeon")


def test_similarity_is_jaccard():
    sets = comparison.mechanism_sets()
    sim = comparison.similarity_matrix(as_float=False)
    for a in GAMES:
        for b in GAMES:
            x, y = sets[a], sets[b]
            assert sim.loc[GAMES[a][0], GAMES[b][0]] == Fraction(len(x & y), len(x | y))
    assert (sim.values == sim.values.T).all()
    assert all(sim.iloc[i, i] == 1 for i in range(4))
    # the two worker-placement games are the closest pair
    assert comparison.jaccard("dungeon_guilds", "dungeon_lords") == max(
        comparison.jaccard(a, b) for a in GAMES for b in GAMES if a != b)
    assert "worker placement" in comparison.shared_mechanisms("dungeon_guilds", "dungeon_lords")


def test_computed_concepts_join_the_main_engine():
    cc = comparison.computed_concepts(4)
    assert cc.loc[cc.index[0], "Dungeon Guilds"] == str(snake_order(4, 0, 8))
    assert comparison.turn_sequence("dungeon_guilds", 5, 10) == snake_order(5, 0, 10)
    assert comparison.turn_sequence("dungeon_fighter", 4, 6) == [0, 1, 2, 1, 2, 3]
    assert comparison.turn_sequence("dungeon", 3, 6) == [0, 1, 2, 0, 1, 2]


def test_probability_frames():
    assert comparison.win_chance_frame().set_index("needed").loc[7, "P(win)"] == "7/12"
    ca = comparison.counter_attack_frame()
    assert list(ca["P"]) == ["1/36", "1/18", "1/3", "11/36", "5/18"]
    assert list(comparison.expected_loss_frame(2)["E[cards lost]"]) == ["0", "13/18", "3/4"]
    assert comparison.eye_frame("coloured").loc[0, "at least 1"] == "1/2"
    cf = comparison.contention_frame((4,), years=5)
    assert isinstance(cf, pd.DataFrame) and list(cf["position"]) == [1, 2, 3, 4, "all"]


def test_every_compared_game_is_a_sibling_game_with_its_own_column():
    """Issue 17: the comparison iterates over one protocol, not over per-game branches."""
    from dungeon_guilds.siblings import GAMES
    from dungeon_guilds.siblings.base import CONCEPTS, SiblingGame
    from dungeon_guilds.siblings.comparison import SIBLINGS, computed_concepts

    assert [g.key for g in SIBLINGS] == list(GAMES)
    table = computed_concepts(3)
    for g in SIBLINGS:
        assert isinstance(g, SiblingGame)
        assert set(g.concepts(3)) == set(CONCEPTS)
        assert g.rules() and g.players()
        assert list(table[g.name]) == [g.concepts(3)[k] for k in CONCEPTS]
    assert SIBLINGS[0].turn_sequence(3, 7) == [0, 1, 2, 2, 1, 0, 0]  # R4.1 snake


def test_the_dungeon_lords_player_is_not_a_second_lord_class():
    from dungeon_guilds.siblings import dungeon_lords as dl

    assert not hasattr(dl, "Lord")
    assert dl.deal_adventurers([1, 2], [dl.DungeonLordsPlayer("A", 2, 0),
                                        dl.DungeonLordsPlayer("B", 1, 1)]) == {"B": 1, "A": 2}
