"""The Basic family's draw (docs/rules.md "Basic Rummy family"): the top of the stock or of the discard pile.

Facing an empty stock the player may take the top discard; otherwise the whole pile becomes the new
stock (``restock``: ``shuffle``, from the round's salt, or ``turn``, turned over unshuffled with the oldest
discard on top) and they draw from it. After ``restock_limit`` restocks, or with ``restock: none``
(block), the player facing an empty stock takes the top discard or ends the round (``end_round``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from ...deal import derived_shuffle
from ...errors import IllegalMove, RuleCode
from ...hands import add, set_hand
from ...moves import DrawMove, EndRoundMove, MoveJson, pile_index
from ...state import RoundState
from .book import book_of, with_book
from .presets import options_of
from .scoring import finish


def may_restock(state: RoundState) -> bool:
    """Whether an empty stock would be refilled from the pile now."""
    own = options_of(state.rules)
    return own.restock != "none" and book_of(state).restocks < own.restock_limit and bool(state.discard)


def restocked(state: RoundState) -> RoundState:
    """The pile turned into the stock (bottom = oldest card on top), shuffled unless ``restock: turn``."""
    book = book_of(state)
    stock = state.discard
    if options_of(state.rules).restock == "shuffle":
        stock = derived_shuffle(stock, state.salt, f"restock:{book.restocks + 1}")
    return with_book(replace(state, stock=stock, discard=()), replace(book, restocks=book.restocks + 1))


def take_top(state: RoundState) -> RoundState:
    """The state after the player in turn takes the top discard (not yet checked)."""
    chosen = state.discard[-1]
    new = set_hand(state, state.turn, add(state.hands[state.turn], (chosen,)))
    return replace(new, discard=state.discard[:-1], phase="play", reserved=(chosen,), chosen=chosen)


def draw_moves(state: RoundState, can_finish: Callable[[RoundState], bool]) -> list[MoveJson]:
    moves: list[MoveJson] = []
    if state.stock or may_restock(state):
        moves.append({"type": "draw", "source": "stock"})
    if state.discard and can_finish(take_top(state)):
        top = len(state.discard) - 1
        moves.append({"type": "draw", "source": "discard", "card": state.discard[top], "index": top})
    if not state.stock and not may_restock(state):
        moves.append({"type": "end_round"})
    return moves


def draw(
    state: RoundState, move: DrawMove, can_finish: Callable[[RoundState], bool]
) -> tuple[RoundState, DrawMove]:
    source = move.source
    if source == "stock":
        if move.card is not None or move.index is not None:
            raise IllegalMove(RuleCode.MOVE_MALFORMED, "A stock draw names no card.")
        if not state.stock:
            if not may_restock(state):
                raise IllegalMove(
                    RuleCode.DRAW_STOCK_EMPTY, "The stock is empty: take the top discard or end the round."
                )
            state = restocked(state)
        new = set_hand(state, state.turn, add(state.hands[state.turn], state.stock[:1]))
        new = replace(
            new, stock=state.stock[1:], phase="play", progress=True, must_use=None, reserved=(), chosen=None
        )
        return new, DrawMove(source="stock")
    if source != "discard":
        raise IllegalMove(
            RuleCode.MOVE_MALFORMED, "source must be 'stock' or 'discard'.", {"field": "source"}
        )
    i = pile_index(state.discard, move.card, move.index, "draw")
    if i != len(state.discard) - 1:
        raise IllegalMove(RuleCode.DRAW_TOP_CARD_ONLY, "Only the top card of the discard pile may be taken.")
    new = take_top(state)
    if not can_finish(new):
        raise IllegalMove(
            RuleCode.TURN_CANNOT_COMPLETE,
            f"After taking {state.discard[i]} the turn could not be completed: it may not be discarded this"
            " turn and no other card could be.",
        )
    return new, DrawMove(source="discard", card=state.discard[i], index=i)


def end_round(state: RoundState) -> tuple[RoundState, EndRoundMove]:
    if state.stock or may_restock(state):
        raise IllegalMove(
            RuleCode.END_ROUND_NOT_ALLOWED,
            "The round can be ended only facing an empty stock that is not restocked.",
        )
    return finish(state, "end_round", None), EndRoundMove()
