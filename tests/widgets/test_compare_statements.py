"""Issue 24, item 7: what Compare and notebook 08 never stated.

* Which of the four games are cooperative and which competitive is said above the side-by-side
  table whatever pair is chosen (before, only the two games picked were described).
* Dungeon!'s counter-attack table shows each outcome's effect in English (it showed the
  outcome's name again; the effects were in Chinese only), and notebook 08 states them.
* The R7.2 card says what its ruling replaces instead of "Revised ruling"."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

import pytest

pytest.importorskip("ipywidgets")

from dungeon_guilds import i18n  # noqa: E402
from dungeon_guilds.siblings import GAMES, comparison, dungeon  # noqa: E402
from dungeon_guilds.widgets.compare import CompareExplorer  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_compare_says_which_games_are_cooperative_for_all_four(lang):
    cmp = CompareExplorer(lang=lang)
    facts = {c["game"]: c["value"] for c in comparison._data()["cell"] if c["attribute"] == "cooperation"}
    assert set(facts) == set(GAMES)
    block = html.unescape(re.search(r"<div class=.dg-cmp-cooperation.>.*?</div>", cmp.cooperation.value).group())
    for game in GAMES:
        assert cmp._game_name(game) in block and cmp._fact(game, "cooperation", facts[game]) in block
    assert ("Fully cooperative" if lang == "en" else "完全合作") in block


def test_the_counter_attack_table_shows_the_effects_in_english():
    cmp = CompareExplorer(lang="en")
    for band in dungeon.COUNTER_ATTACK:
        assert band.effect in cmp.odds.value.replace("&#x27;", "'")
    assert "back to the start hall" in cmp.odds.value


def test_notebook_08_states_the_counter_attack_effects():
    nb = json.loads((ROOT / "notebooks" / "08_sibling_games.ipynb").read_text(encoding="utf-8"))
    text = "".join("".join(c["source"]) + "".join("".join(o.get("text", "")) for o in c.get("outputs", []))
                   for c in nb["cells"])
    for band in dungeon.COUNTER_ATTACK:
        assert band.effect in text
    assert "back to the start hall" in text


def test_the_r7_2_card_says_what_its_ruling_replaces():
    for lang in ("en", "zh"):
        ruling = i18n.t("rulecard.R7_2.ruling", lang)
        assert "Revised" not in ruling and "修訂" not in ruling
    assert "Earlier versions" in i18n.t("rulecard.R7_2.ruling", "en")
