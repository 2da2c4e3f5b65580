"""Every error of a CSV request (`?format=csv` or `Accept: text/csv`) is the JSON envelope, served as
`application/json`, on every staff endpoint that exports CSV."""

from __future__ import annotations

from typing import Any, cast

import pytest
from django.db import OperationalError
from django.urls import resolve
from rest_framework.request import Request
from rest_framework.throttling import BaseThrottle
from rest_framework.views import APIView

from tests.api.conftest import World

pytestmark = pytest.mark.django_db

CSV_ENDPOINTS = {
    "accounts": "/api/v1/ledger/accounts/",
    "statement": "/api/v1/ledger/accounts/{account}/statement/",
    "transfers": "/api/v1/ledger/transfers/",
    "transfer": "/api/v1/ledger/transfers/{transfer}/",
    "reconciliation": "/api/v1/ledger/reconciliation/",
    "reconciliation-runs": "/api/v1/ledger/reconciliation/runs/",
}
# A parameter each endpoint refuses (the two without parameters of their own cannot answer 400 to CSV).
BAD_PARAMETER = {
    "accounts": "kind=nope",
    "statement": "from=yesterday",
    "transfers": "table=abc",
    "reconciliation-runs": "page_size=0",
}
# A request each endpoint answers 404 (the transfers cursor list and the reconciliation cannot).
NOT_FOUND = {
    "accounts": "/api/v1/ledger/accounts/?page=99",
    "statement": "/api/v1/ledger/accounts/999999999/statement/",
    "transfer": "/api/v1/ledger/transfers/999999999/",
    "reconciliation-runs": "/api/v1/ledger/reconciliation/runs/?page=99",
}


def url(world: World, name: str, query: str = "format=csv") -> str:
    return f"{world.url(CSV_ENDPOINTS[name])}?{query}"


def assert_json_error(response: Any, status: int, code: str) -> dict[str, Any]:
    assert response.status_code == status, response.content
    assert response["Content-Type"] == "application/json", response.content
    body: dict[str, Any] = response.json()
    assert set(body) == {"error"} and set(body["error"]) == {"code", "message", "details"}
    assert body["error"]["code"] == code
    return body


def view_class(url: str) -> type[APIView]:
    view: Any = resolve(url.split("?")[0]).func
    return cast(type[APIView], view.view_class)


class Refuse(BaseThrottle):
    def allow_request(self, request: Request, view: Any) -> bool:
        return False

    def wait(self) -> float:
        return 7


@pytest.mark.parametrize("name", CSV_ENDPOINTS)
def test_csv_export_works(world: World, name: str) -> None:
    response = world.client("staff").get(url(world, name))
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/csv")


@pytest.mark.parametrize("name", CSV_ENDPOINTS)
@pytest.mark.parametrize("accept", [None, "text/csv"])
def test_401_and_403_are_json(world: World, name: str, accept: str | None) -> None:
    # Either way of asking for CSV: the format parameter, or only the Accept header.
    headers: dict[str, Any] = {} if accept is None else {"HTTP_ACCEPT": accept}
    query = "format=csv" if accept is None else ""
    assert_json_error(
        world.client(None).get(url(world, name, query), **headers), 401, "auth.not_authenticated"
    )
    assert_json_error(world.client("ann").get(url(world, name, query), **headers), 403, "auth.forbidden")


@pytest.mark.parametrize("name", BAD_PARAMETER)
def test_400_is_json(world: World, name: str) -> None:
    response = world.client("staff").get(url(world, name, f"format=csv&{BAD_PARAMETER[name]}"))
    assert response.status_code == 400
    assert response["Content-Type"] == "application/json"
    assert response.json()["error"]["code"] in ("request.invalid", "request.invalid_parameter")


@pytest.mark.parametrize("name", NOT_FOUND)
def test_404_is_json(world: World, name: str) -> None:
    separator = "&" if "?" in NOT_FOUND[name] else "?"
    response = world.client("staff").get(f"{NOT_FOUND[name]}{separator}format=csv")
    assert_json_error(response, 404, "not_found")


@pytest.mark.off_contract  # these views are not throttled: a throttle is faked
@pytest.mark.parametrize("name", CSV_ENDPOINTS)
def test_429_is_json(world: World, name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    target = url(world, name)
    monkeypatch.setattr(view_class(target), "get_throttles", lambda self: [Refuse()])
    response = world.client("staff").get(target)
    body = assert_json_error(response, 429, "throttled")
    assert body["error"]["details"] == {"retry_after_seconds": 7}
    assert response["Retry-After"] == "7"


@pytest.mark.parametrize("name", CSV_ENDPOINTS)
def test_503_is_json(world: World, name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    target = url(world, name)

    def unreachable(*args: Any, **kwargs: Any) -> Any:
        raise OperationalError("the database went away")

    monkeypatch.setattr(view_class(target), "get", unreachable)
    response = world.client("staff").get(target)
    assert_json_error(response, 503, "service.unavailable")
    assert response["Retry-After"] == "1"
