"""The Basic Rummy family (docs/rules.md "Basic Rummy family", source 003: presets ``basic``, ``block``,
``wrotham``, ``romme``) behind the family seam.

A turn: ``draw`` (the top of the stock or of the pile; an empty stock is refilled from the pile, or the
round may be ended), then melds (one per turn unless ``multiple_melds_per_turn``), lay-offs and joker
swaps, then a discard. A player goes out by melding, laying off or discarding the last card (unless
``final_discard_required``). Wrotham's starter holds eight cards and starts by discarding.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ...cards import build_deck, parse_card, sort_cards
from ...deal import DealShape, deal_round_robin
from ...errors import IllegalMove, RuleCode
from ...family import Bots, Deal
from ...hands import count_stall, next_turn
from ...moves import (
    DiscardMove,
    DrawMove,
    EndRoundMove,
    LayOffMove,
    MeldMove,
    Move,
    MoveJson,
    SwapJokerMove,
    fields_of,
)
from ...placements import discard
from ...rules import Ruleset
from ...state import Result, RoundState
from .book import book_of, new_turn
from .draw import draw, draw_moves, end_round
from .play import can_finish, legal_play, place
from .presets import FAMILY, TITLE, BasicOptions, options_of
from .scoring import finish, score

__all__ = ["BASIC", "BasicFamily", "BasicOptions", "options_of"]

MOVE_FIELDS: dict[str, frozenset[str]] = fields_of(
    DrawMove, MeldMove, LayOffMove, SwapJokerMove, DiscardMove, EndRoundMove
)


class BasicFamily:
    """The Basic Rummy family (``family.Family``)."""

    name = FAMILY
    title = TITLE  # its name for people, its rating's (English; the site translates it)
    phases = ("draw", "play", "over")
    move_fields: Mapping[str, frozenset[str]] = MOVE_FIELDS
    # What the bots ask: only the top of the pile may be drawn, placed cards score nothing (going out is
    # what counts), placements have the family's own limits (``gates``), and no pile card must be used.
    bots: Bots | None = None  # the shared bots play it
    pile_draw_depth: int | None = 1
    placed_cards_score = False
    limits_placements = True

    def pile_draw_obligation(self, state: RoundState, index: int) -> bool:
        return False

    # ------------------------------------------------------------------ the deal

    def parse_code(self, value: object) -> str:
        return parse_card(value)

    def full_deck(self, rules: Ruleset, n_players: int) -> tuple[str, ...]:
        return build_deck(rules.deck_count(n_players), rules.jokers(n_players))

    def deal_shape(self, rules: Ruleset, n_players: int) -> DealShape:
        return DealShape(
            each=rules.cards_each(n_players),
            starter_extra=1 if options_of(rules).starter_extra_card else 0,
            turned=1 if rules.up_card else 0,
        )

    def deal(self, rules: Ruleset, n_players: int, dealer: int, order: Sequence[str]) -> Deal:
        """One card at a time clockwise from the dealer's left; then Wrotham's 8th card to the starter
        (who starts by discarding), or one up-card; the rest is the stock."""
        shape = self.deal_shape(rules, n_players)
        extra, up = shape.starter_extra, shape.turned
        if shape.dealt(n_players) > len(order):
            raise ValueError("Not enough cards for this many players.")
        hands = deal_round_robin(order, n_players, dealer, shape.each)
        starter = (dealer + 1) % n_players
        pos = n_players * shape.each
        if extra:
            hands[starter].append(order[pos])
            pos += 1
        pile = tuple(order[pos : pos + up])
        return Deal(
            hands=tuple(sort_cards(h) for h in hands),
            discard=pile,
            stock=tuple(order[pos + up :]),
            phase="play" if extra else "draw",
            turn=starter,
        )

    # ------------------------------------------------------------------ moves

    def legal_moves(self, state: RoundState, player: str) -> list[MoveJson]:
        if state.phase == "draw":
            return draw_moves(state, can_finish)
        return legal_play(state)

    def apply(self, state: RoundState, player: str, move: Move) -> tuple[RoundState, Move]:
        if player != state.players[state.turn]:
            raise IllegalMove(RuleCode.TURN_NOT_YOUR_TURN, f"It is {state.players[state.turn]}'s turn.")
        if state.phase == "draw":
            if isinstance(move, DrawMove):
                return draw(state, move, can_finish)
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
        assert isinstance(move, MeldMove | LayOffMove | SwapJokerMove), move  # ``MOVE_FIELDS``
        new, logged = place(state, move)
        if not new.hands[new.turn]:
            return finish(new, "out", new.turn), logged
        return new, logged

    def score(self, state: RoundState, reason: str, out_seat: int | None) -> Result:
        return score(state, reason, out_seat)

    def close_claims(self, state: RoundState) -> RoundState:
        return state  # no claim window in this family

    # ------------------------------------------------------------------ view

    def view(self, state: RoundState, player: str | None) -> dict[str, Any]:
        """Public bookkeeping: restocks so far and left, and who has placed a card this round."""
        own = options_of(state.rules)
        book = book_of(state)
        left = 0 if own.restock == "none" else max(0, own.restock_limit - book.restocks)
        return {"restocks": book.restocks, "restocks_left": left, "opened": list(book.opened)}


def _end_turn(state: RoundState) -> RoundState:
    """After a discard: going out, stalling, or the next turn."""
    if not state.hands[state.turn]:
        return finish(state, "out", state.turn)
    state, stalled = count_stall(state)
    if stalled:
        return finish(state, "stall", None)
    return new_turn(next_turn(state, phase="draw"))


BASIC = BasicFamily()
