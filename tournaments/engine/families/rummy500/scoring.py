"""Rummy 500's round score (docs/rules.md "Rummy 500"): the value of the cards a player placed minus the cards
in hand."""

from __future__ import annotations

from typing import Any

from ...cards import card_sort_key, hand_value
from ...hands import round_over
from ...melds import card_values
from ...state import Result, RoundState, make_result


def score(state: RoundState, reason: str, out_seat: int | None) -> Result:
    """Placed minus in hand for everyone; ``game_points`` are the same numbers, and there are no bonuses."""
    rules = state.rules
    placed: dict[str, list[str]] = {p: [] for p in state.players}
    placed_value = dict.fromkeys(state.players, 0)
    for m in state.melds:
        for c, p, v in zip(m.cards, m.placers, card_values(m.cards, rules), strict=True):
            placed[p].append(c)
            placed_value[p] += v
    per_player: dict[str, Any] = {}
    scores: dict[str, int] = {}
    for seat, p in enumerate(state.players):
        hand = state.hands[seat]
        hv = sum(hand_value(c, rules) for c in hand)
        scores[p] = placed_value[p] - hv
        per_player[p] = {
            "placed": sorted(placed[p], key=card_sort_key),
            "placed_value": placed_value[p],
            "hand": list(hand),
            "hand_value": hv,
        }
    details = {
        "reason": reason,
        "went_out": state.players[out_seat] if out_seat is not None else None,
        "players": per_player,
    }
    return make_result(
        scores=scores,
        game_points=scores,
        bonuses=(),
        details=details,
        redeal=False,
        deck=state.deck,
        salt=state.salt,
    )


def finish(state: RoundState, reason: str, out_seat: int | None) -> RoundState:
    """End the round now and score it."""
    return round_over(state, score(state, reason, out_seat))
