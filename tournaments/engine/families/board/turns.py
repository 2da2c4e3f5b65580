"""Board Rummy's moves (docs/rules.md "Board Rummy"): answering the deal, drawing, discarding and closing.

The first player (the dealer's left, dealt 15 tiles) opens in phase ``play`` by discarding or closing.
Each later turn: ``draw`` the top of the stock or the tile the previous player just discarded (never a
thrown joker), then ``discard`` (never the tile just taken from the pile) or ``close``. A turn that
starts on an empty stock may only take the previous discard, and only when it then closes; otherwise
the round ends there and nobody pays (the trump bonus stands).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from ...cards import JOKER, CardError, is_joker, parse_tile, sort_tiles
from ...errors import IllegalMove, RuleCode
from ...hands import count_stall, next_turn, round_over, set_hand
from ...moves import CloseMove, DiscardMove, DrawMove, KeepDealMove, MoveJson, RefuseDealMove
from ...state import RoundState
from .arrangement import find_arrangement
from .book import add_thrown, seats, with_own
from .scoring import score


def tile(value: str | None, *, placed: bool = False) -> str:
    try:
        return parse_tile(value, allow_placed_joker=placed)
    except CardError as exc:
        raise IllegalMove(exc.code, exc.message) from None


def without(hand: Sequence[str], t: str) -> tuple[str, ...]:
    rest = list(hand)
    rest.remove(t)
    return tuple(rest)


def closes(hand: Sequence[str], discard: str) -> bool:
    """Whether discarding ``discard`` from ``hand`` leaves 14 tiles that close."""
    return find_arrangement(without(hand, discard)) is not None


def must_close(state: RoundState) -> bool:
    """The turn took the previous discard facing an empty stock: it may only end by closing."""
    return not state.stock and state.chosen is not None


# ---------------------------------------------------------------------- the deal phase


def answer_deal(state: RoundState, player: str, move: KeepDealMove | RefuseDealMove) -> RoundState:
    seat = state.players.index(player)
    if seat not in seats(state, "deal_qualified"):
        raise IllegalMove(
            RuleCode.DEAL_NOT_ELIGIBLE, "Only a player dealt three or more identical pairs answers the deal."
        )
    if seat not in seats(state, "deal_pending"):
        raise IllegalMove(RuleCode.DEAL_ALREADY_ANSWERED, "You have already kept this deal.")
    if isinstance(move, RefuseDealMove):
        return round_over(state, score(state, "refused", seat))
    pending = [s for s in seats(state, "deal_pending") if s != seat]
    kept = [*seats(state, "deal_kept"), seat]
    if pending:
        return with_own(state, deal_pending=pending, deal_kept=kept)
    return replace(with_own(state, deal_pending=None, deal_kept=kept), phase="play")


# ---------------------------------------------------------------------- draw


def draw(state: RoundState, move: DrawMove) -> tuple[RoundState, DrawMove]:
    source = move.source
    hand = state.hands[state.turn]
    if source == "stock":
        if move.card is not None or move.index is not None:
            raise IllegalMove(RuleCode.MOVE_MALFORMED, "A stock draw names no tile.")
        if not state.stock:
            raise IllegalMove(RuleCode.DRAW_STOCK_EMPTY, "The stock is empty.")
        new = set_hand(state, state.turn, sort_tiles([*hand, state.stock[0]]))
        return (
            replace(new, stock=state.stock[1:], phase="play", progress=True, chosen=None),
            DrawMove(source="stock"),
        )
    if source != "discard":
        raise IllegalMove(
            RuleCode.MOVE_MALFORMED, "source must be 'stock' or 'discard'.", {"field": "source"}
        )
    if not state.discard:
        raise IllegalMove(RuleCode.DRAW_PILE_EMPTY, "The discard pile is empty.")
    top = len(state.discard) - 1
    if move.card is not None and tile(move.card) != state.discard[top]:
        raise IllegalMove(
            RuleCode.DRAW_NOT_PREVIOUS_DISCARD, "Only the tile the previous player just discarded is taken."
        )
    if move.index is not None and move.index != top:
        raise IllegalMove(
            RuleCode.DRAW_NOT_PREVIOUS_DISCARD, "Only the tile the previous player just discarded is taken."
        )
    taken = state.discard[top]
    if taken == JOKER:
        raise IllegalMove(RuleCode.DRAW_THROWN_JOKER, "A thrown joker is never picked up.")
    after = sort_tiles([*hand, taken])
    if not state.stock and not any(closes(after, d) for d in set(after) - {taken}):
        raise IllegalMove(
            RuleCode.DRAW_MUST_CLOSE, "Facing an empty stock the previous discard is taken only to close."
        )
    new = set_hand(state, state.turn, after)
    return (
        replace(new, discard=state.discard[:top], phase="play", chosen=taken),
        DrawMove(source="discard", card=taken, index=top),
    )


# ---------------------------------------------------------------------- discard and close


def _held(state: RoundState, value: str | None) -> str:
    t = tile(value)
    if t not in state.hands[state.turn]:
        raise IllegalMove(RuleCode.HAND_MISSING_CARD, f"You do not hold {t}.")
    if t == state.chosen:
        raise IllegalMove(
            RuleCode.DISCARD_CHOSEN_CARD, f"{t} was just taken from the pile: it is not discarded this turn."
        )
    return t


def discard(state: RoundState, move: DiscardMove) -> tuple[RoundState, DiscardMove]:
    t = _held(state, move.card)
    if must_close(state):
        raise IllegalMove(RuleCode.DISCARD_MUST_CLOSE, "The stock is empty: this turn ends only by closing.")
    seat = state.turn
    new = replace(set_hand(state, seat, without(state.hands[seat], t)), discard=(*state.discard, t))
    if t == JOKER:
        new = add_thrown(new, seat)
    return end_turn(new), DiscardMove(card=t)


def close(state: RoundState, move: CloseMove) -> tuple[RoundState, CloseMove]:
    if move.discard is None:
        raise IllegalMove(RuleCode.MOVE_MALFORMED, "A close names its discard.", {"field": "discard"})
    t = _held(state, move.discard)
    kept = without(state.hands[state.turn], t)
    if move.groups is not None:
        shown = sort_tiles(
            JOKER if is_joker(x) else x for g in move.groups for x in (tile(v, placed=True) for v in g)
        )
        if shown != kept:
            raise IllegalMove(RuleCode.CLOSE_GROUPS_MISMATCH, "groups must hold exactly the 14 tiles kept.")
    if find_arrangement(kept) is None:
        raise IllegalMove(
            RuleCode.CLOSE_INVALID, "These 14 tiles form no set of combinations, seven pairs or mosaic."
        )
    seat = state.turn
    new = replace(set_hand(state, seat, kept), discard=(*state.discard, t), progress=True)
    return round_over(new, score(new, "close", seat)), CloseMove(discard=t)


def end_turn(state: RoundState) -> RoundState:
    """After a discard: stalling, the next turn, and a next turn facing an empty stock."""
    state, stalled = count_stall(state)
    if stalled:
        return round_over(state, score(state, "stall", None))
    state = next_turn(state, phase="draw")
    if state.stock:
        return state
    top = state.discard[-1]
    hand = sort_tiles([*state.hands[state.turn], top])
    if top != JOKER and any(closes(hand, d) for d in set(hand) - {top}):
        return state
    return round_over(state, score(state, "stock", None))


# ---------------------------------------------------------------------- legal moves


def draw_moves(state: RoundState) -> list[MoveJson]:
    moves: list[MoveJson] = []
    if state.stock:
        moves.append({"type": "draw", "source": "stock"})
    if state.discard and state.discard[-1] != JOKER:
        # facing an empty stock the turn exists only because taking the discard closes (end_turn)
        top = len(state.discard) - 1
        moves.append({"type": "draw", "source": "discard", "card": state.discard[top], "index": top})
    return moves


def play_moves(state: RoundState) -> list[MoveJson]:
    hand = state.hands[state.turn]
    choices = [t for t in dict.fromkeys(hand) if t != state.chosen]
    moves: list[MoveJson] = []
    if not must_close(state):
        moves += [{"type": "discard", "card": t} for t in choices]
    moves += [{"type": "close", "discard": t} for t in choices if closes(hand, t)]
    return moves
