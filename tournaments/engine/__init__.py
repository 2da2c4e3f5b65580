"""Ramino rules engine: pure, immutable, no Django. See docs/rules.md and docs/api.md."""

from .cards import CardError, build_deck, hand_value, parse_card, parse_tile, table_value
from .deal import draw_first_dealer, next_dealer
from .engine import (
    apply_move,
    close_claims,
    deal_commitment,
    full_deck,
    legal_moves,
    new_round,
    replay,
    stacked_deck,
    verify_deal,
)
from .errors import IllegalMove, RuleCode
from .families.board import classify, find_arrangement
from .game import (
    Game,
    add_round,
    game_apply,
    game_close_claims,
    game_from_dict,
    game_over,
    game_to_dict,
    new_game,
    next_round,
)
from .melds import MeldError, MeldOptions, enumerate_lay_offs, enumerate_melds, lay_off, read_meld
from .moves import Move, parse_move
from .rules import PRESETS, Ruleset, RulesetError
from .state import PHASES, Meld, Result, RoundState, state_from_dict, state_to_dict
from .views import player_view, round_record, spectator_view

__all__ = [
    "PHASES",
    "PRESETS",
    "CardError",
    "Game",
    "IllegalMove",
    "Meld",
    "MeldError",
    "MeldOptions",
    "Move",
    "Result",
    "RoundState",
    "RuleCode",
    "Ruleset",
    "RulesetError",
    "add_round",
    "apply_move",
    "build_deck",
    "classify",
    "close_claims",
    "deal_commitment",
    "draw_first_dealer",
    "enumerate_lay_offs",
    "enumerate_melds",
    "find_arrangement",
    "full_deck",
    "game_apply",
    "game_close_claims",
    "game_from_dict",
    "game_over",
    "game_to_dict",
    "hand_value",
    "lay_off",
    "legal_moves",
    "new_game",
    "new_round",
    "next_dealer",
    "next_round",
    "parse_card",
    "parse_move",
    "parse_tile",
    "player_view",
    "read_meld",
    "replay",
    "round_record",
    "spectator_view",
    "stacked_deck",
    "state_from_dict",
    "state_to_dict",
    "table_value",
    "verify_deal",
]
