"""Authorization matrix: every endpoint x anonymous, seated player, other player, staff, admin."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

from tournaments.live.models import Game
from tournaments.live.rounds import start as round_start

pytestmark = pytest.mark.django_db

ROLES = ("anonymous", "seated", "other", "staff", "admin")

# endpoint -> expected status per role, on a public table with a running round ("seated" is the player to act)
PUBLIC: dict[str, tuple[int, int, int, int, int]] = {
    "list_tables": (401, 200, 200, 200, 200),
    "create_public_table": (401, 403, 403, 403, 201),
    "create_private_table": (401, 201, 201, 201, 201),
    "read_table": (401, 200, 200, 200, 200),
    "sit": (401, 200, 200, 200, 200),
    "join_wrong_code": (401, 404, 404, 404, 404),
    "leave": (401, 200, 409, 409, 409),
    "read_game": (401, 200, 200, 200, 200),
    "move": (401, 200, 403, 403, 403),
    "events": (401, 200, 403, 200, 200),
    "rounds": (401, 200, 403, 200, 200),
    "close": (401, 403, 403, 403, 200),
}
# the same on a private table: not seated means 404, except staff reading it and its game and admins closing it
PRIVATE: dict[str, tuple[int, int, int, int, int]] = {
    "read_table": (401, 200, 404, 200, 200),
    "sit": (401, 200, 404, 404, 404),
    "join_right_code": (401, 200, 200, 200, 200),
    "leave": (401, 200, 404, 404, 404),
    "read_game": (401, 200, 404, 200, 200),
    "move": (401, 200, 404, 404, 404),
    "events": (401, 200, 404, 200, 200),
    "rounds": (401, 200, 404, 200, 200),
    "close": (401, 403, 404, 403, 200),
}

TABLE_BODY = {"game": "rummy500", "seats": 4, "pcr": 1, "min_buy_in": 100, "max_buy_in": 1000}


@pytest.fixture
def world(make_table: Any, make_player: Any, admin_user: Any, staff_user: Any, client_for: Any) -> Any:
    def build(private: bool) -> dict[str, Any]:
        ann, bob = make_player("ann"), make_player("bob")
        table = make_table(private=private, creator=ann if private else None)
        for user in (ann, bob):
            if private:
                client_for(user).post("/api/v1/tables/join/", {"code": table.code, "buy_in": 200})
            else:
                client_for(user).post(f"/api/v1/tables/{table.pk}/sit/", {"buy_in": 200})
        game = Game.objects.get(table=table)
        round_start.start_round(game_id=game.pk)
        game.refresh_from_db()
        seated = ann if game.turn_player == "ann" else bob
        users = {
            "anonymous": None,
            "seated": seated,
            "other": make_player("olga"),
            "staff": staff_user,
            "admin": admin_user,
        }
        return {"table": table, "game": game, "users": users}

    return build


def call(world: dict[str, Any], endpoint: str, client: Any) -> Any:
    t, g = world["table"], world["game"]
    requests = {
        "list_tables": ("get", "/api/v1/tables/", None),
        "create_public_table": ("post", "/api/v1/tables/", TABLE_BODY),
        "create_private_table": ("post", "/api/v1/tables/", {**TABLE_BODY, "private": True}),
        "read_table": ("get", f"/api/v1/tables/{t.pk}/", None),
        "sit": ("post", f"/api/v1/tables/{t.pk}/sit/", {"buy_in": 100}),
        "join_wrong_code": ("post", "/api/v1/tables/join/", {"code": "NOPE99", "buy_in": 100}),
        "join_right_code": ("post", "/api/v1/tables/join/", {"code": t.code, "buy_in": 100}),
        "leave": ("post", f"/api/v1/tables/{t.pk}/leave/", None),
        "read_game": ("get", f"/api/v1/games/{g.pk}/", None),
        "move": (
            "post",
            f"/api/v1/games/{g.pk}/moves/",
            {"type": "draw", "source": "stock", "expected_version": 1},
        ),
        "events": ("get", f"/api/v1/games/{g.pk}/events/?after=0", None),
        "rounds": ("get", f"/api/v1/games/{g.pk}/rounds/", None),
        "close": ("post", f"/api/v1/tables/{t.pk}/close/", {}),
    }
    method, path, body = requests[endpoint]
    return getattr(client, method)(path, body) if body is not None else getattr(client, method)(path)


def _cases(matrix: Mapping[str, tuple[int, ...]]) -> list[tuple[str, str, int]]:
    return [(endpoint, role, codes[i]) for endpoint, codes in matrix.items() for i, role in enumerate(ROLES)]


def _check(world: Any, endpoint: Any, role: Any, expected: Any, client_for: Any) -> None:
    response = call(world, endpoint, client_for(world["users"][role]))
    assert response.status_code == expected, (endpoint, role, response.content)
    body = response.json()
    if expected >= 400:
        assert set(body) == {"error"} and set(body["error"]) == {"code", "message", "details"}
    if endpoint == "read_game" and expected == 200:
        assert ("hand" in body) == (role == "seated")
        assert ("legal_moves" in body) == (role == "seated")


@pytest.mark.parametrize(("endpoint", "role", "expected"), _cases(PUBLIC))
def test_public_table_matrix(world: Any, client_for: Any, endpoint: Any, role: Any, expected: Any) -> None:
    _check(world(False), endpoint, role, expected, client_for)


@pytest.mark.parametrize(("endpoint", "role", "expected"), _cases(PRIVATE))
def test_private_table_matrix(world: Any, client_for: Any, endpoint: Any, role: Any, expected: Any) -> None:
    _check(world(True), endpoint, role, expected, client_for)


def test_unknown_ids_are_404(make_player: Any, client_for: Any) -> None:
    client = client_for(make_player())
    for method, path in [
        ("get", "/api/v1/tables/999999/"),
        ("post", "/api/v1/tables/999999/sit/"),
        ("post", "/api/v1/tables/999999/leave/"),
        ("post", "/api/v1/tables/999999/close/"),
        ("get", "/api/v1/games/999999/"),
        ("get", "/api/v1/games/999999/events/"),
        ("get", "/api/v1/games/999999/rounds/"),
    ]:
        body = {"buy_in": 100} if path.endswith("sit/") else None
        response = getattr(client, method)(path, body) if body else getattr(client, method)(path)
        assert response.status_code == 404, (path, response.content)
        assert set(response.json()["error"]) == {"code", "message", "details"}
    move = client.post(
        "/api/v1/games/999999/moves/", {"type": "draw", "source": "stock", "expected_version": 0}
    )
    assert move.status_code == 404
