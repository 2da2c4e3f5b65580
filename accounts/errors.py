"""The accounts' own error codes (registration and tokens answer the API's: `request.invalid`, `auth.*`)."""

from enum import StrEnum

from django.utils.translation import gettext_noop as N_

from api.errors import ServiceError, describe_codes

CONFUSABLE_MESSAGE = N_(
    "This username mixes letters of different alphabets that look alike, so it could pass "
    "for someone else's; write it in one alphabet."
)


LOOKALIKE_MESSAGE = N_("This username reads the same as another player's; choose another.")
INVISIBLE_MESSAGE = N_("This username holds characters that show nothing (%(characters)s); remove them.")
RESERVED_MESSAGE = N_(
    "Names that read as a guest's or a bot's (Guest…, Bot…) are kept for them; choose another."
)


class AccountCode(StrEnum):
    LOCKED_OUT = "auth.locked_out"
    USERNAME_CONFUSABLE = "username.confusable"
    USERNAME_LOOKALIKE = "username.lookalike"
    USERNAME_INVISIBLE = "username.invisible"
    USERNAME_RESERVED = "username.reserved"


describe_codes(
    {
        AccountCode.LOCKED_OUT: N_("Too many failed logins; try again later."),
        AccountCode.USERNAME_CONFUSABLE: CONFUSABLE_MESSAGE,
        AccountCode.USERNAME_LOOKALIKE: LOOKALIKE_MESSAGE,
        AccountCode.USERNAME_INVISIBLE: N_("This username holds characters that show nothing; remove them."),
        AccountCode.USERNAME_RESERVED: RESERVED_MESSAGE,
    }
)


class UsernameConfusable(ServiceError):
    """A name mixing scripts with look-alike letters (accounts.usernames.is_confusable); its message is
    translated where the error envelope is written (api.exceptions)."""

    code = AccountCode.USERNAME_CONFUSABLE
    http_status = 400
    default_message = CONFUSABLE_MESSAGE


class UsernameLookalike(ServiceError):
    """A name that reads the same as a registered one (accounts.usernames.confusable_key: `dee` in Cyrillic letters for `dee`)."""

    code = AccountCode.USERNAME_LOOKALIKE
    http_status = 400
    default_message = LOOKALIKE_MESSAGE


class UsernameInvisible(ServiceError):
    """A name holding a character that shows nothing (accounts.usernames.invisible_characters: zero-width
    spaces, Hangul fillers, ...); `details.characters` lists their code points."""

    code = AccountCode.USERNAME_INVISIBLE
    http_status = 400
    default_message = INVISIBLE_MESSAGE


class UsernameReserved(ServiceError):
    """A name that reads as a guest's or a bot's (accounts.usernames.is_reserved)."""

    code = AccountCode.USERNAME_RESERVED
    http_status = 400
    default_message = RESERVED_MESSAGE
