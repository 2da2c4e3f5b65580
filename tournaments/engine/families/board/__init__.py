"""Board Rummy (docs/rules.md "Board Rummy": preset ``board``, source 002 "Ramino PRO") behind the family
seam.

Tiles (``cards``: ``R7``, ``JK``), private boards (nothing is melded in public), a trump tile turned
after the deal, an optional ``deal`` phase for players dealt three or more identical pairs, then turns
of draw and discard until a player closes (``find_arrangement`` reads the 14 tiles shown, ``classify``
prices them) or the stock runs out.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ...cards import JOKER, build_tiles, parse_tile, sort_tiles
from ...deal import DealShape, deal_round_robin
from ...errors import IllegalMove, RuleCode
from ...family import Bots, Deal
from ...moves import (
    CloseMove,
    DiscardMove,
    DrawMove,
    KeepDealMove,
    Move,
    MoveJson,
    RefuseDealMove,
    fields_of,
)
from ...rules import Ruleset
from ...state import Result, RoundState
from . import book, turns
from . import bots as own_bots
from .arrangement import Arrangement, find_arrangement
from .hands import ROWS, Hand, classify, points
from .presets import FAMILY, PAIRS_TO_REFUSE, TILES_EACH, TITLE, BoardOptions, jokers, options_of
from .scoring import score

__all__ = [
    "BOARD",
    "ROWS",
    "Arrangement",
    "Board",
    "BoardOptions",
    "Hand",
    "classify",
    "find_arrangement",
    "options_of",
    "points",
]

MOVE_FIELDS: dict[str, frozenset[str]] = fields_of(
    RefuseDealMove, KeepDealMove, DrawMove, DiscardMove, CloseMove
)


def identical_pairs(hand: Sequence[str]) -> int:
    """Pairs of identical tiles (same number and colour); two jokers are not a pair."""
    return sum(1 for t in set(hand) if t != JOKER and hand.count(t) >= 2)


class Board:
    """The Board Rummy family (``family.Family``)."""

    name = FAMILY
    title = TITLE  # its name for people, its rating's (English; the site translates it)
    phases = ("deal", "draw", "play", "over")
    move_fields: Mapping[str, frozenset[str]] = MOVE_FIELDS
    # Board Rummy's own bots (``bots``) play it; what the shared bots would ask (``family.Family``) follows.
    bots: Bots | None = Bots(auto_move=own_bots.auto_move, greedy_move=own_bots.greedy_move)
    pile_draw_depth: int | None = 1
    placed_cards_score = False
    limits_placements = False

    def pile_draw_obligation(self, state: RoundState, index: int) -> bool:
        return False

    # ------------------------------------------------------------------ the deal

    def parse_code(self, value: object) -> str:
        return parse_tile(value)

    def full_deck(self, rules: Ruleset, n_players: int) -> tuple[str, ...]:
        return build_tiles(jokers(rules))

    def deal_shape(self, rules: Ruleset, n_players: int) -> DealShape:
        return DealShape(each=TILES_EACH, starter_extra=1, turned=1)

    def deal(self, rules: Ruleset, n_players: int, dealer: int, order: Sequence[str]) -> Deal:
        """14 tiles each from the dealer's left, a 15th to the first player, then the trump tile is
        turned: a joker turned up goes to the bottom of the stock and the next tile is turned."""
        if self.deal_shape(rules, n_players).dealt(n_players) > len(order):
            raise ValueError("Not enough tiles for this many players.")
        hands = deal_round_robin(order, n_players, dealer, TILES_EACH)
        first = (dealer + 1) % n_players
        hands[first].append(order[n_players * TILES_EACH])
        rest = list(order[n_players * TILES_EACH + 1 :])
        turned: list[str] = []
        while rest and rest[0] == JOKER:
            turned.append(rest.pop(0))
        if not rest:
            raise ValueError("No tile left to turn as the trump.")
        trump = rest.pop(0)
        twin = next((seat for seat, h in enumerate(hands) if trump in h), None)
        qualified = [
            s
            for s in ((first + k) % n_players for k in range(n_players))
            if identical_pairs(hands[s]) >= PAIRS_TO_REFUSE
        ]
        return Deal(
            hands=tuple(sort_tiles(h) for h in hands),
            discard=(),
            stock=(*rest, *turned),
            phase="deal" if qualified else "play",
            turn=first,
            own=book.initial(trump, twin, qualified, n_players),
        )

    # ------------------------------------------------------------------ moves

    def legal_moves(self, state: RoundState, player: str) -> list[MoveJson]:
        if state.phase == "deal":
            return [{"type": "keep_deal"}, {"type": "refuse_deal"}]
        if state.phase == "draw":
            return turns.draw_moves(state)
        return turns.play_moves(state)

    def apply(self, state: RoundState, player: str, move: Move) -> tuple[RoundState, Move]:
        if state.phase == "deal":
            if not isinstance(move, KeepDealMove | RefuseDealMove):
                raise IllegalMove(
                    RuleCode.DEAL_ANSWER_FIRST, "Players dealt three or more pairs answer the deal first."
                )
            return turns.answer_deal(state, player, move), move
        if isinstance(move, KeepDealMove | RefuseDealMove):
            raise IllegalMove(RuleCode.DEAL_NOT_OPEN, "The deal is no longer open to refusal.")
        if player != state.players[state.turn]:
            raise IllegalMove(RuleCode.TURN_NOT_YOUR_TURN, f"It is {state.players[state.turn]}'s turn.")
        if state.phase == "draw":
            if isinstance(move, DrawMove):
                return turns.draw(state, move)
            raise IllegalMove(RuleCode.TURN_DRAW_FIRST, "Draw a tile first.")
        if isinstance(move, DrawMove):
            raise IllegalMove(
                RuleCode.TURN_ALREADY_DRAWN, "Discard or close now (the first player opens by discarding)."
            )
        if isinstance(move, DiscardMove):
            return turns.discard(state, move)
        assert isinstance(move, CloseMove), move  # the family plays no other kind (``MOVE_FIELDS``)
        return turns.close(state, move)

    def score(self, state: RoundState, reason: str, out_seat: int | None) -> Result:
        return score(state, reason, out_seat)

    def close_claims(self, state: RoundState) -> RoundState:
        return state  # no claim windows in Board Rummy

    # ------------------------------------------------------------------ view

    def view(self, state: RoundState, player: str | None) -> dict[str, Any]:
        """The trump tile and the jokers thrown are public; who holds the trump's twin shows only to
        that player (and to all in the result); the deal phase shows who may still answer."""
        out: dict[str, Any] = {
            "trump": book.trump(state),
            "thrown_jokers": {p: book.thrown(state, i) for i, p in enumerate(state.players)},
        }
        if state.phase == "deal":
            out["deal"] = {"qualified": book.names(state, "deal_qualified"), "pending": list(state.may_act)}
        if player is not None:
            out["trump_bonus"] = book.trump_seat(state) == state.players.index(player)
            if player == state.to_act and state.phase == "play":
                out["obligations"] = {
                    "not_discardable": [] if state.chosen is None else [state.chosen],
                    "must_close": turns.must_close(state),
                }
        return out


BOARD = Board()
