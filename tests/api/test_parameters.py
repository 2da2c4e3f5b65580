"""Junk in the parameters the API itself reads (`page_size`, `page`, `cursor`, `format`) is a 400
`request.invalid_parameter` naming the parameter, on every list endpoint; never a default or a 404."""

from __future__ import annotations

from typing import Any

import pytest

from ledger.services import accounts
from tests.api.conftest import World
from tournaments.live.models import Seat

pytestmark = pytest.mark.django_db

# Every list endpoint: (URL template, the user who reads it, its pagination, its largest page size).
LISTS: dict[str, tuple[str, str, str, int]] = {
    "tables": ("/api/v1/tables/", "ann", "page", 500),
    "rounds": ("/api/v1/games/{game}/rounds/", "ann", "page", 500),
    "accounts": ("/api/v1/ledger/accounts/", "staff", "page", 500),
    "reconciliation-runs": ("/api/v1/ledger/reconciliation/runs/", "staff", "page", 500),
    "transfers": ("/api/v1/ledger/transfers/", "staff", "cursor", 1000),
    "statement": ("/api/v1/ledger/accounts/{account}/statement/", "staff", "cursor", 1000),
}
PAGE_LISTS = [name for name, (_, _, kind, _) in LISTS.items() if kind == "page"]
CURSOR_LISTS = [name for name, (_, _, kind, _) in LISTS.items() if kind == "cursor"]
# Endpoints that only speak JSON, beside the JSON-only lists.
JSON_ONLY = {
    "wallet": ("/api/v1/wallet/", "ann"),
    "table": ("/api/v1/tables/{table}/", "ann"),
    "game": ("/api/v1/games/{game}/", "ann"),
    "events": ("/api/v1/games/{game}/events/", "ann"),
}


def assert_invalid_parameter(response: Any, parameter: str) -> None:
    assert response.status_code == 400, response.content
    assert response["Content-Type"] == "application/json"
    assert response.json()["error"]["code"] == "request.invalid_parameter"
    assert response.json()["error"]["details"] == {"parameter": parameter}


def get(world: World, name: str, **params: str) -> Any:
    template, user, _, _ = LISTS[name]
    return world.client(user).get(world.url(template), params)


@pytest.mark.parametrize("name", LISTS)
@pytest.mark.parametrize("junk", ["abc", "0", "-3", "1.5", "1e3", " 5", "٣", "9" * 40, "above"])
def test_junk_page_size_is_400(world: World, name: str, junk: str) -> None:
    if junk == "above":
        junk = str(LISTS[name][3] + 1)
    assert_invalid_parameter(get(world, name, page_size=junk), "page_size")


@pytest.mark.parametrize("name", LISTS)
def test_page_size_within_bounds_is_used(world: World, name: str) -> None:
    one = get(world, name, page_size="1")
    assert one.status_code == 200, one.content
    assert len(one.json()["results"]) == 1
    largest = get(world, name, page_size=str(LISTS[name][3]))
    assert largest.status_code == 200, largest.content
    assert largest.json()["next"] is None


@pytest.mark.parametrize("name", PAGE_LISTS)
@pytest.mark.parametrize("junk", ["abc", "0", "-1", "2.0", "9" * 40])
def test_junk_page_is_400(world: World, name: str, junk: str) -> None:
    assert_invalid_parameter(get(world, name, page=junk), "page")


@pytest.mark.parametrize("name", PAGE_LISTS)
def test_page_past_the_end_is_404_and_last_is_the_last(world: World, name: str) -> None:
    past = get(world, name, page="99")
    assert past.status_code == 404
    assert past.json()["error"]["code"] == "not_found"
    last = get(world, name, page="last")
    assert last.status_code == 200
    assert last.json()["next"] is None


@pytest.mark.parametrize("name", CURSOR_LISTS)
@pytest.mark.parametrize("junk", ["junk", "%%%", "bz0tMQ==", "cD0=Zm9v"])
def test_junk_cursor_is_400(world: World, name: str, junk: str) -> None:
    assert_invalid_parameter(get(world, name, cursor=junk), "cursor")


@pytest.mark.parametrize("name", CURSOR_LISTS)
def test_cursor_links_still_walk_the_list(world: World, name: str) -> None:
    user = LISTS[name][1]
    first = get(world, name, page_size="1").json()
    assert first["next"] is not None
    second = world.client(user).get(first["next"])
    assert second.status_code == 200, second.content
    assert second.json()["results"] != first["results"]


@pytest.mark.parametrize("name", LISTS)
@pytest.mark.parametrize("junk", ["xml", "JSON", "yaml", "api"])
def test_unknown_format_is_400_on_every_list(world: World, name: str, junk: str) -> None:
    assert_invalid_parameter(get(world, name, format=junk), "format")


@pytest.mark.parametrize("name", ["tables", "rounds"])
def test_csv_is_an_unknown_format_where_not_offered(world: World, name: str) -> None:
    response = get(world, name, format="csv")
    assert_invalid_parameter(response, "format")
    assert response.json()["error"]["message"] == "format must be one of: json."


@pytest.mark.parametrize("name", JSON_ONLY)
@pytest.mark.parametrize("junk", ["csv", "xml"])
def test_unknown_format_is_400_elsewhere(world: World, name: str, junk: str) -> None:
    template, user = JSON_ONLY[name]
    assert_invalid_parameter(world.client(user).get(world.url(template), {"format": junk}), "format")


def test_known_or_empty_format_is_accepted(world: World) -> None:
    for format_ in ("json", ""):
        assert get(world, "tables", format=format_).status_code == 200
    assert get(world, "accounts", format="csv")["Content-Type"].startswith("text/csv")


def test_a_junk_parameter_changes_nothing(world: World) -> None:
    """A refused parameter on a POST is refused before the service runs: no seat, no chips moved."""
    response = world.client("cid").post(
        world.url("/api/v1/tables/{table}/sit/?format=xml"), {"buy_in": 200}, format="json"
    )
    assert_invalid_parameter(response, "format")
    assert not Seat.objects.filter(table=world.table, player=world.users["cid"]).exists()
    assert accounts.get_wallet(user=world.users["cid"]).balance == 5_000
