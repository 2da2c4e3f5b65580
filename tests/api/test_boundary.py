"""The request's own limits (issue 19, defect 4; api/boundary.py): a body nested 1,000 deep, a NUL or a
lone surrogate in a query, a path, a header or a body, a body, URI or header over its limit — each a 4xx in the
envelope, naming where it was refused, and nothing changed."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from api.boundary import (
    MAX_BODY_BYTES,
    MAX_HEADER_LENGTH,
    MAX_HEADERS_LENGTH,
    MAX_JSON_DEPTH,
    MAX_URI_LENGTH,
)
from ledger.models import Transfer
from tests.api.conftest import World
from tournaments.live.models import Seat, Table

pytestmark = pytest.mark.django_db


def deep(levels: int, leaf: str = "1") -> str:
    return "[" * levels + leaf + "]" * levels


def assert_error(response: Any, status: int, code: str, **details: Any) -> dict[str, Any]:
    assert response.status_code == status, response.content
    assert response["Content-Type"] == "application/json"
    error: dict[str, Any] = response.json()["error"]
    assert set(error) == {"code", "message", "details"} and error["code"] == code, error
    for key, value in details.items():
        assert error["details"][key] == value, error
    return error


def post_raw(client: APIClient, url: str, body: str | bytes, **headers: Any) -> Any:
    return client.post(url, data=body, content_type="application/json", **headers)


ANONYMOUS_POSTS = ["/api/v1/auth/token/", "/api/v1/auth/register/"]


@pytest.mark.parametrize("url", ANONYMOUS_POSTS)
@pytest.mark.parametrize("where", ["whole", "field"])
def test_a_body_nested_a_thousand_deep_is_400(url: str, where: str) -> None:
    body = deep(1000) if where == "whole" else '{"username": "eve", "password": ' + deep(1000) + "}"
    assert len(body) < 2100
    assert_error(post_raw(APIClient(), url, body), 400, "request.malformed")
    assert not get_user_model().objects.filter(username="eve").exists()


def test_deep_bodies_are_400_on_authenticated_posts(world: World) -> None:
    for url, user in [
        ("/api/v1/tables/", "admin"),
        ("/api/v1/tables/{table}/sit/", "cid"),
        ("/api/v1/games/{game}/moves/", "ann"),
        ("/api/v1/ledger/adjustments/", "admin"),
        ("/api/v1/tournaments/", "admin"),
    ]:
        body = '{"options": ' + deep(1000, "{}") + ', "buy_in": 10, "amount": 5, "type": "draw"}'
        assert_error(
            post_raw(world.client(user), world.url(url), body, HTTP_IDEMPOTENCY_KEY="k-deep"),
            400,
            "request.malformed",
        )
    assert Table.objects.count() == 1 and not Seat.objects.filter(player=world.users["cid"]).exists()


def test_nesting_up_to_the_limit_reaches_the_view(world: World) -> None:
    """At the limit the body is parsed and the view decides (here: options that are no preset's)."""
    table = {"game": "rummy500", "seats": 2, "pcr": 1, "min_buy_in": 1, "max_buy_in": 10}
    nested = json.dumps({**table, "options": {"x": json.loads(deep(MAX_JSON_DEPTH - 2))}})
    assert_error(post_raw(world.client("admin"), "/api/v1/tables/", nested), 400, "table.invalid_options")
    too_deep = json.dumps({**table, "options": {"x": json.loads(deep(MAX_JSON_DEPTH - 1))}})
    assert_error(post_raw(world.client("admin"), "/api/v1/tables/", too_deep), 400, "request.malformed")


@pytest.mark.parametrize("value", ["%00", "a%00b", "%ED%A0%80", "%ED%B0%80x", "%FF", "%C3"])
def test_a_nul_or_a_surrogate_in_a_query_filter_is_400(value: str) -> None:
    response = APIClient().get(f"/api/v1/tournaments/?game={value}")
    assert_error(response, 400, "request.invalid_parameter", parameter="game")


def test_a_nul_in_a_query_parameter_name_is_400(world: World) -> None:
    assert_error(world.client("staff").get("/api/v1/ledger/transfers/?ki%00nd=x"), 400, "request.malformed")


def test_the_same_filters_without_nul_still_work() -> None:
    response = APIClient().get("/api/v1/tournaments/?game=rummy500&status=registering,running")
    assert response.status_code == 200, response.content
    # UTF-8 passes the boundary (`game` itself is one of the presets, so a parameter the view ignores).
    assert APIClient().get("/api/v1/tournaments/?note=caf%C3%A9").status_code == 200


def test_a_nul_in_every_filter_of_every_list_is_400(world: World) -> None:
    for url, user in [
        ("/api/v1/tables/?game=%00", "ann"),
        ("/api/v1/ledger/transfers/?kind=%00", "staff"),
        ("/api/v1/ledger/accounts/?kind=%00", "staff"),
        ("/api/v1/ledger/accounts/{account}/statement/?from=%00", "staff"),
        ("/api/v1/games/{game}/events/?after=%00", "ann"),
        ("/api/v1/tournaments/?status=%00", None),
    ]:
        assert_error(world.client(user).get(world.url(url)), 400, "request.invalid_parameter")


@pytest.mark.parametrize(
    "header",
    ["HTTP_AUTHORIZATION", "HTTP_IDEMPOTENCY_KEY", "HTTP_COOKIE", "HTTP_X_FORWARDED_FOR", "HTTP_ACCEPT"],
)
@pytest.mark.parametrize("bad", ["\x00", "\ud800"])
def test_a_nul_or_a_surrogate_in_a_header_is_400(world: World, header: str, bad: str) -> None:
    value = {"HTTP_AUTHORIZATION": f"Token ab{bad}cd", "HTTP_COOKIE": f"sessionid=ab{bad}cd"}.get(
        header, f"x{bad}"
    )
    transfers = Transfer.objects.count()
    headers: dict[str, Any] = {header: value}
    response = APIClient().post(
        world.url("/api/v1/tables/{table}/sit/"), {"buy_in": 100}, format="json", **headers
    )
    name = header.removeprefix("HTTP_").replace("_", "-").title()
    assert_error(response, 400, "request.malformed", header=name)
    assert Transfer.objects.count() == transfers


def test_a_nul_in_the_path_is_400() -> None:
    assert_error(APIClient().get("/api/v1/tables/1%00/"), 400, "request.malformed")


@pytest.mark.parametrize("url", ANONYMOUS_POSTS)
def test_a_nul_in_a_body_string_is_400(url: str) -> None:
    for body in ['{"username": "e\\u0000ve", "password": "a-long-secret-9"}', '{"user\\u0000": 1}']:
        assert_error(post_raw(APIClient(), url, body), 400, "request.malformed")
    assert not get_user_model().objects.exists()


def test_an_escaped_backslash_before_u0000_is_text() -> None:
    """`\\\\u0000` is a backslash and five characters, not a NUL: the parser lets it through to the view."""
    body = '{"username": "ev\\\\u0000e", "password": "a-long-secret-9"}'
    assert_error(post_raw(APIClient(), "/api/v1/auth/register/", body), 400, "request.invalid")


@pytest.mark.parametrize(
    "body",
    [
        b'{"username": "\\ud800", "password": "a-long-secret-9"}',
        b'{"username": "\\udc00", "password": "a-long-secret-9"}',
        b'{"username": "\xed\xa0\x80", "password": "a-long-secret-9"}',
        b'{"username": "\xff", "password": "a-long-secret-9"}',
        b'{"username": "eve", "password": NaN}',
        b'{"username": "eve", "password": Infinity}',
    ],
)
def test_a_lone_surrogate_or_bad_utf8_or_nan_in_a_body_is_400(body: bytes) -> None:
    assert_error(post_raw(APIClient(), "/api/v1/auth/register/", body), 400, "request.malformed")
    assert not get_user_model().objects.exists()


def test_a_body_over_the_limit_is_413(world: World) -> None:
    padding = "x" * MAX_BODY_BYTES
    response = post_raw(
        world.client("cid"), world.url("/api/v1/tables/{table}/sit/"), f'{{"buy_in": 100, "p": "{padding}"}}'
    )
    assert_error(response, 413, "request.too_large")
    assert not Seat.objects.filter(player=world.users["cid"]).exists()


def test_a_body_at_the_limit_is_read(world: World) -> None:
    body = '{"buy_in": 100, "p": ""}'
    body = body.replace('""', '"' + "x" * (MAX_BODY_BYTES - len(body)) + '"')
    assert len(body.encode()) == MAX_BODY_BYTES
    response = post_raw(world.client("cid"), world.url("/api/v1/tables/{table}/sit/"), body)
    assert response.status_code == 200, response.content


def test_a_uri_over_the_limit_is_414() -> None:
    url = "/api/v1/tournaments/?note="
    assert APIClient().get(url + "x" * (MAX_URI_LENGTH - len(url))).status_code == 200
    error = assert_error(
        APIClient().get(url + "x" * (MAX_URI_LENGTH - len(url) + 1)), 414, "request.uri_too_long"
    )
    assert error["details"] == {"limit": MAX_URI_LENGTH}


def test_a_header_over_the_limit_is_431() -> None:
    client = APIClient()
    fits = "x" * (MAX_HEADER_LENGTH - len("HTTP_X_NOTE"))
    assert client.get("/api/v1/tournaments/", HTTP_X_NOTE=fits).status_code == 200
    error = assert_error(
        client.get("/api/v1/tournaments/", HTTP_X_NOTE=fits + "x"), 431, "request.headers_too_large"
    )
    assert error["details"] == {"header": "X-Note", "limit": MAX_HEADER_LENGTH}
    many: dict[str, Any] = {f"HTTP_X_NOTE_{i}": "x" * 4000 for i in range(MAX_HEADERS_LENGTH // 4000 + 1)}
    error = assert_error(client.get("/api/v1/tournaments/", **many), 431, "request.headers_too_large")
    assert error["details"] == {"limit": MAX_HEADERS_LENGTH}


def test_pages_outside_the_api_answer_the_envelope_too() -> None:
    assert_error(APIClient().get("/play/?q=%00"), 400, "request.invalid_parameter", parameter="q")
    assert_error(
        APIClient().get("/admin/login/", HTTP_X_NOTE="x" * MAX_HEADER_LENGTH),
        431,
        "request.headers_too_large",
    )
