"""The codes of refusals and other user errors, each with the rule it applies (R-numbers of
docs/rules.md; ``""`` where no numbered rule does). The words for each code are templates in
``strings/<lang>/refusals.toml``; see :mod:`dungeon_guilds.errors` and
:func:`dungeon_guilds.i18n.refusal_text`. Codes are stable: tests, the board and translations
key on them, so rename one only with all of those.
"""

from __future__ import annotations

#: The codes a move can be refused with (``State.refusal``, ``Game.refusal``) -> rule.
REFUSALS: dict[str, str] = {
    "game_over": "R6.4",
    "not_your_turn": "R4.1",
    "exhaust_first": "R2.4",
    "exhaust_same_twice": "R2.4",
    "exhaust_after_setup": "R2.4",
    "no_such_strength": "R1.1",
    "no_such_room": "R2.3",
    "not_an_action": "",
    "adventurer_exhausted": "R6.2",
    "adventurer_in_dungeon": "R4.3",
    "lord_forbids": "R7.5",
    "room_full": "R4.3",
    "slot_empty": "R4.3",
    "room_locked": "R4.3",
    "bump_own": "R4.5",
    "room_not_full": "R4.4",
    "bump_too_weak": "R4.4",
    "bump_fee": "R4.6",
    "bump_npc_fee": "R4.6",
    "swap_other": "R4.5",
    "swap_npc": "R4.5",
    "swap_room_not_full": "R9.1",
    "swap_too_weak": "R4.5",
    "swap_fee": "R4.6",
}

#: Other user errors with a code (not refusals of a move) -> rule.
OTHER_ERRORS: dict[str, str] = {
    "exhaust_two": "R2.4",  # exhaust choices given to Game(...) up front
    "exhaust_chosen": "R2.4",  # a second secret setup choice of one seat (table_model.SecretSetup)
    "undo_too_far": "",
    "move_not_text": "",
    "move_unreadable": "",
    "move_unknown_kind": "",
    "move_no_slot_letter": "",
    "move_needs_slot": "",
    "not_a_player": "",
    "player_count": "R3",
    "team_player_count": "R10.1",
    "npc_player_count": "R10.2",
    "names_differ": "",
}

#: Every code -> the rule it applies ("" where no numbered rule does).
CODES: dict[str, str] = {**REFUSALS, **OTHER_ERRORS}
