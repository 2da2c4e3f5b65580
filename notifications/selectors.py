"""Reads of notifications: a player's switches, language and address, their list and unread count, and a
notification as a client shows it."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db.models import QuerySet

from notifications import kinds
from notifications.models import Notification, NotificationSettings


def settings_of(*, user_id: int) -> NotificationSettings:
    """The player's settings (unsaved defaults when they have none)."""
    row = NotificationSettings.objects.filter(user_id=user_id).first()
    return row if row is not None else NotificationSettings(user_id=user_id)


def switches_of(*, user_id: int) -> dict[str, dict[str, bool]]:
    stored = NotificationSettings.objects.filter(user_id=user_id).values_list("switches", flat=True).first()
    return kinds.switches(stored)


def language_of(*, user_id: int) -> str:
    """The language the player reads the site in (stored by the client, `PUT /me/notification-settings/`),
    else the site's default."""
    stored = NotificationSettings.objects.filter(user_id=user_id).values_list("language", flat=True).first()
    return stored if stored in dict(settings.LANGUAGES) else str(settings.LANGUAGE_CODE)


def email_of(*, user_id: int) -> str:
    row = get_user_model().objects.filter(pk=user_id, is_active=True).values_list("email", flat=True).first()
    return str(row or "")


def notifications_of(*, user_id: int, unread: bool = False) -> QuerySet[Notification]:
    """The player's notifications kept in the client, newest first (those sent only elsewhere are left out)."""
    rows = Notification.objects.filter(user_id=user_id, in_client=True)
    return rows.filter(read_at__isnull=True) if unread else rows


def unread_count(*, user_id: int) -> int:
    return Notification.objects.filter(user_id=user_id, read_at__isnull=True, in_client=True).count()


def rendered(notification: Notification, *, language: str | None = None) -> dict[str, Any]:
    """A notification as the client shows it: texts in `language` (None: the active one) and its link."""
    text = kinds.render(notification.kind, notification.data, language)
    return {
        "id": notification.pk,
        "kind": notification.kind,
        "title": text.title,
        "body": text.body,
        "link": text.link,
        "data": notification.data,
        "created_at": notification.created_at.isoformat() if notification.created_at else None,
        "read": notification.read_at is not None,
    }
