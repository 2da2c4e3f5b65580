"""Failed logins lock out the username (from any address) and the address (for any username), on the API's
token endpoint and the admin's login form alike, with one 429 that says nothing about the account."""

from __future__ import annotations

import time
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from knox.models import AuthToken
from rest_framework.test import APIClient

from tests.security.conftest import assert_error

pytestmark = pytest.mark.django_db

PASSWORD = "a-long-secret-9"


@pytest.fixture(autouse=True)
def _limits(settings: Any) -> None:
    settings.RAMINO_LOCKOUT_USER_FAILURES = 3
    settings.RAMINO_LOCKOUT_ADDRESS_FAILURES = 5
    settings.RAMINO_LOCKOUT_SECONDS = 60


@pytest.fixture
def ann() -> Any:
    return get_user_model().objects.create_user(username="ann", password=PASSWORD)


def token(username: str, password: str, address: str, **meta: Any) -> Any:
    return APIClient().post(
        "/api/v1/auth/token/",
        {"username": username, "password": password},
        format="json",
        REMOTE_ADDR=address,
        **meta,
    )


def admin_login(client: Client, username: str, password: str, address: str) -> Any:
    return client.post(
        "/admin/login/?next=/admin/", {"username": username, "password": password}, REMOTE_ADDR=address
    )


def assert_locked(response: Any) -> dict[str, Any]:
    error = assert_error(response, 429, "auth.locked_out")
    assert 0 < int(response["Retry-After"]) == error["details"]["retry_after_seconds"] <= 60
    return error


def test_failures_from_many_addresses_lock_the_username(ann: Any) -> None:
    for n in range(3):
        assert_error(token("ann", "wrong", f"198.51.100.{n}"), 400, "request.invalid")
    # the right password, from an address that never failed
    assert_locked(token("ann", PASSWORD, "198.51.100.50"))
    assert_locked(token("ANN", PASSWORD, "198.51.100.51"))  # one counter per name, whatever its case
    assert not AuthToken.objects.exists()
    # the addresses themselves are not locked: another account logs in from one of them
    get_user_model().objects.create_user(username="bob", password=PASSWORD)
    assert token("bob", PASSWORD, "198.51.100.0").status_code == 200


def test_a_lockout_does_not_tell_whether_the_account_exists(ann: Any) -> None:
    answers = {}
    for net, name in enumerate(("ann", "ghost")):
        failures = [token(name, "wrong", f"198.51.{net}.1").json() for _ in range(3)]
        locked = token(name, PASSWORD, f"198.51.{net}.2")
        assert_locked(locked)
        answers[name] = (
            failures,
            locked.status_code,
            locked.json()["error"]["code"],
            locked.json()["error"]["message"],
        )
    assert answers["ann"] == answers["ghost"]


def test_failures_from_one_address_lock_the_address_whatever_it_forwards(ann: Any) -> None:
    for n in range(5):
        response = token(f"guess{n}", "wrong", "198.51.100.9", HTTP_X_FORWARDED_FOR=f"203.0.113.{n}")
        assert response.status_code == 400
    assert_locked(token("ann", PASSWORD, "198.51.100.9", HTTP_X_FORWARDED_FOR="203.0.113.77"))
    assert token("ann", PASSWORD, "198.51.100.10").status_code == 200


def test_attempts_while_locked_do_not_prolong_the_lockout(ann: Any, settings: Any) -> None:
    settings.RAMINO_LOCKOUT_SECONDS = 1
    for _ in range(3):
        token("ann", "wrong", "198.51.100.1")
    assert_error(token("ann", PASSWORD, "198.51.100.1"), 429, "auth.locked_out")
    time.sleep(0.6)
    assert_error(token("ann", "wrong", "198.51.100.1"), 429, "auth.locked_out")
    time.sleep(0.6)
    response = token("ann", PASSWORD, "198.51.100.1")
    assert response.status_code == 200, response.content
    assert AuthToken.objects.filter(user=ann, token_key=response.json()["token"][:15]).count() == 1


def test_the_admin_login_locks_out_too() -> None:
    get_user_model().objects.create_superuser(username="root", password=PASSWORD)
    client = Client()
    for n in range(3):
        response = admin_login(client, "root", "wrong", f"198.51.100.{n}")
        assert response.status_code == 200 and b"errornote" in response.content
    assert_locked(admin_login(client, "root", PASSWORD, "198.51.100.99"))
    assert client.get("/admin/").status_code == 302  # not logged in
    assert "_auth_user_id" not in client.session


def test_the_admin_login_and_the_api_share_the_counters() -> None:
    get_user_model().objects.create_superuser(username="root", password=PASSWORD)
    client = Client()
    assert admin_login(client, "root", PASSWORD, "198.51.100.1").status_code == 302  # logs in while unlocked
    client = Client()
    token("root", "wrong", "198.51.100.2")
    token("root", "wrong", "198.51.100.3")
    admin_login(client, "root", "wrong", "198.51.100.4")
    assert_locked(admin_login(client, "root", PASSWORD, "198.51.100.5"))
    assert_locked(token("root", PASSWORD, "198.51.100.6"))
