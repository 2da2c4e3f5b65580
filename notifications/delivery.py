"""Sending one notification out of the site: by e-mail (Django's e-mail framework: SMTP from `EMAIL_URL`, or the
embedded default's folder of mails) and by Web Push (VAPID, pywebpush) to each browser the player subscribed.

Each is a task's body (notifications/tasks.py), run on the notifications' queue and retried on a transient
failure (`DeliveryFailed`); each records when it delivered, and a retry or a second run after that sends
nothing again. The texts are in the player's language (selectors.language_of)."""

from __future__ import annotations

import logging
from typing import Any

import orjson
from django.conf import settings
from django.core.mail import EmailMessage
from django.utils import timezone, translation
from django.utils.translation import gettext

from notifications import kinds, selectors, vapid
from notifications.models import Notification, PushSubscription

logger = logging.getLogger(__name__)

# A push service's answers that mean the subscription is gone for good: forget it.
GONE = (404, 410)


class DeliveryFailed(Exception):
    """A transient failure (the mail server or a push service away, refusing for now): try again later."""


def _absolute(link: str) -> str:
    return str(settings.RAMINO_SITE_URL).rstrip("/") + link


def send_email(*, notification_id: int) -> bool:
    """Mail the notification to the player's address; False when there was nothing to send (sent already, no
    address, switched off since)."""
    notification = Notification.objects.filter(pk=notification_id, email_sent_at__isnull=True).first()
    if notification is None:
        return False
    address = selectors.email_of(user_id=notification.user_id)
    if not address or not selectors.switches_of(user_id=notification.user_id)[notification.kind]["email"]:
        return False
    language = selectors.language_of(user_id=notification.user_id)
    text = kinds.render(notification.kind, notification.data, language)
    with translation.override(language):
        footer = gettext("Choose what Ramino tells you, and how, in the client's notification settings.")
    message = EmailMessage(
        subject=f"Ramino · {text.title}",
        body=f"{text.body}\n\n{_absolute(text.link)}\n\n-- \n{footer}\n",
        from_email=settings.DEFAULT_FROM_EMAIL,
        to=[address],
        headers={"Content-Language": language, "Auto-Submitted": "auto-generated"},
    )
    try:
        message.send(fail_silently=False)
    except OSError as exc:  # smtplib.SMTPException is an OSError: refused, disconnected, unreachable
        raise DeliveryFailed(f"e-mail of notification {notification_id}: {exc}") from exc
    Notification.objects.filter(pk=notification_id).update(email_sent_at=timezone.now())
    return True


def push_payload(notification: Notification, language: str) -> bytes:
    """What the service worker shows (play/static/play/sw.js): title, body, the link to open, a tag."""
    text = kinds.render(notification.kind, notification.data, language)
    return orjson.dumps(
        {
            "id": notification.pk,
            "kind": notification.kind,
            "title": text.title,
            "body": text.body,
            "link": text.link,
            "tag": f"ramino-{notification.kind}-{notification.pk}",
        }
    )


def send_push(*, notification_id: int) -> int:
    """Push the notification to each of the player's subscriptions; how many push services accepted it. A
    subscription the push service says is gone is deleted; any other refusal or failure is tried again."""
    from pywebpush import WebPushException, webpush

    notification = Notification.objects.filter(pk=notification_id, push_sent_at__isnull=True).first()
    if notification is None or not vapid.configured():
        return 0
    if not selectors.switches_of(user_id=notification.user_id)[notification.kind]["push"]:
        return 0
    payload = push_payload(notification, selectors.language_of(user_id=notification.user_id))
    sent = 0
    failed: list[str] = []
    for subscription in PushSubscription.objects.filter(user_id=notification.user_id).order_by("pk"):
        info: dict[str, Any] = {
            "endpoint": subscription.endpoint,
            "keys": {"p256dh": subscription.p256dh, "auth": subscription.auth},
        }
        try:
            webpush(
                subscription_info=info,
                data=payload,
                vapid_private_key=vapid.signer(),
                vapid_claims={"sub": str(settings.RAMINO_VAPID_SUBJECT)},
                ttl=int(settings.RAMINO_PUSH_TTL_SECONDS),
                timeout=10,
            )
            sent += 1
        except WebPushException as exc:
            status = getattr(exc.response, "status_code", None)
            if status in GONE:
                subscription.delete()
                continue
            failed.append(f"{subscription.pk}: {status or exc}")
        except OSError as exc:  # the push service unreachable (requests' ConnectionError is an OSError)
            failed.append(f"{subscription.pk}: {exc}")
    if failed and not sent:
        raise DeliveryFailed(f"push of notification {notification_id}: {'; '.join(failed)}")
    if failed:
        logger.warning("push of notification %s failed for %s", notification_id, "; ".join(failed))
    Notification.objects.filter(pk=notification_id).update(push_sent_at=timezone.now())
    return sent
