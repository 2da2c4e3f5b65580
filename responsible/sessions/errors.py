"""The reality check's refusals (`api.errors.ServiceError`) and their codes (docs/api.md's error table)."""

from __future__ import annotations

from enum import StrEnum

from django.utils.translation import gettext_noop as N_

from api.errors import ServiceError, describe_codes


class SessionCode(StrEnum):
    NONE = "session.none"
    NOT_DUE = "reality_check.not_due"


describe_codes(
    {
        SessionCode.NONE: N_("You are not playing a session: no reality check to answer."),
        SessionCode.NOT_DUE: N_("No reality check is due yet."),
    }
)


class NoSession(ServiceError):
    code = SessionCode.NONE
    http_status = 409
    default_message = "You are not playing a session: no reality check to answer."


class NotDue(ServiceError):
    code = SessionCode.NOT_DUE
    http_status = 409
    default_message = "No reality check is due yet."
