"""Applying the moves of a turn after the draw: meld, lay off, swap a joker, discard (meld families).

Each function checks a move against the shared rules (melds, the turn-completion invariant, the
cards that may not be discarded) and returns the next state and the move as logged. Going out and
ending the turn are the family's: a placement may leave an empty hand, a discard ends the turn.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from .cards import JOKER, rank_char, suit_of
from .errors import IllegalMove, RuleCode
from .hands import add, remove, set_hand, take_from_hand
from .melds import MeldError, joker_slots, lay_off, read_meld
from .moves import DiscardMove, LayOffMove, MeldMove, SwapJokerMove, card, card_list, meld_index
from .state import Meld, RoundState
from .turn import Turn, feasible, placed_obligations, turn_of


def after_placement(
    state: RoundState, placed: Sequence[str], hand: tuple[str, ...], melds: tuple[Meld, ...]
) -> RoundState:
    """Apply a placement's bookkeeping and the turn-completion invariant (the hand may be empty)."""
    mu, res, jtm = placed_obligations(turn_of(state), placed)
    after = Turn(hand, melds, mu, res, jtm)
    if not hand and state.rules.final_discard_required:
        raise IllegalMove(
            RuleCode.PLAY_FINAL_DISCARD_REQUIRED,
            "Keep a card: the last card must be discarded (final_discard_required).",
        )
    if not feasible(after, state.rules):
        raise IllegalMove(
            RuleCode.TURN_CANNOT_COMPLETE,
            "After this move the turn could not be completed (an obligation could not be met or no card"
            " could be discarded).",
        )
    return replace(
        set_hand(state, state.turn, hand),
        melds=melds,
        must_use=mu,
        reserved=res,
        jokers_to_meld=jtm,
        progress=True,
    )


def meld_groups(move: MeldMove) -> list[list[str]]:
    """The melds of a ``meld`` move, each card canonical: ``cards`` (one meld) or ``melds`` (several)."""
    if (move.cards is None) == (move.melds is None):
        raise IllegalMove(RuleCode.MOVE_MALFORMED, "A meld move has 'cards' (one meld) or 'melds' (several).")
    if move.cards is not None:
        return [card_list(move.cards)]
    assert move.melds is not None
    if not move.melds:
        raise IllegalMove(
            RuleCode.MOVE_MALFORMED, "melds must be a non-empty list of card lists.", {"field": "melds"}
        )
    return [card_list(g) for g in move.melds]


def meld(state: RoundState, move: MeldMove) -> tuple[RoundState, MeldMove]:
    """A ``meld`` move: one meld (``cards``) or several laid down together (``melds``)."""
    groups = meld_groups(move)
    player = state.players[state.turn]
    melds = list(state.melds)
    canon: list[tuple[str, ...]] = []
    placed: list[str] = []
    for g in groups:
        try:
            m = read_meld(g, state.rules, min_natural=state.rules.min_natural)
        except MeldError as exc:
            raise IllegalMove(exc.code, exc.message) from None
        canon.append(m)
        placed.extend(m)
        melds.append(Meld(f"m{len(melds) + 1}", player, m, (player,) * len(m)))
    hand = take_from_hand(state, placed)
    new = after_placement(state, placed, hand, tuple(melds))
    logged = MeldMove(cards=canon[0]) if move.cards is not None else MeldMove(melds=tuple(canon))
    return new, logged


def placers_after(old: Meld, cards: tuple[str, ...], player: str) -> tuple[str, ...]:
    """Placers of a meld after a lay-off: old cards keep theirs, new ones are the builder's."""
    if (
        len(old.cards)
        and all(rank_char(c) == rank_char(old.cards[0]) for c in old.cards)
        and all(rank_char(c) == rank_char(old.cards[0]) for c in cards)
    ):
        by_suit = {suit_of(c): p for c, p in zip(old.cards, old.placers, strict=True)}
        return tuple(by_suit.get(suit_of(c), player) for c in cards)
    n = len(old.cards)
    for i in range(len(cards) - n + 1):
        if cards[i : i + n] == old.cards:
            return (player,) * i + old.placers + (player,) * (len(cards) - n - i)
    raise AssertionError("lay-off lost the original run")


def lay_off_move(state: RoundState, move: LayOffMove) -> tuple[RoundState, LayOffMove]:
    """A ``lay_off`` move: cards added to either end of a run or to a set; they score for the builder."""
    i = meld_index(state, move.meld, RuleCode.LAYOFF_UNKNOWN_MELD)
    added = card_list(move.cards)
    old = state.melds[i]
    try:
        cards = lay_off(old.cards, added, state.rules)
    except MeldError as exc:
        raise IllegalMove(exc.code, exc.message) from None
    player = state.players[state.turn]
    placed = _new_cards(old.cards, cards)
    if not placed:
        raise IllegalMove(RuleCode.LAYOFF_INVALID, "A lay-off adds at least one card to the meld.")
    hand = take_from_hand(state, placed)
    melds = list(state.melds)
    melds[i] = Meld(old.id, old.owner, cards, placers_after(old, cards, player))
    new = after_placement(state, placed, hand, tuple(melds))
    return new, LayOffMove(meld=old.id, cards=tuple(placed))


def _new_cards(old: Sequence[str], new: Sequence[str]) -> list[str]:
    rest = list(new)
    for c in old:
        rest.remove(c)
    return rest


def swap_joker(state: RoundState, move: SwapJokerMove) -> tuple[RoundState, SwapJokerMove]:
    """A ``swap_joker`` move: the natural card replaces the table joker, which goes to the hand."""
    if not state.rules.joker_swap:
        raise IllegalMove(RuleCode.SWAP_NOT_ALLOWED, "Joker swaps are off at this table.")
    i = meld_index(state, move.meld, RuleCode.SWAP_UNKNOWN_MELD)
    natural = card(move.card)
    if natural == JOKER:
        raise IllegalMove(RuleCode.SWAP_NO_SUCH_JOKER, "Name the natural card the joker stands for.")
    old = state.melds[i]
    slot = next((idx for idx, nat in joker_slots(old.cards) if nat == natural), None)
    if slot is None:
        raise IllegalMove(RuleCode.SWAP_NO_SUCH_JOKER, f"No joker in {old.id} stands for {natural}.")
    hand = take_from_hand(state, [natural])
    cards = list(old.cards)
    cards[slot] = natural
    melds = list(state.melds)
    melds[i] = Meld(old.id, old.owner, tuple(cards), old.placers)
    mu, res, jtm = placed_obligations(turn_of(state), [natural])
    res = (*res, JOKER)
    if state.rules.swapped_joker_must_be_melded:
        jtm += 1
    hand = add(hand, [JOKER])
    if not feasible(Turn(hand, tuple(melds), mu, res, jtm), state.rules):
        raise IllegalMove(RuleCode.TURN_CANNOT_COMPLETE, "After this swap the turn could not be completed.")
    new = replace(
        set_hand(state, state.turn, hand),
        melds=tuple(melds),
        must_use=mu,
        reserved=res,
        jokers_to_meld=jtm,
        progress=True,
    )
    return new, SwapJokerMove(meld=old.id, card=natural)


def discard(state: RoundState, move: DiscardMove) -> tuple[RoundState, DiscardMove]:
    """A ``discard`` move, not yet ending the turn: the card leaves the hand for the top of the pile."""
    thrown = card(move.card)
    hand = state.hands[state.turn]
    if thrown not in hand:
        raise IllegalMove(RuleCode.HAND_MISSING_CARD, f"You do not hold {thrown}.")
    if state.must_use is not None:
        raise IllegalMove(
            RuleCode.DISCARD_CHOSEN_CARD_UNUSED,
            f"First use {state.must_use}, the card chosen from the discard pile.",
        )
    if state.jokers_to_meld:
        raise IllegalMove(RuleCode.DISCARD_JOKER_NOT_MELDED, "First place the joker taken in a swap.")
    if thrown in state.reserved:
        code = RuleCode.DISCARD_CHOSEN_CARD if thrown == state.chosen else RuleCode.DISCARD_RETRIEVED_JOKER
        raise IllegalMove(code, f"{thrown} may not be discarded this turn.")
    rest = remove(hand, [thrown])
    assert rest is not None
    new = replace(set_hand(state, state.turn, rest), discard=(*state.discard, thrown))
    return new, DiscardMove(card=thrown)
