"""The Basic Rummy family (docs/rules.md "Basic Rummy family", source 003): deal, draw, melds and their
limits, restocks, Wrotham and Rommé, each rule and option on a stacked deck (scores in
``test_basic_scoring.py``)."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

import pytest

from tournaments.engine import (
    Ruleset,
    RulesetError,
    apply_move,
    full_deck,
    legal_moves,
    new_round,
    player_view,
)
from tournaments.engine.deal import derived_shuffle
from tournaments.engine.state import Meld, RoundState

from .stacking import END, STOCK, disc, illegal, lay, meld, pile, play, res, stacked_round, swap

BASIC = Ruleset.preset("basic")
BLOCK = Ruleset.preset("block")
WROTHAM = Ruleset.preset("wrotham")
ROMME = Ruleset.preset("romme")

# Ten cards that meld nothing, worth 63 (ace 1), 77 with ace_high (ace 15).
BOB = ["AS", "3D", "TC", "JS", "2D", "9C", "4S", "6D", "8S", "KC"]
ANN = ["5H", "6H", "7H", "QS", "QH", "QD", "2C", "9S", "KD", "4C"]


def two(
    rules: Ruleset, ann: list[str], *, up: str = "8D", stock: tuple[str, ...] = ("TS",), **kw: object
) -> RoundState:
    """ann (seat 0, the dealer's left) starts against bob."""
    return stacked_round(rules, [ann, BOB], dealer=1, up=up, stock=stock, **kw)  # type: ignore[arg-type]


# ---------------------------------------------------------------------- presets and the deal


@pytest.mark.parametrize(("n", "each"), [(2, 10), (3, 7), (4, 7), (5, 6), (6, 6)])
def test_basic_deals_ten_seven_or_six_and_an_up_card(n: int, each: int) -> None:
    s = new_round(BASIC, [f"p{i}" for i in range(n)], dealer=n - 1, seed=n)
    assert len(s.deck) == 52 and "JK" not in s.deck
    assert [len(h) for h in s.hands] == [each] * n and len(s.discard) == 1
    assert len(s.stock) == 52 - n * each - 1 and s.phase == "draw" and s.to_act == "p0"
    assert Counter(s.hands[0]) == Counter(s.deck[0 : n * each : n])


def test_wrotham_deals_seven_and_an_eighth_to_the_starter_who_discards_first() -> None:
    s = new_round(WROTHAM, ["ann", "bob", "cid"], dealer=2, seed=3)
    assert len(s.deck) == 55 and s.deck.count("JK") == 3
    assert [len(h) for h in s.hands] == [8, 7, 7] and s.discard == () and len(s.stock) == 55 - 22
    assert Counter(s.hands[0]) == Counter([*s.deck[0:21:3], s.deck[21]])  # the 8th after the round robin
    assert s.phase == "play" and s.to_act == "ann"
    assert {m["type"] for m in legal_moves(s, "ann")} <= {"meld", "discard"}
    illegal(s, "ann", STOCK, "turn.already_drawn")
    s = apply_move(s, "ann", disc(s.hands[0][0]))
    assert s.phase == "draw" and s.to_act == "bob" and len(s.discard) == 1


def test_romme_deals_thirteen_from_two_decks_and_six_jokers() -> None:
    s = new_round(ROMME, ["ann", "bob", "cid", "dan", "eve", "fay"], seed=1)
    assert len(s.deck) == 110 and s.deck.count("JK") == 6 and Counter(full_deck(ROMME, 6))["7H"] == 2
    assert [len(h) for h in s.hands] == [13] * 6 and len(s.discard) == 1 and len(s.stock) == 110 - 79


def test_presets_limits_and_option_values() -> None:
    assert (BASIC.min_players, BASIC.max_players, WROTHAM.rounds, WROTHAM.target_score) == (2, 6, 6, None)
    assert BASIC.option_values()["restock"] == "shuffle" and BLOCK.option_values()["restock"] == "none"
    assert Ruleset.preset("basic", ace_high=True).ace_hand_value == 15 and BASIC.ace_hand_value == 1
    assert Ruleset.preset("wrotham", joker_penalty=25).joker_hand_value == 25
    assert Ruleset.preset("basic", scoring="penalty").lowest_wins and not BASIC.lowest_wins
    for bad in ({"restock": "sometimes"}, {"going_rummy": True}, {"scoring": 1}, {"restock_limit": -1}):
        with pytest.raises(RulesetError) as e:
            Ruleset.preset("basic", **bad)
        assert e.value.code == "ruleset.bad_value"
    with pytest.raises(RulesetError) as e:
        Ruleset.preset("basic", opening_minimum=40)  # a Rommé option
    assert e.value.code == "ruleset.unknown_option"
    with pytest.raises(ValueError, match="2-6 players"):
        new_round(BASIC, [f"p{i}" for i in range(7)], seed=1)


# ---------------------------------------------------------------------- the draw


def test_draw_the_top_of_the_stock_or_of_the_pile_only() -> None:
    s = play(two(BASIC, ANN), ("ann", STOCK), ("ann", disc("2C")))
    assert s.discard == ("8D", "2C")
    assert legal_moves(s, "bob")[:2] == [STOCK, pile("2C", 1)]
    illegal(s, "bob", pile("8D", 0), "draw.top_card_only")
    took = apply_move(s, "bob", pile("2C"))
    assert took.hand_of("bob").count("2C") == 1 and took.discard == ("8D",)
    illegal(took, "bob", disc("2C"), "discard.chosen_card")  # the taken card may not go back this turn


# ---------------------------------------------------------------------- melds and lay-offs


def test_one_meld_per_turn_unless_multiple_melds_per_turn() -> None:
    s = apply_move(two(BASIC, ANN), "ann", STOCK)
    one = apply_move(s, "ann", meld("5H", "6H", "7H"))
    illegal(one, "ann", meld("QS", "QH", "QD"), "meld.one_per_turn")
    assert not [m for m in legal_moves(one, "ann") if m["type"] == "meld"]
    illegal(
        s, "ann", {"type": "meld", "melds": [["5H", "6H", "7H"], ["QS", "QH", "QD"]]}, "meld.one_per_turn"
    )
    many = apply_move(two(Ruleset.preset("basic", multiple_melds_per_turn=True), ANN), "ann", STOCK)
    many = play(many, ("ann", meld("5H", "6H", "7H")), ("ann", meld("QS", "QH", "QD")))
    assert len(many.melds) == 2
    # the next turn is a new turn
    nxt = play(one, ("ann", disc("9S")), ("bob", STOCK), ("bob", disc("KC")), ("ann", STOCK))
    assert len(apply_move(nxt, "ann", meld("QS", "QH", "QD")).melds) == 2


def test_lay_offs_any_number_and_lay_off_requires_own_meld() -> None:
    bob = ["8H", "4H", "9H", "3D", "TC", "JS", "2D", "9C", "6D", "KC"]
    for rules, first in ((BASIC, True), (Ruleset.preset("basic", lay_off_requires_own_meld=True), False)):
        s = stacked_round(rules, [ANN, bob], dealer=1, up="8D", stock=["TS", "AS"])
        s = play(s, ("ann", STOCK), ("ann", meld("5H", "6H", "7H")), ("ann", disc("9S")), ("bob", STOCK))
        if first:
            s = play(s, ("bob", lay("m1", "8H")), ("bob", lay("m1", "9H")), ("bob", lay("m1", "4H")))
            assert s.melds[0].cards == ("4H", "5H", "6H", "7H", "8H", "9H")
            assert s.melds[0].placers == ("bob", "ann", "ann", "ann", "bob", "bob")
        else:
            illegal(s, "bob", lay("m1", "8H"), "layoff.own_meld_first")
            assert not [m for m in legal_moves(s, "bob") if m["type"] == "lay_off"]


def test_lay_off_on_others_melds_once_own_meld_is_down() -> None:
    rules = Ruleset.preset("basic", lay_off_requires_own_meld=True)
    bob = ["8H", "JS", "JH", "JD", "TC", "2D", "9C", "6D", "KC", "3S"]
    s = stacked_round(rules, [ANN, bob], dealer=1, up="8D", stock=["TS", "AS"])
    s = play(s, ("ann", STOCK), ("ann", meld("5H", "6H", "7H")), ("ann", disc("9S")), ("bob", STOCK))
    s = play(s, ("bob", meld("JS", "JH", "JD")), ("bob", lay("m1", "8H")))
    assert s.melds[0].cards[-1] == "8H"


def test_going_out_by_melding_laying_off_or_discarding_the_last_card() -> None:
    ann = ["5H", "6H", "7H", "8H", "QS", "QH", "QD", "2C", "3C", "4C"]
    rules = Ruleset.preset("basic", multiple_melds_per_turn=True)
    # melding the last cards (no final discard by default)
    s = two(rules, ann, stock=("9H",))
    s = play(s, ("ann", STOCK), ("ann", meld("QS", "QH", "QD")), ("ann", meld("2C", "3C", "4C")))
    out = apply_move(s, "ann", meld("5H", "6H", "7H", "8H", "9H"))
    assert res(out).details["went_out"] == "ann" and res(out).details["reason"] == "out"
    # laying off the last card
    lay_out = play(s, ("ann", meld("5H", "6H", "7H", "8H")), ("ann", lay("m3", "9H")))
    assert res(lay_out).details["went_out"] == "ann"
    # discarding the last card
    s2 = play(
        two(rules, ann), ("ann", STOCK), ("ann", meld("QS", "QH", "QD")), ("ann", meld("2C", "3C", "4C"))
    )
    s2 = play(s2, ("ann", meld("5H", "6H", "7H", "8H")), ("ann", disc("TS")))
    assert res(s2).details["went_out"] == "ann"
    # final_discard_required: the last card must be discarded
    fd = Ruleset.preset("basic", multiple_melds_per_turn=True, final_discard_required=True)
    s3 = play(
        two(fd, ann, stock=("9H",)),
        ("ann", STOCK),
        ("ann", meld("QS", "QH", "QD")),
        ("ann", meld("2C", "3C", "4C")),
    )
    illegal(s3, "ann", meld("5H", "6H", "7H", "8H", "9H"), "play.final_discard_required")
    assert {"type": "meld", "cards": ["5H", "6H", "7H", "8H"]} in legal_moves(s3, "ann")


def test_ace_low_by_default_ace_high_and_round_the_corner() -> None:
    ann = ["QS", "KS", "AS", "2S", "QH", "KH", "9D", "2C", "5D", "4C"]
    bob = ["3D", "TC", "JS", "2D", "9C", "4S", "6D", "8S", "KC", "7H"]
    s = apply_move(stacked_round(BASIC, [ann, bob], dealer=1, up="8D", stock=["TS"]), "ann", STOCK)
    illegal(s, "ann", meld("QS", "KS", "AS"), "meld.invalid")
    illegal(s, "ann", meld("KS", "AS", "2S"), "meld.invalid")
    high = apply_move(
        stacked_round(Ruleset.preset("basic", ace_high=True), [ann, bob], dealer=1, up="8D", stock=["TS"]),
        "ann",
        STOCK,
    )
    assert apply_move(high, "ann", meld("QS", "KS", "AS")).melds[0].cards == ("QS", "KS", "AS")
    corner = Ruleset.preset("basic", round_the_corner=True)
    c = apply_move(stacked_round(corner, [ann, bob], dealer=1, up="8D", stock=["TS"]), "ann", STOCK)
    assert apply_move(c, "ann", meld("KS", "AS", "2S")).melds[0].cards == ("KS", "AS", "2S")


# ---------------------------------------------------------------------- an exhausted stock


def _exhausted(rules: Ruleset) -> RoundState:
    """bob faces an empty stock: every stock card is under the pile (oldest first), nothing lost."""
    s = play(two(rules, ANN), ("ann", STOCK), ("ann", disc("2C")))
    return replace(s, stock=(), discard=(*s.stock, *s.discard))


def test_restock_turn_puts_the_oldest_discard_on_top() -> None:
    s = _exhausted(Ruleset.preset("basic", restock="turn"))
    old = s.discard
    assert legal_moves(s, "bob")[:2] == [STOCK, pile("2C", len(old) - 1)] and END not in legal_moves(s, "bob")
    illegal(s, "bob", END, "end_round.not_allowed")
    r = apply_move(s, "bob", STOCK)
    assert r.discard == () and r.stock == old[1:] and old[0] in r.hand_of("bob") and r.progress
    assert player_view(r, "ann")["restocks"] == 1 and player_view(r, "ann")["restocks_left"] == 1


def test_restock_shuffle_is_derived_from_the_salt_and_replays() -> None:
    s = _exhausted(BASIC)
    r = apply_move(s, "bob", STOCK)
    shuffled = derived_shuffle(s.discard, s.salt, "restock:1")
    assert shuffled != s.discard and r.stock == shuffled[1:] and shuffled[0] in r.hand_of("bob")
    assert apply_move(s, "bob", STOCK) == r  # the same round, move and salt: the same order
    other = apply_move(replace(s, salt="0" * 32), "bob", STOCK)
    assert other.stock != r.stock
    assert Counter((*other.stock, *other.hand_of("bob"))) == Counter((*r.stock, *r.hand_of("bob")))
    # a restock's order is hidden like any stock: the views show only its size
    assert "stock" not in player_view(r, "ann") and player_view(r, "ann")["stock_count"] == len(r.stock)


def test_after_restock_limit_the_empty_stock_is_handled_as_in_block() -> None:
    s = _exhausted(Ruleset.preset("basic", restock_limit=1))
    r = play(s, ("bob", STOCK), ("bob", disc("KC")))
    r = replace(r, stock=(), discard=(*r.stock, *r.discard))  # the restocked stock runs out again
    assert legal_moves(r, "ann") == [STOCK] or END in legal_moves(r, "ann")
    assert STOCK not in legal_moves(r, "ann") and END in legal_moves(r, "ann")
    illegal(r, "ann", STOCK, "draw.stock_empty")
    over = apply_move(r, "ann", END)
    assert res(over).details["reason"] == "end_round" and res(over).details["restocks"] == 1


def test_block_never_restocks_take_the_top_discard_or_end() -> None:
    s = _exhausted(BLOCK)
    top = len(s.discard) - 1
    assert legal_moves(s, "bob") == [pile("2C", top), END]
    illegal(s, "bob", STOCK, "draw.stock_empty")
    took = play(s, ("bob", pile("2C")), ("bob", disc("KC")))
    assert took.to_act == "ann" and END in legal_moves(took, "ann")
    ended = apply_move(took, "ann", END)
    assert res(ended).details["reason"] == "end_round" and res(ended).details["went_out"] is None
    illegal(two(BLOCK, ANN), "ann", END, "end_round.not_allowed")


def test_stalling_ends_a_block_scored_as_nobody_out() -> None:
    s = _exhausted(Ruleset.preset("block", stall_turns=2))
    s = play(s, ("bob", pile("2C")), ("bob", disc("KC")), ("ann", pile("KC")))
    over = apply_move(s, "ann", disc("9S"))
    assert res(over).details["reason"] == "stall" and min(res(over).scores.values()) < 0


# ---------------------------------------------------------------------- Wrotham


def _late(round_number: int = 4, **options: object) -> RoundState:
    ann = ["5H", "6H", "7H", "8H", "QS", "QH", "QD", "2C"]
    bob = ["3D", "TC", "JS", "2D", "9C", "4S", "6D"]
    return stacked_round(
        Ruleset.preset("wrotham", **options), [ann, bob], dealer=1, round_number=round_number
    )


def test_wrotham_deals_4_to_6_go_out_in_one_meld_move() -> None:
    s = _late()
    assert s.phase == "play" and s.to_act == "ann" and len(s.hand_of("ann")) == 8
    illegal(s, "ann", meld("5H", "6H", "7H", "8H"), "meld.all_at_once")
    # several melds in one move are listed in canonical order: by their first card (suits S H D C)
    both = {"type": "meld", "melds": [["QS", "QH", "QD"], ["5H", "6H", "7H", "8H"]]}
    assert both in legal_moves(s, "ann")
    assert not [m for m in legal_moves(s, "ann") if m.get("cards") == ["5H", "6H", "7H", "8H"]]
    # any order in, canonical order logged
    done = apply_move(s, "ann", {"type": "meld", "melds": [["QD", "QS", "QH"], ["8H", "7H", "6H", "5H"]]})
    assert done.log[-1][1] == '{"melds":[["QS","QH","QD"],["5H","6H","7H","8H"]],"type":"meld"}'
    assert [m.id for m in done.melds] == ["m1", "m2"] and done.melds[1].cards[0] == "5H"
    out = apply_move(done, "ann", disc("2C"))
    assert res(out).details["went_out"] == "ann" and res(out).details["going_rummy"]


def test_wrotham_late_deals_no_lay_off_or_swap_before_the_first_meld_move() -> None:
    s = _late()
    s = replace(s, melds=(Meld("m1", "bob", ("9S", "TS", "JK:JS"), ("bob",) * 3),))
    s2 = replace(s, hands=(("5H", "6H", "7H", "8H", "QS", "QH", "QD", "8S"), s.hands[1]))
    illegal(s2, "ann", lay("m1", "8S"), "play.not_opened")
    s3 = replace(s, hands=(("5H", "6H", "7H", "8H", "QS", "QH", "QD", "JS"), s.hands[1]))
    illegal(s3, "ann", swap("m1", "JS"), "play.not_opened")


@pytest.mark.parametrize("round_number", [1, 3, 7])
def test_wrotham_deals_1_to_3_of_each_six_meld_as_usual(round_number: int) -> None:
    s = apply_move(_late(round_number), "ann", meld("5H", "6H", "7H", "8H"))
    s = apply_move(s, "ann", meld("QS", "QH", "QD"))  # multiple melds per turn
    assert len(s.melds) == 2


def test_wrotham_joker_swap_and_joker_penalty() -> None:
    ann = ["5H", "JK", "7H", "6H", "QS", "QH", "2C", "8H"]
    bob = ["3D", "TC", "JS", "2D", "9C", "4S", "JK"]
    s = stacked_round(Ruleset.preset("wrotham", joker_penalty=25), [ann, bob], dealer=1)
    s = play(s, ("ann", meld("5H", "JK", "7H")), ("ann", swap("m1", "6H")))
    assert s.melds[0].cards == ("5H", "6H", "7H") and "JK" in s.hand_of("ann")
    illegal(s, "ann", disc("JK"), "discard.retrieved_joker")
    assert disc("JK") not in legal_moves(s, "ann") and disc("2C") in legal_moves(s, "ann")
    # ann goes out in her first turn: bob's joker counts joker_penalty (25; 15 by default), and his
    # hand is doubled for going rummy
    s = play(s, ("ann", lay("m1", "8H")), ("ann", meld("QS", "QH", "JK:QD")))
    out = apply_move(s, "ann", disc("2C"))
    bobs = res(out).details["players"]["bob"]
    assert bobs["hand"] == ("4S", "JS", "2D", "3D", "9C", "TC", "JK") and bobs["hand_value"] == 38 + 25
    assert res(out).details["going_rummy"] and res(out).scores == {"ann": 0, "bob": -2 * 63}
    illegal(apply_move(two(BASIC, ANN), "ann", STOCK), "ann", swap("m1", "5H"), "swap.not_allowed")
    # joker_swap off: the joker stays where it was placed
    off = stacked_round(Ruleset.preset("wrotham", joker_swap=False), [ann, bob], dealer=1)
    off = apply_move(off, "ann", meld("5H", "JK", "7H"))
    illegal(off, "ann", swap("m1", "6H"), "swap.not_allowed")
    assert not [m for m in legal_moves(off, "ann") if m["type"] == "swap_joker"]


# ---------------------------------------------------------------------- Rommé


def _romme(ann: list[str], **options: object) -> RoundState:
    bob = ["3D", "TC", "JS", "2D", "9C", "4S", "6D", "8S", "KC", "AD", "5C", "7S", "QC"]
    return stacked_round(Ruleset.preset("romme", **options), [ann, bob], dealer=1, up="4D", stock=["TD"])


ROMME_ANN = ["5H", "6H", "7H", "QS", "QH", "QD", "KS", "KH", "KD", "2C", "9S", "8D", "JK"]


def test_romme_opening_is_worth_forty_in_one_move() -> None:
    s = apply_move(_romme(ROMME_ANN), "ann", STOCK)
    illegal(s, "ann", meld("5H", "6H", "7H"), "meld.opening_minimum")  # 18
    illegal(s, "ann", meld("QS", "QH", "QD"), "meld.opening_minimum")  # 30
    assert meld("QS", "QH", "QD", "JK:QC") in legal_moves(s, "ann")  # 40: the joker counts as its card
    combo = {"type": "meld", "melds": [["QS", "QH", "QD"], ["5H", "6H", "7H"]]}
    listed = legal_moves(s, "ann")
    three = [["QS", "QH", "QD"], ["KS", "KH", "KD"], ["5H", "6H", "7H"]]
    assert combo in listed and {"type": "meld", "melds": three} in listed
    assert len({str(m) for m in listed}) == len(listed)
    opened = apply_move(s, "ann", combo)
    assert player_view(opened, "bob")["opened"] == ["ann"]
    # once open, single melds and lay-offs are free in the same turn
    opened = apply_move(opened, "ann", meld("KS", "KH", "KD"))
    assert (
        len(apply_move(opened, "ann", lay("m1", "8H" if "8H" in opened.hand_of("ann") else "JK")).melds) == 3
    )


def test_romme_values_ace_eleven_or_one_low() -> None:
    ann = ["AS", "AH", "AD", "2H", "3H", "4H", "5H", "9S", "9C", "6D", "8D", "TC", "KC"]
    s = apply_move(_romme(ann), "ann", STOCK)
    assert meld("AS", "AH", "AD") not in legal_moves(s, "ann")  # 33
    assert {"type": "meld", "melds": [["AS", "AH", "AD"], ["2H", "3H", "4H", "5H"]]} in legal_moves(
        s, "ann"
    )  # 47
    # opening_minimum 20: a low ace counts 1 (A-2-3-4-5 is 15), an ace in a set 11
    s20 = apply_move(_romme(ann, opening_minimum=20), "ann", STOCK)
    illegal(s20, "ann", meld("AH", "2H", "3H", "4H", "5H"), "meld.opening_minimum")
    assert meld("AS", "AH", "AD") in legal_moves(s20, "ann")


def test_romme_no_lay_off_or_swap_before_the_opening() -> None:
    s = apply_move(_romme(ROMME_ANN), "ann", STOCK)
    s = replace(s, melds=(Meld("m1", "bob", ("9H", "TH", "JK:JH"), ("bob",) * 3),))
    illegal(s, "ann", lay("m1", "8H") if "8H" in s.hand_of("ann") else lay("m1", "JK"), "play.not_opened")
    s = replace(s, hands=(("JH", *s.hands[0][1:]), s.hands[1]))
    illegal(s, "ann", swap("m1", "JH"), "play.not_opened")
    assert not [m for m in legal_moves(s, "ann") if m["type"] in ("lay_off", "swap_joker")]


def test_a_pile_draw_that_would_leave_nothing_to_discard_is_refused() -> None:
    # two decks: holding only 7H, the other 7H may not be taken before opening (it could not be
    # discarded, and nothing may be laid off yet)
    s = _romme(ROMME_ANN)
    s = replace(s, hands=(("7H",), s.hands[1]), discard=("4D", "7H"))
    illegal(s, "ann", pile("7H", 1), "turn.cannot_complete")
    assert legal_moves(s, "ann") == [STOCK]
