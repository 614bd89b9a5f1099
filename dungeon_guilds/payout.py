"""How a cleared room's treasure is split (R5.2, R10.2).

The treasure is split evenly between the owners of the room's two adventurers. The odd
remainder goes to the owner of the stronger adventurer; if both are equally strong it goes back
to the bank. If both adventurers belong to one player, that player takes it all. An NPC's share
(and any remainder it wins) goes back to the bank (R10.2).
"""

from __future__ import annotations

NPC = -2  # owner code of an NPC adventurer (R10.2)
EMPTY = -1  # owner code of an empty slot


def split(treasure: int, occupants: list[tuple[int, int]]) -> tuple[dict[int, int], int]:
    """Split ``treasure`` between ``occupants`` [(owner, strength), ...] of a cleared room.

    Returns ``(shares, to_bank)``: gold per player (owner index) and what stays in the bank.
    """
    shares: dict[int, int] = {}
    if not occupants:
        return shares, treasure  # nobody to pay (possible only after R4.7)
    if len(occupants) == 1 or occupants[0][0] == occupants[1][0]:
        owner = occupants[0][0]
        if owner == NPC:
            return shares, treasure
        shares[owner] = treasure  # R5.2 one owner takes it all
        return shares, 0
    (o1, s1), (o2, s2) = occupants
    half, rest = divmod(treasure, 2)
    to_bank = 0
    for owner in (o1, o2):
        if owner == NPC:
            to_bank += half  # R10.2 the NPC's share returns to the bank
        else:
            shares[owner] = shares.get(owner, 0) + half
    if rest:
        if s1 == s2:
            to_bank += rest  # R5.2 equal strength: the remainder goes back to the bank
        else:
            winner = o1 if s1 > s2 else o2
            if winner == NPC:
                to_bank += rest
            else:
                shares[winner] = shares.get(winner, 0) + rest
    return shares, to_bank
