"""The notifications' API (docs/api.md "Notifications"): the centre's list in the request's language, the unread
count, read marks, the switches and language, Web Push subscriptions; every refusal changes nothing."""

from __future__ import annotations

from typing import Any

import pytest

from notifications import kinds, services
from notifications.models import Notification, NotificationKind, NotificationSettings, PushSubscription
from tests.notifications.servers import Browser

pytestmark = pytest.mark.django_db


def _told(user: Any, n: int, kind: str = NotificationKind.TABLE_MOVED) -> list[Notification]:
    found = []
    for i in range(n):
        told = services.notify(
            user_id=user.pk,
            kind=kind,
            key=f"k:{i}",
            data={"tournament_id": 3, "tournament": "Cup", "table": 40 + i},
        )
        assert told is not None
        found.append(told)
    return found


def test_the_list_is_newest_first_in_the_requests_language(make_player: Any, client_for: Any) -> None:
    ann = make_player("ann")
    _told(ann, 3)
    english = client_for(ann).get("/api/v1/me/notifications/").json()
    assert english["count"] == 3
    first = english["results"][0]
    assert first["kind"] == "table_moved"
    assert first["title"] == "Your table moved"
    assert first["body"] == "In Cup you now play at table 42."
    assert first["link"] == "/play/#/table/42"
    assert first["read"] is False
    italian = client_for(ann).get("/api/v1/me/notifications/", HTTP_ACCEPT_LANGUAGE="it").json()
    assert italian["results"][0]["body"] == "In Cup ora giochi al tavolo 42."


def test_only_ones_own_are_listed_and_marked(make_player: Any, client_for: Any) -> None:
    ann, bob = make_player("ann"), make_player("bob")
    mine = _told(ann, 2)
    theirs = _told(bob, 1)
    assert client_for(ann).get("/api/v1/me/notifications/unread/").json() == {"unread": 2}
    # bob's id in ann's request: nothing of bob's changes.
    answer = client_for(ann).post(
        "/api/v1/me/notifications/read/", {"ids": [theirs[0].pk, mine[0].pk]}, format="json"
    )
    assert answer.json() == {"marked": 1, "unread": 1}
    assert Notification.objects.get(pk=theirs[0].pk).read_at is None
    assert client_for(ann).get("/api/v1/me/notifications/?unread=true").json()["count"] == 1
    answer = client_for(ann).post("/api/v1/me/notifications/read/", {}, format="json")
    assert answer.json() == {"marked": 1, "unread": 0}
    assert [n["read"] for n in client_for(ann).get("/api/v1/me/notifications/").json()["results"]] == [
        True,
        True,
    ]


@pytest.mark.parametrize(
    "body",
    [{"ids": ["1"]}, {"ids": [0]}, {"ids": "all"}, {"ids": [True]}],
    ids=["string-id", "zero", "not-a-list", "boolean"],
)
def test_a_bad_read_mark_changes_nothing(make_player: Any, client_for: Any, body: dict[str, Any]) -> None:
    ann = make_player("ann")
    _told(ann, 1)
    answer = client_for(ann).post("/api/v1/me/notifications/read/", body, format="json")
    assert answer.status_code == 400
    assert answer.json()["error"]["code"] == "request.invalid"
    assert Notification.objects.filter(user=ann, read_at__isnull=True).count() == 1


def test_a_bad_unread_parameter_is_refused(make_player: Any, client_for: Any) -> None:
    answer = client_for(make_player("ann")).get("/api/v1/me/notifications/?unread=yes")
    assert answer.status_code == 400
    assert answer.json()["error"]["code"] == "request.invalid_parameter"


def test_settings_default_then_change_one_switch_and_the_language(make_player: Any, client_for: Any) -> None:
    ann = make_player("ann", email="ann@example.org")
    mine = client_for(ann).get("/api/v1/me/notification-settings/").json()
    assert mine["language"] == "en"
    assert mine["switches"] == kinds.DEFAULTS
    assert mine["defaults"] == kinds.DEFAULTS
    assert mine["email"] is True
    assert mine["push"] == {"available": False, "public_key": "", "subscriptions": 0}
    answer = client_for(ann).put(
        "/api/v1/me/notification-settings/",
        {"language": "it", "switches": {"your_turn": {"push": False}}},
        format="json",
    )
    assert answer.status_code == 200, answer.content
    changed = answer.json()
    assert changed["language"] == "it"
    assert changed["switches"]["your_turn"] == {"client": True, "email": False, "push": False}
    assert changed["switches"]["prize_won"] == kinds.DEFAULTS["prize_won"]
    # Another change keeps the first.
    client_for(ann).put(
        "/api/v1/me/notification-settings/", {"switches": {"prize_won": {"email": False}}}, format="json"
    )
    again = client_for(ann).get("/api/v1/me/notification-settings/").json()
    assert again["switches"]["your_turn"]["push"] is False
    assert again["switches"]["prize_won"]["email"] is False
    assert again["language"] == "it"


@pytest.mark.parametrize(
    "body",
    [
        {"language": "fr"},
        {"switches": {"your_turn": {"fax": True}}},
        {"switches": {"birthday": {"email": True}}},
        {"switches": {"your_turn": {"email": "yes"}}},
        {"colour": "red"},
    ],
    ids=["language", "channel", "kind", "not-a-boolean", "unknown-field"],
)
def test_a_bad_settings_change_changes_nothing(
    make_player: Any, client_for: Any, body: dict[str, Any]
) -> None:
    ann = make_player("ann")
    client_for(ann).put("/api/v1/me/notification-settings/", {"language": "it"}, format="json")
    before = list(NotificationSettings.objects.filter(user=ann).values("language", "switches"))
    answer = client_for(ann).put("/api/v1/me/notification-settings/", body, format="json")
    assert answer.status_code == 400, answer.content
    assert answer.json()["error"]["code"] == "request.invalid"
    assert list(NotificationSettings.objects.filter(user=ann).values("language", "switches")) == before


def test_a_switch_off_in_the_client_keeps_it_out_of_the_centre(make_player: Any, client_for: Any) -> None:
    ann = make_player("ann")
    client_for(ann).put(
        "/api/v1/me/notification-settings/", {"switches": {"table_moved": {"client": False}}}, format="json"
    )
    _told(ann, 1)  # still made (pushed if subscribed) ...
    assert client_for(ann).get("/api/v1/me/notifications/").json()["count"] == 0  # ... not in the centre
    assert client_for(ann).get("/api/v1/me/notifications/unread/").json() == {"unread": 0}
    client_for(ann).put(
        "/api/v1/me/notification-settings/",
        {"switches": {"table_moved": {"client": False, "push": False, "email": False}}},
        format="json",
    )
    assert services.notify(user_id=ann.pk, kind="table_moved", key="off", data={}) is None


def test_push_subscribe_and_unsubscribe(make_player: Any, client_for: Any, vapid_keys: Any) -> None:
    ann, bob = make_player("ann"), make_player("bob")
    subscription = Browser.new().subscription("http://127.0.0.1:9/push/ann")
    answer = client_for(ann).post("/api/v1/me/push-subscriptions/", subscription, format="json")
    assert answer.status_code == 201, answer.content
    assert client_for(ann).get("/api/v1/me/notification-settings/").json()["push"] == {
        "available": True,
        "public_key": vapid_keys[1],
        "subscriptions": 1,
    }
    # Someone else's unsubscribe of it changes nothing.
    endpoint = {"endpoint": subscription["endpoint"]}
    assert (
        client_for(bob)
        .post("/api/v1/me/push-subscriptions/unsubscribe/", endpoint, format="json")
        .status_code
        == 204
    )
    assert PushSubscription.objects.filter(user=ann).count() == 1
    assert (
        client_for(ann)
        .post("/api/v1/me/push-subscriptions/unsubscribe/", endpoint, format="json")
        .status_code
        == 204
    )
    assert not PushSubscription.objects.exists()


@pytest.mark.parametrize(
    "endpoint",
    ["http://10.0.0.8/push/x", "https://internal.example.org/push", "ftp://127.0.0.1/x", "not a url"],
    ids=["private-address", "unknown-host", "scheme", "malformed"],
)
def test_a_push_subscription_to_anything_but_a_push_service_is_refused(
    make_player: Any, client_for: Any, endpoint: str
) -> None:
    ann = make_player("ann")
    body = {**Browser.new().subscription("x"), "endpoint": endpoint}
    answer = client_for(ann).post("/api/v1/me/push-subscriptions/", body, format="json")
    assert answer.status_code == 400, answer.content
    assert answer.json()["error"]["code"] == "request.invalid"
    assert not PushSubscription.objects.exists()


def test_https_only_outside_the_tests(make_player: Any, client_for: Any, settings: Any) -> None:
    settings.RAMINO_PUSH_ALLOW_HTTP = False
    settings.RAMINO_PUSH_SERVICES = ["push.services.mozilla.com"]
    ann = make_player("ann")
    plain = Browser.new().subscription("http://updates.push.services.mozilla.com/wpush/v2/abc")
    assert client_for(ann).post("/api/v1/me/push-subscriptions/", plain, format="json").status_code == 400
    secure = Browser.new().subscription("https://updates.push.services.mozilla.com/wpush/v2/abc")
    assert client_for(ann).post("/api/v1/me/push-subscriptions/", secure, format="json").status_code == 201


def test_anonymous_is_refused(client_for: Any) -> None:
    for path in (
        "/api/v1/me/notifications/",
        "/api/v1/me/notification-settings/",
        "/api/v1/me/notifications/unread/",
    ):
        assert client_for(None).get(path).status_code == 401
