"""The API's foundation: auth, the error envelope, probes and the schema."""

import json
from typing import Any

import pytest
from celery import Celery
from django.contrib.auth import get_user_model
from knox.models import AuthToken
from rest_framework.test import APIClient

from operations import health

pytestmark = pytest.mark.django_db


def _assert_envelope(body: dict[str, Any], code: str) -> None:
    assert set(body) == {"error"}
    assert set(body["error"]) == {"code", "message", "details"}
    assert body["error"]["code"] == code
    assert isinstance(body["error"]["message"], str) and body["error"]["message"]


def test_register_then_token_then_authenticated_request() -> None:
    client = APIClient()
    created = client.post(
        "/api/v1/auth/register/",
        {"username": "ann", "password": "a-long-secret-9", "date_of_birth": "1990-01-01"},
        format="json",
    )
    assert created.status_code == 201
    assert created.json() == {"username": "ann", "welcome_chips": 0}  # the house grant is off by default
    token = client.post(
        "/api/v1/auth/token/", {"username": "ann", "password": "a-long-secret-9"}, format="json"
    )
    assert token.status_code == 200
    key = token.json()["token"]
    assert APIClient(HTTP_AUTHORIZATION=f"Token {key}").get("/api/v1/wallet/").status_code == 200
    assert AuthToken.objects.filter(user=get_user_model().objects.get(username="ann")).count() == 1


def test_register_rejects_taken_username_and_weak_password() -> None:
    client = APIClient()
    client.post(
        "/api/v1/auth/register/",
        {"username": "bob", "password": "a-long-secret-9", "date_of_birth": "1990-01-01"},
        format="json",
    )
    again = client.post(
        "/api/v1/auth/register/",
        {"username": "BOB", "password": "a-long-secret-9", "date_of_birth": "1990-01-01"},
        format="json",
    )
    assert again.status_code == 400
    _assert_envelope(again.json(), "request.invalid")
    assert "username" in again.json()["error"]["details"]["fields"]
    weak = client.post(
        "/api/v1/auth/register/",
        {"username": "cid", "password": "short", "date_of_birth": "1990-01-01"},
        format="json",
    )
    assert weak.status_code == 400
    _assert_envelope(weak.json(), "request.invalid")
    assert not get_user_model().objects.filter(username="cid").exists()


def test_bad_credentials_give_envelope() -> None:
    response = APIClient().post("/api/v1/auth/token/", {"username": "nobody", "password": "x"}, format="json")
    assert response.status_code == 400
    _assert_envelope(response.json(), "request.invalid")


def test_malformed_json_is_400_envelope() -> None:
    response = APIClient().post("/api/v1/auth/register/", data="{not json", content_type="application/json")
    assert response.status_code == 400
    _assert_envelope(response.json(), "request.malformed")


def test_unknown_path_is_404_envelope() -> None:
    response = APIClient().get("/api/v1/no-such-thing/")
    assert response.status_code == 404
    _assert_envelope(json.loads(response.content), "not_found")


def test_health_and_ready() -> None:
    client = APIClient()
    assert client.get("/health/").json() == {"status": "ok"}
    ready = client.get("/ready/")
    assert ready.status_code == 200
    assert ready.json() == {"status": "ok", "database": "ok", "broker": "ok"}


def test_ready_reports_a_dead_broker(monkeypatch: pytest.MonkeyPatch) -> None:
    # Celery lets CELERY_BROKER_URL in the environment override the app's own broker argument.
    monkeypatch.delenv("CELERY_BROKER_URL", raising=False)
    # set_as_current=False: otherwise every shared_task of the rest of the session would publish through it.
    dead_broker = Celery("dead-broker", broker="redis://127.0.0.1:1/0", set_as_current=False)
    monkeypatch.setattr(health, "celery_app", dead_broker)
    response = APIClient().get("/ready/")
    assert response.status_code == 503
    assert response.json()["status"] == "unavailable"
    assert response.json()["database"] == "ok"
    assert response.json()["broker"] != "ok"


def test_schema_and_docs_are_served() -> None:
    client = APIClient()
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/json")
    assert schema.status_code == 200
    paths = schema.json()["paths"]
    assert "/api/v1/auth/token/" in paths
    docs = client.get("/api/docs/")
    assert docs.status_code == 200
    assert b"swagger" in docs.content.lower()


@pytest.mark.parametrize(
    "accept", [None, "*/*", "application/json", "application/json; indent=2", "*/*;q=0.8"]
)
def test_json_is_negotiated_as_drf_would(accept: str | None) -> None:
    from django.test import RequestFactory
    from rest_framework.negotiation import DefaultContentNegotiation
    from rest_framework.renderers import JSONRenderer
    from rest_framework.request import Request

    from api.negotiation import JSONFirstNegotiation

    raw = RequestFactory().get("/api/v1/tables/")
    if accept is not None:
        raw.META["HTTP_ACCEPT"] = accept
    request = Request(raw)
    renderers = [JSONRenderer()]
    fast = JSONFirstNegotiation().select_renderer(request, renderers)
    drf = DefaultContentNegotiation().select_renderer(request, renderers)
    assert (type(fast[0]), fast[1]) == (type(drf[0]), drf[1])


def test_an_unservable_accept_is_still_406() -> None:
    api = APIClient().get("/api/v1/tables/", HTTP_ACCEPT="text/html")
    assert api.status_code == 406, api.content
    assert api.json()["error"]["code"] == "request.not_acceptable"
