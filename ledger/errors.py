"""Errors raised by the ledger's services.

Each carries `code`, `message`, `details` and `http_status`, which config.api.exceptions turns into the
API's error envelope; callers outside HTTP (tasks, the admin) catch `LedgerError`.
"""

from __future__ import annotations

from typing import Any


class LedgerError(Exception):
    code = "ledger.error"
    http_status = 400
    default_message = "The ledger refused the operation."

    def __init__(self, message: str | None = None, *, details: dict[str, Any] | None = None) -> None:
        self.message = message or self.default_message
        self.details: dict[str, Any] = details or {}
        super().__init__(self.message)


class InsufficientFunds(LedgerError):
    code = "ledger.insufficient_funds"
    http_status = 422
    default_message = "The account does not hold enough chips."


class IdempotencyConflict(LedgerError):
    code = "idempotency.key_reused"
    http_status = 409
    default_message = "This idempotency key was already used for a different request."


class InvalidTransfer(LedgerError):
    code = "ledger.invalid_transfer"
    http_status = 400
    default_message = "The transfer is not valid."


class AlreadyReversed(LedgerError):
    code = "ledger.already_reversed"
    http_status = 409
    default_message = "This transfer has already been reversed."


class IdempotencyKeyRequired(LedgerError):
    code = "idempotency.key_required"
    http_status = 400
    default_message = "This request needs an Idempotency-Key header (at most 200 characters)."
