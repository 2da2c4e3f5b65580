"""The accounts' own error codes (registration and tokens answer the API's: `request.invalid`, `auth.*`)."""

from enum import StrEnum


class AccountCode(StrEnum):
    LOCKED_OUT = "auth.locked_out"
