"""Chat's reads (docs/api.md "Chat"): a room's messages as one reader sees them (their mutes applied, quick
phrases in their language), the socket's pages, time-outs, reports, and the messages that arrange chip
transfers (the integrity flags' evidence)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from django.db.models import Q, QuerySet

from chat import phrases
from chat.models import Message, Mute, Report, ReportReason, Room, TimeOut, TimeOutScope

# A page of history (REST and a socket's first read), and the most a page after a message id holds.
HISTORY = 50
PAGE = 500


def iso(moment: datetime) -> str:
    """A time as the API writes it (UTC, `Z`)."""
    return moment.astimezone(UTC).isoformat().replace("+00:00", "Z")


def muted_ids(*, owner_id: int | None) -> set[int]:
    if owner_id is None:
        return set()
    return set(Mute.objects.filter(owner_id=owner_id).values_list("target_id", flat=True))


def blocked(*, owner_id: int, target_id: int) -> bool:
    return Mute.objects.filter(owner_id=owner_id, target_id=target_id, block=True).exists()


def message_body(message: Message, *, language: str | None = None) -> dict[str, Any]:
    return {
        "id": message.pk,
        "room": message.room.key,
        "author": message.author.get_username(),
        "text": phrases.text_of(message.phrase, language) if message.phrase else message.text,
        "phrase": message.phrase or None,
        "at": iso(message.at),
    }


def _visible(room: Room, viewer_id: int | None) -> QuerySet[Message]:
    rows = Message.objects.filter(room=room).select_related(
        "author", "room", "room__table", "room__tournament"
    )
    hidden = muted_ids(owner_id=viewer_id)
    return rows.exclude(author_id__in=hidden) if hidden else rows


def history(
    *,
    room: Room,
    viewer_id: int | None,
    before: int | None = None,
    after: int | None = None,
    limit: int = HISTORY,
) -> list[Message]:
    """The room's messages oldest first: the newest `limit` (before id `before`, when given), or the first
    `limit` after id `after`."""
    rows = _visible(room, viewer_id)
    if after is not None:
        return list(rows.filter(pk__gt=after).order_by("id")[:limit])
    if before is not None:
        rows = rows.filter(pk__lt=before)
    return list(reversed(rows.order_by("-id")[:limit]))


def last_id(room: Room) -> int:
    found = Message.objects.filter(room=room).order_by("-id").values_list("id", flat=True).first()
    return int(found or 0)


def socket_events(*, room: Room, viewer_id: int, after: int, language: str | None) -> list[dict[str, Any]]:
    """A socket's page: the newest messages on first subscribing (`after` 0), then those after `after`, each
    an event (`kind` `chat.message`, `version` its id)."""
    found = history(room=room, viewer_id=viewer_id, after=after or None, limit=PAGE if after else HISTORY)
    return [{"version": m.pk, "kind": "chat.message", **message_body(m, language=language)} for m in found]


def active_time_out(*, room: Room, player_id: int, now: datetime) -> TimeOut | None:
    """The time-out that ends last among those in force for `player_id` in `room` (site-wide ones included)."""
    return (
        TimeOut.objects.filter(player_id=player_id, ends_at__gt=now, starts_at__lte=now)
        .filter(Q(scope=TimeOutScope.SITE) | Q(room=room))
        .order_by("-ends_at")
        .first()
    )


def time_outs_of(*, player_id: int) -> QuerySet[TimeOut]:
    """A player's time-outs, newest first."""
    return (
        TimeOut.objects.filter(player_id=player_id)
        .select_related("by", "player", "room", "room__table", "room__tournament")
        .order_by("-starts_at", "-id")
    )


def time_out_body(time_out: TimeOut) -> dict[str, Any]:
    return {
        "id": time_out.pk,
        "player": time_out.player.get_username(),
        "reason": time_out.reason,
        "scope": time_out.scope,
        "room": time_out.room.key if time_out.room else None,
        "seconds": time_out.seconds,
        "starts_at": iso(time_out.starts_at),
        "ends_at": iso(time_out.ends_at),
        "note": time_out.note,
        "message": time_out.message_id,
        "by": time_out.by.get_username(),
    }


def reports(*, limit: int = 100) -> list[Report]:
    return list(
        Report.objects.select_related("message", "message__author", "message__room", "reporter").order_by(
            "-at", "-id"
        )[:limit]
    )


def report_body(report: Report) -> dict[str, Any]:
    return {
        "id": report.pk,
        "message": message_body(report.message),
        "reporter": report.reporter.get_username(),
        "reason": report.reason,
        "note": report.note,
        "at": iso(report.at),
    }


def transfer_evidence(*, usernames: list[str], limit: int = 50) -> list[dict[str, Any]]:
    """Messages by these players that arrange chip transfers: marked by the pattern check, or reported as chip
    trading (newest first), each with why (`pattern`, `reported`)."""
    if not usernames:
        return []
    reported = set(
        Report.objects.filter(
            reason=ReportReason.CHIP_TRADING, message__author__username__in=usernames
        ).values_list("message_id", flat=True)
    )
    found = (
        Message.objects.filter(author__username__in=usernames)
        .filter(Q(transfer_talk=True) | Q(pk__in=reported))
        .select_related("author", "room", "room__table", "room__tournament")
        .order_by("-id")[:limit]
    )
    return [
        {
            **message_body(m),
            "why": [w for w, yes in (("pattern", m.transfer_talk), ("reported", m.pk in reported)) if yes],
        }
        for m in found
    ]
