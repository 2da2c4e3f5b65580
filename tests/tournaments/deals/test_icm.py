"""The final-table deal's maths without a database (docs/rules.md "The final-table deal"): Malmuth-Harville
place chances, the ICM and chip-count amounts, the kept amount, the rounding and where its leftover goes."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.deals import icm


def test_two_players_by_hand() -> None:
    # 3:1 chips over prizes 70 and 30: first place 3/4 and 1/4, so 3/4·70 + 1/4·30 = 60 and 40.
    offer = icm.offer(chips={"ann": 300, "bob": 100}, prizes=[70, 30], keep_percent=0)
    assert offer.icm == {"ann": 60, "bob": 40}
    assert offer.by_chips == {"ann": 75, "bob": 25}
    assert offer.keep == 0 and offer.unpaid == 100
    assert offer.place_chances == {"ann": ["3/4", "1/4"], "bob": ["1/4", "3/4"]}


def test_three_players_by_hand() -> None:
    # Chips 50/30/20 over prizes 50/30/20 (computed on paper): A second = .3·50/70 + .2·50/80 = 19/56,
    # third 9/56, so A = 25 + 30·19/56 + 20·9/56 = 38 23/56; B = 15 + 30·3/8 + 20·13/40 = 32 3/4;
    # C = 10 + 30·2/7 + 20·18/35 = 28 6/7. Rounded down 38 + 32 + 28 = 98: the 2 left to the biggest stack.
    chances = icm.place_chances({"a": 50, "b": 30, "c": 20})
    assert chances["a"] == [Fraction(1, 2), Fraction(19, 56), Fraction(9, 56)]
    assert chances["b"] == [Fraction(3, 10), Fraction(3, 8), Fraction(13, 40)]
    assert chances["c"] == [Fraction(1, 5), Fraction(2, 7), Fraction(18, 35)]
    offer = icm.offer(chips={"a": 50, "b": 30, "c": 20}, prizes=[50, 30, 20], keep_percent=0)
    assert offer.icm == {"a": 40, "b": 32, "c": 28}
    assert offer.by_chips == {"a": 50, "b": 30, "c": 20}


def test_the_kept_amount_scales_every_prize() -> None:
    # Keep 10% of 100 = 10; the 90 shared: ICM 60·0.9 = 54 and 40·0.9 = 36; by chips 67.5 → 67, 22.5 → 22 and
    # the chip left to the biggest stack.
    offer = icm.offer(chips={"ann": 300, "bob": 100}, prizes=[70, 30], keep_percent=10)
    assert offer.keep == 10
    assert offer.icm == {"ann": 54, "bob": 36}
    assert offer.by_chips == {"ann": 68, "bob": 22}
    assert icm.keep_of(109, 10) == 10 and icm.keep_of(9, 10) == 0


def test_leftover_ties_go_to_the_earliest_seat_from_the_dealers_left() -> None:
    offer = icm.offer(chips={"c": 10, "a": 10, "b": 10}, prizes=[10, 0, 0], keep_percent=0)
    assert offer.icm == {"c": 4, "a": 3, "b": 3}
    assert offer.by_chips == {"c": 4, "a": 3, "b": 3}


def test_fewer_prizes_than_players_count_as_zero() -> None:
    offer = icm.offer(chips={"a": 1, "b": 1, "c": 2}, prizes=[100], keep_percent=0)
    assert offer.prizes == (100, 0, 0) and offer.icm == {"a": 25, "b": 25, "c": 50}


def test_nothing_unpaid_offers_nothing() -> None:
    offer = icm.offer(chips={"a": 5, "b": 9}, prizes=[0, 0], keep_percent=10)
    assert offer.icm == {"a": 0, "b": 0} and offer.by_chips == {"a": 0, "b": 0}


@pytest.mark.parametrize(
    ("chips", "prizes", "keep"),
    [
        ({"a": 0, "b": 5}, [1, 0], 0),
        ({"a": 1}, [1, 2], 0),
        ({"a": 1, "b": 1}, [-1, 0], 0),
        ({"a": 1}, [1], 101),
    ],
)
def test_bad_values_are_refused(chips: dict[str, int], prizes: list[int], keep: int) -> None:
    with pytest.raises(ValueError):
        icm.offer(chips=chips, prizes=prizes, keep_percent=keep)


def test_unknown_method_is_refused() -> None:
    offer = icm.offer(chips={"a": 1, "b": 1}, prizes=[2], keep_percent=0)
    assert offer.amounts(icm.ICM) == offer.icm and offer.amounts(icm.CHIPS) == offer.by_chips
    with pytest.raises(ValueError):
        offer.amounts("equal")


tables = st.lists(st.integers(min_value=1, max_value=10_000), min_size=2, max_size=6)
prize_lists = st.lists(st.integers(min_value=0, max_value=100_000), min_size=1, max_size=6)


@settings(max_examples=60, deadline=None)
@given(stacks=tables, prizes=prize_lists, keep=st.integers(min_value=0, max_value=100))
def test_amounts_sum_to_unpaid_minus_keep_and_are_monotone_in_chips(
    stacks: list[int], prizes: list[int], keep: int
) -> None:
    prizes = sorted(prizes, reverse=True)[: len(stacks)]
    chips = {f"p{i}": s for i, s in enumerate(stacks)}
    offer = icm.offer(chips=chips, prizes=prizes, keep_percent=keep)
    assert offer.keep == sum(prizes) * keep // 100
    for amounts in (offer.icm, offer.by_chips):
        assert sum(amounts.values()) == offer.unpaid - offer.keep
        assert all(a >= 0 for a in amounts.values())
        for p in chips:
            for q in chips:
                if chips[p] > chips[q]:
                    assert amounts[p] >= amounts[q]
    for chances in icm.place_chances(chips).values():
        assert sum(chances) == 1
    for place in range(len(chips)):
        assert sum(c[place] for c in icm.place_chances(chips).values()) == 1
