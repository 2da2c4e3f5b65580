"""The level arithmetic of multi-table tournaments (docs/tournaments.md "Multi-table tournaments: seating and
places"). Pure: no database, no Django.

A PCR schedule rises by level like blinds; a level lasts `rounds_per_level` rounds of a table, counted per
table. When the next elimination reaches the prize places (the bubble), tables play round-for-round.
"""

from __future__ import annotations

from collections.abc import Sequence


def level_of(round_number: int, *, rounds_per_level: int) -> int:
    """The 1-based level of a table's 1-based round: rounds 1..rounds_per_level are level 1."""
    if round_number < 1 or rounds_per_level < 1:
        raise ValueError("rounds and levels are counted from 1")
    return (round_number - 1) // rounds_per_level + 1


def pcr_for(level: int, *, schedule: Sequence[int]) -> int:
    """The PCR of a 1-based level; past the end of the schedule, its last PCR."""
    if level < 1 or not schedule:
        raise ValueError("levels are counted from 1 and a schedule has at least one PCR")
    return schedule[min(level, len(schedule)) - 1]


def in_bubble(*, still_in: int, paid_places: int) -> bool:
    """Round-for-round at the bubble (docs/tournaments.md "Multi-table tournaments: seating and places": once
    the next elimination reaches the prize places, tables play round-for-round): the next bust is the last
    unpaid place, i.e. still_in == paid_places + 1, with at least two players left."""
    return still_in > 1 and still_in == paid_places + 1
