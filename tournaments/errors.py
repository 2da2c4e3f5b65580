"""Errors of the tables and live play services (`api.errors.ServiceError`, turned into the API's error
envelope by api.exceptions), and every code they answer (`PlayCode`; a refused move answers the
engine's rule code, docs/rules.md)."""

from __future__ import annotations

from enum import StrEnum

from api.errors import ApiCode, ServiceError, describe_codes
from tournaments.error_messages import PLAY_MESSAGES, RULE_MESSAGES


class PlayCode(StrEnum):
    TABLE_NOT_FOUND = "table.not_found"
    TABLE_CLOSED = "table.closed"
    TABLE_ERROR = "table.error"
    TABLE_FULL = "table.full"
    TABLE_NOT_OPEN = "table.not_open"
    TABLE_CODE_EXHAUSTED = "table.code_exhausted"
    TABLE_CLOSE_FORBIDDEN = "table.close_forbidden"
    TABLE_BUY_IN_OUT_OF_RANGE = "table.buy_in_out_of_range"
    TABLE_GRANT_HELD = "table.grant_held"
    TABLE_INVALID_BUY_IN = "table.invalid_buy_in"
    TABLE_INVALID_SEATS = "table.invalid_seats"
    TABLE_INVALID_PCR = "table.invalid_pcr"
    TABLE_INVALID_OPTIONS = "table.invalid_options"
    SEAT_NOT_SEATED = "seat.not_seated"
    # Repeated abandonment bars new seats for a time (docs/rules.md "Fair play").
    SEAT_BARRED = "seat.barred"
    GAME_NOT_FOUND = "game.not_found"
    GAME_NOT_A_PLAYER = "game.not_a_player"
    GAME_NO_ROUND_RUNNING = "game.no_round_running"
    GAME_STALE_VERSION = "game.stale_version"
    # A finished round's replay (docs/api.md "Replays").
    ROUND_NOT_FOUND = "round.not_found"
    ROUND_NOT_REPLAYABLE = "round.not_replayable"
    # The move's body, read before the engine sees it (move.malformed and move.unknown_type are also the
    # engine's own, for what only it can tell).
    MOVE_MALFORMED = "move.malformed"
    MOVE_UNKNOWN_TYPE = "move.unknown_type"
    MOVE_UNKNOWN_FIELD = "move.unknown_field"
    MOVE_MALFORMED_FIELD = "move.malformed_field"
    MOVE_EXPECTED_VERSION = "move.expected_version"
    MOVE_ILLEGAL = "move.illegal"
    TABLE_TOURNAMENT = "table.tournament"
    TABLE_PRACTICE = "table.practice"
    TABLE_GUEST = "table.guest"
    # Play now found no open table with a free seat for the game and stake (tournaments/live/tables/play_now.py).
    TABLE_NONE_OPEN = "table.none_open"
    # A concurrent start of the same player's practice table won (one open practice table per player).
    PRACTICE_ALREADY_STARTED = "practice.already_started"
    # Tournaments (docs/tournaments.md).
    TOURNAMENT_NOT_FOUND = "tournament.not_found"
    TOURNAMENT_INVALID = "tournament.invalid"
    TOURNAMENT_INVALID_PAYOUTS = "tournament.invalid_payouts"
    TOURNAMENT_ALREADY_REGISTERED = "tournament.already_registered"
    TOURNAMENT_FULL = "tournament.full"
    TOURNAMENT_GUEST = "tournament.guest"
    TOURNAMENT_NOT_REGISTERING = "tournament.not_registering"
    TOURNAMENT_STARTED = "tournament.started"
    TOURNAMENT_NOT_REGISTERED = "tournament.not_registered"
    TOURNAMENT_TOO_FEW_ENTRANTS = "tournament.too_few_entrants"
    TOURNAMENT_INVALID_TRANSITION = "tournament.invalid_transition"
    TOURNAMENT_OVER = "tournament.over"
    TOURNAMENT_NOT_PLAYING = "tournament.not_playing"
    TOURNAMENT_NOT_EDITABLE = "tournament.not_editable"
    TOURNAMENT_LATE_REGISTRATION_CLOSED = "tournament.late_registration_closed"
    TOURNAMENT_NO_REENTRY = "tournament.no_reentry"
    # Tickets and entry rules (docs/rules.md "Tickets", "Entry rules").
    TOURNAMENT_NO_TICKET = "tournament.no_ticket"
    TOURNAMENT_ENTRY_RULE = "tournament.entry_rule"
    TICKET_INVALID = "ticket.invalid"
    # Rebuys and the add-on (docs/rules.md "Rebuys and the add-on").
    TOURNAMENT_REBUY_CLOSED = "tournament.rebuy_closed"
    TOURNAMENT_REBUY_LIMIT = "tournament.rebuy_limit"
    TOURNAMENT_REBUY_TOO_MANY_CHIPS = "tournament.rebuy_too_many_chips"
    TOURNAMENT_ADDON_CLOSED = "tournament.addon_closed"
    TOURNAMENT_ADDON_TAKEN = "tournament.addon_taken"
    TOURNAMENT_ROUND_IN_PLAY = "tournament.round_in_play"
    TOURNAMENT_SEATING = "tournament.seating"
    # The final-table deal (docs/rules.md "The final-table deal").
    DEAL_NOT_FOUND = "deal.not_found"
    DEAL_NOT_FINAL_TABLE = "deal.not_final_table"
    DEAL_SATELLITE = "deal.satellite"
    DEAL_ROUND_RUNNING = "deal.round_running"
    DEAL_NOT_A_PLAYER = "deal.not_a_player"
    DEAL_ALREADY_PROPOSED = "deal.already_proposed"
    DEAL_PENDING = "deal.pending"
    DEAL_ALREADY_MADE = "deal.already_made"
    DEAL_NOTHING_TO_SHARE = "deal.nothing_to_share"
    DEAL_INVALID_METHOD = "deal.invalid_method"
    DEAL_CLOSED = "deal.closed"
    DEAL_ALREADY_ANSWERED = "deal.already_answered"


class PlayError(ServiceError):
    pass


class NotFound(PlayError):
    code = ApiCode.NOT_FOUND
    http_status = 404
    default_message = "Not found."


class Forbidden(PlayError):
    code = ApiCode.FORBIDDEN
    http_status = 403
    default_message = "You do not have permission to perform this action."


class InvalidRequest(PlayError):
    code = ApiCode.REQUEST_INVALID
    http_status = 400
    default_message = "The request is invalid."


class MalformedMove(PlayError):
    code = PlayCode.MOVE_MALFORMED
    http_status = 400
    default_message = "The move is malformed."


class IllegalMoveError(PlayError):
    """The engine refused the move; `code` is the engine's rule code."""

    code = PlayCode.MOVE_ILLEGAL
    http_status = 422
    default_message = "The move is against the rules."


class StaleVersion(PlayError):
    code = PlayCode.GAME_STALE_VERSION
    http_status = 409
    default_message = "The game has moved on; fetch it again."


class KeyReused(PlayError):
    code = ApiCode.IDEMPOTENCY_KEY_REUSED
    http_status = 409
    default_message = "This idempotency key was already used for a different request."


class Conflict(PlayError):
    """Conflicts with the table's state; the raise names the code."""

    http_status = 409
    default_message = "The request conflicts with the table's state."


class Unprocessable(PlayError):
    """Well-formed but cannot be carried out; the raise names the code."""

    http_status = 422
    default_message = "The request cannot be carried out."


# Each code's sentence, for a refusal whose own message has no translation (api.errors).
describe_codes({**RULE_MESSAGES, **PLAY_MESSAGES})
