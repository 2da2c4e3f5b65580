"""The Basic family's round result (docs/rules.md "Basic Rummy family": ``result.scores`` /
``result.game_points``) and its PCR settlement (docs/rules.md "Settlement (PCR)": each loser pays their own
hand, a block pays the differences to the lowest)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from ledger.settlement import pcr_transfers
from tournaments.engine import Ruleset, apply_move, game_over
from tournaments.engine.game import Game
from tournaments.engine.state import RoundState

from .stacking import END, STOCK, disc, meld, play, res, stacked_round

BOB = ["AS", "3D", "TC", "JS", "2D", "9C", "4S", "6D", "8S", "KC"]  # 63 (ace 1)
ANN = ["5H", "6H", "7H", "8H", "QS", "QH", "QD", "2C", "3C", "4C"]  # melds every card


def _out_in_one_turn(**options: object) -> RoundState:
    """ann melds everything in her first turn and discards the card drawn: going rummy."""
    rules = Ruleset.preset("basic", multiple_melds_per_turn=True, **options)
    s = stacked_round(rules, [ANN, BOB], dealer=1, up="8D", stock=["TS", "9H"])
    return play(
        s,
        ("ann", STOCK),
        ("ann", meld("QS", "QH", "QD")),
        ("ann", meld("2C", "3C", "4C")),
        ("ann", meld("5H", "6H", "7H", "8H")),
        ("ann", disc("TS")),
    )


def test_the_winner_collects_the_other_hands_doubled_for_going_rummy() -> None:
    r = res(_out_in_one_turn())
    assert r.details["went_out"] == "ann" and r.details["going_rummy"]
    assert r.scores == {"ann": 0, "bob": -126} and r.game_points == {"ann": 126, "bob": 0}
    assert pcr_transfers(scores=dict(r.scores), pcr=2, seat_order=["ann", "bob"]) == [("bob", "ann", 252)]


def test_going_rummy_plus10_and_off() -> None:
    plus = res(_out_in_one_turn(going_rummy="plus10"))
    assert plus.scores == {"ann": 0, "bob": -63} and plus.game_points == {"ann": 73, "bob": 0}
    off = res(_out_in_one_turn(going_rummy="off"))
    assert off.scores == {"ann": 0, "bob": -63} and off.game_points == {"ann": 63, "bob": 0}
    assert not off.details["going_rummy"]


def test_no_rummy_after_an_earlier_meld_and_the_ace_counts_fifteen_with_ace_high() -> None:
    rules = Ruleset.preset("basic", multiple_melds_per_turn=True, ace_high=True)
    s = stacked_round(rules, [ANN, BOB], dealer=1, up="8D", stock=["TS", "KD", "9H"])
    s = play(s, ("ann", STOCK), ("ann", meld("QS", "QH", "QD")), ("ann", disc("TS")), ("bob", STOCK))
    s = play(s, ("bob", disc("KD")), ("ann", STOCK), ("ann", meld("2C", "3C", "4C")))
    out = apply_move(s, "ann", meld("5H", "6H", "7H", "8H", "9H"))
    r = res(out)
    assert not r.details["going_rummy"] and r.details["players"]["bob"]["hand_value"] == 77  # AS = 15
    assert r.scores == {"ann": 0, "bob": -77} and r.game_points == {"ann": 77, "bob": 0}


def _block(hands: list[list[str]], rules: Ruleset | None = None, dealer: int = 3) -> RoundState:
    """A four-player block whose stock is gone, with these hands; the player to draw ends it."""
    rules = rules or Ruleset.preset("block")
    s = stacked_round(rules, [[], [], [], []], players=["A", "B", "C", "D"], dealer=dealer)
    s = replace(s, stock=(), hands=tuple(tuple(h) for h in hands))
    return apply_move(s, s.players[s.turn], END)


def test_source_003_block_example_the_lowest_hand_collects_the_differences() -> None:
    # 003: A 6, B 15, C 7, D 21 -> A scores 9 + 1 + 15 = 25
    r = res(_block([["AS", "2H", "3D"], ["5S", "KH"], ["3S", "4H"], ["KS", "TH", "AD"]]))
    assert {p: r.details["players"][p]["hand_value"] for p in "ABCD"} == {"A": 6, "B": 15, "C": 7, "D": 21}
    assert r.details["went_out"] is None and r.details["winners"] == ("A",)
    assert r.scores == {"A": -6, "B": -15, "C": -7, "D": -21}
    assert r.game_points == {"A": 25, "B": 0, "C": 0, "D": 0}
    # docs/rules.md "Settlement (PCR)": B pays 9, C 1, D 15 to A (times the PCR)
    assert pcr_transfers(scores=dict(r.scores), pcr=1, seat_order=list("ABCD")) == [
        ("B", "A", 9),
        ("C", "A", 1),
        ("D", "A", 15),
    ]


def test_a_tie_for_the_lowest_hand_shares_in_equal_integer_parts() -> None:
    # A 6, B 15, C 6, D 20: 9 + 0 + 14 = 23 to share -> 12 and 11, the odd point to the first tied player
    # from the dealer's left. Dealer D: A first; dealer A: C first (B, C, D, A).
    hands = [["AS", "2H", "3D"], ["5S", "KH"], ["2S", "4H"], ["KS", "TH"]]
    r = res(_block(hands, dealer=3))
    assert r.scores == {"A": -6, "B": -15, "C": -6, "D": -20}
    assert r.game_points == {"A": 12, "B": 0, "C": 11, "D": 0} and r.details["winners"] == ("A", "C")
    r = res(_block(hands, dealer=0))
    assert r.game_points == {"A": 11, "B": 0, "C": 12, "D": 0} and r.details["winners"] == ("C", "A")
    # settlement: the tied players split each payment; leftover chips from the dealer's left
    assert pcr_transfers(scores=dict(r.scores), pcr=1, seat_order=["B", "C", "D", "A"]) == [
        ("B", "C", 5),
        ("B", "A", 4),
        ("D", "C", 7),
        ("D", "A", 7),
    ]


def test_penalty_scoring_each_scores_their_own_hand_and_the_lowest_total_wins() -> None:
    r = res(_out_in_one_turn(scoring="penalty", going_rummy="off"))
    assert r.scores == {"ann": 0, "bob": -63} and r.game_points == {"ann": 0, "bob": 63}
    rules = Ruleset.preset("block", scoring="penalty")
    b = res(_block([["AS", "2H", "3D"], ["5S", "KH"], ["3S", "4H"], ["KS", "TH", "AD"]], rules))
    assert b.game_points == {"A": 6, "B": 15, "C": 7, "D": 21} and b.scores == {
        "A": -6,
        "B": -15,
        "C": -7,
        "D": -21,
    }
    # the game ends when someone reaches 100; the lowest total wins
    assert rules.target_score == 100 and game_over(rules, {"A": 40, "B": 100}, 5)
    assert not game_over(rules, {"A": 40, "B": 99}, 5)
    game = Game(rules, ("A", "B", "C"), 0, (40, 100, 35), (), None, over=True)
    assert game.winners == ("C",)
    winner_scoring = Game(Ruleset.preset("block"), ("A", "B", "C"), 0, (40, 100, 35), (), None, over=True)
    assert winner_scoring.winners == ("B",)


def test_wrotham_is_six_deals_and_the_highest_total_wins() -> None:
    rules = Ruleset.preset("wrotham")
    assert not game_over(rules, {"a": 900, "b": 0}, 5) and game_over(rules, {"a": 0, "b": 0}, 6)


@pytest.mark.parametrize("preset", ["basic", "block", "wrotham", "romme"])
def test_scores_and_game_points_add_up(preset: str) -> None:
    """The winner collects exactly what the others lose (without a rummy bonus), in every preset."""
    from tournaments.engine import new_round
    from tournaments.engine.bots import GreedyBot, play_round

    for seed in range(4):
        s = new_round(Ruleset.preset(preset, going_rummy="off"), ["a", "b", "c"], dealer=seed % 3, seed=seed)
        r = res(play_round(s, dict.fromkeys("abc", GreedyBot())))
        hv = {p: r.details["players"][p]["hand_value"] for p in "abc"}
        if r.details["went_out"] is not None:
            assert sum(r.game_points.values()) == -sum(r.scores.values()) == sum(hv.values())
        else:
            assert sum(r.game_points.values()) == sum(hv.values()) - 3 * min(hv.values())
            assert r.scores == {p: -hv[p] for p in "abc"}
