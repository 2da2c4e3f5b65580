"""Errors raised by the ledger's services (`api.errors.ServiceError`, turned into the API's error envelope
by api.exceptions); callers outside HTTP (tasks, the admin) catch `LedgerError`."""

from __future__ import annotations

from enum import StrEnum
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _
from django.utils.translation import gettext_noop as N_

from api.errors import ApiCode, ServiceError, describe_codes


class LedgerCode(StrEnum):
    INSUFFICIENT_FUNDS = "ledger.insufficient_funds"
    INVALID_TRANSFER = "ledger.invalid_transfer"
    ALREADY_REVERSED = "ledger.already_reversed"
    GRANT_NOT_AVAILABLE = "grant.not_available"
    GRANT_ALREADY_CLAIMED_TODAY = "grant.already_claimed_today"
    GRANT_ABOVE_FLOOR = "grant.above_floor"
    GRANT_GUEST = "grant.guest"


describe_codes(
    {
        LedgerCode.INSUFFICIENT_FUNDS: N_("The account does not hold enough chips."),
        LedgerCode.INVALID_TRANSFER: N_("The transfer is not valid."),
        LedgerCode.ALREADY_REVERSED: N_("This transfer has already been reversed."),
    }
)


class LedgerError(ServiceError):
    default_message = "The ledger refused the operation."


class InsufficientFunds(LedgerError):
    code = LedgerCode.INSUFFICIENT_FUNDS
    http_status = 422
    default_message = "The account does not hold enough chips."


class IdempotencyConflict(LedgerError):
    code = ApiCode.IDEMPOTENCY_KEY_REUSED
    http_status = 409
    default_message = "This idempotency key was already used for a different request."


class InvalidTransfer(LedgerError):
    code = LedgerCode.INVALID_TRANSFER
    http_status = 400
    default_message = "The transfer is not valid."


class AlreadyReversed(LedgerError):
    code = LedgerCode.ALREADY_REVERSED
    http_status = 409
    default_message = "This transfer has already been reversed."


class IdempotencyKeyRequired(LedgerError):
    code = ApiCode.IDEMPOTENCY_KEY_REQUIRED
    http_status = 400
    default_message = "This request needs an Idempotency-Key header (at most 200 characters)."


class IdempotencyKeyInvalid(LedgerError):
    code = ApiCode.IDEMPOTENCY_KEY_INVALID
    http_status = 400
    default_message = "The Idempotency-Key header is at most 200 characters."


class TranslatedLedgerError(LedgerError):
    """A refusal whose message is said in the request's language (Italian or English), chosen when it is
    raised (`translated_message`, in place of `default_message`)."""

    translated_message: Promise = _("The ledger refused the operation.")

    def __init__(
        self, message: str | None = None, *, code: str | None = None, details: dict[str, Any] | None = None
    ) -> None:
        super().__init__(message or str(self.translated_message), code=code, details=details)


class GrantNotAvailable(TranslatedLedgerError):
    code = LedgerCode.GRANT_NOT_AVAILABLE
    http_status = 409
    translated_message = _("This site gives no daily chips; chips come from the site's admins.")


class GrantAlreadyClaimed(TranslatedLedgerError):
    code = LedgerCode.GRANT_ALREADY_CLAIMED_TODAY
    http_status = 409
    translated_message = _("You already had today's chips; come back tomorrow.")


class GrantAboveFloor(TranslatedLedgerError):
    code = LedgerCode.GRANT_ABOVE_FLOOR
    http_status = 422
    translated_message = _(
        "Your wallet already holds the daily chips; the top-up is for a wallet below them."
    )


class GrantGuest(TranslatedLedgerError):
    code = LedgerCode.GRANT_GUEST
    http_status = 403
    translated_message = _("A guest plays without chips: create an account to get chips.")


describe_codes(
    {
        LedgerCode.GRANT_GUEST: N_("A guest plays without chips: create an account to get chips."),
        LedgerCode.GRANT_NOT_AVAILABLE: N_(
            "This site gives no daily chips; chips come from the site's admins."
        ),
        LedgerCode.GRANT_ALREADY_CLAIMED_TODAY: N_("You already had today's chips; come back tomorrow."),
        LedgerCode.GRANT_ABOVE_FLOOR: N_(
            "Your wallet already holds the daily chips; the top-up is for a wallet below them."
        ),
    }
)
