"""Issue 24, item 7: the NPC cases and the team variant's worked example, stated on the rule
cards R10.2 and R10.1 (and in notebook 05). Every number the cards print is the engine's
(``rule_examples.npc_lock`` / ``npc_succubus`` / ``team_partner_bump`` / ``team_result``), in
both languages: change a rule in the engine and this fails until the text is changed with it."""

from __future__ import annotations

from dungeon_guilds import i18n
from dungeon_guilds import rule_examples as E
from dungeon_guilds.payout import NPC


def body(rule: str, lang: str) -> str:
    return i18n.t(f"rulecard.{rule}.body", lang)


def test_an_npc_moving_in_locks_a_room_as_the_card_says():
    d = E.npc_lock()
    assert d["rooms"] == 4 and d["levels"][:3] == [1, 1, 1]  # 3 players + 1 room (R10.2)
    assert d["to_room"] == 3 and d["strength"] == 1  # room 2 is full: on to room 3, a Lv1 room
    assert d["total"] == 4 + d["strength"] == d["threshold"]  # R4.3: Ann's 4 + the NPC
    assert d["locked"] == [1, 3]  # room 1 (2 + 3) and the room the NPC entered
    en, zh = body("R10_2", "en"), body("R10_2", "zh")
    assert (f"the NPC joins Ann with strength {d['strength']}, and 4 + {d['strength']} = {d['total']} "
            f"locks room {d['to_room']}") in en
    assert f"NPC 以力量 {d['strength']} 加入 Ann，4 + {d['strength']} = {d['total']}，房間 {d['to_room']} 鎖定" in zh
    assert f"a round has {d['rooms']} rooms, numbered 1 to {d['rooms']} from the top" in en
    assert f"每回合有 {d['rooms']} 個房間，從上到下編號 1 到 {d['rooms']}" in zh


def test_a_strength_1_npc_stays_under_the_succubus_as_the_card_says():
    d = E.npc_succubus()
    assert d["room_1"] == [(NPC, 1)] and d["npc_rooms"] == [1, 2]
    assert d["ann_places_1"] is not None and d["ann_places_1"].code == "lord_forbids"  # R7.5 stops players
    assert "Under the Succubus a strength-1 NPC still stands in a Lv1 room" in body("R10_2", "en")
    assert "魅魔在場時，力量 1 的 NPC 仍留在 Lv1 房間" in body("R10_2", "zh")


def test_the_team_worked_example_is_the_engines():
    bump = E.team_partner_bump()
    assert bump["team"] == [0, 1, 0, 1]  # Ann + Cy, Bo + Di
    assert bump["change"] == [-(bump["bank"] + bump["partner"]), 0, bump["partner"], 0]
    assert bump["team_change"] == -bump["bank"] == -1
    end = E.team_result()
    assert end["team_gold"][0] == end["team_gold"][1]  # a tie in team gold
    (ann,), (bo,), (cy,), (di,) = end["unplayed"]
    assert end["team_tiebreak"] == [ann + cy, bo + di] and end["winners"] == ["Ann", "Cy"]
    en, zh = body("R10_1", "en"), body("R10_1", "zh")
    assert (f"Ann pays ${bump['bank']} to the bank and ${bump['partner']} to Cy, so the team is down only "
            f"${-bump['team_change']}") in en
    assert f"Ann 付銀行 ${bump['bank']}、付 Cy ${bump['partner']}，所以隊伍只少了 ${-bump['team_change']}" in zh
    sums = f"Ann {ann} + Cy {cy} = {ann + cy}", f"Bo {bo} + Di {di} = {bo + di}"
    assert f"{sums[0]} beats {sums[1]}, so Ann and Cy win" in en
    assert f"{sums[0]} 勝過 {sums[1]}，Ann 和 Cy 獲勝" in zh
