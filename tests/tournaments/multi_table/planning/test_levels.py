"""The level arithmetic of multi-table tournaments (docs/tournaments.md "Multi-table tournaments: seating and
places"), without a database: a table's level from its round, the PCR of a level, and the bubble
(round-for-round)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournaments.multi_table.planning.levels import in_bubble, level_of, pcr_for


def test_levels_count_rounds_per_table_from_one() -> None:
    assert [level_of(r, rounds_per_level=3) for r in range(1, 8)] == [1, 1, 1, 2, 2, 2, 3]
    assert level_of(1, rounds_per_level=1) == 1 and level_of(5, rounds_per_level=1) == 5


@given(st.integers(1, 10_000), st.integers(1, 50))
def test_a_level_lasts_rounds_per_level_rounds(round_number: int, rounds_per_level: int) -> None:
    level = level_of(round_number, rounds_per_level=rounds_per_level)
    assert (level - 1) * rounds_per_level < round_number <= level * rounds_per_level
    assert level_of(round_number + 1, rounds_per_level=rounds_per_level) - level in (0, 1)


def test_pcr_follows_the_schedule_then_stays_at_its_last() -> None:
    schedule = [1, 2, 3, 5, 8]
    assert [pcr_for(level, schedule=schedule) for level in range(1, 9)] == [1, 2, 3, 5, 8, 8, 8, 8]
    assert pcr_for(4, schedule=[7]) == 7


@given(st.lists(st.integers(1, 1000), min_size=1, max_size=20), st.integers(1, 100))
def test_pcr_of_any_level(schedule: list[int], level: int) -> None:
    pcr = pcr_for(level, schedule=schedule)
    assert pcr == (schedule[level - 1] if level <= len(schedule) else schedule[-1])


def test_bad_input_is_refused() -> None:
    with pytest.raises(ValueError):
        level_of(0, rounds_per_level=3)
    with pytest.raises(ValueError):
        level_of(1, rounds_per_level=0)
    with pytest.raises(ValueError):
        pcr_for(0, schedule=[1])
    with pytest.raises(ValueError):
        pcr_for(1, schedule=[])


def test_the_bubble_is_when_the_next_bust_is_the_last_unpaid_place() -> None:
    assert in_bubble(still_in=4, paid_places=3)
    assert not in_bubble(still_in=5, paid_places=3)  # two unpaid places left
    assert not in_bubble(still_in=3, paid_places=3)  # in the money
    assert not in_bubble(still_in=1, paid_places=0)  # the winner alone
    assert in_bubble(still_in=2, paid_places=1)  # winner takes all: heads-up is the bubble


@given(st.integers(0, 500), st.integers(0, 100))
def test_the_bubble_property(still_in: int, paid_places: int) -> None:
    assert in_bubble(still_in=still_in, paid_places=paid_places) == (
        still_in > 1 and still_in - 1 == paid_places
    )
