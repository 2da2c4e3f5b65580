"""The places of busted players in multi-table tournaments (docs/tournaments.md "Multi-table tournaments:
seating and places"), without a database: busts of one round of one table rank by start chips then melded
value, equal keys share; later busts place better; shared places split their prizes."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.multi_table.planning.bust_ranking import Bust, final_places, places_for_busts
from tournaments.tournament.payouts import split_prizes


def test_more_start_chips_then_more_melded_rank_better() -> None:
    busts = [
        Bust(entry=1, start_chips=100, melded=5),
        Bust(entry=2, start_chips=300, melded=0),
        Bust(entry=3, start_chips=100, melded=40),
    ]
    assert places_for_busts(busts, still_in=5) == {2: 6, 3: 7, 1: 8}


def test_equal_keys_share_the_best_place_of_their_block() -> None:
    busts = [Bust(entry=e, start_chips=50, melded=10) for e in (1, 2, 3)]
    assert places_for_busts(busts, still_in=5) == {1: 6, 2: 6, 3: 6}
    busts.append(Bust(entry=4, start_chips=60, melded=0))
    assert places_for_busts(busts, still_in=5) == {4: 6, 1: 7, 2: 7, 3: 7}
    assert places_for_busts([], still_in=3) == {}


def test_bad_input_is_refused() -> None:
    with pytest.raises(ValueError, match="once"):
        places_for_busts([Bust(1, 5, 0), Bust(1, 6, 0)], still_in=1)
    with pytest.raises(ValueError, match="negative"):
        places_for_busts([Bust(1, 5, 0)], still_in=-1)
    with pytest.raises(ValueError, match="once"):
        final_places(still_in=[1, 1], groups=[])


def test_final_places_later_groups_place_better() -> None:
    groups = [
        [Bust(entry=10, start_chips=20, melded=0), Bust(entry=11, start_chips=20, melded=0)],  # first busts
        [Bust(entry=12, start_chips=5, melded=0)],
        [Bust(entry=13, start_chips=90, melded=3), Bust(entry=14, start_chips=90, melded=7)],
    ]
    assert final_places(still_in=[1], groups=groups) == {1: 1, 14: 2, 13: 3, 12: 4, 10: 5, 11: 5}


def test_a_reentered_entry_is_placed_by_its_last_appearance() -> None:
    groups = [
        [Bust(entry=1, start_chips=10, melded=0), Bust(entry=2, start_chips=5, melded=0)],
        [Bust(entry=1, start_chips=30, melded=0)],
    ]
    assert final_places(still_in=[3], groups=groups) == {3: 1, 1: 2, 2: 3}
    assert final_places(still_in=[1], groups=groups[:1]) == {1: 1, 2: 2}


bust_groups = st.lists(
    st.lists(st.tuples(st.integers(1, 4), st.integers(0, 2)), min_size=1, max_size=5), max_size=8
)


def _numbered(raw: list[list[tuple[int, int]]], first: int) -> list[list[Bust]]:
    groups, entry = [], first
    for group in raw:
        groups.append([Bust(entry=entry + i, start_chips=c, melded=m) for i, (c, m) in enumerate(group)])
        entry += len(group)
    return groups


@settings(max_examples=300)
@given(bust_groups, st.integers(1, 3))
def test_final_places_are_a_sports_ranking_consistent_with_each_round(
    raw: list[list[tuple[int, int]]], winners: int
) -> None:
    still_in = list(range(1, winners + 1))
    groups = _numbered(raw, first=100)
    places = final_places(still_in=still_in, groups=groups)
    total = winners + sum(len(g) for g in groups)
    assert len(places) == total
    # Places 1..N, each the 1 + number of players strictly better (ties share, gaps follow: 1, 2, 2, 4).
    assert all(1 <= p <= total for p in places.values())
    for _entry, place in places.items():
        assert place == 1 + sum(1 for other in places.values() if other < place)
    # Group by group, as the busts happened, places_for_busts gives the same places.
    left = total
    for group in groups:
        left -= len(group)
        assert places_for_busts(group, still_in=left) == {b.entry: places[b.entry] for b in group}
    # Later groups place better than earlier ones; the still-in players best.
    for earlier, later in itertools.pairwise(groups):
        assert max(places[b.entry] for b in later) < min(places[b.entry] for b in earlier)
    assert [places[e] for e in still_in] == list(range(1, winners + 1))


def test_a_shared_paid_place_and_a_shared_bubble_split_their_prizes() -> None:
    # Pool 1000 paid 50/30/20. Two busts share place 2 (30% + 20% split equally); at the bubble, two share
    # place 3 with only place 3 paid: its 20% split, the earlier registration taking the odd chip. No chips
    # move here: split_prizes is pure.
    shared_paid = final_places(still_in=[1], groups=[[Bust(4, 10, 0)], [Bust(2, 50, 1), Bust(3, 50, 1)]])
    assert shared_paid == {1: 1, 2: 2, 3: 2, 4: 4}
    prizes = split_prizes(
        pool=1000,
        payouts=[50, 30, 20],
        places={str(e): p for e, p in shared_paid.items()},
        registration_order=["1", "2", "3", "4"],
    )
    assert prizes == {"1": 500, "2": 250, "3": 250, "4": 0}
    bubble = final_places(still_in=[1, 2], groups=[[Bust(4, 30, 2), Bust(3, 30, 2)]])
    assert bubble == {1: 1, 2: 2, 3: 3, 4: 3}
    prizes = split_prizes(
        pool=1005,
        payouts=[50, 30, 20],
        places={str(e): p for e, p in bubble.items()},
        registration_order=["1", "2", "4", "3"],
    )
    assert prizes == {"1": 503, "2": 301, "4": 101, "3": 100}
    assert sum(prizes.values()) == 1005
