"""The live-play endpoints read the token with one hand-written statement (RowTokenAuthentication): it must
answer exactly as DRF's TokenAuthentication does, which the rest of the API uses."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from tournaments.models import Game

pytestmark = pytest.mark.django_db


def _client(key: str | None) -> APIClient:
    client = APIClient()
    if key is not None:
        client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return client


def _same_answer(key: str | None, game_id: int) -> tuple[int, dict[str, Any]]:
    """The game endpoint's answer, after checking the wallet endpoint (DRF's own class) gives the same error."""
    play = _client(key).get(f"/api/v1/games/{game_id}/")
    drf = _client(key).get("/api/v1/wallet/")
    if play.status_code == 401:
        assert drf.status_code == 401
        assert play.json() == drf.json()
    return play.status_code, play.json()


def test_a_valid_token_authenticates_its_user(make_table: Any, player: Any) -> None:
    table = make_table()
    game = Game.objects.get(table=table)
    user = player("tok")
    status, body = _same_answer(Token.objects.create(user=user).key, game.pk)
    assert status == 200
    assert body["id"] == game.pk
    assert "hand" not in body  # not seated: the spectator view, so the token was read as this user


@pytest.mark.parametrize("key", ["0" * 40, "not-a-token", "x" * 400])
def test_an_unknown_token_is_refused_like_drf_does(make_table: Any, key: str) -> None:
    game = Game.objects.get(table=make_table())
    status, body = _same_answer(key, game.pk)
    assert status == 401
    assert body["error"]["code"] == "auth.failed"
    assert body["error"]["message"] == "Invalid token."


def test_an_inactive_users_token_is_refused_like_drf_does(make_table: Any, player: Any) -> None:
    game = Game.objects.get(table=make_table())
    user = player("gone")
    key = Token.objects.create(user=user).key
    user.is_active = False
    user.save(update_fields=["is_active"])
    status, body = _same_answer(key, game.pk)
    assert status == 401
    assert body["error"]["message"] == "User inactive or deleted."


def test_a_move_with_a_bad_token_changes_nothing(make_table: Any) -> None:
    game = Game.objects.get(table=make_table())
    before = Game.objects.get(pk=game.pk).version
    response = _client("0" * 40).post(
        f"/api/v1/games/{game.pk}/moves/",
        {"type": "draw", "source": "stock", "expected_version": before},
        format="json",
    )
    assert response.status_code == 401
    assert response.json()["error"]["code"] == "auth.failed"
    assert Game.objects.get(pk=game.pk).version == before
