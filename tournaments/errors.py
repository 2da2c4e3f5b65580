"""Errors of the tables and live play services, in the shape config.api.exceptions turns into the envelope."""

from __future__ import annotations

from typing import Any


class PlayError(Exception):
    code = "play.error"
    http_status = 400
    default_message = "The request was refused."

    def __init__(
        self, message: str | None = None, *, code: str | None = None, details: dict[str, Any] | None = None
    ) -> None:
        self.message = message or self.default_message
        if code is not None:
            self.code = code
        self.details: dict[str, Any] = details or {}
        super().__init__(self.message)


class NotFound(PlayError):
    code = "not_found"
    http_status = 404
    default_message = "Not found."


class Forbidden(PlayError):
    code = "auth.forbidden"
    http_status = 403
    default_message = "You do not have permission to perform this action."


class InvalidRequest(PlayError):
    code = "request.invalid"
    http_status = 400
    default_message = "The request is invalid."


class MalformedMove(PlayError):
    code = "move.malformed"
    http_status = 400
    default_message = "The move is malformed."


class IllegalMoveError(PlayError):
    """The engine refused the move; `code` is the engine's rule code."""

    code = "move.illegal"
    http_status = 422
    default_message = "The move is against the rules."


class StaleVersion(PlayError):
    code = "game.stale_version"
    http_status = 409
    default_message = "The game has moved on; fetch it again."


class KeyReused(PlayError):
    code = "idempotency.key_reused"
    http_status = 409
    default_message = "This idempotency key was already used for a different request."


class Conflict(PlayError):
    code = "conflict"
    http_status = 409
    default_message = "The request conflicts with the table's state."


class Unprocessable(PlayError):
    code = "request.unprocessable"
    http_status = 422
    default_message = "The request cannot be carried out."
