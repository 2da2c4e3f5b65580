"""Build stacked decks for scenario tests: name each hand, the up-card and the top of the stock."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from tournaments.engine import IllegalMove, Ruleset, apply_move, full_deck, new_round, state_to_dict
from tournaments.engine.state import Result, RoundState


def stacked_deck(
    rules: Ruleset,
    n: int,
    hands: Sequence[Sequence[str]],
    *,
    dealer: int = 0,
    up: str | None = None,
    stock: Sequence[str] = (),
) -> list[str]:
    """A deck (top first) dealing ``hands[seat]`` to each seat; unnamed cards are filled in.

    Wrotham (``starter_extra_card``): the starter's 8th card follows the round-robin deal and there is
    no up-card (``up`` must be None)."""
    pool = list(full_deck(rules, n))
    each = rules.cards_each(n)
    starter = (dealer + 1) % n
    extra = 1 if getattr(rules, "starter_extra_card", False) else 0

    def take(card: str) -> str:
        pool.remove(card)
        return card

    named = [[take(c) for c in h] for h in hands]
    up_card = take(up) if up else None
    top = [take(c) for c in stock]
    fill = [c for c in pool if c != "JK"] + [c for c in pool if c == "JK"]  # fillers: naturals first
    filled = []
    for seat, h in enumerate(named):
        h = list(h)
        while len(h) < each + (extra if seat == starter else 0):
            h.append(fill.pop(0))
        filled.append(h)
    deck: list[str] = []
    for i in range(n * each):
        seat = (dealer + 1 + i) % n
        deck.append(filled[seat][i // n])
    if extra:
        deck.append(filled[starter][each])
    if rules.up_card:
        deck.append(up_card if up_card is not None else fill.pop(0))
    deck.extend(top)
    deck.extend(fill)
    return deck


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
    deck = stacked_deck(rules, len(players), hands, dealer=dealer, up=up, stock=stock)
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
