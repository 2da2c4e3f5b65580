"""Stacked rounds for scenario tests (the deck from ``tournaments.engine.stacked_deck``: name each hand, the
up-card and the top of the stock) and the moves they play."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from tournaments.engine import IllegalMove, Ruleset, apply_move, new_round, stacked_deck, state_to_dict
from tournaments.engine.state import Result, RoundState


def stacked_round(
    rules: Ruleset,
    hands: Sequence[Sequence[str]],
    *,
    players: Sequence[str] | None = None,
    dealer: int = 0,
    up: str | None = None,
    stock: Sequence[str] = (),
    round_number: int = 1,
) -> RoundState:
    players = list(players or ["ann", "bob", "cid", "dan", "eve", "fay", "gus", "hal"][: len(hands)])
    deck = stacked_deck(rules, hands, dealer=dealer, up=up, stock=stock)
    return new_round(rules, players, dealer, round_number, deck=deck)


# ---------------------------------------------------------------------- move helpers for scenario tests

Move = dict[str, Any]
STOCK: Move = {"type": "draw", "source": "stock"}
BOB_JUNK = ["AS", "3D", "TC", "JS", "QD", "2S", "9C"]  # melds nothing (penalty 59 in rummy500)


def res(state: RoundState) -> Result:
    assert state.result is not None
    return state.result


def act(state: RoundState) -> str:
    assert state.to_act is not None
    return state.to_act


def play(state: RoundState, *moves: tuple[str, Move]) -> RoundState:
    for player, move in moves:
        state = apply_move(state, player, move)
    return state


def illegal(state: RoundState, player: Any, move: Any, code: str) -> IllegalMove:
    """Assert the move is refused with ``code`` and leaves the state exactly as it was."""
    before = state_to_dict(state)
    with pytest.raises(IllegalMove) as e:
        apply_move(state, player, move)
    assert e.value.code == code, e.value.message
    assert state_to_dict(state) == before
    return e.value


def pile(card: str, index: int | None = None) -> Move:
    m: Move = {"type": "draw", "source": "discard", "card": card}
    if index is not None:
        m["index"] = index
    return m


def meld(*cards: str) -> Move:
    return {"type": "meld", "cards": list(cards)}


def lay(mid: str, *cards: str) -> Move:
    return {"type": "lay_off", "meld": mid, "cards": list(cards)}


def swap(mid: str, card: str) -> Move:
    return {"type": "swap_joker", "meld": mid, "card": card}


def disc(card: str) -> Move:
    return {"type": "discard", "card": card}


def call(card: str, index: int, mid: str) -> Move:
    return {"type": "call_rummy", "card": card, "index": index, "meld": mid}


PASS: Move = {"type": "pass_claim"}
END: Move = {"type": "end_round"}
