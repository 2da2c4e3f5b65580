"""The suite's HTTP clients, made in one place.

- `api_client(user)`: Django REST framework's test client (in process, through the real URLs, views and
  middleware), JSON bodies, authenticated as `user` (or with a `token`, or anonymous).
- `signed_in(username, password)`: the same client signed in as a client app is, with a token from
  `/api/v1/auth/token/` sent in the `Authorization` header.
- `LiveClient`: a real HTTP client of a live server (the end-to-end tests, the smoke test): token login, a
  fresh `Idempotency-Key` on every POST (docs/api.md "Idempotency"), a 503 tried again after its
  `Retry-After`.

This module imports neither Django nor REST framework at its top, so the smoke test (no Django settings) can use
`LiveClient`.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import requests

if TYPE_CHECKING:
    from rest_framework.test import APIClient

TIMEOUT_SECONDS = 40
# Registration asks for a date of birth (docs/rules.md "Responsible play"): test players are adults.
ADULT_BIRTH_DATE = "1990-01-01"


def api_client(user: Any = None, *, token: str | None = None) -> APIClient:
    """A test client sending JSON: force-authenticated as `user`, or sending `Token <token>`, or anonymous."""
    from rest_framework.test import APIClient

    client = APIClient()
    client.default_format = "json"
    if user is not None:
        client.force_authenticate(user=user)
    if token is not None:
        client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    return client


def signed_in(username: str, password: str) -> APIClient:
    """A test client that signed in as a client app does: its token from `/api/v1/auth/token/`."""
    client = api_client()
    answer = client.post("/api/v1/auth/token/", {"username": username, "password": password})
    assert answer.status_code == 200, answer.content
    client.credentials(HTTP_AUTHORIZATION=f"Token {answer.json()['token']}")
    return client


class LiveClient:
    """One user's HTTP client of the site at `base`; `call` answers the response of `/api/v1` + path.

    `retries`: how many times a 503 is sent again after its `Retry-After`. `on_answer(client, path, response)`,
    if given, sees every response `call` answers (the end-to-end tests keep the bodies for their leak scan).
    `call` asserts no 5xx; `request` answers whatever came."""

    def __init__(
        self,
        base: str,
        name: str,
        *,
        retries: int = 3,
        on_answer: Callable[[LiveClient, str, requests.Response], None] | None = None,
    ) -> None:
        self.base = base
        self.name = name
        self.retries = retries
        self.on_answer = on_answer
        self.session = requests.Session()

    def login(self, password: str) -> None:
        """Signs in with `/auth/token/`: every later request carries the token."""
        token = self.session.post(
            f"{self.base}/api/v1/auth/token/",
            json={"username": self.name, "password": password},
            timeout=TIMEOUT_SECONDS,
        )
        assert token.status_code == 200, token.text
        self.session.headers["Authorization"] = f"Token {token.json()['token']}"

    def register(self, password: str) -> None:
        """Signs up with `/auth/register/`, then in."""
        answer = self.session.post(
            f"{self.base}/api/v1/auth/register/",
            json={"username": self.name, "password": password, "date_of_birth": ADULT_BIRTH_DATE},
            timeout=TIMEOUT_SECONDS,
        )
        assert answer.status_code == 201, answer.text
        self.login(password)

    def request(self, method: str, path: str, **kwargs: Any) -> requests.Response:
        if method == "POST":
            # What every client should do (docs/api.md "Idempotency"): a fresh key per intended action, sent
            # again with its retry, which then cannot sit, top up or move twice.
            kwargs["headers"] = {"Idempotency-Key": uuid.uuid4().hex, **kwargs.get("headers", {})}
        url = f"{self.base}/api/v1{path}"
        response = self.session.request(method, url, timeout=TIMEOUT_SECONDS, **kwargs)
        for _retry in range(self.retries):
            if response.status_code != 503:
                break
            time.sleep(float(response.headers.get("Retry-After", "1")))
            response = self.session.request(method, url, timeout=TIMEOUT_SECONDS, **kwargs)
        return response

    def call(self, method: str, path: str, **kwargs: Any) -> requests.Response:
        response = self.request(method, path, **kwargs)
        assert response.status_code < 500, (path, response.text)
        if self.on_answer is not None:
            self.on_answer(self, path, response)
        return response
