"""Rummy 500 (docs/rules.md "Rummy 500": presets ``rummy500`` and ``rummy500_household``) behind the family
seam.

A turn: ``draw`` (the stock, or any pile card with the cards above it), then melds, lay-offs and joker
swaps, then a required discard. The round ends when a player goes out, when the stock is empty at the
end of a turn (000) or nothing usable is left facing it (001), or when it stalls. Household tables
open a "Rummy!" claim window after a discard that leaves a callable card.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ...cards import build_deck, parse_card, sort_cards
from ...deal import DealShape, deal_round_robin
from ...errors import IllegalMove, RuleCode
from ...family import Bots, Deal
from ...hands import count_stall, next_turn
from ...listing import play_moves
from ...moves import (
    CallRummyMove,
    DiscardMove,
    DrawMove,
    EndRoundMove,
    LayOffMove,
    MeldMove,
    Move,
    MoveJson,
    PassClaimMove,
    SwapJokerMove,
    fields_of,
)
from ...placements import discard, lay_off_move, meld, swap_joker
from ...rules import Ruleset
from ...state import Result, RoundState
from . import claims
from .draw import draw, draw_moves, draw_obligation, end_round, pile_draw_ok, pile_only
from .presets import FAMILY, TITLE, Rummy500Options, options_of
from .scoring import finish, score

__all__ = ["RUMMY500", "Rummy500", "Rummy500Options", "options_of"]

MOVE_FIELDS: dict[str, frozenset[str]] = fields_of(
    DrawMove, MeldMove, LayOffMove, SwapJokerMove, DiscardMove, EndRoundMove, CallRummyMove, PassClaimMove
)


class Rummy500:
    """The Rummy 500 family (``family.Family``)."""

    name = FAMILY
    title = TITLE  # its name for people, its rating's (English; the site translates it)
    phases = ("draw", "play", "claims", "over")
    move_fields: Mapping[str, frozenset[str]] = MOVE_FIELDS

    # ------------------------------------------------------------------ the deal

    def parse_code(self, value: object) -> str:
        return parse_card(value)

    def full_deck(self, rules: Ruleset, n_players: int) -> tuple[str, ...]:
        return build_deck(rules.deck_count(n_players), rules.jokers(n_players))

    def deal_shape(self, rules: Ruleset, n_players: int) -> DealShape:
        return DealShape(each=rules.cards_each(n_players), turned=1 if rules.up_card else 0)

    def deal(self, rules: Ruleset, n_players: int, dealer: int, order: Sequence[str]) -> Deal:
        """Cards one at a time clockwise from the dealer's left, one up-card, the rest the stock."""
        shape = self.deal_shape(rules, n_players)
        if shape.dealt(n_players) > len(order):
            raise ValueError("Not enough cards for this many players.")
        hands = deal_round_robin(order, n_players, dealer, shape.each)
        pos = n_players * shape.each
        pile = tuple(order[pos : pos + shape.turned])
        pos += shape.turned
        return Deal(
            hands=tuple(sort_cards(h) for h in hands),
            discard=pile,
            stock=tuple(order[pos:]),
            phase="draw",
            turn=(dealer + 1) % n_players,
        )

    # ------------------------------------------------------------------ moves

    def legal_moves(self, state: RoundState, player: str) -> list[MoveJson]:
        if state.phase == "claims":
            return claims.claim_moves(state)
        if state.phase == "draw":
            return draw_moves(state)
        return play_moves(state)

    def apply(self, state: RoundState, player: str, move: Move) -> tuple[RoundState, Move]:
        if state.phase == "claims":
            if not isinstance(move, CallRummyMove | PassClaimMove):
                raise IllegalMove(
                    RuleCode.CLAIMS_WINDOW_OPEN, "A 'Rummy!' claim window is open: wait for it to close."
                )
            answered, answer, all_acted = claims.answer(state, player, move)
            return (_start_turn(claims.resolve(answered)) if all_acted else answered), answer
        if isinstance(move, CallRummyMove | PassClaimMove):
            raise IllegalMove(RuleCode.CLAIMS_NO_WINDOW, "No 'Rummy!' claim window is open.")
        if player != state.players[state.turn]:
            raise IllegalMove(RuleCode.TURN_NOT_YOUR_TURN, f"It is {state.players[state.turn]}'s turn.")
        if state.phase == "draw":
            if isinstance(move, DrawMove):
                return draw(state, move)
            if isinstance(move, EndRoundMove):
                return end_round(state)
            raise IllegalMove(RuleCode.TURN_DRAW_FIRST, "Draw a card first.")
        if isinstance(move, DrawMove):
            raise IllegalMove(RuleCode.TURN_ALREADY_DRAWN, "You have already drawn this turn.")
        if isinstance(move, EndRoundMove):
            raise IllegalMove(
                RuleCode.END_ROUND_NOT_ALLOWED, "The round can be ended only instead of a draw."
            )
        if isinstance(move, DiscardMove):
            after, thrown = discard(state, move)
            return _end_turn(after), thrown
        new, logged = _place(state, move)
        if not new.hands[new.turn]:
            return finish(new, "out", new.turn), logged
        return new, logged

    def score(self, state: RoundState, reason: str, out_seat: int | None) -> Result:
        return score(state, reason, out_seat)

    def close_claims(self, state: RoundState) -> RoundState:
        return _start_turn(claims.resolve(state))

    # ------------------------------------------------------------------ view

    # ------------------------------------------------------------------ what the bots ask

    bots: Bots | None = None  # the shared bots play it
    pile_draw_depth: int | None = None
    placed_cards_score = True
    limits_placements = False

    def pile_draw_obligation(self, state: RoundState, index: int) -> bool:
        return draw_obligation(state, index)

    # ------------------------------------------------------------------ view

    def view(self, state: RoundState, player: str | None) -> dict[str, Any]:
        """The player in turn sees what they still owe this turn."""
        if player is None or player != state.to_act or state.phase != "play":
            return {}
        return {
            "obligations": {
                "must_use": state.must_use,
                "not_discardable": sorted(set(state.reserved)),
                "jokers_to_meld": state.jokers_to_meld,
            }
        }


def _place(state: RoundState, move: Move) -> tuple[RoundState, Move]:
    if isinstance(move, MeldMove):
        return meld(state, move)
    if isinstance(move, LayOffMove):
        return lay_off_move(state, move)
    assert isinstance(move, SwapJokerMove), move  # the family plays no other kind (``MOVE_FIELDS``)
    return swap_joker(state, move)


def _end_turn(state: RoundState) -> RoundState:
    """After a discard: going out, stalling, an exhausted stock (000), a claim window, or the next turn."""
    if not state.hands[state.turn]:
        return finish(state, "out", state.turn)
    state, stalled = count_stall(state)
    if stalled:
        return finish(state, "stall", None)
    if not state.stock and options_of(state.rules).stock_exhaustion == "end":
        return finish(state, "stock", None)
    discarder = state.players[state.turn]
    state = next_turn(state, phase="draw")
    window = claims.open_window(state, discarder)
    return window if window is not None else _start_turn(state)


def _start_turn(state: RoundState) -> RoundState:
    """At the start of a turn: 001's rule ends the round when an empty stock leaves nothing usable."""
    if not pile_only(state):
        return state
    if any(pile_draw_ok(state, i) for i in range(len(state.discard))):
        return state
    return finish(state, "stock", None)


RUMMY500 = Rummy500()
