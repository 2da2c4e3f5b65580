"""API tokens (issue 9): a new expiring token per login, stored as a digest only, logout of one client or all,
revoked by any password change, never shown by the admin."""

from __future__ import annotations

from datetime import timedelta
from io import StringIO
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import MD5PasswordHasher
from django.core.management import call_command
from django.db import connection
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from knox.models import AuthToken
from rest_framework.test import APIClient

from accounts import services, tasks
from tests.ledger.utils import make_user

pytestmark = pytest.mark.django_db

PASSWORD = "pw-for-tests-1"


def _login(username: str, password: str = PASSWORD) -> Any:
    return APIClient().post(
        "/api/v1/auth/token/", {"username": username, "password": password}, format="json"
    )


def _client(token: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    return client


def _works(token: str) -> bool:
    status = _client(token).get("/api/v1/wallet/").status_code
    assert status in (200, 401)
    return status == 200


def test_each_login_is_a_new_expiring_token_stored_only_as_a_digest(settings: Any) -> None:
    user = make_user("tok")
    first, second = _login("tok"), _login("tok")
    assert first.status_code == second.status_code == 200
    assert set(first.json()) == {"token", "expiry"}
    assert first.json()["token"] != second.json()["token"]
    expiry = parse_datetime(first.json()["expiry"])
    assert expiry is not None
    ttl = settings.REST_KNOX["TOKEN_TTL"]
    assert timezone.now() + ttl - timedelta(minutes=1) < expiry <= timezone.now() + ttl
    assert _works(first.json()["token"]) and _works(second.json()["token"])
    assert AuthToken.objects.filter(user=user).count() == 2
    with connection.cursor() as cursor:
        cursor.execute("SELECT * FROM knox_authtoken")
        stored = repr(cursor.fetchall())
    assert first.json()["token"] not in stored and second.json()["token"] not in stored


def test_wrong_password_and_inactive_user_get_no_token() -> None:
    make_user("off", is_active=False)
    make_user("on")
    for response in (_login("on", "wrong-password"), _login("off"), _login("nobody")):
        assert response.status_code == 400
        assert response.json()["error"]["code"] == "request.invalid"
        assert response.json()["error"]["details"] == {
            "fields": {"non_field_errors": ["Unable to log in with provided credentials."]}
        }
    assert not AuthToken.objects.exists()


def test_an_expired_token_is_refused() -> None:
    user = make_user("old")
    instance, token = services.create_token(user=user)
    assert _works(token)
    AuthToken.objects.filter(pk=instance.pk).update(expiry=timezone.now() - timedelta(seconds=1))
    response = _client(token).get("/api/v1/wallet/")
    assert response.status_code == 401
    assert response.json()["error"] == {"code": "auth.failed", "message": "Invalid token.", "details": {}}


def test_logout_revokes_only_the_token_used() -> None:
    make_user("two")
    phone, laptop = _login("two").json()["token"], _login("two").json()["token"]
    assert _client(phone).post("/api/v1/auth/logout/").status_code == 204
    assert not _works(phone)
    assert _works(laptop)
    assert _client(phone).post("/api/v1/auth/logout/").status_code == 401


def test_logout_all_revokes_every_token_of_the_user_only() -> None:
    make_user("many")
    make_user("other")
    tokens = [_login("many").json()["token"] for _ in range(3)]
    others = _login("other").json()["token"]
    assert _client(tokens[0]).post("/api/v1/auth/logout-all/").status_code == 204
    assert not any(_works(token) for token in tokens)
    assert _works(others)


def test_logout_needs_a_token() -> None:
    response = APIClient().post("/api/v1/auth/logout/")
    assert response.status_code == 401
    assert response.json()["error"]["code"] == "auth.not_authenticated"
    session = APIClient()
    session.force_login(make_user("web"))
    assert session.post("/api/v1/auth/logout-all/").status_code == 401


def test_a_header_that_is_not_utf8_is_a_401_not_a_500() -> None:
    response = APIClient(raise_request_exception=False).get(
        "/api/v1/wallet/", HTTP_AUTHORIZATION="Token caf\xe9"
    )
    assert response.status_code == 401
    assert response.json()["error"]["code"] == "auth.failed"


def _user_with_tokens(name: str) -> tuple[Any, list[str]]:
    user = make_user(name, is_staff=True, is_superuser=True)
    return user, [services.create_token(user=user)[1] for _ in range(2)]


def test_set_password_revokes_every_token() -> None:
    user, tokens = _user_with_tokens("pw")
    _, kept = _user_with_tokens("bystander")
    user.set_password("another-secret-7")
    user.save()
    assert not any(_works(token) for token in tokens)
    assert all(_works(token) for token in kept)


def test_the_admin_password_form_revokes_every_token() -> None:
    user, tokens = _user_with_tokens("formed")
    admin = Client()
    admin.force_login(make_user("root", is_staff=True, is_superuser=True))
    response = admin.post(
        reverse("admin:auth_user_password_change", args=[user.pk]),
        {"password1": "another-secret-7", "password2": "another-secret-7", "usable_password": "true"},
    )
    assert response.status_code == 302, response.content
    assert not any(_works(token) for token in tokens)


def test_manage_py_changepassword_revokes_every_token(monkeypatch: pytest.MonkeyPatch) -> None:
    from django.contrib.auth.management.commands import changepassword

    user, tokens = _user_with_tokens("cli")
    monkeypatch.setattr(changepassword.Command, "_get_pass", lambda self, prompt="": "another-secret-7")
    call_command("changepassword", user.username, stdout=StringIO())
    assert not any(_works(token) for token in tokens)


def test_an_unusable_password_revokes_every_token() -> None:
    user, tokens = _user_with_tokens("locked")
    user.set_unusable_password()
    user.save()
    assert not any(_works(token) for token in tokens)


class UpgradedHasher(MD5PasswordHasher):
    algorithm = "upgraded_md5"


def test_other_saves_and_a_login_keep_the_tokens(settings: Any) -> None:
    user, tokens = _user_with_tokens("keeps")
    user.first_name = "Keeps"
    user.save()
    user.save(update_fields=["last_login"])
    # A login that upgrades the password's hash (a new hasher) saves the password but does not change it.
    settings.PASSWORD_HASHERS = [f"{__name__}.UpgradedHasher", *settings.PASSWORD_HASHERS]
    assert _login("keeps").status_code == 200
    assert get_user_model().objects.get(pk=user.pk).password.startswith("upgraded_md5$")
    assert all(_works(token) for token in tokens)


def test_the_purge_task_deletes_only_expired_tokens() -> None:
    user = make_user("purge")
    expired, _ = services.create_token(user=user)
    live, live_token = services.create_token(user=user)
    AuthToken.objects.filter(pk=expired.pk).update(expiry=timezone.now() - timedelta(hours=1))
    assert tasks.purge_expired_tokens.name == "accounts.purge_expired_tokens"
    assert tasks.purge_expired_tokens() == 1
    assert list(AuthToken.objects.values_list("pk", flat=True)) == [live.pk]
    assert _works(live_token)


def test_the_admin_lists_tokens_without_them_and_cannot_create_one() -> None:
    user, tokens = _user_with_tokens("seen")
    admin = Client()
    admin.force_login(user)
    changelist = admin.get(reverse("admin:knox_authtoken_changelist"))
    assert changelist.status_code == 200
    page = changelist.content.decode()
    assert "seen" in page
    for token in tokens:
        assert token not in page
        assert token[:8] not in page  # not even knox's stored prefix (token_key)
    assert admin.get(reverse("admin:knox_authtoken_add")).status_code == 403
    digest = AuthToken.objects.filter(user=user).first().pk
    detail = admin.get(reverse("admin:knox_authtoken_change", args=[digest]))
    assert detail.status_code == 200
    assert not any(token[:8] in detail.content.decode() for token in tokens)


def test_the_admin_revokes_a_token() -> None:
    user, tokens = _user_with_tokens("revoked")
    admin = Client()
    admin.force_login(user)
    digests = list(AuthToken.objects.filter(user=user).values_list("pk", flat=True))
    response = admin.post(
        reverse("admin:knox_authtoken_changelist"),
        {"action": "delete_selected", "_selected_action": digests[:1], "post": "yes"},
    )
    assert response.status_code == 302
    assert sum(_works(token) for token in tokens) == 1


def test_the_old_drf_token_table_is_gone() -> None:
    tables = connection.introspection.table_names()
    assert "authtoken_token" not in tables
    assert "knox_authtoken" in tables
