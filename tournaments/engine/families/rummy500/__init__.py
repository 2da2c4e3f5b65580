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
from ...deal import deal_round_robin
from ...errors import IllegalMove
from ...family import Deal
from ...hands import count_stall, next_turn
from ...listing import play_moves
from ...moves import Move
from ...placements import discard, lay_off_move, meld, swap_joker
from ...rules import Ruleset
from ...state import Result, RoundState
from . import claims
from .draw import draw, draw_moves, draw_obligation, end_round, pile_draw_ok, pile_only
from .presets import FAMILY, Rummy500Options, options_of
from .scoring import finish, score

__all__ = ["RUMMY500", "Rummy500", "Rummy500Options", "options_of"]

MOVE_FIELDS: dict[str, frozenset[str]] = {
    "draw": frozenset({"type", "source", "card", "index"}),
    "meld": frozenset({"type", "cards", "melds"}),
    "lay_off": frozenset({"type", "meld", "cards"}),
    "swap_joker": frozenset({"type", "meld", "card"}),
    "discard": frozenset({"type", "card"}),
    "end_round": frozenset({"type"}),
    "call_rummy": frozenset({"type", "card", "index", "meld"}),
    "pass_claim": frozenset({"type"}),
}
_CLAIM_MOVES = ("call_rummy", "pass_claim")


class Rummy500:
    """The Rummy 500 family (``family.Family``)."""

    name = FAMILY
    phases = ("draw", "play", "claims", "over")
    move_fields: Mapping[str, frozenset[str]] = MOVE_FIELDS

    # ------------------------------------------------------------------ the deal

    def parse_code(self, value: object) -> str:
        return parse_card(value)

    def full_deck(self, rules: Ruleset, n_players: int) -> tuple[str, ...]:
        return build_deck(rules.deck_count(n_players), rules.jokers(n_players))

    def deal(self, rules: Ruleset, n_players: int, dealer: int, order: Sequence[str]) -> Deal:
        """Cards one at a time clockwise from the dealer's left, one up-card, the rest the stock."""
        each = rules.cards_each(n_players)
        if n_players * each + (1 if rules.up_card else 0) > len(order):
            raise ValueError("Not enough cards for this many players.")
        hands = deal_round_robin(order, n_players, dealer, each)
        pos = n_players * each
        pile: tuple[str, ...] = ()
        if rules.up_card:
            pile = (order[pos],)
            pos += 1
        return Deal(
            hands=tuple(sort_cards(h) for h in hands),
            discard=pile,
            stock=tuple(order[pos:]),
            phase="draw",
            turn=(dealer + 1) % n_players,
        )

    # ------------------------------------------------------------------ moves

    def legal_moves(self, state: RoundState, player: str) -> list[Move]:
        if state.phase == "claims":
            return claims.claim_moves(state)
        if state.phase == "draw":
            return draw_moves(state)
        return play_moves(state)

    def apply(
        self, state: RoundState, player: str, mtype: str, move: Mapping[str, Any]
    ) -> tuple[RoundState, Move]:
        if state.phase == "claims":
            if mtype not in _CLAIM_MOVES:
                raise IllegalMove(
                    "claims.window_open", "A 'Rummy!' claim window is open: wait for it to close."
                )
            new, logged, all_acted = claims.answer(state, player, mtype, move)
            return (_start_turn(claims.resolve(new)) if all_acted else new), logged
        if mtype in _CLAIM_MOVES:
            raise IllegalMove("claims.no_window", "No 'Rummy!' claim window is open.")
        if player != state.players[state.turn]:
            raise IllegalMove("turn.not_your_turn", f"It is {state.players[state.turn]}'s turn.")
        if state.phase == "draw":
            if mtype == "draw":
                return draw(state, move)
            if mtype == "end_round":
                return end_round(state)
            raise IllegalMove("turn.draw_first", "Draw a card first.")
        if mtype == "draw":
            raise IllegalMove("turn.already_drawn", "You have already drawn this turn.")
        if mtype == "end_round":
            raise IllegalMove("end_round.not_allowed", "The round can be ended only instead of a draw.")
        if mtype == "discard":
            new, logged = discard(state, move)
            return _end_turn(new), logged
        placement = {"meld": meld, "lay_off": lay_off_move, "swap_joker": swap_joker}[mtype]
        new, logged = placement(state, move)
        if not new.hands[new.turn]:
            return finish(new, "out", new.turn), logged
        return new, logged

    def score(self, state: RoundState, reason: str, out_seat: int | None) -> Result:
        return score(state, reason, out_seat)

    def close_claims(self, state: RoundState) -> RoundState:
        return _start_turn(claims.resolve(state))

    # ------------------------------------------------------------------ view

    # ------------------------------------------------------------------ what the bots ask

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
