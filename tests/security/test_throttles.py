"""The address throttles count the real client, whatever X-Forwarded-For a client sends (NUM_PROXIES)."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from accounts.views import AuthThrottle
from tests.clients import api_client
from tests.ledger.utils import make_user
from tests.security.conftest import assert_error
from tournaments.live.http.throttling import JoinAddressThrottle

pytestmark = pytest.mark.django_db

PROXY = "10.0.0.2"


def _auth_attempt(path: str, n: int, **meta: Any) -> Any:
    body = {
        "username": f"user_{n}",
        "password": "a-long-secret-9" if "register" in path else "wrong-password",
    }
    return APIClient().post(path, body, format="json", **meta)


@pytest.fixture
def three_per_minute(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(AuthThrottle, "THROTTLE_RATES", {"auth": "3/min"})


@pytest.mark.parametrize("path", ["/api/v1/auth/register/", "/api/v1/auth/token/"])
def test_a_forged_forwarded_for_does_not_escape_the_auth_throttle(
    path: str, three_per_minute: None, settings: Any
) -> None:
    assert settings.REST_FRAMEWORK["NUM_PROXIES"] == 0  # the default: no proxy is trusted
    statuses = [
        _auth_attempt(path, n, REMOTE_ADDR="198.51.100.7", HTTP_X_FORWARDED_FOR=f"203.0.113.{n}").status_code
        for n in range(3)
    ]
    assert 429 not in statuses
    throttled = _auth_attempt(path, 9, REMOTE_ADDR="198.51.100.7", HTTP_X_FORWARDED_FOR="192.0.2.99")
    error = assert_error(throttled, 429, "throttled")
    assert int(throttled["Retry-After"]) == error["details"]["retry_after_seconds"] > 0
    # another peer address is another client
    assert _auth_attempt(path, 10, REMOTE_ADDR="198.51.100.8").status_code != 429


def test_behind_one_proxy_the_address_the_proxy_saw_is_counted(three_per_minute: None, settings: Any) -> None:
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "NUM_PROXIES": 1}
    path = "/api/v1/auth/token/"
    # The proxy appends the address it saw (203.0.113.7) to whatever the client sent, even another
    # client's address.
    forged = ["", "192.0.2.1, ", "203.0.113.8, "]
    statuses = [
        _auth_attempt(path, n, REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_FOR=f"{prefix}203.0.113.7").status_code
        for n, prefix in enumerate(forged)
    ]
    assert statuses == [400, 400, 400]
    assert_error(
        _auth_attempt(path, 3, REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_FOR="203.0.113.8, 203.0.113.7"),
        429,
        "throttled",
    )
    # Every request comes from the proxy's address, yet another client is not throttled: the real address counts.
    assert _auth_attempt(path, 4, REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_FOR="203.0.113.8").status_code == 400


def test_a_forged_forwarded_for_does_not_escape_the_join_throttle(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(JoinAddressThrottle, "THROTTLE_RATES", {"join_address": "2/min"})
    statuses = []
    for n in range(3):
        response = api_client(make_user()).post(
            "/api/v1/tables/join/",
            {"code": "WRONGCODE", "buy_in": 100},
            format="json",
            REMOTE_ADDR="198.51.100.7",
            HTTP_X_FORWARDED_FOR=f"203.0.113.{n}",
        )
        statuses.append(response.status_code)
    assert statuses == [404, 404, 429]
