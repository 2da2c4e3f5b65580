"""Hands as multisets of codes, and the bookkeeping every family does between two moves.

A hand is a sorted tuple of codes (``cards.sort_cards``); a placed joker (``JK:7H``) returns to a hand
as the bare ``JK``. The helpers here build the next ``RoundState`` without any family's rules.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace

from .cards import JOKER, is_joker, natural_of, sort_cards
from .errors import IllegalMove, RuleCode
from .state import Result, RoundState


def remove(hand: Sequence[str], cards: Iterable[str]) -> tuple[str, ...] | None:
    """``hand`` without ``cards`` (placed jokers count as ``JK``), or None when one is missing."""
    rest = list(hand)
    for c in cards:
        k = JOKER if is_joker(c) else c
        try:
            rest.remove(k)
        except ValueError:
            return None
    return tuple(rest)


def add(hand: Sequence[str], cards: Iterable[str]) -> tuple[str, ...]:
    """``hand`` with ``cards`` (placed jokers back as ``JK``), in canonical order."""
    return sort_cards([*hand, *(JOKER if is_joker(c) else c for c in cards)])


def set_hand(state: RoundState, seat: int, hand: tuple[str, ...]) -> RoundState:
    hands = list(state.hands)
    hands[seat] = hand
    return replace(state, hands=tuple(hands))


def take_from_hand(state: RoundState, cards: Sequence[str]) -> tuple[str, ...]:
    """The hand of the player in turn without ``cards``; ``hand.missing_card`` when one is not held."""
    rest = remove(state.hands[state.turn], cards)
    if rest is None:
        raise IllegalMove(
            RuleCode.HAND_MISSING_CARD, f"You do not hold {' '.join(natural_of(c) for c in cards)}."
        )
    return rest


def count_stall(state: RoundState) -> tuple[RoundState, bool]:
    """Book a completed turn for the stalling rule (docs/rules.md "End of the round"): the state, and whether
    the round stalls."""
    stall = 0 if state.progress else state.stall + 1
    return replace(state, stall=stall), stall >= state.rules.stall_limit(len(state.players))


def next_turn(state: RoundState, *, phase: str) -> RoundState:
    """The next seat clockwise takes the turn, with no obligation carried over."""
    return replace(
        state,
        turn=(state.turn + 1) % len(state.players),
        phase=phase,
        must_use=None,
        reserved=(),
        jokers_to_meld=0,
        progress=False,
        chosen=None,
    )


def round_over(state: RoundState, result: Result) -> RoundState:
    """The finished round: phase ``over``, ``result`` set, nothing pending."""
    return replace(
        state, phase="over", result=result, claims=None, must_use=None, reserved=(), jokers_to_meld=0
    )
