"""The limits' refusals (`api.errors.ServiceError`) and their codes (docs/api.md's error table).

`limits.exceeded` answers 403, as the API's other refusals by the player's own standing (`seat.barred`,
`player.on_break`): the request is well formed and the stake within the table's rules; what refuses it is a
limit the player set on themself, which no other body of the same request would pass."""

from __future__ import annotations

from enum import StrEnum

from django.utils.translation import gettext_noop as N_

from api.errors import ServiceError, describe_codes


class LimitsCode(StrEnum):
    EXCEEDED = "limits.exceeded"
    INVALID = "limits.invalid"
    NOTHING_PENDING = "limits.nothing_pending"


describe_codes(
    {
        LimitsCode.EXCEEDED: N_("This would pass one of your limits."),
        LimitsCode.INVALID: N_("A limit is not valid."),
        LimitsCode.NOTHING_PENDING: N_("There is no pending change of this limit to withdraw."),
    }
)


class LimitExceeded(ServiceError):
    code = LimitsCode.EXCEEDED
    http_status = 403
    default_message = "This would pass one of your limits."


class InvalidLimit(ServiceError):
    code = LimitsCode.INVALID
    http_status = 400
    default_message = "A limit is not valid."


class NothingPending(ServiceError):
    code = LimitsCode.NOTHING_PENDING
    http_status = 409
    default_message = "There is no pending change of this limit to withdraw."
