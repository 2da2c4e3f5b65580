"""Every IllegalMove code the engine can raise, each provoked by a scenario (docs/rules.md lists them).

A refused move must leave the state exactly as it was (``illegal`` compares full snapshots).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

import pytest

from tournaments.engine import Ruleset, apply_move, new_round
from tournaments.engine.state import Meld, RoundState

from .board_stacking import PILE as TILE_PILE
from .board_stacking import board_round
from .board_stacking import close as board_close
from .board_stacking import disc as tile_disc
from .stacking import END, PASS, STOCK, call, disc, illegal, lay, meld, pile, play, swap
from .test_architecture import ROOT, _raised_codes
from .test_basic_round import ANN, BASIC, ROMME_ANN, _late, _romme, two
from .test_board import PAIRS, SIMPLE, _opened
from .test_round import _claims_setup, _deep_setup, _last_card_setup, _out_scenario, _swap_setup

R500 = Ruleset.preset("rummy500")
HOUSE = Ruleset.preset("rummy500_household")

Case = Callable[[], tuple[RoundState, str, Any]]


def _drawn() -> RoundState:
    return apply_move(_deep_setup(), "ann", STOCK)


def _empty_stock() -> RoundState:
    return replace(new_round(HOUSE, ["ann", "bob", "cid"], dealer=2, seed=5), stock=())


def _twin_pile() -> RoundState:
    return replace(
        new_round(HOUSE, [f"p{i}" for i in range(5)], dealer=4, seed=3), discard=("7H", "2C", "7H")
    )


def _board_deal() -> RoundState:
    """Board Rummy's deal phase: ann (the first player) may refuse, bob does not qualify."""
    return board_round([PAIRS, []], trump="B4")


def _board_thrown() -> RoundState:
    """bob is to draw and the previous discard is a thrown joker."""
    s = board_round([["JK"], []], trump="B4")
    return apply_move(s, "ann", tile_disc("JK"))


def _board_pile_on_empty_stock() -> RoundState:
    """bob took ann's K1 facing an empty stock: that closes, so he may only close."""
    s = replace(board_round([["K1", "Y13"], [*SIMPLE.split()[:13], "Y7"]], trump="B2"), stock=())
    return apply_move(apply_move(s, "ann", tile_disc("K1")), "bob", TILE_PILE)


CASES: dict[str, Case] = {
    "move.malformed": lambda: (_deep_setup(), "ann", {"type": "draw", "source": "hat"}),
    "move.unknown_type": lambda: (_deep_setup(), "ann", {"type": "fly"}),
    "card.malformed": lambda: (_deep_setup(), "ann", {"type": "draw", "source": "discard", "card": 7}),
    "card.unknown": lambda: (_deep_setup(), "ann", {"type": "draw", "source": "discard", "card": "ZZ"}),
    "round.over": lambda: (_out_scenario(R500), "bob", STOCK),
    "turn.unknown_player": lambda: (_deep_setup(), "zed", STOCK),
    "turn.not_your_turn": lambda: (_deep_setup(), "bob", STOCK),
    "turn.draw_first": lambda: (_deep_setup(), "ann", disc("9S")),
    "turn.already_drawn": lambda: (_drawn(), "ann", STOCK),
    "turn.cannot_complete": lambda: (
        replace(_deep_setup(), hands=(("JK",), _deep_setup().hands[1]), discard=("7H", "JK")),
        "ann",
        pile("JK"),
    ),
    "draw.stock_empty": lambda: (_empty_stock(), "ann", STOCK),
    "draw.pile_empty": lambda: (replace(_deep_setup(), discard=()), "ann", pile("7H")),
    "draw.card_not_in_pile": lambda: (_deep_setup(), "ann", pile("9C")),
    "draw.index_mismatch": lambda: (_deep_setup(), "ann", pile("7H", 1)),
    "draw.index_required": lambda: (_twin_pile(), "p0", pile("7H")),
    "draw.discard_card_must_be_used": lambda: (
        play(_deep_setup(), ("ann", STOCK), ("ann", disc("9S"))),
        "bob",
        pile("7H", 0),
    ),
    "meld.too_short": lambda: (_drawn(), "ann", meld("5H", "6H")),
    "meld.too_few_natural": lambda: (_drawn(), "ann", meld("5H", "JK", "JK")),
    "meld.invalid": lambda: (_drawn(), "ann", meld("5H", "6H", "8S")),
    "meld.ambiguous_joker": lambda: (_drawn(), "ann", meld("JK", "5H", "6H")),
    "layoff.unknown_meld": lambda: (_drawn(), "ann", lay("m9", "8H")),
    "layoff.invalid": lambda: (_swap_setup(), "bob", lay("m1", "6H")),
    "hand.missing_card": lambda: (_drawn(), "ann", disc("AH")),
    "play.final_discard_required": lambda: (_last_card_setup(), "ann", lay("m2", "QC")),
    "swap.not_allowed": lambda: (_swap_setup(joker_swap=False), "bob", swap("m1", "6H")),
    "swap.unknown_meld": lambda: (_swap_setup(), "bob", swap("m9", "6H")),
    "swap.no_such_joker": lambda: (_swap_setup(), "bob", swap("m1", "5H")),
    "discard.chosen_card": lambda: (apply_move(_deep_setup(), "ann", pile("3D")), "ann", disc("3D")),
    "discard.retrieved_joker": lambda: (
        apply_move(_swap_setup(), "bob", swap("m1", "6H")),
        "bob",
        disc("JK"),
    ),
    "discard.chosen_card_unused": lambda: (apply_move(_deep_setup(), "ann", pile("7H")), "ann", disc("9S")),
    "discard.joker_not_melded": lambda: (
        apply_move(_swap_setup(swapped_joker_must_be_melded=True), "bob", swap("m1", "6H")),
        "bob",
        disc("4D"),
    ),
    "end_round.not_allowed": lambda: (new_round(HOUSE, ["ann", "bob", "cid"], dealer=2, seed=5), "ann", END),
    # the Basic family (docs/rules.md "Basic Rummy family")
    "draw.top_card_only": lambda: (
        play(two(BASIC, ANN), ("ann", STOCK), ("ann", disc("2C"))),
        "bob",
        pile("8D", 0),
    ),
    "meld.one_per_turn": lambda: (
        play(two(BASIC, ANN), ("ann", STOCK), ("ann", meld("5H", "6H", "7H"))),
        "ann",
        meld("QS", "QH", "QD"),
    ),
    "layoff.own_meld_first": lambda: (
        play(
            two(Ruleset.preset("basic", lay_off_requires_own_meld=True), ANN),
            ("ann", STOCK),
            ("ann", meld("5H", "6H", "7H")),
            ("ann", disc("9S")),
            ("bob", STOCK),
        ),
        "bob",
        lay("m1", "AS"),
    ),
    "meld.all_at_once": lambda: (_late(), "ann", meld("5H", "6H", "7H", "8H")),
    "meld.opening_minimum": lambda: (
        apply_move(_romme(ROMME_ANN), "ann", STOCK),
        "ann",
        meld("5H", "6H", "7H"),
    ),
    "play.not_opened": lambda: (
        replace(
            apply_move(_romme(ROMME_ANN), "ann", STOCK),
            melds=(Meld("m1", "bob", ("9H", "TH", "JK:JH"), ("bob",) * 3),),
        ),
        "ann",
        lay("m1", "JK:QH"),
    ),
    "claims.window_open": lambda: (_claims_setup(), "bob", STOCK),
    "claims.no_window": lambda: (_deep_setup(), "ann", PASS),
    "claims.not_eligible": lambda: (_claims_setup(), "ann", PASS),
    "claims.already_acted": lambda: (apply_move(_claims_setup(), "cid", PASS), "cid", PASS),
    "claims.card_not_in_pile": lambda: (_claims_setup(), "bob", call("KC", 0, "m1") | {"index": None}),
    "claims.index_mismatch": lambda: (_claims_setup(), "bob", call("8H", 0, "m1")),
    "claims.index_required": lambda: (
        replace(_claims_setup(), discard=("8H", "5D", "8H")),
        "bob",
        {"type": "call_rummy", "card": "8H", "meld": "m1"},
    ),
    "claims.not_top_card": lambda: (_claims_setup(), "bob", call("5D", 0, "m1")),
    "claims.joker": lambda: (replace(_claims_setup(), discard=("5D", "JK")), "bob", call("JK", 1, "m1")),
    "claims.unknown_meld": lambda: (_claims_setup(), "bob", call("8H", 1, "m7")),
    "claims.invalid_call": lambda: (
        replace(_claims_setup(), discard=("5D", "9C")),
        "bob",
        call("9C", 1, "m1"),
    ),
    # Board Rummy (docs/rules.md "Board Rummy")
    "deal.answer_first": lambda: (_board_deal(), "ann", tile_disc("R1")),
    "deal.not_eligible": lambda: (_board_deal(), "bob", {"type": "keep_deal"}),
    "deal.already_answered": lambda: (
        apply_move(
            board_round([PAIRS, ["K1", "K1", "K2", "K2", "K3", "K3"]], trump="B4"),
            "bob",
            {"type": "keep_deal"},
        ),
        "bob",
        {"type": "refuse_deal"},
    ),
    "deal.not_open": lambda: (_opened(), "bob", {"type": "refuse_deal"}),
    "draw.not_previous_discard": lambda: (_opened(), "bob", TILE_PILE | {"card": "R5"}),
    "draw.thrown_joker": lambda: (_board_thrown(), "bob", TILE_PILE),
    "draw.must_close": lambda: (replace(_opened(), stock=()), "bob", TILE_PILE),
    "discard.must_close": lambda: (_board_pile_on_empty_stock(), "bob", tile_disc("Y7")),
    "close.groups_mismatch": lambda: (
        board_round([[*SIMPLE.split(), "Y13"], []]),
        "ann",
        board_close("Y13", [SIMPLE.split()[:3]]),
    ),
    "close.invalid": lambda: (board_round([[*SIMPLE.split(), "Y13"], []]), "ann", board_close("R2")),
}


@pytest.mark.parametrize("code", sorted(CASES))
def test_each_code_is_raised_by_its_rule_and_changes_nothing(code: str) -> None:
    state, player, move = CASES[code]()
    err = illegal(state, player, move, code)
    assert err.message and err.http_status == (400 if code.split(".")[0] in ("move", "card") else 422)


def test_every_code_in_the_engine_has_a_case_and_the_docs_list_no_other():
    raised = {c for c in _raised_codes() if not c.startswith("ruleset.")}
    assert raised == set(CASES)
    doc = (ROOT / "docs" / "rules.md").read_text()
    table = doc[doc.index("## Error codes") : doc.index("## Settlement")]
    documented = {line.split("`")[1] for line in table.splitlines() if line.startswith("| `")}
    assert documented == raised
