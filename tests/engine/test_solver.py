"""best_arrangement: exact against a brute-force search built on the engine's own meld validator."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.engine import Ruleset
from tournaments.engine.cards import JOKER, NATURAL_CARDS, card_sort_key, hand_total, hand_value, natural_of
from tournaments.engine.melds import enumerate_melds, is_valid_meld, meld_readings, meld_value, natural_count
from tournaments.engine.solver import (
    Arrangement,
    CardValues,
    best_arrangement,
    card_values,
    discard_values,
    hand_penalty,
)


@dataclass(frozen=True)
class Rules:
    """Value and meld options in one object, as a Ruleset carries them."""

    ace_table_value: int = 11
    ace_low_value: int = 1
    ace_hand_value: int = 15
    joker_table_value: int | None = None
    joker_hand_value: int = 15
    low_cards_five: bool = False
    ace_high: bool = True
    round_the_corner: bool = False


RUMMY500 = Rules()
VARIANTS = [
    RUMMY500,
    Rules(ace_table_value=15, joker_table_value=15),  # household (001)
    Rules(ace_table_value=15, joker_table_value=15, low_cards_five=True),
    Rules(ace_high=False),
    Rules(round_the_corner=True),
    Rules(ace_high=False, round_the_corner=True, joker_hand_value=25),
]


# ---------------------------------------------------------------- the reference: try every partition


def _group_value(group: tuple[str, ...], rules: Rules | Ruleset) -> int | None:
    return _group_value_cached(tuple(sorted(group)), rules)


@lru_cache(maxsize=200_000)
def _group_value_cached(group: tuple[str, ...], rules: Rules | Ruleset) -> int | None:
    if natural_count(group) < 2:
        return None
    readings = [r for r in meld_readings(group, rules) if is_valid_meld(r, rules)]
    if not readings:
        return None
    return max(meld_value(r, rules) for r in readings)


def brute_force(
    hand: Sequence[str],
    rules: Rules | Ruleset,
    *,
    leave_one: bool = False,
    discardable: frozenset[str] | None = None,
) -> int | None:
    """Best placed - in hand over every partition of the hand into melds and leftovers (None: none allowed)."""
    best: int | None = None

    def rec(rest: tuple[str, ...], score: int, left_ok: bool) -> None:
        nonlocal best
        if not rest:
            if (not leave_one or left_ok) and (best is None or score > best):
                best = score
            return
        first, others = rest[0], rest[1:]
        ok = left_ok or discardable is None or first in discardable
        rec(others, score - hand_value(first, rules), ok)
        for k in range(2, min(len(others), 12) + 1):
            for idxs in combinations(range(len(others)), k):
                group = (first, *(others[i] for i in idxs))
                value = _group_value(group, rules)
                if value is None:
                    continue
                remaining = tuple(c for i, c in enumerate(others) if i not in idxs)
                rec(remaining, score + value, left_ok)

    rec(tuple(hand), 0, False)
    return best


# ---------------------------------------------------------------- strategies


@st.composite
def hands(draw: st.DrawFn, max_size: int = 9, two_decks: bool = False) -> list[str]:
    jokers = draw(st.integers(0, 2))
    pool = list(NATURAL_CARDS) * (2 if two_decks else 1)
    # Hypothesis favours small integers; sample sizes evenly so most hands are near the maximum.
    size = draw(st.sampled_from(range(max(0, 3 - jokers), max_size - jokers + 1)))
    # Cards near each other make melds likely; a narrow band of ranks keeps the search interesting.
    low = draw(st.integers(0, 8))
    band = [c for c in pool if "A23456789TJQK".index(c[0]) in range(low, low + 6)]
    source = band if draw(st.integers(0, 3)) else pool
    idxs = draw(st.lists(st.integers(0, len(source) - 1), min_size=size, max_size=size, unique=True))
    cards = [source[i] for i in idxs] + [JOKER] * jokers
    return draw(st.permutations(cards))


def check_arrangement(hand: Sequence[str], arr: Arrangement, rules: Rules) -> None:
    """The arrangement is made of the hand's cards, its melds are valid, and its numbers add up."""
    used: Counter[str] = Counter()
    for meld in arr.melds:
        assert is_valid_meld(meld, rules), meld
        assert natural_count(meld) >= 2, meld
        # canonical: reading the meld back gives it unchanged
        assert meld in meld_readings(meld, rules), meld
        used.update(JOKER if c.startswith("JK:") else c for c in meld)
    used.update(arr.leftover)
    assert used == Counter(hand)
    assert arr.placed == sum(meld_value(m, rules) for m in arr.melds)
    assert arr.penalty == hand_total(arr.leftover, rules)
    assert arr.value == arr.placed - arr.penalty


# ---------------------------------------------------------------- properties


@settings(max_examples=150)
@given(hand=hands(), rules=st.sampled_from(VARIANTS))
def test_matches_brute_force(hand: list[str], rules: Rules) -> None:
    arr = best_arrangement(hand, rules)
    check_arrangement(hand, arr, rules)
    assert arr.value == brute_force(hand, rules)


@settings(max_examples=40)
@given(hand=hands(max_size=8, two_decks=True), rules=st.sampled_from(VARIANTS[:3]))
def test_matches_brute_force_with_two_decks(hand: list[str], rules: Rules) -> None:
    arr = best_arrangement(hand, rules)
    check_arrangement(hand, arr, rules)
    assert arr.value == brute_force(hand, rules)


@settings(max_examples=80)
@given(hand=hands(max_size=8), rules=st.sampled_from(VARIANTS), data=st.data())
def test_leave_one_matches_brute_force(hand: list[str], rules: Rules, data: st.DataObject) -> None:
    restrict = data.draw(st.booleans())
    discardable = frozenset(data.draw(st.lists(st.sampled_from(hand), max_size=3))) if restrict else None
    expected = brute_force(hand, rules, leave_one=True, discardable=discardable)
    if expected is None:
        with pytest.raises(ValueError):
            best_arrangement(hand, rules, leave_one=True, discardable=discardable)
        return
    arr = best_arrangement(hand, rules, leave_one=True, discardable=discardable)
    check_arrangement(hand, arr, rules)
    assert arr.value == expected
    assert any(discardable is None or c in discardable for c in arr.leftover)


@settings(max_examples=50)
@given(hand=hands(max_size=8), rules=st.sampled_from(VARIANTS), data=st.data())
def test_keep_leaves_the_cards_in_hand(hand: list[str], rules: Rules, data: st.DataObject) -> None:
    keep = data.draw(st.lists(st.sampled_from(hand), max_size=2, unique=True))
    arr = best_arrangement(hand, rules, keep=keep)
    check_arrangement(hand, arr, rules)
    assert not Counter(keep) - Counter(arr.leftover)
    rest = list(hand)
    for c in keep:
        rest.remove(c)
    expected = brute_force(rest, rules)
    assert expected is not None
    assert arr.value == expected - sum(hand_value(c, rules) for c in keep)


@settings(max_examples=60)
@given(hand=hands(max_size=12, two_decks=True), rules=st.sampled_from(VARIANTS))
def test_discard_values_answer_every_discard_at_once(hand: list[str], rules: Rules) -> None:
    values = discard_values(hand, rules)
    assert list(values) == sorted(set(hand), key=card_sort_key)
    for card, value in values.items():
        rest = list(hand)
        rest.remove(card)
        assert value == best_arrangement(rest, rules).value, card


@settings(max_examples=60)
@given(hand=hands(max_size=12), rules=st.sampled_from(VARIANTS))
def test_candidates_are_exactly_the_engines_melds(hand: list[str], rules: Rules) -> None:
    """Every meld the engine can form from the hand is one the solver may use, and nothing else."""
    from tournaments.engine.solver import _candidates, _parse

    parsed = sorted(_parse(c) for c in hand)
    naturals = [c for c in parsed if c]
    ours = {
        (
            tuple(sorted(natural_of(c) for c in codes if not c.startswith("JK"))),
            sum(c.startswith("JK") for c in codes),
        )
        for _m, _j, _w, _t, codes in _candidates(naturals, parsed.count(0), card_values(rules))
    }
    engine = {
        (tuple(sorted(c for c in meld if not c.startswith("JK"))), sum(c.startswith("JK") for c in meld))
        for meld in enumerate_melds(hand, rules)
    }
    assert ours == engine


# ---------------------------------------------------------------- examples


def test_simple_hand() -> None:
    arr = best_arrangement(["7H", "8H", "9H", "7S", "7D", "KC", "JK"], RUMMY500)
    assert arr.melds == (("7S", "7H", "7D"), ("8H", "9H", "JK:TH"))
    assert arr.leftover == ("KC",)
    assert (arr.placed, arr.penalty, arr.value) == (48, 10, 38)


def test_joker_takes_the_most_valuable_reading() -> None:
    arr = best_arrangement(["5H", "6H", "JK"], RUMMY500)
    assert arr.melds == (("5H", "6H", "JK:7H"),)


def test_ace_high_and_low_values() -> None:
    assert best_arrangement(["QH", "KH", "AH"], RUMMY500).placed == 31
    assert best_arrangement(["AH", "2H", "3H"], RUMMY500).placed == 6
    assert best_arrangement(["QH", "KH", "AH"], Rules(ace_high=False)).melds == ()
    assert best_arrangement(["KH", "AH", "2H"], RUMMY500).melds == ()
    around = best_arrangement(["KH", "AH", "2H"], Rules(round_the_corner=True))
    assert around.melds == (("KH", "AH", "2H"),)
    assert around.placed == meld_value(("KH", "AH", "2H"), Rules(round_the_corner=True))


def test_household_values() -> None:
    household = Rules(ace_table_value=15, joker_table_value=15)
    arr = best_arrangement(["AS", "AH", "JK", "4C"], household)
    assert arr.melds == (("AS", "AH", "JK:AD"),)
    assert (arr.placed, arr.penalty) == (45, 4)
    assert hand_penalty(["AS", "JK", "4C"], household) == 34
    five = Rules(low_cards_five=True)
    assert hand_penalty(["2S", "9H", "TD"], five) == 20


def test_leave_one_keeps_a_card_to_discard() -> None:
    assert best_arrangement(["7H", "8H", "9H"], RUMMY500).leftover == ()
    arr = best_arrangement(["7H", "8H", "9H"], RUMMY500, leave_one=True)
    assert arr.melds == () and arr.value == -24
    arr = best_arrangement(["7H", "8H", "9H", "TH"], RUMMY500, leave_one=True)
    assert arr.melds == (("8H", "9H", "TH"),) and arr.leftover == ("7H",)
    arr = best_arrangement(["7H", "8H", "9H", "TH"], RUMMY500, leave_one=True, discardable={"TH"})
    assert arr.melds == (("7H", "8H", "9H"),) and arr.leftover == ("TH",)
    with pytest.raises(ValueError):
        best_arrangement(["7H", "8H", "9H"], RUMMY500, leave_one=True, discardable={"2C"})


def test_two_decks_never_put_a_suit_twice_in_a_set() -> None:
    arr = best_arrangement(
        ["7H", "7H", "7S", "7D", "8H", "9H"], Rules(ace_table_value=15, joker_table_value=15)
    )
    assert sorted(arr.melds) == [("7H", "8H", "9H"), ("7S", "7H", "7D")]
    assert arr.leftover == ()


def test_empty_and_joker_only_hands() -> None:
    assert best_arrangement([], RUMMY500) == Arrangement((), (), 0, 0)
    assert best_arrangement(["JK", "JK"], RUMMY500).value == -30
    assert best_arrangement(["JK", "JK", "5H"], RUMMY500).melds == ()


def test_bad_input_is_refused() -> None:
    with pytest.raises(ValueError):
        best_arrangement(["7X"], RUMMY500)
    with pytest.raises(ValueError):
        best_arrangement(["7H"], RUMMY500, keep=["8H"])
    with pytest.raises(ValueError):
        CardValues(table=(1, 2))


def test_card_values_follow_the_ruleset() -> None:
    values = card_values(Rules(ace_table_value=15, joker_table_value=15, low_cards_five=True, ace_high=False))
    assert values.table[1] == 15 and values.table[5] == 5 and values.table[10] == 10
    assert values.joker_table == 15 and values.ace_high is False
    assert card_values(values) is values


def test_big_hand_is_fast_enough_to_be_usable() -> None:
    """A 28-card hand after a deep draw still solves (the bot calls the solver on such hands)."""
    hand = [r + s for s in "SH" for r in "A23456789TJQK"] + ["JK", "JK"]
    arr = best_arrangement(hand, RUMMY500, leave_one=True)
    assert len(arr.leftover) >= 1
    assert arr.value == sum(meld_value(m, RUMMY500) for m in arr.melds) - hand_total(arr.leftover, RUMMY500)
