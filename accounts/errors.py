"""The accounts' own error codes (registration and tokens answer the API's: `request.invalid`, `auth.*`)."""

from enum import StrEnum
from typing import Any

from django.utils.translation import gettext_lazy as _

from api.errors import ServiceError


class AccountCode(StrEnum):
    LOCKED_OUT = "auth.locked_out"
    USERNAME_CONFUSABLE = "username.confusable"


class UsernameConfusable(ServiceError):
    """A name mixing scripts with look-alike letters (accounts.usernames.is_confusable)."""

    code = AccountCode.USERNAME_CONFUSABLE
    http_status = 400

    def __init__(self, *, details: dict[str, Any] | None = None) -> None:
        super().__init__(
            str(
                _(
                    "This username mixes letters of different alphabets that look alike, so it could pass "
                    "for someone else's; write it in one alphabet."
                )
            ),
            details=details,
        )
