"""What the schema promises about parameters, the server keeps (docs/api.md): an event version is an integer
from 0 and a wait a plain number from 0 (no `0.5` version, no `inf`, `nan`, `1_000` or padded wait, which
Python's float() would take); the tournaments' `game` filter is one of the presets; a bad token is refused
where a token is optional too. The fuzz test (tests/api/test_fuzz.py) finds any other disagreement."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from tests.api.conftest import World
from tests.api.test_parameters import assert_invalid_parameter
from tests.clients import api_client
from tests.tournaments.single_table.helpers import new_tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def tournament(world: World) -> Any:
    return new_tournament(world.users["admin"])


def events_urls(world: World, tournament: Any) -> list[tuple[APIClient, str]]:
    return [
        (world.client("ann"), f"/api/v1/games/{world.game.pk}/events/"),
        (world.client(None), f"/api/v1/tournaments/{tournament.pk}/events/"),
    ]


@pytest.mark.parametrize("junk", ["0.5", "1e3", "-1", " 3", "+3", "٣", "inf", "9" * 19])
def test_an_event_version_is_an_integer_from_0(world: World, tournament: Any, junk: str) -> None:
    for client, url in events_urls(world, tournament):
        assert_invalid_parameter(client.get(url, {"after": junk}), "after")


@pytest.mark.parametrize("junk", ["inf", "nan", "-inf", "1_000", " 1", "1 ", "0x10", "-0.5", "abc"])
def test_a_wait_is_a_number_from_0(world: World, tournament: Any, junk: str) -> None:
    for client, url in events_urls(world, tournament):
        assert_invalid_parameter(client.get(url, {"wait": junk}), "wait")


@pytest.mark.parametrize("value", ["", "0", "3", "999999999999999999"])
def test_a_version_in_range_or_empty_is_read(world: World, tournament: Any, value: str) -> None:
    for client, url in events_urls(world, tournament):
        response = client.get(url, {"after": value, "wait": "0"})
        assert response.status_code == 200, response.content
        # Nothing after a version past the log's end: the next call's `after` is the same.
        if int(value or 0) > 10**6:
            assert response.json()["next_after"] == int(value)


def test_a_wait_above_the_most_is_the_most(world: World, tournament: Any, settings: Any) -> None:
    settings.RAMINO_EVENTS_MAX_WAIT_SECONDS = 0
    for client, url in events_urls(world, tournament):
        assert client.get(url, {"wait": "1e3"}).status_code == 200


def test_the_game_filter_is_one_of_the_presets(world: World, tournament: Any) -> None:
    client = world.client(None)
    assert_invalid_parameter(client.get("/api/v1/tournaments/", {"game": "poker"}), "game")
    found = client.get("/api/v1/tournaments/", {"game": "rummy500"}).json()["results"]
    assert [t["id"] for t in found] == [tournament.pk]
    assert client.get("/api/v1/tournaments/", {"game": ""}).json()["count"] == 1


def test_a_bad_token_is_refused_where_a_token_is_optional(tournament: Any) -> None:
    response = api_client(token="not-a-token").get(f"/api/v1/tournaments/{tournament.pk}/")
    assert response.status_code == 401
    assert response.json()["error"]["code"] == "auth.failed"


@pytest.mark.parametrize("junk", [0, 1, "true", "yes", None])
def test_a_boolean_of_a_body_is_a_json_boolean(world: World, junk: Any) -> None:
    """The schema says `boolean`; DRF's field would take `0`, `1`, `"true"` or `"yes"` for one."""
    body = {"game": "rummy500", "seats": 2, "pcr": 1, "min_buy_in": 100, "max_buy_in": 200, "private": junk}
    response = world.client("ann").post("/api/v1/tables/", body, format="json")
    assert response.status_code == 400, response.content
    assert set(response.json()["error"]["details"]["fields"]) == {"private"}
    created = world.client("ann").post("/api/v1/tables/", {**body, "private": True}, format="json")
    assert created.status_code == 201, created.content
