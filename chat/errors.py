"""Errors of chat (docs/api.md "Chat"), and the codes they answer (`ChatCode`)."""

from __future__ import annotations

from enum import StrEnum
from typing import Any

from django.utils.translation import gettext_noop as N_

from api.errors import ServiceError, describe_codes


class ChatCode(StrEnum):
    ROOM_NOT_FOUND = "chat.room_not_found"
    NOT_MEMBER = "chat.not_member"
    MEMBERS_ONLY = "chat.members_only"
    NOT_ELIGIBLE = "chat.not_eligible"
    DISABLED = "chat.disabled"
    RATE_LIMITED = "chat.rate_limited"
    SLOW_MODE = "chat.slow_mode"
    TIMED_OUT = "chat.timed_out"
    INVALID_MESSAGE = "chat.invalid_message"
    UNKNOWN_PHRASE = "chat.unknown_phrase"
    MESSAGE_NOT_FOUND = "chat.message_not_found"
    ALREADY_REPORTED = "chat.already_reported"
    INVALID_TARGET = "chat.invalid_target"
    # A seat at a private table whose creator blocked the player (tournaments/live/tables/services.py asks).
    BLOCKED = "chat.blocked"


class ChatError(ServiceError):
    code = ChatCode.NOT_MEMBER
    http_status = 403
    default_message = N_("You cannot write in this room.")


class RoomNotFound(ChatError):
    code = ChatCode.ROOM_NOT_FOUND
    http_status = 404
    default_message = N_("No such chat room.")


class NotAllowed(ChatError):
    """403: the raise names the code."""

    http_status = 403


class ChatConflict(ChatError):
    http_status = 409


class ChatInvalid(ChatError):
    http_status = 400


class ChatNotFound(ChatError):
    http_status = 404


class TooFast(ChatError):
    """429 with Retry-After: the rate limits and slow mode."""

    http_status = 429

    def __init__(
        self,
        message: str,
        *,
        code: str,
        retry_after: int,
        details: dict[str, Any],
        params: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(
            message, code=code, details={**details, "retry_after_seconds": retry_after}, params=params
        )
        self.retry_after = retry_after


describe_codes(
    {
        ChatCode.ROOM_NOT_FOUND: N_("No such chat room."),
        ChatCode.NOT_MEMBER: N_("You cannot write in this room."),
        ChatCode.MEMBERS_ONLY: N_(
            "This room is in members-only mode: only seated or registered players write."
        ),
        ChatCode.NOT_ELIGIBLE: N_(
            "The lobby's chat is for players registered over a day ago who have finished a round."
        ),
        ChatCode.DISABLED: N_("Chat is off here."),
        ChatCode.RATE_LIMITED: N_("Too many messages: wait a moment."),
        ChatCode.SLOW_MODE: N_("Slow mode: one message every 10 seconds."),
        ChatCode.TIMED_OUT: N_("You are timed out of chat."),
        ChatCode.INVALID_MESSAGE: N_("A message is 1 to 280 characters of text."),
        ChatCode.UNKNOWN_PHRASE: N_("No such quick phrase."),
        ChatCode.MESSAGE_NOT_FOUND: N_("No such message."),
        ChatCode.ALREADY_REPORTED: N_("You have reported this message already."),
        ChatCode.INVALID_TARGET: N_("You cannot mute, block or report yourself."),
        ChatCode.BLOCKED: N_("The table's creator has blocked you."),
    }
)
