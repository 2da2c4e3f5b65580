"""The places of busted players in multi-table tournaments (docs/tournaments.md "Multi-table tournaments:
seating and places"). Pure: no database, no Django.

Busts at different tables rank by settlement time (earlier = lower place); busts in the same round of one table
rank by chips at the start of that round, then by the round's melded-and-built value, then share the place (the
best of their block, leaving a gap after it like sports rankings: 1, 2, 2, 4). `tournaments.tournament.payouts`
`split_prizes` then splits the prizes of shared places.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Bust:
    entry: int
    start_chips: int  # tournament chips at the start of the round the player busted in
    melded: int  # the round's melded-and-built value


def places_for_busts(busts: Sequence[Bust], *, still_in: int) -> dict[int, int]:
    """The places of the players busted together in one round of one table, `still_in` players having chips
    after these busts: places still_in+1 .. still_in+len(busts), more start chips first, then more melded;
    equal keys share the best place of their block."""
    if still_in < 0:
        raise ValueError("still_in is never negative")
    entries = [bust.entry for bust in busts]
    if len(set(entries)) != len(entries):
        raise ValueError("an entry busts at most once in a round")
    keys = sorted(((bust.start_chips, bust.melded) for bust in busts), reverse=True)
    first: dict[tuple[int, int], int] = {}
    for index, key in enumerate(keys):
        first.setdefault(key, index)
    return {bust.entry: still_in + 1 + first[(bust.start_chips, bust.melded)] for bust in busts}


def final_places(*, still_in: Sequence[int], groups: Sequence[Sequence[Bust]]) -> dict[int, int]:
    """Everybody's place from scratch. `still_in` (at the end: the winner alone) take places 1, 2, ... in the
    order given; `groups` are the bust groups in the order they happened, earliest first: a later group places
    better, and within a group `places_for_busts` decides.

    An entry that busted, re-entered and is still in (or busted again later) is placed by its last appearance:
    its earlier busts are dropped."""
    if len(set(still_in)) != len(still_in):
        raise ValueError("an entry is still in once")
    places = {entry: index + 1 for index, entry in enumerate(still_in)}
    placed = len(places)
    for group in reversed(groups):
        latest = [bust for bust in group if bust.entry not in places]
        places.update(places_for_busts(latest, still_in=placed))
        placed += len(latest)
    return places
