"""Each channel delivers: e-mail to a real SMTP server, Web Push to a local push service (VAPID signed, the
payload encrypted for the browser), each in the player's language, each only when its switch is on; a push
service's "gone" forgets the subscription, a failure is tried again."""

from __future__ import annotations

from typing import Any

import pytest
from django.core import mail

from notifications import delivery, services
from notifications.models import Notification, NotificationKind, PushSubscription
from tests.notifications.servers import Browser, Mailbox, PushService, vapid_claims

pytestmark = pytest.mark.django_db


def _prize(user: Any, **extra: Any) -> Notification:
    told = services.notify(
        user_id=user.pk,
        kind=NotificationKind.PRIZE_WON,
        key=f"tournament:7:prize:{extra.get('key', '')}",
        data={"tournament_id": 7, "tournament": "Sunday 500", "amount": 12500, "place": 1},
    )
    assert told is not None
    return told


def test_an_email_reaches_the_smtp_server_in_the_players_language(
    make_player: Any, smtp: Mailbox, client_for: Any
) -> None:
    ann = make_player("ann", email="ann@example.org")
    client_for(ann).put("/api/v1/me/notification-settings/", {"language": "it"})
    notification = _prize(ann)

    assert delivery.send_email(notification_id=notification.pk) is True

    [message] = smtp.messages
    assert smtp.envelopes[0][1] == ["ann@example.org"]
    assert message["Subject"] == "Ramino · Hai vinto un premio"
    assert message["Content-Language"] == "it"
    text = message.get_content()
    assert "Hai vinto 12.500 fiches in Sunday 500." in text
    assert "http://localhost:8000/play/#/tournament/7" in text
    notification.refresh_from_db()
    assert notification.email_sent_at is not None
    # Sent once: a retry or a second run finds it delivered.
    assert delivery.send_email(notification_id=notification.pk) is False
    assert len(smtp.messages) == 1


def test_an_email_in_english_by_default(make_player: Any, smtp: Mailbox) -> None:
    bob = make_player("bob", email="bob@example.org")
    delivery.send_email(notification_id=_prize(bob).pk)
    [message] = smtp.messages
    assert message["Subject"] == "Ramino · You won a prize"
    assert "You won 12,500 chips in Sunday 500." in message.get_content()


def test_no_email_when_its_switch_is_off_or_there_is_no_address(
    make_player: Any, smtp: Mailbox, client_for: Any
) -> None:
    ann = make_player("ann", email="ann@example.org")
    answer = client_for(ann).put(
        "/api/v1/me/notification-settings/", {"switches": {"prize_won": {"email": False}}}, format="json"
    )
    assert answer.status_code == 200, answer.content
    with pytest.MonkeyPatch.context() as patch:
        sent: list[Any] = []
        patch.setattr(
            "tournaments.live.messaging.dispatch.send", lambda name, args, *a, **k: sent.append(name)
        )
        notification = _prize(ann)
    assert delivery.send_email(notification_id=notification.pk) is False
    no_address = make_player("carl", email="")
    assert delivery.send_email(notification_id=_prize(no_address).pk) is False
    assert smtp.messages == []


def test_an_unreachable_smtp_server_is_tried_again(make_player: Any, settings: Any) -> None:
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT = "127.0.0.1", 9  # nothing listens there
    ann = make_player("ann", email="ann@example.org")
    notification = _prize(ann)
    with pytest.raises(delivery.DeliveryFailed):
        delivery.send_email(notification_id=notification.pk)
    notification.refresh_from_db()
    assert notification.email_sent_at is None


def test_the_embedded_default_writes_mails_to_a_folder(
    make_player: Any, settings: Any, tmp_path: Any
) -> None:
    settings.EMAIL_BACKEND = "django.core.mail.backends.filebased.EmailBackend"
    settings.EMAIL_FILE_PATH = str(tmp_path)
    ann = make_player("ann", email="ann@example.org")
    delivery.send_email(notification_id=_prize(ann).pk)
    [written] = list(tmp_path.iterdir())
    assert "You won 12,500 chips" in written.read_text()


def test_a_push_is_vapid_signed_and_encrypted_for_the_browser(
    make_player: Any, vapid_keys: tuple[str, str], pusher: PushService, client_for: Any
) -> None:
    ann = make_player("ann")
    browser = Browser.new()
    answer = client_for(ann).post(
        "/api/v1/me/push-subscriptions/", browser.subscription(pusher.endpoint("ann")), format="json"
    )
    assert answer.status_code == 201, answer.content
    client_for(ann).put("/api/v1/me/notification-settings/", {"language": "it"}, format="json")
    notification = _prize(ann)

    assert delivery.send_push(notification_id=notification.pk) == 1

    [pushed] = pusher.received
    assert pushed.path == "/push/ann"
    claims = vapid_claims(pushed.headers["authorization"], vapid_keys[1])
    assert claims["aud"] == f"http://127.0.0.1:{pusher.port}"
    assert claims["sub"] == "mailto:noreply@localhost"
    assert pushed.headers["content-encoding"] == "aes128gcm"
    assert int(pushed.headers["ttl"]) == 3600
    assert b"premio" not in pushed.body  # the push service sees only ciphertext
    payload = browser.decrypt(pushed.body)
    assert payload["title"] == "Hai vinto un premio"
    assert payload["body"] == "Hai vinto 12.500 fiches in Sunday 500."
    assert payload["link"] == "/play/#/tournament/7"
    notification.refresh_from_db()
    assert notification.push_sent_at is not None
    assert delivery.send_push(notification_id=notification.pk) == 0
    assert len(pusher.received) == 1


def test_a_subscription_the_push_service_says_is_gone_is_forgotten(
    make_player: Any, vapid_keys: tuple[str, str], pusher: PushService
) -> None:
    ann = make_player("ann")
    services.subscribe_push(
        user_id=ann.pk,
        endpoint=pusher.endpoint("old"),
        p256dh=Browser.new().p256dh,
        auth="c2VjcmV0c2VjcmV0MTIz",
    )
    pusher.status = 410
    notification = _prize(ann)
    assert delivery.send_push(notification_id=notification.pk) == 0
    assert not PushSubscription.objects.filter(user=ann).exists()


def test_a_failing_push_service_is_tried_again(
    make_player: Any, vapid_keys: tuple[str, str], pusher: PushService
) -> None:
    ann = make_player("ann")
    browser = Browser.new()
    sub = browser.subscription(pusher.endpoint("ann"))
    services.subscribe_push(
        user_id=ann.pk, endpoint=sub["endpoint"], p256dh=sub["keys"]["p256dh"], auth=sub["keys"]["auth"]
    )
    pusher.status = 503
    notification = _prize(ann)
    with pytest.raises(delivery.DeliveryFailed):
        delivery.send_push(notification_id=notification.pk)
    notification.refresh_from_db()
    assert notification.push_sent_at is None
    assert PushSubscription.objects.filter(user=ann).exists()
    pusher.status = 201
    assert delivery.send_push(notification_id=notification.pk) == 1


def test_no_push_without_vapid_keys_or_with_the_switch_off(
    make_player: Any, settings: Any, pusher: PushService, client_for: Any, vapid_keys: tuple[str, str]
) -> None:
    ann = make_player("ann")
    sub = Browser.new().subscription(pusher.endpoint("ann"))
    services.subscribe_push(
        user_id=ann.pk, endpoint=sub["endpoint"], p256dh=sub["keys"]["p256dh"], auth=sub["keys"]["auth"]
    )
    client_for(ann).put(
        "/api/v1/me/notification-settings/", {"switches": {"prize_won": {"push": False}}}, format="json"
    )
    assert delivery.send_push(notification_id=_prize(ann, key="a").pk) == 0
    client_for(ann).put(
        "/api/v1/me/notification-settings/", {"switches": {"prize_won": {"push": True}}}, format="json"
    )
    settings.RAMINO_VAPID_PRIVATE_KEY = ""
    assert delivery.send_push(notification_id=_prize(ann, key="b").pk) == 0
    assert pusher.received == []
    assert mail.outbox == []
