"""The breaks' error codes (docs/api.md, "Errors"; docs/rules.md "Responsible play")."""

from __future__ import annotations

from enum import StrEnum

from django.utils.translation import gettext_noop as N_

from api.errors import ServiceError, describe_codes


class BreakCode(StrEnum):
    # A stake, a seat, a registration or a grant asked for during a cool-off or a self-exclusion.
    PLAYER_ON_BREAK = "player.on_break"
    # A length the kind of break does not offer.
    BREAK_INVALID = "break.invalid"
    # A break that would end before the one already running: breaks are never shortened.
    BREAK_SHORTER = "break.shorter"
    # A revocation asked for with no indefinite exclusion, or before 6 months have passed.
    BREAK_NOT_REVOCABLE = "break.not_revocable"


describe_codes(
    {
        BreakCode.PLAYER_ON_BREAK: N_(
            "You are taking a break from play: this is not available until it ends."
        ),
        BreakCode.BREAK_INVALID: N_("This break is not one of those offered."),
        BreakCode.BREAK_SHORTER: N_(
            "You are already on a break that lasts longer: a break is never shortened."
        ),
        BreakCode.BREAK_NOT_REVOCABLE: N_("This exclusion cannot be revoked now."),
    }
)


class OnBreak(ServiceError):
    """403 `player.on_break`: `details.until` (ISO time, null while an indefinite exclusion stands) and
    `details.kind`."""

    code = BreakCode.PLAYER_ON_BREAK
    http_status = 403
    default_message = "You are taking a break from play: this is not available until it ends."


class BreakInvalid(ServiceError):
    code = BreakCode.BREAK_INVALID
    http_status = 400
    default_message = "This break is not one of those offered."


class BreakShorter(ServiceError):
    code = BreakCode.BREAK_SHORTER
    http_status = 409
    default_message = "You are already on a break that lasts longer: a break is never shortened."


class BreakNotRevocable(ServiceError):
    code = BreakCode.BREAK_NOT_REVOCABLE
    http_status = 409
    default_message = "This exclusion cannot be revoked now."
