""" "Rummy!" calls (001, docs/rules.md "Rummy 500 household"): after a discard that leaves a callable card,
phase ``claims``.

Every player but the discarder calls or passes; the window ends when all have acted or at the server's
deadline (``close_claims``). The valid caller nearest the discarder's left wins: they take the card
(and the cards above it) and lay it off at once. The functions here leave the next turn to start.
"""

from __future__ import annotations

from dataclasses import replace

from ...cards import JOKER
from ...errors import IllegalMove, RuleCode
from ...hands import add, set_hand
from ...melds import lay_off, single_extensions
from ...moves import CallRummyMove, MoveJson, PassClaimMove, meld_index, pile_index
from ...placements import placers_after
from ...state import Claim, Claims, Meld, RoundState
from .presets import options_of


def _callable_indices(state: RoundState) -> list[int]:
    if not state.discard:
        return []
    top = len(state.discard) - 1
    return list(range(len(state.discard))) if options_of(state.rules).rummy_in_the_pile else [top]


def callable_cards(state: RoundState) -> list[tuple[int, str]]:
    """(pile index, meld id) pairs a "Rummy!" call could name now."""
    ext = [(m, single_extensions(m.cards, state.rules)) for m in state.melds]
    out = []
    for i in _callable_indices(state):
        card = state.discard[i]
        if card == JOKER:
            continue
        for m, cards in ext:
            if card in cards:
                out.append((i, m.id))
    return out


def open_window(state: RoundState, discarder: str) -> RoundState | None:
    """The claim window after ``discarder``'s discard, or None when calls are off or nothing is callable."""
    if not options_of(state.rules).rummy_calls or not callable_cards(state):
        return None
    n = len(state.players)
    eligible = tuple(state.players[(state.players.index(discarder) + k) % n] for k in range(1, n))
    return replace(state, phase="claims", claims=Claims(discarder=discarder, eligible=eligible))


def claim_moves(state: RoundState) -> list[MoveJson]:
    moves: list[MoveJson] = [{"type": "pass_claim"}]
    for i, mid in callable_cards(state):
        moves.append({"type": "call_rummy", "card": state.discard[i], "index": i, "meld": mid})
    return moves


def answer(
    state: RoundState, player: str, move: CallRummyMove | PassClaimMove
) -> tuple[RoundState, CallRummyMove | PassClaimMove, bool]:
    """Book a call or a pass: the state, the move as logged, and whether everyone has now acted."""
    claims = state.claims
    assert claims is not None
    if player not in claims.eligible:
        raise IllegalMove(
            RuleCode.CLAIMS_NOT_ELIGIBLE, "The discarder may not call 'Rummy!' on their own discard."
        )
    if player in claims.acted:
        raise IllegalMove(RuleCode.CLAIMS_ALREADY_ACTED, "You have already called or passed in this window.")
    logged: CallRummyMove | PassClaimMove
    if isinstance(move, PassClaimMove):
        given = Claim(player)
        logged = PassClaimMove()
    else:
        i = pile_index(state.discard, move.card, move.index, "claims")
        card = state.discard[i]
        if i != len(state.discard) - 1 and not options_of(state.rules).rummy_in_the_pile:
            raise IllegalMove(RuleCode.CLAIMS_NOT_TOP_CARD, "Only the top card of the pile can be called.")
        if card == JOKER:
            raise IllegalMove(RuleCode.CLAIMS_JOKER, "A joker cannot be called.")
        mi = meld_index(state, move.meld, RuleCode.CLAIMS_UNKNOWN_MELD)
        if card not in single_extensions(state.melds[mi].cards, state.rules):
            raise IllegalMove(
                RuleCode.CLAIMS_INVALID_CALL, f"{card} cannot be laid off on {state.melds[mi].id}."
            )
        given = Claim(player, card, i, state.melds[mi].id)
        logged = CallRummyMove(card=card, index=i, meld=state.melds[mi].id)
    claims = replace(claims, answers=(*claims.answers, given))
    return replace(state, claims=claims), logged, len(claims.answers) == len(claims.eligible)


def resolve(state: RoundState) -> RoundState:
    """Close the window: the winning call, if any, takes its cards and lays the called one off."""
    claims = state.claims
    assert claims is not None
    calls = {a.player: a for a in claims.answers if a.card is not None}
    state = replace(state, claims=None, phase="draw")
    winner = next((calls[p] for p in claims.eligible if p in calls), None)
    if winner is None:
        return state
    assert winner.index is not None and winner.card is not None
    seat = state.players.index(winner.player)
    taken = state.discard[winner.index :]
    mi = next(i for i, m in enumerate(state.melds) if m.id == winner.meld)
    old = state.melds[mi]
    cards = lay_off(old.cards, [winner.card], state.rules)
    melds = list(state.melds)
    melds[mi] = Meld(old.id, old.owner, cards, placers_after(old, cards, winner.player))
    hand = add(state.hands[seat], taken[1:])
    return replace(
        set_hand(state, seat, hand), discard=state.discard[: winner.index], melds=tuple(melds), stall=0
    )
