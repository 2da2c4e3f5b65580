"""The live-play endpoints read the token with one hand-written statement (RowTokenAuthentication): it must
answer exactly as the project's token authentication (knox's), which the rest of the API uses."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from knox.auth import TokenAuthentication as KnoxTokenAuthentication
from knox.models import AuthToken
from rest_framework.exceptions import AuthenticationFailed
from rest_framework.test import APIClient

from accounts import services
from accounts.authentication import RowTokenAuthentication
from tests.clients import api_client
from tournaments.live.models import Game

pytestmark = pytest.mark.django_db


def _client(key: str | None) -> APIClient:
    return api_client(token=key)


def _same_answer(key: str | None, game_id: int) -> tuple[int, dict[str, Any]]:
    """The game endpoint's answer, after checking the wallet endpoint (knox's own class) gives the same
    status, and the same error if any."""
    play = _client(key).get(f"/api/v1/games/{game_id}/")
    library = _client(key).get("/api/v1/wallet/")
    assert play.status_code in (200, 401)
    assert library.status_code == play.status_code
    if play.status_code == 401:
        assert play.json() == library.json()
    return play.status_code, play.json()


def test_a_valid_token_authenticates_its_user_in_one_statement(make_table: Any, make_player: Any) -> None:
    table = make_table()
    game = Game.objects.get(table=table)
    user = make_player("tok")
    _, key = services.create_token(user=user)
    status, body = _same_answer(key, game.pk)
    assert status == 200
    assert body["id"] == game.pk
    assert "hand" not in body  # not seated: the spectator view, so the token was read as this user
    with CaptureQueriesContext(connection) as queries:
        assert _client(key).get(f"/api/v1/games/{game.pk}/").status_code == 200
    token_reads = [q["sql"] for q in queries.captured_queries if "knox_authtoken" in q["sql"]]
    assert len(token_reads) == 1
    assert 'FROM "knox_authtoken" k JOIN "auth_user" u' in token_reads[0]


@pytest.mark.parametrize("key", ["0" * 64, "not-a-token", "x" * 400, "caf\xe9"])
def test_an_unknown_token_is_refused_like_knox_does(make_table: Any, key: str) -> None:
    game = Game.objects.get(table=make_table())
    status, body = _same_answer(key, game.pk)
    assert status == 401
    assert body["error"]["code"] == "auth.failed"


def test_a_wrong_token_of_a_known_prefix_is_refused(make_table: Any, make_player: Any) -> None:
    game = Game.objects.get(table=make_table())
    _, key = services.create_token(user=make_player("near"))
    status, body = _same_answer(key[:-1] + ("0" if key[-1] != "0" else "1"), game.pk)
    assert status == 401
    assert body["error"]["message"] == "Invalid token."


def test_an_expired_token_is_refused_like_knox_does(make_table: Any, make_player: Any) -> None:
    game = Game.objects.get(table=make_table())
    instance, key = services.create_token(user=make_player("late"))
    AuthToken.objects.filter(pk=instance.pk).update(expiry=timezone.now() - timedelta(seconds=1))
    play = _client(key).get(f"/api/v1/games/{game.pk}/")
    assert play.status_code == 401
    assert play.json()["error"]["message"] == "Invalid token."
    assert AuthToken.objects.filter(pk=instance.pk).exists()  # the hand-written read deletes nothing
    status, body = _same_answer(key, game.pk)  # knox's class then deletes it, with the same answer
    assert (status, body) == (401, play.json())


def test_a_token_without_expiry_is_accepted_like_knox_does(make_table: Any, make_player: Any) -> None:
    game = Game.objects.get(table=make_table())
    instance, key = services.create_token(user=make_player("forever"))
    AuthToken.objects.filter(pk=instance.pk).update(expiry=None)
    assert _same_answer(key, game.pk)[0] == 200


def test_an_inactive_users_token_is_refused_like_knox_does(make_table: Any, make_player: Any) -> None:
    game = Game.objects.get(table=make_table())
    user = make_player("gone")
    _, key = services.create_token(user=user)
    user.is_active = False
    user.save(update_fields=["is_active"])
    status, body = _same_answer(key, game.pk)
    assert status == 401
    assert body["error"]["message"] == "User inactive or deleted."


def test_a_move_with_a_bad_token_changes_nothing(make_table: Any) -> None:
    game = Game.objects.get(table=make_table())
    before = Game.objects.get(pk=game.pk).version
    response = _client("0" * 64).post(
        f"/api/v1/games/{game.pk}/moves/",
        {"type": "draw", "source": "stock", "expected_version": before},
        format="json",
    )
    assert response.status_code == 401
    assert response.json()["error"]["code"] == "auth.failed"
    assert Game.objects.get(pk=game.pk).version == before


def _outcome(auth: Any, key: str) -> tuple[Any, str | None]:
    try:
        user, token = auth.authenticate_credentials(key.encode())
    except AuthenticationFailed as exc:
        return None, str(exc.detail)
    return (user.pk, token.pk), None


@pytest.mark.parametrize("case", ["valid", "wrong", "expired", "inactive", "no expiry"])
def test_the_hand_written_read_answers_as_knoxs_own_class(make_player: Any, case: str) -> None:
    user = make_player(f"cmp-{case.replace(' ', '-')}")
    instance, key = services.create_token(user=user)
    if case == "wrong":
        key = key[:15] + "0" * (len(key) - 15)  # knox's lookup prefix of a real token, the rest wrong
    elif case == "expired":
        AuthToken.objects.filter(pk=instance.pk).update(expiry=timezone.now() - timedelta(seconds=1))
    elif case == "inactive":
        type(user).objects.filter(pk=user.pk).update(is_active=False)
    elif case == "no expiry":
        AuthToken.objects.filter(pk=instance.pk).update(expiry=None)
    row = _outcome(RowTokenAuthentication(), key)
    library = _outcome(KnoxTokenAuthentication(), key)
    assert row == library
    assert (row[1] is None) == (case in ("valid", "no expiry"))
