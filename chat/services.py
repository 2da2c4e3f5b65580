"""Writing in chat and moderating it (docs/rules.md "Chat", docs/api.md "Chat"): a message (with its rate
limits, slow mode and time-outs), mute and block, reports, staff time-outs and rooms' modes. Every refusal
changes nothing; every message wakes the room's sockets on commit (`chat:<room>`, live_room/)."""

from __future__ import annotations

import math
import unicodedata
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext_noop as N_

from api.errors import ServiceError
from chat import phrases, rooms, selectors, transfer_talk
from chat.errors import ChatCode, ChatConflict, ChatInvalid, ChatNotFound, NotAllowed, TooFast
from chat.models import (
    MAX_TEXT,
    TIME_OUT_SECONDS,
    Message,
    Mute,
    Report,
    ReportReason,
    Room,
    RoomModeChange,
    TimeOut,
    TimeOutScope,
)
from ratings.errors import PlayerNotFound
from tournaments.live import fanout

# docs/rules.md "Chat": per player per room, at most 5 messages in 10 s and 30 in a minute; slow mode: one per 10 s.
RATE_LIMITS = ((5, 10), (30, 60))
SLOW_MODE_SECONDS = 10


def topic_of(room: Room) -> str:
    """The socket topic of a room's messages (docs/api.md "Live socket")."""
    return f"chat:{room.key}"


def clean_text(text: object) -> str:
    """1 to 280 characters of plain text, trimmed; no control characters (a line break included)."""
    if not isinstance(text, str):
        raise ChatInvalid(N_("A message is 1 to 280 characters of text."), code=ChatCode.INVALID_MESSAGE)
    text = text.strip()
    if not 1 <= len(text) <= MAX_TEXT or any(unicodedata.category(c) in ("Cc", "Cs") for c in text):
        raise ChatInvalid(
            N_("A message is 1 to 280 characters of text."),
            code=ChatCode.INVALID_MESSAGE,
            details={"limit": MAX_TEXT},
        )
    return text


def _wait(times: list[datetime], *, limit: int, window: int, now: datetime) -> int:
    """Seconds until one of `times` (newest first, all within `window` s) leaves the window (0: room now)."""
    if len(times) < limit:
        return 0
    leaving = times[limit - 1] + timedelta(seconds=window)
    return max(1, math.ceil((leaving - now).total_seconds()))


def _refuse_too_fast(*, room: Room, author_id: int, now: datetime) -> None:
    longest = max(window for _limit, window in RATE_LIMITS)
    recent = list(
        Message.objects.filter(room=room, author_id=author_id, at__gt=now - timedelta(seconds=longest))
        .order_by("-at", "-id")
        .values_list("at", flat=True)
    )
    if room.slow_mode and recent:
        wait = _wait(
            [t for t in recent if t > now - timedelta(seconds=SLOW_MODE_SECONDS)],
            limit=1,
            window=SLOW_MODE_SECONDS,
            now=now,
        )
        if wait:
            raise TooFast(
                N_("Slow mode: one message every 10 seconds."),
                code=ChatCode.SLOW_MODE,
                retry_after=wait,
                details={"seconds": SLOW_MODE_SECONDS},
            )
    for limit, window in RATE_LIMITS:
        wait = _wait(
            [t for t in recent if t > now - timedelta(seconds=window)], limit=limit, window=window, now=now
        )
        if wait:
            raise TooFast(
                N_("Too many messages: at most %(limit)s in %(window)s seconds."),
                code=ChatCode.RATE_LIMITED,
                retry_after=wait,
                details={"limit": limit, "window_seconds": window},
                params={"limit": limit, "window": window},
            )


def _refuse_timed_out(*, room: Room, user_id: int, now: datetime) -> None:
    found = selectors.active_time_out(room=room, player_id=user_id, now=now)
    if found is not None:
        until = selectors.iso(found.ends_at)
        raise NotAllowed(
            N_("You are timed out of chat until %(until)s."),
            code=ChatCode.TIMED_OUT,
            details={"until": until, "reason": found.reason, "scope": found.scope},
            params={"until": until},
        )


def post(
    *, user: Any, room_key: str, text: object = None, phrase: object = None, now: datetime | None = None
) -> Message:
    """`user` writes `text` (or the quick phrase `phrase`) in the room named `room_key`."""
    if phrase is not None:
        if not isinstance(phrase, str) or phrase not in phrases.PHRASES:
            raise ChatInvalid(
                N_("No such quick phrase."),
                code=ChatCode.UNKNOWN_PHRASE,
                details={"phrase": str(phrase)[:40]},
            )
        if text is not None:
            raise ChatInvalid(
                N_("Send either text or a quick phrase."),
                code=ChatCode.INVALID_MESSAGE,
                details={"field": "text"},
            )
        body = phrases.PHRASES[phrase]
    else:
        body = clean_text(text)
    key = rooms.parse_key(room_key)
    with transaction.atomic():
        room = rooms.room_for(key, user)
        rooms.refuse_write(room, user)
        # One writer at a time per player: two racing messages are counted against each other.
        get_user_model().objects.select_for_update().filter(pk=user.pk).exists()
        now = now or timezone.now()
        _refuse_timed_out(room=room, user_id=user.pk, now=now)
        _refuse_too_fast(room=room, author_id=user.pk, now=now)
        # One writer at a time per room: a message's id (the room's version) is then taken after the room's
        # last message committed, so ids commit in their order. Without it a reader could see id 11 before
        # id 10 committed, move its `after` past 10, and never receive 10.
        Room.objects.select_for_update().filter(pk=room.pk).exists()
        message = Message.objects.create(
            room=room,
            author=user,
            text=body,
            phrase=phrase or "",
            at=now,
            transfer_talk=phrase is None and transfer_talk.arranges_transfer(body),
        )
        fanout.version_on_commit(topic=topic_of(room), version=message.pk)
    return message


def player_named(username: object) -> Any:
    found = (
        get_user_model().objects.filter(username=username, is_active=True).first()
        if isinstance(username, str)
        else None
    )
    if found is None:
        raise PlayerNotFound()
    return found


def mute(*, owner: Any, username: object, block: bool = False, now: datetime | None = None) -> Mute:
    """Mute (or block) a player: a block stays a block when muted again; muting a blocked player keeps the
    block (unblock is `unmute(block=True)`, which leaves a mute)."""
    target = player_named(username)
    if target.pk == owner.pk:
        raise ChatInvalid(N_("You cannot mute, block or report yourself."), code=ChatCode.INVALID_TARGET)
    with transaction.atomic():
        # The owner's sockets leave the target's messages out from the commit on (chat/socket.py).
        fanout.mutes_on_commit(user_id=owner.pk)
        found = Mute.objects.select_for_update().filter(owner=owner, target=target).first()
        if found is None:
            try:
                with transaction.atomic():
                    return Mute.objects.create(
                        owner=owner, target=target, block=block, at=now or timezone.now()
                    )
            except IntegrityError:
                found = Mute.objects.select_for_update().get(owner=owner, target=target)
        if block and not found.block:
            found.block = True
            found.save(update_fields=["block"])
        return found


def unmute(*, owner: Any, username: object, block_only: bool = False) -> None:
    """Undo a mute (and its block), or with `block_only` only the block (the mute stays)."""
    target = player_named(username)
    rows = Mute.objects.filter(owner=owner, target=target)
    if block_only:
        rows.update(block=False)
        return
    if rows.delete()[0]:
        fanout.mutes_on_commit(user_id=owner.pk)


def report(
    *, reporter: Any, message_id: int, reason: str, note: str = "", now: datetime | None = None
) -> Report:
    message = Message.objects.select_related("room").filter(pk=message_id).first()
    if message is None:
        raise ChatNotFound(N_("No such message."), code=ChatCode.MESSAGE_NOT_FOUND)
    try:
        rooms.room_for(rooms.parse_key(message.room.key), reporter)
        rooms.refuse_read(message.room, reporter)
    except ServiceError as refusal:
        # One learns nothing of rooms one cannot read.
        raise ChatNotFound(N_("No such message."), code=ChatCode.MESSAGE_NOT_FOUND) from refusal
    if message.author_id == reporter.pk:
        raise ChatInvalid(N_("You cannot mute, block or report yourself."), code=ChatCode.INVALID_TARGET)
    if reason not in ReportReason.values:
        raise ChatInvalid(N_("Unknown reason."), code=ChatCode.INVALID_MESSAGE, details={"field": "reason"})
    try:
        with transaction.atomic():
            return Report.objects.create(
                message=message,
                reporter=reporter,
                reason=reason,
                note=note[:MAX_TEXT],
                at=now or timezone.now(),
            )
    except IntegrityError:
        raise ChatConflict(
            N_("You have reported this message already."), code=ChatCode.ALREADY_REPORTED
        ) from None


@dataclass(frozen=True)
class TimeOutAsked:
    username: str
    seconds: int
    reason: str
    scope: str
    room: str | None = None
    note: str = ""
    message_id: int | None = None


def time_out(*, asked: TimeOutAsked, by: Any, now: datetime | None = None) -> TimeOut:
    """Staff time a player out of chat, in one room or the whole site, for 10 min, 1 h or 24 h."""
    player = player_named(asked.username)
    if asked.seconds not in TIME_OUT_SECONDS:
        raise ChatInvalid(
            N_("A time-out lasts 10 minutes, 1 hour or 24 hours."),
            code=ChatCode.INVALID_MESSAGE,
            details={"field": "seconds"},
        )
    room: Room | None = None
    if asked.scope == TimeOutScope.ROOM:
        if asked.room is None:
            raise ChatInvalid(
                N_("A time-out in a room names the room."),
                code=ChatCode.INVALID_MESSAGE,
                details={"field": "room"},
            )
        room = rooms.room_for(rooms.parse_key(asked.room), by)
    elif asked.scope != TimeOutScope.SITE:
        raise ChatInvalid(N_("Unknown scope."), code=ChatCode.INVALID_MESSAGE, details={"field": "scope"})
    if asked.reason not in ReportReason.values:
        raise ChatInvalid(N_("Unknown reason."), code=ChatCode.INVALID_MESSAGE, details={"field": "reason"})
    if asked.message_id is not None and not Message.objects.filter(pk=asked.message_id).exists():
        raise ChatNotFound(N_("No such message."), code=ChatCode.MESSAGE_NOT_FOUND)
    now = now or timezone.now()
    with transaction.atomic():
        given = TimeOut.objects.create(
            player=player,
            reason=asked.reason,
            scope=asked.scope,
            room=room,
            seconds=asked.seconds,
            starts_at=now,
            ends_at=now + timedelta(seconds=asked.seconds),
            note=asked.note[:MAX_TEXT],
            message_id=asked.message_id,
            by=by,
        )
        fanout.user_message_on_commit(
            user_id=player.pk,
            kind="chat.timed_out",
            data={
                "until": selectors.iso(given.ends_at),
                "reason": given.reason,
                "scope": given.scope,
                "room": room.key if room else None,
            },
        )
    return given


def set_room(
    *,
    room_key: str,
    by: Any,
    slow_mode: bool | None = None,
    members_only: bool | None = None,
    enabled: bool | None = None,
    now: datetime | None = None,
) -> Room:
    """Staff set a room's slow or members-only mode, an admin turns its chat off or on; recorded."""
    with transaction.atomic():
        room = rooms.room_for(rooms.parse_key(room_key), by)
        room = Room.objects.select_for_update().get(pk=room.pk)
        return apply_modes(
            room=room, by=by, slow_mode=slow_mode, members_only=members_only, enabled=enabled, now=now
        )


def apply_modes(
    *,
    room: Room,
    by: Any,
    slow_mode: bool | None = None,
    members_only: bool | None = None,
    enabled: bool | None = None,
    now: datetime | None = None,
) -> Room:
    """Set the modes of a locked `room` (also the admin's save) and record the change."""
    changed: dict[str, Any] = {}
    for field, value in (("slow_mode", slow_mode), ("members_only", members_only), ("enabled", enabled)):
        if value is not None and getattr(room, field) != value:
            changed[field] = value
            setattr(room, field, value)
    if changed:
        room.save(update_fields=list(changed))
        RoomModeChange.objects.create(
            room=room,
            slow_mode=room.slow_mode,
            members_only=room.members_only,
            enabled=room.enabled,
            by=by,
            at=now or timezone.now(),
        )
    return room
