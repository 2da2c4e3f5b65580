"""Age and verification's error codes (docs/api.md, "Errors"; docs/rules.md "Responsible play")."""

from __future__ import annotations

from enum import StrEnum

from django.utils.translation import gettext_noop as N_

from api.errors import ServiceError, describe_codes

UNDERAGE_MESSAGE = N_("You must be 18 or older to play on this site.")
UNVERIFIED_MESSAGE = N_(
    "Your account is not verified yet: until staff have checked your identity document you can play only "
    "practice tables."
)


class VerificationCode(StrEnum):
    # A date of birth at registration less than 18 years ago.
    PLAYER_UNDERAGE = "player.underage"
    # A stake by an account not verified within RAMINO_VERIFY_DAYS of registration.
    PLAYER_UNVERIFIED = "player.unverified"


describe_codes(
    {
        VerificationCode.PLAYER_UNDERAGE: UNDERAGE_MESSAGE,
        VerificationCode.PLAYER_UNVERIFIED: UNVERIFIED_MESSAGE,
    }
)


class Underage(ServiceError):
    """400 `player.underage` (details: `field`, `minimum_age`)."""

    code = VerificationCode.PLAYER_UNDERAGE
    http_status = 400
    default_message = UNDERAGE_MESSAGE


class Unverified(ServiceError):
    """403 `player.unverified` (details: `verify_by`, the deadline that passed)."""

    code = VerificationCode.PLAYER_UNVERIFIED
    http_status = 403
    default_message = UNVERIFIED_MESSAGE
