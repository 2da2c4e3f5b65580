"""Rummy 500's draw (docs/rules.md "Rummy 500"): the stock, or any card of the pile with every card above it.

A card taken from below the top (or any pile card where the rules say so, or facing an empty stock)
must be used this turn, and such a draw is legal only when it can be (the turn-completion search).
Facing an empty stock, 001's rule lets the player take from the pile only to use the card at once,
or end the round.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from ...cards import JOKER, make_card, natural_of, rank_char, rank_of, stands_for, suit_of
from ...errors import IllegalMove, RuleCode
from ...hands import add, set_hand
from ...moves import DrawMove, EndRoundMove, MoveJson, pile_index
from ...state import Meld, RoundState
from ...turn import Turn, feasible, may_hold
from .presets import options_of
from .scoring import finish


def draw_obligation(state: RoundState, index: int) -> bool:
    """Whether drawing pile card ``index`` obliges the player to use it this turn."""
    deep = index < len(state.discard) - 1
    return deep or options_of(state.rules).top_discard_must_be_used or not state.stock


def pile_only(state: RoundState) -> bool:
    """Whether 001's rule applies now: the stock is empty and the pile is all a player may draw from."""
    return not state.stock and options_of(state.rules).stock_exhaustion == "pile_only"


def could_use(hand: Sequence[str], melds: Sequence[Meld], card: str) -> bool:
    """A cheap necessary condition for placing ``card``: a partner in hand or a meld that could take it."""
    if card == JOKER:
        return True
    jokers = hand.count(JOKER)
    held = set(hand)
    for m in melds:
        if may_hold(m.cards, card) and _could_join(m.cards, card, held, jokers):
            return True
    rank, letter, suit = rank_of(card), rank_char(card), suit_of(card)
    for c in hand:
        if c in (JOKER, card):
            continue
        if rank_char(c) == letter:
            return True
        if suit_of(c) == suit and min((rank_of(c) - rank) % 13, (rank - rank_of(c)) % 13) <= 1 + jokers:
            return True
    return False


def _could_join(meld: Sequence[str], card: str, held: set[str], jokers: int) -> bool:
    """Necessary condition for ``card`` to be laid off (or swapped in) on ``meld`` of its rank/suit."""
    if any(stands_for(c) == card for c in meld):
        return True  # a swap
    if rank_char(meld[0]) == rank_char(meld[1]):
        return all(natural_of(c) != card for c in meld)
    suit = suit_of(card)
    for step, end in ((1, rank_of(meld[-1])), (-1, rank_of(meld[0]))):
        missing, pos = 0, end
        for _ in range(12):
            pos = (pos + step - 1) % 13 + 1
            if make_card(pos, suit) == card:
                return True
            if make_card(pos, suit) not in held:
                missing += 1
                if missing > jokers:
                    break
    return False


def pile_draw_ok(state: RoundState, index: int) -> bool:
    """Whether drawing pile card ``index`` leaves a turn that can be completed (docs/rules.md "Turn-completion
    invariant")."""
    chosen = state.discard[index]
    hand = add(state.hands[state.turn], state.discard[index:])
    if not draw_obligation(state, index):
        # a kept top card is never discardable this turn: a hand holding only copies of it (a lone
        # joker taking a joker) could end the turn neither by a discard nor by a placement
        return feasible(Turn(hand, state.melds, None, (chosen,), 0), state.rules)
    if not could_use(hand, state.melds, chosen):
        return False
    return feasible(Turn(hand, state.melds, chosen, (chosen,), 0), state.rules)


def draw_moves(state: RoundState) -> list[MoveJson]:
    """The legal draws (and ``end_round`` facing an empty stock under 001's rule)."""
    moves: list[MoveJson] = []
    if state.stock:
        moves.append({"type": "draw", "source": "stock"})
    for i, c in enumerate(state.discard):
        if pile_draw_ok(state, i):
            moves.append({"type": "draw", "source": "discard", "card": c, "index": i})
    if pile_only(state):
        moves.append({"type": "end_round"})
    return moves


def draw(state: RoundState, move: DrawMove) -> tuple[RoundState, DrawMove]:
    source = move.source
    hand = state.hands[state.turn]
    if source == "stock":
        if move.card is not None or move.index is not None:
            raise IllegalMove(RuleCode.MOVE_MALFORMED, "A stock draw names no card.")
        if not state.stock:
            raise IllegalMove(RuleCode.DRAW_STOCK_EMPTY, "The stock is empty.")
        new = set_hand(state, state.turn, add(hand, state.stock[:1]))
        return (
            replace(
                new,
                stock=state.stock[1:],
                phase="play",
                progress=True,
                must_use=None,
                reserved=(),
                chosen=None,
            ),
            DrawMove(source="stock"),
        )
    if source != "discard":
        raise IllegalMove(
            RuleCode.MOVE_MALFORMED, "source must be 'stock' or 'discard'.", {"field": "source"}
        )
    i = pile_index(state.discard, move.card, move.index, "draw")
    chosen = state.discard[i]
    must = chosen if draw_obligation(state, i) else None
    if not pile_draw_ok(state, i):
        if must is None:
            raise IllegalMove(
                RuleCode.TURN_CANNOT_COMPLETE,
                f"After taking {chosen} the turn could not be completed: it may not be discarded this turn"
                " and no other card could be.",
            )
        raise IllegalMove(
            RuleCode.DRAW_DISCARD_CARD_MUST_BE_USED,
            f"{chosen} may be taken only if it can be melded, laid off or swapped this turn"
            " with a card left to discard.",
        )
    new = set_hand(state, state.turn, add(hand, state.discard[i:]))
    return (
        replace(
            new, discard=state.discard[:i], phase="play", must_use=must, reserved=(chosen,), chosen=chosen
        ),
        DrawMove(source="discard", card=chosen, index=i),
    )


def end_round(state: RoundState) -> tuple[RoundState, EndRoundMove]:
    if not pile_only(state):
        raise IllegalMove(
            RuleCode.END_ROUND_NOT_ALLOWED, "The round can be ended only when the stock is empty."
        )
    return finish(state, "end_round", None), EndRoundMove()
