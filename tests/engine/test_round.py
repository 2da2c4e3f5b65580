"""Scenario tests on stacked decks: every rule of Rummy 500 as implemented (docs/rules.md)."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import pytest

from tournaments.engine import (
    IllegalMove,
    Ruleset,
    apply_move,
    close_claims,
    full_deck,
    legal_moves,
    new_round,
    player_view,
    replay,
    round_record,
    state_from_dict,
    state_to_dict,
    verify_deal,
)
from tournaments.engine.state import Meld, RoundState

from .stacking import (
    BOB_JUNK,
    STOCK,
    act,
    disc,
    illegal,
    lay,
    meld,
    pile,
    play,
    res,
    stacked_round,
)

R500 = Ruleset.preset("rummy500")
HOUSE = Ruleset.preset("rummy500_household")


# ---------------------------------------------------------------------- dealing


def test_dealing_order_one_at_a_time_from_dealers_left():
    deck = list(full_deck(R500, 3))
    s = new_round(R500, ["ann", "bob", "cid"], dealer=1, deck=deck)
    # seat 2 (cid) is left of the dealer (bob): deck[0], deck[3], ...
    assert sorted(s.hand_of("cid")) == sorted(deck[0:21:3])
    assert sorted(s.hand_of("ann")) == sorted(deck[1:21:3])
    assert sorted(s.hand_of("bob")) == sorted(deck[2:21:3])
    assert s.discard == (deck[21],)
    assert s.stock == tuple(deck[22:])
    assert s.to_act == "cid" and s.may_act == ("cid",) and s.phase == "draw" and s.version == 0


@pytest.mark.parametrize(
    ("rules", "n", "each", "cards"),
    [
        (R500, 2, 7, 54),
        (R500, 4, 7, 54),
        (Ruleset.preset("rummy500", hand_size_two_players=10), 2, 10, 54),
        (HOUSE, 2, 13, 54),
        (HOUSE, 4, 7, 54),
        (HOUSE, 5, 7, 108),
        (HOUSE, 8, 7, 108),
    ],
)
def test_hand_sizes_and_decks(rules, n, each, cards):
    s = new_round(rules, [f"p{i}" for i in range(n)], seed=1)
    assert all(len(h) == each for h in s.hands)
    assert len(s.deck) == cards
    assert s.deck.count("JK") == (4 if cards == 108 else 2)
    assert len(s.stock) == cards - n * each - 1


def test_player_counts_are_enforced():
    with pytest.raises(ValueError):
        new_round(R500, ["a", "b", "c", "d", "e"])
    with pytest.raises(ValueError):
        new_round(HOUSE, [f"p{i}" for i in range(9)])
    with pytest.raises(ValueError):
        new_round(R500, ["a"])
    with pytest.raises(ValueError):
        new_round(R500, ["a", "a"])
    with pytest.raises(ValueError):
        new_round(R500, ["a", "b"], deck=["7H"] * 54)


def test_commitment_known_before_first_move_and_verifiable():
    s = new_round(R500, ["ann", "bob"], seed=7)
    view = player_view(s, "ann")
    assert view["deal_commitment"] == s.commitment and len(s.commitment) == 64
    assert "deck" not in json.dumps(view) and s.salt not in json.dumps(view)
    assert verify_deal(s.commitment, s.deck, s.salt)
    assert not verify_deal(s.commitment, list(reversed(s.deck)), s.salt)
    assert not verify_deal(s.commitment, s.deck, "00" + s.salt[2:])
    with pytest.raises(ValueError):
        round_record(s)
    # seeded deals reproduce; unseeded deals use the CSPRNG and differ
    assert new_round(R500, ["ann", "bob"], seed=7) == s
    a = new_round(R500, ["ann", "bob"])
    b = new_round(R500, ["ann", "bob"])
    assert a.deck != b.deck and a.salt != b.salt


# ---------------------------------------------------------------------- drawing


def _deep_setup(rules: Ruleset = R500) -> RoundState:
    ann = ["5H", "6H", "2C", "9S", "KD", "4C", "7D"]
    s = stacked_round(rules, [ann, BOB_JUNK], dealer=1, up="7H", stock=["TS", "JD", "8D"])
    s = play(s, ("ann", STOCK), ("ann", disc("2C")), ("bob", STOCK), ("bob", disc("3D")))
    assert s.discard == ("7H", "2C", "3D")
    return s


def test_deep_draw_takes_cards_above_and_the_chosen_card_must_be_used():
    s = _deep_setup()
    s2 = apply_move(s, "ann", pile("7H"))
    assert s2.discard == ()
    assert sorted(s2.hand_of("ann")) == sorted(["5H", "6H", "9S", "KD", "4C", "7D", "TS", "7H", "2C", "3D"])
    assert s2.must_use == "7H"
    illegal(s2, "ann", disc("9S"), "discard.chosen_card_unused")
    s3 = apply_move(s2, "ann", meld("5H", "6H", "7H"))
    assert s3.must_use is None
    s4 = apply_move(s3, "ann", disc("2C"))  # another picked-up card may be discarded
    assert s4.discard == ("2C",) and s4.to_act == "bob"


def test_deep_draw_refused_when_the_chosen_card_cannot_be_used():
    s = _deep_setup()
    s = play(s, ("ann", STOCK), ("ann", disc("9S")))
    assert s.to_act == "bob"
    illegal(s, "bob", pile("7H"), "draw.discard_card_must_be_used")
    assert {"type": "draw", "source": "discard", "card": "7H", "index": 0} not in legal_moves(s, "bob")
    # the top card alone may be kept in rummy500
    assert {"type": "draw", "source": "discard", "card": "9S", "index": 3} in legal_moves(s, "bob")


def test_draw_refused_when_using_the_card_would_leave_no_card_to_discard():
    rules = Ruleset.preset("rummy500", top_discard_must_be_used=True)
    s = _deep_setup(rules)
    s = replace(s, hands=(("5H", "6H"), s.hands[1]), discard=("2C", "7H"))
    illegal(s, "ann", pile("7H"), "draw.discard_card_must_be_used")  # 5H 6H 7H would use every card
    s = replace(s, hands=(("5H", "6H", "KD"), s.hands[1]))
    assert apply_move(s, "ann", pile("7H")).must_use == "7H"


def test_top_card_kept_may_not_be_discarded_the_same_turn():
    s = _deep_setup()
    s2 = apply_move(s, "ann", pile("3D"))
    assert s2.must_use is None  # rummy500: a lone top card may be kept
    illegal(s2, "ann", disc("3D"), "discard.chosen_card")
    assert {"type": "discard", "card": "3D"} not in legal_moves(s2, "ann")
    s3 = apply_move(s2, "ann", disc("9S"))
    assert "3D" in s3.hand_of("ann")


def test_top_discard_must_be_used_option():
    rules = Ruleset.preset("rummy500", top_discard_must_be_used=True)
    s = _deep_setup(rules)
    illegal(s, "ann", pile("3D"), "draw.discard_card_must_be_used")
    # household has it on by default
    assert HOUSE.top_discard_must_be_used


def test_draw_index_required_for_identical_cards():
    s = new_round(HOUSE, [f"p{i}" for i in range(5)], seed=3)
    s = replace(s, discard=("7H", "2C", "7H"))
    illegal(s, act(s), pile("7H"), "draw.index_required")
    illegal(s, act(s), pile("7H", 1), "draw.index_mismatch")
    illegal(s, act(s), pile("9C"), "draw.card_not_in_pile")
    illegal(s, act(s), pile("7H", 9), "draw.card_not_in_pile")


# ---------------------------------------------------------------------- melds, lay-offs, jokers


def _out_scenario(rules: Ruleset, players: tuple[str, ...] = ("ann", "bob")) -> RoundState:
    ann = ["5H", "6H", "7H", "8S", "8D", "8C", "9C"]
    bob = ["8H", "AS", "3D", "TC", "JS", "QD", "2S"]
    hands = [ann, bob] + ([["KC", "4S", "6D", "TH", "QS", "3C", "9D"]] if len(players) == 3 else [])
    stock = ["KS", "4D"] + (["2D"] if len(players) == 3 else []) + ["9H"]
    s = stacked_round(rules, hands, players=list(players), dealer=len(players) - 1, up="5C", stock=stock)
    moves = [
        ("ann", STOCK),
        ("ann", meld("7H", "5H", "6H")),
        ("ann", disc("KS")),
        ("bob", STOCK),
        ("bob", lay("m1", "8H")),
        ("bob", disc("4D")),
    ]
    if len(players) == 3:
        moves += [("cid", STOCK), ("cid", disc("2D"))]
    moves += [
        ("ann", STOCK),
        ("ann", meld("8S", "8D", "8C")),
        ("ann", lay("m1", "9H")),
        ("ann", disc("9C")),
    ]
    return play(s, *moves)


def test_lay_offs_are_credited_to_the_builder_and_going_out_scores():
    s = _out_scenario(R500)
    assert s.phase == "over" and s.to_act is None and s.may_act == ()
    m1 = s.melds[0]
    assert m1.owner == "ann" and m1.cards == ("5H", "6H", "7H", "8H", "9H")
    assert m1.placers == ("ann", "ann", "ann", "bob", "ann")
    r = res(s)
    assert r.details["went_out"] == "ann" and r.details["reason"] == "out"
    assert r.scores == {"ann": 18 + 24 + 9, "bob": 8 - 50}
    assert r.game_points == r.scores and r.bonuses == () and r.redeal is False
    assert r.deck == s.deck and verify_deal(s.commitment, r.deck, r.salt)
    rec = round_record(s)
    assert rec["salt"] == s.salt and len(rec["moves"]) == 10


@pytest.mark.parametrize(
    ("options", "ann_score", "bob_score"),
    [({}, 1 + 2 + 3 + 4 + 10 + 10 + 15, -59), ({"low_cards_five": True}, 1 + 5 + 5 + 5 + 35, -60)],
)
def test_household_values(options, ann_score, bob_score):
    rules = Ruleset.preset("rummy500_household", **options)
    ann = ["AH", "2H", "3H", "4H", "QS", "QH", "JK"]
    bob = ["AS", "3D", "TC", "JS", "QD", "2S", "9C"]
    cid = ["KD", "5S", "7C", "TH", "8D", "4C", "6S"]
    s = stacked_round(rules, [ann, bob, cid], dealer=2, up="5D", stock=["KC"])
    s = play(s, ("ann", STOCK), ("ann", meld("AH", "2H", "3H", "4H")), ("ann", meld("QS", "QH", "JK")))
    assert s.melds[1].cards == ("QS", "QH", "JK:QD")
    s = apply_move(s, "ann", disc("KC"))
    # household: ace 1 in A-2-3, joker 15 on the table; ace 15 and joker 15 in hand
    assert res(s).scores["ann"] == ann_score
    assert res(s).scores["bob"] == bob_score


def test_rummy500_values_ace_and_joker():
    ann = ["AH", "2H", "3H", "4H", "QS", "QH", "JK"]
    s = stacked_round(R500, [ann, BOB_JUNK], dealer=1, up="5D", stock=["KC"])
    s = play(
        s,
        ("ann", STOCK),
        ("ann", meld("AH", "2H", "3H", "4H")),
        ("ann", meld("QS", "QH", "JK")),
        ("ann", disc("KC")),
    )
    assert res(s).scores == {"ann": 10 + 30, "bob": -59}


def test_ace_high_and_round_the_corner_options():
    ann = ["QH", "KH", "AH", "2H", "5C", "9D", "8C"]
    s = stacked_round(R500, [ann, BOB_JUNK], dealer=1, up="5D", stock=["KC"])
    s = apply_move(s, "ann", STOCK)
    assert meld("QH", "KH", "AH") in legal_moves(s, "ann")
    illegal(s, "ann", meld("KH", "AH", "2H"), "meld.invalid")
    low = Ruleset.preset("rummy500", ace_high=False)
    s2 = apply_move(stacked_round(low, [ann, BOB_JUNK], dealer=1, up="5D", stock=["KC"]), "ann", STOCK)
    illegal(s2, "ann", meld("QH", "KH", "AH"), "meld.invalid")
    corner = Ruleset.preset("rummy500", round_the_corner=True)
    s3 = apply_move(stacked_round(corner, [ann, BOB_JUNK], dealer=1, up="5D", stock=["KC"]), "ann", STOCK)
    s3 = apply_move(s3, "ann", meld("KH", "AH", "2H"))
    assert s3.melds[0].cards == ("KH", "AH", "2H")


def test_meld_needs_two_natural_cards_and_jokers_are_fixed():
    ann = ["5H", "JK", "JK", "7H", "9C", "KD", "3S"]
    s = stacked_round(R500, [ann, ["6H", *BOB_JUNK[:6]]], dealer=1, up="5D", stock=["KC", "8H"])
    s = apply_move(s, "ann", STOCK)
    illegal(s, "ann", meld("5H", "JK", "JK"), "meld.too_few_natural")
    illegal(s, "ann", meld("5H", "JK:6H", "JK:7H"), "meld.too_few_natural")
    s = play(s, ("ann", meld("5H", "JK", "7H")), ("ann", disc("KC")))
    assert s.melds[0].cards == ("5H", "JK:6H", "7H")
    s = apply_move(s, "bob", STOCK)
    illegal(s, "bob", lay("m1", "6H"), "layoff.invalid")  # the joker keeps standing for 6H
    illegal(s, "bob", lay("m1", "JK:4H"), "hand.missing_card")
    s = apply_move(s, "bob", lay("m1", "8H"))
    assert s.melds[0].cards == ("5H", "JK:6H", "7H", "8H")


def test_bare_joker_lay_off_with_two_readings_is_refused():
    ann = ["5H", "6H", "7H", "JK", "9D", "KD", "3S"]
    s = stacked_round(R500, [ann, BOB_JUNK], dealer=1, up="5D", stock=["KC"])
    s = play(s, ("ann", STOCK), ("ann", meld("5H", "6H", "7H")))
    illegal(s, "ann", lay("m1", "JK"), "meld.ambiguous_joker")
    s = apply_move(s, "ann", lay("m1", "JK:8H"))
    assert s.melds[0].cards[-1] == "JK:8H"


def _swap_setup(**options: Any) -> RoundState:
    rules = Ruleset.preset("rummy500", **options)
    ann = ["5H", "JK", "7H", "9C", "KD", "3S", "QC"]
    bob = ["6H", "8H", "AS", "3D", "TC", "JS", "2S"]
    s = stacked_round(rules, [ann, bob], dealer=1, up="5D", stock=["KC", "4D"])
    return play(s, ("ann", STOCK), ("ann", meld("5H", "JK:6H", "7H")), ("ann", disc("KC")), ("bob", STOCK))


def test_joker_swap_keeps_crediting_the_placer_and_joker_not_discardable():
    s = _swap_setup()
    assert {"type": "swap_joker", "meld": "m1", "card": "6H"} in legal_moves(s, "bob")
    s = apply_move(s, "bob", {"type": "swap_joker", "meld": "m1", "card": "6H"})
    assert s.melds[0].cards == ("5H", "6H", "7H") and s.melds[0].placers == ("ann", "ann", "ann")
    assert "JK" in s.hand_of("bob")
    illegal(s, "bob", disc("JK"), "discard.retrieved_joker")
    assert {"type": "discard", "card": "JK"} not in legal_moves(s, "bob")
    s = apply_move(s, "bob", disc("4D"))
    assert "JK" in s.hand_of("bob")


def test_swapped_joker_must_be_melded_option():
    s = _swap_setup(swapped_joker_must_be_melded=True)
    s = apply_move(s, "bob", {"type": "swap_joker", "meld": "m1", "card": "6H"})
    illegal(s, "bob", disc("4D"), "discard.joker_not_melded")
    s = apply_move(s, "bob", lay("m1", "8H", "JK:9H"))
    assert s.jokers_to_meld == 0
    s = apply_move(s, "bob", disc("4D"))
    assert s.phase == "draw"


def test_joker_swap_off():
    s = _swap_setup(joker_swap=False)
    illegal(s, "bob", {"type": "swap_joker", "meld": "m1", "card": "6H"}, "swap.not_allowed")
    assert all(m["type"] != "swap_joker" for m in legal_moves(s, "bob"))


def test_swap_errors():
    s = _swap_setup()
    illegal(s, "bob", {"type": "swap_joker", "meld": "m9", "card": "6H"}, "swap.unknown_meld")
    illegal(s, "bob", {"type": "swap_joker", "meld": "m1", "card": "5H"}, "swap.no_such_joker")
    s2 = replace(s, hands=(s.hands[0], tuple(c for c in s.hands[1] if c != "6H")))
    illegal(s2, "bob", {"type": "swap_joker", "meld": "m1", "card": "6H"}, "hand.missing_card")


# ---------------------------------------------------------------------- going out


def _last_card_setup(**options: Any) -> RoundState:
    rules = Ruleset.preset("rummy500", **options)
    ann = ["5H", "6H", "7H", "QS", "QH", "QD", "8H"]
    bob = ["AS", "3D", "TC", "JS", "KD", "2S", "9C"]
    s = stacked_round(rules, [ann, bob], dealer=1, up="5D", stock=["QC"])
    return play(
        s,
        ("ann", STOCK),
        ("ann", meld("5H", "6H", "7H")),
        ("ann", meld("QS", "QH", "QD")),
        ("ann", lay("m1", "8H")),
    )


def test_final_discard_required():
    s = _last_card_setup()
    assert s.hand_of("ann") == ("QC",)
    illegal(s, "ann", lay("m2", "QC"), "play.final_discard_required")
    assert legal_moves(s, "ann") == [{"type": "discard", "card": "QC"}]
    s = apply_move(s, "ann", disc("QC"))
    assert res(s).details["went_out"] == "ann"


def test_going_out_by_placing_without_final_discard():
    s = _last_card_setup(final_discard_required=False)
    assert lay("m2", "QC") in legal_moves(s, "ann")
    s = apply_move(s, "ann", lay("m2", "QC"))
    assert s.phase == "over" and res(s).details["went_out"] == "ann"
    assert res(s).scores["ann"] == 18 + 8 + 40


# ---------------------------------------------------------------------- end of round without going out


def _draw_and_throw(s: RoundState) -> RoundState:
    p = act(s)
    before = s.hand_of(p)
    s = apply_move(s, p, STOCK)
    drawn = next(c for c in s.hand_of(p) if s.hand_of(p).count(c) > before.count(c))
    return apply_move(s, p, disc(drawn))


def test_stock_exhaustion_ends_the_round_at_end_of_turn_000():
    s = new_round(R500, ["ann", "bob"], seed=11)
    turns = 0
    while s.phase != "over":
        s = _draw_and_throw(s)
        turns += 1
    assert turns == 54 - 14 - 1 and s.stock == ()
    assert res(s).details["reason"] == "stock"
    for p in s.players:
        d = res(s).details["players"][p]
        assert res(s).scores[p] == d["placed_value"] - d["hand_value"] == -d["hand_value"]


def test_household_empty_stock_end_round_and_pile_only():
    s = new_round(HOUSE, ["ann", "bob", "cid"], seed=5)
    while s.stock:
        s = _draw_and_throw(s)
    assert s.phase == "draw"  # 001: an empty stock does not end the round by itself (this deal)
    moves = legal_moves(s, act(s))
    assert {"type": "end_round"} in moves
    assert all(m["type"] in ("draw", "end_round") and m.get("source") != "stock" for m in moves)
    illegal(s, act(s), STOCK, "draw.stock_empty")
    done = apply_move(s, act(s), {"type": "end_round"})
    assert res(done).details["reason"] == "end_round"


def _facing_empty_stock(bob_hand: list[str]) -> RoundState:
    s = new_round(HOUSE, ["ann", "bob", "cid"], dealer=2, seed=1)
    return replace(
        s,
        phase="play",
        stock=(),
        discard=("2C",),
        hands=(("AS", "4H", "9D"), tuple(bob_hand), ("KH", "5S", "7C")),
        turn=0,
    )


def test_household_round_ends_itself_when_no_pile_card_can_be_used():
    s = _facing_empty_stock(["KD", "5H", "7D"])
    s = apply_move(s, "ann", disc("9D"))
    assert s.phase == "over" and res(s).details["reason"] == "stock"


def test_household_facing_empty_stock_may_take_only_a_usable_card():
    s = _facing_empty_stock(["9S", "9H", "KD"])
    s = apply_move(s, "ann", disc("9D"))
    assert s.phase == "draw" and s.to_act == "bob"
    assert legal_moves(s, "bob") == [pile("9D", 1), {"type": "end_round"}]
    s = apply_move(s, "bob", pile("9D", 1))
    assert s.must_use == "9D"
    illegal(s, "bob", disc("KD"), "discard.chosen_card_unused")


def test_end_round_not_allowed_with_stock_or_in_rummy500():
    s = new_round(HOUSE, ["ann", "bob", "cid"], seed=5)
    illegal(s, act(s), {"type": "end_round"}, "end_round.not_allowed")
    s = replace(new_round(R500, ["ann", "bob"], seed=5), stock=())
    illegal(s, act(s), {"type": "end_round"}, "end_round.not_allowed")


def test_stall_turns_end_the_round():
    rules = Ruleset.preset("rummy500", stall_turns=2)
    ann = ["AS", "4H", "9D", "KC", "2C", "6S", "TD"]
    bob = ["KD", "5H", "7C", "TH", "8D", "4C", "6D"]
    s = stacked_round(rules, [ann, bob], dealer=1, up="QS", stock=["3C"])
    s = play(s, ("ann", pile("QS")), ("ann", disc("AS")))
    assert s.stall == 1
    s = play(s, ("bob", pile("AS")), ("bob", disc("KD")))
    assert s.phase == "over" and res(s).details["reason"] == "stall"
    assert R500.stall_limit(3) == 12


def test_stock_draw_resets_the_stall_counter():
    rules = Ruleset.preset("rummy500", stall_turns=2)
    s = new_round(rules, ["ann", "bob"], seed=2)
    top = s.discard[-1]
    p = act(s)
    s = apply_move(s, p, pile(top))
    s = apply_move(s, p, disc(next(c for c in s.hand_of(p) if c != top)))
    assert s.stall == 1
    s = _draw_and_throw(s)
    assert s.stall == 0 and s.phase == "draw"


# ---------------------------------------------------------------------- "Rummy!" calls


def _claims_setup(rules: Ruleset = HOUSE) -> RoundState:
    ann = ["5H", "6H", "7H", "8H", "KS", "QC", "JD"]
    bob = ["AS", "3D", "TC", "JS", "QD", "2S", "9C"]
    cid = ["KD", "5S", "7C", "TH", "8D", "4C", "6S"]
    s = stacked_round(rules, [ann, bob, cid], dealer=2, up="5D", stock=["TD", "2D", "3C"])
    s = play(s, ("ann", STOCK), ("ann", meld("5H", "6H", "7H")), ("ann", disc("8H")))
    return s


def test_claim_window_opens_and_nearest_callers_left_wins():
    s = _claims_setup()
    assert s.phase == "claims" and s.to_act == "bob" and set(s.may_act) == {"bob", "cid"}
    illegal(s, "bob", STOCK, "claims.window_open")
    illegal(s, "ann", {"type": "pass_claim"}, "claims.not_eligible")
    call = {"type": "call_rummy", "card": "8H", "index": 1, "meld": "m1"}
    assert call in legal_moves(s, "cid") and {"type": "pass_claim"} in legal_moves(s, "cid")
    s = apply_move(s, "cid", call)  # cid calls first ...
    illegal(s, "cid", {"type": "pass_claim"}, "claims.already_acted")
    assert s.may_act == ("bob",)
    s = apply_move(s, "bob", call)  # ... but bob sits nearer the discarder's left
    assert s.phase == "draw" and s.to_act == "bob"
    assert s.melds[0].cards == ("5H", "6H", "7H", "8H") and s.melds[0].placers[-1] == "bob"
    assert s.discard == ("5D",)


def test_claim_pass_and_close():
    s = _claims_setup()
    s = apply_move(s, "bob", {"type": "pass_claim"})
    s = apply_move(s, "cid", {"type": "call_rummy", "card": "8H", "meld": "m1"})
    assert s.melds[0].placers[-1] == "cid" and s.to_act == "bob" and s.phase == "draw"
    s2 = _claims_setup()
    v = s2.version
    closed = close_claims(s2)
    assert closed.phase == "draw" and closed.version == v + 1 and closed.discard[-1] == "8H"
    assert close_claims(closed) is closed  # no window: a no-op


def test_claim_errors():
    s = _claims_setup()
    illegal(s, "bob", {"type": "call_rummy", "card": "5D", "index": 0, "meld": "m1"}, "claims.not_top_card")
    illegal(s, "bob", {"type": "call_rummy", "card": "8H", "index": 1, "meld": "m7"}, "claims.unknown_meld")
    s2 = replace(s, discard=("5D", "9C"))
    illegal(s2, "bob", {"type": "call_rummy", "card": "9C", "index": 1, "meld": "m1"}, "claims.invalid_call")
    s3 = replace(s, discard=("5D", "JK"))
    illegal(s3, "bob", {"type": "call_rummy", "card": "JK", "index": 1, "meld": "m1"}, "claims.joker")
    s4 = _draw_and_throw(new_round(R500, ["ann", "bob"], seed=4))
    illegal(s4, "ann", {"type": "pass_claim"}, "claims.no_window")


def test_rummy_in_the_pile_takes_the_cards_above():
    rules = Ruleset.preset("rummy500_household", rummy_in_the_pile=True)
    s = _claims_setup(rules)
    s = apply_move(s, "bob", {"type": "pass_claim"})
    s = apply_move(s, "cid", {"type": "pass_claim"})
    s = play(s, ("bob", STOCK), ("bob", disc("2D")))
    assert s.phase == "claims"  # 8H is still callable, deeper in the pile
    before = len(s.hand_of("cid"))
    s = play(
        s,
        ("cid", {"type": "call_rummy", "card": "8H", "index": 1, "meld": "m1"}),
        ("ann", {"type": "pass_claim"}),
    )
    assert s.discard == ("5D",) and len(s.hand_of("cid")) == before + 1 and "2D" in s.hand_of("cid")
    assert s.to_act == "cid"


def test_no_claims_after_going_out_and_rummy500_default_off():
    assert not R500.rummy_calls
    base = _claims_setup()
    base = close_claims(base)
    # bob's discard of a callable card opens a window unless it was his last card
    table = replace(
        base, phase="play", turn=1, melds=(*base.melds, Meld("m2", "cid", ("8S", "8H", "8D"), ("cid",) * 3))
    )
    s = apply_move(replace(table, hands=(table.hands[0], ("8C", "KH"), table.hands[2])), "bob", disc("8C"))
    assert s.phase == "claims"
    out = apply_move(replace(table, hands=(table.hands[0], ("8C",), table.hands[2])), "bob", disc("8C"))
    assert out.phase == "over" and out.claims is None and res(out).details["went_out"] == "bob"


def test_swapped_in_card_scores_for_the_jokers_placer():
    s = _swap_setup()
    s = apply_move(s, "bob", {"type": "swap_joker", "meld": "m1", "card": "6H"})
    s = apply_move(s, "bob", disc("4D"))
    s = replace(s, phase="play", hands=(("9C", "KD"), s.hands[1]))
    s = apply_move(s, "ann", disc("9C"))
    s = replace(s, hands=(("KD",), s.hands[1]), turn=0, phase="play")
    s = apply_move(s, "ann", disc("KD"))
    assert res(s).details["players"]["ann"]["placed_value"] == 5 + 6 + 7
    assert res(s).details["players"]["bob"]["placed_value"] == 0


# ---------------------------------------------------------------------- integrity


def test_illegal_and_malformed_moves_change_nothing():
    s = _deep_setup()
    snapshot = state_to_dict(s)
    bad = [
        ("bob", STOCK, "turn.not_your_turn"),
        ("zed", STOCK, "turn.unknown_player"),
        ("ann", disc("9S"), "turn.draw_first"),
        ("ann", {"type": "draw", "source": "hat"}, "move.malformed"),
        ("ann", {"type": "draw", "source": "stock", "card": "7H"}, "move.malformed"),
        ("ann", {"type": "fly"}, "move.unknown_type"),
        ("ann", {"cards": []}, "move.unknown_type"),
        ("ann", {"type": "draw", "source": "discard", "card": 7}, "card.malformed"),
        ("ann", {"type": "draw", "source": "discard", "card": "ZZ"}, "card.unknown"),
        ("ann", {"type": "draw", "source": "discard", "index": True}, "move.malformed"),
        ("ann", {"type": "draw", "source": "stock", "extra": 1}, "move.malformed"),
        ("ann", {"type": "pass_claim"}, "claims.no_window"),
    ]
    for player, move, code in bad:
        illegal(s, player, move, code)
    with pytest.raises(IllegalMove) as e:
        apply_move(s, "ann", ["draw"])  # type: ignore[arg-type]
    assert e.value.code == "move.malformed" and e.value.http_status == 400
    s2 = apply_move(s, "ann", STOCK)
    for player, move, code in [
        ("ann", STOCK, "turn.already_drawn"),
        ("ann", meld("5H", "6H"), "meld.too_short"),
        ("ann", meld("5H", "6H", "7H"), "hand.missing_card"),
        ("ann", {"type": "meld"}, "move.malformed"),
        ("ann", {"type": "meld", "cards": "5H 6H 7H"}, "move.malformed"),
        ("ann", {"type": "meld", "cards": ["5H", "6H", "7H"], "melds": []}, "move.malformed"),
        ("ann", lay("m1", "8H"), "layoff.unknown_meld"),
        ("ann", {"type": "lay_off", "meld": 3, "cards": ["8H"]}, "move.malformed"),
        ("ann", disc("AH"), "hand.missing_card"),
        ("ann", {"type": "end_round"}, "end_round.not_allowed"),
    ]:
        e2 = illegal(s2, player, move, code)
        assert e2.http_status in (400, 422)
    assert state_to_dict(s) == snapshot


def test_round_is_over_refuses_moves():
    s = _out_scenario(R500)
    illegal(s, "bob", STOCK, "round.over")
    assert legal_moves(s, "bob") == [] and close_claims(s) is s


def test_state_round_trips_through_json_exactly():
    s = _claims_setup()
    data = json.loads(json.dumps(state_to_dict(s)))
    assert state_from_dict(data) == s
    over = _out_scenario(R500)
    assert state_from_dict(json.loads(json.dumps(state_to_dict(over)))) == over
    with pytest.raises(ValueError):
        state_from_dict({**data, "format": 99})


def test_replay_rebuilds_the_round():
    s = _out_scenario(HOUSE, players=("ann", "bob", "cid"))
    again = replay(HOUSE, s.players, s.dealer, s.deck, s.moves, salt=s.salt)
    assert again == s
    c = close_claims(_claims_setup())
    assert replay(HOUSE, c.players, c.dealer, c.deck, c.moves, salt=c.salt) == c


def test_states_are_immutable_and_versioned():
    s = new_round(R500, ["ann", "bob"], seed=9)
    with pytest.raises(AttributeError):
        s.phase = "over"  # type: ignore[misc]
    s2 = apply_move(s, act(s), STOCK)
    assert s.version == 0 and s2.version == 1 and s.phase == "draw" and s2.phase == "play"


def _strings(value: Any) -> set[str]:
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return set().union(*map(_strings, value.values())) if value else set()
    if isinstance(value, list):
        return set().union(*map(_strings, value)) if value else set()
    return set()


def test_views_never_leak():
    s = apply_move(_claims_setup(), "bob", {"type": "pass_claim"})
    for who in (None, "ann", "bob", "cid"):
        v = player_view(s, who)
        text = json.dumps(v)
        assert v["stock_count"] == len(s.stock)
        others = [p for p in s.players if p != who]
        if who is not None:
            assert v["hand"] == list(s.hand_of(who))
        else:
            assert "hand" not in v
        assert [p["hand_count"] for p in v["players"]] == [len(h) for h in s.hands]
        assert "salt" not in v and s.salt not in text and "deck" not in v
        # one deck: a card held by another player can show nowhere in this view, nor a stock card
        hidden = {c for p in others for c in s.hand_of(p)} | set(s.stock)
        assert not (hidden - {"JK"}) & _strings(v)
    assert player_view(s, "bob")["claims"]["acted"] == ["bob"]
    with pytest.raises(ValueError):
        player_view(s, "zed")
    over = _out_scenario(R500)
    assert player_view(over, None)["scores"] == dict(res(over).scores)
