"""Board Rummy (docs/rules.md "Board Rummy"): tiles, the deal and the trump, the deal phase, turns, closing,
``find_arrangement`` and every row of the hands table, scores and bonuses, auto_move, views, replay."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import replace

import pytest

from tournaments.engine import (
    IllegalMove,
    Ruleset,
    apply_move,
    classify,
    find_arrangement,
    full_deck,
    legal_moves,
    new_round,
    player_view,
    replay,
    state_from_dict,
    state_to_dict,
)
from tournaments.engine.bots import GreedyBot, RandomBot, auto_move, play_round
from tournaments.engine.cards import CardError, parse_tile, sort_tiles
from tournaments.engine.families.board import ROWS, points
from tournaments.engine.state import RoundState

from .board_stacking import BOARD, PILE, STOCK, board_deck, board_round, close, disc, play
from .stacking import illegal

# Constructed boards of 14 shown tiles, one per reading row (docs/rules.md "Board Rummy").
SIMPLE = "R1 R2 R3 Y5 B5 K5 B9 B10 B11 B12 K11 K12 K13 K1"
MOSAIC = "R1 Y2 B3 K4 R5 Y6 B7 K8 R9 Y10 B11 K12 R13 Y1"
BICOLOUR = "R1 R2 R3 R4 R5 R6 R7 R8 R9 Y10 Y11 Y12 Y13 Y1"
MINOR = "R1 Y1 B1 R2 Y2 B2 R3 Y3 B3 K3 K4 K5 K6 K7"
MAJOR = "R8 Y8 B8 R9 Y9 B9 R10 Y10 B10 K10 K11 K12 K13 K1"
DOUBLES = "R1 R1 Y5 Y5 B9 B9 K13 K13 R7 R7 Y2 Y2 B4 B4"
GRAND = "R5 Y5 B5 K5 R5 Y5 B5 K5 R1 R2 R3 Y9 Y10 Y11"
MONOCOLOUR = "R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13 R1"


def tiles(text: str, *jokers_for: str) -> list[str]:
    """``text``'s tiles with each tile of ``jokers_for`` replaced by a joker."""
    out = text.split()
    for t in jokers_for:
        out[out.index(t)] = "JK"
    return out


def hand_of(text: str, *jokers_for: str, closed_with_joker: bool = False, thrown: int = 0) -> tuple[str, int]:
    reading = find_arrangement(tiles(text, *jokers_for))
    assert reading is not None, text
    hand = classify(reading, closed_with_joker=closed_with_joker, thrown=thrown)
    return hand.row, hand.points


# ====================================================================== tiles and the preset


def test_tile_codes_parse_canonically_and_refuse_cards():
    assert parse_tile(" r7 ") == "R7" and parse_tile("k13") == "K13" and parse_tile("jk") == "JK"
    assert parse_tile("JK:y1", allow_placed_joker=True) == "JK:Y1"
    for bad, code in [("7H", "card.unknown"), ("R0", "card.unknown"), ("R14", "card.unknown"),
                      ("G5", "card.unknown"), (7, "card.malformed"), ("JK:R7", "card.malformed")]:  # fmt: skip
        with pytest.raises(CardError) as e:
            parse_tile(bad)
        assert e.value.code == code, bad
    with pytest.raises(CardError):
        parse_tile("JK:JK", allow_placed_joker=True)
    assert sort_tiles(["JK", "K1", "R13", "Y2", "R2"]) == ("R2", "R13", "Y2", "K1", "JK")


def test_the_board_preset_has_106_tiles_and_extra_jokers_make_110():
    deck = full_deck(BOARD, 4)
    assert len(deck) == 106 and deck.count("JK") == 2
    assert all(n == 2 for t, n in Counter(deck).items() if t != "JK") and len(set(deck)) == 53
    extra = Ruleset.preset("board", extra_jokers=True)
    assert len(full_deck(extra, 2)) == 110 and full_deck(extra, 2).count("JK") == 6
    assert extra.to_dict() == {"preset": "board", "options": {"extra_jokers": True}}
    assert (BOARD.min_players, BOARD.max_players) == (2, 4)
    with pytest.raises(ValueError):
        new_round(BOARD, ["a", "b", "c", "d", "e"])


# ====================================================================== the deal and the trump


def test_the_deal_gives_15_to_the_first_player_14_to_others_then_turns_the_trump():
    deck = board_deck([["R1"], ["Y1"], ["B1"]], dealer=2, trump="K7", stock=["R9"])
    s = new_round(BOARD, ["ann", "bob", "cid"], dealer=2, deck=deck)
    assert [len(h) for h in s.hands] == [15, 14, 14]  # ann sits left of the dealer
    assert s.hands == tuple(sort_tiles(deck[i:42:3] + (deck[42:43] if i == 0 else [])) for i in range(3))
    assert s.own["trump"] == "K7" and deck[43] == "K7" and s.stock[0] == "R9"
    assert s.discard == () and s.phase == "play" and s.to_act == "ann" and s.may_act == ("ann",)
    assert len(s.stock) == 106 - 43 - 1
    # the first player opens by discarding: no draw
    assert {m["type"] for m in legal_moves(s, "ann")} <= {"discard", "close"}
    illegal(s, "ann", STOCK, "turn.already_drawn")


def test_a_joker_turned_up_goes_to_the_bottom_and_the_next_tile_is_the_trump():
    s = board_round([["R1"], ["Y1"]], trump="JK", stock=["JK", "B4", "K9"])
    assert s.own["trump"] == "B4"
    assert s.stock[0] == "K9" and s.stock[-2:] == ("JK", "JK") and "JK" not in s.stock[:-2]
    assert Counter([*s.stock, *s.hands[0], *s.hands[1], "B4"]) == Counter(s.deck)


def test_the_player_dealt_the_trumps_twin_gets_the_bonus_even_when_nobody_closes():
    s = board_round([[], ["B4"]], trump="B4")
    assert s.own["trump_seat"] == 1
    assert player_view(s, "bob")["trump_bonus"] is True and player_view(s, "ann")["trump_bonus"] is False
    assert "trump_seat" not in json.dumps(player_view(s, "ann"))
    # nobody closes: the stock runs out and the previous discard does not close for bob
    s = replace(s, stock=())
    over = (
        apply_move(s, "bob", disc(s.hands[1][0])) if s.to_act == "bob" else apply_move(s, "ann", disc("R1"))
    )
    assert over.phase == "over" and over.result is not None
    assert over.result.details["reason"] == "stock" and dict(over.result.scores) == {"ann": 0, "bob": 0}
    assert [dict(b) for b in over.result.bonuses] == [{"player": "bob", "points": 100, "reason": "trump"}]
    assert dict(over.result.game_points) == {"ann": 0, "bob": 100} and over.result.redeal is False


@pytest.mark.parametrize("n", [2, 3, 4])
def test_the_trump_bonus_counts_100_per_opponent_in_game_points(n: int) -> None:
    # docs/rules.md "Board Rummy" (decided): the twin's holder is paid 100 by each opponent, and game_points
    # adds 100 per opponent; 3 players, trump K7, the third player holds the twin, the second closes at once.
    hands: list[list[str]] = (
        [["Y7"], SIMPLE.split(), ["K7"], []][:n] if n > 2 else [["Y7", "K7"], SIMPLE.split()]
    )
    s = board_round(hands, trump="K7", stock=["Y13"])
    twin = "cid" if n > 2 else "ann"
    assert s.players[s.own["trump_seat"]] == twin
    over = play(s, ("ann", disc("Y7")), ("bob", STOCK), ("bob", close("Y13")))
    assert over.result is not None and over.result.details["closer"] == "bob"
    assert [dict(b) for b in over.result.bonuses] == [{"player": twin, "points": 100, "reason": "trump"}]
    assert over.result.scores == {p: (250 if p == "bob" else 0) for p in over.players}
    expected = {p: (250 if p == "bob" else 0) + (100 * (n - 1) if p == twin else 0) for p in over.players}
    assert dict(over.result.game_points) == expected


def test_no_bonus_when_the_twin_stays_in_the_stock():
    s = board_round([[], []], trump="B4", stock=["B4"])
    assert s.own["trump_seat"] is None
    over = apply_move(replace(s, stock=()), "ann", disc(s.hands[0][0]))
    assert over.result is not None and over.result.bonuses == ()


# ====================================================================== the deal phase


PAIRS = ["R1", "R1", "Y2", "Y2", "B3", "B3"]


def test_three_identical_pairs_open_the_deal_phase_for_that_player():
    s = board_round([["K1", "K1", "K2", "K2"], PAIRS], dealer=0, trump="R9", stock=["K8"])
    assert s.phase == "deal" and s.may_act == ("bob",) and s.to_act == "bob"  # bob is also the first player
    assert legal_moves(s, "bob") == [{"type": "keep_deal"}, {"type": "refuse_deal"}]
    assert legal_moves(s, "ann") == []
    illegal(s, "ann", {"type": "keep_deal"}, "deal.not_eligible")
    illegal(s, "bob", disc("R1"), "deal.answer_first")
    view = player_view(s, "ann")
    assert view["phase"] == "deal" and view["deal"] == {"qualified": ["bob"], "pending": ["bob"]}
    kept = apply_move(s, "bob", {"type": "keep_deal"})
    assert kept.phase == "play" and kept.to_act == "bob" and kept.may_act == ("bob",)
    illegal(kept, "bob", {"type": "keep_deal"}, "deal.not_open")


def test_two_jokers_are_not_a_pair_and_everyone_qualified_answers():
    extra = Ruleset.preset("board", extra_jokers=True)
    s = board_round([["K1", "K1", "K2", "K2", "JK", "JK"], PAIRS], rules=extra)
    assert s.phase == "deal" and s.may_act == ("bob",)
    s = board_round([PAIRS, ["K1", "K1", "K2", "K2", "K3", "K3"]], trump="B4")
    assert s.may_act == ("ann", "bob")  # seat order from the dealer's left
    s = apply_move(s, "bob", {"type": "keep_deal"})
    assert s.phase == "deal" and s.may_act == ("ann",)
    illegal(s, "bob", {"type": "keep_deal"}, "deal.already_answered")
    assert apply_move(s, "ann", {"type": "keep_deal"}).phase == "play"


def test_a_refused_deal_ends_the_round_for_a_redeal_with_no_scores_and_no_bonus():
    s = board_round([PAIRS, ["B4"]], dealer=1, trump="B4")
    assert s.own["trump_seat"] == 1
    over = apply_move(s, "ann", {"type": "refuse_deal"})
    assert over.phase == "over" and over.result is not None and over.result.redeal is True
    assert dict(over.result.scores) == {"ann": 0, "bob": 0} and over.result.bonuses == ()
    assert over.result.details["refused_by"] == "ann" and over.version == 1


# ====================================================================== turns


def _opened() -> RoundState:
    """ann opened by discarding K8; bob is to draw."""
    s = board_round([["K8", "JK"], ["R5", "R6"]], trump="B12", stock=["Y13", "Y12"])
    return apply_move(s, "ann", disc("K8"))


def test_a_turn_draws_the_stock_or_the_previous_discard_then_discards():
    s = _opened()
    assert s.phase == "draw" and s.to_act == "bob"
    assert legal_moves(s, "bob") == [STOCK, {"type": "draw", "source": "discard", "card": "K8", "index": 0}]
    illegal(s, "bob", disc("R5"), "turn.draw_first")
    illegal(s, "ann", STOCK, "turn.not_your_turn")
    took = apply_move(s, "bob", PILE)
    assert "K8" in took.hand_of("bob") and took.discard == () and took.phase == "play"
    assert json.loads(took.log[-1][1]) == {"type": "draw", "source": "discard", "card": "K8", "index": 0}
    illegal(took, "bob", disc("K8"), "discard.chosen_card")
    assert {"type": "discard", "card": "K8"} not in legal_moves(took, "bob")
    illegal(took, "bob", STOCK, "turn.already_drawn")
    drew = apply_move(s, "bob", STOCK)
    assert "Y13" in drew.hand_of("bob") and drew.stock[0] == "Y12"
    after = apply_move(drew, "bob", disc("Y13"))
    assert after.to_act == "ann" and after.discard == ("K8", "Y13")


def test_only_the_previous_discard_and_never_a_thrown_joker():
    s = apply_move(apply_move(_opened(), "bob", STOCK), "bob", disc("Y13"))
    illegal(s, "ann", {"type": "draw", "source": "discard", "card": "K8"}, "draw.not_previous_discard")
    illegal(s, "ann", {"type": "draw", "source": "discard", "index": 0}, "draw.not_previous_discard")
    thrown = apply_move(apply_move(s, "ann", STOCK), "ann", disc("JK"))
    assert thrown.own["thrown"] == (1, 0) and player_view(thrown, None)["thrown_jokers"] == {
        "ann": 1,
        "bob": 0,
    }
    assert legal_moves(thrown, "bob") == [STOCK]
    illegal(thrown, "bob", PILE, "draw.thrown_joker")


# ====================================================================== closing


def test_legal_moves_offer_a_close_for_each_discard_that_closes():
    s = board_round([[*SIMPLE.split(), "Y13"], []], trump="K9")
    moves = legal_moves(s, "ann")
    assert [m for m in moves if m["type"] == "close"] == [{"type": "close", "discard": "Y13"}]
    assert len([m for m in moves if m["type"] == "discard"]) == len(set(s.hand_of("ann")))
    illegal(s, "ann", close("R1"), "close.invalid")
    over = apply_move(s, "ann", close("Y13"))
    assert over.result is not None and dict(over.result.scores) == {"ann": 250, "bob": 0}
    d = over.result.details
    assert d["reason"] == "close" and d["closer"] == "ann" and d["discard"] == "Y13"
    assert (
        d["hand"]["row"] == "simple"
        and d["hand"]["tier"] == "small"
        and d["arrangement"]["kind"] == "combinations"
    )
    assert sorted(t for g in d["arrangement"]["groups"] for t in g) == sorted(SIMPLE.split())
    assert json.loads(over.log[-1][1]) == {"type": "close", "discard": "Y13"}


def test_the_server_scores_the_best_reading_whatever_groups_were_sent():
    s = board_round([[*MONOCOLOUR.split(), "Y13"], []], trump="K9")
    shown = MONOCOLOUR.split()
    sent = [shown[:3], shown[3:6], shown[6:9], shown[9:]]
    over = apply_move(s, "ann", close("Y13", sent))
    assert over.result is not None and over.result.details["hand"]["row"] == "monocolour"
    assert over.result.scores["ann"] == 1000
    assert json.loads(over.log[-1][1]) == {"type": "close", "discard": "Y13"}
    illegal(s, "ann", close("Y13", [shown[:13]]), "close.groups_mismatch")
    illegal(s, "ann", close("Y13", [[*shown[:13], "Y13"]]), "close.groups_mismatch")
    illegal(s, "ann", {"type": "close", "discard": "Y13", "groups": "R1"}, "move.malformed")
    illegal(s, "ann", {"type": "close"}, "move.malformed")
    illegal(s, "ann", close("B2"), "hand.missing_card")


def test_closing_with_a_joker_and_after_throwing_jokers_lifts_the_row():
    # ann throws a joker, then closes by discarding the other one: "thrown and closed with a joker"
    s = board_round([[*SIMPLE.split(), "JK"], ["Y7"]], trump="K9", stock=["B13", "JK"])
    s = play(s, ("ann", disc("JK")), ("bob", STOCK), ("bob", disc("Y7")), ("ann", STOCK))
    assert s.own["thrown"] == (1, 0) and s.hand_of("ann").count("JK") == 1
    moves = legal_moves(s, "ann")
    assert {"type": "close", "discard": "JK"} in moves
    over = apply_move(s, "ann", close("JK"))
    assert over.result is not None
    hand = over.result.details["hand"]
    assert hand["row"] == "thrown_and_joker_close" and hand["closed_with_joker"] and hand["thrown"] == 1
    assert over.result.scores == {"ann": 1000, "bob": 0}


def test_an_empty_stock_lets_the_next_player_take_the_discard_only_to_close():
    bob = [*SIMPLE.split()[:13], "Y7"]  # needs K1 to close
    s = board_round([["K1", "Y13"], bob], trump="B2")
    s = replace(s, stock=())
    s = apply_move(s, "ann", disc("K1"))
    assert s.phase == "draw" and s.to_act == "bob"
    assert legal_moves(s, "bob") == [{"type": "draw", "source": "discard", "card": "K1", "index": 0}]
    illegal(s, "bob", STOCK, "draw.stock_empty")
    took = apply_move(s, "bob", PILE)
    assert player_view(took, "bob")["obligations"] == {"not_discardable": ["K1"], "must_close": True}
    assert all(m["type"] == "close" for m in legal_moves(took, "bob"))
    illegal(took, "bob", disc("Y7"), "discard.must_close")
    over = apply_move(took, "bob", close("Y7"))
    assert over.result is not None and over.result.scores["bob"] == 250
    # a draw from the pile facing an empty stock that would not close is refused
    stuck = replace(s, discard=("Y13",))
    illegal(stuck, "bob", PILE, "draw.must_close")


def test_the_round_stalls_when_nobody_draws_from_the_stock():
    rules = Ruleset.preset("board", stall_turns=2)
    s = board_round([["K8"], []], trump="B12", rules=rules)
    s = apply_move(s, "ann", disc("K8"))
    s = play(s, ("bob", PILE), ("bob", disc(next(t for t in s.hand_of("bob") if t != "JK"))))
    assert s.phase == "over" and s.result is not None and s.result.details["reason"] == "stall"
    assert set(s.result.scores.values()) == {0}


# ====================================================================== find_arrangement


def test_runs_wrap_12_13_1_and_the_14_tile_run_but_never_13_1_2():
    assert (
        find_arrangement(
            ["R12", "R13", "R1", "Y5", "Y6", "Y7", "B5", "B6", "B7", "K5", "K6", "K7", "K8", "K9"]
        )
        is not None
    )
    assert (
        find_arrangement(
            ["R13", "R1", "R2", "Y5", "Y6", "Y7", "B5", "B6", "B7", "K5", "K6", "K7", "K8", "K9"]
        )
        is None
    )
    full = find_arrangement(MONOCOLOUR.split())
    assert full is not None and full.row == "monocolour"
    assert (
        find_arrangement(
            ["R1", "R2", "R3", "R4", "R5", "R6", "R7", "R8", "R9", "R10", "R11", "R12", "R13", "Y1"]
        )
        is None
    )
    assert (
        find_arrangement(
            ["R11", "R12", "R13", "R1", "R2", "Y5", "Y6", "Y7", "B5", "B6", "B7", "K5", "K6", "K7"]
        )
        is None
    )


def test_jokers_stand_for_any_tile_in_runs_groups_and_pairs():
    r = find_arrangement(tiles(SIMPLE, "B10", "Y5"))
    assert r is not None and r.jokers == 2 and r.row == "simple"
    assert any("JK:B10" in g for g in r.groups) or any(t.startswith("JK:") for g in r.groups for t in g)
    assert (
        find_arrangement(["R1", "R2", "JK", "Y5", "Y6", "Y7", "B5", "B6", "B7", "K5", "K6", "K7", "K8", "K9"])
        is not None
    )
    pairs = find_arrangement(tiles(DOUBLES, "B4"))
    assert pairs is not None and pairs.kind == "pairs" and ("B4", "JK:B4") in pairs.groups
    two = find_arrangement(tiles(DOUBLES, "B4", "B4"))  # two jokers pair with each other
    assert two is not None and two.row == "doubles" and two.jokers == 2
    assert (
        find_arrangement(["R1", "R2", "R4", "Y5", "Y6", "Y7", "B5", "B6", "B7", "K5", "K6", "K7", "K8", "K9"])
        is None
    )


def test_the_mosaic_is_read_exactly_as_written():
    m = find_arrangement(MOSAIC.split())
    assert m is not None and m.kind == "mosaic" and m.groups == (tuple(MOSAIC.split()),)
    assert (
        find_arrangement(
            ["R1", "Y2", "R3", "K4", "R5", "Y6", "B7", "K8", "R9", "Y10", "B11", "K12", "R13", "Y1"]
        )
        is None
    )  # first four
    assert (
        find_arrangement(
            ["R1", "Y2", "B3", "K4", "R5", "R6", "B7", "K8", "R9", "Y10", "B11", "K12", "R13", "Y1"]
        )
        is None
    )  # neighbours
    # the two 1s go where they fit: here only Y1 may open it
    swapped = find_arrangement(
        ["K1", "Y2", "B3", "K4", "R5", "Y6", "B7", "K8", "R9", "Y10", "B11", "K12", "B13", "R1"]
    )
    assert swapped is not None and swapped.groups[0][0] == "R1"
    assert find_arrangement(tiles(MOSAIC, "B7")) is None  # no joker in a mosaic
    with pytest.raises(CardError):
        find_arrangement(["7H", *MOSAIC.split()[1:]])


# ====================================================================== the hands table, row by row

ROW_CASES = [
    # (row, tiles, jokers for, closed with a joker, thrown, points)
    ("simple", SIMPLE, (), False, 0, 250),
    ("simple", SIMPLE, ("B10",), False, 0, 200),
    ("simple", SIMPLE, ("B10", "Y5"), False, 0, 150),
    ("mosaic", MOSAIC, (), False, 0, 250),
    ("bicolour", BICOLOUR, (), False, 0, 500),
    ("bicolour", BICOLOUR, ("R5",), False, 0, 400),
    ("bicolour", BICOLOUR, ("R5", "Y12"), False, 0, 300),
    ("minor", MINOR, (), False, 0, 500),
    ("minor", MINOR, ("B2",), False, 0, 400),
    ("major", MAJOR, (), False, 0, 500),
    ("major", MAJOR, ("Y9", "B10"), False, 0, 300),
    ("joker_close", SIMPLE, (), True, 0, 500),
    ("joker_close", SIMPLE, ("B10",), False, 1, 400),
    ("joker_close", MOSAIC, (), True, 0, 500),
    ("joker_close", MOSAIC, (), False, 1, 500),
    ("doubles", DOUBLES, (), False, 0, 1000),
    ("doubles", DOUBLES, ("R7",), False, 0, 900),
    ("grand", GRAND, (), False, 0, 1000),
    ("grand", GRAND, ("K5",), False, 0, 900),
    ("monocolour", MONOCOLOUR, (), False, 0, 1000),
    ("monocolour", MONOCOLOUR, ("R13", "R1"), False, 0, 800),
    ("big_joker_close", BICOLOUR, (), True, 0, 1000),
    ("big_joker_close", MINOR, ("B2",), True, 0, 900),
    ("big_joker_close", MAJOR, (), True, 0, 1000),
    ("thrown_and_joker_close", SIMPLE, (), True, 1, 1000),
    ("thrown_and_joker_close", MOSAIC, (), True, 1, 1000),
    ("two_jokers_thrown", SIMPLE, (), False, 2, 1000),
    ("two_jokers_thrown", SIMPLE, ("B10", "Y5"), False, 2, 800),
]


@pytest.mark.parametrize(("row", "text", "jokers", "with_joker", "thrown", "expected"), ROW_CASES)
def test_every_row_of_the_table_on_a_constructed_board(
    row: str, text: str, jokers: tuple[str, ...], with_joker: bool, thrown: int, expected: int
) -> None:
    assert hand_of(text, *jokers, closed_with_joker=with_joker, thrown=thrown) == (row, expected)


def test_every_row_of_rules_md_has_a_case():
    assert {r for r, _ in ROWS} == {case[0] for case in ROW_CASES}


def test_three_or_more_jokers_count_as_two():
    assert points(0, 3) == 150 and points(1, 4) == 300 and points(2, 6) == 800
    r = find_arrangement(tiles(SIMPLE, "B10", "Y5", "K12"))
    assert r is not None and r.jokers == 3 and classify(r, closed_with_joker=False, thrown=0).points == 150


def test_the_highest_row_wins_when_a_board_qualifies_for_several():
    both = "R1 R2 R3 R4 R5 R6 R7 Y1 Y2 Y3 Y4 Y5 Y6 Y7"  # bicolour and minor: one row, table order
    assert hand_of(both) == ("bicolour", 500)
    assert hand_of(both, closed_with_joker=True) == ("big_joker_close", 1000)
    hand = classify(find_arrangement(both.split()), closed_with_joker=True, thrown=2)  # type: ignore[arg-type]
    assert hand.rows[0] == "big_joker_close" and set(hand.rows) == {
        "bicolour", "big_joker_close", "thrown_and_joker_close", "two_jokers_thrown"}  # fmt: skip
    # seven pairs, monocolour, bicolour and minor at once: the special rows beat the big ones
    twice = "R1 R2 R3 R4 R5 R6 R7 R1 R2 R3 R4 R5 R6 R7"
    assert hand_of(twice) == ("doubles", 1000)
    # grand and a minor reading: grand (special) pays
    assert hand_of("R2 Y2 B2 K2 R2 Y2 B2 K2 R3 R4 R5 Y5 Y6 Y7") == ("grand", 1000)
    # a simple close after throwing a joker beats nothing higher than big
    assert hand_of(SIMPLE, thrown=1) == ("joker_close", 500)


# ====================================================================== bots, auto_move, views, replay


def test_auto_move_keeps_the_deal_draws_the_stock_and_discards_the_highest_number_never_a_joker():
    s = board_round([["K13", "R13", "JK", "Y12"], ["R5"]], trump="B2")
    assert auto_move(s, "ann") == disc("R13")  # 13 twice: canonical order R before K
    s = apply_move(s, "ann", disc("R13"))
    assert auto_move(s, "bob") == STOCK
    dealt = board_round([PAIRS, []], dealer=1)
    assert auto_move(dealt, "ann") == {"type": "keep_deal"}
    with pytest.raises(ValueError):
        auto_move(s, "ann")


@pytest.mark.parametrize("n", [2, 3, 4])
def test_bots_play_board_rounds_to_the_end(n: int) -> None:
    players = ["ann", "bob", "cid", "dan"][:n]
    for seed in range(3):
        s = new_round(BOARD, players, dealer=seed % n, seed=seed)
        bots = {p: (GreedyBot() if i % 2 == 0 else RandomBot(seed)) for i, p in enumerate(players)}
        over = play_round(s, bots)
        assert over.result is not None and set(over.result.scores) == set(players)
        closer = over.result.details.get("closer")
        assert sum(1 for v in over.result.scores.values() if v) == (1 if closer else 0)
        assert replay(BOARD, players, seed % n, over.deck, over.moves, salt=over.salt) == over


def test_views_show_the_own_board_and_the_trump_never_another_board():
    s = board_round([["R1", "R2"], ["K9", "K10"]], trump="B7")
    for who in ("ann", "bob", None):
        v = player_view(s, who)
        assert v["trump"] == "B7" and v["discard_pile"] == [] and v["melds"] == []
        text = json.dumps({k: x for k, x in v.items() if k != "hand"})
        assert all(set(p) == {"username", "seat", "hand_count"} for p in v["players"])
        assert "R1" not in text and "K9" not in text and v["stock_count"] == len(s.stock)
    assert player_view(s, "ann")["hand"] == list(s.hand_of("ann"))
    assert "hand" not in player_view(s, None)


def test_a_board_round_stores_and_replays_exactly():
    s = board_round([PAIRS, []], dealer=1, trump="B4")
    s = play(s, ("ann", {"type": "keep_deal"}), ("ann", disc("R1")), ("bob", PILE))
    assert state_to_dict(s)["own"]["trump"] == "B4"
    assert state_from_dict(json.loads(json.dumps(state_to_dict(s)))) == s
    assert replay(BOARD, s.players, 1, s.deck, s.moves, salt=s.salt) == s
    with pytest.raises(IllegalMove):
        apply_move(s, "bob", {"type": "meld", "cards": ["R1"]})


def test_find_arrangement_agrees_with_a_naive_search_on_random_closing_boards():
    """The pruned, memoised search gives the points of the exhaustive one (tests/benchmarks/bench_board)."""
    import random

    from tests.benchmarks.bench_board import closing_board, naive_best

    rng = random.Random("naive")
    for jokers in (0, 0, 0, 1, 1, 1, 2):
        board = closing_board(rng, jokers)
        kept = board[:14] if rng.random() < 0.7 else board[1:]
        fast, slow = find_arrangement(kept), naive_best(kept)
        assert (fast is None) == (slow is None), kept
        if fast is not None and slow is not None:
            assert (fast.tier, fast.jokers) == (slow.tier, slow.jokers), kept
