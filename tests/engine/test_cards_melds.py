"""Cards, values and meld logic (pure functions the engine, the solver and the bots share)."""

from __future__ import annotations

import pytest

from tournaments.engine.cards import (
    CardError,
    Values,
    build_deck,
    hand_value,
    parse_card,
    parse_cards,
    sort_cards,
    table_value,
)
from tournaments.engine.melds import (
    MeldError,
    MeldOptions,
    card_values,
    enumerate_lay_offs,
    enumerate_melds,
    is_valid_meld,
    is_valid_run,
    is_valid_set,
    lay_off,
    meld_value,
    read_meld,
    single_extensions,
)

HIGH = MeldOptions(ace_high=True)
LOW = MeldOptions(ace_high=False)
CORNER = MeldOptions(ace_high=True, round_the_corner=True)


def test_parse_card_normalises_and_rejects():
    assert parse_card("th") == "TH"
    assert parse_card("10H") == "TH"
    assert parse_card("jk") == "JK"
    assert parse_card("JK:7h", allow_placed_joker=True) == "JK:7H"
    with pytest.raises(CardError) as e:
        parse_card("1H")
    assert e.value.code == "card.unknown"
    with pytest.raises(CardError) as e:
        parse_card(7)
    assert e.value.code == "card.malformed"
    with pytest.raises(CardError):
        parse_card("JK:7H")  # only in melds
    with pytest.raises(CardError):
        parse_cards("7H")


def test_decks():
    one = build_deck(1, 2)
    assert len(one) == 54 and one.count("JK") == 2 and len(set(one)) == 53
    two = build_deck(2, 4)
    assert len(two) == 108 and two.count("7H") == 2
    assert sort_cards(["JK", "2C", "AS", "KH"]) == ("AS", "KH", "2C", "JK")


def test_values_rummy500_and_household():
    r500 = Values()
    house = Values(ace_table_value=15, joker_table_value=15)
    five = Values(ace_table_value=15, joker_table_value=15, low_cards_five=True)
    assert [hand_value(c, r500) for c in ("AS", "2S", "9S", "TS", "KS", "JK")] == [15, 2, 9, 10, 10, 15]
    assert table_value("AS", r500) == 11 and table_value("AS", r500, ace_low=True) == 1
    assert table_value("JK:QH", r500) == 10 and table_value("JK:QH", house) == 15
    assert table_value("AS", house) == 15
    assert [hand_value(c, five) for c in ("2S", "9S", "TS", "AS")] == [5, 5, 10, 15]
    assert table_value("7H", five) == 5


def test_sets():
    assert is_valid_set(["QS", "QH", "QD"])
    assert not is_valid_set(["QS", "QS", "QD"])  # two decks: no suit twice
    assert not is_valid_set(["QS", "QH", "QD", "QC", "JK:QS"])
    assert read_meld(["QH", "QS", "JK"], HIGH) == ("QS", "QH", "JK:QD")
    assert read_meld(["QC", "QS", "JK"], HIGH) == ("QS", "JK:QH", "QC")
    assert read_meld(["QS", "QH", "JK:QC"], HIGH) == ("QS", "QH", "JK:QC")


def test_runs_and_aces():
    assert read_meld(["7H", "5H", "6H"], HIGH) == ("5H", "6H", "7H")
    assert read_meld(["AH", "2H", "3H"], HIGH) == ("AH", "2H", "3H")
    assert read_meld(["KH", "AH", "QH"], HIGH) == ("QH", "KH", "AH")
    with pytest.raises(MeldError) as e:
        read_meld(["KH", "AH", "QH"], LOW)
    assert e.value.code == "meld.invalid"
    with pytest.raises(MeldError):
        read_meld(["KH", "AH", "2H"], HIGH)
    assert read_meld(["2H", "KH", "AH"], CORNER) == ("KH", "AH", "2H")
    assert is_valid_run(["KH", "AH", "2H"], CORNER) and not is_valid_run(["KH", "AH", "2H"], HIGH)
    assert not is_valid_run(["5H", "6H", "8H"], HIGH)
    assert not is_valid_run(["5H", "6S", "7H"], HIGH)


def test_joker_readings_in_runs():
    assert read_meld(["5H", "JK", "7H"], HIGH) == ("5H", "JK:6H", "7H")
    with pytest.raises(MeldError) as e:
        read_meld(["JK", "5H", "6H"], HIGH)
    assert e.value.code == "meld.ambiguous_joker"
    assert read_meld(["JK:4H", "5H", "6H"], HIGH) == ("JK:4H", "5H", "6H")
    # only one reading when the other end is closed: Q-K-JK can only be Q-K-A with ace_high... or J
    with pytest.raises(MeldError):
        read_meld(["QH", "KH", "JK"], HIGH)
    assert read_meld(["QH", "KH", "JK"], LOW) == ("JK:JH", "QH", "KH")


def test_natural_minimum():
    with pytest.raises(MeldError) as e:
        read_meld(["JK", "JK", "5H"], HIGH)
    assert e.value.code == "meld.too_few_natural"
    with pytest.raises(MeldError) as e:
        read_meld(["5H", "6H"], HIGH)
    assert e.value.code == "meld.too_short"


def test_meld_values_ace_low_in_a23_only():
    v = Values()
    assert card_values(("AH", "2H", "3H"), v) == (1, 2, 3)
    assert card_values(("QH", "KH", "AH"), v) == (10, 10, 11)
    assert card_values(("AS", "AH", "AD"), v) == (11, 11, 11)
    assert meld_value(("JK:AH", "2H", "3H"), v) == 6
    assert meld_value(("JK:AH", "2H", "3H"), Values(ace_table_value=15, joker_table_value=15)) == 20


def test_lay_off():
    assert lay_off(("5H", "6H", "7H"), ["8H"], HIGH) == ("5H", "6H", "7H", "8H")
    assert lay_off(("5H", "6H", "7H"), ["9H", "8H"], HIGH) == ("5H", "6H", "7H", "8H", "9H")
    assert lay_off(("5H", "6H", "7H"), ["JK:8H"], HIGH) == ("5H", "6H", "7H", "JK:8H")
    with pytest.raises(MeldError) as e:
        lay_off(("5H", "6H", "7H"), ["JK"], HIGH)
    assert e.value.code == "meld.ambiguous_joker"
    assert lay_off(("5H", "6H", "7H"), ["JK", "9H"], HIGH) == ("5H", "6H", "7H", "JK:8H", "9H")
    with pytest.raises(MeldError) as e:
        lay_off(("5H", "JK:6H", "7H"), ["6H"], HIGH)  # a placed joker keeps its card
    assert e.value.code == "layoff.invalid"
    assert lay_off(("QH", "KH", "AH"), ["JH"], HIGH)[0] == "JH"
    with pytest.raises(MeldError):
        lay_off(("QH", "KH", "AH"), ["2H"], HIGH)
    assert lay_off(("QH", "KH", "AH"), ["2H"], CORNER) == ("QH", "KH", "AH", "2H")
    assert lay_off(("AH", "2H", "3H"), ["KH"], CORNER) == ("KH", "AH", "2H", "3H")
    with pytest.raises(MeldError):
        lay_off(("AH", "2H", "3H"), ["KH"], HIGH)
    assert lay_off(("QS", "QH", "QD"), ["QC"], HIGH) == ("QS", "QH", "QD", "QC")
    assert lay_off(("QS", "QH", "JK:QD"), ["JK"], HIGH) == ("QS", "QH", "JK:QD", "JK:QC")
    with pytest.raises(MeldError):
        lay_off(("QS", "QH", "QD", "QC"), ["JK"], HIGH)


def test_single_extensions():
    assert single_extensions(("5H", "6H", "7H"), HIGH) == {"4H", "8H"}
    assert single_extensions(("AH", "2H", "3H"), HIGH) == {"4H"}
    assert single_extensions(("AH", "2H", "3H"), CORNER) == {"4H", "KH"}
    assert single_extensions(("QH", "KH", "AH"), HIGH) == {"JH"}
    assert single_extensions(("QS", "QH", "QD"), HIGH) == {"QC"}


def _brute_melds(hand: list[str], rules: MeldOptions) -> set[tuple[str, ...]]:
    """Every canonical meld from any sub-multiset of hand (brute force, small hands)."""
    from itertools import combinations

    out: set[tuple[str, ...]] = set()
    idx = range(len(hand))
    for k in range(3, len(hand) + 1):
        for combo in combinations(idx, k):
            cards = [hand[i] for i in combo]
            bare = cards.count("JK")
            nat = [c for c in cards if c != "JK"]
            if len(nat) < 2:
                continue
            # every joker reading: try all assignments to natural codes
            from itertools import product

            from tournaments.engine.cards import NATURAL_CARDS

            for reading in product(NATURAL_CARDS, repeat=bare):
                full = nat + ["JK:" + r for r in reading]
                try:
                    m = read_meld(full, rules)
                except MeldError:
                    continue
                out.add(m)
    return out


@pytest.mark.parametrize(
    "hand",
    [
        ["5H", "6H", "7H", "8H", "QS", "QH", "QD"],
        ["5H", "6H", "JK", "QS", "QH", "2C"],
        ["AH", "2H", "QH", "KH", "JK", "AS", "AD"],
    ],
)
def test_enumerate_melds_matches_brute_force(hand):
    for rules in (HIGH, LOW, CORNER):
        got = enumerate_melds(hand, rules)
        assert len(got) == len(set(got))
        assert set(got) == _brute_melds(hand, rules)


def test_enumerate_lay_offs_are_valid_and_distinct():
    hand = ["4H", "8H", "9H", "JK", "QC"]
    offs = enumerate_lay_offs(hand, ("5H", "6H", "7H"), HIGH)
    assert len(offs) == len({a for a, _ in offs})
    for added, new in offs:
        assert lay_off(("5H", "6H", "7H"), list(added), HIGH) == new
    assert (("8H", "9H"), ("5H", "6H", "7H", "8H", "9H")) in offs
    assert (("4H",), ("4H", "5H", "6H", "7H")) in offs


def test_full_thirteen_card_runs_have_one_reading():
    run12 = tuple(f"{r}H" for r in "23456789TJQK")
    assert lay_off(run12, ["AH"], HIGH) == (*run12, "AH")  # ace high where allowed
    assert lay_off(run12, ["AH"], LOW) == ("AH", *run12)
    offs = enumerate_lay_offs(["AH"], run12, HIGH)
    assert offs == [(("AH",), (*run12, "AH"))]
    cyc = ("JH", "QH", "KH", "AH", "2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H")
    full = lay_off(cyc, ["TH"], CORNER)
    assert len(full) == 13 and "TH" in full
    assert [a for a, _ in enumerate_lay_offs(["TH"], cyc, CORNER)] == [("TH",)]
    hand = [f"{r}S" for r in "A23456789TJQK"]
    thirteen = [m for m in enumerate_melds(hand, CORNER) if len(m) == 13]
    assert thirteen == [read_meld(hand, CORNER)]


def _brute_lay_offs(
    hand: list[str], meld: tuple[str, ...], rules: MeldOptions
) -> set[tuple[tuple[str, ...], tuple[str, ...]]]:
    """Every lay-off from any sub-multiset of hand, every joker reading tried (brute force)."""
    from itertools import combinations, product

    from tournaments.engine.cards import NATURAL_CARDS

    out: set[tuple[tuple[str, ...], tuple[str, ...]]] = set()
    for k in range(1, len(hand) + 1):
        for combo in combinations(range(len(hand)), k):
            cards = [hand[i] for i in combo]
            nat = [c for c in cards if c != "JK"]
            for reading in product(NATURAL_CARDS, repeat=cards.count("JK")):
                try:
                    new = lay_off(meld, nat + ["JK:" + r for r in reading], rules)
                except MeldError:
                    continue
                added = list(new)
                for c in meld:
                    added.remove(c)
                out.add((tuple(added), new))
    return out


def test_enumerate_lay_offs_matches_brute_force():
    """legal_moves lists lay-offs from this enumeration: it must find every one, each once."""
    import random

    from tournaments.engine.cards import NATURAL_CARDS

    rng = random.Random(1)
    melds = [
        ("5H", "6H", "7H"),
        ("AH", "2H", "3H"),
        ("QH", "KH", "AH"),
        ("QS", "QH", "JK:QD"),
        ("5H", "JK:6H", "7H"),
        ("KH", "AH", "2H"),
        ("2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H", "TH", "JH"),
        ("QS", "QH", "QD"),
    ]
    pool = [c for c in NATURAL_CARDS if c[1] == "H" or c[0] == "Q"] + ["JK", "JK"]
    checked = 0
    for _ in range(120):
        meld, rules = rng.choice(melds), rng.choice([HIGH, LOW, CORNER])
        if not is_valid_meld(meld, rules):
            continue
        hand = rng.sample(pool, rng.randint(1, 5))
        got = enumerate_lay_offs(hand, meld, rules)
        assert len(got) == len(set(got)), (meld, hand)
        assert set(got) == _brute_lay_offs(hand, meld, rules), (meld, rules, hand)
        checked += 1
    assert checked > 80
