"""Board Rummy's timeout move and greedy bot (``engine.bots`` dispatches here for this family).

``auto_move`` (docs/rules.md "Board Rummy"): keep a deal, draw from the stock (the previous discard when the
stock is empty, which the engine offers only when it closes), close where the turn may only end so, and
otherwise discard the highest number, never a joker, ties in canonical order.
``greedy_move``: closes for the most points it can, takes the previous discard when it closes or joins
two tiles of the board, and discards the tile with the fewest partners.
"""

from __future__ import annotations

from collections.abc import Sequence

from ...cards import JOKER, sort_tiles, tile_colour, tile_number
from ...moves import MoveJson as Move
from ...state import RoundState
from .arrangement import find_arrangement
from .book import thrown
from .hands import classify
from .turns import closes, draw_moves, must_close, play_moves, without


def auto_move(state: RoundState, player: str) -> Move:
    if state.phase == "deal":
        return {"type": "keep_deal"}
    if state.phase == "draw":
        return draw_moves(state)[0]  # the stock first; facing an empty stock, the closing discard
    hand = state.hands[state.turn]
    if must_close(state):
        return play_moves(state)[0]
    choices = [t for t in dict.fromkeys(hand) if t != state.chosen]
    natural = [t for t in choices if t != JOKER]
    if not natural:
        return {"type": "discard", "card": choices[0]}
    top = natural[0]
    for t in natural[1:]:
        if tile_number(t) > tile_number(top):
            top = t
    return {"type": "discard", "card": top}


def greedy_move(state: RoundState, player: str) -> Move:
    if state.phase == "deal":
        return {"type": "keep_deal"}
    hand = state.hands[state.turn]
    if state.phase == "draw":
        moves = draw_moves(state)
        pile = [m for m in moves if m["source"] == "discard"]
        if pile:
            top = pile[0]["card"]
            after = sort_tiles([*hand, top])
            if not state.stock or partners(top, hand) >= 2 or _can_close(after, top):
                return pile[0]
        return moves[0]
    best: tuple[int, str] | None = None
    for t in dict.fromkeys(hand):
        if t == state.chosen:
            continue
        reading = find_arrangement(without(hand, t))
        if reading is not None:
            seat = state.turn
            hand_score = classify(reading, closed_with_joker=t == JOKER, thrown=thrown(state, seat))
            if best is None or hand_score.points > best[0]:
                best = (hand_score.points, t)
    if best is not None:
        return {"type": "close", "discard": best[1]}
    if must_close(state):
        return play_moves(state)[0]
    choices = [t for t in dict.fromkeys(hand) if t not in (state.chosen, JOKER)]
    if not choices:
        return {"type": "discard", "card": JOKER}
    worst = min(choices, key=lambda t: (partners(t, without(hand, t)), -tile_number(t)))
    return {"type": "discard", "card": worst}


def partners(t: str, hand: Sequence[str]) -> int:
    """Tiles of ``hand`` that could share a combination with ``t``: its twin, its number in another
    colour, its colour within two numbers; jokers count for any."""
    if t == JOKER:
        return len(hand)
    n, c = tile_number(t), tile_colour(t)
    count = 0
    for other in hand:
        if other == JOKER:
            count += 1
            continue
        m, d = tile_number(other), tile_colour(other)
        if (m == n and (d != c or other == t)) or (d == c and 0 < min(abs(m - n), 13 - abs(m - n)) <= 2):
            count += 1
    return count


def _can_close(hand: Sequence[str], taken: str) -> bool:
    return any(closes(hand, d) for d in set(hand) - {taken})
