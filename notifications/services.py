"""Notifying a player, and what a player changes: their switches, language, read marks and Web Push subscriptions.

`notify` is the one way in: it stores the notification once per cause (`key`), sends it to the player's sockets
that follow `me` once the transaction commits (when the player keeps it in the client), and enqueues its e-mail and
Web Push on the notifications' own queue (docs/operations.md "Queues"), each its own task, retried; nothing
here waits for a mail server or a push service."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone

from notifications import kinds, selectors
from notifications.models import Channel, Notification, NotificationSettings, PushSubscription
from tournaments.live import dispatch, fanout

DELIVER_EMAIL = "notifications.deliver_email"
DELIVER_PUSH = "notifications.deliver_push"
# The socket's `me` message that carries a new notification (docs/api.md "Live socket").
SOCKET_KIND = "notification"


def notify(*, user_id: int, kind: str, key: str, data: Mapping[str, Any]) -> Notification | None:
    """Tell one player, once per `key`. None: every channel of this kind is off for them, or told already."""
    chosen = selectors.switches_of(user_id=user_id)[kind]
    if not any(chosen.values()):
        return None
    try:
        with transaction.atomic():
            notification = Notification.objects.create(
                user_id=user_id, kind=kind, key=key, data=dict(data), in_client=chosen[Channel.CLIENT]
            )
    except IntegrityError:
        return None  # told already (the same cause twice: a task or beat run again)
    if notification.in_client:
        fanout.user_message_on_commit(
            user_id=user_id,
            kind=SOCKET_KIND,
            data=selectors.rendered(notification, language=selectors.language_of(user_id=user_id)),
        )
    queue = str(settings.RAMINO_NOTIFICATIONS_QUEUE)
    if chosen[Channel.EMAIL] and selectors.email_of(user_id=user_id):
        dispatch.enqueue(DELIVER_EMAIL, [notification.pk], 0, queue=queue)
    if chosen[Channel.PUSH] and PushSubscription.objects.filter(user_id=user_id).exists():
        dispatch.enqueue(DELIVER_PUSH, [notification.pk], 0, queue=queue)
    return notification


def notify_many(*, user_ids: Iterable[int], kind: str, key: str, data: Mapping[str, Any]) -> int:
    """`notify` for each player (the same cause and data); how many were told."""
    return sum(
        1 for user_id in user_ids if notify(user_id=user_id, kind=kind, key=key, data=data) is not None
    )


def mark_read(*, user_id: int, ids: Iterable[int] | None = None) -> int:
    """Mark the player's notifications read (`ids`; None: all of them); how many changed."""
    rows = Notification.objects.filter(user_id=user_id, read_at__isnull=True, in_client=True)
    if ids is not None:
        rows = rows.filter(pk__in=list(ids))
    return rows.update(read_at=timezone.now())


@transaction.atomic
def update_settings(
    *, user_id: int, language: str | None = None, switches: Mapping[str, Mapping[str, bool]] | None = None
) -> NotificationSettings:
    """Change the player's language and any of their switches (the others stay as they were)."""
    row, _created = NotificationSettings.objects.select_for_update().get_or_create(user_id=user_id)
    if language is not None:
        row.language = language
    if switches is not None:
        merged = kinds.switches(row.switches)
        for kind, channels in switches.items():
            merged[kind].update({channel: bool(on) for channel, on in channels.items()})
        row.switches = merged
    row.save()
    return row


def subscribe_push(*, user_id: int, endpoint: str, p256dh: str, auth: str) -> PushSubscription:
    """Keep a browser's subscription for the player (the same endpoint again: its keys and owner replaced)."""
    subscription, _created = PushSubscription.objects.update_or_create(
        endpoint=endpoint, defaults={"user_id": user_id, "p256dh": p256dh, "auth": auth}
    )
    return subscription


def unsubscribe_push(*, user_id: int, endpoint: str) -> bool:
    """Forget the player's subscription at `endpoint`; False when they had none there (nothing changes)."""
    deleted, _ = PushSubscription.objects.filter(user_id=user_id, endpoint=endpoint).delete()
    return bool(deleted)
