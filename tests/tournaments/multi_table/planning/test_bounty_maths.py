"""The pure arithmetic of rebuys and knockouts (`tournaments/multi_table/planning/bounties.py`, docs/rules.md
"Rebuys and the add-on", "Progressive knockout"): no database."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournaments.multi_table.planning.bounties import (
    at_addon_break,
    from_dealers_left,
    in_rebuy_period,
    knockout,
    share_out,
    starting_bounty,
)


def test_the_starting_bounty_is_the_share_of_the_buy_in_rounded_down() -> None:
    assert starting_bounty(buy_in=101, bounty_share=25) == 25
    assert starting_bounty(buy_in=100, bounty_share=0) == 0
    assert starting_bounty(buy_in=7, bounty_share=100) == 7
    with pytest.raises(ValueError):
        starting_bounty(buy_in=10, bounty_share=101)


def test_the_rebuy_period_and_the_addon_break_follow_the_tables_levels() -> None:
    # Two rounds a level, two rebuy levels: rounds 1-4 are in the period, the break follows round 4.
    assert in_rebuy_period(round_number=None, rounds_per_level=2, rebuy_levels=2)
    assert in_rebuy_period(round_number=4, rounds_per_level=2, rebuy_levels=2)
    assert not in_rebuy_period(round_number=5, rounds_per_level=2, rebuy_levels=2)
    assert not in_rebuy_period(round_number=1, rounds_per_level=2, rebuy_levels=0)
    breaks = [n for n in range(1, 12) if at_addon_break(round_number=n, rounds_per_level=2, rebuy_levels=2)]
    assert breaks == [4]
    assert not at_addon_break(round_number=None, rounds_per_level=2, rebuy_levels=2)


def test_seat_order_starts_at_the_dealers_left() -> None:
    assert from_dealers_left(["a", "b", "c", "d"], 2, {"a", "b", "d"}) == ["d", "a", "b"]


def test_a_knockout_pays_half_rounded_down_and_adds_the_rest() -> None:
    split = knockout(bounty=25, winners=["w"])
    assert split.paid == {"w": 12} and split.added == {"w": 13}
    tied = knockout(bounty=25, winners=["x", "y"])
    assert tied.paid == {"x": 6, "y": 6} and tied.added == {"x": 7, "y": 6}
    assert tied.as_data()["half_paid"] == 12


@given(
    bounty=st.integers(min_value=0, max_value=10**9),
    winners=st.lists(st.text(min_size=1, max_size=3), min_size=1, max_size=4, unique=True),
)
def test_a_knockout_splits_the_whole_bounty_and_shares_differ_by_one_at_most(
    bounty: int, winners: list[str]
) -> None:
    split = knockout(bounty=bounty, winners=winners)
    assert sum(split.paid.values()) == bounty // 2
    assert sum(split.paid.values()) + sum(split.added.values()) == bounty
    for part in (split.paid, split.added):
        assert max(part.values()) - min(part.values()) <= 1
        assert list(part.values()) == sorted(part.values(), reverse=True)  # leftovers go first in order
    assert share_out(0, winners) == dict.fromkeys(winners, 0)
