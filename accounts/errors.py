"""The accounts' own error codes (registration and tokens answer the API's: `request.invalid`, `auth.*`)."""

from enum import StrEnum

from django.utils.translation import gettext_noop as N_

from api.errors import ServiceError, describe_codes

CONFUSABLE_MESSAGE = N_(
    "This username mixes letters of different alphabets that look alike, so it could pass "
    "for someone else's; write it in one alphabet."
)


class AccountCode(StrEnum):
    LOCKED_OUT = "auth.locked_out"
    USERNAME_CONFUSABLE = "username.confusable"


describe_codes(
    {
        AccountCode.LOCKED_OUT: N_("Too many failed logins; try again later."),
        AccountCode.USERNAME_CONFUSABLE: CONFUSABLE_MESSAGE,
    }
)


class UsernameConfusable(ServiceError):
    """A name mixing scripts with look-alike letters (accounts.usernames.is_confusable); its message is
    translated where the error envelope is written (api.exceptions)."""

    code = AccountCode.USERNAME_CONFUSABLE
    http_status = 400
    default_message = CONFUSABLE_MESSAGE
