"""The machine endpoints answer the envelope whatever goes wrong (api/machine.py, docs/api.md "Machine
endpoints"): a POST without a CSRF token to a probe is its 405 (the method is checked before CSRF), /metrics keeps
its 404 for a client it does not serve, and an API path without its trailing slash is a 404 naming the path with
it, never Django's 301 redirect that loses the body."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

pytestmark = [pytest.mark.django_db, pytest.mark.sqlite]


def _envelope(answer: Any, status: int, code: str) -> dict[str, Any]:
    assert answer.status_code == status, answer.content
    assert answer["Content-Type"].startswith("application/json")
    body = answer.json()
    assert set(body) == {"error"} and set(body["error"]) == {"code", "message", "details"}
    assert body["error"]["code"] == code and body["error"]["message"]
    assert b"CSRF verification failed" not in answer.content
    error: dict[str, Any] = body["error"]
    return error


def _csrf_client(**headers: Any) -> Client:
    """A browser-like client: Django's test client skips the CSRF check unless told."""
    return Client(enforce_csrf_checks=True, **headers)


@pytest.mark.parametrize("path", ["/health/", "/ready/", "/jsi18n/"])
@pytest.mark.parametrize("method", ["post", "put", "delete", "patch"])
def test_a_probe_answers_another_method_with_the_envelope_405(path: str, method: str) -> None:
    answer = getattr(_csrf_client(), method)(path, {"x": 1})
    _envelope(answer, 405, "request.method_not_allowed")
    assert answer["Allow"] == "GET, HEAD"


@pytest.mark.parametrize("path", ["/health/", "/jsi18n/"])
def test_a_probe_still_answers_get(path: str) -> None:
    assert _csrf_client().get(path).status_code == 200


def test_the_405_speaks_the_request_s_language() -> None:
    answer = _csrf_client(HTTP_ACCEPT_LANGUAGE="it").post("/health/")
    message = _envelope(answer, 405, "request.method_not_allowed")["message"]
    assert message == "Metodo non consentito: usa GET, HEAD."


def test_metrics_answers_a_post_without_csrf_with_its_documented_405() -> None:
    answer = _csrf_client().post("/metrics", REMOTE_ADDR="127.0.0.1")
    _envelope(answer, 405, "request.method_not_allowed")
    assert answer["Allow"] == "GET, HEAD"


def test_metrics_keeps_its_404_for_a_client_it_does_not_serve_whatever_the_method() -> None:
    for method in ("post", "put", "delete", "get"):
        answer = getattr(_csrf_client(), method)("/metrics", REMOTE_ADDR="198.51.100.4")
        error = _envelope(answer, 404, "not_found")
        assert error["details"] == {}
        assert b"metrics" not in answer.content and b"ramino_" not in answer.content


@pytest.mark.parametrize(
    ("path", "method"),
    [
        ("/api/v1/auth/register", "post"),
        ("/api/v1/auth/token", "post"),
        ("/api/v1/tables", "get"),
        ("/api/v1/tables", "post"),
    ],
)
def test_an_api_path_without_its_slash_is_a_404_naming_the_right_one(path: str, method: str) -> None:
    answer = getattr(_csrf_client(), method)(
        path, {"username": "ann", "password": "a-long-secret-9"}, content_type="application/json"
    )
    error = _envelope(answer, 404, "not_found")
    assert error["details"] == {"path": f"{path}/"}
    assert f"{path}/" in error["message"]
    assert "Location" not in answer


def test_a_missing_slash_is_said_in_italian_too() -> None:
    answer = _csrf_client(HTTP_ACCEPT_LANGUAGE="it").post("/api/v1/auth/register", {})
    error = _envelope(answer, 404, "not_found")
    assert (
        error["message"]
        == "Non trovato: gli indirizzi dell'API finiscono con una barra (/api/v1/auth/register/)."
    )


def test_an_unknown_api_path_stays_a_plain_404() -> None:
    error = _envelope(_csrf_client().post("/api/v1/no-such-thing/", {}), 404, "not_found")
    assert error["details"] == {}


def test_a_session_s_api_post_without_csrf_is_the_envelope_403(django_user_model: Any) -> None:
    user = django_user_model.objects.create_user(username="ann", password="a-long-secret-9")
    client = _csrf_client()
    client.force_login(user)
    answer = client.post("/api/v1/wallet/top-up/", {})
    _envelope(answer, 403, "auth.forbidden")
