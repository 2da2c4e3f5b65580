"""The one exception of the engine (a move against the rules, or not a move at all) and its codes (`RuleCode`)."""

from __future__ import annotations

from enum import StrEnum
from typing import Any


class RuleCode(StrEnum):
    """Every code a refused move answers: stable and dotted, `<what>.<why>`, each one documented in docs/rules.md
    ("Error codes"). The engine raises these members, never a string; the API's schema lists them (ErrorCode)."""

    CARD_MALFORMED = "card.malformed"
    CARD_UNKNOWN = "card.unknown"
    CLAIMS_ALREADY_ACTED = "claims.already_acted"
    CLAIMS_CARD_NOT_IN_PILE = "claims.card_not_in_pile"
    CLAIMS_INDEX_MISMATCH = "claims.index_mismatch"
    CLAIMS_INDEX_REQUIRED = "claims.index_required"
    CLAIMS_INVALID_CALL = "claims.invalid_call"
    CLAIMS_JOKER = "claims.joker"
    CLAIMS_NO_WINDOW = "claims.no_window"
    CLAIMS_NOT_ELIGIBLE = "claims.not_eligible"
    CLAIMS_NOT_TOP_CARD = "claims.not_top_card"
    CLAIMS_UNKNOWN_MELD = "claims.unknown_meld"
    CLAIMS_WINDOW_OPEN = "claims.window_open"
    CLOSE_GROUPS_MISMATCH = "close.groups_mismatch"
    CLOSE_INVALID = "close.invalid"
    DEAL_ALREADY_ANSWERED = "deal.already_answered"
    DEAL_ANSWER_FIRST = "deal.answer_first"
    DEAL_NOT_ELIGIBLE = "deal.not_eligible"
    DEAL_NOT_OPEN = "deal.not_open"
    DISCARD_CHOSEN_CARD = "discard.chosen_card"
    DISCARD_CHOSEN_CARD_UNUSED = "discard.chosen_card_unused"
    DISCARD_JOKER_NOT_MELDED = "discard.joker_not_melded"
    DISCARD_MUST_CLOSE = "discard.must_close"
    DISCARD_RETRIEVED_JOKER = "discard.retrieved_joker"
    DRAW_CARD_NOT_IN_PILE = "draw.card_not_in_pile"
    DRAW_DISCARD_CARD_MUST_BE_USED = "draw.discard_card_must_be_used"
    DRAW_INDEX_MISMATCH = "draw.index_mismatch"
    DRAW_INDEX_REQUIRED = "draw.index_required"
    DRAW_MUST_CLOSE = "draw.must_close"
    DRAW_NOT_PREVIOUS_DISCARD = "draw.not_previous_discard"
    DRAW_PILE_EMPTY = "draw.pile_empty"
    DRAW_STOCK_EMPTY = "draw.stock_empty"
    DRAW_THROWN_JOKER = "draw.thrown_joker"
    DRAW_TOP_CARD_ONLY = "draw.top_card_only"
    END_ROUND_NOT_ALLOWED = "end_round.not_allowed"
    HAND_MISSING_CARD = "hand.missing_card"
    LAYOFF_INVALID = "layoff.invalid"
    LAYOFF_OWN_MELD_FIRST = "layoff.own_meld_first"
    LAYOFF_UNKNOWN_MELD = "layoff.unknown_meld"
    MELD_ALL_AT_ONCE = "meld.all_at_once"
    MELD_AMBIGUOUS_JOKER = "meld.ambiguous_joker"
    MELD_INVALID = "meld.invalid"
    MELD_ONE_PER_TURN = "meld.one_per_turn"
    MELD_OPENING_MINIMUM = "meld.opening_minimum"
    MELD_TOO_FEW_NATURAL = "meld.too_few_natural"
    MELD_TOO_SHORT = "meld.too_short"
    MOVE_MALFORMED = "move.malformed"
    MOVE_UNKNOWN_TYPE = "move.unknown_type"
    PLAY_FINAL_DISCARD_REQUIRED = "play.final_discard_required"
    PLAY_NOT_OPENED = "play.not_opened"
    ROUND_OVER = "round.over"
    RULESET_BAD_VALUE = "ruleset.bad_value"
    RULESET_NOT_IMPLEMENTED = "ruleset.not_implemented"
    RULESET_UNKNOWN_OPTION = "ruleset.unknown_option"
    RULESET_UNKNOWN_PRESET = "ruleset.unknown_preset"
    SWAP_NO_SUCH_JOKER = "swap.no_such_joker"
    SWAP_NOT_ALLOWED = "swap.not_allowed"
    SWAP_UNKNOWN_MELD = "swap.unknown_meld"
    TURN_ALREADY_DRAWN = "turn.already_drawn"
    TURN_CANNOT_COMPLETE = "turn.cannot_complete"
    TURN_DRAW_FIRST = "turn.draw_first"
    TURN_NOT_YOUR_TURN = "turn.not_your_turn"
    TURN_UNKNOWN_PLAYER = "turn.unknown_player"


# Codes that mean "this is not a well-formed move" (HTTP 400); every other code is a rule (HTTP 422).
MALFORMED_CODES = frozenset(
    {RuleCode.MOVE_MALFORMED, RuleCode.MOVE_UNKNOWN_TYPE, RuleCode.CARD_MALFORMED, RuleCode.CARD_UNKNOWN}
)


class IllegalMove(Exception):
    """A move refused by the rules; the state it was tried on is unchanged.

    ``code`` is dotted and stable (every code is listed in docs/rules.md), ``message`` is for humans.
    ``details`` and ``http_status`` let the API envelope render it directly.
    """

    def __init__(self, code: str, message: str, details: dict[str, Any] | None = None) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
        self.details: dict[str, Any] = details or {}

    @property
    def http_status(self) -> int:
        return 400 if self.code in MALFORMED_CODES else 422

    def __reduce__(self) -> tuple[Any, ...]:
        return (IllegalMove, (self.code, self.message, self.details))
