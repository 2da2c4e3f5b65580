"""The pure arithmetic of one-table tournaments (docs/tournaments.md "Prizes"), without a database: places
from totals, payouts with shared places and the remainder rule, the running-cancel split, and what follows a
round."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournaments.single_table.next_step import Next, Progress, decide
from tournaments.tournament.payouts import cancel_split, place_amounts, place_by_totals, split_prizes

names = st.lists(
    st.sampled_from(["ann", "bob", "cid", "dot", "eve", "fay"]), min_size=1, max_size=6, unique=True
)


@st.composite
def totals_of(draw: st.DrawFn) -> dict[str, int]:
    players = draw(names)
    # Few distinct values: ties are common.
    return {p: draw(st.integers(-3, 3)) * 50 for p in players}


@st.composite
def payout_tables(draw: st.DrawFn) -> list[int]:
    places = draw(st.integers(1, 4))
    cuts = sorted(draw(st.lists(st.integers(1, 99), min_size=places - 1, max_size=places - 1, unique=True)))
    bounds = [0, *cuts, 100]
    # A payout table never pays a place more than the one before (the settings' check refuses it).
    return sorted((b - a for a, b in itertools.pairwise(bounds)), reverse=True)


@given(totals_of())
def test_places_are_a_total_order_with_shared_places(totals: dict[str, int]) -> None:
    places = place_by_totals(totals)
    for a in totals:
        assert places[a] == 1 + sum(1 for b in totals if totals[b] > totals[a])
        for b in totals:
            assert (places[a] < places[b]) == (totals[a] > totals[b])
            assert (places[a] == places[b]) == (totals[a] == totals[b])
    assert min(places.values()) == 1


def test_places_skip_after_a_shared_place() -> None:
    assert place_by_totals({"a": 10, "b": 5, "c": 5, "d": 1}) == {"a": 1, "b": 2, "c": 2, "d": 4}


@given(st.integers(0, 10**12), payout_tables(), totals_of())
def test_prizes_sum_to_the_pool_exactly(pool: int, payouts: list[int], totals: dict[str, int]) -> None:
    places = place_by_totals(totals)
    order = sorted(totals)
    prizes = split_prizes(pool=pool, payouts=payouts, places=places, registration_order=order)
    assert sum(prizes.values()) == pool
    assert all(amount >= 0 for amount in prizes.values())
    for a in totals:
        for b in totals:
            if places[a] == places[b]:
                # A shared place splits equally; the remainder goes to the earlier registration.
                assert abs(prizes[a] - prizes[b]) <= 1
                if prizes[a] > prizes[b]:
                    assert order.index(a) < order.index(b)
            elif places[a] < places[b]:
                assert prizes[a] >= prizes[b]


def test_rounding_leftovers_go_to_first_place() -> None:
    assert place_amounts(100, [50, 30, 20], 3) == [50, 30, 20]
    assert place_amounts(101, [50, 30, 20], 3) == [51, 30, 20]
    # Places nobody fills (two players, three paid places): their share goes to first place too.
    assert place_amounts(100, [50, 30, 20], 2) == [70, 30]


def test_a_shared_place_splits_its_places_remainder_to_the_earlier_registration() -> None:
    prizes = split_prizes(
        pool=301,
        payouts=[70, 30],
        places={"ann": 1, "bob": 1, "cid": 3},
        registration_order=["bob", "ann", "cid"],
    )
    # Places 1 and 2 together: 211 + 90 = 301, split 151 / 150, the odd chip to bob (registered first).
    assert prizes == {"bob": 151, "ann": 150, "cid": 0}


@given(st.integers(0, 10**9), totals_of())
def test_the_cancel_split_pays_the_pool_exactly(pool: int, totals: dict[str, int]) -> None:
    order = list(totals)
    shares = cancel_split(pool=pool, weights=totals, seat_order=order)
    assert sum(shares.values()) == pool and all(s >= 0 for s in shares.values())
    # Half equally: everyone gets at least that.
    assert all(s >= (pool // 2) // len(order) for s in shares.values())


def test_the_cancel_split_half_equal_half_proportional() -> None:
    assert cancel_split(pool=1000, weights={"a": 300, "b": 100, "c": 0}, seat_order=["a", "b", "c"]) == {
        # 500 equally: 166 each (2 left over); 500 by 300:100:0 -> 375, 125, 0; leftovers to the biggest.
        "a": 166 + 375 + 2,
        "b": 166 + 125,
        "c": 166,
    }
    assert cancel_split(pool=10, weights={"a": 0, "b": -5}, seat_order=["a", "b"]) == {"a": 5, "b": 5}


def single(totals: dict[str, int], **extra: object) -> Progress:
    fields: dict[str, object] = {
        "kind": "single",
        "totals": totals,
        "main_rounds": 1,
        "target_score": 100,
        "rounds": None,
        "tiebreak_rounds": 2,
        **extra,
    }
    return Progress(**fields)  # type: ignore[arg-type]


def test_single_deals_until_someone_reaches_the_target() -> None:
    assert decide(single({"a": 99, "b": 50})).next is Next.DEAL
    done = decide(single({"a": 120, "b": 100, "c": 10}))
    assert done.next is Next.FINISH and done.places == {"a": 1, "b": 2, "c": 3}


def test_a_tie_at_the_top_goes_to_tie_breakers_then_is_shared() -> None:
    tie = decide(single({"a": 120, "b": 120, "c": 130 - 100}))
    assert tie.next is Next.TIEBREAK and set(tie.tied) == {"a", "b"}
    still = decide(
        single(
            {"a": 120, "b": 120, "c": 30},
            tied=["a", "b"],
            tiebreak_totals={"a": 5, "b": 5},
            tiebreaks_played=1,
        )
    )
    assert still.next is Next.TIEBREAK
    broken = decide(
        single(
            {"a": 120, "b": 120, "c": 30},
            tied=["a", "b"],
            tiebreak_totals={"a": 5, "b": 9},
            tiebreaks_played=1,
        )
    )
    assert broken.next is Next.FINISH and broken.places == {"b": 1, "a": 2, "c": 3}
    shared = decide(
        single(
            {"a": 120, "b": 120, "c": 30},
            tied=["a", "b"],
            tiebreak_totals={"a": 7, "b": 7},
            tiebreaks_played=2,
        )
    )
    assert shared.next is Next.FINISH and shared.places == {"a": 1, "b": 1, "c": 3}


def test_no_tie_breakers_allowed_shares_at_once() -> None:
    shared = decide(single({"a": 120, "b": 120}, tiebreak_rounds=0))
    assert shared.next is Next.FINISH and shared.places == {"a": 1, "b": 1}


@pytest.mark.parametrize("rounds", [1, 2, 3])
def test_quick_plays_exactly_its_rounds(rounds: int) -> None:
    for played in range(1, rounds + 1):
        progress = Progress(
            kind="quick",
            totals={"a": 10, "b": 0},
            main_rounds=played,
            target_score=None,
            rounds=rounds,
            tiebreak_rounds=5,
        )
        assert decide(progress).next is (Next.FINISH if played == rounds else Next.DEAL)
