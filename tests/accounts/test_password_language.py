"""Registration's password refusals are the page's language: Django's own validators' messages, as Django
translates them, in the error envelope (issue 31, defect 16)."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model

from tests.clients import api_client


def _register(password: str, **headers: Any) -> Any:
    return api_client().post(
        "/api/v1/auth/register/",
        {"username": "giulia", "password": password, "date_of_birth": "1990-01-01"},
        **headers,
    )


@pytest.mark.django_db
def test_a_short_common_password_is_refused_in_italian_for_an_italian_player() -> None:
    answer = _register("abc", HTTP_ACCEPT_LANGUAGE="it")
    assert answer.status_code == 400
    body = answer.json()["error"]
    assert body["code"] == "request.invalid"
    said = [line for lines in body["details"]["fields"].values() for line in lines]
    assert "Questa password è troppo corta. Deve contenere almeno 8 caratteri." in said, said
    assert "Questa password è troppo comune." in said, said
    assert not any("This password" in line for line in said), said
    assert not get_user_model().objects.exists()


@pytest.mark.django_db
def test_the_same_refusal_stays_english_for_an_english_player() -> None:
    fields = _register("abc", HTTP_ACCEPT_LANGUAGE="en").json()["error"]["details"]["fields"]
    said = [line for lines in fields.values() for line in lines]
    assert any(line.startswith("This password is too short") for line in said), said
