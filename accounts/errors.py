"""The accounts' own error codes (registration and tokens answer the API's: `request.invalid`, `auth.*`)."""

from enum import StrEnum

from django.utils.translation import gettext_noop as N_

from api.errors import describe_codes


class AccountCode(StrEnum):
    LOCKED_OUT = "auth.locked_out"


describe_codes({AccountCode.LOCKED_OUT: N_("Too many failed logins; try again later.")})
