"""The Basic family's round score (docs/rules.md "Basic Rummy family": ``result.scores`` and
``result.game_points``).

Settlement scores (higher is better; PCR settlement pays their differences, docs/rules.md "Settlement (PCR)"):
0 for the player who went out and minus the own hand value (doubled for going rummy with ``going_rummy:
double``) for the others; when nobody went out, minus the own hand value for everyone, so the lowest hand
collects the differences (003's block: A 6, B 15, C 7, D 21 -> B pays 9, C 1, D 15).

Game points (what each adds to the game total): the winner collects the other hands (doubled, or plus 10,
for going rummy); in a block the lowest hand collects the differences, players tied for it share in equal
integer parts, the leftover one each in seat order from the dealer's left. With ``scoring: penalty``
each player adds their own hand as penalty (the winner 0) and the lowest total wins.
"""

from __future__ import annotations

from typing import Any

from ...cards import card_sort_key, hand_value
from ...hands import round_over
from ...state import Result, RoundState, make_result
from .book import book_of
from .presets import options_of

PLUS10 = 10


def going_rummy(state: RoundState, out_seat: int | None) -> bool:
    """Out in one turn with no earlier meld or lay-off (003)."""
    if out_seat is None:
        return False
    book = book_of(state)
    player = state.players[out_seat]
    return player not in book.opened or book.opened_now


def score(state: RoundState, reason: str, out_seat: int | None) -> Result:
    rules = state.rules
    own = options_of(rules)
    players = state.players
    hv = {p: sum(hand_value(c, rules) for c in state.hands[i]) for i, p in enumerate(players)}
    rummy = going_rummy(state, out_seat) and own.going_rummy != "off"
    factor = 2 if rummy and own.going_rummy == "double" else 1
    bonus = PLUS10 if rummy and own.going_rummy == "plus10" else 0
    scores: dict[str, int]
    points: dict[str, int]
    if out_seat is not None:
        winner = players[out_seat]
        scores = {p: 0 if p == winner else -factor * hv[p] for p in players}
        if own.scoring == "penalty":
            points = {p: -bonus if p == winner else factor * hv[p] for p in players}
        else:
            collected = sum(factor * hv[p] for p in players if p != winner) + bonus
            points = {p: collected if p == winner else 0 for p in players}
        winners = [winner]
    else:
        scores = {p: -hv[p] for p in players}
        low = min(hv.values())
        # seat order from the dealer's left: the leftover of a shared block goes that way
        order = [players[(state.dealer + 1 + k) % len(players)] for k in range(len(players))]
        winners = [p for p in order if hv[p] == low]
        if own.scoring == "penalty":
            points = dict(hv)
        else:
            pot = sum(hv[p] - low for p in players)
            share, leftover = divmod(pot, len(winners))
            points = dict.fromkeys(players, 0)
            for k, p in enumerate(winners):
                points[p] = share + (1 if k < leftover else 0)
    placed: dict[str, list[str]] = {p: [] for p in players}
    for m in state.melds:
        for c, p in zip(m.cards, m.placers, strict=True):
            placed[p].append(c)
    details: dict[str, Any] = {
        "reason": reason,
        "went_out": players[out_seat] if out_seat is not None else None,
        "going_rummy": rummy,
        "scoring": own.scoring,
        "winners": winners,
        "restocks": book_of(state).restocks,
        "players": {
            p: {
                "hand": list(state.hands[i]),
                "hand_value": hv[p],
                "placed": sorted(placed[p], key=card_sort_key),
            }
            for i, p in enumerate(players)
        },
    }
    return make_result(
        scores=scores,
        game_points=points,
        bonuses=(),
        details=details,
        redeal=False,
        deck=state.deck,
        salt=state.salt,
    )


def finish(state: RoundState, reason: str, out_seat: int | None) -> RoundState:
    """End the round now and score it."""
    return round_over(state, score(state, reason, out_seat))
